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
			memset(out->hand[s], 0, sizeof(out->hand[s]));
			for (int i = 0; i < kept; i++)
				out->hand[s][take(d, &u)]++;
			if (!d->k->turn_end_known[s] || attempt == DEALS_HAND_ATTEMPTS - 1 ||
			    !could_have_played(d, s, out->hand[s], kept))
				break;
			if (used < d->n) /* other cards of the rest of the pool */
				rng_shuffle(&d->rng, d->pool + used, (size_t)(d->n - used));
		}
		used += kept;
		out->kept_n[s] = kept;
		for (int i = kept; i < ENGINE_HAND_SIZE; i++) /* R5.1: draw up to 5 */
			out->hand[s][take(d, &used)]++;
		out->hand_n[s] = ENGINE_HAND_SIZE;
	}
	for (int s = 0; s < v->players; s++)
		out->stock_next[s] = take(d, &used);
	for (int i = 0; i < ENGINE_HAND_SIZE; i++)
		out->draws[i] = take(d, &used);
}
