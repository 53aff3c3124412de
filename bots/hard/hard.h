/*
 * hard.h - the hard reference bot's policy: a search over whole turns.
 *
 * From the seat's view it builds the turn simulator (table.h) and searches
 * every sequence of plays that ends the turn with a discard (or a pass), up to
 * a time budget, merging sequences that reach the same position. Each end of
 * turn is scored by the stock cards it plays (own and partner's), the wilds it
 * spends, how its discards sit, its chances of reaching its stock top next
 * turn, and the other seats' chances of reaching theirs (rivals.h). When a
 * play empties the hand the 5 cards drawn (R5.2) are unknown; that position
 * is scored by its chances with 5 unknown cards, and the bot searches again
 * from the next request, which shows them.
 *
 * Time: the search stops at the budget given by hard_budget_us() and returns
 * the best move found so far; the discards of the current position are always
 * scored first, so there is always an answer.
 */
#ifndef SKIPBO_BOTS_HARD_H
#define SKIPBO_BOTS_HARD_H

#include <stdint.h>

#include "engine.h"

struct hard_config {
	int64_t cap_us;   /* hard ceiling per move, whatever the arena allows */
	double move_share; /* fraction of time.move_ms to use */
	long max_nodes;   /* positions per move, 0 = no limit */
};

/* 3 ms, 5% of move_ms, 200000 positions: a 2,000-game run stays quick. */
#define HARD_DEFAULT_CAP_US 3000
#define HARD_DEFAULT_MOVE_SHARE 0.05
#define HARD_DEFAULT_MAX_NODES 200000L

void hard_config_default(struct hard_config *cfg);

/*
 * The time for one move in µs: cap_us, or less when move_ms * move_share or
 * a 1/200 share of bank_ms is smaller. move_ms and bank_ms are the request's
 * (ms); both 0 means no limits and gives cap_us.
 */
int64_t hard_budget_us(const struct hard_config *cfg, int64_t move_ms, int64_t bank_ms);

struct hard_stats {
	long nodes;         /* positions searched */
	int64_t elapsed_us; /* time spent choosing */
	int64_t budget_us;  /* what hard_budget_us() allowed */
	int complete;       /* 1 if the search finished inside the budget */
};

struct hard;

/* A searcher with its own tables. NULL when memory runs out. cfg is copied. */
struct hard *hard_new(const struct hard_config *cfg);
void hard_free(struct hard *h);

/*
 * Choose a move for the seat to move in v from legal[0..n). Returns an index
 * into legal (-1 when n == 0) and fills stats if not NULL. Deterministic
 * when the search completes inside its budget.
 */
int hard_choose(struct hard *h, const struct seat_view *v, const struct move *legal, int n,
		int64_t move_ms, int64_t bank_ms, struct hard_stats *stats);

#endif
