/*
 * sprt_fold.h - the SPRT of a two-bot duplicate tournament, folded game by
 * game from its records.
 *
 * Bot A is the tournament's first bot. Deal d is played at rotation 0 (A in
 * seat 0) and rotation 1 (B in seat 0), schedule.h. Pairs are counted in deal
 * order: pair d enters the test (sprt.h) once both games of every deal up to
 * d are known. Games arrive in any order (parallel workers, a resumed run),
 * but the test sees the same sequence of pairs, so a run stopped and resumed
 * reaches the decision of an uninterrupted one at the same pair. Once H0 or
 * H1 is accepted no further pair is counted: a sequential test ends there.
 *
 * Memory: one byte per deal up to the highest deal seen.
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_SPRT_FOLD_H
#define SKIPBO_SPRT_FOLD_H

#include <stdint.h>

#include "sprt.h"

struct sprt_fold {
	struct sprt test;     /* the pairs counted so far */
	uint8_t *deal;        /* per deal: which rotations are known, and A's results */
	uint32_t ndeals;      /* deals the array holds */
	uint32_t next;        /* the first deal not counted */
	uint64_t games;       /* games folded, each (deal, rotation) once */
};

/* As sprt_init (-EINVAL for bad bounds); the fold holds no deal yet. */
int sprt_fold_init(struct sprt_fold *f, double elo0, double elo1, double alpha, double beta);
void sprt_fold_release(struct sprt_fold *f);

/*
 * One game: deal, rotation (0 or 1) and A's R7 result in half points (0 a
 * loss, 1 a draw, 2 a win). A game already folded is ignored. 0, -EINVAL
 * (rotation or points out of range), or -ENOMEM.
 */
int sprt_fold_add(struct sprt_fold *f, uint32_t deal, int rotation, int a_half_points);

/*
 * Count the next pair into f->test if both its games are known and the test
 * is undecided: 1 when a pair was counted, 0 otherwise. Call it until it
 * returns 0 (e.g. to print the test after each pair).
 */
int sprt_fold_next(struct sprt_fold *f);

/* Games folded whose pair is not counted yet (waiting for an earlier deal or the other rotation). */
uint64_t sprt_fold_pending(const struct sprt_fold *f);

#endif
