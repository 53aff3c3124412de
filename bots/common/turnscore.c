/*
 * turnscore.c - the end of a turn, scored (see turnscore.h).
 */
#include <string.h>

#include "turnscore.h"

/* Chance that an unknown card (one of the next draws) supplies a needed step. */
#define P_UNKNOWN_STEP 0.5
/* Chance of reaching a stock top that is not turned up yet. */
#define P_UNKNOWN_TOP 0.35

void turnscore_default(struct turnscore_weights *w)
{
	*w = (struct turnscore_weights){
		.stock = 100.0,
		.partner_stock = 90.0,
		.emptied = 400.0,
		.win = 1e6,
		.threat = 150.0,
		.prospect = 35.0,
		.now = 80.0,
		.refill = 15.0,
		.wild = 35.0,
		.played = 2.0,
		.fit = 3.0,
		.keep = 3.0,
		.discard_wild = 12.0,
	};
}

/* 0..6: how soon card c may be wanted on some building pile (6 = next). */
static int closeness(const struct table *t, uint8_t c)
{
	int near = 6;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		int d = table_pile_distance(t->building[b], c - 1);
		if (d < near)
			near = d;
	}
	return 6 - near;
}

/*
 * The chance of playing the own stock top on some pile, given visible
 * discard tops (tops[0..ntops)), the known hand cards `hand` (may be NULL) and
 * unknown cards for the rest of each chain.
 */
static double own_reach(const struct table *t, const int building[ENGINE_BUILDING_PILES],
			const uint8_t *tops, int ntops, const int *hand)
{
	uint8_t top = t->side[0].stock_top;
	if (t->side[0].stock_size <= 0 || top == CARD_NONE)
		return 0.0;
	if (top == TABLE_UNKNOWN)
		return P_UNKNOWN_TOP;
	if (top == CARD_SKIPBO)
		return 1.0;
	int need = table_needed_value(top);
	double best = 0.0;
	for (int b = 0; b < ENGINE_BUILDING_PILES && best < 1.0; b++) {
		int steps = table_pile_distance(building[b], need);
		int v = building[b], used = 0, cards[TABLE_CARD_VALUES] = { 0 };
		double p = 1.0;
		if (hand)
			memcpy(cards, hand, sizeof(cards));
		for (int i = 0; i < steps && p > best; i++) {
			v = v == 12 ? 1 : v + 1;
			int found = 0;
			for (int k = 0; k < ntops && !found; k++)
				if (!(used & (1 << k)) && tops[k] == v)
					used |= 1 << k, found = 1;
			if (!found && cards[v] > 0)
				cards[v]--, found = 1;
			if (!found && cards[CARD_SKIPBO] > 0)
				cards[CARD_SKIPBO]--, found = 1;
			if (!found)
				p *= P_UNKNOWN_STEP;
		}
		if (p > best)
			best = p;
	}
	return best;
}

/* The discard tops the player may use, with own pile `pile` topped by `card` (pile -1: none). */
static int usable_tops(const struct table *t, int pile, uint8_t card, uint8_t *tops)
{
	int n = 0;
	for (int s = 0; s < t->sides; s++)
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			uint8_t c = s == 0 && p == pile ? card : table_discard_top(t, s, p);
			if (c != CARD_NONE)
				tops[n++] = c;
		}
	return n;
}

double turnscore_base(const struct turnscore_weights *w, const struct table *t, const struct rivals *rv)
{
	const struct table_side *me = &t->side[0];
	int partner_done = t->sides < 2 || t->side[1].stock_size == 0;
	if (me->stock_size == 0 && partner_done)
		return w->win;
	double score = w->stock * me->stock_played;
	if (t->sides == 2)
		score += w->partner_stock * t->side[1].stock_played;
	if (me->stock_size == 0)
		score += w->emptied;
	int stock_cards = me->stock_played + (t->sides == 2 ? t->side[1].stock_played : 0);
	score += w->played * (t->cards_played - stock_cards);
	score -= w->wild * t->wilds_played;
	/* A stock card of the own side gains on every other side, one of theirs
	 * on the own side only: against each side's card, weigh 1/sides. */
	score -= w->threat * rivals_threat(rv, t->building) / (rv->sides > 1 ? rv->sides : 1);
	return score;
}

double turnscore_discard(const struct turnscore_weights *w, const struct table *t, double base, uint8_t c, int p)
{
	uint8_t tops[2 * ENGINE_DISCARD_PILES];
	int hand[TABLE_CARD_VALUES];
	memcpy(hand, t->hand, sizeof(hand));
	hand[c]--;
	int n = usable_tops(t, p, c, tops);
	double score = base + w->prospect * own_reach(t, t->building, tops, n, hand);
	score += w->fit * table_discard_fit(c, table_discard_top(t, 0, p));
	if (c == CARD_SKIPBO)
		score -= w->discard_wild;
	else
		score -= w->keep * closeness(t, c); /* a card about to be wanted is worth keeping */
	return score;
}

double turnscore_refilled(const struct turnscore_weights *w, const struct table *t, double base)
{
	uint8_t tops[2 * ENGINE_DISCARD_PILES];
	int n = usable_tops(t, -1, CARD_NONE, tops);
	return base + w->refill + w->now * own_reach(t, t->building, tops, n, NULL);
}

double turnscore_pass(const struct turnscore_weights *w, const struct table *t, double base)
{
	uint8_t tops[2 * ENGINE_DISCARD_PILES];
	int n = usable_tops(t, -1, CARD_NONE, tops);
	return base + w->prospect * own_reach(t, t->building, tops, n, NULL);
}

double turnscore_stop(const struct turnscore_weights *w, const struct table *t, double base, struct move *best)
{
	if (t->hand_size == 0) {
		*best = (struct move){ .kind = MOVE_PASS };
		return turnscore_pass(w, t, base);
	}
	double top = 0;
	int found = 0;
	for (int c = 0; c < TABLE_CARD_VALUES; c++) {
		if (!t->hand[c])
			continue;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			double v = turnscore_discard(w, t, base, (uint8_t)c, p);
			if (!found || v > top) {
				found = 1;
				top = v;
				*best = (struct move){ .kind = MOVE_DISCARD, .card = (uint8_t)c, .target = (uint8_t)p };
			}
		}
	}
	return top;
}
