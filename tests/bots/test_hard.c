/*
 * test_hard.c - the hard bot: behaviour in set positions, only legal moves
 * over whole games (2-6 players, partnership on and off), its time budget,
 * and that it beats the medium bot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "harness.h"
#include "positions.h"
#include "scenarios.h"

static struct hard *searcher;

static int hard_policy(const struct seat_view *v, const struct move *legal, int n)
{
	return hard_choose(searcher, v, legal, n, 1000, 60000, NULL);
}

static int setup(void **state)
{
	(void)state;
	struct hard_config cfg;
	hard_config_default(&cfg);
	searcher = hard_new(&cfg);
	return searcher ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	hard_free(searcher);
	return 0;
}

/* The scenarios' state (scenarios.h). */
static scenario_policy policy = hard_policy;

/* The budget follows the request's time fields and the cap. */
static void budget_rules(void **state)
{
	(void)state;
	struct hard_config cfg;
	hard_config_default(&cfg);
	cfg.cap_us = 3000;
	cfg.move_share = 0.05;
	assert_int_equal(hard_budget_us(&cfg, 0, 0), 3000);        /* no limits: the cap */
	assert_int_equal(hard_budget_us(&cfg, 1000, 60000), 3000);  /* 50 ms share: the cap */
	assert_int_equal(hard_budget_us(&cfg, 20, 60000), 1000);    /* 5% of 20 ms */
	assert_int_equal(hard_budget_us(&cfg, 1000, 100), 500);     /* 1/200 of the bank */
}

/* A wild-heavy position has many lines; the search must stop near its budget
 * and still answer a legal move. */
static void stops_within_budget(void **state)
{
	(void)state;
	struct hard_config cfg;
	hard_config_default(&cfg);
	cfg.max_nodes = 0;
	cfg.cap_us = 2000;
	struct hard *h = hard_new(&cfg);
	assert_non_null(h);
	struct seat_view v;
	position_init(&v, 4, 0, 1);
	position_hand(&v, 5, (int[]){ 0, 0, 0, 0, 5 });
	v.stock_top[0] = 12;
	v.stock_top[1] = 12;
	v.stock_top[2] = 12;
	v.stock_top[3] = 12;
	for (int s = 0; s < 4; s += 2)
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			position_discard(&v, s, p, 6, (int[]){ 0, 1, 2, 3, 4, 0 });
	struct move legal[ENGINE_MAX_MOVES * 2];
	int n = position_legal(&v, legal);
	struct hard_stats st;
	int i = hard_choose(h, &v, legal, n, 1000, 60000, &st);
	assert_true(i >= 0 && i < n);
	assert_int_equal(st.budget_us, 2000);
	/* Unbounded, this search runs for many seconds. The clock is checked
	 * every few dozen positions; the slack covers a loaded machine's
	 * scheduling delays. */
	assert_false(st.complete);
	assert_true(st.elapsed_us < st.budget_us + 250000);
	hard_free(h);
}

/* Whole games through the real request encoding, hard at some seats; no
 * decision may take much longer than its budget. */
static void legal_in_whole_games(void **state)
{
	(void)state;
	struct harness_player hard, med, easy;
	harness_player_init(&hard, HARNESS_HARD, 0, searcher);
	harness_player_init(&med, HARNESS_MEDIUM, 0, NULL);
	harness_player_init(&easy, HARNESS_EASY, 3, NULL);
	for (int t = 0; t < SCENARIO_TABLES; t++) {
		int players = scenario_tables[t].players, partnership = scenario_tables[t].partnership;
		for (int seed = 1; seed <= 3; seed++) {
			struct harness_player *seats[ENGINE_MAX_PLAYERS];
			for (int s = 0; s < players; s++)
				seats[s] = s % 2 == 0 ? &hard : (seed == 2 ? &easy : &med);
			struct game_rules rules = { .players = players, .partnership = partnership,
				.seed = (uint64_t)(players * 1000 + seed), .dealer = seed % players,
				.stock_size = 10 };
			struct harness_game hg = { .via_protocol = 1, .move_ms = 1000, .bank_ms = 60000 };
			scenario_play_clean(&rules, seats, &hg);
		}
	}
	assert_true(hard.decisions > 100);
	assert_true(hard.max_over_budget_us < 250000); /* see stops_within_budget */
}

/* Hard wins more than half of duplicate games against medium. */
static void beats_medium(void **state)
{
	(void)state;
	struct harness_player hard, med;
	harness_player_init(&hard, HARNESS_HARD, 0, searcher);
	harness_player_init(&med, HARNESS_MEDIUM, 0, NULL);
	int hard_wins = 0, med_wins = 0;
	for (int seed = 1; seed <= 40; seed++)
		for (int rot = 0; rot < 2; rot++) {
			struct harness_player *seats[2] = { rot ? &med : &hard, rot ? &hard : &med };
			struct game_rules rules = { .players = 2, .seed = (uint64_t)seed, .dealer = 1, .stock_size = 15 };
			struct harness_game hg = { .move_ms = 1000, .bank_ms = 60000 };
			assert_int_equal(harness_play(&rules, seats, &hg), 0);
			hard_wins += hg.result.winners[rot ? 1 : 0];
			med_wins += hg.result.winners[rot ? 0 : 1];
		}
	assert_true(hard_wins > med_wins);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCENARIO_UNIT_TESTS(&policy),
		cmocka_unit_test(budget_rules),
		cmocka_unit_test(stops_within_budget),
		cmocka_unit_test(legal_in_whole_games),
		cmocka_unit_test(beats_medium),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
