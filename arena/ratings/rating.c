/*
 * rating.c - Bradley-Terry Elo by Newton's method; the model is in rating.h.
 *
 * Internally ratings are natural-log abilities g (E = 1 / (1 + e^-(g_i - g_j)));
 * Elo = g * 400 / ln 10.
 */
#include "rating.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


#define ELO_PER_NAT (400.0 / M_LN10)
#define NEWTON_MAX_ITER 200
#define NEWTON_TOL 1e-10   /* nats; far below 0.001 Elo */
#define SCORE_CLAMP 0.001

int rating_pairs_init(struct rating_pairs *p, size_t n)
{
	memset(p, 0, sizeof(*p));
	if (n == 0 || n > 65536)
		return -EINVAL;
	p->score = calloc(n * n, sizeof(double));
	p->games = calloc(n * n, sizeof(double));
	if (!p->score || !p->games) {
		rating_pairs_release(p);
		return -ENOMEM;
	}
	p->n = n;
	return 0;
}

void rating_pairs_release(struct rating_pairs *p)
{
	free(p->score);
	free(p->games);
	memset(p, 0, sizeof(*p));
}

void rating_pairs_add(struct rating_pairs *p, size_t i, size_t j, double score_i, double count)
{
	p->score[i * p->n + j] += score_i;
	p->score[j * p->n + i] += count - score_i;
	p->games[i * p->n + j] += count;
	p->games[j * p->n + i] += count;
}

size_t rating_pairs_add_placings(struct rating_pairs *p, int nseats, const unsigned *bot,
				 const int *placing, const unsigned *team)
{
	size_t added = 0;

	for (int a = 0; a < nseats; a++) {
		for (int b = a + 1; b < nseats; b++) {
			if (team[a] == team[b] || bot[a] == bot[b])
				continue;
			double s = placing[a] < placing[b] ? 1.0 : placing[a] > placing[b] ? 0.0 : 0.5;
			rating_pairs_add(p, bot[a], bot[b], s, 1.0);
			added++;
		}
	}
	return added;
}

double rating_expected(double elo_diff)
{
	return 1.0 / (1.0 + pow(10.0, -elo_diff / 400.0));
}

double rating_elo_from_score(double score)
{
	if (score < SCORE_CLAMP)
		score = SCORE_CLAMP;
	if (score > 1.0 - SCORE_CLAMP)
		score = 1.0 - SCORE_CLAMP;
	return 400.0 * log10(score / (1.0 - score));
}

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

/* The pairs that met, so each Newton step costs O(pairs), not O(n^2) lookups. */
struct met_pair {
	size_t i, j;
	double s_ij, s_ji, games;
};

struct problem {
	size_t n;
	double k;
	struct met_pair *pairs;
	size_t npairs;
};

static double objective(const struct problem *pb, const double *g)
{
	double f = 0;

	for (size_t q = 0; q < pb->npairs; q++) {
		const struct met_pair *mp = &pb->pairs[q];
		double d = g[mp->i] - g[mp->j];
		f += mp->s_ij * log_sigmoid(d) + mp->s_ji * log_sigmoid(-d);
	}
	for (size_t i = 0; i < pb->n; i++)
		f += pb->k * 0.5 * (log_sigmoid(g[i]) + log_sigmoid(-g[i]));
	return f;
}

/* Gradient and the negative Hessian (positive definite thanks to the prior). */
static void derivatives(const struct problem *pb, const double *g, double *grad, double *h)
{
	size_t n = pb->n;

	memset(h, 0, n * n * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		double e = sigmoid(g[i]);
		grad[i] = pb->k * (0.5 - e);
		h[i * n + i] = pb->k * e * (1.0 - e);
	}
	for (size_t q = 0; q < pb->npairs; q++) {
		const struct met_pair *mp = &pb->pairs[q];
		double e = sigmoid(g[mp->i] - g[mp->j]);
		double w = mp->games * e * (1.0 - e);
		double r = mp->s_ij - mp->games * e;
		grad[mp->i] += r;
		grad[mp->j] -= r;
		h[mp->i * n + mp->i] += w;
		h[mp->j * n + mp->j] += w;
		h[mp->i * n + mp->j] -= w;
		h[mp->j * n + mp->i] -= w;
	}
}

/* In-place Cholesky factor (lower triangle) of the n x n matrix a; -EDOM if not positive definite. */
static int cholesky(double *a, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		double d = a[j * n + j];
		for (size_t k = 0; k < j; k++)
			d -= a[j * n + k] * a[j * n + k];
		if (!(d > 0))
			return -EDOM;
		d = sqrt(d);
		a[j * n + j] = d;
		for (size_t i = j + 1; i < n; i++) {
			double s = a[i * n + j];
			for (size_t k = 0; k < j; k++)
				s -= a[i * n + k] * a[j * n + k];
			a[i * n + j] = s / d;
		}
	}
	return 0;
}

/* Solve L L' x = b in place, L from cholesky(). */
static void cholesky_solve(const double *l, size_t n, double *x)
{
	for (size_t i = 0; i < n; i++) {
		double s = x[i];
		for (size_t k = 0; k < i; k++)
			s -= l[i * n + k] * x[k];
		x[i] = s / l[i * n + i];
	}
	for (size_t i = n; i-- > 0;) {
		double s = x[i];
		for (size_t k = i + 1; k < n; k++)
			s -= l[k * n + i] * x[k];
		x[i] = s / l[i * n + i];
	}
}

static int collect_pairs(const struct rating_pairs *p, struct problem *pb)
{
	size_t n = p->n, count = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (p->games[i * n + j] > 0)
				count++;
	pb->pairs = reallocarray(NULL, count ? count : 1, sizeof(*pb->pairs));
	if (!pb->pairs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (p->games[i * n + j] > 0)
				pb->pairs[pb->npairs++] = (struct met_pair){
					i, j, p->score[i * n + j], p->score[j * n + i], p->games[i * n + j]
				};
	return 0;
}

/* Newton with step halving from g = 0; on success h holds the Cholesky factor at the optimum. */
static int newton(const struct problem *pb, double *g, double *grad, double *h, double *step,
		  int *iterations)
{
	size_t n = pb->n;
	double f = objective(pb, g);

	for (int it = 1; it <= NEWTON_MAX_ITER; it++) {
		derivatives(pb, g, grad, h);
		if (cholesky(h, n) < 0)
			return -EDOM;
		memcpy(step, grad, n * sizeof(double));
		cholesky_solve(h, n, step);
		double t = 1.0, maxstep = 0;
		for (size_t i = 0; i < n; i++)
			maxstep = fmax(maxstep, fabs(step[i]));
		if (maxstep < NEWTON_TOL) {
			*iterations = it;
			return 0;
		}
		/* Far from the optimum a full step can overshoot; halve until the objective does not drop. */
		for (int half = 0; half < 60; half++, t *= 0.5) {
			for (size_t i = 0; i < n; i++)
				g[i] += t * step[i];
			double f_new = objective(pb, g);
			if (f_new >= f - 1e-12 * fabs(f)) {
				f = f_new;
				break;
			}
			for (size_t i = 0; i < n; i++)
				g[i] -= t * step[i];
		}
	}
	return -EDOM;
}

/* cov = anchor projection of the inverse of the information matrix (factor l), in Elo^2. */
static void covariance(const double *l, size_t n, long anchor, double *cov, double *col)
{
	double scale = ELO_PER_NAT * ELO_PER_NAT;

	for (size_t j = 0; j < n; j++) {
		memset(col, 0, n * sizeof(double));
		col[j] = 1.0;
		cholesky_solve(l, n, col);
		for (size_t i = 0; i < n; i++)
			cov[i * n + j] = col[i];
	}
	if (anchor >= 0) {
		size_t a = (size_t)anchor;
		double saa = cov[a * n + a];
		for (size_t i = 0; i < n; i++)
			col[i] = cov[i * n + a];
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				cov[i * n + j] = (cov[i * n + j] - col[i] - col[j] + saa) * scale;
		return;
	}
	double total = 0;
	for (size_t i = 0; i < n; i++) {
		double r = 0;
		for (size_t j = 0; j < n; j++)
			r += cov[i * n + j];
		col[i] = r / (double)n;
		total += col[i];
	}
	total /= (double)n;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			cov[i * n + j] = (cov[i * n + j] - col[i] - col[j] + total) * scale;
}

int rating_fit(const struct rating_pairs *p, const struct rating_options *opt,
	       struct rating_fit *fit)
{
	static const struct rating_options defaults = RATING_OPTIONS_DEFAULT;
	struct problem pb = { .n = p->n };
	size_t n = p->n;
	double *g = NULL, *grad = NULL, *h = NULL, *step = NULL, *cov = NULL;
	int iterations = 0, rc;

	memset(fit, 0, sizeof(*fit));
	if (!opt)
		opt = &defaults;
	if (n == 0 || !(opt->prior_draws > 0) || opt->anchor >= (long)n || opt->anchor < -1)
		return -EINVAL;
	pb.k = opt->prior_draws;
	rc = collect_pairs(p, &pb);
	if (rc < 0)
		goto out;
	rc = -ENOMEM;
	g = calloc(n, sizeof(double));
	grad = calloc(n, sizeof(double));
	step = calloc(n, sizeof(double));
	h = calloc(n * n, sizeof(double));
	cov = calloc(n * n, sizeof(double));
	if (!g || !grad || !step || !h || !cov)
		goto out;
	rc = newton(&pb, g, grad, h, step, &iterations);
	if (rc < 0)
		goto out;
	/* Factor at the final point, for the information matrix there. */
	derivatives(&pb, g, grad, h);
	rc = cholesky(h, n);
	if (rc < 0)
		goto out;
	covariance(h, n, opt->anchor, cov, step);

	double shift = 0;
	if (opt->anchor >= 0) {
		shift = g[opt->anchor];
	} else {
		for (size_t i = 0; i < n; i++)
			shift += g[i];
		shift /= (double)n;
	}
	for (size_t i = 0; i < n; i++)
		g[i] = (g[i] - shift) * ELO_PER_NAT;
	fit->n = n;
	fit->elo = g;
	fit->cov = cov;
	fit->iterations = iterations;
	g = NULL;
	cov = NULL;
	rc = 0;
out:
	free(pb.pairs);
	free(g);
	free(grad);
	free(step);
	free(h);
	free(cov);
	return rc;
}

void rating_fit_release(struct rating_fit *fit)
{
	free(fit->elo);
	free(fit->cov);
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

	if (i == j || !(v > 0))
		return 0.5;
	return 0.5 * erfc(-(fit->elo[i] - fit->elo[j]) / sqrt(2.0 * v));
}

void rating_paired_stats(const double counts[5], struct rating_paired *out)
{
	double n = 0, sum = 0, ss = 0;

	for (int k = 0; k < 5; k++) {
		n += counts[k];
		sum += counts[k] * (k / 2.0);
	}
	memset(out, 0, sizeof(*out));
	out->pairs = n;
	out->elo_lo = -INFINITY;
	out->elo_hi = INFINITY;
	if (n <= 0) {
		out->score = 0.5;
		return;
	}
	double mean = sum / n;
	out->score = mean / 2.0;
	out->elo = rating_elo_from_score(out->score);
	if (n < 2)
		return;
	for (int k = 0; k < 5; k++)
		ss += counts[k] * (k / 2.0 - mean) * (k / 2.0 - mean);
	out->score_se = sqrt(ss / (n - 1.0) / n) / 2.0;
	/* Identical pair scores give a zero-width interval that would claim certainty. */
	if (!(ss > 0))
		return;
	out->elo_lo = rating_elo_from_score(out->score - RATING_Z95 * out->score_se);
	out->elo_hi = rating_elo_from_score(out->score + RATING_Z95 * out->score_se);
}
