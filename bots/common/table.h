/*
 * table.h - a turn-level simulator over one seat's view, shared by the
 * reference bots.
 *
 * A struct table is what the player to move knows of the cards it can touch
 * during its own turn (RULES.md R5): the building pile values, its hand as a
 * multiset, its stock top and, in partnership (R10), its partner's stock top,
 * and the discard piles of both. It is small and flat so that a search can
 * copy it freely; the discard pile contents are borrowed from the seat_view it
 * was made from, which must outlive the table.
 *
 * What the seat cannot know stays unknown: after a stock play the next stock
 * card is TABLE_UNKNOWN, and when a play empties the hand the 5 cards drawn
 * (R5.2) are unknown, so the table marks itself `refilled` and offers no more
 * hand moves. A bot re-plans from the next request, which shows the new cards.
 *
 * Moves use the engine's encoding (engine.h struct move), so a move produced
 * here can be looked up in the legal list the arena sends.
 */
#ifndef SKIPBO_BOTS_TABLE_H
#define SKIPBO_BOTS_TABLE_H

#include <stdint.h>

#include "engine.h"

#define TABLE_UNKNOWN 0xfe /* a card that exists but cannot be seen */
#define TABLE_CARD_VALUES 13 /* CARD_SKIPBO (0) and 1..12 */
#define TABLE_MAX_PLAYS 64 /* plays from one position: 14 sources x 4 piles fits */

/* One seat whose stock and discard piles the player may use: itself, and its partner. */
struct table_side {
	int seat;
	int stock_size;
	uint8_t stock_top; /* 1..12, CARD_SKIPBO, CARD_NONE (empty) or TABLE_UNKNOWN */
	int discard_size[ENGINE_DISCARD_PILES];
	const uint8_t *discard[ENGINE_DISCARD_PILES]; /* bottom first, borrowed from the view */
	int stock_played; /* stock cards played since table_from_view() */
};

struct table {
	int building[ENGINE_BUILDING_PILES]; /* R4: 0 = empty, else 1..12 */
	int hand[TABLE_CARD_VALUES];         /* count of each card in hand */
	int hand_size;
	int can_draw;     /* a draw would yield cards (draw pile or R6 sources) */
	int refilled;     /* the hand was emptied and redrawn: its cards are unknown */
	int sides;        /* 1, or 2 with a partner */
	struct table_side side[2]; /* [0] = the player itself, [1] = its partner */
	int cards_played; /* plays onto building piles since table_from_view() */
	int wilds_played; /* wilds played from the hand or discard piles */
	int completed;    /* building piles completed since table_from_view() */
};

/* Make the table of the seat to move from its view (v->seat must be v->to_move). */
void table_from_view(struct table *t, const struct seat_view *v);

/* The top card of a discard pile of side s, or CARD_NONE when empty. */
uint8_t table_discard_top(const struct table *t, int s, int pile);

/*
 * Every play onto a building pile that the table allows now (hand, stock tops,
 * discard tops; duplicates of one hand value once). Writes at most
 * TABLE_MAX_PLAYS moves to out and returns the count. No plays once refilled
 * from the hand, but stock and discard tops stay playable.
 */
int table_plays(const struct table *t, struct move *out);

/*
 * Apply a play or discard produced for this table. Returns 0, or -1 if the
 * move does not fit the table (nothing changes then). A discard ends the
 * turn; the table does not model what follows.
 */
int table_apply(struct table *t, const struct move *m);

/* Has side s's stock been emptied (the R7 win for a lone player)? */
int table_stock_emptied(const struct table *t, int s);

/*
 * The value a building pile must have so that `card` can go on it: card - 1
 * for 1..12, -1 for CARD_SKIPBO (any pile) and for unknown or no card.
 */
int table_needed_value(uint8_t card);

/* Plays needed to raise a pile from value `from` to value `to`, going
 * through a completion at 12 when to < from (R4). */
int table_pile_distance(int from, int to);

/*
 * How well card c sits on a discard pile whose top is `top` (CARD_NONE:
 * empty), from -10 to 6: counting down (c one below the top) is best, then
 * equal cards together, high cards on an empty pile; burying a wild or
 * putting a card above a lower one is worst.
 */
int table_discard_fit(uint8_t c, uint8_t top);

/*
 * Find m in legal[0..n). Returns its index or -1. Plays from stock or discard
 * match whatever card the legal entry names, so a bot need not track it.
 */
int table_find_legal(const struct move *legal, int n, const struct move *m);

/*
 * A fallback that is always legal when n > 0: the first discard of the
 * highest non-wild card, else the first entry. Returns an index, -1 if n == 0.
 */
int table_fallback(const struct move *legal, int n);

#endif
