/*
 * test_league_sched.c - the league's scheduler (league_sched.c): new entries
 * reach their floor first, inactive entries are never seated, the choice is
 * deterministic and survives a resume, the games go to the adjacent pairs
 * whose intervals overlap, and tables of more players are whole tables.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "league_sched.h"

static const struct league_sched_entry unrated = { true, false, 0, NAN, NAN };

/* Entry with a rating. */
static struct league_sched_entry rated(double elo, double ci95)
{
	return (struct league_sched_entry){ true, false, 100, elo, ci95 };
}

/* Choose and play one deal; returns its table in table. */
static void play_one(struct league_sched *s, uint32_t *table)
{
	assert_int_equal(league_sched_next(s, table), 0);
	assert_int_equal(league_sched_played(s, table, s->players), 0);
}

static bool seats(const uint32_t *table, int players, uint32_t e)
{
	for (int k = 0; k < players; k++)
		if (table[k] == e)
			return true;
	return false;
}

static void new_entry_reaches_floor_first(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[5] = { rated(100, 30), rated(50, 30), rated(0, 30),
					   rated(-50, 30), unrated };
	uint32_t table[2];

	(void)state;
	assert_int_equal(league_sched_init(&s, 2, 6, 1), 0);
	assert_int_equal(league_sched_update(&s, e, 4), 0);
	/* the first four reach their floor of 6 deals first */
	for (int k = 0; k < 12; k++)
		play_one(&s, table);
	for (uint32_t o = 0; o < 4; o++)
		assert_int_equal(s.deals[o], 6);
	play_one(&s, table);
	assert_int_equal(league_sched_update(&s, e, 5), 0);
	for (int k = 0; k < 6; k++) {
		play_one(&s, table);
		assert_true(seats(table, 2, 4));
	}
	/* its opponents spread over the field: each of the 4 met at least once */
	for (uint32_t o = 0; o < 4; o++)
		assert_true(league_sched_met(&s, 4, o) >= 1);
	league_sched_release(&s);
}

static void inactive_never_chosen(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[6] = { rated(100, 300), rated(90, 300), rated(80, 300),
					   rated(70, 300), unrated, rated(60, 300) };
	uint32_t table[3];

	(void)state;
	e[1].active = false; /* retired */
	e[4].active = false; /* suspended before its floor */
	assert_int_equal(league_sched_init(&s, 3, 10, 7), 0);
	assert_int_equal(league_sched_update(&s, e, 6), 0);
	for (int k = 0; k < 400; k++) {
		play_one(&s, table);
		assert_false(seats(table, 3, 1));
		assert_false(seats(table, 3, 4));
	}
	e[2].active = e[3].active = false;
	assert_int_equal(league_sched_update(&s, e, 6), 0);
	assert_int_equal(league_sched_next(&s, table), -EAGAIN);
	league_sched_release(&s);
}

/* 12 entries, ratings in steps of 40 with intervals of 60 (every pair overlaps). */
static void field(struct league_sched_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		e[i] = rated(-40.0 * (double)i, 60);
}

static void deterministic(void **state)
{
	struct league_sched a, b, c;
	struct league_sched_entry e[12];
	uint32_t ta[2], tb[2], tc[2];
	int differ = 0;

	(void)state;
	field(e, 12);
	assert_int_equal(league_sched_init(&a, 2, 3, 42), 0);
	assert_int_equal(league_sched_init(&b, 2, 3, 42), 0);
	assert_int_equal(league_sched_init(&c, 2, 3, 43), 0);
	e[11] = unrated;
	assert_int_equal(league_sched_update(&a, e, 12), 0);
	assert_int_equal(league_sched_update(&b, e, 12), 0);
	assert_int_equal(league_sched_update(&c, e, 12), 0);
	for (int k = 0; k < 300; k++) {
		play_one(&a, ta);
		play_one(&b, tb);
		play_one(&c, tc);
		assert_memory_equal(ta, tb, sizeof(ta));
		differ += memcmp(ta, tc, sizeof(ta)) != 0;
	}
	assert_true(differ > 0); /* the seed matters (spread deals, ties) */
	league_sched_release(&a);
	league_sched_release(&b);
	league_sched_release(&c);
}

/* A league stopped after 100 deals and resumed by replaying them chooses as if unbroken. */
static void resume_replays(void **state)
{
	struct league_sched run, resumed;
	struct league_sched_entry e[12];
	uint32_t played[100][2], t1[2], t2[2];

	(void)state;
	field(e, 12);
	assert_int_equal(league_sched_init(&run, 2, 4, 9), 0);
	assert_int_equal(league_sched_init(&resumed, 2, 4, 9), 0);
	assert_int_equal(league_sched_update(&run, e, 12), 0);
	for (int k = 0; k < 100; k++)
		play_one(&run, played[k]);
	assert_int_equal(league_sched_update(&resumed, e, 12), 0);
	for (int k = 0; k < 100; k++)
		assert_int_equal(league_sched_played(&resumed, played[k], 2), 0);
	/* the standings come after the replay: the deals since the update are the same */
	assert_int_equal(league_sched_update(&run, e, 12), 0);
	assert_int_equal(league_sched_update(&resumed, e, 12), 0);
	for (int k = 0; k < 50; k++) {
		play_one(&run, t1);
		play_one(&resumed, t2);
		assert_memory_equal(t1, t2, sizeof(t1));
	}
	league_sched_release(&run);
	league_sched_release(&resumed);
}

/* Only entries 2 and 3 overlap (100 and 110 Elo, intervals 20): they get the ranked deals. */
static void overlapping_pair_gets_games(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[5] = { rated(400, 20), rated(250, 20), rated(110, 20),
					   rated(100, 20), rated(-100, 20) };
	uint32_t table[2];

	(void)state;
	assert_int_equal(league_sched_init(&s, 2, 0, 3), 0);
	assert_int_equal(league_sched_update(&s, e, 5), 0);
	for (int k = 0; k < 200; k++)
		play_one(&s, table);
	/* 7 in 8 deals are ranked ones; the shrinking intervals hand a few to the next pairs */
	assert_true(league_sched_met(&s, 2, 3) >= 120);
	assert_true(league_sched_met(&s, 0, 1) < 40);
	league_sched_release(&s);
}

/* Two anchors next to each other are never a ranked pair; spread deals seat anchors. */
static void anchors(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[4] = { rated(100, 0), rated(99, 0), rated(0, 50),
					   rated(-10, 50) };
	uint32_t table[2];
	int anchor_deals = 0;

	(void)state;
	e[0].anchor = e[1].anchor = true;
	assert_int_equal(league_sched_init(&s, 2, 5, 3), 0);
	assert_int_equal(league_sched_update(&s, e, 4), 0);
	for (int k = 0; k < 160; k++) {
		play_one(&s, table);
		assert_false(seats(table, 2, 0) && seats(table, 2, 1));
		anchor_deals += seats(table, 2, 0) || seats(table, 2, 1);
	}
	assert_true(anchor_deals >= 160 / LEAGUE_SCHED_SPREAD_EVERY);
	league_sched_release(&s);
}

/* Every LEAGUE_SCHED_SPREAD_EVERY-th deal of a 4-player league: an entry that is not an
 * anchor with three anchors. */
static void spread_deals(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[8];
	uint32_t table[4];
	int spread = 0;

	(void)state;
	for (size_t i = 0; i < 8; i++)
		e[i] = rated(100.0 * (double)i, i < 3 ? 0 : 30);
	e[0].anchor = e[1].anchor = e[2].anchor = true;
	assert_int_equal(league_sched_init(&s, 4, 0, 11), 0);
	assert_int_equal(league_sched_update(&s, e, 8), 0);
	for (int k = 0; k < 64; k++) {
		bool is_spread = s.total % LEAGUE_SCHED_SPREAD_EVERY == LEAGUE_SCHED_SPREAD_EVERY - 1;
		play_one(&s, table);
		if (!is_spread)
			continue;
		spread++;
		assert_false(e[table[0]].anchor);
		for (int t = 1; t < 4; t++)
			assert_true(e[table[t]].anchor);
	}
	assert_int_equal(spread, 64 / LEAGUE_SCHED_SPREAD_EVERY);
	league_sched_release(&s);
}

/* Four players: the uncertain pair with its neighbours. */
static void whole_tables(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[8];
	uint32_t table[4];

	(void)state;
	for (size_t i = 0; i < 8; i++)
		e[i] = rated(1000.0 - 200.0 * (double)i, 10);
	e[5].elo = e[4].elo - 5; /* 4 and 5 overlap */
	assert_int_equal(league_sched_init(&s, 4, 0, 5), 0);
	assert_int_equal(league_sched_update(&s, e, 8), 0);
	play_one(&s, table);
	assert_int_equal(table[0], 4);
	assert_int_equal(table[1], 5);
	assert_true(seats(table, 4, 3) && seats(table, 4, 6));
	league_sched_release(&s);
}

/* Pending deals count at once, and one abandoned is uncounted. */
static void pending_and_abandoned(void **state)
{
	struct league_sched s;
	struct league_sched_entry e[3] = { rated(0, 50), rated(10, 50), rated(20, 50) };
	uint32_t t[2], bad[2] = { 0, 0 };

	(void)state;
	assert_int_equal(league_sched_init(&s, 2, 0, 1), 0);
	assert_int_equal(league_sched_update(&s, e, 3), 0);
	assert_int_equal(league_sched_next(&s, t), 0);
	assert_int_equal(league_sched_met(&s, t[0], t[1]), 1);
	assert_int_equal(league_sched_abandon(&s, t, 2), 0);
	assert_int_equal(league_sched_met(&s, t[0], t[1]), 0);
	assert_int_equal(league_sched_abandon(&s, t, 2), -ENOENT);
	assert_int_equal(league_sched_played(&s, bad, 2), -EINVAL);
	assert_int_equal(league_sched_update(&s, e, 2), -EINVAL);
	league_sched_release(&s);
	assert_int_equal(league_sched_init(&s, 7, 0, 1), -EINVAL);
	assert_int_equal(league_sched_init(&s, 1, 0, 1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(new_entry_reaches_floor_first),
		cmocka_unit_test(inactive_never_chosen),
		cmocka_unit_test(deterministic),
		cmocka_unit_test(resume_replays),
		cmocka_unit_test(overlapping_pair_gets_games),
		cmocka_unit_test(anchors),
		cmocka_unit_test(spread_deals),
		cmocka_unit_test(whole_tables),
		cmocka_unit_test(pending_and_abandoned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
