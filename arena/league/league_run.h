/*
 * league_run.h - a league played until it stops (arena/LEAGUE.md): its
 * entries (league_entries.h) play duplicate deals chosen by the scheduler
 * (league_sched.h) on the tournament's workers (tournament.h, as a
 * tournament_source), while the ratings are refitted in the background
 * (league_fit.h) and each refit is added to the history (league_history.h).
 *
 * The league's directory holds league.jsonc, entries.jsonl, and what `run`
 * writes: games.jsonl, replays/, logs/, tournament.json (the current
 * entries as "bots", the league's seed, "league": its settings), so that
 * `report`, `status` and the viewer read it as they read a tournament.
 *
 * Games: deal k (0, 1, ...) is played once per seat rotation r, as
 * "t%04u-d0000-r%u" (table k, deal 0, rotation r in the record: a game id
 * of schedule.h's form), its seed
 * schedule_deal_seed(league seed, k, 0); at rotation r seat s holds the
 * table's entry (s + r) mod players (schedule.h). A resume reads the records
 * back in order and finishes any deal left with rotations missing first.
 *
 * Changes: between deals the league looks at league.jsonc's and
 * entries.jsonl's modification times; on a change the games in progress are
 * finished and the league goes on with the new entries and settings. An
 * edit that does not load is refused, said once, and the last good settings
 * stay. An entry whose files changed is held out of play, said once with
 * how to enter the new version. An entry with suspend_after games with a
 * start fault is suspended (entries.jsonl says so).
 */
#ifndef SKIPBO_LEAGUE_RUN_H
#define SKIPBO_LEAGUE_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct desk;

struct league_run_options {
	const char *dir;   /* the league's directory, with league.jsonc */
	int jobs;          /* games at once; 0: the file's "concurrency"; -1 with a desk: none */
	FILE *out;         /* what the league says as it goes (stdout when NULL) */
	struct desk *desk; /* workers on other machines (desk.h), NULL: none */
};

/* Why a league stopped. */
enum league_stop {
	LEAGUE_STOP_REQUEST,    /* league_request_stop(): Ctrl-C, SIGTERM */
	LEAGUE_STOP_SEPARATED,  /* every adjacent pair apart at 95% */
	LEAGUE_STOP_GAMES,      /* max_games */
	LEAGUE_STOP_TIME,       /* max_minutes */
};

/*
 * Run the league of opt->dir until it stops: *why says why. 0, or a
 * negative errno with a sentence in err (league.jsonc unreadable or wrong
 * when it starts, the directory, no memory). Never for a bot.
 */
int league_run(const struct league_run_options *opt, enum league_stop *why, char *err,
	       size_t err_size);

/* Ask a running league to finish its games in progress and return (async-signal-safe). */
void league_request_stop(void);

/*
 * The league's seed: league.jsonc's "seed", else the one dir/tournament.json
 * recorded, else *seed as drawn (config_random_seed). Used by challenges too.
 */
void league_seed(const char *dir, int has_seed, uint64_t *seed);

/* A challenge's tournament directory: "DIR/challenges/A-vs-B-DEALS" into out. 0, or
 * -ENAMETOOLONG. */
int league_challenge_dir(char *out, size_t size, const char *dir, const char *a, const char *b,
			 long long deals);

#endif
