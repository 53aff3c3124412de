/*
 * test_easy.c - the easy bot: uniform, reproducible, and legal over whole
 * games of 2-6 players with and without partnership.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "easy.h"
#include "harness.h"
#include "scenarios.h"

/* The same seed and game id give the same choices; another id does not. */
static void reproducible(void **state)
{
	(void)state;
	struct easy a, b, c;
	easy_init(&a, 42);
	easy_init(&b, 42);
	easy_init(&c, 42);
	easy_game_start(&a, "g000001");
	easy_game_start(&b, "g000001");
	easy_game_start(&c, "g000002");
	int differ = 0;
	for (int i = 0; i < 100; i++) {
		int x = easy_choose(&a, 40);
		assert_int_equal(x, easy_choose(&b, 40));
		differ |= x != easy_choose(&c, 40);
	}
	assert_true(differ);
	assert_int_equal(easy_choose(&a, 0), -1);
}

/* Every index is reachable and none is favoured much. */
static void uniform(void **state)
{
	(void)state;
	struct easy e;
	int count[7] = { 0 };
	easy_init(&e, 1);
	easy_game_start(&e, "g");
	for (int i = 0; i < 7000; i++) {
		int k = easy_choose(&e, 7);
		assert_true(k >= 0 && k < 7);
		count[k]++;
	}
	for (int k = 0; k < 7; k++)
		assert_true(count[k] > 850 && count[k] < 1150);
}

static void legal_in_whole_games(void **state)
{
	(void)state;
	struct harness_player easy;
	harness_player_init(&easy, HARNESS_EASY, 11, NULL);
	for (int t = 0; t < SCENARIO_TABLES; t++) {
		int players = scenario_tables[t].players, partnership = scenario_tables[t].partnership;
		for (int seed = 1; seed <= 3; seed++) {
			struct harness_player *seats[ENGINE_MAX_PLAYERS];
			for (int s = 0; s < players; s++)
				seats[s] = &easy;
			struct game_rules rules = { .players = players, .partnership = partnership,
				.seed = (uint64_t)(players * 10 + seed), .stock_size = 5 };
			struct harness_game hg = { .via_protocol = 1 };
			scenario_play_clean(&rules, seats, &hg);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reproducible),
		cmocka_unit_test(uniform),
		cmocka_unit_test(legal_in_whole_games),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
