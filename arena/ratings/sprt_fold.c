/*
 * sprt_fold.c - an SPRT folded from records in deal order (contract in
 * sprt_fold.h).
 */
#include "sprt_fold.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A deal's byte: bit r says rotation r is known; bits 2+2r..3+2r hold A's half points in it. */
#define KNOWN(r) (1u << (r))
#define BOTH (KNOWN(0) | KNOWN(1))
#define POINTS_SHIFT(r) (2 + 2 * (r))

int sprt_fold_init(struct sprt_fold *f, double elo0, double elo1, double alpha, double beta)
{
	memset(f, 0, sizeof(*f));
	return sprt_init(&f->test, elo0, elo1, alpha, beta);
}

void sprt_fold_release(struct sprt_fold *f)
{
	free(f->deal);
	f->deal = NULL;
	f->ndeals = 0;
}

/* Room for deal d: the array grows by half again, at least to d + 1. */
static int hold_deal(struct sprt_fold *f, uint32_t d)
{
	uint64_t want;
	uint8_t *grown;

	if (d < f->ndeals)
		return 0;
	want = (uint64_t)f->ndeals + f->ndeals / 2;
	if (want < (uint64_t)d + 1)
		want = (uint64_t)d + 1;
	if (want < 1024)
		want = 1024;
	if (want > UINT32_MAX)
		want = UINT32_MAX;
	if (!(grown = realloc(f->deal, (size_t)want)))
		return -ENOMEM;
	memset(grown + f->ndeals, 0, (size_t)(want - f->ndeals));
	f->deal = grown;
	f->ndeals = (uint32_t)want;
	return 0;
}

int sprt_fold_add(struct sprt_fold *f, uint32_t deal, int rotation, int a_half_points)
{
	int ret;

	if (rotation < 0 || rotation > 1 || a_half_points < 0 || a_half_points > 2 ||
	    deal == UINT32_MAX)
		return -EINVAL;
	if ((ret = hold_deal(f, deal)) < 0)
		return ret;
	if (f->deal[deal] & KNOWN(rotation))
		return 0;
	f->deal[deal] |= (uint8_t)(KNOWN(rotation) |
				   (unsigned)a_half_points << POINTS_SHIFT(rotation));
	f->games++;
	return 0;
}

int sprt_fold_next(struct sprt_fold *f)
{
	unsigned b;

	if (sprt_status(&f->test) != SPRT_CONTINUE || f->next >= f->ndeals)
		return 0;
	b = f->deal[f->next];
	if ((b & BOTH) != BOTH)
		return 0;
	sprt_add_pair(&f->test, ((b >> POINTS_SHIFT(0) & 3) + (b >> POINTS_SHIFT(1) & 3)) / 2.0);
	f->next++;
	return 1;
}

uint64_t sprt_fold_pending(const struct sprt_fold *f)
{
	return f->games - 2 * (uint64_t)f->next;
}
