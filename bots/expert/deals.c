/*
 * deals.c - the unseen cards dealt at random (see deals.h).
 */
#include <string.h>

#include "deals.h"
#include "medium.h"

int dealer_init(struct dealer *d, const struct seat_view *v, const struct cards_known *k, uint64_t seed)
{
	d->v = v;
	d->k = k;
	d->n = 0;
	for (int c = 0; c < CARDS_VALUES; c++)
		for (int i = 0; i < k->unseen[c] && d->n < ENGINE_DECK_SIZE; i++)
			d->pool[d->n++] = (uint8_t)c;
	rng_seed(&d->rng, seed);
	return d->n;
}

void deals_seat_table(const struct seat_view *v, int s, const int building[ENGINE_BUILDING_PILES],
		      const int *hand, int hand_n, struct table *t)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->building, building, sizeof(t->building));
	memcpy(t->hand, hand, sizeof(t->hand));
	t->hand_size = hand_n;
	t->can_draw = 1;
	int mate = v->partnership ? (s + v->players / 2) % v->players : -1; /* R2 */
	for (int i = 0; i < 2; i++) {
		int seat = i == 0 ? s : mate;
		if (i == 1 && (mate < 0 || mate == v->seat))
			break;
		struct table_side *sd = &t->side[i];
		sd->seat = seat;
		sd->stock_size = v->stock_size[seat];
		sd->stock_top = v->stock_size[seat] > 0 ? v->stock_top[seat] : CARD_NONE;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			sd->discard_size[p] = v->discard_size[seat][p];
			sd->discard[p] = v->discard[seat][p];
		}
		t->sides = i + 1;
	}
}

/* Could seat s, holding hand h of n cards, have played a stock top on the
 * building piles as they were when it ended its last turn? */
static int could_have_played(const struct dealer *d, int s, const int *h, int n)
{
	struct table t;
	deals_seat_table(d->v, s, d->k->turn_end_value[s], h, n, &t);
	for (int i = 0; i < t.sides; i++)
		if (medium_reaches_stock(&t, i))
			return 1;
	return 0;
}

static uint8_t take(const struct dealer *d, int *used)
{
	return d->pool[(*used)++ % d->n];
}

void dealer_deal(struct dealer *d, struct deal *out)
{
	const struct seat_view *v = d->v;
	int used = 0;
	memset(out, 0, sizeof(*out));
	rng_shuffle(&d->rng, d->pool, (size_t)d->n);
	for (int s = 0; s < v->players; s++) {
		if (s == v->seat || v->removed[s])
			continue;
		int kept = v->others_hand_size[s];
		kept = kept < 0 ? 0 : kept > ENGINE_HAND_SIZE ? ENGINE_HAND_SIZE : kept;
		for (int attempt = 0; attempt < DEALS_HAND_ATTEMPTS; attempt++) {
			int u = used;
			memset(out->kept[s], 0, sizeof(out->kept[s]));
			for (int i = 0; i < kept; i++)
				out->kept[s][take(d, &u)]++;
			if (!d->k->turn_end_known[s] || attempt == DEALS_HAND_ATTEMPTS - 1 ||
			    !could_have_played(d, s, out->kept[s], kept))
				break;
			if (used < d->n) /* other cards of the rest of the pool */
				rng_shuffle(&d->rng, d->pool + used, (size_t)(d->n - used));
		}
		used += kept;
		out->kept_n[s] = kept;
		for (int i = kept; i < ENGINE_HAND_SIZE; i++) /* R5.1: draw up to 5 */
			out->drawn[s][i - kept] = take(d, &used);
	}
	for (int s = 0; s < v->players; s++)
		out->stock_next[s] = take(d, &used);
	for (int i = 0; i < ENGINE_HAND_SIZE; i++)
		out->draws[i] = take(d, &used);
}

int deals_supply(const struct seat_view *v, const int building[ENGINE_BUILDING_PILES], int cards_played)
{
	int on_piles = cards_played; /* piles and heap: every card played stays on one or goes to the heap */
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		on_piles += v->building_size[b];
		on_piles -= building[b] > 0; /* a top is never drawn (R6.2) */
	}
	return v->draw_size + v->completed_size + on_piles;
}

int deal_next_hands(const struct deal *d, const struct seat_view *v, int supply,
		    int hand[ENGINE_MAX_PLAYERS][TABLE_CARD_VALUES], int hand_n[ENGINE_MAX_PLAYERS])
{
	for (int i = 1; i < v->players; i++) {
		int s = (v->seat + i) % v->players;
		if (v->removed[s])
			continue;
		memcpy(hand[s], d->kept[s], sizeof(hand[s]));
		int want = ENGINE_HAND_SIZE - d->kept_n[s];
		int got = want < supply ? want : supply > 0 ? supply : 0;
		for (int j = 0; j < got; j++)
			hand[s][d->drawn[s][j]]++;
		hand_n[s] = d->kept_n[s] + got;
		supply -= got;
	}
	return supply;
}
