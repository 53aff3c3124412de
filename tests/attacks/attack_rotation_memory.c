/*
 * attack_rotation_memory.c - remembers every card a game showed, by its deck
 * position, and predicts the hidden cards of the next game from it
 * (attack_cards.h): the next rotation of a duplicate deal has the same deck,
 * so a process that played rotation r0 knows the stocks and many draws of
 * r1.
 *
 * usage: attack_rotation_memory TOKEN [memory-only]
 *
 * It keeps the memory in the process and, unless memory-only, in
 * /tmp/skipbo-attack-memory-TOKEN, read at a game's start when the process
 * has none: a fresh process per game forgets the first, a private /tmp per
 * sandbox the second.
 */
#include <stdio.h>
#include <string.h>

#include "attack_cards.h"

static int memory[CARDS_DECK];
static int remembered; /* memory holds a game */
static char path[512];

static void game_start(const struct cards_game *g, int argc, char **argv)
{
	FILE *f;

	(void)g;
	if (argc > 2 && strcmp(argv[2], "memory-only") == 0)
		return;
	snprintf(path, sizeof(path), "/tmp/skipbo-attack-memory-%s", argc > 1 ? argv[1] : "");
	if (remembered || !(f = fopen(path, "r")))
		return;
	for (int p = 0; p < CARDS_DECK; p++)
		if (fscanf(f, "%d", &memory[p]) != 1)
			memory[p] = CARDS_UNKNOWN;
	remembered = 1;
	fclose(f);
}

static int predict(const struct cards_game *g, int pos)
{
	(void)g;
	return remembered ? memory[pos] : CARDS_UNKNOWN;
}

static void game_end(const struct cards_game *g)
{
	FILE *f;

	memcpy(memory, g->shown, sizeof(memory));
	remembered = 1;
	if (!path[0] || !(f = fopen(path, "w")))
		return;
	for (int p = 0; p < CARDS_DECK; p++)
		fprintf(f, "%d\n", memory[p]);
	fclose(f);
}

int main(int argc, char **argv)
{
	static const struct cards_attack a = { "rotation-memory", game_start, NULL, predict,
		NULL, game_end };

	return cards_main(&a, argc, argv);
}
