/*
 * attack_cards.h - what the card-predicting attack bots share: a bot that
 * plays the first legal move and, in every game, predicts each hidden card
 * before the arena shows it, and counts how many it got right.
 *
 * The cards of a deal are the positions of its shuffled deck (R12, the
 * engine's deal): a stock's k-th card from the top (k = 0 the top dealt) is
 * at position (stock_size - 1 - k) * players + seat, since the stocks are
 * dealt a card at a time from seat 0 (the dealer is the last seat); the
 * draw pile is the rest, drawn from position stock_size * players on. So
 * every card the bot is shown after its first request - each card it draws
 * (a draw event with cards) and each stock top uncovered, its own or
 * another's (a stock_top event) - has a position, and a predictor that knows
 * the deck, or remembers what an earlier rotation of the same deal showed,
 * names it before it is shown. After a refill (R6) draws are no longer
 * predicted: the completed piles are shuffled anew.
 *
 * The first request's cards are what a predictor may use to find its deal;
 * they are not counted. A predictor that knows nothing guesses Skip-Bo, the
 * most common card (18 of 162): right 1 time in 9 by chance.
 *
 * At each request, once its cards are counted, the bot writes on stderr,
 * which the arena keeps in its log, the game's counts so far (so that a
 * process stopped in its game, by a fault, still leaves them):
 *
 *   CARDS <name> <game id told> <right> <predicted>
 *
 * and the test sums the last line of each game over the tournament and
 * judges them against chance.
 */
#ifndef SKIPBO_ATTACK_CARDS_H
#define SKIPBO_ATTACK_CARDS_H

#include <stdint.h>

#define CARDS_DECK 162
#define CARDS_UNKNOWN -1
#define CARDS_SKIPBO 0

/* What the bot knows of the game it is playing. */
struct cards_game {
	const char *id;        /* the game id it was told */
	int seat, players, stock_size;
	int shown[CARDS_DECK]; /* cards shown so far at each position, CARDS_UNKNOWN if not */
};

/* One attack: its name and how it predicts. Every callback may be NULL. */
struct cards_attack {
	const char *name;
	/* A game starts (game_start read); argv as given to main. */
	void (*game_start)(const struct cards_game *g, int argc, char **argv);
	/* The first request's cards are in g->shown: find the deal if it can. */
	void (*first_request)(const struct cards_game *g);
	/* The card at deck position pos, or CARDS_UNKNOWN (then Skip-Bo is guessed). */
	int (*predict)(const struct cards_game *g, int pos);
	/* A card was shown (after its prediction, if any). */
	void (*shown)(const struct cards_game *g, int pos, int card);
	/* The game is over. */
	void (*game_end)(const struct cards_game *g);
};

/*
 * The deal's key, 0 .. CARDS_DEAL_KEYS-1, from the stock tops every seat of
 * every rotation sees at its first request: (the even seats' tops, folded)
 * x 13 + (the odd seats'). Call it once the first request's cards are in
 * g->shown. With 2 players two deals share a key about 1 time in 160.
 */
#define CARDS_DEAL_KEYS (13 * 13)
int cards_deal_key(const struct cards_game *g);

/* Run the bot: read the arena's lines on stdin until quit or EOF. Returns main's status. */
int cards_main(const struct cards_attack *a, int argc, char **argv);

#endif
