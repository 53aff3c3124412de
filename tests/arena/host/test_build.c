/*
 * test_build.c - the floor of a build at SCHED_IDLE (build.h): the rule
 * that moves a starved build to nice 19, judged on made-up spells (wall
 * time, the build's CPU time, the machine's idle and total CPU time). The
 * move itself is tested on real trees in tests/arena/process/test_proc_tree.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "build.h"

#define S 1000000LL
/* /proc/stat's units over a spell of 60 s on 2 CPUs at 100 Hz */
#define TOTAL 12000ULL

static void test_starved_spell_raises(void **state)
{
	(void)state;
	assert_int_equal(build_floor_judge(60 * S, 0, 0, TOTAL), BUILD_FLOOR_RAISE);
	/* a little CPU and a little idle time, under both bounds */
	assert_int_equal(build_floor_judge(60 * S, 599999, 239, TOTAL), BUILD_FLOOR_RAISE);
	assert_int_equal(build_floor_judge(300 * S, 2 * S, 0, 5 * TOTAL), BUILD_FLOOR_RAISE);
}

static void test_short_spell_keeps(void **state)
{
	(void)state;
	assert_int_equal(build_floor_judge(60 * S - 1, 0, 0, TOTAL), BUILD_FLOOR_KEEP);
	assert_int_equal(build_floor_judge(0, 0, 0, TOTAL), BUILD_FLOOR_KEEP);
}

/* 1% of the wall time in CPU is progress, slow as it is. */
static void test_build_with_cpu_keeps(void **state)
{
	(void)state;
	assert_int_equal(build_floor_judge(60 * S, 600000, 0, TOTAL), BUILD_FLOOR_KEEP);
	/* a tree on several CPUs at once */
	assert_int_equal(build_floor_judge(60 * S, 110 * S, 0, TOTAL), BUILD_FLOOR_KEEP);
}

/* A build that sleeps on a machine with CPU to spare is not starved: kept at SCHED_IDLE,
 * where a league's games, which leave CPUs idle between moves, keep it too. */
static void test_idle_machine_keeps(void **state)
{
	(void)state;
	assert_int_equal(build_floor_judge(60 * S, 0, 240, TOTAL), BUILD_FLOOR_KEEP);
	assert_int_equal(build_floor_judge(60 * S, 0, TOTAL, TOTAL), BUILD_FLOOR_KEEP);
}

/* Without /proc/stat nothing says the machine was busy. */
static void test_unknown_machine_keeps(void **state)
{
	(void)state;
	assert_int_equal(build_floor_judge(600 * S, 0, 0, 0), BUILD_FLOOR_KEEP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_starved_spell_raises),
		cmocka_unit_test(test_short_spell_keeps),
		cmocka_unit_test(test_build_with_cpu_keeps),
		cmocka_unit_test(test_idle_machine_keeps),
		cmocka_unit_test(test_unknown_machine_keeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
