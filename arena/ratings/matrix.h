/*
 * matrix.h - the dense linear algebra of the rating fit (rating.h): n x n
 * matrices of doubles, row by row, for the Newton steps and the
 * covariances of a few hundred ratings at most.
 */
#ifndef SKIPBO_MATRIX_H
#define SKIPBO_MATRIX_H

#include <stddef.h>

/* The Cholesky factor L (lower triangle) of a, in place: 0, or -EDOM when a is not
 * positive definite. */
int matrix_cholesky(double *a, size_t n);

/* Solve L L' x = b in place (x holds b), l from matrix_cholesky(). */
void matrix_cholesky_solve(const double *l, size_t n, double *x);

/* inv = the inverse of the matrix whose Cholesky factor is l; col: room for n. */
void matrix_inverse(const double *l, size_t n, double *inv, double *col);

/* out = a b. */
void matrix_multiply(const double *a, const double *b, size_t n, double *out);

#endif
