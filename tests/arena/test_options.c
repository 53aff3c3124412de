/*
 * test_options.c - command-line values: numbers in range, 64-bit seeds, and
 * bot command strings split without a shell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "options.h"

static void test_numbers(void **state)
{
	long long v = 0;

	(void)state;
	assert_int_equal(options_number("--deals", "12", 1, 100, &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(options_number("--deals", "0", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "101", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "1x", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "99999999999999999999", 1, 100, &v), -1);
}

static void test_seeds(void **state)
{
	unsigned long long s = 0;

	(void)state;
	assert_int_equal(options_seed("--seed", "18446744073709551615", &s), 0);
	assert_true(s == UINT64_MAX);
	assert_int_equal(options_seed("--seed", "0x10", &s), 0);
	assert_true(s == 16);
	assert_int_equal(options_seed("--seed", "-1", &s), -1);
	assert_int_equal(options_seed("--seed", "18446744073709551616", &s), -1);
	assert_int_equal(options_seed("--seed", "seven", &s), -1);
}

static void test_split(void **state)
{
	char **argv;

	(void)state;
	argv = options_split("  ./bot  --level 3\t-v ");
	assert_non_null(argv);
	assert_string_equal(argv[0], "./bot");
	assert_string_equal(argv[1], "--level");
	assert_string_equal(argv[2], "3");
	assert_string_equal(argv[3], "-v");
	assert_null(argv[4]);
	options_free_argv(argv);
	assert_null(options_split("   "));
	assert_null(options_split(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_split),
	};

	/* the refusals print their warnx lines; keep the test output clean */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
