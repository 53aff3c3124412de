/*
 * botloop.h - the read-request / answer loop every C reference bot runs.
 *
 * The loop reads arena messages (PROTOCOL.md) one line at a time from `in`,
 * answers the arena's hello with the bot's own (asking for compact requests,
 * PROTOCOL.md "Compact requests", unless the environment has SKIPBO_COMPACT=0:
 * the policy sees the same legal list either way), asks the policy for a move on
 * every request and writes it, flushing after every line. Unknown message
 * types and unknown fields are ignored; "quit" or the end of input ends the
 * loop. A line the protocol library cannot parse is logged to stderr and
 * skipped: the arena decides what a missing answer means.
 */
#ifndef SKIPBO_BOTS_BOTLOOP_H
#define SKIPBO_BOTS_BOTLOOP_H

#include <stdio.h>

#include "protocol.h"

struct botloop_policy {
	const char *name;    /* sent in the hello */
	const char *version; /* may be NULL */
	void *ctx;           /* passed to every callback */
	/* A game begins; may be NULL. */
	void (*game_start)(void *ctx, const struct protocol_game_start *gs);
	/* Choose a move: return an index into req->legal (0 <= i < req->n_legal).
	 * An index out of range is replaced by the first legal move. */
	int (*choose)(void *ctx, const struct protocol_request *req);
	/* A game ended; may be NULL. */
	void (*game_end)(void *ctx, const struct protocol_game_end *ge);
};

/*
 * Run until "quit" or the end of input. Returns 0 then, or a negative
 * PROTOCOL_E* code when writing fails (the arena is gone) or memory runs out.
 */
int botloop_run(const struct botloop_policy *p, FILE *in, FILE *out);

#endif
