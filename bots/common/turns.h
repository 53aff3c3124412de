/*
 * turns.h - every way to finish the turn from a position: the search shared
 * by the hard and expert bots.
 *
 * From a turn simulator (table.h) the search walks every sequence of plays,
 * depth first, stock tops first, then discard tops, hand numbers, hand wilds
 * last. Plays commute a lot (two hand cards on two piles in either order), so
 * positions are keyed by what decides their future - the building pile values
 * as a multiset, the hand, the discard pile sizes and the stock cards played
 * - and each position is visited once, by the first sequence that reaches
 * it. The caller's visitor sees every position with the sequence of plays
 * that led there and scores the ways to stop there (a discard, a pass, or a
 * refill of unknown cards, table.h).
 *
 * Budget: the walk stops after max_nodes positions, a count of work, so the
 * same position gives the same visits on any machine. A clock is only a
 * safety net: given a deadline the walk also stops when it passes.
 */
#ifndef SKIPBO_BOTS_TURNS_H
#define SKIPBO_BOTS_TURNS_H

#include <stdint.h>

#include "table.h"

#define TURNS_LINE_MAX 48 /* plays in one sequence; deeper positions are not visited */

/*
 * Called once per position: t is the position, line[0..n) the plays from the
 * root that reached it (n = 0 for the root). Returns 1 to stop the walk
 * there (e.g. the game is won), else 0.
 */
typedef int (*turns_visit)(void *ctx, const struct table *t, const struct move *line, int n);

struct turns_stats {
	long nodes;   /* positions visited */
	int complete; /* every position was visited */
	int net_hit;  /* the deadline stopped the walk */
};

struct turns;

/* A searcher with its own table of visited positions. NULL when memory runs out. */
struct turns *turns_new(void);
void turns_free(struct turns *s);

/*
 * Visit the positions reachable from t, at most max_nodes of them (0: no
 * limit), stopping also at deadline_us of the thread's CPU time (0: none;
 * see turns_cpu_us()). Fills stats if not NULL.
 */
void turns_search(struct turns *s, const struct table *t, long max_nodes, int64_t deadline_us,
		  turns_visit visit, void *ctx, struct turns_stats *stats);

/* The calling thread's CPU time in µs (CLOCK_THREAD_CPUTIME_ID). */
int64_t turns_cpu_us(void);

/*
 * A safety net for one move in µs: the smaller of move_ms * move_share and
 * bank_ms * bank_share (a request's figures, in ms; a 0 figure sets no
 * bound), at least 1. 0 when both figures are 0 (no time limits): no clock.
 */
int64_t turns_net_us(int64_t move_ms, int64_t bank_ms, double move_share, double bank_share);

#endif
