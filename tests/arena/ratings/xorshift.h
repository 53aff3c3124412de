/*
 * xorshift.h - xorshift64*, the fixed-seed generator of the rating tests and
 * benchmark, so that "random" fixtures are the same on every run.
 */
#ifndef RATING_XORSHIFT_H
#define RATING_XORSHIFT_H

#include <stdint.h>

/* The next output; advances *state, which must not be 0. */
static inline uint64_t xorshift64s(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ull;
}

#endif
