/*
 * serve_records.h - the records of one tournament (a directory, or the shard
 * directories of one tournament) read incrementally, for `serve`.
 *
 * This file is the serve room's only reader of tournament.json and
 * games.jsonl: it goes through the ratings room's streaming reader
 * (gamelog.h: each complete line parsed strictly, torn and damaged lines
 * skipped and counted, an id repeated in one file counted once) and its
 * incremental fold (report.h, report_fold_*), and through the tournament
 * room's tournament.json reader (results.h) and schedule.
 *
 * Each update reads only the bytes appended since the last one: every
 * directory keeps the offset just past its last complete line, so a torn
 * last line is read again, whole, by a later update. A games.jsonl that was
 * replaced (another inode, as `run --fresh` makes) or shortened below that
 * offset is read again from the start into fresh sums, and the generation
 * number goes up: game numbers of an older generation mean nothing.
 *
 * For each valid record a small index entry stays (where its line is, its
 * bots, faults and winners: 48 bytes), enough to filter and page the game
 * list and to find one record again without keeping the records.
 *
 * Files are opened with O_NOFOLLOW: a games.jsonl that is a symbolic link is
 * not read. Not thread-safe: one caller at a time (the catalog's entry lock).
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_SERVE_RECORDS_H
#define SKIPBO_SERVE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gamelog.h"
#include "report.h"
#include "results.h"
#include "tournament_file.h"
#include "sprt_fold.h"

#define SERVE_SEATS_MAX GAMELOG_SEATS_MAX

/* What tournament.json says of one directory. */
struct serve_dir_info {
	char *name;         /* the tournament's "name" ("" when it has none) */
	char *same;         /* what the shards of one tournament share (results.h) */
	uint64_t scheduled; /* games this directory must hold: its shard's, or all */
	uint32_t shard, nshards; /* nshards 0: a whole tournament */
	int players, duplicate;
	uint32_t deals;
	size_t nbots;
	struct records_sprt sprt; /* an SPRT's test (sprt.on), from `skipbo-arena sprt` */
	int league;         /* a league's directory (arena/LEAGUE.md): no end; scheduled is 0 */
};

/* Read dir/tournament.json (a regular file, not a link). 0, or a negative errno with err. */
int serve_dir_info_read(const char *dir, struct serve_dir_info *info, char *err, size_t err_size);
void serve_dir_info_release(struct serve_dir_info *info);

/* One valid record of the index. */
struct serve_game {
	uint64_t offset;    /* where its line starts in its directory's games.jsonl */
	uint32_t length;    /* the line's bytes without the newline */
	uint32_t dir;       /* which directory of the set */
	uint32_t bot[SERVE_SEATS_MAX]; /* bot index by seat (gamelog order) */
	uint8_t players;
	uint8_t faults;     /* bit k: a fault of kind k (enum gamelog_fault_kind) */
	uint8_t winners;    /* bit s: seat s won */
};

/* One directory's reading state. */
struct serve_dir {
	char *path;
	char *real;         /* its real path: a replay must lie under it */
	int fd;             /* games.jsonl as last read, or -1 */
	dev_t dev;
	ino_t ino;
	uint64_t offset;    /* just past the last complete line read */
	uint64_t size;      /* the file's size at the last update */
	int64_t mtime;      /* its modification time (s), 0 before there is one */
	uint64_t records;   /* valid records, each id counted once */
	uint64_t invalid;   /* complete lines that were no valid record */
	bool skipping;      /* inside a line longer than SERVE_LINE_MAX: skipped to its end */
};

/* A line longer than this is counted invalid and skipped. */
#define SERVE_LINE_MAX (16u << 20)

struct serve_records {
	struct gamelog log;         /* bot names, counters; no records stored */
	struct report_fold *fold;   /* the sums behind the ranking */
	struct records_sprt sprt_params; /* set by serve_records_set_sprt */
	struct sprt_fold *sprt;     /* the SPRT's test, NULL unless an SPRT */
	struct serve_game *games;   /* the index, in reading order */
	size_t ngames, games_cap;
	struct serve_dir *dirs;
	size_t ndirs;
	uint64_t generation;        /* goes up at every re-read from the start */
	/* the line being folded (for the sink) */
	uint64_t at_offset;
	uint32_t at_length, at_dir;
};

/* Empty, with no directory. */
void serve_records_init(struct serve_records *s);
void serve_records_release(struct serve_records *s);

/* Add directory path to the set (read at the next update). 0 or -ENOMEM. */
int serve_records_add_dir(struct serve_records *s, const char *path);

/*
 * The directory is an SPRT (serve_dir_info.sprt): fold its records into the
 * test too (sprt_fold.h: bot A is the tournament's first bot, pairs in deal
 * order, nothing counted after a decision), from the start. 0, -EINVAL
 * (bounds sprt_init refuses), or -ENOMEM.
 */
int serve_records_set_sprt(struct serve_records *s, const struct records_sprt *sprt);

/*
 * Read what every directory's games.jsonl gained. Returns the number of new
 * index entries (> 0 also after a re-read from the start), 0 when nothing
 * changed, or a negative errno with err (-ENOMEM; a directory whose
 * games.jsonl cannot be read is not an error, it has no records yet).
 */
long serve_records_update(struct serve_records *s, char *err, size_t err_size);

/* The report of the records read so far (report_fold_build with opt: NULL for the
 * defaults, a league's anchors fixed otherwise); -ENODATA before any. */
int serve_records_report(const struct serve_records *s, const struct report_options *opt,
			 struct report *r, char *err, size_t err_size);

/*
 * The line of index entry n, NUL-terminated, owned by the caller, its length
 * in *len (read from the file the index was made of, which a later update
 * may close: call it under the same lock as updates). NULL with errno set:
 * ENOENT (no entry n), ESTALE (the line is not there any more), or why it
 * could not be read.
 */
char *serve_records_line(const struct serve_records *s, size_t n, size_t *len);

/*
 * The replay document of index entry n (replay_find.h), NUL-terminated, owned
 * by the caller, its length in *len. The file is read only when its real
 * path lies inside its tournament directory. NULL with a sentence in err and
 * *code: -ENOENT (no entry, no replay), -EACCES (outside), else why.
 */
char *serve_records_replay(const struct serve_records *s, size_t n, size_t *len, int *code,
			   char *err, size_t err_size);

#endif
