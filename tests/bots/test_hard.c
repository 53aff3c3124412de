/*
 * test_hard.c - the hard bot: behaviour in set positions, only legal moves
 * over whole games (2-6 players, partnership on and off), its node budget
 * and safety net, and that it beats the medium bot.
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

/* The safety net follows the request's time fields; no limits, no clock. */
static void net_rules(void **state)
{
	(void)state;
	struct hard_config cfg;
	hard_config_default(&cfg);
	cfg.net_move_share = 0.25;
	cfg.net_bank_share = 0.02;
	assert_int_equal(hard_net_us(&cfg, 0, 0), 0);             /* no limits: no net */
	assert_int_equal(hard_net_us(&cfg, 1000, 60000), 250000); /* a quarter of move_ms */
	assert_int_equal(hard_net_us(&cfg, 1000, 5000), 100000);  /* 1/50 of the bank */
	assert_int_equal(hard_net_us(&cfg, 0, 5000), 100000);     /* a bank without a move limit */
	assert_int_equal(hard_net_us(&cfg, 1000, 0), 250000);
	assert_int_equal(hard_net_us(&cfg, 1, 1), 20);
	cfg.net_bank_share = 0.0001;
	assert_int_equal(hard_net_us(&cfg, 0, 1), 1);              /* rounds to nothing: still a net */
}

/* Every seat has twelves on top and wilds everywhere: many lines of play. */
static int wild_heavy(struct seat_view *v, struct move *legal)
{
	position_init(v, 4, 0, 1);
	position_hand(v, 5, (int[]){ 0, 0, 0, 0, 5 });
	for (int s = 0; s < 4; s++)
		v->stock_top[s] = 12;
	for (int s = 0; s < 4; s += 2)
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			position_discard(v, s, p, 6, (int[]){ 0, 1, 2, 3, 4, 0 });
	return position_legal(v, legal);
}

/* A search too big for the node budget stops exactly there, not on the
 * clock, and gives the same move every time. */
static void stops_at_node_budget(void **state)
{
	(void)state;
	struct seat_view v;
	struct move legal[ENGINE_MAX_MOVES * 2];
	int n = wild_heavy(&v, legal);
	struct hard_stats st;
	int first = hard_choose(searcher, &v, legal, n, 1000, 60000, &st);
	assert_true(first >= 0 && first < n);
	assert_int_equal(st.nodes, HARD_DEFAULT_MAX_NODES);
	assert_false(st.complete);
	assert_false(st.net_hit);
	for (int k = 0; k < 5; k++)
		assert_int_equal(hard_choose(searcher, &v, legal, n, 1000, 60000, NULL), first);
}

/* Without a node budget the safety net stops the search near its time and
 * the answer is still legal. */
static void net_stops_unbounded_search(void **state)
{
	(void)state;
	struct hard_config cfg;
	hard_config_default(&cfg);
	cfg.max_nodes = 0;
	struct hard *h = hard_new(&cfg);
	assert_non_null(h);
	struct seat_view v;
	struct move legal[ENGINE_MAX_MOVES * 2];
	int n = wild_heavy(&v, legal);
	struct hard_stats st;
	int i = hard_choose(h, &v, legal, n, 8, 60000, &st); /* a quarter of 8 ms */
	assert_true(i >= 0 && i < n);
	assert_int_equal(st.net_us, 2000);
	/* Unbounded, this search runs for many seconds. The clock is read every
	 * few dozen positions; the slack covers a loaded machine's scheduling
	 * delays. */
	assert_false(st.complete);
	assert_true(st.net_hit);
	assert_true(st.elapsed_us < st.net_us + 250000);
	hard_free(h);
}

/* Whole games through the real request encoding, hard at some seats; the
 * safety net never fires at the default limits. */
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
	assert_int_equal(hard.net_hits, 0);
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
		cmocka_unit_test(net_rules),
		cmocka_unit_test(stops_at_node_budget),
		cmocka_unit_test(net_stops_unbounded_search),
		cmocka_unit_test(legal_in_whole_games),
		cmocka_unit_test(beats_medium),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
