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
#include "replay_pack.h"

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

/* The head line: done, the games and the frame's size; false when it is not one. */
static bool read_head(const char *line, size_t len, struct desk_body *b, int *games,
		      size_t *frame_len)
{
	cJSON *head = cJSON_ParseWithLengthOpts(line, len, NULL, 0);
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(head, "done");
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(head, "games");
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(head, "replays");
	bool ok = cJSON_IsObject(head) && cJSON_IsBool(d) && cJSON_IsNumber(g) &&
		  g->valuedouble >= 0 && g->valuedouble <= DESK_SENT_MAX &&
		  g->valuedouble == (int)g->valuedouble && cJSON_IsNumber(r) &&
		  r->valuedouble >= 0 && r->valuedouble <= (double)DESK_REPLAYS_MAX &&
		  r->valuedouble == (double)(size_t)r->valuedouble;

	if (ok) {
		b->done = cJSON_IsTrue(d);
		*games = (int)g->valuedouble;
		*frame_len = (size_t)r->valuedouble;
	}
	cJSON_Delete(head);
	return ok;
}

int desk_check_body(const char *body, size_t len, struct desk_body *b, char *err,
		    size_t err_size)
{
	const char *line;
	size_t at = 0, ln, frame_len, docs_at = 0;
	int games, k, ret;

	memset(b, 0, sizeof(*b));
	if (!next_line(body, len, &at, &line, &ln) || !read_head(line, ln, b, &games, &frame_len)) {
		snprintf(err, err_size, "line 1: expected {\"done\": false, \"games\": N, "
			 "\"replays\": BYTES}, \"games\" a count from 0 to %d", DESK_SENT_MAX);
		return -EINVAL;
	}
	if (games && !(b->sent = calloc((size_t)games, sizeof(*b->sent))))
		return -ENOMEM;
	for (k = 0; k < games && at < len; k++)
		next_line(body, len, &at, &b->sent[k].record, &b->sent[k].record_len);
	if (k < games || len - at != frame_len || (games == 0) != (frame_len == 0)) {
		snprintf(err, err_size, "the body holds %d records and %zu bytes after them, not "
			 "%d records and a frame of %zu bytes", k, len - at, games, frame_len);
		ret = -EINVAL;
		goto fail;
	}
	b->frame = body + at;
	b->frame_len = frame_len;
	if (games && (ret = replay_pack_frame_read(b->frame, frame_len, DESK_REPLAYS_MAX,
						   &b->docs, &b->docs_len)) < 0) {
		if (ret == -ENOMEM)
			goto fail;
		snprintf(err, err_size, "the replays are not one zstd frame of at most %zu bytes "
			 "decompressed (%s)", (size_t)DESK_REPLAYS_MAX, strerror(-ret));
		ret = -EINVAL;
		goto fail;
	}
	for (k = 0; k < games; k++) {
		struct desk_sent *s = &b->sent[k];

		/* a replay's every line ends with its newline, which the pack keeps */
		if (!next_line(b->docs, b->docs_len, &docs_at, &s->replay, &s->replay_len) ||
		    docs_at > b->docs_len || b->docs[docs_at - 1] != '\n')
			break;
		/* the id from the replay's head, to find the game: the record is read with the
		 * checks, which compare both with the game's */
		if (replay_document_id(s->replay, s->replay_len, s->id, sizeof(s->id)) < 0)
			s->id[0] = '\0';
	}
	if (k < games || docs_at != b->docs_len) {
		snprintf(err, err_size, "the replays' frame holds %s lines than the %d records",
			 k < games ? "fewer" : "more", games);
		ret = -EINVAL;
		goto fail;
	}
	b->n = games;
	return 0;
fail:
	desk_body_release(b);
	return ret;
}

int desk_record_id(const struct desk_sent *s, char *id, size_t size)
{
	struct record_reader rd;
	struct record rec;
	int ret;

	record_reader_init(&rd);
	ret = record_parse(&rd, s->record, s->record_len, RECORD_KEYS, &rec);
	if (ret == 0 && snprintf(id, size, "%s", rec.id) >= (int)size)
		ret = -ENAMETOOLONG;
	record_reader_release(&rd);
	return ret;
}

void desk_body_release(struct desk_body *b)
{
	free(b->sent);
	free(b->docs);
	memset(b, 0, sizeof(*b));
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
		    const struct desk_sent *s, bool replay, struct committed_game *cg, char *why,
		    size_t why_size)
{
	struct record_reader rd;
	struct record rec;
	int ret;

	record_reader_init(&rd);
	if ((ret = record_parse(&rd, s->record, s->record_len, RECORD_FULL, &rec)) < 0) {
		if (ret == -EBADMSG)
			snprintf(why, why_size, "the record is not whole: %s", rd.why);
		goto out;
	}
	if ((ret = check_record(cfg, g, &rec, why, why_size)))
		goto out;
	if (strcmp(s->id, g->id) != 0) {
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
	ret = 0;
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
