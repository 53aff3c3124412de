/*
 * progress.h - what a running tournament shows: on a terminal one live line
 * (games done/total, rate, ETA, current leader) rewritten in place; when the
 * output is not a terminal a plain line every PROGRESS_PLAIN_SECONDS; nothing
 * with quiet. The leader is by a simple score: each game gives a bot
 * (players - placing) / (players - 1) points (1 for first, 0 for last).
 *
 * Not thread-safe: the tournament calls it under its own lock.
 */
#ifndef SKIPBO_PROGRESS_H
#define SKIPBO_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROGRESS_PLAIN_SECONDS 10

struct progress;

/* names: the bots (borrowed). done: games already finished (a resume). NULL without memory. */
struct progress *progress_new(FILE *out, int quiet, uint64_t total, uint64_t done,
			      const char *const *names, size_t nbots);

/* A game finished: bots[s] is the bot index at seat s, placings[s] its R7 placing.
 * counted_now: 1 if played in this run, 0 if found already recorded (a resume;
 * it counts as done but not towards the rate). A seat with a bot index or a
 * placing out of range (1 to players) scores nothing. */
void progress_game(struct progress *p, const int *bots, const int *placings, int players,
		   int counted_now);

/* Redraw if it is time to. */
void progress_tick(struct progress *p);

/* End the live line, if one is drawn, so that other text starts on a line of its own. */
void progress_break(struct progress *p);

/* The last line, ended with a newline. */
void progress_finish(struct progress *p);

void progress_free(struct progress *p);

#endif
