/*
 * durable.h - files that survive a power cut once written: the replays and
 * tournament.json, which a games.jsonl record refers to, so they must be on
 * the disk before the record is (results/README.md, "Crash safety").
 *
 * durable_write() writes the whole text to "<path>.tmp", fsync()s it, renames
 * it over path and fsync()s the directory, so after it returns the file is
 * on the disk under its name with all of its text; a crash before leaves the
 * old file (or none) and possibly a "<path>.tmp", never a part of the text
 * under path. durable_sync_dir() makes a directory's entries (files created
 * or renamed in it) durable.
 *
 * Both return 0 or a negative errno. A file system that cannot fsync a
 * directory (EINVAL) counts as done.
 */
#ifndef SKIPBO_DURABLE_H
#define SKIPBO_DURABLE_H

#include <stddef.h>

int durable_write(const char *path, const char *text, size_t len);

/*
 * Write the whole text to path (replaced if it exists) without any fsync: for
 * files made durable in groups later with durable_sync_file() and
 * durable_sync_parent(). A crash before then may leave any part of the text
 * under path, so nothing may refer to the file until it was synced.
 */
int durable_write_unsynced(const char *path, const char *text, size_t len);

/* fsync the file at path (its data and size). */
int durable_sync_file(const char *path);

/* fsync the directory dir. */
int durable_sync_dir(const char *dir);

/* fsync the directory holding path ("." when path has no '/'). */
int durable_sync_parent(const char *path);

#endif
