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
#include <stdint.h>

#include "jsonw.h"
#include "records.h"
#include "referee.h"
#include "replay_pack.h"
#include "schedule.h"
#include "tournament_file.h"

struct results;

/*
 * Open (creating) directory dir with replays/ and logs/. tournament is the
 * resolved tournament (config_to_json(cfg, 0) with the run's keys,
 * tournament_file.h); "started" is set in it when dir has no tournament.json
 * yet. If dir already holds a tournament.json whose games-only form differs, nothing is touched and -EEXIST is returned with a
 * sentence in err (a resume must use the same tournament and seed);
 * if its "programs" (programs.h) show that a bot changed, -ESTALE with the
 * bot and file in err; otherwise tournament.json is written durably (kept if
 * it exists; the sandbox used and missing "programs" noted in it). With
 * tournament NULL tournament.json is the caller's: neither read nor
 * written (a league's, league_run.h). A torn
 * last line of games.jsonl is cut off. The directory's entries (games.jsonl,
 * replays/, logs/, tournament.json) are fsync'ed before this returns, so no
 * record appended later can outlive them in a power cut. Returns 0 and *out,
 * or a negative errno.
 */
int results_open(const char *dir, struct records_tournament_doc *tournament,
		 struct results **out, char *err, size_t err_size);

/*
 * Move a tournament's output directory dir aside, to "<dir>.old-K" with the
 * smallest K from 1 whose name is free (never over an existing file), so a
 * run starts it over with nothing deleted. Returns 1 with the new name in
 * moved, 0 when dir does not exist, -ENOTEMPTY when dir is not a
 * tournament's output directory (no tournament.json: not touched), or a
 * negative errno.
 */
int results_move_aside(const char *dir, char *moved, size_t size);

/*
 * records_scan_dir() (records.h) of r's directory: every complete record of
 * games.jsonl in order, read at RECORD_KEYS; a damaged one is an error.
 */
int results_scan(struct results *r, int (*fn)(void *ctx, const struct results_record *rec),
		 void *ctx, char *err, size_t err_size);

/* Append one record (a line without '\n'); thread-safe. 0 or a negative errno. */
int results_append(struct results *r, const char *line, size_t len);

void results_close(struct results *r);

/* What one games.jsonl record is made of. */
struct results_game {
	const struct schedule_game *game;  /* id, table, deal, rotation, seed */
	const char *const *bots;           /* bot name at each seat */
	const struct referee_outcome *outcome;
	const struct replay_location *replay; /* where its replay is, or NULL */
};

/* Replace w's text with the record (results/README.md), no newline. 0 or -ENOMEM. */
int results_format_record(struct jsonw *w, const struct results_game *rg);

#endif
