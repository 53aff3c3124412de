/*
 * matrix.c - dense n x n matrices of the rating fit (contract in matrix.h).
 */
#include "matrix.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int matrix_cholesky(double *a, size_t n)
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

void matrix_cholesky_solve(const double *l, size_t n, double *x)
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

void matrix_inverse(const double *l, size_t n, double *inv, double *col)
{
	for (size_t j = 0; j < n; j++) {
		memset(col, 0, n * sizeof(double));
		col[j] = 1.0;
		matrix_cholesky_solve(l, n, col);
		for (size_t i = 0; i < n; i++)
			inv[i * n + j] = col[i];
	}
}

void matrix_multiply(const double *a, const double *b, size_t n, double *out)
{
	memset(out, 0, n * n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			double x = a[i * n + k];
			if (x == 0)
				continue;
			for (size_t j = 0; j < n; j++)
				out[i * n + j] += x * b[k * n + j];
		}
}
