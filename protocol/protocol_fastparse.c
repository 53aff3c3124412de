/*
 * protocol_fastparse.c - the request line as protocol_encode_request()
 * writes it, read in one pass without a JSON tree.
 *
 * Every reader below returns 1 when the bytes at the cursor are exactly what
 * it expects (and moves past them), 0 to give up. Ranges and cross-checks are
 * those of protocol_parse.c, so that a line read here is one the strict reader
 * accepts with the same result; whatever it would refuse, or read to a
 * different struct, is given up on and left to it with its diagnostics.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol_fastparse.h"
#include "protocol_legal.h"

struct cursor {
	const char *p, *end;
};

static int expect(struct cursor *c, const char *s, size_t n)
{
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

#define EXPECT(c, lit) expect((c), "" lit, sizeof(lit) - 1)

static int expect_char(struct cursor *c, char ch)
{
	if (c->p == c->end || *c->p != ch)
		return 0;
	c->p++;
	return 1;
}

/* An integer from min to max, digits only: no sign, and no leading zero,
 * which JSON forbids. A fraction or exponent after it ("7.0", "7e0") is not
 * the byte the caller expects next, so the caller gives up on it. */
static int number(struct cursor *c, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = c->p;
	uint64_t v = 0;
	int digits = 0;

	while (p < c->end && *p >= '0' && *p <= '9' && digits <= 10) {
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
		digits++;
	}
	if (digits == 0 || digits > 10 || (digits > 1 && *c->p == '0') || v < min || v > max)
		return 0;
	c->p = p;
	*out = v;
	return 1;
}

static int small(struct cursor *c, int min, int max, int *out)
{
	uint64_t v;

	if (!number(c, (uint64_t)min, (uint64_t)max, &v))
		return 0;
	*out = (int)v;
	return 1;
}

/* A key literal then a small integer: ,"card":7 */
#define FIELD(c, lit, min, max, out) (EXPECT((c), lit) && small((c), (min), (max), (out)))

/* null (-1) or an integer from 0 to max. */
static int small_or_null(struct cursor *c, int max, int *out)
{
	if (EXPECT(c, "null")) {
		*out = -1;
		return 1;
	}
	return small(c, 0, max, out);
}

static int boolean(struct cursor *c, int *out)
{
	if (EXPECT(c, "true")) {
		*out = 1;
		return 1;
	}
	*out = 0;
	return EXPECT(c, "false");
}

/* A string of printable ASCII without escapes: its bytes are its value, and
 * valid UTF-8. */
static int string(struct cursor *c, const char **s, size_t *n)
{
	const char *p;

	if (!expect_char(c, '"'))
		return 0;
	for (p = c->p; p < c->end && *p != '"'; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '\\')
			return 0;
	if (p == c->end)
		return 0;
	*s = c->p;
	*n = (size_t)(p - c->p);
	c->p = p + 1;
	return 1;
}

/* An array of at most max cards (0..12). */
static int cards(struct cursor *c, int max, uint8_t *out, int *n)
{
	int k = 0, v;

	if (!expect_char(c, '['))
		return 0;
	if (!expect_char(c, ']')) {
		do {
			if (k == max || !small(c, CARD_SKIPBO, 12, &v))
				return 0;
			out[k++] = (uint8_t)v;
		} while (expect_char(c, ','));
		if (!expect_char(c, ']'))
			return 0;
	}
	*n = k;
	return 1;
}

/* view.players[s] */
static int player(struct cursor *c, int s, struct seat_view *v)
{
	int seat, top;

	if (!FIELD(c, "{\"seat\":", s, s, &seat) ||
	    !FIELD(c, ",\"stock_size\":", 0, 30, &v->stock_size[s]) ||
	    !EXPECT(c, ",\"stock_top\":") || !small_or_null(c, 12, &top) ||
	    /* R4: a stock shows its top card exactly while it holds cards. */
	    (top >= 0) != (v->stock_size[s] > 0) ||
	    !FIELD(c, ",\"hand_size\":", 0, ENGINE_HAND_SIZE, &v->others_hand_size[s]) ||
	    !EXPECT(c, ",\"discards\":["))
		return 0;
	v->stock_top[s] = top < 0 ? CARD_NONE : (uint8_t)top;
	for (int k = 0; k < ENGINE_DISCARD_PILES; k++)
		if ((k && !expect_char(c, ',')) ||
		    !cards(c, ENGINE_DECK_SIZE, v->discard[s][k], &v->discard_size[s][k]))
			return 0;
	return EXPECT(c, "],\"removed\":") && boolean(c, &v->removed[s]) && expect_char(c, '}');
}

static int view(struct cursor *c, uint32_t turn, struct seat_view *v)
{
	int seat, to_move, partner, n = 0;

	/* Zeroed whole, as the strict reader does. */
	memset(v, 0, sizeof(*v));
	v->turn = turn;
	if (!FIELD(c, "\"view\":{\"seat\":", 0, ENGINE_MAX_PLAYERS - 1, &seat) ||
	    !FIELD(c, ",\"to_move\":", 0, ENGINE_MAX_PLAYERS - 1, &to_move) ||
	    !EXPECT(c, ",\"partner\":") || !small_or_null(c, ENGINE_MAX_PLAYERS - 1, &partner) ||
	    !EXPECT(c, ",\"hand\":") || !cards(c, ENGINE_HAND_SIZE, v->hand, &v->hand_size) ||
	    !EXPECT(c, ",\"players\":["))
		return 0;
	do {
		if (n == ENGINE_MAX_PLAYERS || !player(c, n, v))
			return 0;
		n++;
	} while (expect_char(c, ','));
	/* seat, to_move and partner come before the players that bound them */
	if (n < 2 || seat >= n || to_move >= n || partner >= n ||
	    v->others_hand_size[seat] != v->hand_size || !EXPECT(c, "],\"building\":["))
		return 0;
	v->players = n;
	v->seat = seat;
	v->to_move = to_move;
	v->partner = partner;
	v->partnership = partner >= 0;
	for (int s = n; s < ENGINE_MAX_PLAYERS; s++)
		v->stock_top[s] = CARD_NONE;
	for (int k = 0; k < ENGINE_BUILDING_PILES; k++)
		if ((k && !expect_char(c, ',')) ||
		    !FIELD(c, "{\"value\":", 0, 12, &v->building_value[k]) ||
		    !FIELD(c, ",\"size\":", 0, ENGINE_DECK_SIZE, &v->building_size[k]) ||
		    !expect_char(c, '}'))
			return 0;
	return FIELD(c, "],\"draw_pile\":", 0, ENGINE_DECK_SIZE, &v->draw_size) &&
	       FIELD(c, ",\"completed\":", 0, ENGINE_DECK_SIZE, &v->completed_size) &&
	       expect_char(c, '}');
}

int request_events_reserve(struct protocol_message *m, size_t n)
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

/* A "draw" after its type: count events of one card each, the cards shown
 * when the line lists them. */
static int draw(struct cursor *c, int players, uint32_t turn, struct protocol_message *m)
{
	struct protocol_request *r = &m->request;
	struct event *e;
	int seat, count, card;

	if (!FIELD(c, ",\"seat\":", 0, players - 1, &seat) ||
	    !FIELD(c, ",\"count\":", 1, ENGINE_DECK_SIZE, &count) ||
	    request_events_reserve(m, (size_t)count))
		return 0;
	e = &r->events[r->n_events];
	memset(e, 0, (size_t)count * sizeof(*e));
	for (int i = 0; i < count; i++) {
		e[i].kind = EVENT_DRAW;
		e[i].seat = e[i].owner = (uint8_t)seat;
		e[i].card = CARD_NONE;
		e[i].count = 1;
		e[i].turn = turn;
	}
	if (EXPECT(c, ",\"cards\":[")) {
		for (int i = 0; i < count; i++) {
			if ((i && !expect_char(c, ',')) || !small(c, CARD_SKIPBO, 12, &card))
				return 0;
			e[i].card = (uint8_t)card;
		}
		if (!expect_char(c, ']'))
			return 0;
	}
	r->n_events += (size_t)count;
	return 1;
}

/* The source word of a play, in an event or a move. */
static int source(struct cursor *c, int *out)
{
	if (EXPECT(c, "hand"))
		*out = SOURCE_HAND;
	else if (EXPECT(c, "stock"))
		*out = SOURCE_STOCK;
	else if (EXPECT(c, "discard"))
		*out = SOURCE_DISCARD;
	else
		return 0;
	return 1;
}

/* A "play" event after its seat. */
static int play_event(struct cursor *c, int players, struct event *e)
{
	int from, owner, pile = 0, card, value, to;

	if (!EXPECT(c, ",\"from\":\"") || !source(c, &from) ||
	    !FIELD(c, "\",\"owner\":", 0, players - 1, &owner) ||
	    (from == SOURCE_DISCARD && !FIELD(c, ",\"pile\":", 0, ENGINE_DISCARD_PILES - 1, &pile)) ||
	    !FIELD(c, ",\"card\":", CARD_SKIPBO, 12, &card) ||
	    !FIELD(c, ",\"value\":", 1, 12, &value) ||
	    !FIELD(c, ",\"to\":", 0, ENGINE_BUILDING_PILES - 1, &to))
		return 0;
	e->source = (uint8_t)from;
	e->owner = (uint8_t)owner;
	e->pile = (uint8_t)pile;
	e->card = (uint8_t)card;
	e->value = (uint8_t)value;
	e->target = (uint8_t)to;
	return 1;
}

/* The fields of one event other than a draw after its type, into e (seat
 * and turn set, the rest zero, card CARD_NONE). */
static int event_fields(struct cursor *c, int kind, int players, struct event *e,
			struct protocol_request *r)
{
	const char *fault;
	size_t n;
	int seat = 0, v;

	if (kind != EVENT_COMPLETE && kind != EVENT_REFILL) {
		if (!FIELD(c, ",\"seat\":", 0, players - 1, &seat))
			return 0;
		e->seat = (uint8_t)seat;
	}
	switch (kind) {
	case EVENT_PLAY:
		return play_event(c, players, e);
	case EVENT_STOCK_TOP:
		if (!EXPECT(c, ",\"card\":") || !small_or_null(c, 12, &v))
			return 0;
		e->card = v < 0 ? CARD_NONE : (uint8_t)v;
		e->source = SOURCE_STOCK;
		e->owner = e->seat;
		return 1;
	case EVENT_COMPLETE:
		if (!FIELD(c, ",\"pile\":", 0, ENGINE_BUILDING_PILES - 1, &v))
			return 0;
		e->target = (uint8_t)v;
		return 1;
	case EVENT_DISCARD:
		if (!FIELD(c, ",\"card\":", CARD_SKIPBO, 12, &v))
			return 0;
		e->card = (uint8_t)v;
		if (!FIELD(c, ",\"pile\":", 0, ENGINE_DISCARD_PILES - 1, &v))
			return 0;
		e->target = (uint8_t)v;
		e->owner = e->seat;
		return 1;
	case EVENT_REFILL:
		if (EXPECT(c, ",\"source\":\"completed\""))
			e->source = 1;
		else if (EXPECT(c, ",\"source\":\"building\""))
			e->source = 2;
		else
			return 0;
		if (!FIELD(c, ",\"count\":", 0, ENGINE_DECK_SIZE, &v))
			return 0;
		e->count = (uint32_t)v;
		return 1;
	case EVENT_REMOVED:
		/* a kind the fault field would cut is left to the strict reader */
		if (!EXPECT(c, ",\"fault\":") || !string(c, &fault, &n) || n >= PROTOCOL_KIND_MAX)
			return 0;
		memcpy(r->fault[seat], fault, n);
		r->fault[seat][n] = '\0';
		return 1;
	default: /* EVENT_PASS: the seat is all */
		return 1;
	}
}

/* "type":"…" of an event, the comma after it included, as an EVENT_* kind;
 * types the encoder never writes give up. */
static int event_kind(struct cursor *c)
{
	static const struct {
		const char *lit;
		size_t n;
		int kind;
	} kinds[] = {
#define KIND(word, k) { "{\"type\":\"" word "\"", sizeof("{\"type\":\"" word "\"") - 1, k }
		KIND("play", EVENT_PLAY),       KIND("draw", EVENT_DRAW),
		KIND("turn", EVENT_TURN),       KIND("discard", EVENT_DISCARD),
		KIND("stock_top", EVENT_STOCK_TOP), KIND("complete", EVENT_COMPLETE),
		KIND("pass", EVENT_PASS),       KIND("refill", EVENT_REFILL),
		KIND("removed", EVENT_REMOVED),
#undef KIND
	};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (expect(c, kinds[k].lit, kinds[k].n))
			return kinds[k].kind;
	return -1;
}

/* The events, with the turn of each as the strict reader gives it (see
 * parse_events() in protocol_parse.c). */
static int events(struct cursor *c, struct protocol_message *m)
{
	struct protocol_request *r = &m->request;
	int players = r->view.players, seen_turn = 0, kind;
	uint32_t turn = r->turn;
	uint64_t t;

	if (!EXPECT(c, ",\"events\":["))
		return 0;
	if (expect_char(c, ']'))
		return 1;
	do {
		struct event *e;

		if ((kind = event_kind(c)) < 0)
			return 0;
		if (kind == EVENT_DRAW) {
			if (!draw(c, players, turn, m) || !expect_char(c, '}'))
				return 0;
			continue;
		}
		if (request_events_reserve(m, 1))
			return 0;
		e = &r->events[r->n_events];
		memset(e, 0, sizeof(*e));
		e->kind = (uint8_t)kind;
		e->card = CARD_NONE;
		if (!event_fields(c, kind, players, e, r))
			return 0;
		if (kind == EVENT_TURN) {
			if (!EXPECT(c, ",\"turn\":") || !number(c, 1, UINT32_MAX, &t))
				return 0;
			turn = (uint32_t)t;
			if (!seen_turn)
				for (size_t k = 0; k < r->n_events; k++)
					r->events[k].turn = turn - 1;
			seen_turn = 1;
		}
		e->turn = turn;
		if (!expect_char(c, '}'))
			return 0;
		r->n_events++;
	} while (expect_char(c, ','));
	return expect_char(c, ']');
}

/* What comes before each field of a play move in either form, after the
 * source word (PROTOCOL.md "Moves" and "Compact requests"). */
enum { PF_SEAT, PF_HAND_END, PF_PILE, PF_CARD, PF_TO, PF_END, PF_N };
static const char *const play_lits[2][PF_N] = {
	{ "\",\"seat\":", "\"", ",\"pile\":", ",\"card\":", ",\"to\":", "}" },
	{ "\",", "\"", ",", ",", ",", "]" },
};

static int lit(struct cursor *c, const char *s)
{
	return expect(c, s, strlen(s));
}

/* A play after the opening up to the source word; owner is the own seat for
 * a play from the hand, as legal_parse() sets it. */
static int play_move(struct cursor *c, const char *const *lits, int own, struct move *m)
{
	int from, seat = own, pile = 0, card, to;

	if (!source(c, &from) ||
	    (from == SOURCE_HAND ? !lit(c, lits[PF_HAND_END])
				 : !lit(c, lits[PF_SEAT]) || !small(c, 0, ENGINE_MAX_PLAYERS - 1, &seat)) ||
	    (from == SOURCE_DISCARD &&
	     (!lit(c, lits[PF_PILE]) || !small(c, 0, ENGINE_DISCARD_PILES - 1, &pile))) ||
	    !lit(c, lits[PF_CARD]) || !small(c, CARD_SKIPBO, 12, &card) ||
	    !lit(c, lits[PF_TO]) || !small(c, 0, ENGINE_BUILDING_PILES - 1, &to) ||
	    !lit(c, lits[PF_END]))
		return 0;
	*m = (struct move){ .kind = MOVE_PLAY, .source = (uint8_t)from, .owner = (uint8_t)seat,
			    .pile = (uint8_t)pile, .card = (uint8_t)card, .target = (uint8_t)to };
	return 1;
}

/* One move of the ordinary form (an object) or the compact one (an array). */
static int legal_move(struct cursor *c, int compact, int own, struct move *m)
{
	int card, pile;

	if (compact) {
		if (EXPECT(c, "[\"pass\"]")) {
			*m = (struct move){ .kind = MOVE_PASS, .owner = (uint8_t)own };
			return 1;
		}
		return EXPECT(c, "[\"") && play_move(c, play_lits[1], own, m);
	}
	if (EXPECT(c, "{\"action\":\"play\",\"from\":\""))
		return play_move(c, play_lits[0], own, m);
	if (EXPECT(c, "{\"action\":\"pass\"}")) {
		*m = (struct move){ .kind = MOVE_PASS, .owner = (uint8_t)own };
		return 1;
	}
	if (!FIELD(c, "{\"action\":\"discard\",\"card\":", CARD_SKIPBO, 12, &card) ||
	    !FIELD(c, ",\"pile\":", 0, ENGINE_DISCARD_PILES - 1, &pile) || !expect_char(c, '}'))
		return 0;
	*m = (struct move){ .kind = MOVE_DISCARD, .source = SOURCE_HAND, .owner = (uint8_t)own,
			    .card = (uint8_t)card, .target = (uint8_t)pile };
	return 1;
}

/* "legal" and, in the compact form, "discard_any", up to the end of the line.
 * The first move says which form the list is in; the end must agree. */
static int legal(struct cursor *c, struct protocol_request *r)
{
	struct move discards[ENGINE_DISCARD_PILES * ENGINE_HAND_SIZE];
	int any, nd;

	if (!EXPECT(c, ",\"legal\":["))
		return 0;
	r->n_legal = 0;
	r->compact = c->p < c->end && *c->p == '[';
	if (!expect_char(c, ']')) {
		do {
			if (r->n_legal == ENGINE_MAX_MOVES ||
			    !legal_move(c, r->compact, r->view.seat, &r->legal[r->n_legal]))
				return 0;
			r->n_legal++;
		} while (expect_char(c, ','));
		if (!expect_char(c, ']'))
			return 0;
	}
	if (EXPECT(c, "}")) {
		/* the ordinary form, unless its moves were arrays */
		return !r->compact && c->p == c->end;
	}
	if (!EXPECT(c, ",\"discard_any\":") || !boolean(c, &any) || !expect_char(c, '}') ||
	    c->p != c->end)
		return 0;
	if (r->n_legal && !r->compact)
		return 0;
	r->compact = 1;
	if (!any)
		return 1;
	nd = legal_discards(&r->view, discards);
	if (r->n_legal + nd > ENGINE_MAX_MOVES)
		return 0;
	memcpy(r->legal + r->n_legal, discards, (size_t)nd * sizeof(discards[0]));
	r->n_legal += nd;
	return 1;
}

int fastparse_request(struct protocol_message *m, const char *line, size_t len)
{
	struct protocol_request *r = &m->request;
	struct cursor c = { line, line + len };
	const char *game;
	uint64_t turn, move, move_ms, bank_ms;
	size_t n;

	if (len > PROTOCOL_ARENA_LINE_MAX || !EXPECT(&c, "{\"type\":\"request\",\"game\":") ||
	    !string(&c, &game, &n) || n >= sizeof(r->game) ||
	    !EXPECT(&c, ",\"turn\":") || !number(&c, 0, UINT32_MAX, &turn) ||
	    !EXPECT(&c, ",\"move\":") || !number(&c, 0, UINT32_MAX, &move) ||
	    !EXPECT(&c, ",\"time\":{\"move_ms\":") || !number(&c, 0, INT32_MAX, &move_ms) ||
	    !EXPECT(&c, ",\"bank_ms\":") || !number(&c, 0, INT32_MAX, &bank_ms) ||
	    !EXPECT(&c, "},"))
		return FASTPARSE_GAVE_UP;
	memcpy(r->game, game, n);
	r->game[n] = '\0';
	r->turn = (uint32_t)turn;
	r->move = (uint32_t)move;
	r->move_ms = (int64_t)move_ms;
	r->bank_ms = (int64_t)bank_ms;
	r->n_events = 0;
	memset(r->fault, 0, sizeof(r->fault));
	if (!view(&c, r->turn, &r->view) || !events(&c, m) || !legal(&c, r))
		return FASTPARSE_GAVE_UP;
	return 0;
}

int request_equal(const struct protocol_request *a, const struct protocol_request *b)
{
	return strcmp(a->game, b->game) == 0 && a->turn == b->turn && a->move == b->move &&
	       a->move_ms == b->move_ms && a->bank_ms == b->bank_ms &&
	       memcmp(&a->view, &b->view, sizeof(a->view)) == 0 &&
	       memcmp(a->fault, b->fault, sizeof(a->fault)) == 0 && a->compact == b->compact &&
	       a->n_events == b->n_events &&
	       (a->n_events == 0 || memcmp(a->events, b->events, a->n_events * sizeof(a->events[0])) == 0) &&
	       a->n_legal == b->n_legal &&
	       memcmp(a->legal, b->legal, (size_t)a->n_legal * sizeof(a->legal[0])) == 0;
}
