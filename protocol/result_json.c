/*
 * result_json.c - a game's result as JSON keys (contract in result_json.h).
 */
#include "result_json.h"

#include <inttypes.h>

void result_json_write(struct jsonw *w, const struct result_json *r)
{
	const char *const seat_keys[3] = { ",\"placings\":", ",\"stock_left\":", ",\"scores\":" };
	const int *const seat_values[3] = { r->placings, r->stock_left, r->scores };
	size_t n = r->players > 0 ? (size_t)r->players : 0;

	jsonw_text(w, "\"winners\":");
	jsonw_int_array(w, r->winners, r->nwinners);
	jsonw_text(w, ",\"reason\":");
	if (r->reason)
		jsonw_string(w, r->reason);
	else
		jsonw_text(w, "null");
	for (int i = 0; i < 3; i++) {
		jsonw_text(w, seat_keys[i]);
		jsonw_int_array(w, seat_values[i], n);
	}
	jsonw_printf(w, ",\"turns\":%" PRId64 ",\"moves\":%" PRId64, r->turns, r->moves);
}
