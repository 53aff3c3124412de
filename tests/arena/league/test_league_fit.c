/*
 * test_league_fit.c - the league's background refit (league_fit.c): the
 * same ratings and intervals as rating_fit over the same games, anchors
 * frozen at their values, the stop rule, and sums that do not grow with
 * the number of games.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "league_fit.h"
#include "xorshift.h"

/* A 2-player duplicate deal between a and b of known Elo: both rotations (R7: the winner
 * places 1st), the result drawn from the Elo expectation. */
struct sim {
	uint64_t rng;
	const double *elo;
};

static int draw_placing(struct sim *sim, uint32_t a, uint32_t b)
{
	double u = (double)(xorshift64s(&sim->rng) >> 11) / 9007199254740992.0;
	return u < rating_expected(sim->elo[a] - sim->elo[b]) ? 0 : 1;
}

/* Play deal number deal between a and b into the fit and into the reference sums. */
static void play(struct sim *sim, struct league_fit *f, struct rating_pairs *p,
		 struct cluster_sums *c, uint64_t deal, uint32_t a, uint32_t b)
{
	for (int rot = 0; rot < 2; rot++) {
		uint32_t bot[2] = { rot ? b : a, rot ? a : b }, team[2] = { 0, 1 };
		int w = draw_placing(sim, bot[0], bot[1]), placing[2] = { w, 1 - w };
		assert_int_equal(league_fit_add(f, deal, 2, bot, placing, team), 0);
		if (p)
			assert_int_equal(rating_add_clustered(p, c, deal, 2, bot, placing, team), 0);
	}
}

static const double strengths[6] = { 300, 150, 100, 0, -120, -300 };

/* A league_fit and the same games summed as report sums them, for 6 entries. */
struct both {
	struct league_fit f;
	struct rating_pairs p;
	struct cluster_sums *c;
};

static void both_init(struct both *b)
{
	b->c = calloc(1, sizeof(*b->c));
	assert_non_null(b->c);
	cluster_sums_init(b->c);
	assert_int_equal(rating_pairs_init(&b->p, 6), 0);
	assert_int_equal(league_fit_init(&b->f, NULL), 0);
}

/* Refit and compare with rating_fit: ratings within 1e-6, intervals within tol (Elo); the
 * standings into st (released by the caller). Releases b. */
static void both_compare(struct both *b, double tol, struct league_standings *st)
{
	struct rating_options opt = RATING_OPTIONS_DEFAULT;
	struct rating_fit fit;

	league_fit_request(&b->f);
	assert_int_equal(league_fit_wait(&b->f), 0);
	assert_int_equal(league_fit_latest(&b->f, st), 0);
	opt.clusters = b->c;
	assert_int_equal(rating_fit(&b->p, &opt, &fit), 0);
	assert_int_equal(st->n, 6);
	assert_true(st->generation >= 1);
	for (size_t e = 0; e < 6; e++) {
		assert_true(fabs(st->elo[e] - fit.elo[e]) < 1e-6);
		assert_true(fabs(st->ci95[e] - rating_ci95(&fit, e)) < tol);
	}
	rating_fit_release(&fit);
	rating_pairs_release(&b->p);
	cluster_sums_release(b->c);
	free(b->c);
	league_fit_release(&b->f);
}

/* The fit of deals games among the 6 bots against rating_fit: equal within tol (Elo). */
static void compare_with_rating_fit(uint64_t deals, double tol)
{
	struct sim sim = { 0x1234567ull, strengths };
	struct both b;
	struct league_standings st;

	both_init(&b);
	for (uint64_t d = 0; d < deals; d++)
		play(&sim, &b.f, &b.p, b.c, d, (uint32_t)(d % 6), (uint32_t)((d / 6 + d + 1) % 6));
	both_compare(&b, tol, &st);
	assert_int_equal(st.games_counted, 2 * deals);
	for (size_t e = 0; e < 6; e++)
		assert_int_equal(st.games[e], 2 * deals / 3);
	/* ranked best first */
	for (size_t k = 0; k + 1 < st.nranked; k++)
		assert_true(st.elo[st.order[k]] >= st.elo[st.order[k + 1]]);
	league_standings_release(&st);
}

/* The same ratings as rating_fit, and the same intervals: exactly below one buffer of
 * cluster.h, within 0.1 Elo (of about 15) once buffers are folded at other fits. */
static void same_as_rating_fit(void **state)
{
	(void)state;
	compare_with_rating_fit(600, 1e-6);
	compare_with_rating_fit(6000, 0.1);
}

/* Partnership games (R2: teams named by any numbers) give rating_fit's ratings too. */
static void partnership_same_as_rating_fit(void **state)
{
	struct both b;
	struct league_standings st;
	uint64_t rng = 0x5151ull;

	(void)state;
	both_init(&b);
	for (uint64_t d = 0; d < 400; d++) {
		uint32_t seat[4] = { (uint32_t)(d % 6), (uint32_t)((d + 1) % 6), (uint32_t)((d + 3) % 6),
				     (uint32_t)((d + 4) % 6) };
		uint32_t team[4] = { 70000, 9, 70000, 9 };
		int first = (int)(xorshift64s(&rng) % 2);
		int placing[4] = { first ? 1 : 2, first ? 2 : 1, first ? 1 : 2, first ? 2 : 1 };
		assert_int_equal(league_fit_add(&b.f, d, 4, seat, placing, team), 0);
		assert_int_equal(rating_add_clustered(&b.p, b.c, d, 4, seat, placing, team), 0);
	}
	both_compare(&b, 1e-6, &st);
	assert_int_equal(st.games_counted, 400);
	league_standings_release(&st);
}

/* Two anchors stay at their values as games come; the others fall around them. */
static void anchors_frozen(void **state)
{
	struct sim sim = { 0x99ull, strengths };
	struct league_fit_anchor anchors[2] = { { 3, 1500 }, { 1, 1650 } };
	struct league_fit_options opt = { anchors, 2 };
	struct league_fit f;
	struct league_standings st;

	(void)state;
	assert_int_equal(league_fit_init(&f, &opt), 0);
	for (int round = 0; round < 3; round++) {
		for (uint64_t d = 0; d < 600; d++)
			play(&sim, &f, NULL, NULL, 600 * (uint64_t)round + d, (uint32_t)(d % 6),
			     (uint32_t)((d + 1 + d / 6) % 6));
		league_fit_request(&f);
		assert_int_equal(league_fit_wait(&f), 0);
		assert_int_equal(league_fit_latest(&f, &st), 0);
		assert_true(st.generation >= (uint64_t)round + 1);
		assert_true(st.elo[3] == 1500 && st.ci95[3] == 0);
		assert_true(st.elo[1] == 1650 && st.ci95[1] == 0);
		assert_true(st.elo[0] > 1650 && st.elo[5] < 1500);
		assert_true(st.elo[2] < 1650 && st.elo[2] > 1500 && st.ci95[2] > 0);
		/* the two anchors are not an adjacent pair of the stop rule */
		assert_int_equal(st.adjacent, 5);
		league_standings_release(&st);
	}
	league_fit_release(&f);
}

/* Bad options and games are refused. */
static void refusals(void **state)
{
	struct league_fit_anchor twice[2] = { { 1, 0 }, { 1, 10 } };
	struct league_fit_options opt = { twice, 2 };
	struct league_fit f;
	uint32_t seat[2] = { 0, 1 }, far[2] = { 0, UINT32_MAX }, team[2] = { 0, 1 };
	int placing[2] = { 1, 2 }, wild[2] = { 1, 1000 };

	(void)state;
	assert_int_equal(league_fit_init(&f, &opt), -EINVAL);
	assert_int_equal(league_fit_init(&f, NULL), 0);
	assert_int_equal(league_fit_add(&f, 0, 1, seat, placing, team), -EINVAL);
	assert_int_equal(league_fit_add(&f, 0, 7, seat, placing, team), -EINVAL);
	assert_int_equal(league_fit_add(&f, 0, 2, far, placing, team), -EINVAL);
	assert_int_equal(league_fit_add(&f, 0, 2, seat, wild, team), -EINVAL);
	assert_int_equal(league_fit_add(&f, 0, 2, seat, placing, team), 0);
	league_fit_release(&f);
}

/* Far apart bots: every adjacent pair separated; two equal bots: not. */
static void stop_rule(void **state)
{
	static const double apart[4] = { 600, 200, -200, -600 };
	static const double close[4] = { 600, 0, 0, -600 };
	struct league_fit f;
	struct league_standings st;

	(void)state;
	for (int t = 0; t < 2; t++) {
		struct sim sim = { 0x777ull, t ? close : apart };
		assert_int_equal(league_fit_init(&f, NULL), 0);
		league_fit_request(&f);
		assert_int_equal(league_fit_wait(&f), 0);
		assert_int_equal(league_fit_latest(&f, &st), 0);
		assert_false(league_standings_all_separated(&st)); /* no fit yet */
		league_standings_release(&st);
		for (uint64_t d = 0; d < 1200; d++)
			play(&sim, &f, NULL, NULL, d, (uint32_t)(d % 4), (uint32_t)((d + 1 + d / 4) % 4));
		league_fit_request(&f);
		assert_int_equal(league_fit_wait(&f), 0);
		assert_int_equal(league_fit_latest(&f, &st), 0);
		assert_int_equal(st.adjacent, 3);
		assert_int_equal(league_standings_all_separated(&st), t == 0);
		league_standings_release(&st);
		league_fit_release(&f);
	}
}

/* The sums' allocations and the queue's are the same after 20,000 and after 200,000
 * games, games coming far faster than the thread sums them. */
static void memory_flat(void **state)
{
	struct sim sim = { 0x4242ull, strengths };
	struct league_fit f;
	size_t capbuf, capgroups, cap, capqueue;

	(void)state;
	assert_int_equal(league_fit_init(&f, NULL), 0);
	for (uint64_t d = 0; d < 10000; d++)
		play(&sim, &f, NULL, NULL, d, (uint32_t)(d % 6), (uint32_t)((d + 1 + d / 6) % 6));
	league_fit_request(&f);
	assert_int_equal(league_fit_wait(&f), 0);
	/* the thread is idle until the next request: its sums can be read */
	pthread_mutex_lock(&f.lock);
	capbuf = f.clusters->capbuf;
	capgroups = f.pairs.capgroups;
	cap = f.cap_games;
	capqueue = f.capqueue + f.capspare;
	pthread_mutex_unlock(&f.lock);
	assert_true(capbuf > 0 && capbuf <= 2 * CLUSTER_BUFFER_MAX);
	for (uint64_t d = 10000; d < 100000; d++)
		play(&sim, &f, NULL, NULL, d, (uint32_t)(d % 6), (uint32_t)((d + 1 + d / 6) % 6));
	league_fit_request(&f);
	assert_int_equal(league_fit_wait(&f), 0);
	pthread_mutex_lock(&f.lock);
	assert_int_equal(f.clusters->capbuf, capbuf);
	assert_int_equal(f.pairs.capgroups, capgroups);
	assert_int_equal(f.cap_games, cap);
	assert_true(f.capqueue + f.capspare <= 2 * LEAGUE_FIT_QUEUE_MAX);
	assert_true(capqueue <= 2 * LEAGUE_FIT_QUEUE_MAX);
	assert_int_equal(f.games_counted, 200000);
	pthread_mutex_unlock(&f.lock);
	league_fit_release(&f);
}

/* Whether a refit has started and not ended; *ended: every refit asked for has ended. */
static bool refit_running(struct league_fit *f, bool *ended)
{
	pthread_mutex_lock(&f->lock);
	bool running = f->taken > f->finished;
	*ended = f->finished == f->requested;
	pthread_mutex_unlock(&f->lock);
	return running;
}

/* league_fit_add returns while a refit of 100 entries runs: it never waits for the fit.
 * Tried a few times: on a loaded machine the adding thread may sleep through one fit. */
static void add_during_refit(void **state)
{
	static double field[100];
	struct sim sim = { 0x8888ull, field };
	struct league_fit f;
	int returned_during = 0;

	(void)state;
	for (size_t e = 0; e < 100; e++)
		field[e] = 10.0 * (double)e;
	assert_int_equal(league_fit_init(&f, NULL), 0);
	for (uint64_t d = 0; d < 5000; d++)
		play(&sim, &f, NULL, NULL, d, (uint32_t)(d % 100), (uint32_t)((d * 7 + 1 + d / 100) % 100));
	for (int attempt = 0; attempt < 20 && !returned_during; attempt++) {
		bool ended = false;
		league_fit_request(&f);
		while (!refit_running(&f, &ended) && !ended)
			;
		if (!ended) {
			play(&sim, &f, NULL, NULL, 5000 + (uint64_t)attempt, 0, 1);
			returned_during = refit_running(&f, &ended);
		}
		assert_int_equal(league_fit_wait(&f), 0);
	}
	assert_true(returned_during);
	league_fit_release(&f);
}

/* The progress line's leader: the first of the order, with its interval or as an anchor. */
static void leader_named(void **state)
{
	double elo[3] = { 10.0, 123.44, NAN }, ci[3] = { 30.0, 20.06, NAN };
	uint32_t order[2] = { 1, 0 };
	const char *names[3] = { "beta", "alpha", "new" };
	struct league_standings st = { .n = 3, .elo = elo, .ci95 = ci, .order = order,
				       .nranked = 2 };
	char buf[128];

	(void)state;
	league_standings_leader(&st, names, buf, sizeof(buf));
	assert_string_equal(buf, "; leader: alpha at 123.4 \u00b1 20.1 Elo");
	ci[1] = 0;
	league_standings_leader(&st, names, buf, sizeof(buf));
	assert_string_equal(buf, "; leader: alpha at 123.4 Elo, an anchor");
	st.nranked = 0;
	league_standings_leader(&st, names, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_rating_fit),
		cmocka_unit_test(partnership_same_as_rating_fit),
		cmocka_unit_test(anchors_frozen),
		cmocka_unit_test(refusals),
		cmocka_unit_test(stop_rule),
		cmocka_unit_test(memory_flat),
		cmocka_unit_test(add_during_refit),
		cmocka_unit_test(leader_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
