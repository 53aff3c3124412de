/*
 * cluster.h - the sums behind cluster-robust (sandwich) standard errors of
 * the Elo fit (rating.h).
 *
 * The pairwise results of one deal are not independent: in a 2-player
 * duplicate deal the luck of the cards goes to one bot in one rotation and to
 * the other in the next (the results are negatively correlated), in a
 * partnership game both partners carry the team's placing (positively
 * correlated), and every pair of a multi-player game shares the same game. So
 * the interval from the model's information alone is too wide for the first
 * and too narrow for the others. The sandwich estimator
 *     V = H^-1 (sum over clusters c of U_c U_c') H^-1 * G / (G - 1)
 * (H the negative Hessian at the optimum, U_c the gradient of the
 * log-likelihood summed over the results of cluster c, G the number of
 * clusters) is right whatever the correlation inside a cluster, as long as
 * clusters are independent. The cluster is a deal: every rotation of it.
 *
 * U_c depends on the fitted ratings, which are known only after every record
 * has been read, and records are not kept. But U_c is linear in the cluster's
 * per-pair sums S_cp (points of the first bot of pair p) and N_cp (results),
 * so the sum of U_c U_c' follows from the sums over clusters of the products
 * S_cp S_cq, S_cp N_cq, N_cp S_cq and N_cp N_cq for every two pairs p, q that
 * met in one cluster: a sparse map whose size depends on which bots share
 * tables, not on the number of records.
 *
 * Records of one deal need not be adjacent: the last CLUSTER_OPEN_MAX deals
 * seen stay open (the arena writes the rotations of a deal within -j games of
 * each other). A record of a deal that was closed since opens a new cluster,
 * which only drops the correlation between its two parts.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_CLUSTER_H
#define SKIPBO_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#define CLUSTER_OPEN_MAX 64
/* Distinct pairs one deal may hold: 15 pairs of 6 bots. */
#define CLUSTER_PAIRS_MAX 15

struct cluster_pair {
	uint32_t i, j; /* i < j */
	double s, n;   /* points of i, results */
};

struct cluster_open {
	uint64_t key;
	uint64_t used; /* the record count when last touched, 0 for an empty slot */
	int npairs;
	struct cluster_pair pair[CLUSTER_PAIRS_MAX];
};

struct cluster_entry; /* one (p, q) of the sparse map, in cluster.c */

struct cluster_sums {
	struct cluster_open open[CLUSTER_OPEN_MAX];
	uint64_t records;
	double clusters;            /* G */
	struct cluster_entry *map;  /* open addressing; nmap is 0 or a power of 2 */
	size_t nmap, used;
};

void cluster_sums_init(struct cluster_sums *c);
void cluster_sums_release(struct cluster_sums *c);

/*
 * Add one game's R7 results (as rating_pairs_add_placings counts them: pairs
 * of non-teammates held by different bots) to the deal identified by key.
 * Bot indexes must be below 65536. -ENOMEM.
 */
int cluster_sums_add_placings(struct cluster_sums *c, uint64_t key, int nseats,
			      const unsigned *bot, const int *placing, const unsigned *team);

/* Close every open deal (after each file: a deal never spans two). */
void cluster_sums_close_all(struct cluster_sums *c);

/*
 * meat (n x n, overwritten) = sum over clusters of U_c U_c' at the natural-log
 * abilities g[0..n-1] (E = 1 / (1 + e^-(g_i - g_j))). Pairs naming a bot >= n
 * are ignored.
 */
void cluster_sums_meat(const struct cluster_sums *c, size_t n, const double *g, double *meat);

#endif
