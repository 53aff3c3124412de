/*
 * rating.c - Bradley-Terry Elo by Newton's method; the model is in rating.h.
 *
 * Internally ratings are natural-log abilities g (E = 1 / (1 + e^-(g_i - g_j)));
 * Elo = g * 400 / ln 10.
 */
#include "rating.h"

#include "cluster.h"
#include "matrix.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>


#define ELO_PER_NAT (400.0 / M_LN10)
#define NEWTON_MAX_ITER 200
#define NEWTON_TOL 1e-10   /* nats; far below 0.001 Elo */

static double sigmoid(double x)
{
	if (x >= 0)
		return 1.0 / (1.0 + exp(-x));
	double e = exp(x);
	return e / (1.0 + e);
}

static double log_sigmoid(double x)
{
	return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

/* The results that happened, summed by their sides, so each Newton step costs O(results
 * kinds), not O(n^2) lookups: a pair of single bots or a pair of teams. */
struct met_pair {
	uint32_t a[RATING_SIDE_MAX], b[RATING_SIDE_MAX];
	int na, nb, kind;
	double s_ab, s_ba, games;
};

/*
 * The unknowns are x = (g_0 .. g_n-1, then the b of each kind with a
 * discrimination): m of them. kind_param[c] is the index of kind c's b, or
 * -1 (the reference kind, and kinds without results: beta 1).
 */
struct problem {
	size_t n, m;
	int kind_param[RATING_KINDS];
	int reference_kind;
	double k;
	/* With k = 0 the objective is flat along the common shift of all ratings:
	 * a penalty (sum g)^2 / 2n pins it at 0 without moving any difference
	 * (the data's gradient always sums to 0). */
	double shift_penalty;
	const size_t *pool;     /* pool of each bot (bots linked by results) */
	const double *pool_size;
	/* Fixed ratings (rating_options.fixed, in g; NULL: none): such a bot never moves, and
	 * its pool (pinned) is neither shifted nor centred. The prior's virtual opponent sits
	 * at their mean (center), so it pulls towards the scale they set, not towards 0. */
	const double *fixed;
	const unsigned char *pinned;
	double center;
	struct met_pair *pairs;
	size_t npairs;
};

/* Whether a pool holds a bot of fixed rating. */
static bool pool_pinned(const struct problem *pb, size_t pool)
{
	return pb->pinned && pb->pinned[pool];
}

/* Whether bot i's rating is fixed. */
static bool bot_fixed(const struct problem *pb, size_t i)
{
	return pb->fixed && !isnan(pb->fixed[i]);
}

/* Side a's strength less side b's. */
static double side_difference(const struct met_pair *mp, const double *g)
{
	double d = 0;

	for (int k = 0; k < mp->na; k++)
		d += g[mp->a[k]];
	for (int k = 0; k < mp->nb; k++)
		d -= g[mp->b[k]];
	return d;
}

/* Kind c's discrimination at x. */
static double scale_of(const struct problem *pb, const double *x, int c)
{
	return pb->kind_param[c] < 0 ? 1.0 : exp(x[pb->kind_param[c]]);
}

static double objective(const struct problem *pb, const double *x)
{
	double f = 0;
	const double *g = x;

	for (size_t q = 0; q < pb->npairs; q++) {
		const struct met_pair *mp = &pb->pairs[q];
		double eta = scale_of(pb, x, mp->kind) * side_difference(mp, g);
		f += mp->s_ab * log_sigmoid(eta) + mp->s_ba * log_sigmoid(-eta);
	}
	for (size_t i = 0; i < pb->n; i++)
		f += pb->k * 0.5 * (log_sigmoid(g[i] - pb->center) + log_sigmoid(pb->center - g[i]));
	for (size_t j = pb->n; j < pb->m; j++)
		f -= x[j] * x[j] / (2.0 * RATING_SCALE_PRIOR_SD * RATING_SCALE_PRIOR_SD);
	if (pb->shift_penalty > 0) {
		/* g[i] times the sum of its pool, summed: each pool's sum squared. */
		for (size_t i = 0; i < pb->n; i++)
			for (size_t j = 0; j < pb->n; j++)
				if (pb->pool[i] == pb->pool[j] && !pool_pinned(pb, pb->pool[i]))
					f -= g[i] * g[j] / (2.0 * pb->pool_size[pb->pool[i]]);
	}
	return f;
}

/* A result's bots with the sign of their side: +1 on side a, -1 on side b. Returns the count. */
static int signed_bots(const struct met_pair *mp, size_t *bot, double *sign)
{
	int m = 0;

	for (int k = 0; k < mp->na; k++, m++) {
		bot[m] = mp->a[k];
		sign[m] = 1.0;
	}
	for (int k = 0; k < mp->nb; k++, m++) {
		bot[m] = mp->b[k];
		sign[m] = -1.0;
	}
	return m;
}

/* The priors' part of the gradient and of the negative Hessian (m x m), which it sets. */
static void prior_derivatives(const struct problem *pb, const double *x, double *grad, double *h)
{
	size_t n = pb->n, m = pb->m;
	double tau = 1.0 / (RATING_SCALE_PRIOR_SD * RATING_SCALE_PRIOR_SD);

	memset(h, 0, m * m * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		double e = sigmoid(x[i] - pb->center);
		double c = pool_pinned(pb, pb->pool[i]) ? 0.0
							: pb->shift_penalty / pb->pool_size[pb->pool[i]];
		grad[i] = pb->k * (0.5 - e);
		for (size_t j = 0; j < n; j++) {
			double same = pb->pool[i] == pb->pool[j] ? c : 0.0;
			h[i * m + j] = same;
			grad[i] -= same * x[j];
		}
		h[i * m + i] += pb->k * e * (1.0 - e);
	}
	for (size_t j = n; j < m; j++) {
		grad[j] = -tau * x[j];
		h[j * m + j] = tau;
	}
}

/*
 * Gradient and the negative Hessian (positive definite thanks to the
 * priors): the observed one without discriminations, where the model is a
 * logistic regression and it equals its expectation; the expected one (the
 * Fisher information) for the b, where Newton is then Fisher scoring.
 */
static void derivatives(const struct problem *pb, const double *x, double *grad, double *h)
{
	size_t m = pb->m;

	prior_derivatives(pb, x, grad, h);
	for (size_t q = 0; q < pb->npairs; q++) {
		const struct met_pair *mp = &pb->pairs[q];
		size_t bot[2 * RATING_SIDE_MAX];
		double sign[2 * RATING_SIDE_MAX];
		int nb = signed_bots(mp, bot, sign), bp = pb->kind_param[mp->kind];
		double beta = scale_of(pb, x, mp->kind), eta = beta * side_difference(mp, x);
		double e = sigmoid(eta), w = mp->games * e * (1.0 - e), r = mp->s_ab - mp->games * e;
		for (int u = 0; u < nb; u++) {
			grad[bot[u]] += sign[u] * r * beta;
			for (int v = 0; v < nb; v++)
				h[bot[u] * m + bot[v]] += sign[u] * sign[v] * w * beta * beta;
			if (bp >= 0) {
				h[bot[u] * m + (size_t)bp] += sign[u] * w * beta * eta;
				h[(size_t)bp * m + bot[u]] += sign[u] * w * beta * eta;
			}
		}
		if (bp >= 0) {
			grad[bp] += r * eta;
			h[(size_t)bp * m + (size_t)bp] += w * eta * eta;
		}
	}
	/* A fixed rating is no unknown: its row and column become the identity's, so Newton
	 * never moves it and the inverse has no covariance with it. */
	for (size_t i = 0; pb->fixed && i < pb->n; i++) {
		if (!bot_fixed(pb, i))
			continue;
		grad[i] = 0;
		for (size_t j = 0; j < m; j++)
			h[i * m + j] = h[j * m + i] = 0;
		h[i * m + i] = 1.0;
	}
}

/* Groups in one order whatever order the games came in (team results are hashed in the
 * order they first came), so that the sums of the fit are made in one order too. */
static int pair_cmp(const void *pa, const void *pb)
{
	const struct met_pair *x = pa, *y = pb;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->na != y->na)
		return x->na < y->na ? -1 : 1;
	if (x->nb != y->nb)
		return x->nb < y->nb ? -1 : 1;
	for (int k = 0; k < RATING_SIDE_MAX; k++) {
		if (x->a[k] != y->a[k])
			return x->a[k] < y->a[k] ? -1 : 1;
		if (x->b[k] != y->b[k])
			return x->b[k] < y->b[k] ? -1 : 1;
	}
	return 0;
}

/* rating_pairs_each: one group into the problem. */
static void add_pair(void *ctx, const struct rating_group *gr)
{
	struct problem *pb = ctx;
	struct met_pair *mp = &pb->pairs[pb->npairs++];

	*mp = (struct met_pair){ .na = gr->na, .nb = gr->nb, .kind = gr->kind, .s_ab = gr->s,
				 .s_ba = gr->n - gr->s, .games = gr->n };
	memcpy(mp->a, gr->a, sizeof(mp->a));
	memcpy(mp->b, gr->b, sizeof(mp->b));
}

/* rating_pairs_each: count. */
static void count_group(void *ctx, const struct rating_group *gr)
{
	(void)gr;
	++*(size_t *)ctx;
}

/* The groups of p as the fit reads them, and which kinds get a discrimination. -ENOMEM. */
static int collect_pairs(const struct rating_pairs *p, struct problem *pb)
{
	size_t count = 0;

	rating_pairs_each(p, count_group, &count);
	pb->pairs = reallocarray(NULL, count ? count : 1, sizeof(*pb->pairs));
	if (!pb->pairs)
		return -ENOMEM;
	rating_pairs_each(p, add_pair, pb);
	qsort(pb->pairs, pb->npairs, sizeof(*pb->pairs), pair_cmp);
	pb->m = pb->n;
	pb->reference_kind = -1;
	for (int c = 0; c < RATING_KINDS; c++) {
		pb->kind_param[c] = -1;
		if (!(p->kind_results[c] > 0))
			continue;
		if (pb->reference_kind < 0)
			pb->reference_kind = c;
		else if (p->kind_results[c] >= RATING_SCALE_MIN_RESULTS)
			pb->kind_param[c] = (int)pb->m++;
	}
	return 0;
}

int rating_kinds(const struct rating_pairs *p)
{
	int count = 0;

	for (int c = 0; c < RATING_KINDS; c++)
		count += p->kind_results[c] > 0;
	return count;
}

/*
 * The Cholesky factor of h, the negative Hessian at g, in place. Far from the
 * optimum a bot whose every result points one way (or none, once a bot that
 * never started is dropped) can leave h singular in rounding; then a ridge,
 * tenfold larger each try, is added (Levenberg-Marquardt), which shortens the
 * step and keeps its direction downhill. At the optimum h is positive definite
 * and no ridge is used, so the intervals come from the true Hessian.
 */
static int factor_damped(const struct problem *pb, const double *g, double *grad, double *h)
{
	size_t m = pb->m;
	double ridge = 1e-9;

	for (int tries = 0; matrix_cholesky(h, m) < 0; tries++) {
		if (tries == 12)
			return -EDOM;
		derivatives(pb, g, grad, h);
		for (size_t i = 0; i < m; i++)
			h[i * m + i] += ridge;
		ridge *= 10;
	}
	return 0;
}

/* Newton with step halving from g = 0; on success h holds the Cholesky factor at the optimum. */
static int newton(const struct problem *pb, double *g, double *grad, double *h, double *step,
		  double *pool_mean, int *iterations)
{
	size_t n = pb->n, m = pb->m;
	double f = objective(pb, g);

	for (int it = 1; it <= NEWTON_MAX_ITER; it++) {
		derivatives(pb, g, grad, h);
		if (factor_damped(pb, g, grad, h) < 0)
			return -EDOM;
		memcpy(step, grad, m * sizeof(double));
		matrix_cholesky_solve(h, m, step);
		/* Every figure reported is a difference of ratings, so only the
		 * step with its mean removed must be small: along the common shift
		 * a small prior leaves the objective so flat that the step there
		 * stays above any fixed tolerance in rounding noise. */
		double t = 1.0, maxstep = 0;
		for (size_t i = 0; i < n; i++)
			pool_mean[i] = 0;
		for (size_t i = 0; i < n; i++)
			if (!pool_pinned(pb, pb->pool[i]))
				pool_mean[pb->pool[i]] += step[i] / pb->pool_size[pb->pool[i]];
		for (size_t i = 0; i < n; i++)
			maxstep = fmax(maxstep, fabs(step[i] - pool_mean[pb->pool[i]]));
		for (size_t j = n; j < m; j++)
			maxstep = fmax(maxstep, fabs(step[j]));
		if (maxstep < NEWTON_TOL) {
			*iterations = it;
			return 0;
		}
		/* Far from the optimum a full step can overshoot; halve until the objective does not drop. */
		for (int half = 0; half < 60; half++, t *= 0.5) {
			for (size_t i = 0; i < m; i++)
				g[i] += t * step[i];
			double f_new = objective(pb, g);
			if (f_new >= f - 1e-12 * fabs(f)) {
				f = f_new;
				break;
			}
			for (size_t i = 0; i < m; i++)
				g[i] -= t * step[i];
		}
	}
	return -EDOM;
}

/* Pools: bots linked by results, numbered in order of their first bot. Returns the count. */
static size_t find_pools(const struct problem *pb, size_t *pool, size_t *parent, double *size)
{
	size_t n = pb->n, count = 0;

	for (size_t i = 0; i < n; i++)
		parent[i] = i;
	for (size_t q = 0; q < pb->npairs; q++) {
		size_t bot[2 * RATING_SIDE_MAX];
		double sign[2 * RATING_SIDE_MAX];
		int m = signed_bots(&pb->pairs[q], bot, sign);
		/* Every bot of a result, partners too, joins the pool of its first. */
		for (int x = 1; x < m; x++) {
			size_t a = bot[0], b = bot[x];
			while (parent[a] != a)
				a = parent[a] = parent[parent[a]];
			while (parent[b] != b)
				b = parent[b] = parent[parent[b]];
			if (a != b)
				parent[a > b ? a : b] = a < b ? a : b;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t r = i;
		while (parent[r] != r)
			r = parent[r];
		pool[i] = r == i ? count++ : pool[r];
		size[i] = 0;
	}
	for (size_t i = 0; i < n; i++)
		size[pool[i]] += 1.0;
	return count;
}

/*
 * Whether every bot of each pool reaches every other through "scored against"
 * links both ways (the graph i -> j when i scored against j is strongly
 * connected within each pool): the condition for the plain maximum-likelihood
 * fit to be finite. seen and stack hold n entries.
 */
static bool reaches_both_ways(const struct rating_pairs *p, const size_t *pool, size_t *stack,
			      unsigned char *seen)
{
	size_t n = p->n;

	for (int dir = 0; dir < 2; dir++) {
		memset(seen, 0, n);
		for (size_t root = 0; root < n; root++) {
			if (seen[root])
				continue;
			size_t top = 0;
			stack[top++] = root;
			seen[root] = 1;
			while (top) {
				size_t i = stack[--top];
				for (size_t j = 0; j < n; j++) {
					double s = dir ? p->score[j * n + i] : p->score[i * n + j];
					if (!seen[j] && s > 0) {
						seen[j] = 1;
						stack[top++] = j;
					}
				}
			}
			/* Roots come in index order, so each is its pool's first bot. */
			for (size_t j = root + 1; j < n; j++)
				if (pool[j] == pool[root] && !seen[j])
					return false;
		}
	}
	return true;
}

/* m = m C' then transposed, C subtracting from each rating its reference: the
 * anchor's rating in the anchor's pool, the pool's mean elsewhere. */
static void project_columns(double *m, const struct problem *pb, long anchor, double *tmp)
{
	size_t n = pb->n;

	for (size_t r = 0; r < n; r++) {
		double *row = &m[r * n];
		for (size_t i = 0; i < n; i++)
			tmp[i] = 0;
		for (size_t j = 0; j < n; j++)
			tmp[pb->pool[j]] += row[j] / pb->pool_size[pb->pool[j]];
		if (anchor >= 0)
			tmp[pb->pool[anchor]] = row[anchor];
		for (size_t pool = 0; pb->pinned && pool < n; pool++)
			if (pool_pinned(pb, pool))
				tmp[pool] = 0;
		for (size_t j = 0; j < n; j++)
			row[j] -= tmp[pb->pool[j]];
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double x = m[i * n + j];
			m[i * n + j] = m[j * n + i];
			m[j * n + i] = x;
		}
}

/* The covariances in Elo^2 under the anchor constraint: C V C'. */
static void project(double *v, const struct problem *pb, long anchor, double *tmp)
{
	project_columns(v, pb, anchor, tmp);
	project_columns(v, pb, anchor, tmp);
	for (size_t k = 0; k < pb->n * pb->n; k++)
		v[k] *= ELO_PER_NAT * ELO_PER_NAT;
}

/* model = H^-1 (factor l); robust = H^-1 M H^-1 G / (G - 1) when clusters are given. */
/* The discriminations at x, every kind (1 where it has none). */
static void scales(const struct problem *pb, const double *x, double *scale)
{
	for (int c = 0; c < RATING_KINDS; c++)
		scale[c] = scale_of(pb, x, c);
}

/* M (m x m) = the clusters' sum of U U' at x: the bots' part, and each kind's b. -ENOMEM. */
static int cluster_meat(const struct problem *pb, const double *x,
			const struct cluster_sums *clusters, double *meat)
{
	size_t n = pb->n, m = pb->m, full = n + RATING_KINDS;
	double scale[RATING_KINDS], *all = calloc(full * full, sizeof(double));
	if (!all)
		return -ENOMEM;
	scales(pb, x, scale);
	if (cluster_sums_meat(clusters, n, x, scale, all) < 0) {
		free(all);
		return -ENOMEM;
	}
	memset(meat, 0, m * m * sizeof(double));
	/* cluster.h's layout: bots 0..n-1, then kind c at n + c */
	for (size_t i = 0; i < full; i++) {
		long pi = i < n ? (long)i : pb->kind_param[i - n];
		for (size_t j = 0; pi >= 0 && j < full; j++) {
			long pj = j < n ? (long)j : pb->kind_param[j - n];
			if (pj >= 0)
				meat[(size_t)pi * m + (size_t)pj] = all[i * full + j];
		}
	}
	free(all);
	return 0;
}

/* model = H^-1 (factor l); robust = H^-1 M H^-1 G / (G - 1) when clusters are given; m x m. */
static int covariances(const double *l, const struct problem *pb, const double *x,
		       const struct cluster_sums *clusters, double *model, double *robust,
		       double *col)
{
	size_t m = pb->m;

	matrix_inverse(l, m, model, col);
	if (clusters) {
		double *meat = calloc(m * m, sizeof(double)), *half = calloc(m * m, sizeof(double));
		if (!meat || !half || cluster_meat(pb, x, clusters, meat) < 0) {
			free(meat);
			free(half);
			return -ENOMEM;
		}
		matrix_multiply(model, meat, m, half);
		matrix_multiply(half, model, m, robust);
		double dof = clusters->clusters > 1 ? clusters->clusters / (clusters->clusters - 1) : 1;
		for (size_t k = 0; k < m * m; k++)
			robust[k] *= dof;
		free(meat);
		free(half);
	} else {
		memcpy(robust, model, m * m * sizeof(double));
	}
	return 0;
}

/* The ratings' block (n x n) of the m x m matrix v, in place. */
static void ratings_block(double *v, size_t n, size_t m)
{
	for (size_t i = 0; i < n; i++)
		memmove(&v[i * n], &v[i * m], n * sizeof(double));
}

/* fit's discriminations at x and their 95% intervals from the m x m covariance v. */
static void kind_scales(const struct problem *pb, const double *x, const double *v,
			struct rating_fit *fit)
{
	fit->reference_kind = pb->reference_kind;
	for (int c = 0; c < RATING_KINDS; c++) {
		int j = pb->kind_param[c];
		double se = j >= 0 ? sqrt(fmax(v[(size_t)j * pb->m + (size_t)j], 0)) : 0;
		fit->scale[c] = scale_of(pb, x, c);
		fit->scale_lo[c] = j >= 0 ? exp(x[j] - RATING_Z95 * se) : 1.0;
		fit->scale_hi[c] = j >= 0 ? exp(x[j] + RATING_Z95 * se) : 1.0;
	}
}

/* clusters->pilot, the natural-log abilities to fold the buffer at: the last pilot's, or a
 * new pilot fit of p once the results have grown by CLUSTER_PILOT_GROWTH or a bot is new.
 * 0 or rating_fit's error. */
static int update_pilot(const struct rating_pairs *p, struct cluster_sums *clusters)
{
	struct rating_fit fit;
	int rc;

	if (clusters->pilot && clusters->pilot_n == p->n &&
	    clusters->results < clusters->pilot_results * CLUSTER_PILOT_GROWTH)
		return 0;
	if ((rc = rating_fit(p, NULL, &fit)) < 0)
		return rc;
	for (size_t i = 0; i < p->n; i++)
		fit.elo[i] /= ELO_PER_NAT;
	memcpy(clusters->pilot_scale, fit.scale, sizeof(clusters->pilot_scale));
	free(clusters->pilot);
	clusters->pilot = fit.elo; /* kept: the fit's other arrays are released */
	fit.elo = NULL;
	clusters->pilot_n = p->n;
	clusters->pilot_results = clusters->results;
	rating_fit_release(&fit);
	return 0;
}

int rating_add_clustered(struct rating_pairs *p, struct cluster_sums *clusters, uint64_t deal,
			 int nseats, const unsigned *bot, const int *placing, const unsigned *team)
{
	int rc;

	struct rating_result res[RATING_GAME_RESULTS_MAX];
	size_t count = rating_game_results(nseats, bot, placing, team, res);

	if ((rc = rating_pairs_add_results(p, res, count)) < 0)
		return rc;
	clusters->results += (double)count;
	rc = cluster_sums_add_results(clusters, deal, res, count);
	if (rc < 0 || !cluster_sums_full(clusters))
		return rc;
	if ((rc = update_pilot(p, clusters)) < 0)
		return rc;
	return cluster_sums_fold(clusters, p->n, clusters->pilot, clusters->pilot_scale);
}

/*
 * The fixed ratings (Elo, NAN for a free bot) into pb, in g: fixed_g[i], and the start g[i]
 * of each fixed bot; pinned[pool] for their pools; the prior's centre at their mean.
 * -EINVAL for a value neither NAN nor finite.
 */
static int fix_ratings(struct problem *pb, const double *fixed, double *fixed_g,
		       unsigned char *pinned, double *g)
{
	double sum = 0, count = 0;

	for (size_t i = 0; i < pb->n; i++) {
		fixed_g[i] = fixed[i] / ELO_PER_NAT;
		if (isnan(fixed[i]))
			continue;
		if (!isfinite(fixed[i]))
			return -EINVAL;
		g[i] = fixed_g[i];
		pinned[pb->pool[i]] = 1;
		sum += fixed_g[i];
		count += 1;
	}
	pb->fixed = fixed_g;
	pb->pinned = pinned;
	pb->center = count > 0 ? sum / count : 0;
	return 0;
}

/* No variance for a fixed rating: its row and column of the n x n matrix v are 0. */
static void clear_fixed(double *v, const struct problem *pb)
{
	for (size_t i = 0; pb->fixed && i < pb->n; i++)
		if (bot_fixed(pb, i))
			for (size_t j = 0; j < pb->n; j++)
				v[i * pb->n + j] = v[j * pb->n + i] = 0;
}

int rating_fit(const struct rating_pairs *p, const struct rating_options *opt,
	       struct rating_fit *fit)
{
	static const struct rating_options defaults = RATING_OPTIONS_DEFAULT;
	struct problem pb = { .n = p->n };
	size_t n = p->n, m, *pool = NULL, *parent = NULL;
	double *g = NULL, *grad = NULL, *h = NULL, *step = NULL, *cov = NULL, *model = NULL;
	double *pool_size = NULL, *work = NULL, *fixed_g = NULL;
	unsigned char *pinned = NULL;
	int iterations = 0, rc;

	memset(fit, 0, sizeof(*fit));
	if (!opt)
		opt = &defaults;
	if (n == 0 || !(opt->prior_draws >= 0) || !isfinite(opt->prior_draws) ||
	    opt->anchor >= (long)n || opt->anchor < -1)
		return -EINVAL;
	pb.k = opt->prior_draws;
	pb.shift_penalty = pb.k > 0 ? 0.0 : 1.0;
	rc = collect_pairs(p, &pb);
	if (rc < 0)
		goto out;
	m = pb.m;
	rc = -ENOMEM;
	g = calloc(m, sizeof(double));
	grad = calloc(m, sizeof(double));
	step = calloc(m, sizeof(double));
	pool_size = calloc(n, sizeof(double));
	work = calloc(n, sizeof(double));
	pool = calloc(n, sizeof(size_t));
	parent = calloc(n, sizeof(size_t));
	h = calloc(m * m, sizeof(double));
	cov = calloc(m * m, sizeof(double));
	model = calloc(m * m, sizeof(double));
	if (!g || !grad || !step || !pool_size || !work || !pool || !parent || !h || !cov || !model)
		goto out;
	fit->npools = find_pools(&pb, pool, parent, pool_size);
	pb.pool = pool;
	pb.pool_size = pool_size;
	if (opt->fixed) {
		fixed_g = calloc(n, sizeof(double));
		pinned = calloc(n, sizeof(*pinned));
		if (!fixed_g || !pinned)
			goto out;
		if ((rc = fix_ratings(&pb, opt->fixed, fixed_g, pinned, g)) < 0)
			goto out;
	}
	rc = -EDOM;
	if (pb.k == 0 && !reaches_both_ways(p, pool, parent, (unsigned char *)work))
		goto out;
	rc = newton(&pb, g, grad, h, step, work, &iterations);
	if (rc < 0)
		goto out;
	/* Factor at the final point, for the information matrix there. */
	derivatives(&pb, g, grad, h);
	rc = matrix_cholesky(h, m);
	if (rc < 0)
		goto out;
	rc = covariances(h, &pb, g, opt->clusters, model, cov, step);
	if (rc < 0)
		goto out;
	kind_scales(&pb, g, cov, fit);
	ratings_block(model, n, m);
	ratings_block(cov, n, m);
	clear_fixed(model, &pb);
	clear_fixed(cov, &pb);
	project(model, &pb, opt->anchor, step);
	project(cov, &pb, opt->anchor, step);

	for (size_t i = 0; i < n; i++)
		step[i] = 0;
	for (size_t i = 0; i < n; i++)
		step[pool[i]] += g[i] / pool_size[pool[i]];
	if (opt->anchor >= 0)
		step[pool[opt->anchor]] = g[opt->anchor];
	for (size_t i = 0; pinned && i < n; i++)
		if (pinned[i])
			step[i] = 0;
	for (size_t i = 0; i < n; i++)
		g[i] = (g[i] - step[pool[i]]) * ELO_PER_NAT;
	fit->n = n;
	fit->elo = g;
	fit->cov = cov;
	fit->cov_model = model;
	fit->pool = pool;
	fit->iterations = iterations;
	g = NULL;
	cov = NULL;
	model = NULL;
	pool = NULL;
	rc = 0;
out:
	if (rc < 0) {
		fit->npools = 0;
		fit->reference_kind = -1;
	}
	free(pb.pairs);
	free(g);
	free(grad);
	free(step);
	free(pool_size);
	free(work);
	free(fixed_g);
	free(pinned);
	free(pool);
	free(parent);
	free(h);
	free(cov);
	free(model);
	return rc;
}

void rating_fit_release(struct rating_fit *fit)
{
	free(fit->elo);
	free(fit->cov);
	free(fit->cov_model);
	free(fit->pool);
	memset(fit, 0, sizeof(*fit));
}

double rating_ci95(const struct rating_fit *fit, size_t i)
{
	double v = fit->cov[i * fit->n + i];
	return v > 0 ? RATING_Z95 * sqrt(v) : 0.0;
}

double rating_los(const struct rating_fit *fit, size_t i, size_t j)
{
	size_t n = fit->n;
	double v = fit->cov[i * n + i] + fit->cov[j * n + j] - 2.0 * fit->cov[i * n + j];

	if (fit->pool[i] != fit->pool[j])
		return NAN;
	if (i == j || !(v > 0))
		return 0.5;
	return 0.5 * erfc(-(fit->elo[i] - fit->elo[j]) / sqrt(2.0 * v));
}
