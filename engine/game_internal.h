/*
 * game_internal.h - the inside of struct game, shared by the engine's modules
 * and by the engine tests (which build specific positions with it).
 *
 * Pile conventions: every array holds its pile bottom first, so the top card
 * of a pile of n cards is at index n - 1 (stock, discard, building, draw pile,
 * completed heap). A hand is a multiset kept as a count per card value.
 */
#ifndef SKIPBO_GAME_INTERNAL_H
#define SKIPBO_GAME_INTERNAL_H

#include "engine.h"

#define GAME_MAX_STOCK 30
#define GAME_CARD_VALUES 13 /* CARD_SKIPBO (0) and 1..12 */
#define GAME_PILE_MAX 12    /* a building pile never holds more than 12 cards (R4, R6.2) */
#define GAME_NO_CARD 13     /* an empty pile's top in struct game's tops[] */

struct game {
	struct game_rules rules;
	struct rng rng;
	int players;
	int to_move; /* -1 once over */
	uint32_t turn;
	uint32_t moves;

	/* R7 stalemate bookkeeping for the turn in progress and the turns before it. */
	int idle_turns;  /* consecutive finished turns without a building play or a draw */
	int turn_played; /* a card went onto a building pile this turn */
	int turn_drew;   /* a card was drawn this turn */

	int status; /* enum game_status */
	int reason; /* enum end_reason */
	int winners[ENGINE_MAX_PLAYERS];
	int score[ENGINE_MAX_PLAYERS];

	uint8_t partner[ENGINE_MAX_PLAYERS]; /* own seat without partnership */
	uint8_t removed[ENGINE_MAX_PLAYERS];
	uint8_t hand[ENGINE_MAX_PLAYERS][GAME_CARD_VALUES];
	uint8_t hand_n[ENGINE_MAX_PLAYERS];
	uint16_t hand_mask[ENGINE_MAX_PLAYERS]; /* bit v set when the hand holds a card v */
	uint8_t stock[ENGINE_MAX_PLAYERS][GAME_MAX_STOCK];
	uint8_t stock_n[ENGINE_MAX_PLAYERS];
	uint8_t discard_n[ENGINE_MAX_PLAYERS][ENGINE_DISCARD_PILES];
	/* The playable tops of each seat, kept in step with the piles so that the
	 * move generator reads five bytes per seat: [0] the stock top, [1 + d]
	 * the top of discard pile d; GAME_NO_CARD when the pile is empty. */
	uint8_t tops[ENGINE_MAX_PLAYERS][1 + ENGINE_DISCARD_PILES];
	uint8_t building[ENGINE_BUILDING_PILES][GAME_PILE_MAX];
	uint8_t building_n[ENGINE_BUILDING_PILES];
	uint8_t building_value[ENGINE_BUILDING_PILES];
	uint8_t draw[ENGINE_DECK_SIZE];
	uint8_t completed[ENGINE_DECK_SIZE];
	int draw_n, completed_n;
	uint8_t deck[ENGINE_DECK_SIZE]; /* R12: the shuffled deck, deck[0] on top */
	uint8_t discard[ENGINE_MAX_PLAYERS][ENGINE_DISCARD_PILES][ENGINE_DECK_SIZE];

	struct event *events; /* NULL when rules.no_event_log */
	size_t events_n, events_cap;
	int log_failed; /* an event could not be stored (no memory); the log is cut short */
};

/* Doubles the event array; on failure marks the log as cut short. */
int game_log_grow(struct game *g);

/* Appends an event stamped with the current turn (no-op when the log is off).
 * Inline: several events are logged per move. */
static inline void game_log(struct game *g, int kind, int seat, int source, int owner, int pile,
			    int card, int target, int value, int count)
{
	if (!g->events)
		return;
	if (g->events_n == g->events_cap && game_log_grow(g) < 0)
		return;
	g->events[g->events_n++] = (struct event){
		.kind = (uint8_t)kind, .seat = (uint8_t)seat, .source = (uint8_t)source,
		.owner = (uint8_t)owner, .pile = (uint8_t)pile, .card = (uint8_t)card,
		.target = (uint8_t)target, .value = (uint8_t)value, .count = (uint32_t)count,
		.turn = g->turn,
	};
}

/* Recomputes tops[seat] from the piles (after the deal, or a test's set-up). */
static inline void game_refresh_tops(struct game *g, int seat)
{
	g->tops[seat][0] = g->stock_n[seat] ? g->stock[seat][g->stock_n[seat] - 1] : GAME_NO_CARD;
	for (int d = 0; d < ENGINE_DISCARD_PILES; d++) {
		int k = g->discard_n[seat][d];

		g->tops[seat][1 + d] = k ? g->discard[seat][d][k - 1] : GAME_NO_CARD;
	}
}

/* Takes one card of value card out of seat's hand (it must be there). */
static inline void game_hand_remove(struct game *g, int seat, int card)
{
	g->hand_n[seat]--;
	if (--g->hand[seat][card] == 0)
		g->hand_mask[seat] &= (uint16_t)~(1u << card);
}

/*
 * Draws one card for seat, refilling the draw pile first if it is empty
 * (R6). Returns 1 if a card was drawn, 0 if nothing could be produced.
 */
int game_draw_one(struct game *g, int seat);

/* Ends the turn of the player to move (after a discard, pass or removal):
 * R7 stalemate and turn cap, then the next seat's turn with its draw-up. */
void game_end_turn(struct game *g);

/* Ends the game; winning_seat is any seat of the winning side, or -1. */
void game_finish(struct game *g, int reason, int winning_seat);

#endif
