/*
 * hard.h - the hard reference bot's policy: a search over whole turns.
 *
 * From the seat's view it builds the turn simulator (table.h) and searches
 * every sequence of plays that ends the turn with a discard (or a pass), up to
 * a budget of positions, merging sequences that reach the same position. Each end of
 * turn is scored by the stock cards it plays (own and partner's), the wilds it
 * spends, how its discards sit, its chances of reaching its stock top next
 * turn, and the other seats' chances of reaching theirs (rivals.h). When a
 * play empties the hand the 5 cards drawn (R5.2) are unknown; that position
 * is scored by its chances with 5 unknown cards, and the bot searches again
 * from the next request, which shows them.
 *
 * Budget: the search stops after max_nodes positions and returns the best
 * move found so far; the discards of the current position are always scored
 * first, so there is always an answer. The budget counts work, not time, so
 * the same request gives the same move on any machine under any load. A clock
 * is only a safety net (hard_net_us()): at the default limits it sits far
 * above the slowest search the node budget allows.
 */
#ifndef SKIPBO_BOTS_HARD_H
#define SKIPBO_BOTS_HARD_H

#include <stdint.h>

#include "engine.h"

struct hard_config {
	long max_nodes;        /* positions per move (the budget), 0 = no limit */
	double net_move_share; /* safety net: this fraction of the request's move_ms */
	double net_bank_share; /* safety net: this fraction of the request's bank_ms */
};

/*
 * 4,000 positions: about 4 ms on one core, where a move takes 0.04 ms on
 * average and about 1 search in 4,000 needs more. The net is a
 * quarter of move_ms or 1/50 of the bank, whichever is less: 250 ms at the
 * default limits (1000 ms per move, 60 s per game), some 50 times the
 * slowest budgeted search.
 */
#define HARD_DEFAULT_MAX_NODES 4000L
#define HARD_DEFAULT_NET_MOVE_SHARE 0.25
#define HARD_DEFAULT_NET_BANK_SHARE 0.02

void hard_config_default(struct hard_config *cfg);

/*
 * The safety net for one move in µs: the smaller of move_ms * net_move_share
 * and bank_ms * net_bank_share (the request's figures, in ms; a 0 figure sets
 * no bound). 0 when both are 0 (no time limits): then no clock is read.
 */
int64_t hard_net_us(const struct hard_config *cfg, int64_t move_ms, int64_t bank_ms);

struct hard_stats {
	long nodes;         /* positions searched */
	int64_t elapsed_us; /* CPU time spent choosing */
	int64_t net_us;     /* what hard_net_us() allowed (0: no net) */
	int complete;       /* 1 if the search finished inside the node budget */
	int net_hit;        /* 1 if the safety net stopped it: the move then depends on time */
};

struct hard;

/* A searcher with its own tables. NULL when memory runs out. cfg is copied. */
struct hard *hard_new(const struct hard_config *cfg);
void hard_free(struct hard *h);

/*
 * Choose a move for the seat to move in v from legal[0..n). Returns an index
 * into legal (-1 when n == 0) and fills stats if not NULL. The same view
 * and legal list give the same move unless the safety net fires.
 */
int hard_choose(struct hard *h, const struct seat_view *v, const struct move *legal, int n,
		int64_t move_ms, int64_t bank_ms, struct hard_stats *stats);

#endif
