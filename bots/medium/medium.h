/*
 * medium.h - the medium reference bot's policy: a rule-of-thumb player.
 *
 * In order of preference: play a stock top (own, then partner's); play the
 * first card of the shortest chain of discard tops, hand cards and wilds that
 * frees a stock top; play cards that do not help the next opponent; discard
 * so that discard piles count down and equal cards stay together, keeping
 * wilds for chains.
 */
#ifndef SKIPBO_BOTS_MEDIUM_H
#define SKIPBO_BOTS_MEDIUM_H

#include "engine.h"
#include "table.h"

/*
 * Choose a move for the seat to move in v from legal[0..n). Returns an index
 * into legal, or -1 when n == 0. Deterministic: the same view and legal list
 * give the same answer.
 */
int medium_choose(const struct seat_view *v, const struct move *legal, int n);

/*
 * 1 if side s of t (0: the player, 1: its partner) can play its stock top
 * now, at once or at the end of the chain this policy would play (a run on
 * one building pile of discard tops, hand cards and wilds); else 0. For bots
 * that estimate what other players can do.
 */
int medium_reaches_stock(const struct table *t, int s);

#endif
