/*
 * render.h - the table as text for a person, and the person's commands, for
 * the human player.
 *
 * Everything fits 80 columns: the board (4 + players lines of table and a
 * line per other player's turn, wrapped rather than cut when it is longer)
 * stays above a compact prompt. Cards are numbers and "SB" for the SKIP-BO
 * wild; building and discard piles are numbered 0-3 as in the protocol, so
 * that what the player types, the arena's tools, the viewer and a bot's log
 * agree; discard piles list bottom to top, the top card last, as a request's
 * view does; seats go by their names from game_start.
 */
#ifndef SKIPBO_BOTS_RENDER_H
#define SKIPBO_BOTS_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "protocol.h"

/* What the human player knows of the game besides the request. */
struct render_game {
	char game[PROTOCOL_ID_MAX];
	int players, seat;
	char names[ENGINE_MAX_PLAYERS][PROTOCOL_NAME_MAX];
	/* Every seat's stock size at the player's last request, to tell what
	 * happened on the turns no request reports (the winning one). */
	int stock_seen[ENGINE_MAX_PLAYERS];
};

/* "SB" or the number, into buf (at least 3 bytes). Returns buf. */
const char *render_card(unsigned card, char *buf);

/* One move as the command that makes it, e.g. "h 7 1", "s 2", "d 9 3". */
void render_command(const struct move *m, const struct seat_view *v, char *buf, size_t size);

/*
 * The board, after clearing the screen: each other seat's turns since the
 * player's last request, one short line each; the building piles; every
 * seat's stock, hand size and discard tops; the player's hand.
 */
void render_request(FILE *out, const struct protocol_request *req, struct render_game *g);

/* The legal moves, numbered from 1, as commands in columns. */
void render_list(FILE *out, const struct protocol_request *req);

/* The commands, in at most 9 lines. */
void render_help(FILE *out, const struct seat_view *v);

/* The end of a game: the others' last turns as far as they can be told
 * (stocks emptied), the winners, and each seat's placing, stock and score. */
void render_game_end(FILE *out, const struct protocol_game_end *ge, const struct render_game *g);

/*
 * Read a move command (or a number from the list) from line. Returns the
 * index in req->legal, or -1 with a sentence for the person in why: what
 * was not understood or why that move is not allowed now.
 */
int render_parse_command(const char *line, const struct protocol_request *req, char *why, size_t why_size);

#endif
