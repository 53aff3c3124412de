/*
 * replay_pack.h - a tournament worker's replays appended to packs
 * (TOURNAMENT.md, "Replays"): files DIR/replays/<16 hex digits>.jsonl.zst,
 * each the zstd frames of many games one after the other, so a game costs no
 * file of its own. A game's record locates its frame ("replay",
 * "replay_offset", "replay_bytes").
 *
 * A pack is named at random when its first frame comes and belongs to one
 * worker, which only ever appends; a run never appends to a pack of an
 * earlier run, so whatever a crash cut off stays at the end of a file that
 * no record reaches past. Frames wait in memory until replay_pack_sync()
 * writes them and fsyncs the pack (and its directory when the pack is new):
 * the caller syncs before it writes the records that locate them.
 *
 * Functions return 0 or a negative errno.
 */
#ifndef SKIPBO_REPLAY_PACK_H
#define SKIPBO_REPLAY_PACK_H

#include <stddef.h>
#include <stdint.h>

/* A pack is left for a new one once it holds this many bytes. */
#define REPLAY_PACK_MAX (64 * 1024 * 1024)
#define REPLAY_PACK_NAME_MAX 48

struct replay_pack {
	const char *dir;                 /* the tournament's output directory */
	char name[REPLAY_PACK_NAME_MAX]; /* "replays/<hex>.jsonl.zst"; "" before the first frame */
	int fd;                          /* -1 when no pack is open */
	int new_entry;                   /* its directory entry is not synced yet */
	uint64_t written;                /* bytes in the file */
	uint64_t max_bytes;              /* REPLAY_PACK_MAX; smaller in tests */
	char *pending;                   /* frames not yet written */
	size_t npending, cap;
};

/* Where a frame is: the pack's name relative to the directory, its bytes there. */
struct replay_location {
	char file[REPLAY_PACK_NAME_MAX];
	uint64_t offset, bytes;
};

void replay_pack_init(struct replay_pack *p, const char *dir);

/*
 * Append a frame (replay_frame() in replay_file.h) and say where it will be.
 * Opens a new pack for the first frame and when the open one holds
 * max_bytes (syncing what waits for the old one first).
 */
int replay_pack_add(struct replay_pack *p, const char *frame, size_t len,
		    struct replay_location *at);

/* Write the waiting frames and fsync the pack; the directory too when the pack is new. */
int replay_pack_sync(struct replay_pack *p);

/* Close the pack (frames not synced are dropped) and free the memory. */
void replay_pack_release(struct replay_pack *p);

#endif
