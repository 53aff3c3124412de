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

#include <cjson/cJSON.h>

#include "jsonw.h"
#include "referee.h"
#include "replay_pack.h"
#include "schedule.h"

struct results;

/*
 * Open (creating) directory dir with replays/ and logs/. tournament_json is
 * the resolved tournament (config_to_json(cfg, 0)), games_json its games-only
 * form (config_to_json(cfg, 1)). If dir already holds a tournament.json whose
 * games-only form differs, nothing is touched and -EEXIST is returned with a
 * sentence in err (a resume must use the same tournament and seed);
 * if its "programs" (programs.h) show that a bot changed, -ESTALE with the
 * bot and file in err; otherwise tournament.json is written durably (kept if
 * it exists; the sandbox used and missing "programs" noted in it). A torn
 * last line of games.jsonl is cut off. The directory's entries (games.jsonl,
 * replays/, logs/, tournament.json) are fsync'ed before this returns, so no
 * record appended later can outlive them in a power cut. Returns 0 and *out,
 * or a negative errno.
 */
int results_open(const char *dir, const char *tournament_json, const char *games_json,
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

/* What a resume reads of one record, checked. */
struct results_record {
	const char *id;
	int players;                         /* 2 to ENGINE_MAX_PLAYERS */
	int placings[ENGINE_MAX_PLAYERS];    /* each 1 to players */
	const cJSON *json;                   /* the whole record */
	uint64_t offset;                     /* where its line starts in games.jsonl */
	size_t length;                       /* the line's bytes with its newline */
};

/*
 * Call fn for every complete record of games.jsonl in order (rec and what it
 * points to are owned by results_scan, valid during the call). Each line is
 * read strictly (json_strict.h: no key twice, integers written as integers)
 * and must be an object with a string "id", "players" an integer from 2 to
 * ENGINE_MAX_PLAYERS and "placings" that many integers from 1 to players; a
 * line that is not is an error, -EBADMSG with the line number and the field
 * in err, so a damaged record is never taken for a played game. fn returns 0
 * to go on, or a negative code that ends the scan and is returned (err names
 * the line).
 */
int results_scan(struct results *r, int (*fn)(void *ctx, const struct results_record *rec),
		 void *ctx, char *err, size_t err_size);

/* results_scan() of directory dir's games.jsonl, read only (a torn last line is left as it is). */
int results_scan_dir(const char *dir, int (*fn)(void *ctx, const struct results_record *rec),
		     void *ctx, char *err, size_t err_size);

/* What `merge` and `status` read of a directory's tournament.json. */
/*
 * "sprt": {"elo0": E0, "elo1": E1, "alpha": A, "beta": B} in tournament.json:
 * the directory is the sequential test of `skipbo-arena sprt` (sprt.h), a
 * two-bot duplicate tournament stopped once the test decides.
 */
struct results_sprt {
	int on;
	double elo0, elo1, alpha, beta;
};

struct results_tournament {
	size_t nbots;
	int players, duplicate;
	uint32_t deals;
	uint64_t seed;
	uint32_t shard, nshards; /* "shard": "K/N", K 1-based; nshards 0: the whole tournament */
	uint8_t *challenger;     /* a gauntlet's challengers, flags over the bots; NULL otherwise */
	struct results_sprt sprt; /* its "sprt", when it has one */
	char *text;              /* the whole file */
	char *same;              /* what shards of one tournament share (results_read_tournament) */
};

/*
 * Read dir/tournament.json strictly. t->same is its games-only form without
 * "shard" and without the bots' paths (each "cwd", and the directories of
 * each command's first word), so that shards run at different paths compare
 * equal when they play the same games. 0, or a negative errno with a
 * sentence in err naming the file and the key; release t in either case.
 */
int results_read_tournament(const char *dir, struct results_tournament *t, char *err,
			    size_t err_size);
void results_tournament_release(struct results_tournament *t);

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
