/*
 * tournament_file.h - a tournament directory's tournament.json: its one
 * strict reader (records_read_tournament, for the resume check, `merge`,
 * `status`, `serve` and the report) and its one writer
 * (records_tournament_write, for `run`, `league` and `merge`).
 *
 * The tournament's settings come as config_to_json()'s text
 * (tournament/config_json.c); the keys a run adds ("shard", "sprt",
 * "programs", "league", "sandbox", "output", "started") are set here only,
 * so no other module parses the file's text or prints it.
 *
 * Crash safety: the writer replaces the file whole (a temporary file,
 * fsync, rename, fsync of the directory), so a crash or a full disk leaves
 * the old file or the new one, never a part of either.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_TOURNAMENT_FILE_H
#define SKIPBO_TOURNAMENT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* The newest "schedule" a tournament.json may name: SCHEDULE_VERSION (schedule.h, which checks it). */
#define RECORDS_SCHEDULE_MAX 2

/*
 * "sprt": {"elo0": E0, "elo1": E1, "alpha": A, "beta": B} in tournament.json:
 * the directory is the sequential test of `skipbo-arena sprt` (sprt.h), a
 * two-bot duplicate tournament stopped once the test decides.
 */
struct records_sprt {
	int on;
	double elo0, elo1, alpha, beta;
};

/* What `merge` and `status` read of a directory's tournament.json. */
struct records_tournament {
	size_t nbots;
	int players, duplicate;
	int pairings;            /* partnership with "schedule" >= 2: every pairing (schedule.h) */
	int schedule;            /* "schedule", 1 when absent (written before pairings) */
	uint32_t deals;
	uint64_t seed;
	uint32_t shard, nshards; /* "shard": "K/N", K 1-based; nshards 0: the whole tournament */
	uint8_t *challenger;     /* a gauntlet's challengers, flags over the bots; NULL otherwise */
	struct records_sprt sprt; /* its "sprt", when it has one */
	int league;              /* it has "league": a league's directory (arena/LEAGUE.md), whose
	                            games are chosen as it plays, not by a schedule */
	char *name;              /* "name", "" when absent */
	long long started;       /* "started" as seconds since the epoch (UTC); -1: absent */
	char *text;              /* the whole file */
	char *same;              /* what shards of one tournament share (records_read_tournament) */
};

/*
 * Read dir/tournament.json strictly. t->same is its games-only form without
 * "shard" and without the bots' paths (each "cwd", and the directories of
 * each command's first word), so that shards run at different paths compare
 * equal when they play the same games. 0, or a negative errno with a
 * sentence in err naming the file and the key; release t in either case.
 */
int records_read_tournament(const char *dir, struct records_tournament *t, char *err,
			    size_t err_size);
void records_tournament_release(struct records_tournament *t);

/*
 * dir/tournament.json as a strict tree (json_strict.h), for a report that
 * shows its settings; the caller frees it with cJSON_Delete(). NULL when the
 * file is missing, unreadable, over 1 MiB (the arena writes a few KiB) or
 * not strict JSON: a report then goes without it.
 */
cJSON *records_tournament_tree(const char *dir);

/*
 * The games-only form of a tournament.json's text (without the keys of one
 * run: concurrency, pin, output, the caps, sandbox, programs, replays,
 * started), printed as config_to_json() prints it; NULL when the text is not
 * a strict JSON object or on -ENOMEM. The caller frees it.
 */
char *records_tournament_games_only(const char *text, size_t len);

/*
 * tournament.json being written: the settings and the keys of the run, as a
 * strict tree that only the functions below change.
 */
struct records_tournament_doc {
	cJSON *root;
};

/* The settings (config_to_json()'s text, strict JSON) as a new document. -EBADMSG, -ENOMEM. */
int records_tournament_doc_new(const char *settings, struct records_tournament_doc *d);

/*
 * dir/tournament.json as a document, to compare and write again: strict
 * JSON, an object. 0, or a negative errno (-ENOENT: no file; -EBADMSG: not
 * strict JSON) with a sentence in err naming the file (and line).
 */
int records_tournament_doc_load(const char *dir, struct records_tournament_doc *d, char *err,
				size_t err_size);

/* The text of another tournament.json (a shard's, t->text) as a document. */
int records_tournament_doc_parse(const char *text, struct records_tournament_doc *d);

void records_tournament_doc_release(struct records_tournament_doc *d);

/* "shard": "K/N" with K = shard + 1; nshards 0 removes it. */
int records_tournament_set_shard(struct records_tournament_doc *d, uint32_t shard,
				 uint32_t nshards);

/* "sprt" (s->on) with the test's parameters, as records_read_tournament reads them. */
int records_tournament_set_sprt(struct records_tournament_doc *d, const struct records_sprt *s);

/* "programs" (tournament/programs.h), taken over even on error; replaces any. */
int records_tournament_set_programs(struct records_tournament_doc *d, cJSON *programs);

/* What a league records under "league" (arena/LEAGUE.md). */
struct records_league_keys {
	uint64_t floor, max_games, max_minutes;
	int suspend_after;
	int stop_when_separated;
};

int records_tournament_set_league(struct records_tournament_doc *d,
				  const struct records_league_keys *k);

/* "output": the directory, replacing any. */
int records_tournament_set_output(struct records_tournament_doc *d, const char *dir);

/*
 * "started": earlier's when it has one (a resumed directory keeps its
 * start), else now (UTC). earlier may be NULL.
 */
int records_tournament_set_started(struct records_tournament_doc *d,
				   const struct records_tournament_doc *earlier);

/*
 * "sandbox" of d ("off" when absent: from before sandboxes) made "mixed"
 * when other (a run's "on" or "off") differs. 1 when d changed, 0 when not,
 * or -ENOMEM.
 */
int records_tournament_note_sandbox(struct records_tournament_doc *d, const char *other);

/* d's "sandbox", or NULL when it has none. */
const char *records_tournament_sandbox(const struct records_tournament_doc *d);

/* d's "programs", or NULL when it has none (written before they were recorded). */
const cJSON *records_tournament_programs(const struct records_tournament_doc *d);

/* d's games-only form (records_tournament_games_only()) as a new tree; NULL: -ENOMEM. */
cJSON *records_tournament_games_tree(const struct records_tournament_doc *d);

/*
 * Write d as dir/tournament.json, replacing it whole and durably (header).
 * 0, or a negative errno with err naming the file.
 */
int records_tournament_write(const char *dir, const struct records_tournament_doc *d, char *err,
			     size_t err_size);

/* A whole small file, NUL-terminated, its length in *len; NULL with errno set. */
char *records_read_file(const char *path, size_t *len);

#endif
