/*
 * replay_file.h - replay files on the disk (TOURNAMENT.md, "Replays"): a
 * replay written to a file of its own, plain or zstd-compressed; and any
 * replay file read back as its JSON text, compressed or not, whole, or one
 * document of one zstd frame of a pack (tournament/replay_pack.h: frames of
 * many games' documents, one a line).
 */
#ifndef SKIPBO_REPLAY_FILE_H
#define SKIPBO_REPLAY_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "replay.h"

/*
 * Format the replay, with its newline, in scratch and write it to path:
 * zstd-compressed (one frame) when path ends in ".zst", plain JSON otherwise;
 * without fsync (durable_write_unsynced(): the caller syncs it before
 * anything refers to it). 0, -ENOMEM, -EIO when zstd fails, or a negative
 * errno of the write.
 */
int replay_write_file(const char *path, const struct replay_info *info, struct jsonw *scratch);

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
 * replay_read_file() for a pack that may end in a damaged or cut-off frame
 * (what a crash leaves): the text of the whole frames before the damage, and
 * in *whole the bytes of the file they take, less than its size when the
 * rest is damaged. NULL (EBADMSG) when not even the first frame is whole.
 */
char *replay_read_pack(const char *path, size_t *len, uint64_t *whole);

/*
 * Document number line (0 for the first) of the zstd frame that starts at
 * byte offset of path, decompressed with its newline and NUL-terminated. NULL
 * with errno set as replay_read_file() does, or EBADMSG when no frame starts
 * there or the frame holds fewer documents.
 */
char *replay_read_at(const char *path, uint64_t offset, uint64_t line, size_t *len);

/* The last frame read, kept decompressed: reading a tournament's replays in the order of
 * its records decompresses each frame once. */
struct replay_reader {
	char *path;        /* the frame's file, or NULL */
	uint64_t offset;   /* where the frame starts */
	char *frame;       /* its text, len bytes */
	size_t len;
};

void replay_reader_init(struct replay_reader *rd);
void replay_reader_release(struct replay_reader *rd);

/* replay_read_at() through rd. */
char *replay_reader_get(struct replay_reader *rd, const char *path, uint64_t offset,
			uint64_t line, size_t *len);

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
