/*
 * replay_find.h - a game's replay found through its record (TOURNAMENT.md,
 * "Replays"). A record of DIR/games.jsonl locates its replay: "replay" names
 * the file relative to DIR, a pack "replays/<hex>.jsonl.zst" with
 * "replay_offset" (where the frame holding it starts) and "replay_line" (its
 * line in that frame), or (older runs) a file of the game's own,
 * "replays/<id>.json.zst" or ".json", without them. Only records
 * are trusted: a pack may hold frames no record reaches (a crash's orphans,
 * a cut-off tail), so a pack is never scanned to find a game.
 *
 * Functions that take err write a sentence there when they fail: what, where
 * (file, line or offset) and what was expected.
 */
#ifndef SKIPBO_REPLAY_FIND_H
#define SKIPBO_REPLAY_FIND_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "records.h"
#include "replay_file.h"

/* Where one game's replay is. */
struct replay_ref {
	const char *id;        /* the record's id (owned by the record) */
	const char *file;      /* its "replay", relative to the directory (owned by the record) */
	char path[PATH_MAX];   /* the directory joined with file */
	int packed;            /* a document of a pack's frame, else the whole file */
	uint64_t offset, line; /* the frame in the pack, the document's line in it */
};

/*
 * The replay of record (a games.jsonl line of directory dir, parsed): 1 with
 * *ref, 0 when the record has none, or -EBADMSG with err when its keys are
 * wrong: "replay" not a file under replays/, "replay_offset" and
 * "replay_line" not non-negative integers present together with a pack.
 */
int replay_ref_of(const char *dir, const cJSON *record, struct replay_ref *ref, char *err,
		  size_t err_size);

/*
 * replay_ref_of() of a record as records_scan_dir() hands it over: from the
 * fields its fast path read, or from its tree. The same answers and
 * messages; -ENOMEM too.
 */
int replay_ref_of_record(const char *dir, const struct results_record *rec,
			 struct replay_ref *ref, char *err, size_t err_size);

/*
 * The text of the replay at ref (replay_read_at(), through rd when not NULL:
 * records read in order then decompress each frame once), NUL-terminated,
 * owned by the caller, its length in *len; NULL with err naming the file,
 * the offset and the game.
 */
char *replay_ref_read(const struct replay_ref *ref, struct replay_reader *rd, size_t *len,
		      char *err, size_t err_size);

/*
 * Call fn for every record of dir/games.jsonl that has a replay, in order
 * (ref valid during the call). The records are read strictly
 * (records_scan_dir()). fn returns 0 to go on or a negative code that ends
 * the iteration and is returned (err is then fn's to fill). 0, or a negative
 * code with err.
 */
int replay_each(const char *dir, int (*fn)(void *ctx, const struct replay_ref *ref), void *ctx,
		char *err, size_t err_size);

/*
 * The replay text of game id in tournament directory dir, NUL-terminated,
 * owned by the caller. NULL with err: no record of id (-ENOENT in *code), a
 * record without replay, naming the tournament's "replays" setting that left
 * it out (-ENODATA), or why it could not be read (the record or the frame).
 */
char *replay_find(const char *dir, const char *id, size_t *len, int *code, char *err,
		  size_t err_size);

/*
 * The viewer page of game id in directory pages: pages/<id>.html (a
 * tournament's are DIR/replays/<id>.html, where the report's game list links
 * to them). 0, -EINVAL when id is not a plain name (letters, digits, '_',
 * '.', '-', not starting with '.'), or -ENAMETOOLONG.
 */
int replay_page_path(const char *pages, const char *id, char *path, size_t size);

/*
 * The "id" of a replay document (doc_len bytes) into id (size bytes): 0, or
 * -EBADMSG when the document is not an object with a string "id" that fits.
 * A document that begins as replay_format writes it is not parsed beyond its
 * id: the rest is not checked here.
 */
int replay_document_id(const char *doc, size_t doc_len, char *id, size_t size);

/*
 * One replay document from path: a replay file (its one document), a pack
 * (the document of game id) or a tournament directory (game id through its
 * record). id may be NULL when path holds one document only. The document's
 * text, NUL-terminated, owned by the caller; NULL with err (the id not there,
 * several documents and no id, or why path could not be read).
 */
char *replay_select(const char *path, const char *id, size_t *len, char *err, size_t err_size);

#endif
