/*
 * test_jsonw.c - hand-written JSON stays valid JSON whatever a bot sent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <cjson/cJSON.h>

#include "jsonw.h"

static void test_escapes(void **state)
{
	struct jsonw w;
	cJSON *v;

	(void)state;
	jsonw_init(&w);
	jsonw_string(&w, "a\"b\\c\n\x01\x7f");
	assert_string_equal(w.data, "\"a\\\"b\\\\c\\u000a\\u0001\\u007f\"");
	v = cJSON_Parse(w.data);
	assert_true(cJSON_IsString(v));
	assert_string_equal(v->valuestring, "a\"b\\c\n\x01\x7f");
	cJSON_Delete(v);
	jsonw_release(&w);
}

static void test_invalid_utf8_replaced(void **state)
{
	struct jsonw w;

	(void)state;
	jsonw_init(&w);
	/* valid é and €, then a lone continuation byte, an overlong '/', a surrogate */
	jsonw_string_n(&w, "\xc3\xa9\xe2\x82\xac\x80\xc0\xaf\xed\xa0\x80", 11);
	assert_string_equal(w.data, "\"\xc3\xa9\xe2\x82\xac\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
	jsonw_release(&w);
}

static void test_building(void **state)
{
	struct jsonw w;
	int a[] = { 1, -2, 30 };

	(void)state;
	jsonw_init(&w);
	jsonw_text(&w, "{\"a\":");
	jsonw_int_array(&w, a, 3);
	jsonw_printf(&w, ",\"n\":%d}", 7);
	assert_string_equal(w.data, "{\"a\":[1,-2,30],\"n\":7}");
	jsonw_reset(&w);
	assert_int_equal(w.len, 0);
	jsonw_int_array(&w, a, 0);
	assert_string_equal(w.data, "[]");
	assert_int_equal(jsonw_error(&w), 0);
	for (int i = 0; i < 10000; i++)
		jsonw_text(&w, "0123456789");
	assert_int_equal(w.len, 100002);
	jsonw_release(&w);
}

/* Integers without printf, and printf past the room left in the buffer. */
static void test_numbers(void **state)
{
	struct jsonw w;
	char big[300];

	(void)state;
	jsonw_init(&w);
	jsonw_int(&w, 0);
	jsonw_text(&w, ",");
	jsonw_int(&w, -7);
	jsonw_text(&w, ",");
	jsonw_int(&w, 2147483647);
	jsonw_text(&w, ",");
	jsonw_int(&w, INT64_MIN);
	assert_string_equal(w.data, "0,-7,2147483647,-9223372036854775808");
	jsonw_reset(&w);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < 3; i++)
		jsonw_printf(&w, "%s%d", big, i);
	assert_int_equal(w.len, 3 * (sizeof(big) - 1 + 1));
	assert_int_equal(w.data[sizeof(big) - 1], '0');
	assert_int_equal(w.data[w.len - 1], '2');
	assert_int_equal(w.data[w.len], '\0');
	jsonw_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_building),
		cmocka_unit_test(test_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
