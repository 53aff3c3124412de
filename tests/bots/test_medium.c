/*
 * test_medium.c - the medium bot: behaviour in set positions, and only legal
 * moves over whole games of 2-6 players with and without partnership.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "harness.h"
#include "medium.h"
#include "positions.h"
#include "scenarios.h"

/* The scenarios' state (scenarios.h). */
static scenario_policy policy = medium_choose;

/* Discards count down (R4 discard piles): a 6 goes on the 7, not on the 3. */
static void discard_counts_down(void **state)
{
	(void)state;
	struct seat_view v;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 5, (int[]){ 0, 6, 6, 12, 12 });
	position_discard(&v, 0, 0, 1, (int[]){ 3 });
	position_discard(&v, 0, 1, 2, (int[]){ 9, 7 });
	position_discard(&v, 0, 2, 1, (int[]){ 12 });
	position_discard(&v, 0, 3, 1, (int[]){ 1 });
	v.stock_top[0] = 2;
	v.stock_top[1] = 2;
	v.building_value[0] = 4;
	v.building_value[1] = 4;
	v.building_value[2] = 4;
	v.building_value[3] = 4;
	struct move legal[ENGINE_MAX_MOVES * 2];
	int n = position_legal(&v, legal);
	int i = medium_choose(&v, legal, n);
	assert_true(i >= 0 && i < n);
	assert_int_equal(legal[i].kind, MOVE_DISCARD);
	assert_true(legal[i].card != CARD_SKIPBO);
	/* Either a 12 on the 12 or a 6 on the 7: both keep the piles in order. */
	if (legal[i].card == 12)
		assert_int_equal(legal[i].target, 2);
	else
		assert_true(legal[i].card == 6 && legal[i].target == 1);
}

/* Whole games through the real request encoding: 2-6 players, partnership
 * on and off, medium against itself and against easy. */
static void legal_in_whole_games(void **state)
{
	(void)state;
	struct harness_player med, easy;
	harness_player_init(&med, HARNESS_MEDIUM, 0, NULL);
	harness_player_init(&easy, HARNESS_EASY, 5, NULL);
	int finished = 0;
	for (int t = 0; t < SCENARIO_TABLES; t++) {
		int players = scenario_tables[t].players, partnership = scenario_tables[t].partnership;
		for (int seed = 1; seed <= 6; seed++) {
			struct harness_player *seats[ENGINE_MAX_PLAYERS];
			for (int s = 0; s < players; s++)
				seats[s] = (seed % 2 == 0 || s % 2 == 0) ? &med : &easy;
			struct game_rules rules = { .players = players, .partnership = partnership,
				.seed = (uint64_t)(players * 100 + seed), .dealer = seed % players,
				.stock_size = seed % 3 == 0 ? 10 : 0 };
			struct harness_game hg = { .via_protocol = 1, .move_ms = 1000, .bank_ms = 60000 };
			scenario_play_clean(&rules, seats, &hg);
			finished += hg.result.status == GAME_WON;
		}
	}
	assert_true(finished > 0);
}

/* Medium beats a random player nearly always (duplicate deals). */
static void beats_easy(void **state)
{
	(void)state;
	struct harness_player med, easy;
	harness_player_init(&med, HARNESS_MEDIUM, 0, NULL);
	harness_player_init(&easy, HARNESS_EASY, 9, NULL);
	int med_wins = 0, games = 0;
	for (int seed = 1; seed <= 20; seed++)
		for (int rot = 0; rot < 2; rot++) {
			struct harness_player *seats[2] = { rot ? &easy : &med, rot ? &med : &easy };
			struct game_rules rules = { .players = 2, .seed = (uint64_t)seed, .dealer = 1 };
			struct harness_game hg = { 0 };
			assert_int_equal(harness_play(&rules, seats, &hg), 0);
			med_wins += hg.result.winners[rot ? 1 : 0];
			games++;
		}
	assert_true(med_wins >= games * 8 / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCENARIO_UNIT_TESTS(&policy),
		cmocka_unit_test(discard_counts_down),
		cmocka_unit_test(legal_in_whole_games),
		cmocka_unit_test(beats_easy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
