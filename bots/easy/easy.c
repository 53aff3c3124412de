/*
 * easy.c - the easy reference bot's policy (see easy.h).
 */
#include "easy.h"

/* FNV-1a: a stable hash of the game id on every machine. */
static uint64_t hash_id(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

void easy_init(struct easy *e, uint64_t seed)
{
	e->seed = seed;
	rng_seed(&e->rng, seed);
}

void easy_game_start(struct easy *e, const char *game_id)
{
	rng_seed(&e->rng, e->seed ^ hash_id(game_id));
}

int easy_choose(struct easy *e, int n_legal)
{
	if (n_legal <= 0)
		return -1;
	return (int)rng_below(&e->rng, (uint64_t)n_legal);
}
