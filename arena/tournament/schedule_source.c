/*
 * schedule_source.c - a tournament file's schedule handed to the workers
 * (contract in schedule_source.h).
 */
#include "schedule_source.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "sandbox.h"

static int is_done(const struct schedule_source *s, uint64_t i)
{
	return s->done[i / 8] >> (i % 8) & 1;
}

/* Game i is this run's to play: every game, or those of its shard. */
static int is_mine(const struct schedule_source *s, uint64_t i)
{
	return !s->nshards || schedule_shard_of(s->sched, i, s->nshards) == (int)s->shard;
}

/* A record found on resume (checked by results_scan): its game counts as played. */
static int recorded(void *ctx, const struct results_record *rec, struct schedule_game *g)
{
	struct schedule_source *s = ctx;
	uint64_t i;

	/* a record of another game or table size is not one of this schedule's games */
	if (schedule_index_of(s->sched, rec->id, &i) < 0 || rec->players != s->cfg.players ||
	    !is_mine(s, i)) {
		s->foreign++;
		return 0;
	}
	/* a game is counted once, whatever else claims its id */
	if (is_done(s, i)) {
		s->repeated++;
		return 0;
	}
	s->done[i / 8] |= (uint8_t)(1u << (i % 8));
	return schedule_game(s->sched, i, g) == 0;
}

/* The next game nobody has played or taken; a game of a later phase stays next. */
static int next(void *ctx, struct schedule_game *g)
{
	struct schedule_source *s = ctx;

	for (; s->next < schedule_count(s->sched); s->next++) {
		uint64_t i = s->next;

		if (is_done(s, i) || !is_mine(s, i))
			continue;
		if (s->phased && schedule_phase(s->sched, i) != s->phase)
			return TOURNAMENT_SOURCE_LATER;
		s->next++;
		return schedule_game(s->sched, i, g) == 0;
	}
	return 0;
}

static void open_phase(void *ctx)
{
	struct schedule_source *s = ctx;

	if (s->next < schedule_count(s->sched))
		s->phase = schedule_phase(s->sched, s->next);
}

/* What the resume did not count, and what the sandbox cannot close for this schedule. */
static void scanned(void *ctx, FILE *out)
{
	struct schedule_source *s = ctx;

	if (s->repeated || s->foreign)
		fprintf(out, "warning: %s/games.jsonl: %llu record(s) with the id of a game recorded "
			"before and %llu not of this tournament's schedule (or shard) are not counted\n",
			s->cfg.output, (unsigned long long)s->repeated,
			(unsigned long long)s->foreign);
	if (s->phased && sandbox_cache_warning(s->sandbox))
		fprintf(out, "warning: %s\n", sandbox_cache_warning(s->sandbox));
	if (s->cfg.partnership && s->sandbox && sandbox_mode_of(s->sandbox) != SANDBOX_SEALED)
		fprintf(out, "warning: partners can pass each other their hands through the kernel's "
			"caches within a game (R10); --sandbox sealed (auto, where it can) closes the "
			"page cache and the names looked up in what the bots see (SECURITY.md)\n");
}

/*
 * A partnership directory started before pairings (its tournament.json has no
 * "schedule") resumes with the schedule it was started with.
 */
static void adopt_schedule(struct config *cfg)
{
	struct records_tournament t = { 0 };
	char err[PATH_MAX + 256];

	if (cfg->partnership && records_read_tournament(cfg->output, &t, err, sizeof(err)) == 0)
		cfg->schedule = t.schedule;
	records_tournament_release(&t);
}

/* The tournament.json of a run (tournament_file.h): the settings, "shard", "sprt", "programs". */
static int new_doc(struct schedule_source *s, const struct records_sprt *sprt)
{
	char *settings = config_to_json(&s->cfg, 0);
	int ret = records_tournament_doc_new(settings, &s->doc);

	free(settings);
	if (ret == 0 && (ret = records_tournament_set_shard(&s->doc, s->shard, s->nshards)) == 0 &&
	    (!sprt || (ret = records_tournament_set_sprt(&s->doc, sprt)) == 0))
		ret = records_tournament_set_programs(&s->doc, programs_of_config(&s->cfg));
	return ret < 0 ? -ENOMEM : 0;
}

int schedule_source_init(struct schedule_source *s, const struct config *cfg,
			 const struct tournament_options *opt, char *err, size_t err_size)
{
	const struct config *c = &s->cfg;
	uint64_t count;
	int ret;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	adopt_schedule(&s->cfg);
	s->sandbox = opt->sandbox;
	s->shard = opt->shard;
	s->nshards = opt->nshards;
	/* reused processes live across phases anyway: the order stays, the barrier goes */
	s->phased = c->processes == CONFIG_PROCESSES_FRESH;
	if ((ret = schedule_new_gauntlet(c->nbots, c->challenger, c->players, c->deals,
					 c->duplicate, c->partnership && c->schedule > 1, c->seed,
					 &s->sched)) < 0) {
		snprintf(err, err_size, "too many games for one tournament");
		return ret;
	}
	count = schedule_count(s->sched);
	if (!(s->done = calloc(count / 8 + 1, 1)) || new_doc(s, opt->sprt) < 0) {
		schedule_source_release(s);
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	s->source = (struct tournament_source){
		.recorded = recorded, .next = next, .open_phase = open_phase, .scanned = scanned,
		.games = s->nshards ? schedule_shard_count(s->sched, s->shard, s->nshards) : count,
		.doc = &s->doc, .ctx = s };
	return 0;
}

void schedule_source_release(struct schedule_source *s)
{
	records_tournament_doc_release(&s->doc);
	schedule_free(s->sched);
	free(s->done);
	memset(s, 0, sizeof(*s));
}
