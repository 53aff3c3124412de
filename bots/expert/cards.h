/*
 * cards.h - which cards a seat has not seen, from its view and the events of
 * the game so far.
 *
 * Every play onto a building pile is public (R13), so following the events
 * tells which cards - numbers or SKIP-BO wilds - lie on each building pile and
 * in the completed heap, and which went back into the draw pile with a refill
 * (R6). Whatever is left of the 162 cards (R1) after the seat's own hand, the
 * stock tops, the discard piles, the building piles and the heap is unseen:
 * it is somewhere in the other hands, under the stock tops, or in the draw
 * pile, and any arrangement of it is consistent with what the seat saw.
 *
 * When the events do not add up to the view (a request was missed, or the
 * game began before the bot saw it) the tracker says so, and the building
 * piles are taken to hold numbers only: a pile of value v and size k holds
 * v-k+1 .. v, and the heap complete runs of 1..12.
 */
#ifndef SKIPBO_BOTS_CARDS_H
#define SKIPBO_BOTS_CARDS_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define CARDS_VALUES 13 /* CARD_SKIPBO (0) and 1..12 */
#define CARDS_PILE_MAX 12 /* R4: a building pile holds at most 12 cards */

struct cards {
	uint8_t pile[ENGINE_BUILDING_PILES][CARDS_PILE_MAX]; /* bottom first */
	int pile_n[ENGINE_BUILDING_PILES];
	int value[ENGINE_BUILDING_PILES]; /* what each building pile counts as */
	/* The building piles when each seat last ended a turn (discard or pass). */
	int turn_end_value[ENGINE_MAX_PLAYERS][ENGINE_BUILDING_PILES];
	int turn_end_known[ENGINE_MAX_PLAYERS];
	int heap[CARDS_VALUES]; /* the completed heap, by card */
	int heap_n;
	int broken; /* an event did not fit: sizes will not match any more */
};

/* Forget everything: a new game, before its first event. */
void cards_reset(struct cards *c);

/* Follow events of the game in order (EVENT_PLAY, EVENT_COMPLETE, EVENT_REFILL
 * matter; the rest is ignored). */
void cards_observe(struct cards *c, const struct event *ev, size_t n);

/* What the viewer of a seat_view knows of the cards out of its reach. */
struct cards_known {
	int unseen[CARDS_VALUES]; /* other hands, stocks under their tops, draw pile */
	int unseen_n;
	uint8_t building[ENGINE_BUILDING_PILES][CARDS_PILE_MAX]; /* bottom first */
	int building_n[ENGINE_BUILDING_PILES];
	int heap[CARDS_VALUES]; /* the completed heap */
	int exact; /* 1: from the events; 0: the numbers-only estimate */
	/* The building piles when each seat last ended its turn: a player who
	 * could have reached its stock top then would have played it. */
	int turn_end_value[ENGINE_MAX_PLAYERS][ENGINE_BUILDING_PILES];
	int turn_end_known[ENGINE_MAX_PLAYERS];
};

/*
 * Fill k for the viewer of v. k->exact says whether the events account for
 * the view exactly; otherwise the numbers-only estimate above is used and
 * counts are clamped at 0.
 */
void cards_known(const struct cards *c, const struct seat_view *v, struct cards_known *k);

#endif
