/*
 * schedule_source.h - the schedule of a tournament file (schedule.h) as a
 * tournament_source (tournament.h): a round robin or a gauntlet, all of it
 * or one shard, in schedule order, phase by phase with fresh processes.
 *
 * A resume counts each record whose id is one of the schedule's games (of
 * this shard) once; a record of another game, of another table size or of
 * another shard, and a second record of a game, are not counted and are
 * said in one warning. A partnership directory started before pairings
 * (its tournament.json has no "schedule") goes on with the schedule it was
 * started with.
 */
#ifndef SKIPBO_SCHEDULE_SOURCE_H
#define SKIPBO_SCHEDULE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "schedule.h"
#include "tournament.h"
#include "tournament_file.h"

struct schedule_source {
	struct tournament_source source;    /* its hooks, ctx this struct */
	struct config cfg;                  /* the caller's, with the schedule version adopted */
	const struct sandbox *sandbox;      /* the run's, for its warnings; NULL: none */
	struct schedule *sched;
	struct records_tournament_doc doc;  /* tournament.json of the run */
	uint32_t shard, nshards;            /* nshards 0: every game */
	bool phased;                        /* fresh processes: a phase at a time */
	uint8_t *done;                      /* a bit per game index: recorded or taken */
	uint64_t next;                      /* the first game index not taken */
	uint64_t phase;                     /* the open phase */
	uint64_t repeated, foreign;         /* records not counted: id seen before, not scheduled */
};

/*
 * The schedule of cfg (which outlives s) for a run with opt's shard, SPRT
 * and sandbox. 0, or a negative errno with a sentence in err (too many
 * games, no memory).
 */
int schedule_source_init(struct schedule_source *s, const struct config *cfg,
			 const struct tournament_options *opt, char *err, size_t err_size);
void schedule_source_release(struct schedule_source *s);

#endif
