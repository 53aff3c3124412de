/*
 * gamelog.c - reading games.jsonl (results/README.md) into memory or through a sink.
 */
#include "gamelog.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"

#define GAMELOG_FAULT_NAME_(id, name) name,
const char *const gamelog_fault_names[GAMELOG_FAULT_KINDS] = {
	PROTOCOL_FAULT_KIND_LIST(GAMELOG_FAULT_NAME_) "other",
};

void gamelog_init(struct gamelog *log)
{
	memset(log, 0, sizeof(*log));
}

void gamelog_set_sink(struct gamelog *log, gamelog_sink_fn sink, void *ctx)
{
	log->sink = sink;
	log->sink_ctx = ctx;
}

void gamelog_release(struct gamelog *log)
{
	for (size_t i = 0; i < log->nbots; i++)
		free(log->bots[i]);
	free(log->bots);
	free(log->games);
	idset_free(log->ids);
	record_reader_release(&log->reader);
	memset(log, 0, sizeof(*log));
}

long gamelog_find_bot(const struct gamelog *log, const char *name)
{
	for (size_t i = 0; i < log->nbots; i++)
		if (strcmp(log->bots[i], name) == 0)
			return (long)i;
	return -1;
}

/* Index of name, added if new. -ENOMEM. */
static long intern_bot(struct gamelog *log, const char *name)
{
	long found = gamelog_find_bot(log, name);
	if (found >= 0)
		return found;
	char **bots = reallocarray(log->bots, log->nbots + 1, sizeof(*bots));
	if (!bots)
		return -ENOMEM;
	log->bots = bots;
	bots[log->nbots] = strdup(name);
	if (!bots[log->nbots])
		return -ENOMEM;
	return (long)log->nbots++;
}

/* The kind's number; GAMELOG_FAULT_OTHER for a kind this reader does not know. */
static int8_t fault_kind(const char *kind)
{
	int k = protocol_fault_kind_from_name(kind);

	return (int8_t)(k < 0 ? GAMELOG_FAULT_OTHER : k);
}

/* What a rating keeps of a record, bot names interned into log. 0 or -ENOMEM. */
static int narrow(struct gamelog *log, const struct record *r, struct gamelog_game *g)
{
	g->table = (int32_t)r->table;
	g->deal = (int32_t)r->deal;
	g->rotation = (int32_t)r->rotation;
	g->games = r->games;
	g->players = (uint8_t)r->players;
	g->partnership = r->partnership;
	g->match = r->match;
	g->has_time = r->has_time;
	for (int s = 0; s < r->players; s++) {
		const struct record_time *t = &r->time[s];
		long idx = intern_bot(log, r->bots[s]);

		if (idx < 0)
			return (int)idx;
		g->bot[s] = (uint32_t)idx;
		g->score[s] = r->scores[s];
		g->team[s] = r->team[s];
		g->placing[s] = (uint8_t)r->placings[s];
		g->stock_left[s] = (uint8_t)r->stock_left[s];
		g->fault[s] = -1;
		g->winner[s] = r->winner[s];
		if (r->has_time)
			g->time[s] = (struct gamelog_seat_time){ (float)t->moves, (float)t->mean_us,
								 (float)t->p99_us, (float)t->max_us,
								 (float)t->cpu_mean_us };
	}
	for (size_t i = 0; i < r->nfaults; i++)
		g->fault[r->faults[i].seat] = fault_kind(r->faults[i].kind);
	return 0;
}

/* Room for one more stored record, grown by half: a million records should not need twice
 * their size while copying. */
static int reserve_game(struct gamelog *log)
{
	size_t cap = log->games_cap ? log->games_cap + log->games_cap / 2 : 256;
	struct gamelog_game *games;

	if (log->sink || log->ngames < log->games_cap)
		return 0;
	if (!(games = reallocarray(log->games, cap, sizeof(*games))))
		return -ENOMEM;
	log->games = games;
	log->games_cap = cap;
	return 0;
}

int gamelog_add_line(struct gamelog *log, const char *line, size_t len, unsigned source)
{
	struct gamelog_game g = { .source = source };
	struct record r;
	int rc;

	/* an all-zero reader is an empty one: gamelog_init() needs no call of its own */
	log->why[0] = '\0';
	rc = record_parse(&log->reader, line, len, RECORD_FULL, &r);
	if (rc == -EBADMSG)
		memcpy(log->why, log->reader.why, sizeof(log->why));
	if (rc < 0 || (rc = reserve_game(log)) < 0 || (rc = narrow(log, &r, &g)) < 0)
		return rc;
	if (r.id) {
		if (!log->ids && (rc = idset_new(&log->ids)) < 0)
			return rc;
		if ((rc = idset_add(log->ids, source, r.id)) != 0) {
			/* a game counts once, whatever else claims its id */
			log->repeated += rc > 0;
			return rc > 0 ? 0 : rc;
		}
	}
	if (log->sink) {
		log->current = &r;
		rc = log->sink(log->sink_ctx, log, &g);
		log->current = NULL;
		if (rc < 0)
			return rc;
	} else {
		log->games[log->ngames++] = g;
	}
	log->records++;
	return 0;
}

struct reading {
	struct gamelog *log;
	unsigned source;
};

static int read_line(void *ctx, const struct records_line *line)
{
	struct reading *x = ctx;
	struct gamelog *log = x->log;
	int rc;

	if (line->len == 0)
		return 0;
	rc = gamelog_add_line(log, line->text, line->len, x->source);
	if (rc != -EBADMSG)
		return rc;
	if (!log->invalid++) {
		log->first_invalid_source = x->source;
		log->first_invalid_line = line->lineno;
		memcpy(log->first_invalid, log->why, sizeof(log->first_invalid));
	}
	return 0;
}

int gamelog_read(struct gamelog *log, const char *path, char *err, size_t errsz)
{
	struct reading x = { log, log->nsources };
	struct records_counts n;
	int rc = records_read_lines(path, read_line, &x, log->stop, &n);

	/* a folder with no games.jsonl: most often not a tournament's output directory */
	const char *hint = rc == -ENOENT ? " (no tournament has recorded a game there: name the "
			   "output directory of a run, such as results/NAME)" : "";

	log->torn += n.torn;
	if (rc == -EINTR)
		snprintf(err, errsz, "reading \"%s\": stopped", path);
	else if (rc < 0 && n.lines == 0 && rc != -ENOMEM)
		snprintf(err, errsz, "cannot open \"%s\": %s%s", path, strerror(-rc), hint);
	else if (rc < 0)
		snprintf(err, errsz, "reading \"%s\": %s%s", path, strerror(-rc), hint);
	else
		log->nsources++;
	return rc;
}
