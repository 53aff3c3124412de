/*
 * journal.h - an append-only file of JSON lines that survives a crash, a
 * power cut and a full disk: the one way the arena appends to such a file
 * (games.jsonl, a league's entries.jsonl and history.jsonl).
 *
 * - A line goes in one write loop with its newline, then fsync when asked:
 *   acknowledged means on the disk.
 * - A torn last line (a crash or a full disk in the middle of a write left
 *   it without its newline) is cut off before the next line goes in, so no
 *   line is ever glued onto a half one; readers skip such a tail
 *   (records_read_lines). What a crash can leave is then the lines
 *   acknowledged and at most one unacknowledged line, whole or cut off.
 * - A write the disk cannot take whole (ENOSPC, EDQUOT, EIO) is undone: the
 *   file is cut back to where the line began, so nothing already written is
 *   lost or followed by half a line; the error comes back to the caller,
 *   who names the file.
 * - Appenders in several processes at once (a running league and `league
 *   add`) take the file's lock (flock) around each line, so lines never
 *   interleave and none is cut as torn while another process writes it.
 *   Readers take no lock.
 * - A file journal_open() creates has its directory entry made durable too.
 *
 * Functions return 0 or a negative errno-style code.
 */
#ifndef SKIPBO_JOURNAL_H
#define SKIPBO_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct journal;

/* Open path for appending (created 0644 when missing); its torn tail cut. */
int journal_open(const char *path, struct journal **out);

/* journal_open, a missing file created with mode (0600 for a file of secrets); an existing
 * file keeps its own. */
int journal_open_mode(const char *path, mode_t mode, struct journal **out);

/* Append line (len bytes, no newline: it is added), fsync'd when sync is set. Not for two
 * threads at once on one journal (the caller's lock). */
int journal_append(struct journal *j, const char *line, size_t len, bool sync);

/* Close; NULL is fine. */
void journal_close(struct journal *j);

/* journal_open, one fsync'd journal_append, journal_close: for files written now and then. */
int journal_append_once(const char *path, const char *line, size_t len);

/* journal_append_once to a file created with mode when missing (journal_open_mode). */
int journal_append_once_mode(const char *path, mode_t mode, const char *line, size_t len);

/*
 * A small file rewritten whole (tournament.json): text written to
 * "<path>.tmp", fsync'd, renamed over path, the directory fsync'd. A crash
 * or an error at any point leaves the old file or the new one under path,
 * never a part of either; the temporary file is removed on error.
 */
int journal_replace(const char *path, const char *text, size_t len);

#endif
