/*
 * league_history.h - a league's ratings over time: the file DIR/history.jsonl,
 * its writer and its strict reader, and the summary the league section of
 * the report is drawn from (league_history_report.h).
 *
 * history.jsonl: one JSON object a line, one line per refit the league puts
 * on record, in the order they were made:
 *   {"time":1764170000,"games":123456,
 *    "entries":[{"name":"alice","elo":12.5,"ci95":8.25,"games":5120},
 *               {"name":"bob@2","elo":null,"ci95":null,"games":0}]}
 * time: seconds since the Unix epoch (UTC) when the fit was published;
 * games: games in the fit; entries: every entry of the league then, by name,
 * with its Elo and the half-width of its 95% interval (null before its first
 * game; ci95 0 for an anchor) and its games. Every field is required; no
 * other field is allowed; a name is 1..LEAGUE_HISTORY_NAME_MAX bytes and
 * appears once a line.
 *
 * Appends are single write(2) calls with O_APPEND, by one writer (the
 * league). A last line without its newline is one torn by a kill during the
 * write: the reader skips it when it does not parse, and the next append
 * cuts it off first.
 *
 * Memory: the reader streams the file; the summary keeps at most
 * 2 * LEAGUE_HISTORY_POINTS + 2 points per entry (every k-th line, k
 * doubling as the file grows, and always its first and its last), so a report of a league that ran
 * for months is as small as one of a day.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_LEAGUE_HISTORY_H
#define SKIPBO_LEAGUE_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#define LEAGUE_HISTORY_FILE "history.jsonl"
#define LEAGUE_HISTORY_NAME_MAX 128
#define LEAGUE_HISTORY_POINTS 64
#define LEAGUE_HISTORY_LINE_MAX (1u << 24) /* bytes of one line */

struct league_history_entry {
	const char *name;
	double elo, ci95; /* NAN before the entry's first game */
	uint64_t games;
};

/* One line of history.jsonl. */
struct league_history_line {
	int64_t time;
	uint64_t games;
	size_t n;
	const struct league_history_entry *entries;
};

/* Append line to the file at path (created 0644 when missing). 0 or -errno; -EINVAL for a
 * line the reader would refuse (a bad name, a name twice, a non-finite number). */
int league_history_append(const char *path, const struct league_history_line *line);

/* Why a read failed: "PATH:LINE:COLUMN: sentence" (column 1 unless the JSON was refused). */
#define LEAGUE_HISTORY_WHY_MAX 512

/*
 * Call fn(ctx, line) for every line of the file at path, in order; the line and its names
 * are valid during the call only. fn's non-zero return stops the read and is returned.
 * -ENOENT (no file: no history yet), -EBADMSG with why for a line refused, -ENOMEM, -errno.
 */
int league_history_read(const char *path,
			int (*fn)(void *ctx, const struct league_history_line *line), void *ctx,
			char *why, size_t whysize);

/* A point of an entry's series. */
struct league_history_point {
	int64_t time;
	uint64_t games;    /* the league's games at that line */
	double elo, ci95;  /* NAN when unrated */
	uint64_t entry_games;
	uint64_t line;     /* its line number, from 0 */
};

struct league_history_series {
	char *name;
	struct league_history_point *points;
	size_t npoints, cap;
	struct league_history_point last; /* the entry in the last line that held it */
	int seen_last;                    /* the entry is in the file's last line */
};

struct league_history_summary {
	struct league_history_series *series; /* in order of first appearance */
	size_t nseries, cap;
	uint64_t lines, stride;               /* lines read; every stride-th is kept */
	int64_t first_time, last_time;
	uint64_t last_games;
};

/* The summary of the file at path (league_history_read's errors). A missing file gives an
 * empty summary and -ENOENT. Release it with league_history_summary_release. */
int league_history_summarise(const char *path, struct league_history_summary *out, char *why,
			     size_t whysize);
void league_history_summary_release(struct league_history_summary *s);

/* The series of name, or NULL. */
const struct league_history_series *
league_history_find(const struct league_history_summary *s, const char *name);

#endif
