/*
 * merge.h - the output directories of the shards of one tournament (run
 * --shard K/N, arena/CLUSTER.md) made into one new directory, as if the
 * tournament had been run on one machine.
 *
 * The directories must hold the same tournament (records_read_tournament():
 * tournament.json alike apart from paths, output and shard). Every record is
 * found by its id; a game recorded twice must agree in every field but the
 * timings, or nothing is written. OUT gets the records in schedule order,
 * byte for byte, with the replay file each names (a pack, hard-linked once,
 * or an older run's file of the game's own) and its I/O transcript when
 * there is one, the bots' stderr logs of every directory one after the
 * other, and tournament.json without the shard: `run` with the same
 * tournament file and -o OUT finds every game played, and `report OUT`
 * ranks the bots.
 *
 * Functions return 0 or a negative errno-style code with a sentence in err,
 * and never exit or print.
 */
#ifndef SKIPBO_MERGE_H
#define SKIPBO_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct merge;

/*
 * Read every directory's tournament.json and games.jsonl (dirs must outlive
 * the merge). -EINVAL when they are not shards of one tournament, -EEXIST
 * when a game is recorded differently in two of them, or the reading's
 * error.
 */
int merge_open(const char *const *dirs, size_t ndirs, struct merge **out, char *err,
	       size_t err_size);

/* The games of the tournament's schedule. */
uint64_t merge_count(const struct merge *m);
/* Records whose id is not a game of the schedule, or of another table size: left out. */
uint64_t merge_foreign(const struct merge *m);
/* Games recorded in more than one directory, alike. */
uint64_t merge_duplicates(const struct merge *m);

/*
 * Call fn(ctx, id, shard, nshards) for each game no directory holds, in
 * schedule order (shard 1-based, both 0 for a tournament not in shards).
 * Returns how many.
 */
uint64_t merge_missing(const struct merge *m, void (*fn)(void *ctx, const char *id, int shard,
							   uint32_t nshards), void *ctx);

/*
 * Write the new directory out (it must not exist: -EEXIST). It is written
 * as "<out>.merging" (the files first, games.jsonl last), made durable and
 * renamed to out, so out appears whole or not at all, after a crash or a
 * full disk too; a "<out>.merging" left by a merge that stopped is removed
 * and written again. *written is the number of records.
 */
int merge_write(struct merge *m, const char *out, uint64_t *written, char *err, size_t err_size);

/* NULL is fine. */
void merge_free(struct merge *m);

#endif
