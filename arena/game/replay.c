/*
 * replay.c - re-checking replay documents, and walking them for an observer
 * (contract in replay.h); replay_write.c writes them.
 */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine.h"
#include "json_strict.h"
#include "replay_kinds.h"
#include "termsafe.h"

struct checker {
	char *err;
	size_t err_size;
	FILE *print;
	const struct referee_observer *obs;
	struct replay_seats *seats;
	const cJSON *faults;   /* the document's "faults", for what the observer is told */
	const char *names[ENGINE_MAX_PLAYERS];
	int players;
	int game_no;     /* 1-based */
	size_t event_no; /* 1-based within the game */
	char why[JSON_STRICT_MESSAGE_MAX]; /* what the last reader refused */
};

static int mismatch(struct checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int mismatch(struct checker *c, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->event_no)
		snprintf(c->err, c->err_size, "game %d, event %zu: %s", c->game_no, c->event_no, msg);
	else
		snprintf(c->err, c->err_size, "game %d: %s", c->game_no, msg);
	return 1;
}

/*
 * Every number of a replay goes through the strict reader (json_strict.h): an
 * integer written as one, in [min, max]. -1 with c->why naming the field and
 * what was found. flags: JSON_STRICT_NULLABLE lets null through (returns 1).
 */
static int read_int(struct checker *c, const cJSON *item, const char *prefix, const char *name,
		    int min, int max, unsigned flags, int *out)
{
	struct json_strict_error e;
	int64_t v;
	int ret = json_strict_int(item, prefix, name, min, max, flags, &v, &e);

	if (ret < 0) {
		snprintf(c->why, sizeof(c->why), "%s", e.message);
		return -1;
	}
	if (ret == 0)
		*out = (int)v;
	return ret;
}

static int json_int(struct checker *c, const cJSON *obj, const char *key, int min, int max,
		    int *out)
{
	return read_int(c, cJSON_GetObjectItemCaseSensitive(obj, key), NULL, key, min, max, 0, out);
}

/* A card, or null for "none". */
static int json_card(struct checker *c, const cJSON *obj, const char *key, int *out)
{
	int ret = read_int(c, cJSON_GetObjectItemCaseSensitive(obj, key), NULL, key, 0, 12,
			   JSON_STRICT_NULLABLE, out);

	if (ret == 1)
		*out = CARD_NONE;
	return ret < 0 ? -1 : 0;
}

/* A seed: a decimal string of at most 64 bits, as replays write it. -1 with c->why. */
static int json_seed(struct checker *c, const cJSON *obj, uint64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "seed");
	const char *s = cJSON_IsString(v) ? v->valuestring : "";
	char *end;

	errno = 0;
	if (*s >= '0' && *s <= '9' && strlen(s) <= 20) {
		*out = strtoull(s, &end, 10);
		if (!*end && errno == 0)
			return 0;
	}
	snprintf(c->why, sizeof(c->why), "seed: expected a decimal string up to "
		 "18446744073709551615");
	return -1;
}

static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 1; s && i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static const char *json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A recorded event into the engine's struct event. 0, or -1 with c->why. */
static int parse_event(struct checker *c, const cJSON *j, struct event *ev)
{
	const char *type = json_str(j, "type");
	int kind = -1, v = 0;

	memset(ev, 0, sizeof(*ev));
	for (int k = 1; type && k < REPLAY_KINDS; k++)
		if (replay_kinds[k].name && strcmp(type, replay_kinds[k].name) == 0)
			kind = k;
	if (kind < 0) {
		snprintf(c->why, sizeof(c->why), "unknown or missing \"type\"");
		return -1;
	}
	ev->kind = (uint8_t)kind;
	switch (read_int(c, cJSON_GetObjectItemCaseSensitive(j, "seat"), NULL, "seat", 0,
			 ENGINE_MAX_PLAYERS - 1, JSON_STRICT_NULLABLE, &v)) {
	case 0:
		ev->seat = (uint8_t)v;
		break;
	case 1:
		ev->seat = 0xff;
		break;
	default:
		return -1;
	}
	snprintf(c->why, sizeof(c->why), "a field is missing or out of range");
	switch (kind) {
	case EVENT_TURN:
		if (json_int(c, j, "turn", 0, 1 << 30, &v) < 0)
			return -1;
		ev->turn = (uint32_t)v;
		break;
	case EVENT_DRAW:
		if (json_card(c, j, "card", &v) < 0)
			return -1;
		ev->card = (uint8_t)v;
		break;
	case EVENT_PLAY:
		if ((v = name_index(json_str(j, "from"), replay_source_names, 4)) < 0)
			return -1;
		ev->source = (uint8_t)v;
		if (json_int(c, j, "owner", 0, ENGINE_MAX_PLAYERS - 1, &v) < 0)
			return -1;
		ev->owner = (uint8_t)v;
		if (ev->source == SOURCE_DISCARD) {
			if (json_int(c, j, "pile", 0, ENGINE_DISCARD_PILES - 1, &v) < 0)
				return -1;
			ev->pile = (uint8_t)v;
		}
		if (json_int(c, j, "card", 0, 12, &v) < 0)
			return -1;
		ev->card = (uint8_t)v;
		if (json_int(c, j, "value", 1, 12, &v) < 0)
			return -1;
		ev->value = (uint8_t)v;
		if (json_int(c, j, "to", 0, ENGINE_BUILDING_PILES - 1, &v) < 0)
			return -1;
		ev->target = (uint8_t)v;
		break;
	case EVENT_STOCK_TOP:
		if (json_int(c, j, "owner", 0, ENGINE_MAX_PLAYERS - 1, &v) < 0)
			return -1;
		ev->owner = (uint8_t)v;
		if (json_card(c, j, "card", &v) < 0)
			return -1;
		ev->card = (uint8_t)v;
		break;
	case EVENT_COMPLETE:
		if (json_int(c, j, "pile", 0, ENGINE_BUILDING_PILES - 1, &v) < 0)
			return -1;
		ev->target = (uint8_t)v;
		break;
	case EVENT_DISCARD:
		if (json_int(c, j, "card", 0, 12, &v) < 0)
			return -1;
		ev->card = (uint8_t)v;
		if (json_int(c, j, "pile", 0, ENGINE_DISCARD_PILES - 1, &v) < 0)
			return -1;
		ev->target = (uint8_t)v;
		break;
	case EVENT_REFILL:
		if ((v = name_index(json_str(j, "source"), replay_refill_names, 3)) < 0)
			return -1;
		ev->source = (uint8_t)v;
		if (json_int(c, j, "count", 0, ENGINE_DECK_SIZE, &v) < 0)
			return -1;
		ev->count = (uint16_t)v;
		break;
	case EVENT_END:
		for (v = 1; v <= END_FORFEIT; v++)
			if (json_str(j, "reason") && !strcmp(json_str(j, "reason"), end_reason_name(v)))
				break;
		if (v > END_FORFEIT)
			return -1;
		ev->value = (uint8_t)v;
		break;
	}
	return 0;
}

/* The first field in which a and b differ, or NULL. */
static const char *event_differs(const struct event *a, const struct event *b)
{
	unsigned f;

	if (a->kind != b->kind)
		return "type";
	f = replay_kinds[a->kind].fields;
	if (a->seat != b->seat)
		return "seat";
	if ((f & F_TURN) && a->turn != b->turn)
		return "turn";
	if ((f & F_SOURCE) && a->source != b->source)
		return a->kind == EVENT_PLAY ? "from" : "source";
	if ((f & F_OWNER) && a->owner != b->owner)
		return "owner";
	if ((f & F_PILE) && a->source == SOURCE_DISCARD && a->pile != b->pile)
		return "pile";
	if ((f & F_CARD) && a->card != b->card)
		return "card";
	if ((f & F_TARGET) && a->target != b->target)
		return a->kind == EVENT_PLAY ? "to" : "pile";
	if ((f & F_VALUE) && a->value != b->value)
		return a->kind == EVENT_END ? "reason" : "value";
	if ((f & F_COUNT) && a->count != b->count)
		return "count";
	return NULL;
}

static const char *card_text(int card, char *buf)
{
	if (card == CARD_SKIPBO)
		return "SB";
	if (card == CARD_NONE)
		return "-";
	sprintf(buf, "%d", card);
	return buf;
}

/* A decision's recorded time in µs, -1 when it has none. */
static int64_t recorded_us(const cJSON *j)
{
	int64_t us;

	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(j, "us"), NULL, "us", 0, UINT32_MAX,
			    0, &us, NULL) < 0)
		return -1;
	return us;
}

static void print_event(struct checker *c, const struct event *ev, const cJSON *j)
{
	char b1[8], t[32] = "", who[REPLAY_NAME_SHOWN], fault[REPLAY_NAME_SHOWN];
	int64_t us = recorded_us(j);
	FILE *f = c->print;

	/* names and fault kinds come from the file: escaped for the terminal */
	termsafe_copy(who, sizeof(who), ev->seat < c->players ? c->names[ev->seat] : "");
	termsafe_copy(fault, sizeof(fault), json_str(j, "fault") ? json_str(j, "fault") : "fault");
	if (us >= 0)
		snprintf(t, sizeof(t), "  (%" PRId64 " us)", us);
	switch (ev->kind) {
	case EVENT_TURN:
		fprintf(f, "turn %" PRIu32 ": seat %d (%s)\n", ev->turn, ev->seat, who);
		break;
	case EVENT_DRAW:
		fprintf(f, "  seat %d draws %s\n", ev->seat, card_text(ev->card, b1));
		break;
	case EVENT_PLAY:
		fprintf(f, "  plays %s from %s", card_text(ev->card, b1), replay_source_names[ev->source]);
		if (ev->source != SOURCE_HAND)
			fprintf(f, " of seat %d", ev->owner);
		if (ev->source == SOURCE_DISCARD)
			fprintf(f, " (pile %d)", ev->pile);
		fprintf(f, " to building %d, now %d%s\n", ev->target, ev->value, t);
		break;
	case EVENT_STOCK_TOP:
		fprintf(f, "  seat %d stock top: %s\n", ev->owner, card_text(ev->card, b1));
		break;
	case EVENT_COMPLETE:
		fprintf(f, "  building %d complete\n", ev->target);
		break;
	case EVENT_DISCARD:
		fprintf(f, "  discards %s on pile %d%s\n", card_text(ev->card, b1), ev->target, t);
		break;
	case EVENT_PASS:
		fprintf(f, "  passes%s\n", t);
		break;
	case EVENT_REFILL:
		fprintf(f, "  draw pile refilled with %d cards from the %s\n", ev->count,
			ev->source == 1 ? "completed heap" : "building piles");
		break;
	case EVENT_REMOVED:
		fprintf(f, "  seat %d (%s) removed: %s\n", ev->seat, who, fault);
		break;
	case EVENT_END:
		fprintf(f, "end of game %d: %s\n", c->game_no, end_reason_name(ev->value));
		break;
	}
}

/* Turn a recorded decision into the legal move it names, or report it illegal. */
static int find_move(struct checker *c, const struct game *g, const struct event *ev,
		     struct move *out)
{
	struct move legal[ENGINE_MAX_MOVES], m = { 0 };
	int n = game_legal_moves(g, legal), code;

	if (ev->seat != game_to_move(g))
		return mismatch(c, "seat %d moves, but it is seat %d's turn", ev->seat,
				game_to_move(g));
	m.kind = ev->kind == EVENT_PLAY ? MOVE_PLAY : ev->kind == EVENT_DISCARD ? MOVE_DISCARD :
		MOVE_PASS;
	m.source = ev->kind == EVENT_PLAY ? ev->source : 0;
	m.owner = ev->owner;
	m.pile = ev->pile;
	m.card = ev->card;
	m.target = ev->target;
	for (int i = 0; i < n; i++) {
		const struct move *l = &legal[i];

		if (l->kind != m.kind || (m.kind != MOVE_PASS && (l->card != m.card ||
		    l->target != m.target)))
			continue;
		if (m.kind == MOVE_PLAY && (l->source != m.source ||
		    (m.source != SOURCE_HAND && l->owner != m.owner) ||
		    (m.source == SOURCE_DISCARD && l->pile != m.pile)))
			continue;
		*out = *l;
		return 0;
	}
	code = game_check_move(g, &m);
	return mismatch(c, "illegal %s by seat %d: %s", replay_kinds[ev->kind].name, ev->seat,
			code ? engine_strerror(code) : "not among the legal moves");
}

static int compare_ints(struct checker *c, const cJSON *obj, const char *key, const int *want,
			int n, const char *what)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key), *v;
	int i = 0;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
		return mismatch(c, "%s \"%s\" should have %d elements", what, key, n);
	cJSON_ArrayForEach(v, a) {
		char where[48];
		int got = 0;

		snprintf(where, sizeof(where), "%s[%d]", key, i);
		if (read_int(c, v, where, NULL, INT32_MIN, INT32_MAX, 0, &got) < 0)
			return mismatch(c, "%s %s", what, c->why);
		if (got != want[i])
			return mismatch(c, "%s \"%s\"[%d] is %d, the engine says %d", what, key, i,
					got, want[i]);
		i++;
	}
	return 0;
}

static int compare_result(struct checker *c, const cJSON *j, const struct game_result *r)
{
	int winners[ENGINE_MAX_PLAYERS], n = 0, v = 0, ret;

	if (!cJSON_IsObject(j))
		return mismatch(c, "no \"result\"");
	for (int s = 0; s < c->players; s++)
		if (r->winners[s])
			winners[n++] = s;
	if ((ret = compare_ints(c, j, "winners", winners, n, "result")) ||
	    (ret = compare_ints(c, j, "placings", r->placing, c->players, "result")) ||
	    (ret = compare_ints(c, j, "stock_left", r->stock_left, c->players, "result")) ||
	    (ret = compare_ints(c, j, "scores", r->score, c->players, "result")))
		return ret;
	if (!json_str(j, "reason") || strcmp(json_str(j, "reason"), end_reason_name(r->reason)))
		return mismatch(c, "result reason is not \"%s\"", end_reason_name(r->reason));
	if (json_int(c, j, "turns", 0, INT32_MAX, &v) < 0 || (uint32_t)v != r->turns ||
	    json_int(c, j, "moves", 0, INT32_MAX, &v) < 0 || (uint32_t)v != r->moves)
		return mismatch(c, "result turns/moves differ (engine: %" PRIu32 " turns, %" PRIu32
				" moves)", r->turns, r->moves);
	return 0;
}

/* The observer's fault callback for seat's removal, from the replay's "faults". */
static int tell_fault(struct checker *c, int seat, const struct game *g)
{
	struct referee_fault f = { .seat = seat, .game = c->game_no };
	const cJSON *jf;
	int kind = -1;

	cJSON_ArrayForEach(jf, c->faults) {
		int s = -1, game = 0;

		if (json_int(c, jf, "seat", 0, ENGINE_MAX_PLAYERS - 1, &s) < 0 || s != seat ||
		    json_int(c, jf, "game", 1, INT32_MAX, &game) < 0 || game > c->game_no)
			continue;
		f.game = game;
		kind = protocol_fault_kind_from_name(json_str(jf, "kind"));
		strlcpy(f.reason, json_str(jf, "reason") ? json_str(jf, "reason") : "",
			sizeof(f.reason));
		break;
	}
	/* the observer is told what removed the seat: a replay must say it */
	if (kind < 0)
		return mismatch(c, "seat %d is removed without a fault of a known kind in \"faults\"",
				seat);
	f.kind = (enum protocol_fault_kind)kind;
	c->obs->fault(c->obs->ctx, &f, g);
	return 0;
}

/* Apply one recorded event (when the engine needs it) and compare it with the engine's. */
static int check_event(struct checker *c, struct game *g, const cJSON *j, size_t *engine_pos)
{
	const struct event *events;
	struct event rec;
	const char *field;
	struct move m = { 0 };
	size_t n;
	int ret;

	if (parse_event(c, j, &rec) < 0)
		return mismatch(c, "unreadable event: %s", c->why);
	events = game_events(g, &n);
	if (*engine_pos == n) {
		if (replay_is_decision(rec.kind)) {
			if ((ret = find_move(c, g, &rec, &m)) != 0)
				return ret;
			if ((ret = game_apply(g, &m)) < 0)
				return mismatch(c, "the engine refuses the move: %s",
						engine_strerror(ret));
		} else if (rec.kind == EVENT_REMOVED) {
			if (rec.seat >= c->players || (ret = game_remove_seat(g, rec.seat)) < 0)
				return mismatch(c, "seat %d cannot be removed", rec.seat);
		} else {
			return mismatch(c, "recorded %s event, but the rules produce no event here",
					replay_kinds[rec.kind].name);
		}
		events = game_events(g, &n);
	}
	if ((field = event_differs(&rec, &events[*engine_pos])) != NULL)
		return mismatch(c, "recorded %s differs from the engine's %s in \"%s\"",
				replay_kinds[rec.kind].name, replay_kinds[events[*engine_pos].kind].name, field);
	(*engine_pos)++;
	if (c->print)
		print_event(c, &rec, j);
	if (c->obs && replay_is_decision(rec.kind) && c->obs->move)
		c->obs->move(c->obs->ctx, rec.seat, &m, recorded_us(j) < 0 ? 0 : recorded_us(j), g);
	else if (c->obs && rec.kind == EVENT_REMOVED && c->obs->fault)
		return tell_fault(c, rec.seat, g);
	return 0;
}

static int check_game(struct checker *c, const cJSON *jg, struct game_rules *rules,
		      struct game_result *res)
{
	const cJSON *deck = cJSON_GetObjectItemCaseSensitive(jg, "deck");
	const cJSON *events = cJSON_GetObjectItemCaseSensitive(jg, "events"), *j;
	uint8_t want[ENGINE_DECK_SIZE];
	struct game *g = NULL;
	uint64_t seed;
	size_t pos = 0, n;
	int v = 0, i = 0, ret, err = 0;

	c->event_no = 0;
	if (json_seed(c, jg, &seed) < 0 || json_int(c, jg, "dealer", 0, c->players - 1, &v) < 0)
		return mismatch(c, "%s", c->why);
	if (seed != rules->seed || v != rules->dealer)
		return mismatch(c, "seed %" PRIu64 " / dealer %d, expected %" PRIu64 " / %d", seed, v,
				rules->seed, rules->dealer);
	if (!(g = game_new(rules, &err)))
		return mismatch(c, "the engine refuses the rules: %s", engine_strerror(err));
	if (json_int(c, jg, "stock_size", 1, 30, &v) < 0 || v != game_rules(g)->stock_size) {
		ret = mismatch(c, "\"stock_size\" differs from the rules");
		goto out;
	}
	game_initial_deck(g, want);
	if (!cJSON_IsArray(deck) || cJSON_GetArraySize(deck) != ENGINE_DECK_SIZE) {
		ret = mismatch(c, "\"deck\" must hold %d cards", ENGINE_DECK_SIZE);
		goto out;
	}
	cJSON_ArrayForEach(j, deck) {
		int card = 0;
		char where[16];

		snprintf(where, sizeof(where), "deck[%d]", i);
		if (read_int(c, j, where, NULL, 0, 12, 0, &card) < 0) {
			ret = mismatch(c, "%s", c->why);
			goto out;
		}
		if (card != want[i]) {
			ret = mismatch(c, "deck card %d differs from the deal of seed %" PRIu64, i,
				       seed);
			goto out;
		}
		i++;
	}
	if (c->print)
		fprintf(c->print, "game %d: seed %" PRIu64 ", dealer %d, stock %d\n", c->game_no,
			seed, rules->dealer, game_rules(g)->stock_size);
	if (c->obs && c->obs->game_start)
		c->obs->game_start(c->obs->ctx, c->game_no, g);
	ret = cJSON_IsArray(events) ? 0 : mismatch(c, "no \"events\" array");
	cJSON_ArrayForEach(j, events) {
		c->event_no++;
		if (ret || (ret = check_event(c, g, j, &pos)) != 0)
			goto out;
	}
	c->event_no = 0;
	game_events(g, &n);
	if (pos != n || game_status(g) == GAME_RUNNING) {
		ret = mismatch(c, "the replay stops before the game ends");
		goto out;
	}
	game_result(g, res);
	ret = compare_result(c, cJSON_GetObjectItemCaseSensitive(jg, "result"), res);
	if (ret == 0 && c->obs && c->obs->game_end)
		c->obs->game_end(c->obs->ctx, c->game_no, g);
out:
	game_free(g);
	return ret;
}

static int check_document(struct checker *c, const cJSON *root)
{
	const cJSON *games = cJSON_GetObjectItemCaseSensitive(root, "games"), *jg, *bots, *b;
	const cJSON *top = cJSON_GetObjectItemCaseSensitive(root, "result");
	struct game_rules rules = { 0 };
	struct match_state ms;
	struct game_result res = { 0 };
	char reason[200];
	int match = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "match")), ret, v;

	bots = cJSON_GetObjectItemCaseSensitive(root, "bots");
	if (json_int(c, root, "players", 2, ENGINE_MAX_PLAYERS, &c->players) < 0 ||
	    !cJSON_IsArray(bots) || cJSON_GetArraySize(bots) != c->players ||
	    !cJSON_IsArray(games) || cJSON_GetArraySize(games) < 1)
		return mismatch(c, "\"players\", \"bots\" or \"games\" missing or inconsistent");
	v = 0;
	cJSON_ArrayForEach(b, bots) {
		c->names[v] = cJSON_IsString(b) ? b->valuestring : "?";
		if (c->seats)
			termsafe_copy(c->seats->names[v], sizeof(c->seats->names[v]), c->names[v]);
		v++;
	}
	if (c->seats)
		c->seats->players = c->players;
	c->faults = cJSON_GetObjectItemCaseSensitive(root, "faults");
	rules.players = c->players;
	rules.partnership = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "partnership"));
	if (json_int(c, root, "stock_size", 1, 30, &rules.stock_size) < 0 ||
	    json_int(c, root, "dealer", 0, c->players - 1, &rules.dealer) < 0 ||
	    json_seed(c, root, &rules.seed) < 0)
		return mismatch(c, "%s", c->why);
	if ((match ? match_init(&ms, &rules, reason, sizeof(reason)) :
	     game_rules_check(&rules, reason, sizeof(reason))) < 0)
		return mismatch(c, "impossible rules: %s", reason);
	cJSON_ArrayForEach(jg, games) {
		c->game_no++;
		if (match)
			rules = ms.rules;
		if ((ret = check_game(c, jg, &rules, &res)) != 0)
			return ret;
		if (match && match_record(&ms, &res) < 0)
			return mismatch(c, "the match was already decided");
	}
	c->game_no = 0;
	if (!match)
		return compare_result(c, top, &res);
	if ((ret = compare_ints(c, top, "scores", ms.total, c->players, "match")) != 0)
		return ret;
	return ms.over ? 0 : mismatch(c, "the match ends before a side reaches %d", MATCH_TARGET);
}

int replay_check(const char *text, size_t len, FILE *print, char *err, size_t err_size)
{
	return replay_walk(text, len, print, NULL, NULL, err, err_size);
}

int replay_walk(const char *text, size_t len, FILE *print, const struct referee_observer *obs,
		struct replay_seats *seats, char *err, size_t err_size)
{
	struct checker c = { .err = err, .err_size = err_size, .print = print, .obs = obs,
		.seats = seats };
	struct json_strict_error e;
	const char *format;
	cJSON *root = NULL;
	int version = 0, ret;

	/* strict: a key twice or a number out of its type is refused, never guessed at */
	if ((ret = json_strict_parse(text, len, &root, &e)) < 0) {
		if (ret == JSON_STRICT_ENOMEM)
			snprintf(err, err_size, "out of memory");
		else
			snprintf(err, err_size, "not a replay: line %lu, column %lu: %s", e.line,
				 e.column, e.message);
		ret = ret == JSON_STRICT_ENOMEM ? -ENOMEM : -EINVAL;
		goto out;
	}
	format = json_str(root, "format");
	if (!cJSON_IsObject(root) || !format || strcmp(format, REPLAY_FORMAT) ||
	    json_int(&c, root, "version", 1, 1000, &version) < 0) {
		snprintf(err, err_size, "not a replay (no \"format\":\"%s\" object)", REPLAY_FORMAT);
		ret = -EINVAL;
		goto out;
	}
	if (version != REPLAY_VERSION) {
		snprintf(err, err_size, "replay version %d; this program reads version %d", version,
			 REPLAY_VERSION);
		ret = -EINVAL;
		goto out;
	}
	ret = check_document(&c, root);
out:
	cJSON_Delete(root);
	return ret;
}

