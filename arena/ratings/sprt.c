/*
 * sprt.c - the pentanomial GSPRT; formulas in sprt.h.
 */
#include "sprt.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "rating_score.h"

#define SPRT_ZERO_COUNT 1e-3

/* sum p_k (x_k - s) / (1 + lambda (x_k - s)): decreasing in lambda. */
static double constraint(const double *p, double s, double lambda)
{
	double sum = 0;

	for (int k = 0; k < 5; k++) {
		double d = k / 4.0 - s;
		sum += p[k] * d / (1.0 + lambda * d);
	}
	return sum;
}

/* q = the distribution closest to p (maximum likelihood) whose mean score is s. */
static void mle_with_mean(const double *p, double s, double *q)
{
	/* 1 + lambda (x_k - s) > 0 for x_k in [0, 1] means lambda in (-1/(1-s), 1/s). */
	double lo = -1.0 / (1.0 - s), hi = 1.0 / s;
	double span = hi - lo;

	lo += span * 1e-12;
	hi -= span * 1e-12;
	for (int it = 0; it < 200; it++) {
		double mid = 0.5 * (lo + hi);
		if (constraint(p, s, mid) > 0)
			lo = mid;
		else
			hi = mid;
	}
	double lambda = 0.5 * (lo + hi);
	for (int k = 0; k < 5; k++)
		q[k] = p[k] / (1.0 + lambda * (k / 4.0 - s));
}

double sprt_llr(const double pent[5], double elo0, double elo1)
{
	double counts[5], n = 0, p[5], q0[5], q1[5], llr = 0;

	for (int k = 0; k < 5; k++) {
		counts[k] = pent[k] > 0 ? pent[k] : SPRT_ZERO_COUNT;
		n += counts[k];
	}
	if (n <= 5 * SPRT_ZERO_COUNT)
		return 0;
	for (int k = 0; k < 5; k++)
		p[k] = counts[k] / n;
	mle_with_mean(p, rating_expected(elo0), q0);
	mle_with_mean(p, rating_expected(elo1), q1);
	for (int k = 0; k < 5; k++)
		llr += p[k] * log(q1[k] / q0[k]);
	return n * llr;
}

int sprt_init(struct sprt *t, double elo0, double elo1, double alpha, double beta)
{
	memset(t, 0, sizeof(*t));
	if (!(elo0 < elo1) || !(fabs(elo0) < 2000) || !(fabs(elo1) < 2000) ||
	    !(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5))
		return -EINVAL;
	t->elo0 = elo0;
	t->elo1 = elo1;
	t->alpha = alpha;
	t->beta = beta;
	t->lower = log(beta / (1.0 - alpha));
	t->upper = log((1.0 - beta) / alpha);
	return 0;
}

void sprt_add_pair(struct sprt *t, double pair_score)
{
	int k = (int)lround(pair_score * 2.0);

	if (k < 0)
		k = 0;
	if (k > 4)
		k = 4;
	t->pent[k]++;
	t->pairs++;
	t->llr = sprt_llr(t->pent, t->elo0, t->elo1);
}

enum sprt_state sprt_status(const struct sprt *t)
{
	if (t->llr >= t->upper)
		return SPRT_ACCEPT_H1;
	if (t->llr <= t->lower)
		return SPRT_ACCEPT_H0;
	return SPRT_CONTINUE;
}
