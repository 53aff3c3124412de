/*
 * desk_check.c - games sent back by a worker, read and checked (contract in
 * desk_check.h).
 */
#include "desk_check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "record.h"
#include "replay.h"
#include "replay_find.h"

/* The next line of body from *at: its start and length (no newline); false at the end. */
static bool next_line(const char *body, size_t len, size_t *at, const char **line, size_t *n)
{
	const char *nl;

	if (*at >= len)
		return false;
	*line = body + *at;
	nl = memchr(*line, '\n', len - *at);
	*n = nl ? (size_t)(nl - *line) : len - *at;
	*at += *n + (nl != NULL);
	return true;
}

int desk_check_body(const char *body, size_t len, bool *done, struct desk_sent **sent,
		    int *n, char *err, size_t err_size)
{
	const char *line;
	size_t at = 0, ln;
	cJSON *head = NULL;
	const cJSON *d, *g;
	int games, k;

	*sent = NULL;
	*n = 0;
	if (!next_line(body, len, &at, &line, &ln) ||
	    !(head = cJSON_ParseWithLengthOpts(line, ln, NULL, 0)) || !cJSON_IsObject(head)) {
		cJSON_Delete(head);
		snprintf(err, err_size, "line 1: expected {\"done\": false, \"games\": N}");
		return -EINVAL;
	}
	d = cJSON_GetObjectItemCaseSensitive(head, "done");
	g = cJSON_GetObjectItemCaseSensitive(head, "games");
	if (!cJSON_IsBool(d) || !cJSON_IsNumber(g) || g->valuedouble < 0 ||
	    g->valuedouble > DESK_SENT_MAX || g->valuedouble != (int)g->valuedouble) {
		cJSON_Delete(head);
		snprintf(err, err_size,
			 "line 1: \"done\" must be true or false and \"games\" a count from 0 to %d",
			 DESK_SENT_MAX);
		return -EINVAL;
	}
	*done = cJSON_IsTrue(d);
	games = (int)g->valuedouble;
	cJSON_Delete(head);
	if (games && !(*sent = calloc((size_t)games, sizeof(**sent))))
		return -ENOMEM;
	for (k = 0; k < games; k++) {
		struct desk_sent *s = &(*sent)[k];
		cJSON *rec;
		const char *id;

		if (!next_line(body, len, &at, &s->record, &s->record_len) ||
		    !next_line(body, len, &at, &s->replay, &s->replay_len))
			break;
		/* the id only, to find the game; the strict reading comes with the checks */
		rec = cJSON_ParseWithLengthOpts(s->record, s->record_len, NULL, 0);
		id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "id"));
		if (id && strlen(id) < sizeof(s->id))
			strcpy(s->id, id);
		cJSON_Delete(rec);
	}
	if (k < games || next_line(body, len, &at, &line, &ln)) {
		snprintf(err, err_size, "the body holds %s lines than 1 + 2 x %d games",
			 k < games ? "fewer" : "more", games);
		free(*sent);
		*sent = NULL;
		return -EINVAL;
	}
	*n = games;
	return 0;
}

/* What the referee's re-play of a replay gives, to compare with the record. */
struct replay_seen {
	struct game_rules rules;
	int placings[ENGINE_MAX_PLAYERS];
	int ended;
	int nfaults;
	int fault_seat[RECORD_SEATS_MAX * 4];
	enum protocol_fault_kind fault_kind[RECORD_SEATS_MAX * 4];
};

static void seen_start(void *ctx, int game, const struct game *g)
{
	struct replay_seen *s = ctx;

	if (game <= 1)
		s->rules = *game_rules(g);
}

static void seen_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	struct replay_seen *s = ctx;

	(void)g;
	if (s->nfaults < (int)(sizeof(s->fault_seat) / sizeof(s->fault_seat[0]))) {
		s->fault_seat[s->nfaults] = f->seat;
		s->fault_kind[s->nfaults] = f->kind;
	}
	s->nfaults++;
}

static void seen_end(void *ctx, int game, const struct game *g)
{
	struct replay_seen *s = ctx;
	struct game_result r;

	(void)game;
	game_result(g, &r);
	memcpy(s->placings, r.placing, sizeof(s->placings));
	s->ended++;
}

/* The replay re-played and compared with rec: 0, or 1 with why. */
static int check_replay(const struct config *cfg, const struct schedule_game *g,
			const struct record *rec, const struct desk_sent *s, char *why,
			size_t why_size)
{
	struct replay_seen seen = { 0 };
	struct referee_observer obs = { .ctx = &seen, .game_start = seen_start,
					.fault = seen_fault, .game_end = seen_end };
	char err[512];
	int ret;

	if ((ret = replay_walk(s->replay, s->replay_len, NULL, &obs, NULL, err, sizeof(err))) !=
	    0) {
		snprintf(why, why_size, "the replay fails the referee's re-check: %s", err);
		return 1;
	}
	if (seen.rules.seed != g->seed || seen.rules.players != cfg->players ||
	    seen.rules.stock_size != cfg->stock_size ||
	    !seen.rules.partnership != !cfg->partnership) {
		snprintf(why, why_size, "the replay's deal (seed, players, stock, partnership) is "
			 "not the game's");
		return 1;
	}
	if (!cfg->match && (!seen.ended || memcmp(seen.placings, rec->placings,
						  (size_t)rec->players * sizeof(int)) != 0)) {
		snprintf(why, why_size, "the record's placings are not the replay's");
		return 1;
	}
	if ((size_t)seen.nfaults != rec->nfaults) {
		snprintf(why, why_size, "the record has %zu faults, the replay %d", rec->nfaults,
			 seen.nfaults);
		return 1;
	}
	for (size_t i = 0; i < rec->nfaults && i < sizeof(seen.fault_seat) / sizeof(int); i++)
		if (rec->faults[i].seat != seen.fault_seat[i] || !rec->faults[i].kind ||
		    strcmp(rec->faults[i].kind, protocol_fault_kind_names[seen.fault_kind[i]])) {
			snprintf(why, why_size, "fault %zu of the record is not the replay's", i + 1);
			return 1;
		}
	return 0;
}

/* The record against the game leased: 0, or 1 with why. */
static int check_record(const struct config *cfg, const struct schedule_game *g,
			const struct record *rec, char *why, size_t why_size)
{
	if (!rec->id || strcmp(rec->id, g->id) != 0 || rec->seed != g->seed ||
	    rec->table != g->table || rec->deal != g->deal || rec->rotation != g->rotation) {
		snprintf(why, why_size, "the record's id, seed, table, deal or rotation is not the "
			 "game's (%s, seed %016" PRIx64 ")", g->id, g->seed);
		return 1;
	}
	if (rec->players != cfg->players) {
		snprintf(why, why_size, "the record has %d players, the game %d", rec->players,
			 cfg->players);
		return 1;
	}
	for (int s = 0; s < rec->players; s++)
		if (!rec->bots[s] || strcmp(rec->bots[s], cfg->bots[g->bots[s]].name) != 0) {
			snprintf(why, why_size, "seat %d of the record is not \"%s\"", s,
				 cfg->bots[g->bots[s]].name);
			return 1;
		}
	return 0;
}

int desk_check_game(const struct config *cfg, const struct schedule_game *g,
		    const struct desk_sent *s, bool replay, struct committed_game *cg,
		    cJSON **tree, char *why, size_t why_size)
{
	struct record_reader rd;
	struct record rec;
	char id[SCHEDULE_ID_MAX];
	int ret;

	*tree = NULL;
	record_reader_init(&rd);
	if ((ret = record_parse(&rd, s->record, s->record_len, RECORD_FULL, &rec)) < 0) {
		if (ret == -EBADMSG)
			snprintf(why, why_size, "the record is not whole: %s", rd.why);
		goto out;
	}
	if ((ret = check_record(cfg, g, &rec, why, why_size)))
		goto out;
	if (replay_document_id(s->replay, s->replay_len, id, sizeof(id)) < 0 ||
	    strcmp(id, g->id) != 0) {
		snprintf(why, why_size, "the replay is not the game's (\"id\" %s expected)", g->id);
		ret = 1;
		goto out;
	}
	if (replay && (ret = check_replay(cfg, g, &rec, s, why, why_size)))
		goto out;
	memset(cg, 0, sizeof(*cg));
	cg->game = *g;
	cg->players = rec.players;
	cg->faults = (int)rec.nfaults;
	memcpy(cg->placings, rec.placings, (size_t)rec.players * sizeof(int));
	for (size_t i = 0; i < rec.nfaults; i++)
		if (rec.faults[i].kind && strcmp(rec.faults[i].kind, "start") == 0)
			cg->start_faulted |= 1u << rec.faults[i].seat;
	ret = (*tree = cJSON_ParseWithLengthOpts(s->record, s->record_len, NULL, 0)) ? 0 : -ENOMEM;
out:
	if (ret == -EBADMSG)
		ret = 1;
	record_reader_release(&rd);
	return ret;
}

/* One step of a play: a decision (fault -1) or a seat's removal. */
struct play_step {
	int game, seat, fault;
	struct move move;
};

struct play_trace {
	struct play_step *steps;
	size_t n, cap;
	int game, placings[ENGINE_MAX_PLAYERS];
	bool failed;                 /* no memory */
};

static void trace_add(struct play_trace *t, int seat, int fault, const struct move *m)
{
	struct play_step *s;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;

		if (!(s = reallocarray(t->steps, cap, sizeof(*s)))) {
			t->failed = true;
			return;
		}
		t->steps = s;
		t->cap = cap;
	}
	t->steps[t->n++] = (struct play_step){ t->game, seat, fault, m ? *m : (struct move){ 0 } };
}

static void trace_start(void *ctx, int game, const struct game *g)
{
	(void)g;
	((struct play_trace *)ctx)->game = game;
}

static void trace_move(void *ctx, int seat, const struct move *m, int64_t elapsed_us,
		       const struct game *g)
{
	(void)elapsed_us;
	(void)g;
	trace_add(ctx, seat, -1, m);
}

static void trace_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	(void)g;
	trace_add(ctx, f->seat, (int)f->kind, NULL);
}

static void trace_end(void *ctx, int game, const struct game *g)
{
	struct play_trace *t = ctx;
	struct game_result r;

	(void)game;
	game_result(g, &r);
	/* a match's last game's placings; each game's moves are in the steps */
	memcpy(t->placings, r.placing, sizeof(r.placing));
}

static int trace_of(const char *doc, size_t len, struct play_trace *t, const char *which,
		    char *why, size_t why_size)
{
	struct referee_observer obs = { .ctx = t, .game_start = trace_start, .move = trace_move,
					.fault = trace_fault, .game_end = trace_end };
	char err[512];

	if (replay_walk(doc, len, NULL, &obs, NULL, err, sizeof(err)) != 0) {
		snprintf(why, why_size, "the %s replay fails the referee's re-check: %s", which, err);
		return -EBADMSG;
	}
	return t->failed ? -ENOMEM : 0;
}

int desk_check_same_play(const char *a, size_t alen, const char *b, size_t blen, char *why,
			 size_t why_size)
{
	struct play_trace ta = { 0 }, tb = { 0 };
	int ret;

	if ((ret = trace_of(a, alen, &ta, "first", why, why_size)) < 0 ||
	    (ret = trace_of(b, blen, &tb, "second", why, why_size)) < 0)
		goto out;
	ret = ta.n == tb.n && memcmp(ta.placings, tb.placings, sizeof(ta.placings)) == 0;
	for (size_t i = 0; ret && i < ta.n; i++) {
		const struct play_step *x = &ta.steps[i], *y = &tb.steps[i];

		ret = x->game == y->game && x->seat == y->seat && x->fault == y->fault &&
		      (x->fault >= 0 || move_equal(&x->move, &y->move));
	}
out:
	free(ta.steps);
	free(tb.steps);
	return ret;
}
