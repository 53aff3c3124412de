/*
 * test_rating.c - the Elo fit (rating.c) against known answers.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "assert_near.h"

#include "rating.h"
#include "xorshift.h"

/* The exact Elo difference of a 75% score: 400 log10(3). */
#define ELO_75 190.848501887865

static void fit_or_fail(const struct rating_pairs *p, const struct rating_options *opt,
			struct rating_fit *fit)
{
	assert_int_equal(rating_fit(p, opt, fit), 0);
	assert_int_equal(fit->n, p->n);
}

static void test_expected_and_inverse(void **state)
{
	(void)state;
	assert_near(rating_expected(ELO_75), 0.75, 1e-12);
	assert_near(rating_elo_from_score(0.75), ELO_75, 1e-9);
	assert_near(rating_elo_from_score(0.5), 0.0, 1e-12);
	/* A perfect score is clamped, not infinite. */
	assert_true(isfinite(rating_elo_from_score(1.0)));
	assert_true(rating_elo_from_score(1.0) > 1000);
}

static void test_score_75_percent(void **state)
{
	struct rating_pairs p;
	struct rating_fit fit;

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 2), 0);
	rating_pairs_add(&p, 0, 1, 750, 1000);
	fit_or_fail(&p, NULL, &fit);
	/* The prior moves a 1000-game result by about 0.06 Elo; 0.1 is the promise. */
	assert_near(fit.elo[0] - fit.elo[1], ELO_75, 0.1);
	/* Field average anchor. */
	assert_near(fit.elo[0] + fit.elo[1], 0.0, 1e-9);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

static void test_draws_count_half(void **state)
{
	struct rating_pairs p;
	struct rating_fit fit;
	unsigned bot[2] = { 0, 1 }, team[2] = { 0, 1 };
	int won[2] = { 1, 2 }, drew[2] = { 1, 1 };

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 2), 0);
	/* 500 wins and 500 draws: 750 points of 1000, the 75% case again. */
	for (int g = 0; g < 500; g++) {
		assert_int_equal(rating_pairs_add_placings(&p, 2, bot, won, team), 1);
		assert_int_equal(rating_pairs_add_placings(&p, 2, bot, drew, team), 1);
	}
	assert_near(p.score[0 * 2 + 1], 750.0, 0);
	assert_near(p.score[1 * 2 + 0], 250.0, 0);
	assert_near(p.games[0 * 2 + 1], 1000.0, 0);
	fit_or_fail(&p, NULL, &fit);
	assert_near(fit.elo[0] - fit.elo[1], ELO_75, 0.1);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

static void test_partnership_pairs_skip_teammates(void **state)
{
	struct rating_pairs p;
	unsigned bot[4] = { 0, 1, 2, 3 }, team[4] = { 0, 1, 0, 1 };
	int placing[4] = { 1, 2, 1, 2 }; /* R10: the team's placing for both partners */

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 4), 0);
	/* One result, team against team, spread over the cross table. */
	assert_int_equal(rating_pairs_add_placings(&p, 4, bot, placing, team), 1);
	assert_int_equal(p.ngroups, 1);
	assert_near(p.games[0 * 4 + 2], 0, 0); /* partners never meet */
	assert_near(p.games[1 * 4 + 3], 0, 0);
	assert_near(p.score[0 * 4 + 1], 1, 0);
	assert_near(p.score[2 * 4 + 3], 1, 0);
	assert_near(p.score[3 * 4 + 0], 0, 0);
	rating_pairs_release(&p);
}

/*
 * The team model (R10 partnership): a team's strength is the sum of its
 * partners'. Results made to the model's expectation under all three
 * pairings of four bots give back their ratings; a losing partner's own
 * placing does not matter, its team's does.
 */
static void test_team_model_recovers_ratings(void **state)
{
	static const double truth[4] = { 150, 50, -40, -160 };
	static const unsigned pairing[3][4] = { { 0, 1, 2, 3 }, { 0, 2, 1, 3 }, { 0, 1, 3, 2 } };
	unsigned team[4] = { 0, 1, 0, 1 };
	struct rating_pairs p;
	struct rating_fit fit;

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 4), 0);
	for (int k = 0; k < 3; k++) {
		const unsigned *bot = pairing[k];
		double e = rating_expected(truth[bot[0]] + truth[bot[2]] - truth[bot[1]] - truth[bot[3]]);
		int games = 100000, wins = (int)lround(e * games);
		for (int g = 0; g < games; g++) {
			/* team 1's partners place 2 and 3 in a loss: still one team result */
			int won[4] = { 1, 2, 1, 3 }, lost[4] = { 2, 1, 3, 1 };
			rating_pairs_add_placings(&p, 4, bot, g < wins ? won : lost, team);
		}
	}
	assert_int_equal(p.ngroups, 3);
	assert_near(p.results, 300000, 0);
	fit_or_fail(&p, NULL, &fit);
	for (int i = 0; i < 4; i++)
		assert_near(fit.elo[i], truth[i], 0.5);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

/*
 * Kinds of game (rating.h): 2-player results at the ratings' expectation and
 * 3-player results at 0.7 times the Elo difference give back the ratings on
 * the 2-player scale and 0.7 for the 3-player kind.
 */
static void test_kinds_get_a_discrimination(void **state)
{
	static const double truth[3] = { 120, 0, -120 };
	struct rating_pairs p;
	struct rating_fit fit;
	int three = rating_kind(3, 0);

	(void)state;
	assert_int_equal(rating_kind(2, 0), 0);
	assert_string_equal(rating_kind_name(rating_kind(4, 1)), "4-player partnership");
	assert_int_equal(rating_pairs_init(&p, 3), 0);
	for (unsigned i = 0; i < 3; i++)
		for (unsigned j = i + 1; j < 3; j++) {
			double d = truth[i] - truth[j];
			struct rating_result r = { { i }, { j }, 1, 1, three, rating_expected(0.7 * d) };
			assert_int_equal(rating_pairs_add(&p, i, j, 20000 * rating_expected(d), 20000), 0);
			for (int k = 0; k < 20000; k++)
				assert_int_equal(rating_pairs_add_results(&p, &r, 1), 0);
		}
	assert_int_equal(rating_kinds(&p), 2);
	fit_or_fail(&p, NULL, &fit);
	assert_int_equal(fit.reference_kind, 0);
	assert_near(fit.scale[0], 1.0, 0);
	assert_near(fit.scale[three], 0.7, 0.002);
	assert_true(fit.scale_lo[three] < 0.7 && 0.7 < fit.scale_hi[three]);
	for (int i = 0; i < 3; i++)
		assert_near(fit.elo[i], truth[i], 0.5);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

static void test_three_bot_cycle_is_equal(void **state)
{
	struct rating_pairs p;
	struct rating_fit fit;

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 3), 0);
	rating_pairs_add(&p, 0, 1, 70, 100);
	rating_pairs_add(&p, 1, 2, 70, 100);
	rating_pairs_add(&p, 2, 0, 70, 100);
	fit_or_fail(&p, NULL, &fit);
	for (int i = 0; i < 3; i++)
		assert_near(fit.elo[i], 0.0, 1e-6);
	assert_near(rating_los(&fit, 0, 1), 0.5, 1e-6);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

static void test_unbeaten_bot_stays_finite_and_first(void **state)
{
	struct rating_pairs p;
	struct rating_fit fit;

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 4), 0);
	rating_pairs_add(&p, 0, 1, 40, 40);   /* bot 0 never loses */
	rating_pairs_add(&p, 0, 2, 40, 40);
	rating_pairs_add(&p, 1, 2, 25, 40);
	rating_pairs_add(&p, 3, 1, 0, 40);    /* bot 3 never wins */
	rating_pairs_add(&p, 3, 2, 0, 40);
	fit_or_fail(&p, NULL, &fit);
	assert_true(fit.iterations < 100);
	for (int i = 0; i < 4; i++) {
		assert_true(isfinite(fit.elo[i]));
		assert_true(isfinite(rating_ci95(&fit, i)));
		assert_true(fabs(fit.elo[i]) < 2000);
	}
	assert_true(fit.elo[0] > fit.elo[1] + 100);
	assert_true(fit.elo[1] > fit.elo[2]);
	assert_true(fit.elo[2] > fit.elo[3] + 100);
	assert_true(rating_los(&fit, 0, 1) > 0.95);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	return xorshift64s(&rng_state);
}

struct game3 {
	unsigned bot[3];
	int placing[3];
};

static void test_order_does_not_matter(void **state)
{
	enum { GAMES = 3000, BOTS = 7 };
	static struct game3 games[GAMES];
	unsigned team[3] = { 0, 1, 2 };
	struct rating_pairs a, b;
	struct rating_fit fa, fb;

	(void)state;
	for (int g = 0; g < GAMES; g++) {
		unsigned first = (unsigned)(rng_next() % BOTS);
		for (int s = 0; s < 3; s++) {
			games[g].bot[s] = (first + (unsigned)s * 2) % BOTS;
			/* Lower bot numbers place better more often; ties happen. */
			games[g].placing[s] = 1 + (int)((rng_next() % 3 + games[g].bot[s] / 3) % 3);
		}
	}
	assert_int_equal(rating_pairs_init(&a, BOTS), 0);
	assert_int_equal(rating_pairs_init(&b, BOTS), 0);
	for (int g = 0; g < GAMES; g++)
		rating_pairs_add_placings(&a, 3, games[g].bot, games[g].placing, team);
	for (int g = GAMES - 1; g > 0; g--) { /* Fisher-Yates shuffle */
		int k = (int)(rng_next() % (uint64_t)(g + 1));
		struct game3 t = games[g];
		games[g] = games[k];
		games[k] = t;
	}
	for (int g = 0; g < GAMES; g++)
		rating_pairs_add_placings(&b, 3, games[g].bot, games[g].placing, team);
	fit_or_fail(&a, NULL, &fa);
	fit_or_fail(&b, NULL, &fb);
	for (int i = 0; i < BOTS; i++) {
		assert_true(fa.elo[i] == fb.elo[i]);
		assert_true(rating_ci95(&fa, i) == rating_ci95(&fb, i));
	}
	rating_fit_release(&fa);
	rating_fit_release(&fb);
	rating_pairs_release(&a);
	rating_pairs_release(&b);
}

static double ci_after(double games)
{
	struct rating_pairs p;
	struct rating_fit fit;
	double ci;

	assert_int_equal(rating_pairs_init(&p, 3), 0);
	rating_pairs_add(&p, 0, 1, 0.6 * games, games);
	rating_pairs_add(&p, 1, 2, 0.6 * games, games);
	rating_pairs_add(&p, 0, 2, 0.7 * games, games);
	fit_or_fail(&p, NULL, &fit);
	ci = rating_ci95(&fit, 0);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
	return ci;
}

static void test_intervals_shrink_with_games(void **state)
{
	(void)state;
	double c100 = ci_after(100), c1000 = ci_after(1000), c10000 = ci_after(10000);
	assert_true(c100 > c1000);
	assert_true(c1000 > c10000);
	/* Standard errors fall as 1/sqrt(games). */
	assert_near(c100 / c10000, 10.0, 0.2);
	assert_true(c10000 > 0);
}

static void test_interval_matches_binomial(void **state)
{
	struct rating_pairs p;
	struct rating_fit fit;

	(void)state;
	/* Two bots at 75% over 1000 games: the difference's SE is the delta-method
	 * binomial one, sqrt(p(1-p)/n) / (p(1-p)) nats; each bot carries half. */
	assert_int_equal(rating_pairs_init(&p, 2), 0);
	rating_pairs_add(&p, 0, 1, 750, 1000);
	fit_or_fail(&p, NULL, &fit);
	double se_diff = sqrt(1.0 / (1000 * 0.75 * 0.25)) * 400 / M_LN10;
	assert_near(rating_ci95(&fit, 0), RATING_Z95 * se_diff / 2, 0.2);
	rating_fit_release(&fit);
	rating_pairs_release(&p);
}

static void test_anchor_bot(void **state)
{
	struct rating_pairs p;
	struct rating_fit fit;
	struct rating_options opt = { RATING_PRIOR_DRAWS, 1 };

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 3), 0);
	rating_pairs_add(&p, 0, 1, 750, 1000);
	rating_pairs_add(&p, 1, 2, 500, 1000);
	fit_or_fail(&p, &opt, &fit);
	assert_near(fit.elo[1], 0.0, 1e-9);
	assert_near(rating_ci95(&fit, 1), 0.0, 1e-9);
	assert_near(fit.elo[0], ELO_75, 0.2);
	assert_true(rating_ci95(&fit, 0) > 0);
	assert_near(rating_los(&fit, 0, 2) + rating_los(&fit, 2, 0), 1.0, 1e-12);
	rating_fit_release(&fit);
	opt.anchor = 3;
	assert_int_equal(rating_fit(&p, &opt, &fit), -EINVAL);
	opt.anchor = -1;
	opt.prior_draws = -1e-9;
	assert_int_equal(rating_fit(&p, &opt, &fit), -EINVAL);
	rating_pairs_release(&p);
}

/* Fixed ratings (a league's anchors): one fixed bot gives the anchor option's fit moved by
 * its value; two pin the scale between them; a pool without one stays centred. */
static void test_fixed_ratings(void **state)
{
	struct rating_pairs p;
	struct rating_fit anchored, fit;
	struct rating_options opt = RATING_OPTIONS_DEFAULT;
	double fixed[6] = { NAN, 1500, NAN, NAN, NAN, NAN };

	(void)state;
	assert_int_equal(rating_pairs_init(&p, 6), 0);
	rating_pairs_add(&p, 0, 1, 750, 1000);
	rating_pairs_add(&p, 1, 2, 500, 1000);
	rating_pairs_add(&p, 2, 3, 600, 1000);
	rating_pairs_add(&p, 4, 5, 600, 1000); /* a pool of its own */
	opt.anchor = 1;
	fit_or_fail(&p, &opt, &anchored);
	opt.anchor = -1;
	opt.fixed = fixed;
	fit_or_fail(&p, &opt, &fit);
	for (size_t i = 0; i < 4; i++) {
		/* the prior's centre moves with the fixed value, so the fit is the same up to
		 * where the 0.5 virtual draws pull (the pool's mean, or the fixed bot) */
		assert_near(fit.elo[i], anchored.elo[i] + 1500, 0.05);
		assert_near(rating_ci95(&fit, i), rating_ci95(&anchored, i), 0.05);
	}
	assert_near(fit.elo[4] + fit.elo[5], 0, 1e-9);
	assert_near(rating_ci95(&fit, 1), 0, 1e-12);
	rating_fit_release(&fit);
	rating_fit_release(&anchored);

	/* two fixed bots 100 Elo apart where the games say 0: both stay, bot 0 sits above 1 */
	fixed[2] = 1400;
	fit_or_fail(&p, &opt, &fit);
	assert_near(fit.elo[1], 1500, 1e-9);
	assert_near(fit.elo[2], 1400, 1e-9);
	assert_near(rating_ci95(&fit, 2), 0, 1e-12);
	assert_near(fit.elo[0] - fit.elo[1], ELO_75, 1.0);
	assert_true(fit.elo[3] < 1400 && rating_ci95(&fit, 3) > 0);
	rating_fit_release(&fit);
	fixed[2] = INFINITY;
	assert_int_equal(rating_fit(&p, &opt, &fit), -EINVAL);
	rating_pairs_release(&p);
}

/* Random 3-player games among nbots <= 7 bots with known ratings (Gumbel noise). */
static void add_random_games(struct rating_pairs *p, unsigned nbots, int games, uint64_t *rng)
{
	static const double truth[7] = { -300, -200, -100, 0, 100, 200, 300 };
	unsigned team[3] = { 0, 1, 2 };

	for (int g = 0; g < games; g++) {
		unsigned bot[3];
		int placing[3];
		double perf[3];
		for (int s = 0; s < 3; s++) {
			bot[s] = (unsigned)((xorshift64s(rng) >> 11) % nbots);
			for (int t = 0; t < s; t++)
				if (bot[t] == bot[s])
					bot[s] = (bot[s] + 1) % nbots, t = -1;
			double u = ((double)(xorshift64s(rng) >> 11) + 0.5) / 9007199254740992.0;
			perf[s] = truth[bot[s]] * M_LN10 / 400.0 - log(-log(u));
		}
		for (int s = 0; s < 3; s++) {
			placing[s] = 1;
			for (int t = 0; t < 3; t++)
				placing[s] += perf[t] > perf[s];
		}
		rating_pairs_add_placings(p, 3, bot, placing, team);
	}
}

/*
 * A tiny prior, or none, leaves the objective nearly flat along the common
 * shift of all ratings; Newton must still converge (it used to stop with
 * -EDOM on a step of 1.6e-10 there) and land on the plain maximum-likelihood
 * fit, and without a prior a 750-250 score is exactly 190.85 Elo.
 */
static void test_small_and_zero_prior(void **state)
{
	static const double priors[] = { 1e-5, 1e-6, 1e-8, 0 };
	struct rating_pairs p, two;
	struct rating_fit ref, fit;
	struct rating_options opt = RATING_OPTIONS_DEFAULT;
	uint64_t rng = 0x1234567887654321ull;

	(void)state;
	/* 300 games among 5 bots: data on which the old test failed at 1e-6 and 1e-8. */
	assert_int_equal(rating_pairs_init(&p, 5), 0);
	add_random_games(&p, 5, 300, &rng);
	opt.prior_draws = 1e-4;
	fit_or_fail(&p, &opt, &ref);
	for (size_t k = 0; k < sizeof(priors) / sizeof(priors[0]); k++) {
		opt.prior_draws = priors[k];
		fit_or_fail(&p, &opt, &fit);
		double sum = 0;
		for (int i = 0; i < 5; i++) {
			/* 1e-4 virtual draws among 900 results move a rating by far less than 0.05 */
			assert_near(fit.elo[i], ref.elo[i], 0.05);
			assert_true(isfinite(rating_ci95(&fit, i)) && rating_ci95(&fit, i) > 0);
			sum += fit.elo[i];
		}
		assert_near(sum, 0.0, 1e-6);
		rating_fit_release(&fit);
	}
	rating_fit_release(&ref);

	assert_int_equal(rating_pairs_init(&two, 2), 0);
	rating_pairs_add(&two, 0, 1, 750, 1000);
	opt.prior_draws = 0;
	fit_or_fail(&two, &opt, &fit);
	assert_near(fit.elo[0] - fit.elo[1], ELO_75, 1e-6);
	/* The binomial interval of a 75% score over 1000 results, exactly. */
	assert_near(rating_ci95(&fit, 0) * 2.0, RATING_Z95 * 400.0 / M_LN10 / sqrt(1000 * 0.1875),
		    1e-6);
	rating_fit_release(&fit);
	/* A bot that never scored has no finite maximum-likelihood rating. */
	rating_pairs_release(&two);
	assert_int_equal(rating_pairs_init(&two, 2), 0);
	assert_int_equal(rating_pairs_add(&two, 0, 1, 1000, 1000), 0);
	assert_int_equal(rating_fit(&two, &opt, &fit), -EDOM);
	rating_pairs_release(&two);
	rating_pairs_release(&p);
}

static void test_paired_stats(void **state)
{
	struct rating_paired st;
	double even[5] = { 0, 0, 10, 0, 0 };
	double mixed[5] = { 1, 2, 3, 2, 2 };

	(void)state;
	rating_paired_stats(even, &st);
	assert_near(st.pairs, 10, 0);
	assert_near(st.score, 0.5, 1e-12);
	assert_near(st.elo, 0.0, 1e-9);
	assert_near(st.score_se, 0.0, 1e-12);
	assert_true(isinf(st.elo_lo) && st.elo_lo < 0); /* no zero-width interval */
	assert_true(isinf(st.elo_hi) && st.elo_hi > 0);

	rating_paired_stats(mixed, &st);
	/* Pair scores 0,.5,.5,1,1,1,1.5,1.5,2,2: mean 1.1, per game 0.55. */
	assert_near(st.score, 0.55, 1e-12);
	double var = (1 * 1.21 + 2 * 0.36 + 3 * 0.01 + 2 * 0.16 + 2 * 0.81) / 9.0;
	assert_near(st.score_se, sqrt(var / 10.0) / 2.0, 1e-12);
	assert_near(st.elo, rating_elo_from_score(0.55), 1e-9);
	assert_true(st.elo_lo < st.elo && st.elo < st.elo_hi);
	assert_near(st.elo_lo, rating_elo_from_score(0.55 - RATING_Z95 * st.score_se), 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expected_and_inverse),
		cmocka_unit_test(test_score_75_percent),
		cmocka_unit_test(test_draws_count_half),
		cmocka_unit_test(test_partnership_pairs_skip_teammates),
		cmocka_unit_test(test_team_model_recovers_ratings),
		cmocka_unit_test(test_kinds_get_a_discrimination),
		cmocka_unit_test(test_three_bot_cycle_is_equal),
		cmocka_unit_test(test_unbeaten_bot_stays_finite_and_first),
		cmocka_unit_test(test_order_does_not_matter),
		cmocka_unit_test(test_intervals_shrink_with_games),
		cmocka_unit_test(test_interval_matches_binomial),
		cmocka_unit_test(test_anchor_bot),
		cmocka_unit_test(test_fixed_ratings),
		cmocka_unit_test(test_small_and_zero_prior),
		cmocka_unit_test(test_paired_stats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
