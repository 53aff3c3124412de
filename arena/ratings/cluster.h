/*
 * cluster.h - the sums behind cluster-robust (sandwich) standard errors of
 * the Elo fit (rating.h).
 *
 * The results of one deal are not independent: in a 2-player duplicate deal
 * the luck of the cards goes to one bot in one rotation and to the other in
 * the next (the results are negatively correlated), the pairings and
 * rotations of a partnership deal share its cards, and every two sides of a
 * multi-player game share the same game. So the interval from the model's
 * information alone is too wide for the first and too narrow for the last.
 * The sandwich estimator
 *     V = H^-1 (sum over clusters c of U_c U_c') H^-1 * G / (G - 1)
 * (H the negative Hessian at the optimum, U_c the gradient of the
 * log-likelihood summed over the results of cluster c, G the number of
 * clusters) is right whatever the correlation inside a cluster, as long as
 * clusters are independent. The cluster is a deal: every rotation and
 * pairing of it.
 *
 * A result is between two sides (rating_pairs.h: a bot alone, or a team
 * whose strength is the sum of its members'); its gradient goes to every
 * member, with the sign of its side and its kind's discrimination beta, and
 * to the b = ln beta of its kind (rating.h). Every record of a deal is of one
 * kind.
 *
 * U_c depends on the fitted ratings, which are known only after every record
 * has been read, and records are not kept. So each deal, once closed, waits
 * as its sums by pair of sides (S_cp, N_cp: points of the first side of pair
 * p, results) in a buffer of at most CLUSTER_BUFFER_MAX entries; a full buffer
 * is folded into the dense n x n sum of U_c U_c' at a pilot fit of the
 * results read so far (rating_add_clustered in rating.h does this), and the
 * last buffer at the final fit. A pilot differs from the final ratings by
 * O(1/sqrt(results)), which changes the sum by as little (the sandwich only
 * needs a consistent estimate there); a report of fewer than
 * CLUSTER_BUFFER_MAX sums is exact. The memory is the buffer (about
 * 100 KB) plus n x n, whatever the number of records. A pilot is fitted anew
 * only once the results have grown by CLUSTER_PILOT_GROWTH since the last
 * one (and for a new bot): the folds of a small buffer then cost a logarithmic
 * number of fits, not one per buffer.
 *
 * Records of one deal need not be adjacent: deals stay open in a table of
 * CLUSTER_OPEN_MAX slots chosen by a hash of the deal, and a deal is closed
 * when another deal needs its slot (the arena writes the rotations of a deal
 * within -j games of each other, so a deal is rarely closed early). A record
 * of a deal closed since opens a new cluster, which only drops the
 * correlation between its two parts; so does a deal of more than
 * CLUSTER_BOTS_MAX bots or CLUSTER_RESULTS_MAX pairs of sides (no table has
 * that many: a 6-player partnership deal under 5 pairings has 15).
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_CLUSTER_H
#define SKIPBO_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "rating_pairs.h"

#define CLUSTER_OPEN_MAX 256
#define CLUSTER_BOTS_MAX 6
#define CLUSTER_RESULTS_MAX 32

/* Sums of one pair of sides: i and j are sets of the deal's local bot numbers (bit k:
 * local bot k), s the points of side i against side j, n the results. */
struct cluster_pair {
	uint32_t i, j;
	double s, n;
};

/* An open deal: its bots, its kind, and its sums by pair of sides. */
struct cluster_open {
	uint64_t key;
	int used, nbots, npairs, kind;
	uint32_t bot[CLUSTER_BOTS_MAX];
	struct cluster_pair pair[CLUSTER_RESULTS_MAX];
};

/* A closed deal in the buffer: a header (i == CLUSTER_HEADER, j = its pair count, s = its
 * bot count, n = its kind), its bots two to an entry, then its pairs of sides. */
#define CLUSTER_HEADER UINT32_MAX
#define CLUSTER_PILOT_GROWTH 1.25
#define CLUSTER_BUFFER_MAX (1u << 12)

struct cluster_sums {
	struct cluster_open open[CLUSTER_OPEN_MAX];
	double clusters;            /* G */
	struct cluster_pair *buf;   /* closed deals not yet folded in */
	size_t nbuf, capbuf;
	double *meat;               /* folded deals: (meat_n + RATING_KINDS) squared, bots 0 ..
				     * meat_n - 1 then kind c at meat_n + c */
	size_t meat_n;
	double results;             /* results added so far */
	double *pilot;              /* pilot_n abilities of the last pilot fit, or NULL */
	double pilot_scale[RATING_KINDS]; /* and its discriminations */
	size_t pilot_n;
	double pilot_results;       /* results when it was fitted */
};

void cluster_sums_init(struct cluster_sums *c);
void cluster_sums_release(struct cluster_sums *c);

/*
 * Add results (rating.h) of one game to the deal identified by key. -ENOMEM.
 * cluster_sums_add_placings: the game's results as rating_game_results makes them.
 */
int cluster_sums_add_results(struct cluster_sums *c, uint64_t key,
			     const struct rating_result *res, size_t count);
int cluster_sums_add_placings(struct cluster_sums *c, uint64_t key, int nseats,
			      const unsigned *bot, const int *placing, const unsigned *team);

/* Close every open deal (after each file: a deal never spans two). -ENOMEM. */
int cluster_sums_close_all(struct cluster_sums *c);

/* Whether the buffer is full: fold it in (cluster_sums_fold) before adding more. */
int cluster_sums_full(const struct cluster_sums *c);

/*
 * Fold the buffered deals into the sum at the natural-log abilities
 * g[0..n-1] (n above every bot index added so far) and the kinds'
 * discriminations scale[RATING_KINDS], and empty the buffer. -ENOMEM.
 */
int cluster_sums_fold(struct cluster_sums *c, size_t n, const double *g, const double *scale);

/*
 * meat ((n + RATING_KINDS) squared, overwritten; bots 0..n-1, then kind c
 * at n + c) = sum over clusters of U_c U_c': the folded sum plus the
 * buffered and still open deals at g[0..n-1] and scale (E = 1 / (1 +
 * e^-(beta (g_A - g_B))), g_A the sum over side A). Results with a bot >= n
 * are ignored. -ENOMEM.
 */
int cluster_sums_meat(const struct cluster_sums *c, size_t n, const double *g,
		      const double *scale, double *meat);

#endif
