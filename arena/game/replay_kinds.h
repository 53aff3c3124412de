/*
 * replay_kinds.h - the names a replay document gives its events and their
 * fields, shared by its writer (replay_write.c) and its checker (replay.c);
 * not for other modules.
 */
#ifndef SKIPBO_REPLAY_KINDS_H
#define SKIPBO_REPLAY_KINDS_H

#include <stdbool.h>

#include "engine.h"

/* Which struct event fields each kind carries in a replay (and is compared on). */
enum {
	F_TURN = 1, F_SOURCE = 2, F_OWNER = 4, F_PILE = 8, F_CARD = 16, F_TARGET = 32,
	F_VALUE = 64, F_COUNT = 128,
};

struct replay_kind {
	const char *name;
	unsigned fields;
};

/* By enum event kind, EVENT_END the last; names NULL where no event has that number. */
#define REPLAY_KINDS (EVENT_END + 1)
extern const struct replay_kind replay_kinds[REPLAY_KINDS];
extern const char *const replay_source_names[4]; /* "", "hand", "stock", "discard" */
extern const char *const replay_refill_names[3]; /* "", "completed", "building" */

/* A seat's decision: a play, a discard or a pass. */
static inline bool replay_is_decision(int kind)
{
	return kind == EVENT_PLAY || kind == EVENT_DISCARD || kind == EVENT_PASS;
}

#endif
