/*
 * scenarios.h - behaviour checks shared by the medium and hard bots' tests.
 *
 * Each scenario builds a position (positions.h), asks the policy for moves,
 * and fails the running cmocka test when the policy does the wrong thing.
 */
#ifndef SKIPBO_TESTS_SCENARIOS_H
#define SKIPBO_TESTS_SCENARIOS_H

#include "engine.h"

/* A policy under test: an index into legal[0..n). */
typedef int (*scenario_policy)(const struct seat_view *v, const struct move *legal, int n);

/* The stock top fits a pile: it is played at once (R5.2). */
void scenario_plays_stock(scenario_policy choose);
/* Stock 6, pile at 3, hand 4 and a wild: 4, wild (as 5), then the stock. */
void scenario_chain_through_wild(scenario_policy choose);
/* A discard top 5 is used in the chain instead of the wild. */
void scenario_chain_prefers_discard(scenario_policy choose);
/* Partnership (R10): the partner's stock top is played when it fits. */
void scenario_partner_stock(scenario_policy choose);
/* A play that would leave a pile one below the next player's stock top is
 * avoided when another play does the same work. */
void scenario_no_feed(scenario_policy choose);
/* A wild stock top goes on a pile where it does not feed the next player. */
void scenario_wild_stock_no_feed(scenario_policy choose);
/* Every answer over a long random walk of positions is in the legal list. */
void scenario_always_legal(scenario_policy choose);

#endif
