/*
 * freeze.h - whether submissions are frozen (arena/HOSTING.md "The
 * organiser"): DIR/freeze.jsonl, one event a line, appended through the
 * journal, the latest line deciding. Without a line, host.jsonc's "frozen"
 * decides; an organiser's POST /api/freeze or /api/unfreeze appends one,
 * so a restart keeps what they chose.
 *
 *   {"event":"freeze","by":"org","time":"2026-12-07T13:00:00Z"}
 *   {"event":"unfreeze","by":"org","time":"2026-12-07T14:00:00Z"}
 *
 * The reader is strict: a line that is not such an event is an error that
 * names the file and the line. A torn last line (a crash) is skipped.
 */
#ifndef SKIPBO_FREEZE_H
#define SKIPBO_FREEZE_H

#include <stdbool.h>
#include <stddef.h>

#define FREEZE_FILE "freeze.jsonl"

/*
 * Whether submissions to dir are frozen into *frozen: the latest event, or
 * start (host.jsonc's "frozen") when there is none. 0, or -EBADMSG (err:
 * the file, the line, what to do), or another negative errno for I/O.
 */
int freeze_read(const char *dir, bool start, bool *frozen, char *err, size_t err_size);

/*
 * Append a freeze (frozen true) or an unfreeze by the organiser by, fsync'd:
 * durable on return. 0, or a negative errno with err (-ENOSPC: nothing
 * was written).
 */
int freeze_write(const char *dir, bool frozen, const char *by, char *err, size_t err_size);

#endif
