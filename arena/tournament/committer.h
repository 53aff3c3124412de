/*
 * committer.h - a worker's finished games made durable in groups while the
 * worker plays on (TOURNAMENT.md, "Replays"): the games' replays appended to
 * the worker's pack (replay_pack.h) and fsync'ed, then their records
 * appended to games.jsonl in one write and fsync'ed, and only then the games
 * counted (the ops' counted callback, from the committer's thread). A game
 * is never counted, nor its record written, before its replay is durable.
 *
 * A group is handed to the committer's thread when it holds COMMIT_GROUP_MAX
 * games, when a game ends COMMIT_GROUP_MS or more after the previous hand-over
 * (so the first game after a pause, and every game that long, goes at once;
 * not when the ops say the caller flushes each batch),
 * and by committer_flush() and committer_finish(). While one group is being made durable the next
 * one fills; the worker waits only when the next is due before the previous
 * is done, so the fsyncs' waits overlap the games.
 *
 * After a failure (reported once through the ops' failed callback) nothing
 * more is written or counted: a resume plays those games. Functions return 0
 * or a negative errno.
 */
#ifndef SKIPBO_COMMITTER_H
#define SKIPBO_COMMITTER_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "replay_pack.h"
#include "results.h"
#include "schedule.h"

#define COMMIT_GROUP_MAX 256
#define COMMIT_GROUP_MS 100

/* A finished game as the counting sees it. */
struct committed_game {
	struct schedule_game game;    /* its index, id, seed and bots by seat */
	int faults;
	unsigned start_faulted;       /* a bit per seat whose bot never started (R11 "start") */
	int placings[ENGINE_MAX_PLAYERS];
	int players;
};

struct committer_ops {
	/* games made durable, in the order they were added; called with nothing else running */
	void (*counted)(void *ctx, const struct committed_game *games, int n);
	/* what failed (a file name) and why; the first failure only */
	void (*failed)(void *ctx, int code, const char *what, const char *detail);
	void *ctx;
	/* the caller flushes each batch it adds (a lease desk's results): a group is
	 * handed over when full or flushed, never for the time since the last one */
	bool flushed;
};

struct committer;

/* A committer writing to res and to packs under dir (both outlive it), with its thread. */
int committer_start(struct results *res, const char *dir, const struct committer_ops *ops,
		    struct committer **out);

/*
 * Add a game's replay document (one line, with its newline) to the group
 * filling; *at says where it will be, for the game's record. May wait for the
 * committer when the worker's pack is full and a new one is opened.
 */
int committer_add_replay(struct committer *c, const char *doc, size_t len,
			 struct replay_location *at);

/*
 * The same for a frame of documents made by replay_pack_frame(), appended as
 * it is (replay_pack_add_frame()): *at is where its first document will be.
 */
int committer_add_frame(struct committer *c, const char *frame, size_t len,
			struct replay_location *at);

/* Add the game, with its record (one line, no newline), handing the group over when due. */
int committer_add_game(struct committer *c, const struct committed_game *g, const char *record,
		       size_t len);

/*
 * Hand over the group filling (and its replays), and wait until every game
 * added so far is durable and counted: for a caller that must say a game is
 * kept. 0, or the first failure's negative errno (those games are not kept).
 */
int committer_flush(struct committer *c);

/* Hand over what is left, wait until it is durable and counted, stop the thread, free. */
void committer_finish(struct committer *c);

#endif
