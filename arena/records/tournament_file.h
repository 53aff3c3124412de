/*
 * tournament_file.h - a tournament directory's tournament.json read back:
 * its one strict reader, for the resume check, `merge`, `status` and the
 * report. (tournament/config_json.c writes it from the tournament file.)
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

/* A whole small file, NUL-terminated, its length in *len; NULL with errno set. */
char *records_read_file(const char *path, size_t *len);

#endif
