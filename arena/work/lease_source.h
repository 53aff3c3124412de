/*
 * lease_source.h - a lease's games as a tournament_source (tournament.h):
 * played in rotation phases as the host's schedule plays them (WORKERS.md):
 * rotation 0 of every deal of the lease, then, once every game of it is
 * played and its processes stopped, rotation 1, and so on (pairing before
 * rotation in a partnership lease). Each game keeps the host's index, id,
 * seed and told id, so its record and replay are those the host's own run
 * would have written.
 *
 * The run's directory is new, so a record found in it is none of the lease's.
 */
#ifndef SKIPBO_LEASE_SOURCE_H
#define SKIPBO_LEASE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "lease.h"
#include "tournament.h"
#include "tournament_file.h"

struct lease_source {
	struct tournament_source source;     /* its hooks, ctx this struct */
	struct records_tournament_doc doc;   /* tournament.json of the run */
	struct schedule_game *games;         /* in order of play */
	size_t ngames, next;
	int players;
	bool phased;                         /* fresh processes: a phase at a time */
	uint32_t phase;                      /* the open phase: pairing x players + rotation */
};

/*
 * The games of l (which outlives s) for a run of cfg: -EINVAL with a
 * sentence in err when a game seats another number of bots than cfg's
 * players; -ENOMEM.
 */
int lease_source_init(struct lease_source *s, const struct lease *l, const struct config *cfg,
		      char *err, size_t err_size);
/* The same for n games given (copied), seats as indices into cfg's bots, each
 * unused seat -1. */
int lease_source_init_games(struct lease_source *s, const struct schedule_game *games, size_t n,
			    const struct config *cfg, char *err, size_t err_size);
void lease_source_release(struct lease_source *s);

#endif
