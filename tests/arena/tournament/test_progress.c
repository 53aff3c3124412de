/*
 * test_progress.c - the progress lines: counts, rate, the leader by the
 * simple placing score, resumed games counted as done, and --quiet.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "stream_text.h"

static void test_final_line(void **state)
{
	const char *names[] = { "alpha", "beta", "gamma" };
	int bots_ab[] = { 0, 1 }, bots_cb[] = { 2, 1 };
	int first_second[] = { 1, 2 }, second_first[] = { 2, 1 };
	FILE *f = tmpfile();
	struct progress *p;
	char *text;

	(void)state;
	p = progress_new(f, 0, 10, 0, names, 3);
	assert_non_null(p);
	/* one game found already recorded (a resume), two played now */
	progress_game(p, bots_ab, first_second, 2, 0);
	progress_game(p, bots_cb, second_first, 2, 1);
	progress_game(p, bots_cb, second_first, 2, 1);
	progress_finish(p);
	progress_free(p);
	text = stream_text(f);
	/* a file is not a terminal: plain lines */
	assert_null(strchr(text, '\r'));
	assert_non_null(strstr(text, "games 3/10"));
	/* beta: 0 + 1 + 1 points in 3 games leads alpha's 1 in 1 */
	assert_non_null(strstr(text, "leader: beta 2.0/3"));
	free(text);
	fclose(f);
}

/* Placings out of range, as a crafted record could hold them, score nothing and overflow nothing. */
static void test_crafted_placings(void **state)
{
	const char *names[] = { "alpha", "beta" };
	int bots[] = { 0, 1 }, crafted[] = { -2147483647 - 1, 2147483647 }, fair[] = { 2, 1 };
	FILE *f = tmpfile();
	struct progress *p;
	char *text;

	(void)state;
	p = progress_new(f, 0, 4, 0, names, 2);
	assert_non_null(p);
	progress_game(p, bots, crafted, 2, 0);
	progress_game(p, bots, fair, 1, 0); /* one player: no division by players - 1 */
	progress_game(p, bots, fair, 2, 1);
	progress_finish(p);
	progress_free(p);
	text = stream_text(f);
	assert_non_null(strstr(text, "games 3/4"));
	assert_non_null(strstr(text, "leader: beta 1.0/1"));
	free(text);
	fclose(f);
}

static void test_quiet(void **state)
{
	const char *names[] = { "a", "b" };
	int bots[] = { 0, 1 }, placings[] = { 1, 2 };
	FILE *f = tmpfile();
	struct progress *p;

	(void)state;
	p = progress_new(f, 1, 2, 0, names, 2);
	progress_game(p, bots, placings, 2, 1);
	progress_tick(p);
	progress_finish(p);
	progress_free(p);
	fflush(f);
	assert_int_equal(ftell(f), 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_final_line),
		cmocka_unit_test(test_crafted_placings),
		cmocka_unit_test(test_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
