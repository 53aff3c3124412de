/*
 * render.h - the table turn by turn as text, for watching or debugging a bot
 * (`play --render`, `replay --render`): an observer (referee.h) that prints each decision with
 * its time, faults, and the whole table (building piles, every stock top and
 * discard pile, and the hand of the seat to move) before each turn.
 */
#ifndef SKIPBO_RENDER_H
#define SKIPBO_RENDER_H

#include <stdio.h>

#include "referee.h"

struct render {
	FILE *out;
	const char *names[ENGINE_MAX_PLAYERS];
	uint32_t last_turn;      /* turn whose table was printed last */
	struct referee_observer observer; /* ctx = this render */
};

/* names[s] for each seat (borrowed). */
void render_init(struct render *r, FILE *out, const char *const *names, int players);

/* The legend of the table's piles, one line: numbered 0-3 as in the protocol,
 * each discard pile bottom first, as a request's view lists it. */
void render_legend(FILE *out);

/* Print the table as seen by the seat to move. */
void render_table(struct render *r, const struct game *g);

/* Print one decision line: the seat, its move and its time. */
void render_move(struct render *r, int seat, const struct move *m, int64_t elapsed_us);

#endif
