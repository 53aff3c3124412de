/*
 * records.h - a tournament directory's games.jsonl read line by line: the
 * one scan every reader of the file uses (the resume, status, merge, the
 * replay finder, the ratings through gamelog.h).
 *
 * Only complete lines (ending in '\n') are read, so a file a running
 * tournament is appending to can be read at any moment: its torn last line
 * is left alone and counted. The file is read in large blocks, not a line
 * at a time.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_RECORDS_H
#define SKIPBO_RECORDS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* One complete line of a file: len bytes without its newline (text[len] is '\n'). */
struct records_line {
	const char *text;
	size_t len;
	uint64_t offset;  /* where it starts in the file */
	size_t lineno;    /* 1-based */
};

/* What records_read_lines() counts. */
struct records_counts {
	size_t lines;     /* complete lines handed over */
	size_t torn;      /* an incomplete last line: 0 or 1 */
};

/*
 * Call fn(ctx, line) for every complete line of the file at path, in order
 * (empty ones too). fn returns 0 to go on or a negative code that ends the
 * reading and is returned. When stop is given, reading ends with -EINTR at
 * the next line once *stop is non-zero. -ENOENT etc. when the file cannot be
 * read, -ENOMEM; counts (may be NULL) says how far it got.
 */
int records_read_lines(const char *path, int (*fn)(void *ctx, const struct records_line *line),
		       void *ctx, const volatile sig_atomic_t *stop,
		       struct records_counts *counts);

/* What a resume, a merge and status read of one record, checked (RECORD_KEYS). */
struct results_record {
	const char *id;
	int players;                         /* 2 to RECORD_SEATS_MAX */
	int placings[RECORD_SEATS_MAX];      /* each 1 to players */
	const struct record *record;         /* all of it that was read (record.h) */
	struct record_reader *reader;        /* for record_tree() of line */
	const char *line;                    /* the line, length - 1 bytes without its newline */
	uint64_t offset;                     /* where its line starts in games.jsonl */
	size_t length;                       /* the line's bytes with its newline */
};

/*
 * Call fn for every complete record of dir/games.jsonl in order (rec and
 * what it points to are valid during the call). Each line is read strictly
 * at RECORD_KEYS (record.h): a line that is not a record is an error,
 * -EBADMSG with the line number and the field in err, so a damaged record is
 * never taken for a played game. fn returns 0 to go on, or a negative code
 * that ends the scan and is returned (err names the line). A torn last line
 * is left as it is.
 */
int records_scan_dir(const char *dir, int (*fn)(void *ctx, const struct results_record *rec),
		     void *ctx, char *err, size_t err_size);

#endif
