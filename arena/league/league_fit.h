/*
 * league_fit.h - a league's results as they come, and its ratings refitted
 * in a background thread.
 *
 * Results are summed as report sums them (rating_pairs.h by pair of sides,
 * cluster.h by deal), so memory is flat in the number of games: O(n^2) for
 * n entries plus cluster.h's fixed buffer. A refit is the fit of `report`:
 * rating_fit (rating.h) with the default prior and intervals clustered by
 * deal, over every game added so far, the order of games irrelevant.
 *
 * Anchors: entries whose Elo is fixed at a given value (the bundled
 * reference bots by default; rating.h's fixed ratings), so a league's Elo
 * means the same from week to week: the other entries are fitted against
 * them and an anchor's interval is 0. Without anchors each pool's average
 * is 0, as in `report`.
 *
 * Threads: league_fit_add only queues the game under the fit's lock (a
 * copy of its seats, O(1)). The refit thread owns the sums: it takes the
 * queue whole (swapping two buffers under the lock), sums it without the
 * lock, and fits the sums, so adding never waits for a fit or a sum. It
 * drains the queue when asked for a refit, and on its own once
 * LEAGUE_FIT_QUEUE_WAKE games wait. Only when games come faster than the
 * thread can sum and fit them, LEAGUE_FIT_QUEUE_MAX waiting games make
 * league_fit_add wait for the next drain (back-pressure instead of memory
 * without bound). The latest finished fit is published under the lock and
 * read with league_fit_latest.
 *
 * Clusters: cluster.h's buffer of closed deals, once full, is folded at the
 * abilities of the last refit (report folds it at a pilot fit of the games
 * so far; before the first refit, so does the thread). Below one
 * buffer (about 800 2-player deals) the intervals are report's exactly;
 * beyond, the folds are made at ratings as current as report's pilots.
 *
 * Stop rule: an adjacent pair (two entries next to each other in the
 * ranking, within one pool, not both anchors) is separated at 95% when the
 * likelihood of superiority of the better one is at least 0.975
 * (rating_los, covariances included).
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_LEAGUE_FIT_H
#define SKIPBO_LEAGUE_FIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cluster.h"
#include "rating.h"
#include "rating_pairs.h"

#define LEAGUE_FIT_SEPARATED 0.975
#define LEAGUE_FIT_QUEUE_WAKE 4096   /* games waiting that wake the thread to sum them */
#define LEAGUE_FIT_QUEUE_MAX (1u << 16) /* games waiting that make league_fit_add wait */

/* An entry whose Elo is fixed. */
struct league_fit_anchor {
	uint32_t entry;
	double elo;
};

struct league_fit_options {
	const struct league_fit_anchor *anchors; /* copied; NULL when nanchors is 0 */
	size_t nanchors;
};

/* Published standings: arrays of n entries, owned by the standings. */
struct league_standings {
	size_t n;
	double *elo;       /* NAN for an entry without a game */
	double *ci95;      /* 0 for an anchor, NAN for an entry without a game */
	uint64_t *games;   /* games of each entry counted by the fit */
	uint64_t games_counted; /* games in the fit */
	uint64_t generation;    /* 1 for the first fit, +1 for each later one; 0: none yet */
	size_t adjacent;        /* adjacent pairs in the ranking (not both anchors) */
	size_t separated;       /* of which separated at 95% */
	uint32_t *order;        /* n: entries with a game by Elo, best first (nranked of them) */
	size_t nranked;
};

void league_standings_release(struct league_standings *st);

/*
 * "; leader: alpha at 123.4 ± 20.1 Elo" (an anchor: "at 100.0 Elo, an anchor") into
 * buf, names[i] being entry i's name; "" before any entry is ranked. For the league's
 * progress line.
 */
void league_standings_leader(const struct league_standings *st, const char *const *names,
			     char *buf, size_t size);

/* Whether every adjacent pair is separated at 95% (false before any fit). */
bool league_standings_all_separated(const struct league_standings *st);

/* A game waiting to be summed, in 48 bytes: teams by the first seat of each (R7 compares
 * teams only for equality), placings as small numbers. */
struct league_fit_game {
	uint64_t deal;
	uint32_t entry[CLUSTER_BOTS_MAX];
	uint8_t nseats;
	uint8_t team[CLUSTER_BOTS_MAX];
	int8_t placing[CLUSTER_BOTS_MAX];
};

struct league_fit {
	pthread_mutex_t lock;
	pthread_cond_t wake, done, drained;
	pthread_t thread;
	bool started, stopping;
	int error;                     /* last refit's error, 0 when it succeeded */
	uint64_t requested, taken, finished; /* refits asked for, started, done */
	struct league_fit_anchor *anchors;
	size_t nanchors;
	/* under the lock */
	struct league_fit_game *queue; /* games added, not yet summed */
	size_t nqueue, capqueue;
	struct league_fit_game *spare; /* the other buffer, while the thread holds neither */
	size_t capspare;
	struct league_standings latest;
	/* the refit thread's own */
	size_t n;                      /* entries seen (highest + 1) */
	struct rating_pairs pairs;
	struct cluster_sums *clusters;
	uint64_t *games;               /* cap_games: games per entry */
	size_t cap_games;
	uint64_t games_counted;
	double *fold_g;                /* fold_n abilities of the last refit (natural log) */
	size_t fold_n;
	double fold_scale[RATING_KINDS];
};


/* Start the fit and its thread. -ENOMEM, -EINVAL (an anchor twice), or a pthread error. */
int league_fit_init(struct league_fit *f, const struct league_fit_options *opt);

/*
 * Join the thread (after the refit in progress, if any) and free everything.
 */
void league_fit_release(struct league_fit *f);

/*
 * One recorded game of the deal `deal` (a key the caller makes unique per
 * deal, as report does by table and deal): seats 0..nseats-1 with entry[s],
 * placing[s] (lower is better) and team[s] (rating_pairs.h, R7). Entries may
 * be new (n grows). Queued: the next refit counts it. 0, -ENOMEM, -EINVAL
 * (nseats outside 2..6, an entry of UINT32_MAX / 2 or more, a placing
 * outside -128..127). A game the
 * thread cannot sum (out of memory) makes that refit fail with -ENOMEM.
 */
int league_fit_add(struct league_fit *f, uint64_t deal, int nseats, const uint32_t *entry,
		   const int *placing, const uint32_t *team);

/* Ask for a refit over every game added so far; returns at once. Requests that come while
 * one waits are merged into it. */
void league_fit_request(struct league_fit *f);

/* Wait until every refit requested so far is finished. Returns the last refit's error. */
int league_fit_wait(struct league_fit *f);

/* A copy of the latest published standings (generation 0 and n 0 before the first).
 * -ENOMEM. out is released with league_standings_release. */
int league_fit_latest(struct league_fit *f, struct league_standings *out);

#endif
