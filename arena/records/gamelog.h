/*
 * gamelog.h - games.jsonl records read for ratings and reports.
 *
 * A gamelog either keeps every record in memory (games[]), or, with a sink
 * set, hands each record to the sink as it is read and keeps none of them, so
 * reading a file of any length takes the same memory (the bot names and the
 * counters below are all that stays).
 *
 * The record shape is the one in results/README.md, read by record.h at
 * RECORD_FULL and through the scan of records.h. Only complete lines (ending
 * in '\n') are read, so a file that a running tournament is appending to can be
 * read at any moment: its torn last line is skipped and counted. A complete line
 * that is not a valid record is skipped and counted too, so one damaged line
 * does not hide a whole tournament; the first one is kept with its line number
 * and why, for the report to show. A record whose "id" came before in the
 * same file is skipped and counted as repeated: whatever wrote it, a game
 * counts once.
 *
 * Valid means read strictly (json_strict.h): no key twice, every integer
 * written as one and in range (placings 1 to players, stock_left 0 to 162,
 * scores 0 to 2^31 - 1, seats 0 to players - 1), every time a finite number
 * from 0 to GAMELOG_TIME_MAX_US, bot names of printable ASCII. So no value in
 * a record, however crafted, reaches a cast or a sum that can overflow, and
 * every figure a report computes from it is finite.
 *
 * Bots are identified by name across every file read into one gamelog, which is
 * how several tournament directories merge into one ranking.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_GAMELOG_H
#define SKIPBO_GAMELOG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idset.h"
#include "protocol.h"
#include "record.h"

#define GAMELOG_SEATS_MAX RECORD_SEATS_MAX
#define GAMELOG_TIME_MAX_US RECORD_TIME_MAX_US
#define GAMELOG_NAME_MAX RECORD_NAME_MAX
#define GAMELOG_WHY_MAX RECORD_WHY_MAX

/* The fault kinds of protocol.h, by the same numbers, and one for a kind this reader does not know. */
#define GAMELOG_FAULT_ENUM_(id, name) GAMELOG_FAULT_##id = PROTOCOL_FAULT_##id,
enum gamelog_fault_kind {
	PROTOCOL_FAULT_KIND_LIST(GAMELOG_FAULT_ENUM_)
	GAMELOG_FAULT_OTHER = PROTOCOL_FAULT_KINDS,
	GAMELOG_FAULT_KINDS
};

/* "timeout", "exit", ... "other", indexed by enum gamelog_fault_kind. */
extern const char *const gamelog_fault_names[GAMELOG_FAULT_KINDS];

/* One seat's move-time summary as the arena recorded it (microseconds). */
struct gamelog_seat_time {
	float moves;
	float mean_us;
	float p99_us;
	float max_us;
	float cpu_mean_us;  /* the bot's CPU time per move; 0 in records without it */
};

/*
 * One record (a game, or a match in match mode). Arrays are indexed by seat.
 * Narrow types keep a million stored records near 200 MB.
 */
struct gamelog_game {
	uint32_t source;   /* which file it came from, in reading order */
	int32_t table, deal, rotation;
	int32_t games;     /* games in the record (1 unless match mode) */
	uint8_t players;
	bool partnership;
	bool match;
	bool has_time;
	uint32_t bot[GAMELOG_SEATS_MAX];   /* index into gamelog.bots */
	int32_t score[GAMELOG_SEATS_MAX];  /* R8 */
	uint8_t team[GAMELOG_SEATS_MAX];   /* team number of each seat */
	uint8_t placing[GAMELOG_SEATS_MAX]; /* R7, 1 is best */
	uint8_t stock_left[GAMELOG_SEATS_MAX];
	int8_t fault[GAMELOG_SEATS_MAX];   /* enum gamelog_fault_kind, or -1 */
	bool winner[GAMELOG_SEATS_MAX];
	struct gamelog_seat_time time[GAMELOG_SEATS_MAX];
};

struct gamelog;

/*
 * Receives each valid record when set (gamelog_set_sink). g and its bot
 * indexes are valid for the call only; log->nbots already counts every bot g
 * names; log->current is the whole record (record.h), for the call only.
 * Returns 0, or a negative errno-style code other than -EBADMSG (which
 * marks an invalid line) that stops the reading and is returned by
 * gamelog_add_line / gamelog_read.
 */
typedef int (*gamelog_sink_fn)(void *ctx, const struct gamelog *log, const struct gamelog_game *g);

struct gamelog {
	char **bots;       /* bot names, in order of first appearance */
	size_t nbots;
	struct gamelog_game *games; /* stored records; none with a sink */
	size_t ngames;
	size_t games_cap;
	size_t records;    /* valid records read, stored or handed to the sink */
	unsigned nsources; /* files read so far */
	size_t torn;       /* incomplete last lines skipped */
	size_t invalid;    /* complete lines that were not valid records */
	size_t repeated;   /* valid records skipped: their id came before in the same file */
	struct idset *ids; /* the ids read so far (idset.h) */
	/* The first of them: its source, 1-based line number, and why (one
	 * sentence naming the field, printable ASCII). */
	unsigned first_invalid_source;
	size_t first_invalid_line;
	char first_invalid[GAMELOG_WHY_MAX];
	char why[GAMELOG_WHY_MAX]; /* why gamelog_add_line last refused a line */
	/* When set, gamelog_read stops with -EINTR at the next line once *stop is
	 * non-zero (a signal handler sets it). */
	const volatile sig_atomic_t *stop;
	gamelog_sink_fn sink;
	void *sink_ctx;
	const struct record *current; /* the record handed to the sink, during the call */
	struct record_reader reader;
};

void gamelog_init(struct gamelog *log);

/*
 * From now on hand each valid record to sink(ctx, log, record) instead of
 * storing it; NULL goes back to storing. Records already stored stay.
 */
void gamelog_set_sink(struct gamelog *log, gamelog_sink_fn sink, void *ctx);

/* Free everything gamelog_init/read/add allocated; the gamelog can be reused after gamelog_init. */
void gamelog_release(struct gamelog *log);

/*
 * Append the records of one games.jsonl file, as source number log->nsources
 * (then incremented). -ENOENT etc. if the file cannot be read, -ENOMEM,
 * -EINTR when stopped (log->stop); err gets a sentence. Records already read
 * stay in log on failure.
 */
int gamelog_read(struct gamelog *log, const char *path, char *err, size_t errsz);

/*
 * Parse one record with the given source and append it (or hand it to the
 * sink). line holds len bytes without the newline.
 * -EBADMSG if it is not a valid record (log unchanged but for log->why, which
 * says why), -ENOMEM, or the sink's error. A repeated id is 0, counted in
 * log->repeated, the record dropped.
 */
int gamelog_add_line(struct gamelog *log, const char *line, size_t len, unsigned source);

/* Index of a bot name, or -1 if it never appeared. */
long gamelog_find_bot(const struct gamelog *log, const char *name);

#endif
