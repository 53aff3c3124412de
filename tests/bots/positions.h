/*
 * positions.h - hand-made positions for the bots' behaviour tests.
 *
 * A position is a struct seat_view filled by the test; its legal moves are
 * derived here straight from RULES.md (R4, R5, R10), independently of the
 * bots' own simulator, and a chosen move can be applied to the view so that a
 * test can follow a bot through several decisions of one turn.
 */
#ifndef SKIPBO_TESTS_POSITIONS_H
#define SKIPBO_TESTS_POSITIONS_H

#include "engine.h"

/* An empty table: `players` seats, the viewer `seat` to move, stocks of 10
 * with CARD_NONE tops until set, 100 cards in the draw pile. */
void position_init(struct seat_view *v, int players, int seat, int partnership);
void position_hand(struct seat_view *v, int n, const int *cards);
void position_discard(struct seat_view *v, int seat, int pile, int n, const int *cards);

/* Every legal move of the viewer (R5, R10). Returns the count. */
int position_legal(const struct seat_view *v, struct move *out);

/* Apply a play or discard of the viewer to the view (stock tops below the
 * top are unknown: a stock play leaves next_stock_top). Returns 0 or -1. */
int position_apply(struct seat_view *v, const struct move *m, int next_stock_top);

#endif
