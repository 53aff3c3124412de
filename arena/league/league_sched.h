/*
 * league_sched.h - which entries of a league play the next deal.
 *
 * A pure module: no I/O, no threads, no clock. The caller numbers the
 * league's entries 0..n-1 (an entry keeps its number forever; a new entry
 * gets the next number, so n only grows), tells the scheduler the standings
 * after each refit (league_sched_update), asks for the next table
 * (league_sched_next) and says which deals were played (league_sched_played).
 *
 * The rule (LEAGUE.md, "How games are chosen"), in order:
 *  1. A new entry first: the active entry with fewer than floor_deals deals
 *     (fewest first, then lowest number) plays the entries it has met least,
 *     anchors and the rest of the field alike, so its first rating rests on
 *     the whole scale.
 *  2. Every LEAGUE_SCHED_SPREAD_EVERY-th deal is a spread deal: an entry
 *     drawn at random (not an anchor, while there is another) plays an anchor
 *     drawn at random (any entry when no anchor is left), so the ratings stay
 *     connected and on the anchors' scale.
 *  3. Otherwise an adjacent pair of the ranking (active entries by Elo),
 *     chosen by what one more deal between them would tell, in tiers:
 *     a pair with an unrated entry (elo NAN) first; then the unresolved
 *     pairs, z = |g_a - g_b| / sd(g_a - g_b) below 1.96 (their intervals
 *     overlap), the one whose z one more deal raises most towards 1.96; when
 *     every pair is resolved, the smallest z. sd(g_a - g_b) is the
 *     model's (league_info.h: what every game so far says about that
 *     difference, directly and through common opponents), scaled so that the
 *     entries' own variances match the fit's intervals (ci95), and updated
 *     after every deal chosen, so the deals between two refits spread over
 *     the uncertain pairs. Two anchors are never a pair (their ratings are
 *     fixed). Ties go to the pair that has met least, then to the seed.
 * Tables of more than 2 players are whole tables: the chosen pair (or new
 * entry) plus its neighbours in the ranking, alternately below and above
 * (for a new entry: the entries it has met least).
 *
 * Determinism: the choice is a function of the seed and the history of
 * calls (the standings of each update, the deals counted between them),
 * never of time or address: two schedulers given the same calls choose the
 * same deals. A resumed league replays its recorded deals into
 * league_sched_played and then updates with the fit of all of them; from
 * there it chooses what an unbroken run would choose after an update at that
 * point (the model is built anew at every update from the deals counted).
 *
 * Deals in flight: league_sched_next counts the deal it returns at once
 * and keeps it as pending, so parallel deals spread; league_sched_played of
 * that table (same entries, any order) ends the pending deal without counting
 * it again, and counts a new deal when none of that table is pending (a
 * replay of recorded deals at resume).
 *
 * Retired and suspended entries (active false) are never chosen.
 *
 * Cost: league_sched_update is O(n^3) (the model built anew), a deal
 * O(n^2 players^2) (its rank-one updates), a few microseconds for 100
 * entries.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_LEAGUE_SCHED_H
#define SKIPBO_LEAGUE_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "league_info.h"

#define LEAGUE_SCHED_PLAYERS_MAX 6
#define LEAGUE_SCHED_SPREAD_EVERY 8
/* info is built anew at every update and after this many deals without one (rounding) */
#define LEAGUE_SCHED_REBUILD_EVERY 4096

/* One entry as the scheduler sees it. */
struct league_sched_entry {
	bool active;    /* false: retired or suspended, never chosen */
	bool anchor;    /* frozen rating (league_fit's anchors) */
	uint64_t games; /* games the fit counted (informative only) */
	double elo;     /* NAN before the entry's first fit */
	double ci95;    /* half-width of the 95% interval; NAN before a fit, 0 for an anchor */
};

struct league_sched {
	int players;
	uint64_t floor_deals;
	uint64_t seed;
	size_t n, cap;                     /* entries, and room for them */
	struct league_sched_entry *entry;  /* n, copied at the last update */
	uint64_t *deals;                   /* n: deals counted per entry (played + pending) */
	double *g;                         /* n: Elo of the last update in natural-log units */
	bool *anchor;                      /* n */
	struct league_info info;           /* what the deals counted tell (league_info.h) */
	double scale2;                     /* fit's variance / model's, from the last update */
	uint64_t rebuilt_at;               /* total when info was last built anew */
	uint32_t *met;                     /* cap x cap: deals counted per pair */
	uint32_t *pending;                 /* npending tables of players: chosen, not yet played */
	size_t npending, cappending;
	uint32_t *order;                   /* n: active entries by rating, best first */
	size_t nactive;
	uint64_t total;                    /* deals counted (played + pending) */
};

/*
 * An empty scheduler for tables of players (2..LEAGUE_SCHED_PLAYERS_MAX):
 * each new entry plays floor_deals deals before the ranking decides its
 * games (a deal is all of its rotations). -EINVAL.
 */
int league_sched_init(struct league_sched *s, int players, uint64_t floor_deals, uint64_t seed);
void league_sched_release(struct league_sched *s);

/*
 * The current state of entries 0..n-1 (after a refit, an add or a retire);
 * n is never smaller than at the last call. The array is copied.
 * -EINVAL (n shrank), -ENOMEM.
 */
int league_sched_update(struct league_sched *s, const struct league_sched_entry *entries,
			size_t n);

/*
 * The next deal: table[0..players-1] gets distinct entry numbers, counted
 * as pending. 0, or -EAGAIN when fewer than players entries are active.
 */
int league_sched_next(struct league_sched *s, uint32_t *table);

/*
 * A deal of table[0..players-1] was played (any order of the entries).
 * -EINVAL for an entry >= n or one seated twice.
 */
int league_sched_played(struct league_sched *s, const uint32_t *table, int players);

/*
 * A deal returned by league_sched_next that will not be played (the league
 * stops before it): it is no longer pending nor counted. -ENOENT when no
 * such deal is pending.
 */
int league_sched_abandon(struct league_sched *s, const uint32_t *table, int players);

/* Deals counted between entries a and b (played and pending). */
uint64_t league_sched_met(const struct league_sched *s, uint32_t a, uint32_t b);

#endif
