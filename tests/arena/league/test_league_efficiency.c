/*
 * test_league_efficiency.c - the league's scheduler separates every adjacent
 * pair of 32 simulated bots (40 Elo apart, league_sim.h) with at most half
 * the games of a round robin of the same field. bench_league_sched measures
 * the same over more seeds and fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "league_sim.h"

#define BOTS 32
#define BUDGET 400000

static uint64_t games_to_separate(const double *elo, bool scheduled, uint64_t seed)
{
	struct league_sim_options opt = { BOTS, elo, 1.0, scheduled, 8, seed, BUDGET, true,
					  NULL, 0 };
	struct league_sim_result r;

	assert_int_equal(league_sim_run(&opt, &r), 0);
	assert_true(r.separated_at > 0);
	assert_true(r.fits > 0);
	return r.separated_at;
}

static void half_the_games_of_round_robin(void **state)
{
	double elo[BOTS];

	(void)state;
	league_sim_even_field(elo, BOTS, 40);
	for (uint64_t seed = 1; seed <= 2; seed++) {
		uint64_t rr = games_to_separate(elo, false, seed);
		uint64_t league = games_to_separate(elo, true, seed);
		assert_true(2 * league <= rr);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(half_the_games_of_round_robin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
