/*
 * test_sprt.c - the pentanomial GSPRT (sprt.c) on fixed numbers and on
 * simulated duplicate pairs with a fixed seed.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "assert_near.h"
#include "rating.h"
#include "sprt.h"
#include "xorshift.h"

static void test_bounds_and_arguments(void **state)
{
	struct sprt t;
	(void)state;

	assert_int_equal(sprt_init(&t, 0, 10, 0.05, 0.05), 0);
	assert_near(t.lower, log(0.05 / 0.95), 1e-12);
	assert_near(t.upper, log(0.95 / 0.05), 1e-12);
	assert_near(t.upper, 2.944438979, 1e-8);
	assert_int_equal(sprt_status(&t), SPRT_CONTINUE);
	assert_int_equal(sprt_init(&t, 0, 10, 0.01, 0.1), 0);
	assert_near(t.lower, log(0.1 / 0.99), 1e-12);
	assert_near(t.upper, log(0.9 / 0.01), 1e-12);
	assert_int_equal(sprt_init(&t, 10, 0, 0.05, 0.05), -EINVAL);
	assert_int_equal(sprt_init(&t, 0, 10, 0, 0.05), -EINVAL);
	assert_int_equal(sprt_init(&t, 0, 10, 0.05, 0.6), -EINVAL);
}

static void test_llr_sign_and_size(void **state)
{
	double none[5] = { 0 };
	double even[5] = { 50, 100, 200, 100, 50 };          /* mean score 0.5 */
	double strong[5] = { 10, 60, 200, 160, 70 };          /* mean score 0.59 */
	(void)state;

	assert_near(sprt_llr(none, 0, 10), 0, 0);
	assert_true(sprt_llr(even, 0, 20) < 0);
	assert_true(sprt_llr(even, -20, 0) > 0);
	/* Equal distance from a symmetric result: the LLR is antisymmetric. */
	assert_near(sprt_llr(even, -10, 10), 0, 1e-9);
	assert_true(sprt_llr(strong, 0, 20) > 0);
	assert_near(sprt_llr(strong, 0, 20), -sprt_llr(strong, 20, 0), 1e-9);
}

/* For elo0 and elo1 close together the GSPRT tends to the normal
 * approximation N (s1 - s0) (2 mu - s0 - s1) / (2 var). */
static void test_llr_matches_normal_approximation(void **state)
{
	double pent[5] = { 3600, 9600, 12800, 9600, 4400 }; /* mean score 0.51 */
	double n = 0, mu = 0, var = 0;
	(void)state;

	for (int k = 0; k < 5; k++) {
		n += pent[k];
		mu += pent[k] * k / 4.0;
	}
	mu /= n;
	for (int k = 0; k < 5; k++)
		var += pent[k] * (k / 4.0 - mu) * (k / 4.0 - mu);
	var /= n;
	double s0 = rating_expected(0), s1 = rating_expected(5);
	double approx = n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var);
	double llr = sprt_llr(pent, 0, 5);
	assert_true(approx > 3);
	assert_near(llr, approx, 0.005 * fabs(approx));
}

static uint64_t rng_state;

static double uniform(void)
{
	return (double)(xorshift64s(&rng_state) >> 11) / 9007199254740992.0;
}

/*
 * Play simulated duplicate pairs until the test decides (or max_pairs). A
 * deal favours one seat by up to 20 points of win chance, the same way in
 * both of its games, as real deals do; win_chance is A's on a neutral deal.
 */
static enum sprt_state simulate(uint64_t seed, double win_chance, double elo0, double elo1,
				int max_pairs, int *pairs)
{
	struct sprt t;

	rng_state = seed;
	assert_int_equal(sprt_init(&t, elo0, elo1, 0.05, 0.05), 0);
	for (int i = 0; i < max_pairs; i++) {
		double luck = 0.4 * (uniform() - 0.5);
		double first = uniform() < win_chance + luck ? 1.0 : 0.0;  /* A in seat 0 */
		double second = uniform() < win_chance - luck ? 1.0 : 0.0; /* A in seat 1 */
		sprt_add_pair(&t, first + second);
		if (sprt_status(&t) != SPRT_CONTINUE) {
			*pairs = i + 1;
			return sprt_status(&t);
		}
	}
	*pairs = max_pairs;
	return SPRT_CONTINUE;
}

static void test_stronger_bot_accepts_h1(void **state)
{
	int pairs;
	(void)state;

	/* 65% per game is about 108 Elo: H1 (>= 20) well before 5000 pairs. */
	assert_int_equal(simulate(0x5eed0001, 0.65, 0, 20, 5000, &pairs), SPRT_ACCEPT_H1);
	assert_true(pairs < 1000);
	for (uint64_t s = 1; s <= 20; s++)
		assert_int_equal(simulate(s * 7919, 0.65, 0, 20, 5000, &pairs), SPRT_ACCEPT_H1);
}

static void test_equal_bots_accept_h0(void **state)
{
	int pairs, h0 = 0;
	(void)state;

	assert_int_equal(simulate(0x5eed0002, 0.5, 0, 20, 20000, &pairs), SPRT_ACCEPT_H0);
	/* alpha = 0.05: out of 40 seeded runs nearly all end in H0, none undecided. */
	for (uint64_t s = 1; s <= 40; s++) {
		enum sprt_state st = simulate(s * 104729, 0.5, 0, 20, 20000, &pairs);
		assert_int_not_equal(st, SPRT_CONTINUE);
		h0 += st == SPRT_ACCEPT_H0;
	}
	assert_true(h0 >= 36);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_and_arguments),
		cmocka_unit_test(test_llr_sign_and_size),
		cmocka_unit_test(test_llr_matches_normal_approximation),
		cmocka_unit_test(test_stronger_bot_accepts_h1),
		cmocka_unit_test(test_equal_bots_accept_h0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
