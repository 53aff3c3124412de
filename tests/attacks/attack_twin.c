/*
 * attack_twin.c - the deal key, the cards heard and the predictions of the
 * twin relays (contract in attack_twin.h).
 */
#include "attack_twin.h"

#include <stdatomic.h>
#include <stddef.h>

#include "attack_cards.h"

static atomic_int known[TWIN_KEYS][CARDS_DECK]; /* card + 1, 0 if unknown */
static int key = -1;
static void (*publish)(int key, int pos, int card);

void twin_heard(int k, int pos, int card)
{
	if (k >= 0 && k < TWIN_KEYS && pos >= 0 && pos < CARDS_DECK && card >= 0 && card <= 12)
		atomic_store(&known[k][pos], card + 1);
}

static void first_request(const struct cards_game *g)
{
	key = cards_deal_key(g);
	for (int pos = 0; pos < CARDS_DECK; pos++)
		if (g->shown[pos] >= 0)
			publish(key, pos, g->shown[pos]);
}

static int predict(const struct cards_game *g, int pos)
{
	(void)g;
	return key < 0 || !atomic_load(&known[key][pos]) ? CARDS_UNKNOWN :
							   atomic_load(&known[key][pos]) - 1;
}

static void shown(const struct cards_game *g, int pos, int card)
{
	(void)g;
	if (key >= 0)
		publish(key, pos, card);
}

int twin_main(const char *name, void (*send)(int key, int pos, int card), int argc, char **argv)
{
	const struct cards_attack a = { name, NULL, first_request, predict, shown, NULL };

	publish = send;
	return cards_main(&a, argc, argv);
}
