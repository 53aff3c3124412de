/*
 * test_jsonc_strip.c - the JSONC blanking: comments and trailing commas
 * become spaces, strings are left alone, every offset and newline stays; and
 * the two scanners a reader of the stripped text shares.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "jsonc_strip.h"

static void strip(char *text, const char *want)
{
	jsonc_strip(text, strlen(text));
	assert_string_equal(text, want);
}

static void test_strip(void **state)
{
	char comments[] = "a/*x\ny*/b//z\n\"//s\"";
	char trailing[] = "{\"a\": [1, 2,], \"b\": 3,\n}";
	char commented_last[] = "[1,\n // 2\n]";
	char in_string[] = "[\",]\", \",}\"]";
	char doubled[] = "[1,,]";
	char empty[] = "[,]";

	(void)state;
	strip(comments, "a   \n   b   \n\"//s\"");
	strip(trailing, "{\"a\": [1, 2 ], \"b\": 3 \n}");
	strip(commented_last, "[1 \n     \n]");
	strip(in_string, "[\",]\", \",}\"]");
	/* not a trailing comma: left for the reader to refuse where it is */
	strip(doubled, "[1,,]");
	strip(empty, "[,]");
}

static void test_scanners(void **state)
{
	const char *text = "\"a\\\"b\" \t\r\n x \"open";
	size_t len = strlen(text);

	(void)state;
	/* an escaped quote does not end the string */
	assert_int_equal(jsonc_skip_string(text, len, 0), 6);
	assert_int_equal(jsonc_skip_space(text, len, 6), 11);
	assert_int_equal(jsonc_skip_space(text, len, 11), 11);
	/* a string not closed runs to the end */
	assert_int_equal(jsonc_skip_string(text, len, 13), len);
	assert_int_equal(jsonc_skip_space(text, len, len), len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strip),
		cmocka_unit_test(test_scanners),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
