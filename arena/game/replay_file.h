/*
 * replay_file.h - replay files on the disk: a tournament's replays written
 * zstd-compressed (replays/<id>.json.zst) with the memory kept from game to
 * game, and any replay file read back as its JSON text, compressed or not
 * (TOURNAMENT.md, "Replays").
 */
#ifndef SKIPBO_REPLAY_FILE_H
#define SKIPBO_REPLAY_FILE_H

#include <stddef.h>

#include "replay.h"

/* A tournament worker's replay writing: the memory is kept from game to game. */
struct replay_writer {
	struct jsonw text;   /* the document */
	char *packed;        /* its zstd frame, packed_cap bytes of room */
	size_t packed_cap;
	void *zstd;          /* the compression context (ZSTD_CCtx), made on first use */
};

void replay_writer_init(struct replay_writer *rw);
void replay_writer_release(struct replay_writer *rw);

/*
 * Format the replay and write it to path: zstd-compressed when path ends in
 * ".zst", plain JSON otherwise; without fsync (durable_write_unsynced(): the
 * caller syncs it before anything refers to it). 0, -ENOMEM, -EIO when zstd
 * fails, or a negative errno of the write.
 */
int replay_write_file(struct replay_writer *rw, const char *path, const struct replay_info *info);

/* Largest replay file read (a long match's replay is a few MB). */
#define REPLAY_FILE_MAX (256 * 1024 * 1024)

/*
 * The whole file at path, NUL-terminated, owned by the caller; *len its
 * length. A zstd-compressed file (known by the zstd magic number, whatever
 * its name) comes back decompressed. NULL with errno set when it cannot be
 * read, passes REPLAY_FILE_MAX (EFBIG) once decompressed, or is a damaged
 * zstd frame (EBADMSG).
 */
char *replay_read_file(const char *path, size_t *len);

#endif
