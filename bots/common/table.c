/*
 * table.c - the turn-level simulator (see table.h).
 */
#include <string.h>

#include "table.h"

static void side_from_view(struct table_side *s, const struct seat_view *v, int seat)
{
	s->seat = seat;
	s->stock_size = v->stock_size[seat];
	s->stock_top = s->stock_size > 0 ? v->stock_top[seat] : CARD_NONE;
	for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
		s->discard_size[p] = v->discard_size[seat][p];
		s->discard[p] = v->discard[seat][p];
	}
	s->stock_played = 0;
}

void table_from_view(struct table *t, const struct seat_view *v)
{
	memset(t, 0, sizeof(*t));
	int r6_cards = 0; /* R6: building piles give up all but their top cards */
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		t->building[b] = v->building_value[b];
		if (v->building_size[b] > 1)
			r6_cards += v->building_size[b] - 1;
	}
	for (int i = 0; i < v->hand_size && i < ENGINE_HAND_SIZE; i++)
		if (v->hand[i] < TABLE_CARD_VALUES)
			t->hand[v->hand[i]]++, t->hand_size++;
	t->can_draw = v->draw_size > 0 || v->completed_size > 0 || r6_cards > 0;
	t->sides = 1;
	side_from_view(&t->side[0], v, v->seat);
	if (v->partnership && v->partner >= 0 && v->partner < v->players) {
		t->sides = 2;
		side_from_view(&t->side[1], v, v->partner);
	}
}

uint8_t table_discard_top(const struct table *t, int s, int pile)
{
	const struct table_side *sd = &t->side[s];
	if (sd->discard_size[pile] <= 0)
		return CARD_NONE;
	return sd->discard[pile][sd->discard_size[pile] - 1];
}

int table_needed_value(uint8_t card)
{
	if (card >= 1 && card <= 12)
		return card - 1;
	return -1;
}

int table_pile_distance(int from, int to)
{
	if (to >= from)
		return to - from;
	/* Up to 12, where the pile completes and restarts at 0, then up to `to`. */
	return 12 - from + to;
}

static int add_plays_of(uint8_t card, const struct table *t, struct move proto, struct move *out, int n)
{
	for (int b = 0; b < ENGINE_BUILDING_PILES && n < TABLE_MAX_PLAYS; b++) {
		if (!building_pile_accepts(t->building[b], card))
			continue;
		/* A wild on equal-valued piles gives the same position: keep one. */
		int same = 0;
		for (int e = 0; e < b; e++)
			same |= t->building[e] == t->building[b];
		if (same)
			continue;
		proto.card = card;
		proto.target = (uint8_t)b;
		out[n++] = proto;
	}
	return n;
}

int table_plays(const struct table *t, struct move *out)
{
	int n = 0;
	for (int s = 0; s < t->sides; s++) {
		const struct table_side *sd = &t->side[s];
		uint8_t top = sd->stock_top;
		if (sd->stock_size > 0 && top < TABLE_CARD_VALUES) {
			struct move m = { .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = (uint8_t)sd->seat };
			n = add_plays_of(top, t, m, out, n);
		}
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			uint8_t c = table_discard_top(t, s, p);
			if (c == CARD_NONE)
				continue;
			struct move m = { .kind = MOVE_PLAY, .source = SOURCE_DISCARD,
				.owner = (uint8_t)sd->seat, .pile = (uint8_t)p };
			n = add_plays_of(c, t, m, out, n);
		}
	}
	if (!t->refilled) {
		for (int c = 0; c < TABLE_CARD_VALUES; c++) {
			if (!t->hand[c])
				continue;
			struct move m = { .kind = MOVE_PLAY, .source = SOURCE_HAND, .owner = (uint8_t)t->side[0].seat };
			n = add_plays_of((uint8_t)c, t, m, out, n);
		}
	}
	return n;
}

static int side_of(const struct table *t, int seat)
{
	for (int s = 0; s < t->sides; s++)
		if (t->side[s].seat == seat)
			return s;
	return -1;
}

/* Put card on building pile b (already checked), completing it at 12 (R4).
 * Wilds from a stock are not counted as spent: they were never a choice. */
static void build(struct table *t, int b, uint8_t card, int from_stock)
{
	t->building[b]++;
	t->cards_played++;
	if (card == CARD_SKIPBO && !from_stock)
		t->wilds_played++;
	if (t->building[b] == 12) {
		t->building[b] = 0;
		t->completed++;
	}
}

static int apply_play(struct table *t, const struct move *m)
{
	if (m->target >= ENGINE_BUILDING_PILES)
		return -1;
	int b = m->target;
	if (m->source == SOURCE_HAND) {
		if (t->refilled || m->card >= TABLE_CARD_VALUES || !t->hand[m->card])
			return -1;
		if (!building_pile_accepts(t->building[b], m->card))
			return -1;
		t->hand[m->card]--;
		t->hand_size--;
		build(t, b, m->card, 0);
		/* R5.2: an emptied hand draws 5 more at once; they are unknown here. */
		if (t->hand_size == 0 && (t->can_draw || t->completed))
			t->refilled = 1;
		return 0;
	}
	int s = side_of(t, m->owner);
	if (s < 0)
		return -1;
	struct table_side *sd = &t->side[s];
	if (m->source == SOURCE_STOCK) {
		if (sd->stock_size <= 0 || sd->stock_top >= TABLE_CARD_VALUES)
			return -1;
		if (!building_pile_accepts(t->building[b], sd->stock_top))
			return -1;
		build(t, b, sd->stock_top, 1);
		sd->stock_size--;
		sd->stock_played++;
		sd->stock_top = sd->stock_size > 0 ? TABLE_UNKNOWN : CARD_NONE;
		return 0;
	}
	if (m->source == SOURCE_DISCARD) {
		if (m->pile >= ENGINE_DISCARD_PILES)
			return -1;
		uint8_t c = table_discard_top(t, s, m->pile);
		if (c == CARD_NONE || !building_pile_accepts(t->building[b], c))
			return -1;
		build(t, b, c, 0);
		sd->discard_size[m->pile]--;
		return 0;
	}
	return -1;
}

int table_apply(struct table *t, const struct move *m)
{
	if (m->kind == MOVE_PLAY)
		return apply_play(t, m);
	if (m->kind == MOVE_DISCARD) {
		/* The discarded card stays visible through the view, not the table. */
		if (t->refilled || m->card >= TABLE_CARD_VALUES || !t->hand[m->card] ||
		    m->target >= ENGINE_DISCARD_PILES)
			return -1;
		t->hand[m->card]--;
		t->hand_size--;
		return 0;
	}
	if (m->kind == MOVE_PASS)
		return t->hand_size == 0 && !t->refilled ? 0 : -1;
	return -1;
}

int table_stock_emptied(const struct table *t, int s)
{
	return t->side[s].stock_size == 0;
}

int table_discard_fit(uint8_t c, uint8_t top)
{
	if (top == CARD_NONE)
		return c >= 9 ? 5 : 2; /* high cards make good bases: they are played last */
	if (top == CARD_SKIPBO)
		return -10; /* never bury a wild */
	if (c == CARD_SKIPBO)
		return 0;
	if (c == top - 1)
		return 6; /* counts down: play c, then the card beneath */
	if (c == top)
		return 5;
	if (c < top)
		return 1;
	return -2 - (c - top); /* buries a lower card under a higher one */
}

int table_find_legal(const struct move *legal, int n, const struct move *m)
{
	for (int i = 0; i < n; i++) {
		struct move probe = *m;

		/* A play from a stock or discard pile moves whatever card is on top. */
		if (probe.kind == MOVE_PLAY && probe.source != SOURCE_HAND)
			probe.card = legal[i].card;
		if (move_equal(&legal[i], &probe))
			return i;
	}
	return -1;
}

int table_fallback(const struct move *legal, int n)
{
	int best = -1;
	for (int i = 0; i < n; i++) {
		if (legal[i].kind != MOVE_DISCARD || legal[i].card == CARD_SKIPBO)
			continue;
		if (best < 0 || legal[i].card > legal[best].card)
			best = i;
	}
	return best >= 0 ? best : (n > 0 ? 0 : -1);
}
