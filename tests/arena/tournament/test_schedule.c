/*
 * test_schedule.c - round-robin tables, duplicate rotations (every bot plays
 * every seat of a deal with the same cards), seeds and game ids.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

static void test_counts(void **state)
{
	struct schedule *s;

	(void)state;
	assert_int_equal(schedule_new(5, 3, 4, 1, 42, &s), 0);
	assert_int_equal(schedule_tables(s), 10);          /* C(5,3) */
	assert_int_equal(schedule_count(s), 10 * 4 * 3);   /* tables x deals x rotations */
	schedule_free(s);
	assert_int_equal(schedule_new(5, 3, 4, 0, 42, &s), 0);
	assert_int_equal(schedule_count(s), 10 * 4);
	schedule_free(s);
	assert_int_equal(schedule_new(6, 6, 1, 1, 42, &s), 0);
	assert_int_equal(schedule_count(s), 6);
	schedule_free(s);
	assert_int_equal(schedule_new(2, 3, 1, 1, 42, &s), -EINVAL);
	assert_int_equal(schedule_new(4, 2, 0, 1, 42, &s), -EINVAL);
	assert_int_equal(schedule_new(4, 7, 1, 1, 42, &s), -EINVAL);
}

static void test_every_combination_once(void **state)
{
	struct schedule *s;
	struct schedule_game g;
	int seen[1 << 6] = { 0 };

	(void)state;
	assert_int_equal(schedule_new(6, 3, 1, 0, 7, &s), 0);
	assert_int_equal(schedule_count(s), 20);
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		int mask = 0;

		assert_int_equal(schedule_game(s, i, &g), 0);
		for (int seat = 0; seat < 3; seat++) {
			assert_true(g.bots[seat] >= 0 && g.bots[seat] < 6);
			mask |= 1 << g.bots[seat];
		}
		assert_int_equal(__builtin_popcount((unsigned)mask), 3); /* three different bots */
		seen[mask]++;
	}
	for (int m = 0; m < (1 << 6); m++)
		assert_int_equal(seen[m], __builtin_popcount((unsigned)m) == 3 ? 1 : 0);
	assert_int_equal(schedule_game(s, 20, &g), -ERANGE);
	schedule_free(s);
}

/*
 * The index of game k of deal group p (R games a group), by schedule.h's
 * formula written out again: blocks of SCHEDULE_BLOCK_GROUPS groups, each
 * played phase by phase.
 */
static uint64_t group_game(const struct schedule *s, uint64_t p, uint32_t k, uint32_t R)
{
	uint64_t groups = schedule_count(s) / R;
	uint64_t start = p / SCHEDULE_BLOCK_GROUPS * SCHEDULE_BLOCK_GROUPS;
	uint64_t n = groups - start < SCHEDULE_BLOCK_GROUPS ? groups - start : SCHEDULE_BLOCK_GROUPS;

	return start * R + k * n + (p - start);
}

static void test_duplicate_rotations(void **state)
{
	struct schedule *s;
	struct schedule_game g, first;

	(void)state;
	assert_int_equal(schedule_new(4, 3, 2, 1, 99, &s), 0);
	for (uint64_t p = 0; p < schedule_count(s) / 3; p++) {
		int seat_of[4][3] = { { 0 } };

		assert_int_equal(schedule_game(s, group_game(s, p, 0, 3), &first), 0);
		for (uint32_t r = 0; r < 3; r++) {
			assert_true(schedule_group_index(s, p, r) == group_game(s, p, r, 3));
			assert_int_equal(schedule_game(s, group_game(s, p, r, 3), &g), 0);
			assert_int_equal(g.rotation, r);
			assert_int_equal(g.table, first.table);
			assert_int_equal(g.deal, first.deal);
			assert_true(g.seed == first.seed); /* same cards in every rotation */
			for (int seat = 0; seat < 3; seat++) {
				assert_int_equal(g.bots[seat], first.bots[(seat + (int)r) % 3]);
				seat_of[g.bots[seat]][seat]++;
			}
		}
		/* each of the table's bots sat in every seat exactly once */
		for (int seat = 0; seat < 3; seat++)
			for (int k = 0; k < 3; k++)
				assert_int_equal(seat_of[first.bots[k]][seat], 1);
	}
	schedule_free(s);
}

/* The documented formula, written out again independently. */
static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void test_seeds(void **state)
{
	struct schedule *s;
	struct schedule_game a, b;

	(void)state;
	/* splitmix64 reference value for 0 */
	assert_true(schedule_splitmix64(0) == 0xe220a8397b1dcdafULL);
	assert_true(schedule_deal_seed(5, 2, 3) == mix(mix(5 ^ 2) ^ 3));
	assert_int_equal(schedule_new(3, 2, 3, 1, 5, &s), 0);
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		assert_int_equal(schedule_game(s, i, &a), 0);
		assert_true(a.seed == schedule_deal_seed(5, a.table, a.deal));
	}
	assert_int_equal(schedule_game(s, 0, &a), 0);
	/* the same place of the next deal round: 3 tables on */
	assert_int_equal(schedule_game(s, group_game(s, 3, 0, 2), &b), 0);
	assert_int_equal(a.table, b.table);
	assert_int_equal(b.deal, a.deal + 1);
	assert_true(a.seed != b.seed);
	schedule_free(s);
}

static void test_ids(void **state)
{
	struct schedule *s;
	struct schedule_game g;
	uint64_t index;

	(void)state;
	assert_int_equal(schedule_new(5, 2, 12, 1, 1, &s), 0);
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		char id[SCHEDULE_ID_MAX];

		assert_int_equal(schedule_game(s, i, &g), 0);
		snprintf(id, sizeof(id), "t%04u-d%04u-r%u", g.table, g.deal, g.rotation);
		assert_string_equal(g.id, id);
		assert_int_equal(schedule_index_of(s, g.id, &index), 0);
		assert_true(index == i);
	}
	assert_int_equal(schedule_index_of(s, "t0003-d0011-r1", &index), 0);
	assert_int_equal(schedule_game(s, index, &g), 0);
	assert_int_equal(g.table, 3);
	assert_int_equal(g.deal, 11);
	assert_int_equal(g.rotation, 1);
	assert_int_equal(schedule_index_of(s, "t3-d11-r1", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0010-d0000-r0", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0000-d0000-r2", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0000-d0000-r0x", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "", &index), -ENOENT);
	schedule_free(s);
}

/*
 * The interleaved order: in every prefix each bot has played within a few
 * tables of every other, and deal d + 1 starts only when every table played
 * deal d (in a phase, and so counting the first rotations). A table-major
 * order had the first bot play all its tables first.
 */
static void check_prefixes(size_t nbots, int players, uint32_t deals, uint32_t spread_max)
{
	struct schedule *s;
	struct schedule_game g;
	uint32_t played[64] = { 0 }, rounds_seen = 0;
	uint64_t firsts = 0;

	assert_true(nbots <= 64);
	assert_int_equal(schedule_new(nbots, players, deals, 1, 3, &s), 0);
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		uint32_t most = 0, least = UINT32_MAX;

		assert_int_equal(schedule_game(s, i, &g), 0);
		if (g.rotation != 0)
			continue;
		assert_int_equal(g.deal, firsts++ / schedule_tables(s));
		for (int seat = 0; seat < players; seat++)
			played[g.bots[seat]]++;
		for (size_t b = 0; b < nbots; b++) {
			most = played[b] > most ? played[b] : most;
			least = played[b] < least ? played[b] : least;
		}
		assert_true(most - least <= spread_max);
		if (firsts % schedule_tables(s) == 0) {
			/* a whole deal round: every bot played every one of its tables once more */
			rounds_seen++;
			assert_int_equal(most, least);
		}
	}
	assert_int_equal(rounds_seen, deals);
	schedule_free(s);
}

static void test_interleaved_prefixes(void **state)
{
	(void)state;
	check_prefixes(6, 2, 3, 2);   /* the demo's shape */
	check_prefixes(64, 2, 1, 3);  /* 2,016 tables */
	check_prefixes(12, 4, 2, 3);
	check_prefixes(20, 3, 1, 3);
	check_prefixes(9, 6, 2, 3);
}

/* Shards: every game in exactly one, rotations of a deal together, sizes balanced, every table. */
static void check_shards(size_t nbots, int players, uint32_t deals, int duplicate, uint32_t n)
{
	struct schedule *s;
	struct schedule_game g;
	uint64_t size[16] = { 0 }, least = UINT64_MAX, most = 0, total = 0, first;
	char id[SCHEDULE_ID_MAX];
	uint32_t rotations = duplicate ? (uint32_t)players : 1;
	uint8_t tables_of[16][64] = { { 0 } };

	assert_true(n <= 16);
	assert_int_equal(schedule_new(nbots, players, deals, duplicate, 11, &s), 0);
	assert_true(schedule_tables(s) <= 64);
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		int k = schedule_shard_of(s, i, n);

		assert_true(k >= 0 && k < (int)n);
		assert_int_equal(schedule_game(s, i, &g), 0);
		/* the deal's first rotation is in the same shard */
		snprintf(id, sizeof(id), "t%04u-d%04u-r0", g.table, g.deal);
		assert_int_equal(schedule_index_of(s, id, &first), 0);
		assert_int_equal(k, schedule_shard_of(s, first, n));
		size[k]++;
		tables_of[k][g.table] = 1;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t tables = 0;

		assert_true(size[k] == schedule_shard_count(s, k, n));
		total += size[k];
		least = size[k] < least ? size[k] : least;
		most = size[k] > most ? size[k] : most;
		for (uint32_t t = 0; t < schedule_tables(s); t++)
			tables += tables_of[k][t];
		if (deals >= n)
			assert_int_equal(tables, schedule_tables(s));
	}
	assert_true(total == schedule_count(s));
	assert_true(most - least <= rotations * (deals > n ? 2 : 1));
	assert_int_equal(schedule_shard_of(s, schedule_count(s), n), -ERANGE);
	assert_true(schedule_shard_count(s, n, n) == 0);
	schedule_free(s);
}

static void test_shards(void **state)
{
	(void)state;
	check_shards(6, 2, 20, 1, 4);
	check_shards(6, 2, 7, 1, 4);
	check_shards(5, 3, 9, 0, 3);
	check_shards(4, 2, 1, 1, 16);  /* more shards than deal groups: some are empty */
	check_shards(7, 2, 5, 1, 1);
	check_shards(7, 3, 13, 1, 5);
}

/* A gauntlet: only tables with a challenger, each challenger meeting every other bot. */
static void test_gauntlet(void **state)
{
	const uint8_t one[5] = { 0, 0, 1, 0, 0 }, two[5] = { 1, 0, 0, 0, 1 }, none[5] = { 0 };
	int met[5][5] = { { 0 } };
	struct schedule_game g;
	struct schedule *s;

	(void)state;
	assert_int_equal(schedule_new_gauntlet(5, one, 2, 3, 1, 0, 9, &s), 0);
	assert_int_equal(schedule_tables(s), 4);
	assert_int_equal(schedule_count(s), 4 * 3 * 2);
	schedule_free(s);
	/* C(5,3) - C(3,3): every set of three but the field's own */
	assert_int_equal(schedule_new_gauntlet(5, two, 3, 2, 1, 0, 9, &s), 0);
	assert_int_equal(schedule_tables(s), 9);
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		int challengers = 0;

		assert_int_equal(schedule_game(s, i, &g), 0);
		for (int a = 0; a < 3; a++) {
			challengers += two[g.bots[a]];
			for (int b = 0; b < 3; b++)
				met[g.bots[a]][g.bots[b]]++;
		}
		assert_true(challengers >= 1);
	}
	for (int b = 1; b < 5; b++)
		assert_true(met[0][b] > 0);
	for (int b = 0; b < 4; b++)
		assert_true(met[4][b] > 0);
	schedule_free(s);
	assert_int_equal(schedule_new_gauntlet(5, none, 2, 1, 1, 0, 9, &s), -EINVAL);
	assert_int_equal(schedule_new_gauntlet(5, NULL, 2, 1, 1, 0, 9, &s), 0);
	assert_int_equal(schedule_tables(s), 10);
	schedule_free(s);
}

/*
 * Partnership pairings (schedule version 2): each deal of a table is played
 * under every pairing and, with duplicates, every seat rotation of each, with
 * the deal's seed; partners are seats 0+2, 1+3 or 0+3, 1+4, 2+5 (R2), and
 * every two bots of a table are partners equally often in each deal. Ids
 * round-trip.
 */
static void check_pairings(int players, int duplicate, uint32_t rotations, int partnered)
{
	uint32_t seat_rotations = duplicate ? (uint32_t)players : 1;
	enum { BOTS = 7, DEALS = 3 };
	int teams = players / 2;
	struct schedule *s;
	struct schedule_game g;
	uint64_t index;

	assert_int_equal(schedule_new_gauntlet(BOTS, NULL, players, DEALS, duplicate, 1, 5, &s), 0);
	assert_int_equal(schedule_count(s), (uint64_t)schedule_tables(s) * DEALS * rotations);
	for (uint64_t p = 0; p < schedule_count(s) / rotations; p++) {
		int together[BOTS][BOTS] = { { 0 } };
		struct schedule_game g0;
		assert_int_equal(schedule_game(s, group_game(s, p, 0, rotations), &g0), 0);
		for (uint32_t r = 0; r < rotations; r++) {
			assert_true(schedule_group_index(s, p, r) == group_game(s, p, r, rotations));
			assert_int_equal(schedule_game(s, group_game(s, p, r, rotations), &g), 0);
			assert_int_equal(g.pairing, r / seat_rotations);
			assert_int_equal(g.rotation, r % seat_rotations);
			/* the pairing is in the id only with pairings */
			assert_non_null(strstr(g.id, "-p"));
			assert_int_equal(g.table, g0.table);
			assert_true(g.seed == g0.seed);
			for (int a = 0; a < players; a++)
				together[g.bots[a]][g.bots[a + teams < players ? a + teams : a]]++;
			assert_int_equal(schedule_index_of(s, g.id, &index), 0);
			assert_true(index == group_game(s, p, r, rotations));
		}
		/* every two bots of the table are partners the same number of times */
		for (int a = 0; a < players; a++)
			for (int b = 0; b < players; b++) {
				int x = g0.bots[a], y = g0.bots[b];
				if (x != y)
					assert_int_equal(together[x][y] + together[y][x], partnered);
			}
	}
	schedule_free(s);
}

static void test_partnership_pairings(void **state)
{
	struct schedule *s;

	(void)state;
	assert_int_equal(schedule_pairings(4), 3);
	assert_int_equal(schedule_pairings(6), 5);
	assert_int_equal(schedule_pairings(5), 0);
	assert_int_equal(schedule_new_gauntlet(6, NULL, 5, 1, 1, 1, 5, &s), -EINVAL);
	/* ids name the pairing: only the canonical spelling of one of this schedule's */
	uint64_t index;
	assert_int_equal(schedule_new_gauntlet(4, NULL, 4, 2, 1, 1, 5, &s), 0);
	assert_int_equal(schedule_index_of(s, "t0000-d0001-p2-r3", &index), 0);
	/* one block of 2 deal groups: game 2 x 4 + 3 of the second group */
	assert_true(index == (2 * 4 + 3) * 2 + 1);
	assert_int_equal(schedule_index_of(s, "t0000-d0001-p3-r0", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0000-d0001-r0", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0000-d0001-p-r0", &index), -ENOENT);
	schedule_free(s);
	/* 4 players: 3 pairings, each pair of bots partners once per deal (twice with 4 rotations:
	 * a rotation keeps partners, so 4 rotations count each pair 4 times) */
	check_pairings(4, 0, 3, 1);
	check_pairings(4, 1, 12, 4);
	/* 6 players: 5 matchings, each pair partners once (6 rotations: 6 times) */
	check_pairings(6, 0, 5, 1);
	check_pairings(6, 1, 30, 6);
	/* No pairings: the version-1 schedule, partners fixed by the table's order. */
	struct schedule *one, *two;
	struct schedule_game a, b;
	assert_int_equal(schedule_new(6, 6, 2, 1, 5, &one), 0);
	assert_int_equal(schedule_new_gauntlet(6, NULL, 6, 2, 1, 0, 5, &two), 0);
	assert_true(schedule_count(one) == schedule_count(two));
	for (uint64_t i = 0; i < schedule_count(one); i++) {
		schedule_game(one, i, &a);
		schedule_game(two, i, &b);
		assert_memory_equal(a.bots, b.bots, sizeof(a.bots));
		assert_string_equal(a.id, b.id);
		assert_null(strstr(a.id, "-p"));
		for (int seat = 0; seat < 6; seat++)
			assert_int_equal(a.bots[seat], (int)(seat + a.rotation) % 6);
	}
	schedule_free(one);
	schedule_free(two);
}

/*
 * Rotation phases, seen only through the games (schedule.h): every game once;
 * phases non-decreasing along the order, phase b x R + k holding game k of
 * each deal group of block b, in the same group order in every phase of the
 * block, so no two games of one deal share a phase and a deal's games come
 * in its order, one a phase; a block's phases hold SCHEDULE_BLOCK_GROUPS
 * games (the last block's fewer); every group of a block is complete before
 * the next block starts, so a prefix leaves at most one block partly played.
 */
static void check_phases(size_t nbots, int players, uint32_t deals, int duplicate, int pairings)
{
	struct schedule *s;
	struct schedule_game g;
	uint64_t count, groups, R, in_phase = 0, phase = 0, block_first = 0, index;
	uint32_t tables, *played, *order;
	uint8_t *seen;

	assert_int_equal(schedule_new_gauntlet(nbots, NULL, players, deals, duplicate, pairings, 7,
					       &s), 0);
	count = schedule_count(s);
	tables = schedule_tables(s);
	groups = (uint64_t)tables * deals;
	R = count / groups;
	assert_non_null(seen = calloc(count, 1));
	assert_non_null(played = calloc(groups, sizeof(*played)));
	assert_non_null(order = calloc(SCHEDULE_BLOCK_GROUPS, sizeof(*order)));
	for (uint64_t i = 0; i < count; i++) {
		uint64_t ph = schedule_phase(s, i), b = ph / R, k = ph % R;
		uint64_t block_size = groups - b * SCHEDULE_BLOCK_GROUPS < SCHEDULE_BLOCK_GROUPS ?
				      groups - b * SCHEDULE_BLOCK_GROUPS : SCHEDULE_BLOCK_GROUPS;
		uint32_t group;

		assert_int_equal(schedule_game(s, i, &g), 0);
		assert_int_equal(schedule_index_of(s, g.id, &index), 0);
		assert_true(index == i);
		group = g.deal * tables + g.table; /* a name for the group, not its number */
		assert_int_equal(seen[group * R + k], 0);
		seen[group * R + k] = 1;
		assert_true(ph >= phase);
		if (ph != phase)
			in_phase = 0;
		if (b != phase / R || i == 0) {
			/* a new block: every group played so far is complete */
			for (uint64_t p = 0; p < groups; p++)
				assert_true(played[p] == 0 || played[p] == R);
			block_first = i;
		}
		phase = ph;
		assert_int_equal(g.pairing * (R / (pairings ? schedule_pairings(players) : 1)) +
				 g.rotation, k);
		/* game k of the group, after its games 0 .. k-1, in phase 0's group order */
		assert_int_equal(played[group]++, k);
		if (k == 0)
			order[in_phase] = group;
		assert_int_equal(order[in_phase], group);
		in_phase++;
		assert_true(in_phase <= block_size);
		assert_true(i - block_first == k * block_size + in_phase - 1);
	}
	for (uint64_t p = 0; p < groups; p++)
		assert_int_equal(played[p], R);
	free(seen);
	free(played);
	free(order);
	schedule_free(s);
}

static void test_phases(void **state)
{
	struct schedule *s;
	struct schedule_game g;

	(void)state;
	/* two rotations of a deal are never next to each other: the second game is the next deal's */
	assert_int_equal(schedule_new(2, 2, 300, 1, 7, &s), 0);
	assert_int_equal(schedule_game(s, 1, &g), 0);
	assert_string_equal(g.id, "t0000-d0001-r0");
	assert_int_equal(schedule_game(s, SCHEDULE_BLOCK_GROUPS, &g), 0);
	assert_string_equal(g.id, "t0000-d0000-r1");
	schedule_free(s);
	check_phases(2, 2, 300, 1, 0);  /* 3 blocks of one table, the last of 44 groups */
	check_phases(6, 2, 50, 1, 0);   /* 15 tables, 750 groups */
	check_phases(5, 4, 30, 1, 1);   /* 3 pairings x 4 rotations */
	check_phases(5, 4, 60, 0, 1);   /* pairings without duplicates */
	check_phases(6, 3, 20, 0, 0);   /* one game a deal: a phase is a block */
	check_phases(4, 2, 3, 1, 0);    /* fewer groups than a block */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gauntlet),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_every_combination_once),
		cmocka_unit_test(test_duplicate_rotations),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_interleaved_prefixes),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_partnership_pairings),
		cmocka_unit_test(test_phases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
