/*
 * transcript.h - the I/O transcript of games (--log-io): every line between
 * the arena and a bot, one per line, as
 *   <seconds since the transcript opened, 6 decimals> <bot> <- <line>   (arena to bot)
 *   <seconds since the transcript opened, 6 decimals> <bot> -> <line>   (bot to arena)
 * plus "# ..." lines for faults. Bot text is escaped as in termsafe.h (a
 * transcript is read on a terminal; a correct bot's lines are unchanged). A
 * transcript is one file; the observer it fills in writes nothing while no
 * file is open.
 */
#ifndef SKIPBO_TRANSCRIPT_H
#define SKIPBO_TRANSCRIPT_H

#include <stdio.h>

#include "referee.h"

struct transcript {
	FILE *f;           /* NULL: not logging */
	int64_t t0_us;
	int own;           /* f is closed by transcript_close */
	struct referee_observer observer; /* ctx = this transcript */
};

/* An observer with nothing open yet. */
void transcript_init(struct transcript *t);

/* Start writing to path (replaced). 0 or a negative errno. */
int transcript_open(struct transcript *t, const char *path);

/* Write to an already open stream (not closed by transcript_close). */
void transcript_attach(struct transcript *t, FILE *f);

void transcript_close(struct transcript *t);

#endif
