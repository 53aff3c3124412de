/*
 * rating.h - the maximum-likelihood Elo fit of results between sides
 * (rating_pairs.h).
 *
 * The model is Bradley-Terry on the logistic Elo scale, with a side's
 * strength the sum of its members' ratings (the team model): side A scores
 * against side B with expectation E = 1 / (1 + 10^(-(elo_A - elo_B) / 400)),
 * elo_A the sum over A. In free-for-all every side is one bot and this is
 * the classic pairwise model; Ordo and BayesElo fit the same model to 2-player
 * games. A partner is never an opponent, and a team's result is one result,
 * not one per opponent: the team model is what makes partnership ratings
 * independent of who was seated with whom.
 *
 * A tie counts as half a point (half a win and half a loss in the
 * likelihood), as Ordo and BayesElo's default count it. The expected score is
 * then what the ratings predict; the cost is that a result that ties often
 * compresses the scale a little (a win is worth less above a tie than above
 * a loss). rating_pairs counts the ties so a report can say how many there
 * were.
 *
 * Kinds of game (rating_pairs.h): the Elo differences between the same bots
 * shrink as tables grow, so one scale for every kind would misstate them. The
 * reference kind is the one of fewest players present (free-for-all before
 * partnership); every other kind with RATING_SCALE_MIN_RESULTS results or
 * more has a discrimination beta_c (fewer say next to nothing about it: they
 * count at beta 1), and its results follow
 * E = 1 / (1 + 10^(-beta_c (elo_A - elo_B) / 400)). The
 * ratings are on the reference kind's scale, and with one kind (any
 * single-kind tournament, 2-player ones included) there is no beta at all.
 * beta_c = e^b_c, with b_c a normal prior of sd RATING_SCALE_PRIOR_SD so
 * that a kind whose bots meet no other kind's stays finite.
 *
 * The ratings maximise
 *     sum over results S ln E + (N - S) ln (1 - E)
 *   + sum over bots  (k / 2) [ln E(elo_i - 0) + ln (1 - E(elo_i - 0))]
 *   - sum over kinds b_c^2 / (2 RATING_SCALE_PRIOR_SD^2)
 * where the second line is the prior: k virtual draws (default
 * RATING_PRIOR_DRAWS) of every bot against a virtual opponent rated 0. It keeps
 * an unbeaten or winless bot finite and makes the problem strictly concave;
 * with k = 0.5 a 750-250 score between two bots comes out 0.06 Elo short of
 * the exact 190.85. k = 0 is the plain maximum-likelihood fit, which exists
 * only when every bot has a win and a loss (more exactly: when the graph of
 * "i scored against j" is strongly connected inside each pool); otherwise
 * Newton does not converge and the fit fails with -EDOM. It is solved by
 * Newton's method (Fisher scoring when kinds have a beta) with step halving;
 * convergence is judged on the step with each pool's mean removed, as every
 * figure reported is a difference.
 *
 * Pools: bots linked by results (directly, as partners, or through other
 * bots). Ratings of bots in different pools are not comparable; each pool is
 * centred on its own (fit->pool, fit->npools), and LOS across pools is NaN.
 *
 * Anchor: each pool's average is 0 (default), or a named bot is 0 (its pool
 * only; other pools keep their average at 0).
 *
 * Fixed ratings (opt->fixed): bots whose Elo is given, not fitted (a league's
 * frozen anchors). They pin the scale of their pool: the other ratings there
 * are fitted against them, nothing is centred, and their interval is 0. The
 * prior's virtual opponent sits at their mean instead of 0. Pools without a
 * fixed bot are centred as above.
 *
 * Intervals: cov_model is the inverse of the information (the negative
 * Hessian H of the objective above at the optimum, its expectation where
 * kinds have a beta), over ratings and b together, which treats
 * every result as independent. With opt->clusters (cluster.h) cov is the
 * cluster-robust sandwich H^-1 M H^-1 G/(G-1), without it cov = cov_model.
 * Both are projected onto the anchor constraint: C V C' where C subtracts
 * the pool mean (or the anchor bot's rating). The 95% interval is
 * elo +- 1.96 * sqrt(cov_ii); the anchor bot itself has 0.
 *
 * Likelihood of superiority: LOS(i > j) = Phi((elo_i - elo_j) / sqrt(cov_ii +
 * cov_jj - 2 cov_ij)), Phi the standard normal distribution function.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_RATING_H
#define SKIPBO_RATING_H

#include <stddef.h>
#include <stdint.h>

#include "cluster.h"
#include "rating_pairs.h"
#include "rating_score.h" /* the Elo scale and RATING_Z95, which the fit reports on */

#define RATING_PRIOR_DRAWS 0.5
#define RATING_SCALE_PRIOR_SD 4.0
#define RATING_SCALE_MIN_RESULTS 100

/*
 * One game as rating_pairs_add_placings counts it, and also into the deal
 * `deal` of clusters (cluster.h); when the clusters' buffer fills, it is
 * folded in at a pilot fit of p (default options). 0, -ENOMEM, or -EDOM if
 * the pilot fit fails.
 */
int rating_add_clustered(struct rating_pairs *p, struct cluster_sums *clusters, uint64_t deal,
			 int nseats, const unsigned *bot, const int *placing, const unsigned *team);

struct rating_options {
	double prior_draws; /* k above, >= 0 */
	long anchor;        /* bot rated 0, or -1 for the field average */
	const struct cluster_sums *clusters; /* NULL: cov = cov_model */
	const double *fixed; /* NULL, or n values: a bot's fixed Elo, NAN for a fitted one */
};

#define RATING_OPTIONS_DEFAULT { RATING_PRIOR_DRAWS, -1, NULL, NULL }

struct rating_fit {
	size_t n;
	double *elo;       /* n ratings */
	double *cov;       /* n x n covariance, Elo^2, relative to the anchor */
	double *cov_model; /* the same treating every result as independent */
	size_t *pool;      /* n pool numbers, 0 .. npools - 1 in order of first bot */
	size_t npools;
	int iterations;
	int reference_kind;                  /* -1 without results */
	double scale[RATING_KINDS];          /* beta of each kind: 1 for the reference, absent
					      * kinds and those of too few results */
	double scale_lo[RATING_KINDS], scale_hi[RATING_KINDS]; /* 95% interval (as cov) */
};

/*
 * Fit the ratings; opt NULL means RATING_OPTIONS_DEFAULT. On success fit
 * owns new arrays (rating_fit_release). -EINVAL for a bad option (prior < 0, a fixed
 * rating neither NAN nor finite), -ENOMEM,
 * -EDOM if Newton fails to converge (the objective is strictly concave, so
 * this means non-finite input).
 */
int rating_fit(const struct rating_pairs *p, const struct rating_options *opt,
	       struct rating_fit *fit);
void rating_fit_release(struct rating_fit *fit);

/* How many kinds of game the fit joined (those with results). */
int rating_kinds(const struct rating_pairs *p);

/* Half-width of the 95% interval of bot i. */
double rating_ci95(const struct rating_fit *fit, size_t i);

/* Likelihood that i is stronger than j (0.5 when i == j, NaN across pools). */
double rating_los(const struct rating_fit *fit, size_t i, size_t j);

#endif
