/*
 * league_info.c - the scheduler's information matrix and its inverse; the
 * model is in league_info.h.
 */
#include "league_info.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void league_info_init(struct league_info *m)
{
	memset(m, 0, sizeof(*m));
}

void league_info_release(struct league_info *m)
{
	free(m->inv);
	free(m->work);
	memset(m, 0, sizeof(*m));
}

double league_info_weight(const double *g, uint32_t a, uint32_t b, double results)
{
	double d = g[a] - g[b], p = isnan(d) ? 0.5 : 1.0 / (1.0 + exp(-d));

	return results * p * (1.0 - p);
}

/* Invert the symmetric positive definite n x n matrix a in place (Gauss-Jordan: every
 * pivot of such a matrix is positive, so none is exchanged). -EDOM for a pivot that is not
 * positive (non-finite input). */
static int invert_in_place(double *a, size_t n, double *row)
{
	for (size_t k = 0; k < n; k++) {
		double pivot = a[k * n + k];
		if (!(pivot > 0) || !isfinite(pivot))
			return -EDOM;
		a[k * n + k] = 1.0;
		for (size_t j = 0; j < n; j++)
			a[k * n + j] /= pivot;
		memcpy(row, &a[k * n], n * sizeof(double));
		for (size_t i = 0; i < n; i++) {
			double f = a[i * n + k];
			if (i == k || f == 0)
				continue;
			a[i * n + k] = 0;
			for (size_t j = 0; j < n; j++)
				a[i * n + j] -= f * row[j];
		}
	}
	return 0;
}

int league_info_rebuild(struct league_info *m, size_t n, const uint32_t *deals, size_t stride,
			double results_per_deal, const double *g, const bool *anchor)
{
	double *a = calloc(n > 0 ? n * n : 1, sizeof(double));
	double *work = calloc(n ? n : 1, sizeof(double));
	int rc = -ENOMEM;

	if (!a || !work)
		goto out;
	for (size_t i = 0; i < n; i++) {
		a[i * n + i] = anchor[i] ? LEAGUE_INFO_ANCHOR_PRIOR : LEAGUE_INFO_PRIOR;
		for (size_t j = 0; j < n; j++) {
			if (j == i || deals[i * stride + j] == 0)
				continue;
			double w = league_info_weight(g, (uint32_t)i, (uint32_t)j,
						      results_per_deal * deals[i * stride + j]);
			a[i * n + i] += w;
			a[i * n + j] -= w;
		}
	}
	if ((rc = invert_in_place(a, n, work)) < 0)
		goto out;
	free(m->inv);
	free(m->work);
	m->inv = a;
	m->work = work;
	m->n = n;
	a = work = NULL;
out:
	free(a);
	free(work);
	return rc;
}

double league_info_resistance(const struct league_info *m, uint32_t a, uint32_t b)
{
	size_t n = m->n;

	return m->inv[a * n + a] + m->inv[b * n + b] - 2.0 * m->inv[a * n + b];
}

double league_info_resistance_after(const struct league_info *m, uint32_t a, uint32_t b,
				    double w)
{
	double r = league_info_resistance(m, a, b);

	return r - w * r * r / (1.0 + w * r);
}

void league_info_add(struct league_info *m, uint32_t a, uint32_t b, double w)
{
	size_t n = m->n;
	double *x = m->work, r = league_info_resistance(m, a, b), c;

	/* a removal (w < 0) never takes more than was added: 1 + w r stays positive */
	if (w == 0 || a >= n || b >= n || a == b || !(1.0 + w * r > 0))
		return;
	for (size_t i = 0; i < n; i++)
		x[i] = m->inv[i * n + a] - m->inv[i * n + b]; /* M^-1 u */
	c = w / (1.0 + w * r);
	for (size_t i = 0; i < n; i++) {
		double ci = c * x[i];
		if (ci == 0)
			continue;
		for (size_t j = 0; j < n; j++)
			m->inv[i * n + j] -= ci * x[j];
	}
}

void league_info_variances(const struct league_info *m, bool anchored, double *var)
{
	size_t n = m->n;
	double all = 0;

	for (size_t i = 0; i < n; i++) {
		var[i] = 0;
		for (size_t j = 0; j < n; j++)
			var[i] += m->inv[i * n + j];
		all += var[i];
	}
	/* var(g_i - mean) = inv_ii - 2 (row sum) / n + (total sum) / n^2 */
	for (size_t i = 0; i < n; i++)
		var[i] = anchored ? m->inv[i * n + i]
				  : m->inv[i * n + i] - 2.0 * var[i] / (double)n +
					    all / ((double)n * (double)n);
}
