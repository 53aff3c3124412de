/*
 * easy.h - the easy reference bot's policy: a uniformly random legal move.
 *
 * Each game's generator is seeded from the game id and a seed of the bot's
 * own, so the same game id and seed give the same moves, and two games with
 * different ids differ.
 */
#ifndef SKIPBO_BOTS_EASY_H
#define SKIPBO_BOTS_EASY_H

#include <stdint.h>

#include "engine.h"

struct easy {
	uint64_t seed;
	struct rng rng;
};

void easy_init(struct easy *e, uint64_t seed);
/* Reseed for the game with this id (the game_start "game" field). */
void easy_game_start(struct easy *e, const char *game_id);
/* An index in [0, n_legal), or -1 when n_legal is 0. */
int easy_choose(struct easy *e, int n_legal);

#endif
