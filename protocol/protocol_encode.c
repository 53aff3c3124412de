/*
 * protocol_encode.c - every message the library writes: the arena's hello,
 * game_start, request, game_end and quit, and the bot's hello and move.
 *
 * Hand-written rather than built with cJSON: a request is written once per
 * decision of every game, and building then printing a tree costs several
 * times more than appending to one buffer (see bench_protocol).
 */
#include <string.h>

#include "protocol_legal.h"
#include "protocol_text.h"

/* Room for one move object; the longest is a discard-pile play (~70 bytes). */
#define MOVE_ROOM 96
/* Room for one event object other than a merged draw's card list. */
#define EVENT_ROOM 128

/* A key as a literal, with the comma or opening before it, then a small
 * number: ,"card":7 */
#define PUT_SMALL_FIELD(b, lit, v) (TEXT_PUT_LIT((b), lit), text_put_small((b), (v)))

static int card_ok(int card)
{
	return card >= CARD_SKIPBO && card <= 12;
}

static int put_card_or_null(struct protocol_buf *b, int card)
{
	if (card == CARD_NONE) {
		TEXT_PUT_LIT(b, "null");
		return 0;
	}
	if (!card_ok(card))
		return PROTOCOL_EINVAL;
	text_put_small(b, (unsigned)card);
	return 0;
}

/* A literal with its length. */
struct lit {
	const char *s;
	size_t n;
};
#define LIT(l) { "" l, sizeof(l) - 1 }

/* What goes before each field of a play in either form: the move object
 * (PROTOCOL.md "Moves") or the compact array ("Compact requests"), whose
 * fields come in the same order. */
enum { PF_FROM, PF_SEAT, PF_PILE, PF_CARD, PF_TO, PF_END, PF_N };
static const struct lit play_lits[2][PF_N] = {
	{ LIT("{\"action\":\"play\",\"from\":\""), LIT("\",\"seat\":"), LIT(",\"pile\":"),
	  LIT(",\"card\":"), LIT(",\"to\":"), LIT("}") },
	{ LIT("[\""), LIT("\","), LIT(","), LIT(","), LIT(","), LIT("]") },
};

static void put_lit(struct protocol_buf *b, const struct lit *l)
{
	text_put(b, l->s, l->n);
}

/* One move, as an object or (compact) as an array; needs MOVE_ROOM reserved. */
static int put_move(struct protocol_buf *b, const struct move *m, int compact)
{
	const struct lit *lit = play_lits[compact != 0];
	const char *from;

	switch (m->kind) {
	case MOVE_PASS:
		if (compact)
			TEXT_PUT_LIT(b, "[\"pass\"]");
		else
			TEXT_PUT_LIT(b, "{\"action\":\"pass\"}");
		return 0;
	case MOVE_DISCARD:
		/* never compact: a compact request leaves the discards out */
		if (compact || !card_ok(m->card) || m->target >= ENGINE_DISCARD_PILES)
			return PROTOCOL_EINVAL;
		PUT_SMALL_FIELD(b, "{\"action\":\"discard\",\"card\":", m->card);
		PUT_SMALL_FIELD(b, ",\"pile\":", m->target);
		text_putc(b, '}');
		return 0;
	case MOVE_PLAY:
		break;
	default:
		return PROTOCOL_EINVAL;
	}
	from = text_source_name(m->source);
	if (!from || !card_ok(m->card) || m->target >= ENGINE_BUILDING_PILES ||
	    m->owner >= ENGINE_MAX_PLAYERS || m->pile >= ENGINE_DISCARD_PILES)
		return PROTOCOL_EINVAL;
	put_lit(b, &lit[PF_FROM]);
	text_put(b, from, strlen(from));
	if (m->source != SOURCE_HAND) {
		put_lit(b, &lit[PF_SEAT]);
		text_put_small(b, m->owner);
	} else {
		text_putc(b, '"');
	}
	if (m->source == SOURCE_DISCARD) {
		put_lit(b, &lit[PF_PILE]);
		text_put_small(b, m->pile);
	}
	put_lit(b, &lit[PF_CARD]);
	text_put_small(b, m->card);
	put_lit(b, &lit[PF_TO]);
	text_put_small(b, m->target);
	put_lit(b, &lit[PF_END]);
	return 0;
}

static int put_bool(struct protocol_buf *b, int v)
{
	if (v)
		TEXT_PUT_LIT(b, "true");
	else
		TEXT_PUT_LIT(b, "false");
	return 0;
}

/* "key":"string" with room reserved for the worst-case escaping. */
static int put_string_field(struct protocol_buf *b, const char *key_lit, size_t key_len,
			    const char *s)
{
	int rc = text_reserve(b, key_len + 6 * strlen(s) + 2);

	if (rc)
		return rc;
	text_put(b, key_lit, key_len);
	return text_put_string(b, s);
}

#define PUT_STRING_FIELD(b, lit, s) put_string_field((b), "" lit, sizeof(lit) - 1, (s))

int protocol_encode_hello(struct protocol_buf *b, const char *arena)
{
	int rc;

	if (!arena || strlen(arena) >= PROTOCOL_NAME_MAX)
		return text_end(b, PROTOCOL_EINVAL);
	rc = text_begin(b, 64);
	if (rc)
		goto out;
	PUT_SMALL_FIELD(b, "{\"type\":\"hello\",\"protocol\":", PROTOCOL_VERSION);
	rc = PUT_STRING_FIELD(b, ",\"arena\":", arena);
	if (rc || (rc = text_reserve(b, 1)))
		goto out;
	text_putc(b, '}');
out:
	return text_end(b, rc);
}

/* R2: the partner sits half the table away; teams are seat mod (players / 2). */
static int team_of(int seat, int players, int partnership)
{
	return partnership ? seat % (players / 2) : seat;
}

int protocol_encode_game_start(struct protocol_buf *b, const struct protocol_game_start *gs)
{
	int n = gs->players, teams;
	int rc;

	if (n < 2 || n > ENGINE_MAX_PLAYERS || gs->seat < 0 || gs->seat >= n ||
	    (gs->partnership && n != 4 && n != 6) || gs->stock_size < 1 || gs->stock_size > 30 ||
	    gs->move_ms < 0 || gs->game_ms < 0 || strnlen(gs->game, PROTOCOL_ID_MAX) == PROTOCOL_ID_MAX)
		return text_end(b, PROTOCOL_EINVAL);
	teams = gs->partnership ? n / 2 : n;
	rc = text_begin(b, 512);
	if (rc)
		goto out;
	TEXT_PUT_LIT(b, "{\"type\":\"game_start\"");
	if ((rc = PUT_STRING_FIELD(b, ",\"game\":", gs->game)))
		goto out;
	if ((rc = text_reserve(b, 64)))
		goto out;
	PUT_SMALL_FIELD(b, ",\"seat\":", (unsigned)gs->seat);
	PUT_SMALL_FIELD(b, ",\"players\":", (unsigned)n);
	TEXT_PUT_LIT(b, ",\"names\":[");
	for (int s = 0; s < n; s++) {
		if (strnlen(gs->names[s], PROTOCOL_NAME_MAX) == PROTOCOL_NAME_MAX) {
			rc = PROTOCOL_EINVAL;
			goto out;
		}
		if ((rc = text_reserve(b, 1)))
			goto out;
		if (s)
			text_putc(b, ',');
		if ((rc = put_string_field(b, "", 0, gs->names[s])))
			goto out;
	}
	if ((rc = text_reserve(b, 400)))
		goto out;
	TEXT_PUT_LIT(b, "],\"partnership\":");
	put_bool(b, gs->partnership);
	TEXT_PUT_LIT(b, ",\"teams\":[");
	for (int t = 0; t < teams; t++) {
		int first = 1;

		if (t)
			text_putc(b, ',');
		text_putc(b, '[');
		for (int s = 0; s < n; s++) {
			if (team_of(s, n, gs->partnership) != t)
				continue;
			if (!first)
				text_putc(b, ',');
			first = 0;
			text_put_small(b, (unsigned)s);
		}
		text_putc(b, ']');
	}
	TEXT_PUT_LIT(b, "],\"partner\":");
	if (gs->partnership)
		text_put_small(b, (unsigned)((gs->seat + n / 2) % n));
	else
		TEXT_PUT_LIT(b, "null");
	PUT_SMALL_FIELD(b, ",\"rules\":{\"stock_size\":", (unsigned)gs->stock_size);
	TEXT_PUT_LIT(b, ",\"building_piles\":4,\"discard_piles\":4,\"hand_size\":5}");
	TEXT_PUT_LIT(b, ",\"time\":{\"move_ms\":");
	text_put_i64(b, gs->move_ms);
	TEXT_PUT_LIT(b, ",\"game_ms\":");
	text_put_i64(b, gs->game_ms);
	TEXT_PUT_LIT(b, "}}");
out:
	return text_end(b, rc);
}

/* Every number of the view in range (R3, R4, R13): the room view_room()
 * reserves counts on it. */
static int view_ok(const struct seat_view *v)
{
	if (v->players < 2 || v->players > ENGINE_MAX_PLAYERS || v->seat < 0 ||
	    v->seat >= v->players || v->to_move < 0 || v->to_move >= v->players ||
	    v->hand_size < 0 || v->hand_size > ENGINE_HAND_SIZE || v->draw_size < 0 ||
	    v->draw_size > ENGINE_DECK_SIZE || v->completed_size < 0 ||
	    v->completed_size > ENGINE_DECK_SIZE ||
	    (v->partnership && (v->partner < 0 || v->partner >= v->players)))
		return 0;
	for (int s = 0; s < v->players; s++) {
		if (v->stock_size[s] < 0 || v->stock_size[s] > 30 || v->others_hand_size[s] < 0 ||
		    v->others_hand_size[s] > ENGINE_HAND_SIZE)
			return 0;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			if (v->discard_size[s][p] < 0 || v->discard_size[s][p] > ENGINE_DECK_SIZE)
				return 0;
	}
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
		if (v->building_value[p] < 0 || v->building_value[p] > 12 ||
		    v->building_size[p] < 0 || v->building_size[p] > ENGINE_DECK_SIZE)
			return 0;
	return 1;
}

/* The view (R13) of one seat: needs the room computed by view_room(). */
static size_t view_room(const struct seat_view *v)
{
	size_t cards = 0;

	for (int s = 0; s < v->players; s++)
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			cards += (size_t)v->discard_size[s][p];
	return 512 + 160 * (size_t)v->players + 3 * cards;
}

static int put_view(struct protocol_buf *b, const struct seat_view *v)
{
	PUT_SMALL_FIELD(b, "\"view\":{\"seat\":", (unsigned)v->seat);
	PUT_SMALL_FIELD(b, ",\"to_move\":", (unsigned)v->to_move);
	TEXT_PUT_LIT(b, ",\"partner\":");
	if (v->partnership && v->partner >= 0)
		text_put_small(b, (unsigned)v->partner);
	else
		TEXT_PUT_LIT(b, "null");
	TEXT_PUT_LIT(b, ",\"hand\":[");
	for (int i = 0; i < v->hand_size; i++) {
		if (i)
			text_putc(b, ',');
		if (!card_ok(v->hand[i]))
			return PROTOCOL_EINVAL;
		text_put_small(b, v->hand[i]);
	}
	TEXT_PUT_LIT(b, "],\"players\":[");
	for (int s = 0; s < v->players; s++) {
		int hand = s == v->seat ? v->hand_size : v->others_hand_size[s];

		if (s)
			text_putc(b, ',');
		PUT_SMALL_FIELD(b, "{\"seat\":", (unsigned)s);
		PUT_SMALL_FIELD(b, ",\"stock_size\":", (unsigned)v->stock_size[s]);
		TEXT_PUT_LIT(b, ",\"stock_top\":");
		if (put_card_or_null(b, v->stock_size[s] > 0 ? v->stock_top[s] : CARD_NONE))
			return PROTOCOL_EINVAL;
		PUT_SMALL_FIELD(b, ",\"hand_size\":", (unsigned)hand);
		TEXT_PUT_LIT(b, ",\"discards\":[");
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			int n = v->discard_size[s][p];

			if (p)
				text_putc(b, ',');
			TEXT_PUT_LIT(b, "[");
			for (int i = 0; i < n; i++) {
				if (i)
					text_putc(b, ',');
				if (!card_ok(v->discard[s][p][i]))
					return PROTOCOL_EINVAL;
				text_put_small(b, v->discard[s][p][i]);
			}
			text_putc(b, ']');
		}
		TEXT_PUT_LIT(b, "],\"removed\":");
		put_bool(b, v->removed[s]);
		text_putc(b, '}');
	}
	TEXT_PUT_LIT(b, "],\"building\":[");
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
		if (p)
			text_putc(b, ',');
		PUT_SMALL_FIELD(b, "{\"value\":", (unsigned)v->building_value[p]);
		PUT_SMALL_FIELD(b, ",\"size\":", (unsigned)v->building_size[p]);
		text_putc(b, '}');
	}
	PUT_SMALL_FIELD(b, "],\"draw_pile\":", (unsigned)v->draw_size);
	PUT_SMALL_FIELD(b, ",\"completed\":", (unsigned)v->completed_size);
	text_putc(b, '}');
	return 0;
}

/*
 * One redacted event, or a run of draws by one seat starting at ev[0]:
 * returns how many raw events it consumed (>= 1), or a negative code.
 * *first says whether a comma is needed and is cleared once one is written.
 */
static int put_event(struct protocol_buf *b, const struct protocol_request_args *req,
		     const struct event *ev, size_t left, int *first)
{
	struct event e;
	const char *from;
	int viewer = req->view->seat;
	int rc;

	event_for_seat(ev, viewer, &e);
	if (e.kind == EVENT_END || e.kind < EVENT_TURN || e.kind > EVENT_END)
		return 1;
	if ((rc = text_reserve(b, EVENT_ROOM)))
		return rc;
	if (!*first)
		text_putc(b, ',');
	*first = 0;
	switch (e.kind) {
	case EVENT_TURN:
		PUT_SMALL_FIELD(b, "{\"type\":\"turn\",\"seat\":", e.seat);
		TEXT_PUT_LIT(b, ",\"turn\":");
		text_put_u64(b, e.turn);
		break;
	case EVENT_DRAW: {
		size_t run = 1;
		int shown = e.card != CARD_NONE;
		struct event next;

		/* Merge the run of draws by this seat into one event (PROTOCOL.md "draw"). */
		while (run < left && ev[run].kind == EVENT_DRAW && ev[run].seat == e.seat)
			run++;
		if ((rc = text_reserve(b, EVENT_ROOM + 3 * run)))
			return rc;
		PUT_SMALL_FIELD(b, "{\"type\":\"draw\",\"seat\":", e.seat);
		TEXT_PUT_LIT(b, ",\"count\":");
		text_put_u64(b, run);
		if (shown) {
			TEXT_PUT_LIT(b, ",\"cards\":[");
			for (size_t i = 0; i < run; i++) {
				event_for_seat(&ev[i], viewer, &next);
				if (i)
					text_putc(b, ',');
				if (!card_ok(next.card))
					return PROTOCOL_EINVAL;
				text_put_small(b, next.card);
			}
			text_putc(b, ']');
		}
		text_putc(b, '}');
		return (int)run;
	}
	case EVENT_PLAY:
		from = text_source_name(e.source);
		if (!from || !card_ok(e.card))
			return PROTOCOL_EINVAL;
		PUT_SMALL_FIELD(b, "{\"type\":\"play\",\"seat\":", e.seat);
		TEXT_PUT_LIT(b, ",\"from\":\"");
		text_put(b, from, strlen(from));
		PUT_SMALL_FIELD(b, "\",\"owner\":", e.source == SOURCE_HAND ? e.seat : e.owner);
		if (e.source == SOURCE_DISCARD) {
			PUT_SMALL_FIELD(b, ",\"pile\":", e.pile);
		}
		PUT_SMALL_FIELD(b, ",\"card\":", e.card);
		PUT_SMALL_FIELD(b, ",\"value\":", e.value);
		PUT_SMALL_FIELD(b, ",\"to\":", e.target);
		break;
	case EVENT_STOCK_TOP:
		/* The stock belongs to owner; seat may be a partner who played from it (R10). */
		PUT_SMALL_FIELD(b, "{\"type\":\"stock_top\",\"seat\":", e.owner);
		TEXT_PUT_LIT(b, ",\"card\":");
		if (put_card_or_null(b, e.card))
			return PROTOCOL_EINVAL;
		break;
	case EVENT_COMPLETE:
		PUT_SMALL_FIELD(b, "{\"type\":\"complete\",\"pile\":", e.target);
		break;
	case EVENT_DISCARD:
		if (!card_ok(e.card))
			return PROTOCOL_EINVAL;
		PUT_SMALL_FIELD(b, "{\"type\":\"discard\",\"seat\":", e.seat);
		PUT_SMALL_FIELD(b, ",\"card\":", e.card);
		PUT_SMALL_FIELD(b, ",\"pile\":", e.target);
		break;
	case EVENT_PASS:
		PUT_SMALL_FIELD(b, "{\"type\":\"pass\",\"seat\":", e.seat);
		break;
	case EVENT_REFILL:
		TEXT_PUT_LIT(b, "{\"type\":\"refill\",\"source\":");
		if (e.source == 1)
			TEXT_PUT_LIT(b, "\"completed\"");
		else
			TEXT_PUT_LIT(b, "\"building\"");
		TEXT_PUT_LIT(b, ",\"count\":");
		text_put_u64(b, e.count);
		break;
	case EVENT_REMOVED: {
		const char *kind = req->fault && e.seat < ENGINE_MAX_PLAYERS ? req->fault[e.seat] : NULL;

		PUT_SMALL_FIELD(b, "{\"type\":\"removed\",\"seat\":", e.seat);
		if ((rc = PUT_STRING_FIELD(b, ",\"fault\":", kind ? kind : "unknown")))
			return rc;
		if ((rc = text_reserve(b, 1)))
			return rc;
		break;
	}
	}
	text_putc(b, '}');
	return 1;
}

int protocol_encode_request(struct protocol_buf *b, const struct protocol_request_args *req)
{
	const struct seat_view *v = req->view;
	int rc, first = 1, listed, discard_any = 0;

	if (!v || !req->game || !view_ok(v) || req->n_legal < 0 ||
	    req->n_legal > ENGINE_MAX_MOVES || (req->n_events && !req->events) ||
	    strnlen(req->game, PROTOCOL_ID_MAX) == PROTOCOL_ID_MAX)
		return text_end(b, PROTOCOL_EINVAL);
	listed = req->n_legal;
	if (req->compact &&
	    (listed = legal_compact_count(v, req->legal, req->n_legal, &discard_any)) < 0)
		return text_end(b, PROTOCOL_EINVAL);
	rc = text_begin(b, 64);
	if (rc)
		goto out;
	TEXT_PUT_LIT(b, "{\"type\":\"request\"");
	if ((rc = PUT_STRING_FIELD(b, ",\"game\":", req->game)))
		goto out;
	if ((rc = text_reserve(b, 192 + view_room(v))))
		goto out;
	TEXT_PUT_LIT(b, ",\"turn\":");
	text_put_u64(b, req->turn);
	TEXT_PUT_LIT(b, ",\"move\":");
	text_put_u64(b, req->move);
	TEXT_PUT_LIT(b, ",\"time\":{\"move_ms\":");
	text_put_i64(b, req->move_ms);
	TEXT_PUT_LIT(b, ",\"bank_ms\":");
	text_put_i64(b, req->bank_ms);
	TEXT_PUT_LIT(b, "},");
	if ((rc = put_view(b, v)))
		goto out;
	TEXT_PUT_LIT(b, ",\"events\":[");
	for (size_t i = 0; i < req->n_events;) {
		rc = put_event(b, req, &req->events[i], req->n_events - i, &first);
		if (rc < 0)
			goto out;
		i += (size_t)rc;
	}
	/* "],\"legal\":[" ... "],\"discard_any\":false}" around the moves */
	rc = text_reserve(b, 48 + MOVE_ROOM * (size_t)req->n_legal);
	if (rc)
		goto out;
	TEXT_PUT_LIT(b, "],\"legal\":[");
	for (int i = 0; i < listed; i++) {
		if (i)
			text_putc(b, ',');
		if ((rc = put_move(b, &req->legal[i], req->compact)))
			goto out;
	}
	text_putc(b, ']');
	if (req->compact) {
		TEXT_PUT_LIT(b, ",\"discard_any\":");
		put_bool(b, discard_any);
	}
	text_putc(b, '}');
	rc = 0;
out:
	return text_end(b, rc);
}

static void put_seat_ints(struct protocol_buf *b, const int *v, int n)
{
	text_putc(b, '[');
	for (int s = 0; s < n; s++) {
		if (s)
			text_putc(b, ',');
		text_put_i64(b, v[s]);
	}
	text_putc(b, ']');
}

int protocol_encode_game_end(struct protocol_buf *b, const struct protocol_game_end *ge)
{
	const struct game_result *r = &ge->result;
	const char *reason = text_reason_name(r->reason);
	int n = ge->players;
	int rc, first = 1;

	if (n < 2 || n > ENGINE_MAX_PLAYERS || !reason || ge->n_faults < 0 ||
	    ge->n_faults > ENGINE_MAX_PLAYERS || strnlen(ge->game, PROTOCOL_ID_MAX) == PROTOCOL_ID_MAX)
		return text_end(b, PROTOCOL_EINVAL);
	rc = text_begin(b, 64);
	if (rc)
		goto out;
	TEXT_PUT_LIT(b, "{\"type\":\"game_end\"");
	if ((rc = PUT_STRING_FIELD(b, ",\"game\":", ge->game)))
		goto out;
	if ((rc = text_reserve(b, 512)))
		goto out;
	TEXT_PUT_LIT(b, ",\"reason\":\"");
	text_put(b, reason, strlen(reason));
	TEXT_PUT_LIT(b, "\",\"winners\":[");
	for (int s = 0; s < n; s++) {
		if (!r->winners[s])
			continue;
		if (!first)
			text_putc(b, ',');
		first = 0;
		text_put_small(b, (unsigned)s);
	}
	TEXT_PUT_LIT(b, "],\"placings\":");
	put_seat_ints(b, r->placing, n);
	TEXT_PUT_LIT(b, ",\"stock_left\":");
	put_seat_ints(b, r->stock_left, n);
	TEXT_PUT_LIT(b, ",\"scores\":");
	put_seat_ints(b, r->score, n);
	TEXT_PUT_LIT(b, ",\"turns\":");
	text_put_u64(b, r->turns);
	TEXT_PUT_LIT(b, ",\"moves\":");
	text_put_u64(b, r->moves);
	TEXT_PUT_LIT(b, ",\"faults\":[");
	for (int i = 0; i < ge->n_faults; i++) {
		const struct protocol_fault *f = &ge->faults[i];

		if (f->seat < 0 || f->seat >= n ||
		    strnlen(f->kind, PROTOCOL_KIND_MAX) == PROTOCOL_KIND_MAX ||
		    strnlen(f->reason, PROTOCOL_REASON_MAX) == PROTOCOL_REASON_MAX) {
			rc = PROTOCOL_EINVAL;
			goto out;
		}
		if ((rc = text_reserve(b, 16)))
			goto out;
		if (i)
			text_putc(b, ',');
		PUT_SMALL_FIELD(b, "{\"seat\":", (unsigned)f->seat);
		if ((rc = PUT_STRING_FIELD(b, ",\"kind\":", f->kind)) ||
		    (rc = PUT_STRING_FIELD(b, ",\"reason\":", f->reason)) ||
		    (rc = text_reserve(b, 1)))
			goto out;
		text_putc(b, '}');
	}
	if ((rc = text_reserve(b, 2)))
		goto out;
	TEXT_PUT_LIT(b, "]}");
out:
	return text_end(b, rc);
}

int protocol_encode_quit(struct protocol_buf *b)
{
	int rc = text_begin(b, 16);

	if (rc == 0)
		TEXT_PUT_LIT(b, "{\"type\":\"quit\"}");
	return text_end(b, rc);
}

int protocol_format_hello(struct protocol_buf *b, const char *name, const char *version,
			  const char *author)
{
	return protocol_format_hello_features(b, name, version, author, 0);
}

int protocol_format_hello_features(struct protocol_buf *b, const char *name, const char *version,
				   const char *author, unsigned features)
{
	int rc;

	if (!name || !*name || strlen(name) >= PROTOCOL_NAME_MAX ||
	    (features & ~PROTOCOL_FEATURE_COMPACT_LEGAL) ||
	    (version && strlen(version) >= PROTOCOL_NAME_MAX) ||
	    (author && strlen(author) >= PROTOCOL_NAME_MAX))
		return text_end(b, PROTOCOL_EINVAL);
	rc = text_begin(b, 64);
	if (rc)
		goto out;
	PUT_SMALL_FIELD(b, "{\"type\":\"hello\",\"protocol\":", PROTOCOL_VERSION);
	if ((rc = PUT_STRING_FIELD(b, ",\"name\":", name)))
		goto out;
	if (version && (rc = PUT_STRING_FIELD(b, ",\"version\":", version)))
		goto out;
	if (author && (rc = PUT_STRING_FIELD(b, ",\"author\":", author)))
		goto out;
	if ((rc = text_reserve(b, 64)))
		goto out;
	if (features & PROTOCOL_FEATURE_COMPACT_LEGAL)
		TEXT_PUT_LIT(b, ",\"features\":[\"compact_legal\"]");
	text_putc(b, '}');
out:
	return text_end(b, rc);
}

int protocol_format_move(struct protocol_buf *b, const struct move *m)
{
	int rc = text_begin(b, 32 + MOVE_ROOM);

	if (rc)
		goto out;
	TEXT_PUT_LIT(b, "{\"type\":\"move\",\"move\":");
	if ((rc = put_move(b, m, 0)))
		goto out;
	text_putc(b, '}');
out:
	return text_end(b, rc);
}
