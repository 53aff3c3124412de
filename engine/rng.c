/*
 * rng.c - R12: xoshiro256** seeded by splitmix64, an unbiased bounded draw
 * and a Fisher-Yates shuffle. README.md specifies all three exactly, so that
 * another program can reproduce any deal from its seed.
 */
#include "engine.h"

uint64_t rng_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t sm = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&sm);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	/* (2^64 - bound) % bound: the count of low values that would bias r % bound. */
	uint64_t threshold;
	uint64_t x;

	if (bound <= 1)
		return 0;
	threshold = (0 - bound) % bound;
	do
		x = rng_next(r);
	while (x < threshold);
	return x % bound;
}

void rng_shuffle(struct rng *r, uint8_t *cards, size_t n)
{
	for (size_t i = n; i-- > 1;) {
		size_t j = (size_t)rng_below(r, i + 1);
		uint8_t t = cards[i];

		cards[i] = cards[j];
		cards[j] = t;
	}
}
