/*
 * rivals.c - threats from the other seats (see rivals.h).
 */
#include <string.h>

#include "rivals.h"
#include "table.h"

/* Chance that a rival's unseen hand (5 cards at the start of its turn, more
 * as it empties it) supplies one more card of a chain: a given number or a
 * wild is among 5 random cards about 70% of the time. */
#define REACH_PER_CARD 0.65
/* Weight of a rival's threat by how soon it moves: the piles change between turns. */
static const double order_weight[] = { 0.0, 1.0, 0.55, 0.35, 0.25, 0.2 };

static void add_piles(struct rival *r, const struct seat_view *v, int seat)
{
	for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
		int n = v->discard_size[seat][p];
		if (n > 0 && r->piles < 2 * ENGINE_DISCARD_PILES) {
			r->discard[r->piles] = v->discard[seat][p];
			r->discard_size[r->piles++] = n;
		}
	}
}

static int partner_of(const struct seat_view *v, int seat)
{
	if (!v->partnership)
		return -1;
	/* R2: teams are seats s and s + n/2. */
	return (seat + v->players / 2) % v->players;
}

void rivals_from_view(struct rivals *rv, const struct seat_view *v)
{
	memset(rv, 0, sizeof(*rv));
	int order = 0, team_seen[ENGINE_MAX_PLAYERS] = { 0 };
	for (int k = 1; k < v->players; k++) {
		int seat = (v->seat + k) % v->players;
		if (v->removed[seat])
			continue;
		struct rival *r = &rv->r[rv->n++];
		r->seat = seat;
		r->order = ++order;
		r->teammate = v->partnership && seat == v->partner;
		/* R2: teams are seats s and s + n/2. */
		int team = v->partnership ? seat % (v->players / 2) : seat;
		if (!r->teammate && !team_seen[team]++)
			rv->sides++;
		r->stock_size = v->stock_size[seat];
		r->stock_top = r->stock_size > 0 ? v->stock_top[seat] : CARD_NONE;
		add_piles(r, v, seat);
		int mate = partner_of(v, seat);
		if (mate >= 0 && mate != v->seat)
			add_piles(r, v, mate);
	}
}

const struct rival *rivals_next_opponent(const struct rivals *rv)
{
	for (int i = 0; i < rv->n; i++)
		if (!rv->r[i].teammate)
			return &rv->r[i];
	return NULL;
}

/* Take a discard top showing value (else a wild top) off the piles left[]; 1 if found. */
static int take_top(const struct rival *r, int value, int *left)
{
	for (int wild = 0; wild <= 1; wild++)
		for (int i = 0; i < r->piles; i++) {
			int want = wild ? CARD_SKIPBO : value;
			if (left[i] > 0 && r->discard[i][left[i] - 1] == want) {
				left[i]--;
				return 1;
			}
		}
	return 0;
}

double rivals_reach(const struct rival *r, const int building[ENGINE_BUILDING_PILES])
{
	if (r->stock_size <= 0 || r->stock_top == CARD_NONE)
		return 0.0;
	if (r->stock_top == CARD_SKIPBO)
		return 1.0;
	int need = table_needed_value(r->stock_top);
	if (need < 0)
		return 0.0;
	double best = 0.0;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		double p = 1.0;
		int left[2 * ENGINE_DISCARD_PILES];
		int v = building[b];
		int steps = table_pile_distance(v, need);
		memcpy(left, r->discard_size, sizeof(left));
		for (int i = 0; i < steps && p > best; i++) {
			v = v == 12 ? 1 : v + 1;
			if (!take_top(r, v, left))
				p *= REACH_PER_CARD;
		}
		if (p > best)
			best = p;
	}
	return best;
}

double rivals_threat_of(const struct rivals *rv, const double *reach)
{
	double sum = 0.0;
	for (int i = 0; i < rv->n; i++) {
		const struct rival *r = &rv->r[i];
		int o = r->order < 6 ? r->order : 5;
		double w = order_weight[o] * reach[i];
		/* A rival close to emptying its stock is more dangerous per card. */
		if (r->stock_size <= 3)
			w *= 1.5;
		sum += r->teammate ? -0.5 * w : w;
	}
	return sum;
}

double rivals_threat(const struct rivals *rv, const int building[ENGINE_BUILDING_PILES])
{
	double reach[ENGINE_MAX_PLAYERS - 1];
	for (int i = 0; i < rv->n; i++)
		reach[i] = rivals_reach(&rv->r[i], building);
	return rivals_threat_of(rv, reach);
}

int rivals_feeds_next(const struct rivals *rv, int value)
{
	const struct rival *r = rivals_next_opponent(rv);
	if (!r || r->stock_size <= 0)
		return 0;
	return r->stock_top <= 12 && r->stock_top != CARD_SKIPBO && value == r->stock_top - 1;
}

double rivals_stalemate_lead(const struct rivals *rv, int own_stock)
{
	int lead = 0, opponents = 0;
	for (int i = 0; i < rv->n; i++) {
		const struct rival *r = &rv->r[i];
		if (r->teammate)
			continue;
		opponents++;
		lead += (r->stock_size > own_stock) - (r->stock_size < own_stock);
	}
	return opponents > 0 ? (double)lead / opponents : 0;
}
