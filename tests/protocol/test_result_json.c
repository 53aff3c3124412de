/*
 * test_result_json.c - the result fragment's one writer: its keys and their
 * order, the seat arrays cut at players, a missing reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "result_json.h"

static void test_keys_in_order(void **state)
{
	const int winners[] = { 1, 3 }, placings[] = { 2, 1, 2, 1, 9 };
	const int stock_left[] = { 4, 0, 4, 0, 9 }, scores[] = { 0, 85, 0, 85, 9 };
	struct jsonw w;

	(void)state;
	jsonw_init(&w);
	/* R2 partnership: seats 1 and 3 win together; the fifth entries are not seats */
	result_json_write(&w, &(struct result_json){
		.winners = winners, .nwinners = 2, .reason = "stock_emptied", .players = 4,
		.placings = placings, .stock_left = stock_left, .scores = scores,
		.turns = 40, .moves = 123 });
	assert_int_equal(jsonw_error(&w), 0);
	assert_string_equal(w.data, "\"winners\":[1,3],\"reason\":\"stock_emptied\","
			    "\"placings\":[2,1,2,1],\"stock_left\":[4,0,4,0],"
			    "\"scores\":[0,85,0,85],\"turns\":40,\"moves\":123");
	jsonw_release(&w);
}

static void test_no_winner_no_reason(void **state)
{
	const int zeros[] = { 0, 0 };
	struct jsonw w;

	(void)state;
	jsonw_init(&w);
	jsonw_text(&w, "{");
	result_json_write(&w, &(struct result_json){
		.players = 2, .placings = zeros, .stock_left = zeros, .scores = zeros,
		.turns = -1, .moves = -1 });
	jsonw_text(&w, "}");
	assert_int_equal(jsonw_error(&w), 0);
	assert_string_equal(w.data, "{\"winners\":[],\"reason\":null,\"placings\":[0,0],"
			    "\"stock_left\":[0,0],\"scores\":[0,0],\"turns\":-1,\"moves\":-1}");
	jsonw_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_in_order),
		cmocka_unit_test(test_no_winner_no_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
