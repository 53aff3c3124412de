/*
 * replay_pack.h - a tournament worker's replays appended to packs
 * (TOURNAMENT.md, "Replays"): files DIR/replays/<16 hex digits>.jsonl.zst,
 * so a game costs no file of its own. A pack is zstd frames one after the
 * other, each the replay documents of one batch of games, one a line
 * (`zstd -dc` gives JSON Lines). Compressing a batch as one stream costs less
 * than a frame a game, and each game compresses against the ones before it.
 * A game's record locates its document: the pack ("replay"), the byte where
 * its batch's frame starts ("replay_offset") and its line in that frame
 * ("replay_line"); replay_read_at() in replay_file.h reads it.
 *
 * A pack is named at random when its first document comes and belongs to one
 * worker, which only ever appends; a run never appends to a pack of an
 * earlier run, so whatever a crash cut off stays at the end of a file that
 * no record reaches past.
 *
 * Documents wait in memory, compressed: replay_pack_add() adds to the
 * pending batch, replay_pack_add_frame() adds a frame a worker made with
 * replay_pack_frame() as it is (the pending batch is then several frames), replay_pack_seal() ends its frame and makes it the one
 * replay_pack_sync() writes and fsyncs (with the pack's directory when the
 * pack is new). The caller syncs before it writes the records that locate
 * the sealed documents. Sync may run in another thread than add, while the
 * next batch fills: everything else (seal, open and close a pack) happens
 * only while no sync runs.
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

/* Compressed bytes in memory. */
struct replay_batch {
	char *data;
	size_t len, cap;
};

struct replay_pack {
	const char *dir;                 /* the tournament's output directory */
	char name[REPLAY_PACK_NAME_MAX]; /* "replays/<hex>.jsonl.zst"; "" before the first frame */
	int fd;                          /* -1 when no pack is open */
	int new_entry;                   /* its directory entry is not synced yet */
	uint64_t end;                    /* bytes of the pack with every sealed frame */
	uint64_t lines;                  /* documents in the pending batch's open frame */
	size_t frame_at;                 /* where that frame starts in the pending batch */
	uint64_t max_bytes;              /* REPLAY_PACK_MAX; smaller in tests */
	void *zstd;                      /* the pending frame's stream (ZSTD_CCtx) */
	struct replay_batch pending;     /* the pending frame so far */
	struct replay_batch sealed;      /* the frame the next sync writes */
};

/* Where a document is (the record's "replay", "replay_offset", "replay_line"). */
struct replay_location {
	char file[REPLAY_PACK_NAME_MAX]; /* relative to the directory */
	uint64_t offset, line;
};

void replay_pack_init(struct replay_pack *p, const char *dir);

/*
 * Whether the next document needs a pack opened: none is open, or the open
 * one holds max_bytes. The old pack's frames must be synced first
 * (replay_pack_add() refuses with -EBUSY).
 */
int replay_pack_needs_open(const struct replay_pack *p);

/*
 * Add a replay document (one line, with its newline) to the pending batch
 * and say where it will be. Opens a new pack (closing the old one) when
 * replay_pack_needs_open(). -ENOMEM, -EIO (zstd failed), -EBUSY.
 */
int replay_pack_add(struct replay_pack *p, const char *doc, size_t len,
		    struct replay_location *at);

/*
 * Add a frame of documents made by replay_pack_frame() (on a worker: the
 * host appends its bytes unchanged) to the pending batch, after the
 * documents added before it; *at says where its first document will be, the
 * k-th is at line k. The caller has read it with replay_pack_frame_read().
 * Errors as replay_pack_add().
 */
int replay_pack_add_frame(struct replay_pack *p, const char *frame, size_t len,
			  struct replay_location *at);

/*
 * Documents (each one line, with its newline; len bytes in all) compressed
 * as one frame the way a pack holds them, into *frame (malloc'd, *frame_len
 * bytes). -ENOMEM or -EIO.
 */
int replay_pack_frame(const char *docs, size_t len, char **frame, size_t *frame_len);

/*
 * A frame from elsewhere decompressed, NUL-terminated, into *docs (malloc'd,
 * *docs_len bytes): 0; -EBADMSG when the len bytes are not exactly one whole
 * zstd frame that says its size (as replay_pack_frame() writes) and needs no
 * dictionary; -EFBIG past max bytes; -ENOMEM.
 */
int replay_pack_frame_read(const char *frame, size_t len, size_t max, char **docs,
			   size_t *docs_len);

/* End the pending batch's open frame and make the batch the sealed one; the sealed batch
 * must be empty (synced). -ENOMEM or -EIO. */
int replay_pack_seal(struct replay_pack *p);

/* Write the sealed frame and fsync the pack; the directory too when the pack is new. */
int replay_pack_sync(struct replay_pack *p);

/* Close the pack (frames not synced are dropped) and free the memory. */
void replay_pack_release(struct replay_pack *p);

#endif
