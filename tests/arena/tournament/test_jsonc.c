/*
 * test_jsonc.c - where a key path is in a text, the line and caret under a
 * place, the nearest known key, and the errors in file order
 * (tests/protocol/test_jsonc_strip.c has the blanking).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "jsonc.h"

static void test_locate(void **state)
{
	const char *text = "{\"a\": 1, \"bots\": [{\"name\": \"x\"}, {\"name\": \"y\", "
			   "\"limits\": {\"cpu\": 2}}], \"s\": \"{\\\"a\\\"\"}";
	size_t len = strlen(text);

	(void)state;
	assert_int_equal(jsonc_locate(text, len, "", 0), 0);
	assert_int_equal(jsonc_locate(text, len, "a", 1), (size_t)(strstr(text, "\"a\"") - text));
	assert_int_equal(jsonc_locate(text, len, "a", 0), (size_t)(strstr(text, "1,") - text));
	assert_int_equal(jsonc_locate(text, len, "bots[1]", 0),
			 (size_t)(strstr(text, "{\"name\": \"y\"") - text));
	assert_int_equal(jsonc_locate(text, len, "bots[1].limits.cpu", 0),
			 (size_t)(strstr(text, "2}") - text));
	/* a missing key: the deepest place found above it */
	assert_int_equal(jsonc_locate(text, len, "bots[1].limits.memory", 0),
			 (size_t)(strstr(text, "{\"cpu\"") - text));
	assert_int_equal(jsonc_locate(text, len, "bots[7].name", 0),
			 (size_t)(strstr(text, "[{") - text));
	/* a key inside a string value is not a key */
	assert_int_equal(jsonc_locate(text, len, "s", 0), (size_t)(strstr(text, "\"{") - text));
}

static void test_excerpt(void **state)
{
	const char *text = "{\n\t\"deals\": x\n}";
	unsigned long line, column;
	char out[256] = "";
	size_t at = (size_t)(strchr(text, 'x') - text);

	(void)state;
	jsonc_line_column(text, strlen(text), at, &line, &column);
	assert_int_equal(line, 2);
	assert_int_equal(column, 11);
	jsonc_excerpt(text, strlen(text), at, out, sizeof(out));
	/* the tab is kept in the caret line, so the caret stands under the x */
	assert_string_equal(out, "  \t\"deals\": x\n  \t         ^\n");
}

static void test_nearest(void **state)
{
	static const char *const keys[] = { "name", "bots", "players", "deals", "duplicate",
					    NULL };

	(void)state;
	assert_int_equal(jsonc_nearest("plyers", keys), 2);
	assert_int_equal(jsonc_nearest("dels", keys), 3);
	assert_int_equal(jsonc_nearest("Name", keys), 0);
	assert_int_equal(jsonc_nearest("concurrency", keys), -1);
	assert_int_equal(jsonc_nearest("x", keys), -1);
}

static void test_errors_in_file_order(void **state)
{
	static struct jsonc_errors e;
	const char *text = "{\"a\": 1, \"b\": 2}";
	char out[2048];

	(void)state;
	assert_int_equal(jsonc_error(&e, "b", "bad %s", "b"), -22);
	assert_int_equal(jsonc_error_text(&e, "a", 1, "a: bad"), -22);
	jsonc_errors_format(&e, text, strlen(text), "t.json", out, sizeof(out));
	assert_string_equal(out, "t.json:1:2: a: bad\n  {\"a\": 1, \"b\": 2}\n   ^\n"
				 "t.json:1:15: b: bad b\n  {\"a\": 1, \"b\": 2}\n"
				 "                ^\n");
	jsonc_errors_format(&e, text, strlen(text), NULL, out, sizeof(out));
	assert_string_equal(out, "a: bad\nb: bad b\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_excerpt),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_errors_in_file_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
