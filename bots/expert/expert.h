/*
 * expert.h - the expert reference bot's policy: the hard bot's turn search
 * and score, with the chances the hard bot guesses counted over deals of the
 * cards the seat has not seen.
 *
 * Per decision: the walk of turns.h lists the ends of turn reachable with
 * the cards the seat can see and scores them as the hard bot does
 * (turnscore.h). The best few, each with its best two discards, are the
 * candidates. The hard bot's score of an end of turn rests on three guessed
 * chances: that each other seat can play its stock top on the building piles
 * left to it, that the player can play its own at its next turn, and after a
 * refill that the 5 unknown cards reach it at once. The expert deals the
 * unseen cards many times, consistently with everything the seat has seen
 * and with how each other player ended its last turn (cards.h, deals.h),
 * and counts those chances instead: each other seat's actual hand, stock top
 * and discard piles (its partner's too) against the piles the candidate
 * leaves, and the player's own draws. Every candidate is judged over the same
 * deals; the first move of the best is the answer, and the next request is
 * judged again. The deals draw only the cards left to draw (R6), and a turn
 * that leaves fewer than a refill's worth also weighs the player's lead in
 * stock cards, as a stalemate would rank it (R7).
 *
 * Deterministic: the search stops on a count of positions, the number of
 * deals is fixed, and the deals come from a generator seeded from the game
 * id and the decision's number, so the same request in the same game gives
 * the same answer on any machine. A clock is only a safety net, as for the
 * hard bot.
 */
#ifndef SKIPBO_BOTS_EXPERT_H
#define SKIPBO_BOTS_EXPERT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct expert_config {
	long max_nodes;        /* positions of the turn search per decision, 0 = no limit */
	int candidates;        /* ends of turn judged over deals, 1..EXPERT_MAX_CANDIDATES */
	int samples;           /* deals per decision, 1..EXPERT_MAX_SAMPLES */
	double net_move_share; /* safety net: this fraction of the request's move_ms */
	double net_bank_share; /* safety net: this fraction of the request's bank_ms */
};

#define EXPERT_MAX_CANDIDATES 32
#define EXPERT_MAX_SAMPLES 256
/* 4,000 positions as the hard bot; 12 candidates over 64 deals: about 0.4
 * ms per move on one core (more deals gain nothing measurable). The safety
 * net as the hard bot's: 250 ms at the default limits. */
#define EXPERT_DEFAULT_MAX_NODES 4000L
#define EXPERT_DEFAULT_CANDIDATES 12
#define EXPERT_DEFAULT_SAMPLES 64
#define EXPERT_DEFAULT_NET_MOVE_SHARE 0.25
#define EXPERT_DEFAULT_NET_BANK_SHARE 0.02

void expert_config_default(struct expert_config *cfg);

struct expert_stats {
	long nodes;          /* positions of the turn search */
	int candidates;      /* ends of turn judged over deals (0: the answer was clear without) */
	int samples;         /* deals made */
	int exact_cards;     /* 1: the events accounted for every card seen (cards.h) */
	int64_t elapsed_us;  /* CPU time spent choosing */
	int net_hit;         /* the safety net stopped it: the move then depends on time */
};

struct expert;
struct deal;

/* A new player. NULL when memory runs out. cfg is copied; out-of-range
 * candidates and samples are clamped. */
struct expert *expert_new(const struct expert_config *cfg);
void expert_free(struct expert *e);

/* A game begins (the game_start "game" field): forget the last one's cards. */
void expert_game_start(struct expert *e, const char *game_id);

/* The events since the seat's previous request, in order (a request's events). */
void expert_observe(struct expert *e, const struct event *ev, size_t n);

/*
 * Choose a move for the seat to move in v from legal[0..n). move_number is
 * the decision's number in the game (the request's "move"), move_ms and
 * bank_ms its time fields. Returns an index into legal (-1 when n == 0) and
 * fills stats if not NULL.
 */
int expert_choose(struct expert *e, const struct seat_view *v, const struct move *legal, int n,
		  uint32_t move_number, int64_t move_ms, int64_t bank_ms, struct expert_stats *stats);

/*
 * For measurement only: the oracle fills the deal of a decision instead of
 * the random dealer, with the cards the seat would draw now first (refill)
 * or after the other seats' next draws (refill 0); the expert then judges
 * over that one deal. bench_bots --oracle passes the true hidden cards: what
 * perfect information is worth to the expert's judgement. NULL restores the
 * dealer.
 */
typedef void (*expert_oracle_fn)(void *ctx, const struct seat_view *v, int refill, struct deal *out);
void expert_set_oracle(struct expert *e, expert_oracle_fn fn, void *ctx);

#endif
