/*
 * league_info.h - what the games so far tell about the differences between
 * a league's entries: the scheduler's model (league_sched.h).
 *
 * The Bradley-Terry fit (rating.h) has the information matrix
 *     M = r I + sum over results between a and b of p (1 - p) u u',
 * u = e_a - e_b, p the expected score at the ratings, r the prior's part.
 * The variance of g_a - g_b is R_ab = u' M^-1 u (natural-log units): the
 * effective resistance between a and b in the network whose conductances
 * are the games' information. It counts what a pair learns from its own
 * games and through every common opponent, which the two entries' own
 * intervals do not say (in a chain of neighbours both intervals are wide
 * while the difference is narrow).
 *
 * M^-1 is built in O(n^3) (league_info_rebuild, Gauss-Jordan) and kept current after each
 * deal by a rank-one update in O(n^2) (Sherman-Morrison:
 * M'^-1 = M^-1 - w M^-1 u u' M^-1 / (1 + w u' M^-1 u)). An anchor is held
 * fixed by a prior of weight LEAGUE_INFO_ANCHOR_PRIOR, so the difference
 * from an anchor is the other entry's own uncertainty.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_LEAGUE_INFO_H
#define SKIPBO_LEAGUE_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LEAGUE_INFO_PRIOR 0.125        /* r: rating.h's 0.5 virtual draws at p = 1/2 */
#define LEAGUE_INFO_ANCHOR_PRIOR 1e6

struct league_info {
	size_t n;
	double *inv; /* n x n: M^-1 */
	double *work; /* n */
};

/* An empty model (league_info_rebuild fills it). */
void league_info_init(struct league_info *m);
void league_info_release(struct league_info *m);

/*
 * M^-1 for n entries: deals[a * stride + b] deals between a and b, each of
 * results_per_deal results worth p (1 - p) at the natural-log abilities g
 * (NAN: unrated, p = 1/2), anchor[i] for anchors. -ENOMEM, -EDOM (non-finite
 * input).
 */
int league_info_rebuild(struct league_info *m, size_t n, const uint32_t *deals, size_t stride,
			double results_per_deal, const double *g, const bool *anchor);

/* The information of `results` results between a and b at abilities g (p (1 - p) each). */
double league_info_weight(const double *g, uint32_t a, uint32_t b, double results);

/* Add information w between a and b (a rank-one update of M^-1); w < 0 takes back what
 * was added. */
void league_info_add(struct league_info *m, uint32_t a, uint32_t b, double w);

/* R_ab: the variance of g_a - g_b. */
double league_info_resistance(const struct league_info *m, uint32_t a, uint32_t b);

/* The same once information w is added between a and b themselves. */
double league_info_resistance_after(const struct league_info *m, uint32_t a, uint32_t b,
				    double w);

/* var[0..n-1]: the variance of each g_i, against the anchors when `anchored`, else against
 * the mean of the n entries. */
void league_info_variances(const struct league_info *m, bool anchored, double *var);

#endif
