/*
 * positions.c - hand-made positions (see positions.h).
 */
#include <string.h>

#include "positions.h"

void position_init(struct seat_view *v, int players, int seat, int partnership)
{
	memset(v, 0, sizeof(*v));
	v->players = players;
	v->seat = v->to_move = seat;
	v->partnership = partnership;
	v->partner = partnership ? (seat + players / 2) % players : -1;
	v->turn = 10;
	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++) {
		v->stock_size[s] = s < players ? 10 : 0;
		v->stock_top[s] = CARD_NONE;
		v->others_hand_size[s] = s < players ? 5 : 0;
	}
	v->draw_size = 100;
}

void position_hand(struct seat_view *v, int n, const int *cards)
{
	/* Sorted ascending, as game_view() gives it. */
	v->hand_size = 0;
	for (int c = 0; c <= 12; c++)
		for (int i = 0; i < n; i++)
			if (cards[i] == c)
				v->hand[v->hand_size++] = (uint8_t)c;
}

void position_discard(struct seat_view *v, int seat, int pile, int n, const int *cards)
{
	v->discard_size[seat][pile] = n;
	for (int i = 0; i < n; i++)
		v->discard[seat][pile][i] = (uint8_t)cards[i];
}

static int accepts(int value, int card)
{
	return card == CARD_SKIPBO ? value < 12 : card == value + 1;
}

static int add_plays(const struct seat_view *v, struct move proto, int card, struct move *out, int n)
{
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
		if (accepts(v->building_value[b], card)) {
			proto.card = (uint8_t)card;
			proto.target = (uint8_t)b;
			out[n++] = proto;
		}
	return n;
}

int position_legal(const struct seat_view *v, struct move *out)
{
	int n = 0;
	int owners[2] = { v->seat, v->partner };
	for (int i = 0; i < 2; i++) {
		int o = owners[i];
		if (o < 0)
			continue;
		if (v->stock_size[o] > 0)
			n = add_plays(v, (struct move){ .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = (uint8_t)o },
				      v->stock_top[o], out, n);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			int k = v->discard_size[o][p];
			if (k > 0)
				n = add_plays(v, (struct move){ .kind = MOVE_PLAY, .source = SOURCE_DISCARD,
					.owner = (uint8_t)o, .pile = (uint8_t)p }, v->discard[o][p][k - 1], out, n);
		}
	}
	for (int i = 0; i < v->hand_size; i++) {
		if (i > 0 && v->hand[i] == v->hand[i - 1])
			continue;
		n = add_plays(v, (struct move){ .kind = MOVE_PLAY, .source = SOURCE_HAND, .owner = (uint8_t)v->seat },
			      v->hand[i], out, n);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			out[n++] = (struct move){ .kind = MOVE_DISCARD, .card = v->hand[i], .target = (uint8_t)p };
	}
	if (v->hand_size == 0)
		out[n++] = (struct move){ .kind = MOVE_PASS };
	return n;
}

static int take_from_hand(struct seat_view *v, int card)
{
	for (int i = 0; i < v->hand_size; i++)
		if (v->hand[i] == card) {
			memmove(&v->hand[i], &v->hand[i + 1], (size_t)(v->hand_size - i - 1));
			v->hand_size--;
			return 0;
		}
	return -1;
}

int position_apply(struct seat_view *v, const struct move *m, int next_stock_top)
{
	if (m->kind == MOVE_DISCARD) {
		if (take_from_hand(v, m->card) < 0)
			return -1;
		v->discard[v->seat][m->target][v->discard_size[v->seat][m->target]++] = m->card;
		return 0;
	}
	if (m->kind != MOVE_PLAY)
		return -1;
	int card;
	if (m->source == SOURCE_HAND) {
		if (take_from_hand(v, m->card) < 0)
			return -1;
		card = m->card;
	} else if (m->source == SOURCE_STOCK) {
		card = v->stock_top[m->owner];
		v->stock_size[m->owner]--;
		v->stock_top[m->owner] = (uint8_t)next_stock_top;
	} else {
		int k = v->discard_size[m->owner][m->pile];
		if (k <= 0)
			return -1;
		card = v->discard[m->owner][m->pile][k - 1];
		v->discard_size[m->owner][m->pile]--;
	}
	int b = m->target;
	if (!accepts(v->building_value[b], card))
		return -1;
	v->building_size[b]++;
	if (++v->building_value[b] == 12)
		v->building_value[b] = v->building_size[b] = 0;
	return 0;
}
