/*
 * results.h - a tournament's output directory (results/README.md):
 * tournament.json, games.jsonl, replays/, logs/.
 *
 * games.jsonl is crash-safe: each record is one complete line written with a
 * single write(2) under a mutex, then fsync'ed, so a kill -9 leaves at most
 * one torn last line. Opening for a resume truncates that torn line away and
 * reports the finished games through results_scan().
 */
#ifndef SKIPBO_RESULTS_H
#define SKIPBO_RESULTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "jsonw.h"
#include "referee.h"
#include "schedule.h"

struct results;

/*
 * Open (creating) directory dir with replays/ and logs/. tournament_json is
 * the resolved tournament (config_to_json(cfg, 0)), games_json its games-only
 * form (config_to_json(cfg, 1)). If dir already holds a tournament.json whose
 * games-only form differs, nothing is touched and -EEXIST is returned with a
 * sentence in err (a resume must use the same tournament and seed);
 * otherwise tournament.json is written (kept if it exists). A torn last line
 * of games.jsonl is cut off. Returns 0 and *out, or a negative errno.
 */
int results_open(const char *dir, const char *tournament_json, const char *games_json,
		 struct results **out, char *err, size_t err_size);

/*
 * Call fn for every complete record of games.jsonl in order, with its parsed
 * object (owned by results_scan, valid during the call). Lines that are not
 * JSON objects with a string "id" are an error (-EBADMSG, line number in err).
 */
int results_scan(struct results *r, void (*fn)(void *ctx, const cJSON *record), void *ctx,
		 char *err, size_t err_size);

/* Append one record (a line without '\n'); thread-safe. 0 or a negative errno. */
int results_append(struct results *r, const char *line, size_t len);

void results_close(struct results *r);

/* What one games.jsonl record is made of. */
struct results_game {
	const struct schedule_game *game;  /* id, table, deal, rotation, seed */
	const char *const *bots;           /* bot name at each seat */
	const struct referee_outcome *outcome;
	const char *replay;                /* path relative to the directory, or NULL */
};

/* Replace w's text with the record (results/README.md), no newline. 0 or -ENOMEM. */
int results_format_record(struct jsonw *w, const struct results_game *rg);

#endif
