/*
 * echo.h - the bots' stderr shown live to the person running the arena
 * (play, check, sprt): each line as "[NAME seat N] text" ("[NAME] text"
 * while the bot is outside a game: starting, stopping), the text escaped
 * (termsafe.h) so a bot cannot drive the terminal.
 *
 * A bot that floods stderr must not hold up its game on a slow terminal:
 * at most ECHO_GAME_CAP bytes of each bot's lines are shown per game; the
 * rest is counted and, at the game's end, one line says how much was left
 * out. Before each line, stdout is flushed, so the bots' lines fall in
 * place among the arena's own output when both go to one file.
 *
 * Use: echo_init(), then hand &echo.observer to the pool and the referee
 * (or call echo.observer's callbacks from another observer). One thread.
 */
#ifndef SKIPBO_ECHO_H
#define SKIPBO_ECHO_H

#include <stddef.h>
#include <stdio.h>

#include "referee.h"

#define ECHO_GAME_CAP (64 * 1024)

struct echo_bot {
	const char *name;      /* compared by pointer: the names the pool and referee report */
	size_t shown, left_out;
};

struct echo {
	FILE *out;
	struct echo_bot bots[2 * ENGINE_MAX_PLAYERS];
	int nbots;
	struct referee_observer observer; /* ctx = this echo; stderr_line and game_end */
};

/* Show lines on out (the arena's stderr, normally). */
void echo_init(struct echo *e, FILE *out);

#endif
