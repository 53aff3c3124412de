/*
 * attack_deck_rebuild.c - rebuilds the deal with the engine library from the
 * seed every tournament used before seeds were random (1), and predicts
 * every hidden card from it (attack_cards.h).
 *
 * usage: attack_deck_rebuild TOKEN
 *
 * A game id of the form tTABLE-dDEAL-rROTATION names the deal's seed
 * (schedule.h, R12). Any other id is searched for: every table and deal
 * below SEARCH of seed 1 is dealt, and the one whose deck shows the cards of
 * the first request (both stock tops, the first hand drawn) is taken. With a
 * random seed and an opaque id neither finds the deal, and its predictions
 * are those of a random deck.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "attack_cards.h"
#include "engine.h"

#define OLD_DEFAULT_SEED 1
#define SEARCH 64

static uint8_t deck[ENGINE_DECK_SIZE];
static int known; /* deck holds the deal of this game */

/* schedule.h's splitmix64 and deal seed, as anyone can write them down */
static uint64_t splitmix64(uint64_t z)
{
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ z >> 30) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ z >> 27) * UINT64_C(0x94d049bb133111eb);
	return z ^ z >> 31;
}

/* The deck of (table, deal) under the old default seed; 0, or -1. */
static int deal(const struct cards_game *g, uint32_t table, uint32_t d, uint8_t out[])
{
	struct game_rules rules = { .players = g->players, .stock_size = g->stock_size,
		.dealer = g->players - 1,
		.seed = splitmix64(splitmix64(OLD_DEFAULT_SEED ^ table) ^ d), .no_event_log = 1 };
	int err = 0;
	struct game *game = game_new(&rules, &err);

	if (!game)
		return -1;
	game_initial_deck(game, out);
	game_free(game);
	return 0;
}

static void game_start(const struct cards_game *g, int argc, char **argv)
{
	unsigned table, d, rotation;

	(void)argc;
	(void)argv;
	known = sscanf(g->id, "t%u-d%u-r%u", &table, &d, &rotation) == 3 &&
		deal(g, table, d, deck) == 0;
}

/* Does candidate show every card shown so far? */
static int matches(const struct cards_game *g, const uint8_t *candidate)
{
	int compared = 0;

	for (int p = 0; p < CARDS_DECK; p++) {
		if (g->shown[p] == CARDS_UNKNOWN)
			continue;
		if (candidate[p] != g->shown[p])
			return 0;
		compared++;
	}
	return compared >= 3;
}

static void first_request(const struct cards_game *g)
{
	uint8_t candidate[ENGINE_DECK_SIZE];

	if (known)
		return;
	for (uint32_t table = 0; table < SEARCH && !known; table++)
		for (uint32_t d = 0; d < SEARCH && !known; d++)
			if (deal(g, table, d, candidate) == 0 && matches(g, candidate)) {
				memcpy(deck, candidate, sizeof(deck));
				known = 1;
			}
	/* no deal found: table 0, deal 0 is as good a guess as any */
	if (!known)
		deal(g, 0, 0, deck);
}

static int predict(const struct cards_game *g, int pos)
{
	(void)g;
	/* a deck that is not this deal's predicts too: cards at random */
	return deck[pos];
}

int main(int argc, char **argv)
{
	static const struct cards_attack a = { "deck-rebuild", game_start, first_request,
		predict, NULL, NULL };

	return cards_main(&a, argc, argv);
}
