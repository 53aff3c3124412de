/*
 * tournament.h - running (or resuming) a whole tournament: -j worker threads
 * each with its own bot pool (pinned to one CPU unless the config says not
 * to), playing the games of one source (the schedule, or the league's
 * deals), the referee, games.jsonl, replays and progress.
 *
 * Workers take the source's next unplayed game (schedule order); which
 * worker plays a game never changes its record (all fields but timings), so
 * results do not depend on concurrency. Finished games found in games.jsonl
 * are skipped.
 *
 * With fresh processes (the default) the rotation phases of schedule.h are
 * kept apart by a barrier: a worker takes (and starts the processes of)
 * only games of the open phase; when the next game is of a later one, it
 * finishes the games it holds, waits until each of its processes has ended
 * and been reaped, and waits for every other worker to do the same; only
 * then does the next phase open. So no bot process of one rotation of a
 * deal is alive at the same time as one of another rotation of it, and no
 * chain of processes alive at overlapping times (of any bot or deal) links
 * two phases of a block. With "processes": "reuse" the order is the same
 * but there is no barrier: a trusted bot's process plays every phase.
 *
 * A shard run plays only its shard's games, and its tournament.json carries
 * "shard": "K/N" (1-based), so that a resume with another shard, or of the
 * whole tournament, is refused like any other tournament; `merge` sets the
 * key aside when it checks that directories are shards of one tournament.
 */
#ifndef SKIPBO_TOURNAMENT_H
#define SKIPBO_TOURNAMENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "committer.h"
#include "config.h"
#include "results.h"
#include "tournament_file.h"
#include "schedule.h"

struct referee_observer;
struct desk;

/*
 * Where a run's games come from: the schedule of a tournament file
 * (schedule_source.h, the source of a run without one of its own) or a
 * schedule decided while the games are played (the league, league_deals.h).
 * cfg's deals, format and shards are the schedule's alone, and cfg's seed
 * beyond it only names the opaque ids the bots are told. The hooks recorded
 * (before any worker starts), next, counted and open_phase are called one
 * at a time, next, counted and open_phase under the run's lock, which
 * every worker waits for: they neither block nor do I/O. scanned and poll
 * are called without it. No hook calls back into the tournament.
 */
#define TOURNAMENT_SOURCE_LATER 2

struct tournament_source {
	/* Each record of games.jsonl found when the run starts, in order: 1 when it
	 * counts as one of the run's games, *g that game; 0 when not; or a negative
	 * errno that ends the run. */
	int (*recorded)(void *ctx, const struct results_record *rec, struct schedule_game *g);
	/* The next game into *g: index (unique in the directory), id, seed,
	 * rotation and bots by seat (indices into cfg->bots). 1 with a game, 0
	 * when there is none now: the run ends once the games taken are played.
	 * TOURNAMENT_SOURCE_LATER (with open_phase): its next game is of a
	 * later rotation phase (schedule.h), handed out once every game taken
	 * is played and every bot process stopped. */
	int (*next)(void *ctx, struct schedule_game *g);
	/* Each game made durable, in the order of games.jsonl; NULL: none. */
	void (*counted)(void *ctx, const struct committed_game *game);
	/* With fresh processes: the barrier is passed, the next phase open. NULL:
	 * the source has no phases. */
	void (*open_phase)(void *ctx);
	/* Once every record is read, before any worker starts: anything to say on
	 * out about them, anything to wait for before the first game. NULL: none. */
	void (*scanned)(void *ctx, FILE *out);
	/* Up to max games for the run's desk (desk.h): every rotation of whole
	 * deal groups opened now, handed out apart from next's (no barrier waits
	 * for them), counted when made durable like the others. Under the run's
	 * lock. Their number, 0 when none now. NULL: the source has none, and a
	 * desk gets nothing from it. */
	int (*next_groups)(void *ctx, struct schedule_game *games, int max);
	/* Before a worker takes a game, without the run's lock, from several workers
	 * at once (the source serialises what it must): what the source looks at
	 * outside the run, to act on at its next game. NULL: none. */
	void (*poll)(void *ctx);
	uint64_t games; /* the games of the run, those recorded included; 0: not known ahead */
	/* tournament.json, written (or checked against the directory's) when the
	 * run opens it (results_open); NULL: the source writes its own. */
	struct records_tournament_doc *doc;
	void *ctx;
};

struct tournament_options {
	int quiet;      /* no progress output */
	int log_io;     /* write <output>/io/<id>.log transcripts, keep stderr in replays */
	FILE *progress; /* where progress goes (stdout when NULL) */
	struct sandbox *sandbox; /* every bot's (sandbox.h), NULL: unsandboxed */
	uint32_t shard, nshards; /* play only shard (0-based) of nshards (schedule.h); nshards 0: all */
	/* Every rating_interval games played (0: never), on_interval(interval_ctx,
	 * games played so far by this run) from the worker that recorded the last
	 * of them, with the other workers held before their next record, after the
	 * live progress line is ended. */
	uint64_t rating_interval;
	void (*on_interval)(void *ctx, uint64_t played);
	void *interval_ctx;
	/* Every game counted, one call at a time: each record found by a resume
	 * (before any worker starts), then each game made durable, in the order
	 * of games.jsonl, under the run's lock: on_game(game_ctx, the game,
	 * placings by seat, its number of faults). NULL: none. It may call
	 * tournament_request_stop(). */
	void (*on_game)(void *ctx, const struct schedule_game *g, const int *placings,
			int faults);
	void *game_ctx;
	/* Each bot's stderr lines shown (echo.h) when log_io is off; NULL: none. */
	const struct referee_observer *observer;
	/* The bots' logs in stderr_dir/NAME.stderr, not <output>/logs; NULL: there. */
	const char *stderr_dir;
	/* Non-NULL with on set: tournament.json says "sprt" (results.h), after any "shard". */
	const struct records_sprt *sprt;
	/* The games from here (above); NULL: the schedule of cfg (schedule_source.h). */
	const struct tournament_source *source;
	/* Workers on other machines (desk.h), NULL: none. The run attaches while it
	 * plays, its games made durable by a committer of their own; at its end it
	 * detaches (waiting for the leases out) before it finishes. With a desk
	 * cfg->concurrency may be 0: the run then plays nothing itself and lasts
	 * until the source has no game for the desk (next_groups answers 0), or a
	 * stop. */
	struct desk *desk;
};

/*
 * Run cfg's tournament into cfg->output. Returns 0 when every game is
 * recorded (also when some were already), 1 when a stop was requested
 * before that, or a negative errno with a sentence in err (output directory
 * trouble, a different tournament already in it, no memory).
 */
int tournament_run(const struct config *cfg, const struct tournament_options *opt, char *err,
		   size_t err_size);

/* Ask running tournaments to finish their current games and return (async-signal-safe). */
void tournament_request_stop(void);

#endif
