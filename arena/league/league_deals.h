/*
 * league_deals.h - the league as a tournament_source (tournament.h): the
 * deals it hands to the workers, the records it counts (read back at a
 * resume, or made durable as they are played), the fit and the scheduler
 * they feed, the suspensions and the stop rules (league_run.h has the
 * numbering of deals, games and seeds).
 *
 * The hooks recorded, next, counted and open_phase run under the
 * tournament's lock, one at a time, and call nothing of the caller's: they
 * only count and choose. scanned waits, before the first deal, for the fit
 * of the records read back. poll, under the league's own lock (watch) and
 * never the tournament's, calls the caller's changed and on_refit: a change
 * it sees ends the segment at the next deal. Between
 * segments (tournament runs) the caller brings the entries up to date with
 * league_deals_entries() and league_deals_update(), and starts the next
 * segment with league_deals_segment().
 */
#ifndef SKIPBO_LEAGUE_DEALS_H
#define SKIPBO_LEAGUE_DEALS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "league_config.h"
#include "league_entries.h"
#include "league_fit.h"
#include "league_run.h"
#include "league_sched.h"
#include "records.h"
#include "tournament.h"

/* A deal begun and not yet whole: which rotations are handed out and recorded. */
struct league_open_deal {
	uint64_t deal;
	uint32_t table[LEAGUE_SCHED_PLAYERS_MAX];
	unsigned handed, recorded;  /* a bit per rotation */
};

struct league_deals {
	/* the caller's, called from poll: files changed (end the segment at the next
	 * deal), a new fit */
	int (*changed)(void *ctx);
	void (*on_refit)(void *ctx, const struct league_standings *st);
	void *ctx;
	pthread_mutex_t watch;             /* poll: changed, on_refit, said */
	uint64_t said;                     /* the generation of the last on_refit */
	atomic_bool moved;                 /* changed said yes: no new deal this segment */
	FILE *out;
	struct league_entries *es;
	const struct league_config *cfg;
	uint64_t seed;
	int players;
	struct league_sched sched;
	struct league_fit fit;
	bool fit_started;
	struct league_standings st;        /* the latest taken */
	size_t n, cap;                     /* entries known */
	struct league_sched_entry *entry;  /* n */
	bool *held;                        /* cap: files changed, out of play */
	uint32_t *start_faults;            /* cap: games with a start fault */
	struct league_open_deal *open;
	size_t nopen, open_cap;
	uint64_t next_deal;
	/* Rotation phases (fresh processes): deals are opened in blocks of
	 * LEAGUE_BLOCK_DEALS, and rotation `phase` of every open deal is handed
	 * out before any other; the tournament's barrier (open_phase) moves on. */
	bool phased;
	int phase;
	unsigned block;                    /* deals opened in this block */
	uint64_t games;                    /* counted in the directory */
	uint64_t handed;                   /* handed out by this segment and not yet counted */
	uint64_t scanned;                  /* records read back by this segment */
	time_t started;
	bool waiting;                      /* fewer than players entries could play */
	bool suspend_due;                  /* an entry reached suspend_after start faults */
	bool over;                         /* this segment hands out no new deal */
	bool fit_due;                      /* the first deal waits for a refit */
	enum league_stop stop;             /* LEAGUE_STOP_REQUEST: none of its own */
	int error;
};

int league_deals_init(struct league_deals *d, const struct league_config *cfg, uint64_t seed,
		      char *err, size_t err_size);
/* Release; a zeroed struct that was never initialised is fine. */
void league_deals_release(struct league_deals *d);

/* The entries as they are now (es outlives d); the fit starts with the first, its
 * anchors those entered as anchors then. 0 or -ENOMEM. */
int league_deals_entries(struct league_deals *d, struct league_entries *es,
			 const struct league_config *cfg);

/* The scheduler told the entries' state and the latest ratings. 0 or -ENOMEM. */
int league_deals_update(struct league_deals *d);

/* A new segment: its scan skips the records counted already; open deals are handed again. */
void league_deals_segment(struct league_deals *d);

/*
 * Suspend each entry (not held) with suspend_after games with a start
 * fault, said on out and in entries.jsonl; a held entry's count starts
 * over. 0, or -EIO when entries.jsonl cannot be written.
 */
int league_deals_suspend(struct league_deals *d);

/* tournament_source hooks, ctx a struct league_deals (next may answer
 * TOURNAMENT_SOURCE_LATER when phased; recorded counts no record as the
 * segment's). */
int league_deals_recorded(void *ctx, const struct results_record *rec, struct schedule_game *g);
int league_deals_next(void *ctx, struct schedule_game *g);
void league_deals_open_phase(void *ctx);
/* Whole deals for a desk (tournament_source.next_groups): first the rotations
 * left of deals an earlier segment opened, then new deals chosen now, every
 * rotation handed out, outside the phase blocks. */
int league_deals_next_groups(void *ctx, struct schedule_game *games, int max);
void league_deals_counted(void *ctx, const struct committed_game *game);
void league_deals_scanned(void *ctx, FILE *out);
void league_deals_poll(void *ctx);

/* A last refit over every game, and the standings printed to out. 0 or a negative errno. */
int league_deals_finish(struct league_deals *d, FILE *out);

#endif
