/*
 * result_json.h - the result of a game or match as JSON keys: the one writer
 * of the fragment that a games.jsonl record (records/record.c) and a replay
 * (game/replay_write.c, per game and for the whole) both carry.
 *
 * The keys, in this order: winners, reason, placings, stock_left, scores,
 * turns, moves (results/README.md). Readers look keys up by name, so a replay
 * written with "reason" first still reads.
 */
#ifndef SKIPBO_RESULT_JSON_H
#define SKIPBO_RESULT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "jsonw.h"

/* A view of a result; nothing is owned. */
struct result_json {
	const int *winners;      /* seats of the winning side */
	size_t nwinners;
	const char *reason;      /* end_reason_name(), "none", or a record's own word */
	int players;             /* entries in each of the three arrays below */
	const int *placings;     /* R7 */
	const int *stock_left;
	const int *scores;       /* R8 */
	int64_t turns, moves;
};

/*
 * Append "winners":[...],"reason":"...",...,"moves":N to w: the keys only,
 * without braces or a leading comma, so the caller writes them into its own
 * object. A NULL reason is written as null. Errors stay in w (jsonw_error()).
 */
void result_json_write(struct jsonw *w, const struct result_json *r);

#endif
