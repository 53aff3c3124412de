/*
 * test_render.c - `play --render` output and the --log-io transcript format,
 * from a real game between two badbot processes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "referee.h"
#include "render.h"
#include "stream_text.h"
#include "transcript.h"

static char *good_argv[] = { BADBOT_PATH, "good", NULL };
static char *illegal_argv[] = { BADBOT_PATH, "illegal", NULL };

/* Play good against bot with the observer; returns the outcome's move count. */
static uint32_t play(char **bot, const struct referee_observer *observer,
		     const struct referee_observer *pool_observer)
{
	struct bot_spec specs[2] = {
		{ .name = "first", .argv = good_argv, .cpu = -1 },
		{ .name = "second", .argv = bot, .cpu = -1 },
	};
	struct pool_config pc = { specs, 2, -1, 2000, pool_observer };
	struct referee_setup setup = { 0 };
	struct referee_outcome out;
	struct pool *pool;
	char err[128];
	uint32_t moves;

	assert_int_equal(pool_new(&pc, &pool), 0);
	setup.id = "render";
	setup.rules = (struct game_rules){ 2, 3, 0, 1, 5 };
	setup.move_ms = 1000;
	setup.game_ms = 10000;
	setup.observer = observer;
	for (int s = 0; s < 2; s++)
		assert_int_equal(pool_acquire(pool, (size_t)s, &setup.seats[s]), 0);
	assert_int_equal(referee_play(&setup, &out, err, sizeof(err)), 0);
	moves = out.moves;
	referee_outcome_release(&out);
	pool_free(pool);
	return moves;
}

static void test_render_game(void **state)
{
	const char *names[] = { "first", "second" };
	FILE *f = tmpfile();
	struct render r;
	char *text, *p;
	uint32_t moves, seen = 0;

	(void)state;
	render_init(&r, f, names, 2);
	moves = play(good_argv, &r.observer, NULL);
	text = stream_text(f);
	assert_non_null(strstr(text, "=== game 1\n    (building and discard piles 0-3 from the left, "
				   "as in the protocol; each discard pile [bottom .. top])\n"));
	assert_non_null(strstr(text, "--- turn 1: seat 0 (first) to move"));
	assert_non_null(strstr(text, "    building:"));
	assert_non_null(strstr(text, "  hand:")); /* the hand of the seat to move */
	assert_non_null(strstr(text, "=== game 1 over: stock_emptied"));
	/* one line per decision, each with its time */
	for (p = text; (p = strstr(p, " us]\n")) != NULL; p++)
		seen++;
	assert_int_equal(seen, moves);
	free(text);
	fclose(f);
}

static void test_render_fault(void **state)
{
	const char *names[] = { "first", "second" };
	FILE *f = tmpfile();
	struct render r;
	char *text;

	(void)state;
	render_init(&r, f, names, 2);
	play(illegal_argv, &r.observer, NULL);
	text = stream_text(f);
	assert_non_null(strstr(text, "seat 1 (second) removed: illegal:"));
	assert_non_null(strstr(text, "its line: {\"type\":\"move\""));
	assert_non_null(strstr(text, "over: forfeit"));
	free(text);
	fclose(f);
}

static void test_transcript(void **state)
{
	FILE *f = tmpfile();
	struct transcript t;
	char *text;
	double when;
	char name[32], dir[4];

	(void)state;
	transcript_init(&t);
	transcript_attach(&t, f);
	play(illegal_argv, &t.observer, &t.observer);
	transcript_close(&t);
	text = stream_text(f);
	/* "<seconds> <bot> <- <line>": the handshake first */
	assert_int_equal(sscanf(text, "%lf %31s %3s", &when, name, dir), 3);
	assert_string_equal(name, "first");
	assert_string_equal(dir, "<-");
	assert_non_null(strstr(text, " first <- {\"type\":\"hello\""));
	assert_non_null(strstr(text, " first -> {\"type\":\"hello\""));
	assert_non_null(strstr(text, " second <- {\"type\":\"request\""));
	assert_non_null(strstr(text, "# seat 1 fault illegal:"));
	assert_non_null(strstr(text, " first <- {\"type\":\"game_end\""));
	free(text);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_game),
		cmocka_unit_test(test_render_fault),
		cmocka_unit_test(test_transcript),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
