/*
 * scenarios.h - behaviour checks shared by the medium and hard bots' tests,
 * and the whole-game check shared by every bot's test.
 *
 * Each scenario is a cmocka test: it builds a position (positions.h), asks
 * the policy for moves, and fails when the policy does the wrong thing. Its
 * state is the policy under test, a `scenario_policy *` given with
 * cmocka_unit_test_prestate(); SCENARIO_UNIT_TESTS(policy) lists them all.
 */
#ifndef SKIPBO_TESTS_SCENARIOS_H
#define SKIPBO_TESTS_SCENARIOS_H

#include "engine.h"
#include "harness.h"

/* A policy under test: an index into legal[0..n). */
typedef int (*scenario_policy)(const struct seat_view *v, const struct move *legal, int n);

/* The stock top fits a pile: it is played at once (R5.2). */
void scenario_plays_stock(void **state);
/* Stock 6, pile at 3, hand 4 and a wild: 4, wild (as 5), then the stock. */
void scenario_chain_through_wild(void **state);
/* A discard top 5 is used in the chain instead of the wild. */
void scenario_chain_prefers_discard(void **state);
/* Partnership (R10): the partner's stock top is played when it fits. */
void scenario_partner_stock(void **state);
/* A play that would leave a pile one below the next player's stock top is
 * avoided when another play does the same work. */
void scenario_no_feed(void **state);
/* A wild stock top goes on a pile where it does not feed the next player. */
void scenario_wild_stock_no_feed(void **state);
/* Every answer over a long random walk of positions is in the legal list. */
void scenario_always_legal(void **state);

/* The entries of a CMUnitTest array for every scenario, with *policy under test. */
#define SCENARIO_UNIT_TESTS(policy) \
	cmocka_unit_test_prestate(scenario_plays_stock, (policy)), \
	cmocka_unit_test_prestate(scenario_chain_through_wild, (policy)), \
	cmocka_unit_test_prestate(scenario_chain_prefers_discard, (policy)), \
	cmocka_unit_test_prestate(scenario_partner_stock, (policy)), \
	cmocka_unit_test_prestate(scenario_no_feed, (policy)), \
	cmocka_unit_test_prestate(scenario_wild_stock_no_feed, (policy)), \
	cmocka_unit_test_prestate(scenario_always_legal, (policy))

/* The tables of the whole-game tests, in order: 2 to 6 players (R2), and
 * partnership (R10) also at 4 and at 6. */
struct scenario_table {
	int players, partnership;
};
#define SCENARIO_TABLES 7
extern const struct scenario_table scenario_tables[SCENARIO_TABLES];

/*
 * Play one game with harness_play() and fail the running test unless it ran
 * to its end with every answer legal and every request encoded and parsed
 * back intact. hg holds the result and the counts afterwards.
 */
void scenario_play_clean(const struct game_rules *rules, struct harness_player *const *seats,
			 struct harness_game *hg);

#endif
