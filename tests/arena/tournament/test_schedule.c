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

static void test_duplicate_rotations(void **state)
{
	struct schedule *s;
	struct schedule_game g, first;

	(void)state;
	assert_int_equal(schedule_new(4, 3, 2, 1, 99, &s), 0);
	for (uint64_t i = 0; i < schedule_count(s); i += 3) {
		int seat_of[4][3] = { { 0 } };

		assert_int_equal(schedule_game(s, i, &first), 0);
		for (uint32_t r = 0; r < 3; r++) {
			assert_int_equal(schedule_game(s, i + r, &g), 0);
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
	assert_int_equal(schedule_game(s, 0, &a), 0);
	assert_int_equal(schedule_game(s, 2, &b), 0); /* same table, next deal */
	assert_true(a.seed != b.seed);
	assert_true(a.seed == schedule_deal_seed(5, 0, 0));
	assert_true(b.seed == schedule_deal_seed(5, 0, 1));
	schedule_free(s);
}

static void test_ids(void **state)
{
	struct schedule *s;
	struct schedule_game g;
	uint64_t index;

	(void)state;
	assert_int_equal(schedule_new(5, 2, 12, 1, 1, &s), 0);
	assert_int_equal(schedule_game(s, 0, &g), 0);
	assert_string_equal(g.id, "t0000-d0000-r0");
	for (uint64_t i = 0; i < schedule_count(s); i++) {
		assert_int_equal(schedule_game(s, i, &g), 0);
		assert_int_equal(schedule_index_of(s, g.id, &index), 0);
		assert_true(index == i);
	}
	assert_int_equal(schedule_game(s, 3 * 24 + 11 * 2 + 1, &g), 0);
	assert_string_equal(g.id, "t0003-d0011-r1");
	assert_int_equal(schedule_index_of(s, "t3-d11-r1", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0010-d0000-r0", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0000-d0000-r2", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "t0000-d0000-r0x", &index), -ENOENT);
	assert_int_equal(schedule_index_of(s, "", &index), -ENOENT);
	schedule_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_every_combination_once),
		cmocka_unit_test(test_duplicate_rotations),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
