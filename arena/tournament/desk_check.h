/*
 * desk_check.h - the games a worker sends back, read and checked against the
 * games leased (arena/WORKERS.md, "results"): the body's records and the
 * frame of their replays, each record read strictly and compared with its game (id, seed, table, deal,
 * rotation, seats), and, when asked, its replay re-checked by the referee
 * (replay_walk) and compared with the record (seed and rules, placings,
 * faults). Pure: no lock, no file, nothing of the desk's.
 */
#ifndef SKIPBO_DESK_CHECK_H
#define SKIPBO_DESK_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "committer.h"
#include "config.h"
#include "schedule.h"

/* The most games one results call may carry. */
#define DESK_SENT_MAX 4096
#define DESK_WHY_MAX 256

/* The most bytes a results call's replays may take decompressed. */
#define DESK_REPLAYS_MAX ((size_t)256 << 20)

/* One game sent back. record points into the body, replay (its line, no
 * newline) into the decompressed frame. */
struct desk_sent {
	char id[SCHEDULE_ID_MAX];   /* the replay's "id" (its head), "" when it has none */
	const char *record, *replay;
	size_t record_len, replay_len;
};

/* A results call's body read. */
struct desk_body {
	bool done;
	struct desk_sent *sent;     /* n of them, in the body's order */
	int n;
	const char *frame;          /* the replays' frame as sent (into the body) */
	size_t frame_len;
	char *docs;                 /* the frame decompressed: a replay a line, n lines */
	size_t docs_len;
};

/*
 * The body of a results call: its first line {"done": B, "games": N,
 * "replays": BYTES}, then N record lines, then BYTES bytes: one zstd frame
 * (replay_pack_frame()) of the N replays, one a line, in the records' order.
 * 0 with *b (desk_body_release() frees it); -EINVAL with err saying what is
 * wrong and where; -ENOMEM.
 */
int desk_check_body(const char *body, size_t len, struct desk_body *b, char *err,
		    size_t err_size);
void desk_body_release(struct desk_body *b);

/* The id of s's record, to name a game refused: 0; -EBADMSG when the record
 * has none; -ENAMETOOLONG; -ENOMEM. */
int desk_record_id(const struct desk_sent *s, char *id, size_t size);

/*
 * Game s (found by its replay's id) checked against g of cfg; with replay,
 * its replay re-played too. 0 with the game as the run counts it in *cg;
 * 1 with why the game is refused; -ENOMEM.
 */
int desk_check_game(const struct config *cfg, const struct schedule_game *g,
		    const struct desk_sent *s, bool replay, struct committed_game *cg, char *why,
		    size_t why_size);

/*
 * Whether two replay documents of one game are the same play: the same
 * decisions by the same seats, the same seats removed for the same fault
 * kinds, the same placings; the timings are not compared. 1 the same,
 * 0 not; -EBADMSG with why when one fails the referee's re-check (which
 * document is said: a, then b); -ENOMEM.
 */
int desk_check_same_play(const char *a, size_t alen, const char *b, size_t blen, char *why,
			 size_t why_size);

#endif
