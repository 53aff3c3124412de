/*
 * protocol_parse.c - the bot's side: any arena line into plain C structs,
 * and line I/O on stdio. The checks are as strict as the arena's, so a bot
 * built on this library notices a broken arena (or a broken test harness)
 * instead of playing on garbage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol_json.h"
#include "protocol_text.h"

#define PATH_MAX_LEN 64

void protocol_message_init(struct protocol_message *m)
{
	memset(m, 0, sizeof(*m));
}

void protocol_message_release(struct protocol_message *m)
{
	free(m->request.events);
	protocol_message_init(m);
}

static int parse_hello(const cJSON *root, struct protocol_arena_hello *h, struct protocol_diag *diag)
{
	const char *s;
	long v;
	int rc;

	if ((rc = json_int(root, "", "protocol", 0, 1000000, 1, &v, diag)))
		return rc;
	h->protocol = (int)v;
	rc = json_string(root, "", "arena", 0, &s, diag);
	if (rc < 0)
		return rc;
	json_copy_cut(h->arena, rc == 0 ? s : "", sizeof(h->arena));
	return 0;
}

static int parse_game_start(const cJSON *root, struct protocol_game_start *gs,
			    struct protocol_diag *diag)
{
	const cJSON *names, *teams, *rules, *time, *item, *member;
	char where[PATH_MAX_LEN + 32];
	long v;
	int rc, n, t;

	memset(gs, 0, sizeof(*gs));
	if ((rc = json_copy_string(root, "", "game", 1, gs->game, sizeof(gs->game), diag)) ||
	    (rc = json_int(root, "", "players", 2, ENGINE_MAX_PLAYERS, 1, &v, diag)))
		return rc;
	n = gs->players = (int)v;
	if ((rc = json_int(root, "", "seat", 0, n - 1, 1, &v, diag)))
		return rc;
	gs->seat = (int)v;
	if ((rc = json_bool(root, "", "partnership", 1, &gs->partnership, diag)) ||
	    (rc = json_array(root, "", "names", 1, &names, diag)) ||
	    (rc = json_array(root, "", "teams", 1, &teams, diag)))
		return rc;
	if (cJSON_GetArraySize(names) != n)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"names\" must have %d elements", n);
	for (int s = 0; s < n; s++) {
		item = cJSON_GetArrayItem(names, s);
		if (!cJSON_IsString(item) || !item->valuestring)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"names[%d]\" must be a string, got %s",
					 s, json_type_name(item));
		json_copy_cut(gs->names[s], item->valuestring, sizeof(gs->names[s]));
	}
	for (int s = 0; s < n; s++)
		gs->team[s] = -1;
	t = 0;
	cJSON_ArrayForEach(item, teams) {
		if (!cJSON_IsArray(item) || t >= n)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"teams[%d]\" must be an array of seats", t);
		cJSON_ArrayForEach(member, item) {
			snprintf(where, sizeof(where), "teams[%d][]", t);
			if ((rc = json_elem_int(member, where, 0, n - 1, 0, &v, diag)))
				return rc;
			if (gs->team[v] >= 0)
				return json_fail(diag, PROTOCOL_EFIELD, 0, "seat %ld is in two teams", v);
			gs->team[v] = t;
		}
		t++;
	}
	gs->teams = t;
	for (int s = 0; s < n; s++)
		if (gs->team[s] < 0)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "seat %d is in no team", s);
	rc = json_int(root, "", "partner", 0, n - 1, 0, &v, diag);
	if (rc < 0)
		return rc;
	gs->partner = rc == 0 ? (int)v : -1;
	if ((rc = json_object(root, "", "rules", 1, &rules, diag)) ||
	    (rc = json_int(rules, "rules.", "stock_size", 1, 30, 1, &v, diag)))
		return rc;
	gs->stock_size = (int)v;
	if ((rc = json_object(root, "", "time", 1, &time, diag)) ||
	    (rc = json_int(time, "time.", "move_ms", 0, INT32_MAX, 1, &v, diag)))
		return rc;
	gs->move_ms = (int)v;
	if ((rc = json_int(time, "time.", "game_ms", 0, INT32_MAX, 1, &v, diag)))
		return rc;
	gs->game_ms = (int)v;
	return 0;
}

/* An array of cards (0..12) of at most max elements into out; *n its length. */
static int card_array(const cJSON *arr, const char *where, int max, uint8_t *out, int *n,
		      struct protocol_diag *diag)
{
	const cJSON *item;
	long v;
	int k = 0, rc;

	cJSON_ArrayForEach(item, arr) {
		if (k == max)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" has more than %d cards", where, max);
		if ((rc = json_elem_int(item, where, CARD_SKIPBO, 12, 0, &v, diag)))
			return rc;
		out[k++] = (uint8_t)v;
	}
	*n = k;
	return 0;
}

static int parse_player(const cJSON *p, int s, struct seat_view *v, struct protocol_diag *diag)
{
	char prefix[PATH_MAX_LEN], where[PATH_MAX_LEN + 32];
	const cJSON *discards, *item, *pile;
	long x;
	int rc, k = 0;

	snprintf(prefix, sizeof(prefix), "view.players[%d].", s);
	if (!cJSON_IsObject(p))
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.players[%d]\" must be an object", s);
	if ((rc = json_int(p, prefix, "seat", s, s, 1, &x, diag)) ||
	    (rc = json_int(p, prefix, "stock_size", 0, 30, 1, &x, diag)))
		return rc;
	v->stock_size[s] = (int)x;
	item = cJSON_GetObjectItemCaseSensitive(p, "stock_top");
	if (!item)
		return json_fail(diag, PROTOCOL_EMISSING, 0, "missing field \"%sstock_top\"", prefix);
	snprintf(where, sizeof(where), "%sstock_top", prefix);
	if ((rc = json_elem_int(item, where, CARD_SKIPBO, 12, 1, &x, diag)))
		return rc;
	v->stock_top[s] = x < 0 ? CARD_NONE : (uint8_t)x;
	if ((rc = json_int(p, prefix, "hand_size", 0, ENGINE_HAND_SIZE, 1, &x, diag)))
		return rc;
	v->others_hand_size[s] = (int)x;
	if ((rc = json_bool(p, prefix, "removed", 1, &v->removed[s], diag)) ||
	    (rc = json_array(p, prefix, "discards", 1, &discards, diag)))
		return rc;
	if (cJSON_GetArraySize(discards) != ENGINE_DISCARD_PILES)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%sdiscards\" must hold %d piles", prefix,
				 ENGINE_DISCARD_PILES);
	cJSON_ArrayForEach(pile, discards) {
		snprintf(where, sizeof(where), "%sdiscards[%d]", prefix, k);
		if (!cJSON_IsArray(pile))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" must be an array", where);
		if ((rc = card_array(pile, where, ENGINE_DECK_SIZE, v->discard[s][k],
				     &v->discard_size[s][k], diag)))
			return rc;
		k++;
	}
	return 0;
}

static int parse_view(const cJSON *view, uint32_t turn, struct seat_view *v,
		      struct protocol_diag *diag)
{
	const cJSON *hand, *players, *building, *item;
	long x;
	int rc, n, k = 0;

	memset(v, 0, sizeof(*v));
	v->turn = turn;
	if ((rc = json_array(view, "view.", "players", 1, &players, diag)))
		return rc;
	n = cJSON_GetArraySize(players);
	if (n < 2 || n > ENGINE_MAX_PLAYERS)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.players\" must hold 2 to 6 players, not %d", n);
	v->players = n;
	if ((rc = json_int(view, "view.", "seat", 0, n - 1, 1, &x, diag)))
		return rc;
	v->seat = (int)x;
	if ((rc = json_int(view, "view.", "to_move", 0, n - 1, 1, &x, diag)))
		return rc;
	v->to_move = (int)x;
	rc = json_int(view, "view.", "partner", 0, n - 1, 0, &x, diag);
	if (rc < 0)
		return rc;
	v->partner = rc == 0 ? (int)x : -1;
	v->partnership = v->partner >= 0;
	if ((rc = json_array(view, "view.", "hand", 1, &hand, diag)) ||
	    (rc = card_array(hand, "view.hand", ENGINE_HAND_SIZE, v->hand, &v->hand_size, diag)))
		return rc;
	cJSON_ArrayForEach(item, players) {
		if ((rc = parse_player(item, k, v, diag)))
			return rc;
		k++;
	}
	for (int s = n; s < ENGINE_MAX_PLAYERS; s++)
		v->stock_top[s] = CARD_NONE;
	if ((rc = json_array(view, "view.", "building", 1, &building, diag)))
		return rc;
	if (cJSON_GetArraySize(building) != ENGINE_BUILDING_PILES)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.building\" must hold %d piles",
				 ENGINE_BUILDING_PILES);
	k = 0;
	cJSON_ArrayForEach(item, building) {
		char prefix[PATH_MAX_LEN];

		snprintf(prefix, sizeof(prefix), "view.building[%d].", k);
		if (!cJSON_IsObject(item))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.building[%d]\" must be an object", k);
		if ((rc = json_int(item, prefix, "value", 0, 12, 1, &x, diag)))
			return rc;
		v->building_value[k] = (int)x;
		if ((rc = json_int(item, prefix, "size", 0, ENGINE_DECK_SIZE, 1, &x, diag)))
			return rc;
		v->building_size[k] = (int)x;
		k++;
	}
	if ((rc = json_int(view, "view.", "draw_pile", 0, ENGINE_DECK_SIZE, 1, &x, diag)))
		return rc;
	v->draw_size = (int)x;
	if ((rc = json_int(view, "view.", "completed", 0, ENGINE_DECK_SIZE, 1, &x, diag)))
		return rc;
	v->completed_size = (int)x;
	return 0;
}

/* Room for n more events in m->request.events. */
static int events_reserve(struct protocol_message *m, size_t n)
{
	struct protocol_request *r = &m->request;
	size_t cap = m->events_cap ? m->events_cap : 64;
	struct event *grown;

	if (r->n_events + n <= m->events_cap)
		return 0;
	while (cap < r->n_events + n)
		cap *= 2;
	grown = reallocarray(r->events, cap, sizeof(*grown));
	if (!grown)
		return PROTOCOL_ENOMEM;
	r->events = grown;
	m->events_cap = cap;
	return 0;
}

static const char *const event_names[] = {
	[EVENT_TURN] = "turn",
	[EVENT_DRAW] = "draw",
	[EVENT_PLAY] = "play",
	[EVENT_STOCK_TOP] = "stock_top",
	[EVENT_COMPLETE] = "complete",
	[EVENT_DISCARD] = "discard",
	[EVENT_PASS] = "pass",
	[EVENT_REFILL] = "refill",
	[EVENT_REMOVED] = "removed",
};

static int event_kind(const char *type)
{
	for (int k = EVENT_TURN; k <= EVENT_REMOVED; k++)
		if (strcmp(type, event_names[k]) == 0)
			return k;
	return -1;
}

/* A "draw": count events, one per card, as event_for_seat() would show them. */
static int parse_draw(const cJSON *ev, const char *prefix, int seat, uint32_t turn,
		      struct protocol_message *m, struct protocol_diag *diag)
{
	struct protocol_request *r = &m->request;
	const cJSON *cards = NULL, *item;
	char where[PATH_MAX_LEN + 32];
	long count, card;
	int rc, k = 0;

	if ((rc = json_int(ev, prefix, "count", 1, ENGINE_DECK_SIZE, 1, &count, diag)))
		return rc;
	rc = json_array(ev, prefix, "cards", 0, &cards, diag);
	if (rc < 0)
		return rc;
	if (cards && cJSON_GetArraySize(cards) != count)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%scards\" must hold \"count\" (%ld) cards",
				 prefix, count);
	if ((rc = events_reserve(m, (size_t)count)))
		return rc;
	for (long i = 0; i < count; i++) {
		struct event *e = &r->events[r->n_events + (size_t)i];

		memset(e, 0, sizeof(*e));
		e->kind = EVENT_DRAW;
		e->seat = e->owner = (uint8_t)seat;
		e->card = CARD_NONE;
		e->count = 1;
		e->turn = turn;
	}
	if (cards) {
		snprintf(where, sizeof(where), "%scards[]", prefix);
		cJSON_ArrayForEach(item, cards) {
			if ((rc = json_elem_int(item, where, CARD_SKIPBO, 12, 0, &card, diag)))
				return rc;
			r->events[r->n_events + (size_t)k++].card = (uint8_t)card;
		}
	}
	r->n_events += (size_t)count;
	return 0;
}

/* The fields of one event other than a draw into e (zeroed, card CARD_NONE). */
static int parse_event_fields(const cJSON *ev, const char *prefix, int kind, int players,
			      struct event *e, struct protocol_request *r, struct protocol_diag *diag)
{
	const char *s;
	char safe[JSON_SAFE_MAX];
	long v;
	int rc;

	switch (kind) {
	case EVENT_PLAY:
		if ((rc = json_string(ev, prefix, "from", 1, &s, diag)))
			return rc;
		rc = text_source_parse(s);
		if (rc < 0)
			return json_fail(diag, PROTOCOL_EVALUE, 0,
					 "unknown value \"%s\" for \"%sfrom\"; valid: \"hand\", \"stock\", \"discard\"",
					 json_safe(s, safe), prefix);
		e->source = (uint8_t)rc;
		if ((rc = json_int(ev, prefix, "owner", 0, players - 1, 1, &v, diag)))
			return rc;
		e->owner = (uint8_t)v;
		if (e->source == SOURCE_DISCARD &&
		    (rc = json_int(ev, prefix, "pile", 0, ENGINE_DISCARD_PILES - 1, 1, &v, diag)))
			return rc;
		e->pile = e->source == SOURCE_DISCARD ? (uint8_t)v : 0;
		if ((rc = json_int(ev, prefix, "card", CARD_SKIPBO, 12, 1, &v, diag)))
			return rc;
		e->card = (uint8_t)v;
		if ((rc = json_int(ev, prefix, "value", 1, 12, 1, &v, diag)))
			return rc;
		e->value = (uint8_t)v;
		if ((rc = json_int(ev, prefix, "to", 0, ENGINE_BUILDING_PILES - 1, 1, &v, diag)))
			return rc;
		e->target = (uint8_t)v;
		return 0;
	case EVENT_STOCK_TOP: {
		const cJSON *card = cJSON_GetObjectItemCaseSensitive(ev, "card");
		char where[PATH_MAX_LEN + 32];

		snprintf(where, sizeof(where), "%scard", prefix);
		if (!card)
			return json_fail(diag, PROTOCOL_EMISSING, 0, "missing field \"%s\"", where);
		if ((rc = json_elem_int(card, where, CARD_SKIPBO, 12, 1, &v, diag)))
			return rc;
		e->card = v < 0 ? CARD_NONE : (uint8_t)v;
		e->source = SOURCE_STOCK;
		e->owner = e->seat;
		return 0;
	}
	case EVENT_COMPLETE:
		if ((rc = json_int(ev, prefix, "pile", 0, ENGINE_BUILDING_PILES - 1, 1, &v, diag)))
			return rc;
		e->target = (uint8_t)v;
		return 0;
	case EVENT_DISCARD:
		if ((rc = json_int(ev, prefix, "card", CARD_SKIPBO, 12, 1, &v, diag)))
			return rc;
		e->card = (uint8_t)v;
		if ((rc = json_int(ev, prefix, "pile", 0, ENGINE_DISCARD_PILES - 1, 1, &v, diag)))
			return rc;
		e->target = (uint8_t)v;
		e->owner = e->seat;
		return 0;
	case EVENT_REFILL:
		if ((rc = json_string(ev, prefix, "source", 1, &s, diag)))
			return rc;
		if (strcmp(s, "completed") == 0)
			e->source = 1;
		else if (strcmp(s, "building") == 0)
			e->source = 2;
		else
			return json_fail(diag, PROTOCOL_EVALUE, 0,
					 "unknown value \"%s\" for \"%ssource\"; valid: \"completed\", \"building\"",
					 json_safe(s, safe), prefix);
		if ((rc = json_int(ev, prefix, "count", 0, ENGINE_DECK_SIZE, 1, &v, diag)))
			return rc;
		e->count = (uint16_t)v;
		return 0;
	case EVENT_REMOVED:
		if ((rc = json_string(ev, prefix, "fault", 1, &s, diag)))
			return rc;
		json_copy_cut(r->fault[e->seat], s, sizeof(r->fault[0]));
		return 0;
	default:
		return 0;
	}
}

/*
 * Events carry no turn number except "turn" itself; the turn of the others is
 * that of the last "turn" before them, and before the first one the turn
 * before it (turns are numbered one by one), or the request's turn if the
 * list has no "turn" at all.
 */
static uint32_t first_turn(const cJSON *events, uint32_t request_turn)
{
	const cJSON *ev, *t, *n;

	cJSON_ArrayForEach(ev, events) {
		t = cJSON_GetObjectItemCaseSensitive(ev, "type");
		n = cJSON_GetObjectItemCaseSensitive(ev, "turn");
		if (cJSON_IsString(t) && t->valuestring && strcmp(t->valuestring, "turn") == 0 &&
		    cJSON_IsNumber(n) && n->valuedouble >= 1 && n->valuedouble <= UINT32_MAX)
			return (uint32_t)n->valuedouble - 1;
	}
	return request_turn;
}

static int parse_events(const cJSON *events, struct protocol_message *m, struct protocol_diag *diag)
{
	struct protocol_request *r = &m->request;
	int players = r->view.players;
	uint32_t turn = first_turn(events, r->turn);
	char prefix[PATH_MAX_LEN];
	const cJSON *ev;
	const char *type;
	long v;
	int rc, kind, i = 0;

	cJSON_ArrayForEach(ev, events) {
		struct event *e;

		snprintf(prefix, sizeof(prefix), "events[%d].", i++);
		if (!cJSON_IsObject(ev))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%.*s\" must be an object",
					 (int)strlen(prefix) - 1, prefix);
		if ((rc = json_string(ev, prefix, "type", 1, &type, diag)))
			return rc;
		kind = event_kind(type);
		if (kind < 0)
			continue; /* a newer arena's event: ignored (PROTOCOL.md "Compatibility") */
		if (kind == EVENT_COMPLETE || kind == EVENT_REFILL) {
			v = 0;
		} else if ((rc = json_int(ev, prefix, "seat", 0, players - 1, 1, &v, diag))) {
			return rc;
		}
		if (kind == EVENT_TURN) {
			long t;

			if ((rc = json_int(ev, prefix, "turn", 1, UINT32_MAX, 1, &t, diag)))
				return rc;
			turn = (uint32_t)t;
		}
		if (kind == EVENT_DRAW) {
			if ((rc = parse_draw(ev, prefix, (int)v, turn, m, diag)))
				return rc;
			continue;
		}
		if ((rc = events_reserve(m, 1)))
			return rc;
		e = &r->events[r->n_events];
		memset(e, 0, sizeof(*e));
		e->kind = (uint8_t)kind;
		e->seat = (uint8_t)v;
		e->card = CARD_NONE;
		e->turn = turn;
		if ((rc = parse_event_fields(ev, prefix, kind, players, e, r, diag)))
			return rc;
		r->n_events++;
	}
	return 0;
}

static int parse_request(const cJSON *root, struct protocol_message *m, struct protocol_diag *diag)
{
	struct protocol_request *r = &m->request;
	const cJSON *time, *view, *events, *legal, *item;
	char prefix[PATH_MAX_LEN];
	long v;
	int rc, card_given;

	r->n_events = 0;
	r->n_legal = 0;
	memset(r->fault, 0, sizeof(r->fault));
	if ((rc = json_copy_string(root, "", "game", 1, r->game, sizeof(r->game), diag)) ||
	    (rc = json_int(root, "", "turn", 0, UINT32_MAX, 1, &v, diag)))
		return rc;
	r->turn = (uint32_t)v;
	if ((rc = json_int(root, "", "move", 0, UINT32_MAX, 1, &v, diag)))
		return rc;
	r->move = (uint32_t)v;
	if ((rc = json_object(root, "", "time", 1, &time, diag)) ||
	    (rc = json_int(time, "time.", "move_ms", 0, INT32_MAX, 1, &v, diag)))
		return rc;
	r->move_ms = v;
	if ((rc = json_int(time, "time.", "bank_ms", 0, INT32_MAX, 1, &v, diag)))
		return rc;
	r->bank_ms = v;
	if ((rc = json_object(root, "", "view", 1, &view, diag)) ||
	    (rc = parse_view(view, r->turn, &r->view, diag)) ||
	    (rc = json_array(root, "", "events", 1, &events, diag)) ||
	    (rc = parse_events(events, m, diag)) ||
	    (rc = json_array(root, "", "legal", 1, &legal, diag)))
		return rc;
	cJSON_ArrayForEach(item, legal) {
		struct move *mv = &r->legal[r->n_legal];

		if (r->n_legal == ENGINE_MAX_MOVES)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"legal\" has more than %d moves",
					 ENGINE_MAX_MOVES);
		snprintf(prefix, sizeof(prefix), "legal[%d].", r->n_legal);
		if (!cJSON_IsObject(item))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"legal[%d]\" must be an object", r->n_legal);
		if ((rc = json_move(item, prefix, 1, mv, &card_given, diag)))
			return rc;
		if (mv->kind != MOVE_PLAY || mv->source == SOURCE_HAND)
			mv->owner = (uint8_t)r->view.seat;
		r->n_legal++;
	}
	return 0;
}

static int seat_list(const cJSON *arr, const char *name, int n, int *out, struct protocol_diag *diag)
{
	const cJSON *item;
	long v;
	int rc, s = 0;

	if (cJSON_GetArraySize(arr) != n)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" must have one element per seat (%d)",
				 name, n);
	cJSON_ArrayForEach(item, arr) {
		if ((rc = json_elem_int(item, name, -1000000, 1000000, 0, &v, diag)))
			return rc;
		out[s++] = (int)v;
	}
	return 0;
}

static int parse_game_end(const cJSON *root, struct protocol_game_end *ge, struct protocol_diag *diag)
{
	struct game_result *r = &ge->result;
	const cJSON *winners, *placings, *stock, *scores, *faults, *item;
	const char *reason, *fault_kind, *fault_reason;
	char prefix[PATH_MAX_LEN], safe[JSON_SAFE_MAX];
	long v;
	int rc, n;

	memset(ge, 0, sizeof(*ge));
	r->winner = -1;
	if ((rc = json_copy_string(root, "", "game", 1, ge->game, sizeof(ge->game), diag)) ||
	    (rc = json_string(root, "", "reason", 1, &reason, diag)))
		return rc;
	r->reason = text_reason_parse(reason);
	if (r->reason < 0)
		return json_fail(diag, PROTOCOL_EVALUE, 0,
				 "unknown value \"%s\" for \"reason\"; valid: \"stock_emptied\", "
				 "\"stalemate\", \"turn_cap\", \"forfeit\"", json_safe(reason, safe));
	if ((rc = json_array(root, "", "placings", 1, &placings, diag)))
		return rc;
	n = cJSON_GetArraySize(placings);
	if (n < 2 || n > ENGINE_MAX_PLAYERS)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"placings\" must hold 2 to 6 seats");
	ge->players = n;
	if ((rc = seat_list(placings, "placings", n, r->placing, diag)) ||
	    (rc = json_array(root, "", "stock_left", 1, &stock, diag)) ||
	    (rc = seat_list(stock, "stock_left", n, r->stock_left, diag)) ||
	    (rc = json_array(root, "", "scores", 1, &scores, diag)) ||
	    (rc = seat_list(scores, "scores", n, r->score, diag)) ||
	    (rc = json_array(root, "", "winners", 1, &winners, diag)))
		return rc;
	cJSON_ArrayForEach(item, winners) {
		if ((rc = json_elem_int(item, "winners[]", 0, n - 1, 0, &v, diag)))
			return rc;
		r->winners[v] = 1;
		if (r->winner < 0 || v < r->winner)
			r->winner = (int)v;
	}
	r->status = r->winner >= 0 ? GAME_WON : GAME_STALEMATE;
	if ((rc = json_int(root, "", "turns", 0, UINT32_MAX, 1, &v, diag)))
		return rc;
	r->turns = (uint32_t)v;
	if ((rc = json_int(root, "", "moves", 0, UINT32_MAX, 1, &v, diag)))
		return rc;
	r->moves = (uint32_t)v;
	if ((rc = json_array(root, "", "faults", 1, &faults, diag)))
		return rc;
	cJSON_ArrayForEach(item, faults) {
		struct protocol_fault *f = &ge->faults[ge->n_faults];

		if (ge->n_faults == ENGINE_MAX_PLAYERS)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"faults\" has more than %d entries",
					 ENGINE_MAX_PLAYERS);
		snprintf(prefix, sizeof(prefix), "faults[%d].", ge->n_faults);
		if (!cJSON_IsObject(item))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"faults[%d]\" must be an object",
					 ge->n_faults);
		if ((rc = json_int(item, prefix, "seat", 0, n - 1, 1, &v, diag)))
			return rc;
		f->seat = (int)v;
		if ((rc = json_string(item, prefix, "kind", 1, &fault_kind, diag)) ||
		    (rc = json_string(item, prefix, "reason", 1, &fault_reason, diag)))
			return rc;
		json_copy_cut(f->kind, fault_kind, sizeof(f->kind));
		json_copy_cut(f->reason, fault_reason, sizeof(f->reason));
		ge->n_faults++;
	}
	return 0;
}

int protocol_parse_message(struct protocol_message *m, const char *line, size_t len,
			   struct protocol_diag *diag)
{
	cJSON *root = NULL;
	const char *type;
	int rc;

	m->type = PROTOCOL_MSG_UNKNOWN;
	m->type_name[0] = '\0';
	if ((rc = json_parse_line(line, len, PROTOCOL_ARENA_LINE_MAX, &root, diag)) ||
	    (rc = json_message_type(root, &type, diag)))
		goto out;
	strlcpy(m->type_name, type, sizeof(m->type_name));
	if (strcmp(type, "hello") == 0) {
		rc = parse_hello(root, &m->hello, diag);
		m->type = PROTOCOL_MSG_HELLO;
	} else if (strcmp(type, "game_start") == 0) {
		rc = parse_game_start(root, &m->game_start, diag);
		m->type = PROTOCOL_MSG_GAME_START;
	} else if (strcmp(type, "request") == 0) {
		rc = parse_request(root, m, diag);
		m->type = PROTOCOL_MSG_REQUEST;
	} else if (strcmp(type, "game_end") == 0) {
		rc = parse_game_end(root, &m->game_end, diag);
		m->type = PROTOCOL_MSG_GAME_END;
	} else if (strcmp(type, "quit") == 0) {
		m->type = PROTOCOL_MSG_QUIT;
	}
out:
	if (rc)
		m->type = PROTOCOL_MSG_UNKNOWN;
	cJSON_Delete(root);
	return rc;
}

int protocol_read_line(FILE *in, struct protocol_buf *b)
{
	ssize_t n = getline(&b->data, &b->cap, in);

	if (n < 0) {
		b->len = 0;
		if (b->data)
			b->data[0] = '\0';
		return ferror(in) ? PROTOCOL_EIO : PROTOCOL_EEOF;
	}
	if (n > 0 && b->data[n - 1] == '\n')
		b->data[--n] = '\0';
	b->len = (size_t)n;
	return 0;
}

int protocol_write_line(FILE *out, const struct protocol_buf *b)
{
	if ((b->len && fwrite(b->data, 1, b->len, out) != b->len) || fputc('\n', out) == EOF ||
	    fflush(out) == EOF)
		return PROTOCOL_EIO;
	return 0;
}
