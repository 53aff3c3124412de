/*
 * replay_file.h - replays on the disk (TOURNAMENT.md, "Replays"): a game's
 * replay formatted and zstd-compressed as one frame with the memory kept
 * from game to game, written to a file of its own or appended to a pack (the
 * frames of many games one after the other, which decompress to one replay
 * document a line); and any replay file read back as its JSON text,
 * compressed or not, whole or one frame of it.
 */
#ifndef SKIPBO_REPLAY_FILE_H
#define SKIPBO_REPLAY_FILE_H

#include <stddef.h>
#include <stdint.h>

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
 * Format the replay, with its newline, and compress it into one zstd frame
 * that records its size: *frame (inside rw, valid until its next use) and
 * *len. 0, -ENOMEM, or -EIO when zstd fails.
 */
int replay_frame(struct replay_writer *rw, const struct replay_info *info, const char **frame,
		 size_t *len);

/*
 * Format the replay and write it to path: zstd-compressed when path ends in
 * ".zst", plain JSON otherwise; without fsync (durable_write_unsynced(): the
 * caller syncs it before anything refers to it). 0, -ENOMEM, -EIO when zstd
 * fails, or a negative errno of the write.
 */
int replay_write_file(struct replay_writer *rw, const char *path, const struct replay_info *info);

/* Largest replay text read (a long match's replay is a few MB, a pack more). */
#define REPLAY_FILE_MAX (256 * 1024 * 1024)

/*
 * The whole file at path, NUL-terminated, owned by the caller; *len its
 * length. A zstd-compressed file (known by the zstd magic number, whatever
 * its name) comes back decompressed, every frame of it: a pack gives its
 * documents one a line. NULL with errno set when it cannot be read, passes
 * REPLAY_FILE_MAX (EFBIG) once decompressed, or holds a damaged or cut-off
 * zstd frame (EBADMSG).
 */
char *replay_read_file(const char *path, size_t *len);

/*
 * The replay at bytes [offset, offset + bytes) of path, a zstd frame of a
 * pack, decompressed and NUL-terminated as replay_read_file() gives it; with
 * bytes 0 the whole file (replay_read_file()). NULL with errno set as there,
 * or EBADMSG when the range is not one whole frame.
 */
char *replay_read_at(const char *path, uint64_t offset, uint64_t bytes, size_t *len);

/*
 * The next JSON document of text from *pos on (a pack decompresses to one a
 * line; a replay file holds one, on one line or pretty-printed): its start,
 * its length in *doc_len, and *pos moved past it. It ends where its outer
 * brackets close (strings skipped), or at the end of text when they never do,
 * which the strict parse of it then reports. NULL when only white space is
 * left.
 */
const char *replay_next_document(const char *text, size_t len, size_t *pos, size_t *doc_len);

#endif
