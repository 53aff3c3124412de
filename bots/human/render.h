/*
 * render.h - the table as text for a person, for the human player.
 *
 * Cards are shown as numbers and "SB" for the SKIP-BO wild, building piles
 * as A-D, discard piles as 1-4 (the protocol's 0-3 plus one: people count
 * from 1), seats by their names from game_start.
 */
#ifndef SKIPBO_BOTS_RENDER_H
#define SKIPBO_BOTS_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "protocol.h"

/* What the human player knows of the game besides the request. */
struct render_game {
	char game[PROTOCOL_ID_MAX];
	int players;
	char names[ENGINE_MAX_PLAYERS][PROTOCOL_NAME_MAX];
};

/* "SB" or the number, into buf (at least 3 bytes). Returns buf. */
const char *render_card(unsigned card, char *buf);

/* One legal move in words, e.g. "play 7 from your hand on pile B (makes 7)". */
void render_move(const struct move *m, const struct seat_view *v, const struct render_game *g,
		 char *buf, size_t size);

/*
 * Everything a person needs to choose: what the others did since the
 * player's last turn (req->events), the building piles, each seat's stock top
 * and size, hand size and discard piles, the player's hand, and the legal
 * moves numbered from 1.
 */
void render_request(FILE *out, const struct protocol_request *req, const struct render_game *g);

/*
 * Read a choice from line (1..n). Returns the 0-based index, or -1 with a
 * sentence for the person in why.
 */
int render_parse_choice(const char *line, int n, char *why, size_t why_size);

#endif
