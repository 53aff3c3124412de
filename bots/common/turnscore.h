/*
 * turnscore.h - what the end of a turn is worth, judged from the seat's own
 * knowledge: the hard bot's evaluation, also the expert's first cut.
 *
 * A position of the turn simulator (table.h) is scored by the stock cards
 * the turn played (own and partner's), the cards played besides, the wilds
 * spent, and the other seats' expected stock plays before the next turn
 * (rivals.h). Each way to stop adds its own terms: a discard (how the card
 * sits on its pile, whether it is a card about to be wanted, the chance of
 * reaching the own stock top next turn with what is kept), a refill of 5
 * unknown cards (the turn goes on, with some chance at the stock top), or a
 * pass. Scores are in hundredths of a stock card with the default weights.
 */
#ifndef SKIPBO_BOTS_TURNSCORE_H
#define SKIPBO_BOTS_TURNSCORE_H

#include <stdint.h>

#include "rivals.h"
#include "table.h"

struct turnscore_weights {
	double stock;         /* one own stock card played */
	double partner_stock; /* one partner stock card played (R10) */
	double emptied;       /* own stock emptied while the partner's is not */
	double win;           /* the game is won (R7, R10): any score at least this is a win */
	double threat;        /* one stock card the other seats expect to play (rivals_threat),
			       * divided by the number of other sides */
	double prospect;      /* chance of reaching the own stock top next turn */
	double now;           /* chance of reaching it later this turn (after a refill) */
	double refill;        /* 5 fresh cards and the turn goes on (R5.2) */
	double wild;          /* a wild spent from the hand or a discard pile */
	double played;        /* a card played: fewer left to clog the hand */
	double fit;           /* per point of table_discard_fit() */
	double keep;          /* per point of closeness to a pile of a discarded card */
	double discard_wild;  /* a wild parked on a discard pile can be buried */
};

/* The hard bot's weights. */
void turnscore_default(struct turnscore_weights *w);

/* What position t is worth whatever ends the turn; w->win or more for a won game. */
double turnscore_base(const struct turnscore_weights *w, const struct table *t, const struct rivals *rv);

/* The turn ends with card c (in t's hand) discarded onto own pile p. */
double turnscore_discard(const struct turnscore_weights *w, const struct table *t, double base, uint8_t c, int p);

/* t is refilled (table.h): 5 unknown cards and the turn goes on. */
double turnscore_refilled(const struct turnscore_weights *w, const struct table *t, double base);

/* The hand is empty and nothing can be drawn: the turn ends with a pass (R5.4). */
double turnscore_pass(const struct turnscore_weights *w, const struct table *t, double base);

/*
 * The best way to stop in t (not refilled, not won): writes the discard or
 * pass to best and returns its score. Discards are tried card by card
 * (ascending, wild first), pile by pile; the first of equal scores wins.
 */
double turnscore_stop(const struct turnscore_weights *w, const struct table *t, double base, struct move *best);

#endif
