/*
 * protocol_parse.c - the bot's side: any arena line into plain C structs,
 * and line I/O on stdio. The checks are as strict as the arena's, so a bot
 * built on this library notices a broken arena (or a broken test harness)
 * instead of playing on garbage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol_fastparse.h"
#include "protocol_legal.h"
#include "protocol_text.h"

#define PATH_MAX_LEN 64

void protocol_message_init(struct protocol_message *m)
{
	memset(m, 0, sizeof(*m));
}

void protocol_message_release(struct protocol_message *m)
{
	free(m->request.events);
	if (m->pool)
		json_pool_release(m->pool);
	free(m->pool);
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
		int i = 0;

		if (!cJSON_IsArray(item) || t >= n)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"teams[%d]\" must be an array of seats", t);
		cJSON_ArrayForEach(member, item) {
			snprintf(where, sizeof(where), "teams[%d][%d]", t, i++);
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

/*
 * The request is the message a bot reads for every decision, so it takes the
 * fast path of protocol_json.h: every object's members are found in one walk,
 * and a field's path ("view.players[1].hand_size") is only spelt out when
 * something is wrong with it. The checks and messages are those of the other
 * messages' json_int() and friends.
 */

/* The name of a card array in messages: "view.hand" (s < 0) or a discard pile. */
static const char *card_array_name(int s, int k, char *out, size_t size)
{
	if (s < 0)
		return "view.hand";
	snprintf(out, size, "view.players[%d].discards[%d]", s, k);
	return out;
}

/* An array of cards (0..12) of at most max elements into out; *n its length.
 * s, k name it (card_array_name()). */
static int card_array(const cJSON *arr, int s, int k, int max, uint8_t *out, int *n,
		      struct protocol_diag *diag)
{
	char where[PATH_MAX_LEN + 32];
	const cJSON *item;
	long v;
	int i = 0;

	cJSON_ArrayForEach(item, arr) {
		if (i == max)
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" has more than %d cards",
					 card_array_name(s, k, where, sizeof(where)), max);
		if (!json_number_in(item, CARD_SKIPBO, 12, &v)) {
			char elem[PATH_MAX_LEN + 48];

			snprintf(elem, sizeof(elem), "%s[%d]", card_array_name(s, k, where, sizeof(where)), i);
			return json_elem_int(item, elem, CARD_SKIPBO, 12, 0, &v, diag);
		}
		out[i++] = (uint8_t)v;
	}
	*n = i;
	return 0;
}

enum { PL_SEAT, PL_STOCK_SIZE, PL_STOCK_TOP, PL_HAND_SIZE, PL_DISCARDS, PL_REMOVED, PL_N };
static const char *const player_fields[PL_N] = {
	[PL_SEAT] = "seat",           [PL_STOCK_SIZE] = "stock_size", [PL_STOCK_TOP] = "stock_top",
	[PL_HAND_SIZE] = "hand_size", [PL_DISCARDS] = "discards",     [PL_REMOVED] = "removed",
};

static int parse_player(const cJSON *p, int s, struct seat_view *v, struct protocol_diag *diag)
{
	const struct json_path at = { "view.players", s };
	char prefix[JSON_PATH_MAX], where[PATH_MAX_LEN + 32];
	const cJSON *f[PL_N], *discards, *pile;
	long x;
	int rc, k = 0;

	if (!json_is(p, cJSON_Object))
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.players[%d]\" must be an object", s);
	json_fields(p, player_fields, PL_N, f);
	if ((rc = json_get_int(p, f[PL_SEAT], &at, "seat", s, s, 1, &x, diag)) ||
	    (rc = json_get_int(p, f[PL_STOCK_SIZE], &at, "stock_size", 0, 30, 1, &x, diag)))
		return rc;
	v->stock_size[s] = (int)x;
	if (!f[PL_STOCK_TOP])
		return json_fail(diag, PROTOCOL_EMISSING, 0, "missing field \"%sstock_top\"",
				 json_path_str(&at, prefix));
	if (json_is(f[PL_STOCK_TOP], cJSON_NULL)) {
		x = -1;
	} else if (!json_number_in(f[PL_STOCK_TOP], CARD_SKIPBO, 12, &x)) {
		snprintf(where, sizeof(where), "%sstock_top", json_path_str(&at, prefix));
		if ((rc = json_elem_int(f[PL_STOCK_TOP], where, CARD_SKIPBO, 12, 1, &x, diag)))
			return rc;
	}
	/* R4: a stock shows its top card exactly while it holds cards. */
	if (x >= 0 && v->stock_size[s] == 0)
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "view.players[%d].stock_top: expected null (stock_size is 0), found %ld", s, x);
	if (x < 0 && v->stock_size[s] > 0)
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "view.players[%d].stock_top: expected a card from 0 to 12 (stock_size is %d), "
				 "found null", s, v->stock_size[s]);
	v->stock_top[s] = x < 0 ? CARD_NONE : (uint8_t)x;
	if ((rc = json_get_int(p, f[PL_HAND_SIZE], &at, "hand_size", 0, ENGINE_HAND_SIZE, 1, &x,
			       diag)))
		return rc;
	v->others_hand_size[s] = (int)x;
	if ((rc = json_get_bool(p, f[PL_REMOVED], &at, "removed", 1, &v->removed[s], diag)) ||
	    (rc = json_get_array(p, f[PL_DISCARDS], &at, "discards", 1, &discards, diag)))
		return rc;
	if (cJSON_GetArraySize(discards) != ENGINE_DISCARD_PILES)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%sdiscards\" must hold %d piles",
				 json_path_str(&at, prefix), ENGINE_DISCARD_PILES);
	cJSON_ArrayForEach(pile, discards) {
		if (!json_is(pile, cJSON_Array))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" must be an array",
					 card_array_name(s, k, where, sizeof(where)));
		if ((rc = card_array(pile, s, k, ENGINE_DECK_SIZE, v->discard[s][k],
				     &v->discard_size[s][k], diag)))
			return rc;
		k++;
	}
	return 0;
}

enum { VW_SEAT, VW_TO_MOVE, VW_PARTNER, VW_HAND, VW_PLAYERS, VW_BUILDING, VW_DRAW_PILE,
       VW_COMPLETED, VW_N };
static const char *const view_fields[VW_N] = {
	[VW_SEAT] = "seat",         [VW_TO_MOVE] = "to_move",     [VW_PARTNER] = "partner",
	[VW_HAND] = "hand",         [VW_PLAYERS] = "players",     [VW_BUILDING] = "building",
	[VW_DRAW_PILE] = "draw_pile", [VW_COMPLETED] = "completed",
};

enum { BU_VALUE, BU_SIZE, BU_N };
static const char *const building_fields[BU_N] = { [BU_VALUE] = "value", [BU_SIZE] = "size" };

static int parse_view(const cJSON *view, uint32_t turn, struct seat_view *v,
		      struct protocol_diag *diag)
{
	static const struct json_path at = { "view.", -1 };
	const cJSON *f[VW_N], *g[BU_N], *hand, *players, *building, *item;
	long x;
	int rc, n, k = 0;

	/* Zeroed whole: the unused parts must match game_view() byte for byte. */
	memset(v, 0, sizeof(*v));
	v->turn = turn;
	json_fields(view, view_fields, VW_N, f);
	if ((rc = json_get_array(view, f[VW_PLAYERS], &at, "players", 1, &players, diag)))
		return rc;
	n = cJSON_GetArraySize(players);
	if (n < 2 || n > ENGINE_MAX_PLAYERS)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.players\" must hold 2 to 6 players, not %d", n);
	v->players = n;
	if ((rc = json_get_int(view, f[VW_SEAT], &at, "seat", 0, n - 1, 1, &x, diag)))
		return rc;
	v->seat = (int)x;
	if ((rc = json_get_int(view, f[VW_TO_MOVE], &at, "to_move", 0, n - 1, 1, &x, diag)))
		return rc;
	v->to_move = (int)x;
	rc = json_get_int(view, f[VW_PARTNER], &at, "partner", 0, n - 1, 0, &x, diag);
	if (rc < 0)
		return rc;
	v->partner = rc == 0 ? (int)x : -1;
	v->partnership = v->partner >= 0;
	if ((rc = json_get_array(view, f[VW_HAND], &at, "hand", 1, &hand, diag)) ||
	    (rc = card_array(hand, -1, 0, ENGINE_HAND_SIZE, v->hand, &v->hand_size, diag)))
		return rc;
	cJSON_ArrayForEach(item, players) {
		if ((rc = parse_player(item, k, v, diag)))
			return rc;
		k++;
	}
	/* The own seat's count and the hand are one fact; a line that says two
	 * things is broken, whichever a bot would believe. */
	if (v->others_hand_size[v->seat] != v->hand_size)
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "view.players[%d].hand_size: expected %d (the cards in view.hand), found %d",
				 v->seat, v->hand_size, v->others_hand_size[v->seat]);
	for (int s = n; s < ENGINE_MAX_PLAYERS; s++)
		v->stock_top[s] = CARD_NONE;
	if ((rc = json_get_array(view, f[VW_BUILDING], &at, "building", 1, &building, diag)))
		return rc;
	if (cJSON_GetArraySize(building) != ENGINE_BUILDING_PILES)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.building\" must hold %d piles",
				 ENGINE_BUILDING_PILES);
	k = 0;
	cJSON_ArrayForEach(item, building) {
		const struct json_path pile = { "view.building", k };

		if (!json_is(item, cJSON_Object))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"view.building[%d]\" must be an object", k);
		json_fields(item, building_fields, BU_N, g);
		if ((rc = json_get_int(item, g[BU_VALUE], &pile, "value", 0, 12, 1, &x, diag)))
			return rc;
		v->building_value[k] = (int)x;
		if ((rc = json_get_int(item, g[BU_SIZE], &pile, "size", 0, ENGINE_DECK_SIZE, 1, &x, diag)))
			return rc;
		v->building_size[k] = (int)x;
		k++;
	}
	if ((rc = json_get_int(view, f[VW_DRAW_PILE], &at, "draw_pile", 0, ENGINE_DECK_SIZE, 1, &x,
			       diag)))
		return rc;
	v->draw_size = (int)x;
	if ((rc = json_get_int(view, f[VW_COMPLETED], &at, "completed", 0, ENGINE_DECK_SIZE, 1, &x,
			       diag)))
		return rc;
	v->completed_size = (int)x;
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
		if (type[0] == event_names[k][0] && strcmp(type, event_names[k]) == 0)
			return k;
	return -1;
}

/* The members of every event type, in the order the arena writes them. */
enum { EV_TYPE, EV_SEAT, EV_TURN, EV_COUNT, EV_CARDS, EV_FROM, EV_OWNER, EV_PILE, EV_CARD,
       EV_VALUE, EV_TO, EV_SOURCE, EV_FAULT, EV_N };
static const char *const event_fields[EV_N] = {
	[EV_TYPE] = "type",   [EV_SEAT] = "seat",   [EV_TURN] = "turn",     [EV_COUNT] = "count",
	[EV_CARDS] = "cards", [EV_FROM] = "from",   [EV_OWNER] = "owner",   [EV_PILE] = "pile",
	[EV_CARD] = "card",   [EV_VALUE] = "value", [EV_TO] = "to",         [EV_SOURCE] = "source",
	[EV_FAULT] = "fault",
};

/* A "draw": count events, one per card, as event_for_seat() would show them. */
static int parse_draw(const cJSON *ev, const cJSON *const *f, const struct json_path *at,
		      int seat, uint32_t turn, struct protocol_message *m, struct protocol_diag *diag)
{
	struct protocol_request *r = &m->request;
	const cJSON *cards = NULL, *item;
	char prefix[JSON_PATH_MAX], where[PATH_MAX_LEN + 32];
	long count, card;
	int rc, k = 0;

	if ((rc = json_get_int(ev, f[EV_COUNT], at, "count", 1, ENGINE_DECK_SIZE, 1, &count, diag)))
		return rc;
	rc = json_get_array(ev, f[EV_CARDS], at, "cards", 0, &cards, diag);
	if (rc < 0)
		return rc;
	if (cards && cJSON_GetArraySize(cards) != count)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%scards\" must hold \"count\" (%ld) cards",
				 json_path_str(at, prefix), count);
	if ((rc = request_events_reserve(m, (size_t)count)))
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
		cJSON_ArrayForEach(item, cards) {
			if (!json_number_in(item, CARD_SKIPBO, 12, &card)) {
				snprintf(where, sizeof(where), "%scards[%d]", json_path_str(at, prefix), k);
				if ((rc = json_elem_int(item, where, CARD_SKIPBO, 12, 0, &card, diag)))
					return rc;
			}
			r->events[r->n_events + (size_t)k++].card = (uint8_t)card;
		}
	}
	r->n_events += (size_t)count;
	return 0;
}

/* The fields of one event other than a draw into e (zeroed, card CARD_NONE). */
static int parse_event_fields(const cJSON *ev, const cJSON *const *f, const struct json_path *at,
			      int kind, int players, struct event *e, struct protocol_request *r,
			      struct protocol_diag *diag)
{
	const char *s;
	char safe[JSON_SAFE_MAX], prefix[JSON_PATH_MAX];
	long v;
	int rc, source;

	switch (kind) {
	case EVENT_PLAY:
		if ((rc = json_get_source(ev, f[EV_FROM], at, &source, diag)))
			return rc;
		e->source = (uint8_t)source;
		if ((rc = json_get_int(ev, f[EV_OWNER], at, "owner", 0, players - 1, 1, &v, diag)))
			return rc;
		e->owner = (uint8_t)v;
		if (e->source == SOURCE_DISCARD &&
		    (rc = json_get_int(ev, f[EV_PILE], at, "pile", 0, ENGINE_DISCARD_PILES - 1, 1, &v,
				       diag)))
			return rc;
		e->pile = e->source == SOURCE_DISCARD ? (uint8_t)v : 0;
		if ((rc = json_get_int(ev, f[EV_CARD], at, "card", CARD_SKIPBO, 12, 1, &v, diag)))
			return rc;
		e->card = (uint8_t)v;
		if ((rc = json_get_int(ev, f[EV_VALUE], at, "value", 1, 12, 1, &v, diag)))
			return rc;
		e->value = (uint8_t)v;
		if ((rc = json_get_int(ev, f[EV_TO], at, "to", 0, ENGINE_BUILDING_PILES - 1, 1, &v, diag)))
			return rc;
		e->target = (uint8_t)v;
		return 0;
	case EVENT_STOCK_TOP: {
		const cJSON *card = f[EV_CARD];
		char where[PATH_MAX_LEN + 32];

		if (!card)
			return json_fail(diag, PROTOCOL_EMISSING, 0, "missing field \"%scard\"",
					 json_path_str(at, prefix));
		if (json_is(card, cJSON_NULL)) {
			v = -1;
		} else if (!json_number_in(card, CARD_SKIPBO, 12, &v)) {
			snprintf(where, sizeof(where), "%scard", json_path_str(at, prefix));
			if ((rc = json_elem_int(card, where, CARD_SKIPBO, 12, 1, &v, diag)))
				return rc;
		}
		e->card = v < 0 ? CARD_NONE : (uint8_t)v;
		e->source = SOURCE_STOCK;
		e->owner = e->seat;
		return 0;
	}
	case EVENT_COMPLETE:
		if ((rc = json_get_int(ev, f[EV_PILE], at, "pile", 0, ENGINE_BUILDING_PILES - 1, 1, &v,
				       diag)))
			return rc;
		e->target = (uint8_t)v;
		return 0;
	case EVENT_DISCARD:
		if ((rc = json_get_int(ev, f[EV_CARD], at, "card", CARD_SKIPBO, 12, 1, &v, diag)))
			return rc;
		e->card = (uint8_t)v;
		if ((rc = json_get_int(ev, f[EV_PILE], at, "pile", 0, ENGINE_DISCARD_PILES - 1, 1, &v,
				       diag)))
			return rc;
		e->target = (uint8_t)v;
		e->owner = e->seat;
		return 0;
	case EVENT_REFILL:
		if ((rc = json_get_string(ev, f[EV_SOURCE], at, "source", 1, &s, diag)))
			return rc;
		if (strcmp(s, "completed") == 0)
			e->source = 1;
		else if (strcmp(s, "building") == 0)
			e->source = 2;
		else
			return json_fail(diag, PROTOCOL_EVALUE, 0,
					 "unknown value \"%s\" for \"%ssource\"; valid: \"completed\", \"building\"",
					 json_safe(s, safe), json_path_str(at, prefix));
		if ((rc = json_get_int(ev, f[EV_COUNT], at, "count", 0, ENGINE_DECK_SIZE, 1, &v, diag)))
			return rc;
		e->count = (uint16_t)v;
		return 0;
	case EVENT_REMOVED:
		if ((rc = json_get_string(ev, f[EV_FAULT], at, "fault", 1, &s, diag)))
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
 * list has no "turn" at all. The events before the first "turn" are read
 * with the request's turn and set right when that "turn" comes.
 */
static int parse_events(const cJSON *events, struct protocol_message *m, struct protocol_diag *diag)
{
	struct protocol_request *r = &m->request;
	int players = r->view.players;
	uint32_t turn = r->turn;
	const cJSON *ev, *f[EV_N];
	const char *type;
	long v;
	int rc, kind, i = 0, seen_turn = 0;

	cJSON_ArrayForEach(ev, events) {
		const struct json_path at = { "events", i++ };
		struct event *e;

		if (!json_is(ev, cJSON_Object))
			return json_fail(diag, PROTOCOL_EFIELD, 0, "\"events[%d]\" must be an object",
					 at.index);
		json_fields(ev, event_fields, EV_N, f);
		if ((rc = json_get_string(ev, f[EV_TYPE], &at, "type", 1, &type, diag)))
			return rc;
		kind = event_kind(type);
		if (kind < 0)
			continue; /* a newer arena's event: ignored (PROTOCOL.md "Compatibility") */
		if (kind == EVENT_COMPLETE || kind == EVENT_REFILL) {
			v = 0;
		} else if ((rc = json_get_int(ev, f[EV_SEAT], &at, "seat", 0, players - 1, 1, &v, diag))) {
			return rc;
		}
		if (kind == EVENT_TURN) {
			long t;

			if ((rc = json_get_int(ev, f[EV_TURN], &at, "turn", 1, UINT32_MAX, 1, &t, diag)))
				return rc;
			turn = (uint32_t)t;
			if (!seen_turn)
				for (size_t k = 0; k < r->n_events; k++)
					r->events[k].turn = turn - 1;
			seen_turn = 1;
		}
		if (kind == EVENT_DRAW) {
			if ((rc = parse_draw(ev, f, &at, (int)v, turn, m, diag)))
				return rc;
			continue;
		}
		if ((rc = request_events_reserve(m, 1)))
			return rc;
		e = &r->events[r->n_events];
		memset(e, 0, sizeof(*e));
		e->kind = (uint8_t)kind;
		e->seat = (uint8_t)v;
		e->card = CARD_NONE;
		e->turn = turn;
		if ((rc = parse_event_fields(ev, f, &at, kind, players, e, r, diag)))
			return rc;
		r->n_events++;
	}
	return 0;
}

enum { RQ_GAME, RQ_TURN, RQ_MOVE, RQ_TIME, RQ_VIEW, RQ_EVENTS, RQ_LEGAL, RQ_DISCARD_ANY, RQ_N };
static const char *const request_fields[RQ_N] = {
	[RQ_GAME] = "game", [RQ_TURN] = "turn",     [RQ_MOVE] = "move",   [RQ_TIME] = "time",
	[RQ_VIEW] = "view", [RQ_EVENTS] = "events", [RQ_LEGAL] = "legal", [RQ_DISCARD_ANY] = "discard_any",
};

enum { TM_MOVE_MS, TM_BANK_MS, TM_N };
static const char *const time_fields[TM_N] = { [TM_MOVE_MS] = "move_ms", [TM_BANK_MS] = "bank_ms" };

static int parse_request(const cJSON *root, struct protocol_message *m, struct protocol_diag *diag)
{
	static const struct json_path top = { "", -1 }, in_time = { "time.", -1 };
	struct protocol_request *r = &m->request;
	const cJSON *f[RQ_N], *g[TM_N], *time, *view, *events, *legal;
	const char *game;
	long v;
	int rc;

	r->n_events = 0;
	r->n_legal = 0;
	memset(r->fault, 0, sizeof(r->fault));
	json_fields(root, request_fields, RQ_N, f);
	if ((rc = json_get_string(root, f[RQ_GAME], &top, "game", 1, &game, diag)))
		return rc;
	if (strlcpy(r->game, game, sizeof(r->game)) >= sizeof(r->game))
		return json_copy_string(root, "", "game", 1, r->game, sizeof(r->game), diag);
	if ((rc = json_get_int(root, f[RQ_TURN], &top, "turn", 0, UINT32_MAX, 1, &v, diag)))
		return rc;
	r->turn = (uint32_t)v;
	if ((rc = json_get_int(root, f[RQ_MOVE], &top, "move", 0, UINT32_MAX, 1, &v, diag)))
		return rc;
	r->move = (uint32_t)v;
	if ((rc = json_get_object(root, f[RQ_TIME], &top, "time", 1, &time, diag)))
		return rc;
	json_fields(time, time_fields, TM_N, g);
	if ((rc = json_get_int(time, g[TM_MOVE_MS], &in_time, "move_ms", 0, INT32_MAX, 1, &v, diag)))
		return rc;
	r->move_ms = v;
	if ((rc = json_get_int(time, g[TM_BANK_MS], &in_time, "bank_ms", 0, INT32_MAX, 1, &v, diag)))
		return rc;
	r->bank_ms = v;
	if ((rc = json_get_object(root, f[RQ_VIEW], &top, "view", 1, &view, diag)) ||
	    (rc = parse_view(view, r->turn, &r->view, diag)) ||
	    (rc = json_get_array(root, f[RQ_EVENTS], &top, "events", 1, &events, diag)) ||
	    (rc = parse_events(events, m, diag)) ||
	    (rc = json_get_array(root, f[RQ_LEGAL], &top, "legal", 1, &legal, diag)))
		return rc;
	/* A JSON null counts as absent, as for every optional field. */
	return legal_parse(root, legal, json_is(f[RQ_DISCARD_ANY], cJSON_NULL) ? NULL : f[RQ_DISCARD_ANY],
			   r, diag);
}

static int seat_list(const cJSON *arr, const char *name, int n, int *out, struct protocol_diag *diag)
{
	const cJSON *item;
	long v;
	int s = 0;

	if (cJSON_GetArraySize(arr) != n)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "\"%s\" must have one element per seat (%d)",
				 name, n);
	cJSON_ArrayForEach(item, arr) {
		if (!json_number_in(item, -1000000, 1000000, &v)) {
			char where[PATH_MAX_LEN];

			snprintf(where, sizeof(where), "%s[%d]", name, s);
			return json_elem_int(item, where, -1000000, 1000000, 0, &v, diag);
		}
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
	int rc, n, k = 0;

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
		snprintf(prefix, sizeof(prefix), "winners[%d]", k++);
		if ((rc = json_elem_int(item, prefix, 0, n - 1, 0, &v, diag)))
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
	/* A request as the arena writes it is read without a tree; any other
	 * line, or a request in any other form, takes the strict reader. */
	if (fastparse_request(m, line, len) == 0) {
		m->type = PROTOCOL_MSG_REQUEST;
		strlcpy(m->type_name, "request", sizeof(m->type_name));
		return 0;
	}
	return strict_parse_message(m, line, len, diag);
}

int strict_parse_message(struct protocol_message *m, const char *line, size_t len,
			 struct protocol_diag *diag)
{
	cJSON *root = NULL;
	const char *type;
	int rc;

	m->type = PROTOCOL_MSG_UNKNOWN;
	m->type_name[0] = '\0';
	/* The tree lives in the message's own pool: one line after another
	 * costs no malloc, and cJSON's allocator is not touched. */
	if (!m->pool) {
		m->pool = malloc(sizeof(*m->pool));
		if (!m->pool)
			return json_fail(diag, PROTOCOL_ENOMEM, 0, "out of memory");
		json_pool_init(m->pool);
	}
	if ((rc = json_parse_line(line, len, PROTOCOL_ARENA_LINE_MAX, m->pool, &root, diag)) ||
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
