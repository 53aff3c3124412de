/*
 * rivals.h - what the other seats threaten, seen from the seat to move.
 *
 * The only way to win is to empty one's stock (R7), so the cards that matter
 * most on the table are the other players' stock tops: a building pile one
 * below an opponent's stock top hands that opponent a stock card. This module
 * lists the other seats in the order they will move after the viewer and
 * estimates, for a set of building pile values, how many stock cards they can
 * expect to play before the viewer moves again.
 */
#ifndef SKIPBO_BOTS_RIVALS_H
#define SKIPBO_BOTS_RIVALS_H

#include <stdint.h>

#include "engine.h"

struct rival {
	int seat;
	int order;      /* 1 = moves next, 2 = after that, ... */
	int teammate;   /* R10: the viewer's partner */
	uint8_t stock_top; /* 1..12, CARD_SKIPBO, or CARD_NONE */
	int stock_size;
	int piles;         /* how many of discard[] are set */
	/* Its own and its partner's non-empty discard piles, bottom first,
	 * borrowed from the view: a played top uncovers the card beneath. */
	const uint8_t *discard[2 * ENGINE_DISCARD_PILES];
	int discard_size[2 * ENGINE_DISCARD_PILES];
};

struct rivals {
	int n;
	struct rival r[ENGINE_MAX_PLAYERS - 1]; /* in the order they move after the viewer */
	int sides; /* the other sides still in the game: opponents, or opposing teams (R10) */
};

/* List the seats other than v->seat that are still in the game (R11), in
 * turn order. rv borrows v's discard piles: v must outlive it. */
void rivals_from_view(struct rivals *rv, const struct seat_view *v);

/*
 * The first opponent (not a teammate) to move after the viewer, or NULL.
 */
const struct rival *rivals_next_opponent(const struct rivals *rv);

/*
 * The chance that rival r can play its stock top on some pile if the building
 * piles hold `building` when its turn comes: 1 when a pile is one below (or
 * the top is a wild), less the more cards it must find, counting the cards
 * it can dig out of its (and its partner's) discard piles as found. 0 when
 * its stock is empty.
 */
double rivals_reach(const struct rival *r, const int building[ENGINE_BUILDING_PILES]);

/*
 * Expected stock cards the other seats play before the viewer's next turn,
 * opponents counted positive and teammates negative, nearer seats weighing
 * more (the piles change between turns).
 */
double rivals_threat(const struct rivals *rv, const int building[ENGINE_BUILDING_PILES]);

/* The same sum with each rival's chance given: reach[i] for rv->r[i]. */
double rivals_threat_of(const struct rivals *rv, const double *reach);

/*
 * Where a stalemate now would leave the viewer (R7: it ranks everyone by the
 * stock cards left): +1 for each opponent holding more stock cards than
 * own_stock, -1 for each holding fewer, 0 for an equal count, divided by the
 * number of opponents; teammates (R10) are left out. From -1 to 1.
 */
double rivals_stalemate_lead(const struct rivals *rv, int own_stock);

/* Would a pile of value `value` let the next opponent play its stock top at once? */
int rivals_feeds_next(const struct rivals *rv, int value);

#endif
