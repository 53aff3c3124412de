/*
 * cards.c - the unseen cards (see cards.h).
 */
#include <string.h>

#include "cards.h"

void cards_reset(struct cards *c)
{
	memset(c, 0, sizeof(*c));
}

static void observe_one(struct cards *c, const struct event *e)
{
	int b = e->target;
	switch (e->kind) {
	case EVENT_PLAY:
		if (b >= ENGINE_BUILDING_PILES || c->pile_n[b] >= CARDS_PILE_MAX || e->card >= CARDS_VALUES) {
			c->broken = 1;
			return;
		}
		c->pile[b][c->pile_n[b]++] = e->card;
		c->value[b] = e->value;
		return;
	case EVENT_COMPLETE:
		if (b >= ENGINE_BUILDING_PILES) {
			c->broken = 1;
			return;
		}
		for (int i = 0; i < c->pile_n[b]; i++)
			c->heap[c->pile[b][i]]++;
		c->heap_n += c->pile_n[b];
		c->pile_n[b] = 0;
		c->value[b] = 0;
		return;
	case EVENT_REFILL:
		if (e->source == 1) { /* R6.1: the heap is the new draw pile */
			memset(c->heap, 0, sizeof(c->heap));
			c->heap_n = 0;
		} else { /* R6.2: every building pile keeps its top card */
			for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
				if (c->pile_n[p] > 1) {
					c->pile[p][0] = c->pile[p][c->pile_n[p] - 1];
					c->pile_n[p] = 1;
				}
		}
		return;
	case EVENT_DISCARD:
	case EVENT_PASS:
		if (e->seat < ENGINE_MAX_PLAYERS) {
			memcpy(c->turn_end_value[e->seat], c->value, sizeof(c->value));
			c->turn_end_known[e->seat] = 1;
		}
		return;
	default:
		return;
	}
}

void cards_observe(struct cards *c, const struct event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		observe_one(c, &ev[i]);
}

/* The numbers-only estimate of the building piles and the heap (cards.h). */
static void estimate(const struct seat_view *v, struct cards_known *k)
{
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		int n = v->building_size[b], top = v->building_value[b];
		if (n > top)
			n = top; /* also keeps n within CARDS_PILE_MAX */
		k->building_n[b] = n;
		for (int i = 0; i < n; i++)
			k->building[b][i] = (uint8_t)(top - n + 1 + i);
	}
	memset(k->heap, 0, sizeof(k->heap));
	for (int i = 0; i < v->completed_size; i++)
		k->heap[1 + i % 12]++;
}

/* k->unseen = the deck less everything visible; 0 if some count went below zero. */
static int subtract_seen(const struct seat_view *v, struct cards_known *k)
{
	int *unseen = k->unseen;
	unseen[CARD_SKIPBO] = 18; /* R1 */
	for (int c = 1; c < CARDS_VALUES; c++)
		unseen[c] = 12;
	for (int i = 0; i < v->hand_size && i < ENGINE_HAND_SIZE; i++)
		if (v->hand[i] < CARDS_VALUES)
			unseen[v->hand[i]]--;
	for (int s = 0; s < v->players; s++) {
		if (v->stock_size[s] > 0 && v->stock_top[s] < CARDS_VALUES)
			unseen[v->stock_top[s]]--;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			for (int i = 0; i < v->discard_size[s][p]; i++)
				if (v->discard[s][p][i] < CARDS_VALUES)
					unseen[v->discard[s][p][i]]--;
	}
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
		for (int i = 0; i < k->building_n[b]; i++)
			unseen[k->building[b][i]]--;
	int ok = 1;
	for (int c = 0; c < CARDS_VALUES; c++) {
		unseen[c] -= k->heap[c];
		if (unseen[c] < 0) {
			unseen[c] = 0;
			ok = 0;
		}
	}
	return ok;
}

void cards_known(const struct cards *c, const struct seat_view *v, struct cards_known *k)
{
	k->exact = !c->broken && c->heap_n == v->completed_size;
	for (int b = 0; b < ENGINE_BUILDING_PILES && k->exact; b++)
		k->exact = c->pile_n[b] == v->building_size[b];
	if (k->exact) {
		memcpy(k->building, c->pile, sizeof(c->pile));
		memcpy(k->building_n, c->pile_n, sizeof(c->pile_n));
		memcpy(k->heap, c->heap, sizeof(c->heap));
		k->exact = subtract_seen(v, k);
	}
	if (!k->exact) {
		estimate(v, k);
		subtract_seen(v, k);
	}
	k->unseen_n = 0;
	for (int i = 0; i < CARDS_VALUES; i++)
		k->unseen_n += k->unseen[i];
	memcpy(k->turn_end_value, c->turn_end_value, sizeof(k->turn_end_value));
	memcpy(k->turn_end_known, c->turn_end_known, sizeof(k->turn_end_known));
	if (!k->exact)
		memset(k->turn_end_known, 0, sizeof(k->turn_end_known));
}
