/*
 * lease_source.c - a lease's games in rotation phases (contract in lease_source.h).
 */
#include "lease_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t phase_of(const struct schedule_game *g, int players)
{
	return g->pairing * (uint32_t)players + g->rotation;
}

static int by_phase(const void *a, const void *b, void *ctx)
{
	const struct schedule_game *x = a, *y = b;
	int players = *(const int *)ctx;
	uint32_t px = phase_of(x, players), py = phase_of(y, players);

	if (px != py)
		return px < py ? -1 : 1;
	/* within a phase the host's order */
	return x->index < y->index ? -1 : x->index > y->index;
}

static int recorded(void *ctx, const struct results_record *rec, struct schedule_game *g)
{
	(void)ctx;
	(void)rec;
	(void)g;
	return 0;
}

static int next(void *ctx, struct schedule_game *g)
{
	struct lease_source *s = ctx;

	if (s->next >= s->ngames)
		return 0;
	if (s->phased && phase_of(&s->games[s->next], s->players) != s->phase)
		return TOURNAMENT_SOURCE_LATER;
	*g = s->games[s->next++];
	return 1;
}

static void open_phase(void *ctx)
{
	struct lease_source *s = ctx;

	if (s->next < s->ngames)
		s->phase = phase_of(&s->games[s->next], s->players);
}

int lease_source_init(struct lease_source *s, const struct lease *l, const struct config *cfg,
		      char *err, size_t err_size)
{
	return lease_source_init_games(s, l->games, l->ngames, cfg, err, err_size);
}

int lease_source_init_games(struct lease_source *s, const struct schedule_game *games, size_t n,
			    const struct config *cfg, char *err, size_t err_size)
{
	char *settings;
	int ret;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		int seated = 0;

		while (seated < ENGINE_MAX_PLAYERS && games[i].bots[seated] >= 0)
			seated++;
		if (seated != cfg->players) {
			snprintf(err, err_size, "the lease's game %s seats %d bots, its tournament "
				 "%d", games[i].id, seated, cfg->players);
			return -EINVAL;
		}
	}
	if (!n) {
		snprintf(err, err_size, "no game to play");
		return -EINVAL;
	}
	if (!(s->games = malloc(n * sizeof(*s->games))))
		return -ENOMEM;
	memcpy(s->games, games, n * sizeof(*s->games));
	s->ngames = n;
	s->players = cfg->players;
	/* reused processes play every phase: the run has no barrier to wait at */
	s->phased = cfg->processes == CONFIG_PROCESSES_FRESH;
	qsort_r(s->games, s->ngames, sizeof(*s->games), by_phase, &s->players);
	s->phase = phase_of(&s->games[0], s->players);
	if (!(settings = config_to_json(cfg, 0))) {
		lease_source_release(s);
		return -ENOMEM;
	}
	ret = records_tournament_doc_new(settings, &s->doc);
	free(settings);
	if (ret < 0) {
		lease_source_release(s);
		snprintf(err, err_size, "the lease's tournament.json: %s", strerror(-ret));
		return ret;
	}
	s->source = (struct tournament_source){
		.recorded = recorded, .next = next, .open_phase = open_phase,
		.games = s->ngames, .doc = &s->doc, .ctx = s,
	};
	return 0;
}

void lease_source_release(struct lease_source *s)
{
	records_tournament_doc_release(&s->doc);
	free(s->games);
	memset(s, 0, sizeof(*s));
}
