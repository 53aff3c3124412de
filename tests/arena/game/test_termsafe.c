/*
 * test_termsafe.c - a bot's bytes never reach a terminal raw: termsafe.h
 * itself, and the three places that print bot text as a game is played (the
 * --log-io transcript, `play --render`, the `check` diagnosis), driven
 * through their observers with a line and a fault reason that carry escape
 * sequences (a screen clear, a window retitle, a C1 CSI, a carriage return).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine.h"
#include "render.h"
#include "stream_text.h"
#include "termsafe.h"
#include "transcript.h"

/* ESC ] 0 ; title BEL, ESC [ 2 J, a C1 CSI in UTF-8 and alone, CR, DEL. */
static const char hostile[] = "{\"type\":\"move\"}\x1b]0;pwned\x07\x1b[2J\xc2\x9b\x9b\r\x7f";
static const char hostile_shown[] =
	"{\"type\":\"move\"}\\033]0;pwned\\007\\033[2J\\302\\233\\233\\015\\177";

/* No byte outside printable ASCII but the newlines that end lines. */
static void assert_terminal_safe(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if (*p != '\n' && (*p < 0x20 || *p >= 0x7f))
			fail_msg("raw byte 0x%02x at offset %td of: %s", *p,
				 (const char *)p - text, text);
}

static void test_write(void **state)
{
	FILE *f = tmpfile();
	char *text;
	/* NUL, tab and newline inside the bytes, and a run longer than one chunk */
	char mixed[] = "a\0b\tc\nd\\e";
	char many[600];

	(void)state;
	termsafe_write(f, hostile, sizeof(hostile) - 1);
	fputc('|', f);
	termsafe_write(f, mixed, sizeof(mixed) - 1);
	fputc('|', f);
	memset(many, 0x1b, sizeof(many));
	termsafe_write(f, many, sizeof(many));
	text = stream_text(f);
	assert_terminal_safe(text);
	assert_memory_equal(text, hostile_shown, strlen(hostile_shown));
	assert_non_null(strstr(text, "|a\\000b\\011c\\012d\\e|"));
	assert_int_equal(strlen(strrchr(text, '|') + 1), 4 * sizeof(many));
	free(text);
	fclose(f);
}

static void test_plain_unchanged(void **state)
{
	const char *line = "{\"type\":\"move\",\"move\":{\"action\":\"pass\"}} ~!@#$%^&*()";
	FILE *f = tmpfile();
	char *text, buf[128];

	(void)state;
	termsafe_puts(f, line);
	text = stream_text(f);
	assert_string_equal(text, line);
	assert_string_equal(termsafe_copy(buf, sizeof(buf), line), line);
	free(text);
	fclose(f);
}

static void test_copy(void **state)
{
	char buf[256], small[9];

	(void)state;
	assert_string_equal(termsafe_copy(buf, sizeof(buf), hostile), hostile_shown);
	/* cut at a whole escape, never inside one */
	assert_string_equal(termsafe_copy(small, sizeof(small), "ab\x1b[2J"), "ab\\033[2");
	assert_string_equal(termsafe_copy(small, 6, "ab\x1b[2J"), "ab");
	assert_string_equal(termsafe_copy(small, 1, "ab"), "");
}

static struct referee_fault hostile_fault(void)
{
	struct referee_fault f = { .seat = 1, .game = 1, .kind = PROTOCOL_FAULT_MALFORMED, .turn = 1,
				   .move = 1 };

	snprintf(f.reason, sizeof(f.reason), "bad JSON: %s", hostile);
	snprintf(f.line, sizeof(f.line), "%s", hostile);
	return f;
}

static struct game *new_game(void)
{
	struct game_rules rules = { .players = 2, .stock_size = 5, .dealer = 1, .seed = 1 };
	int err = 0;
	struct game *g = game_new(&rules, &err);

	assert_non_null(g);
	return g;
}

static void test_transcript(void **state)
{
	struct referee_fault fault = hostile_fault();
	struct game *g = new_game();
	struct transcript t;
	FILE *f = tmpfile();
	char *text;

	(void)state;
	transcript_init(&t);
	transcript_attach(&t, f);
	t.observer.line(t.observer.ctx, "bot\x1b[31m", 1, REFEREE_FROM_BOT, hostile,
			sizeof(hostile) - 1, clock_now_us());
	t.observer.fault(t.observer.ctx, &fault, g);
	transcript_close(&t);
	text = stream_text(f);
	assert_terminal_safe(text);
	assert_non_null(strstr(text, " bot\\033[31m -> "));
	assert_non_null(strstr(text, hostile_shown));
	assert_non_null(strstr(text, "fault malformed: bad JSON: {"));
	free(text);
	fclose(f);
	game_free(g);
}

static void test_render(void **state)
{
	const char *names[] = { "first", "second" };
	struct referee_fault fault = hostile_fault();
	struct game *g = new_game();
	struct render r;
	FILE *f = tmpfile();
	char *text;

	(void)state;
	render_init(&r, f, names, 2);
	r.observer.fault(r.observer.ctx, &fault, g);
	text = stream_text(f);
	assert_terminal_safe(text);
	assert_non_null(strstr(text, "its line: "));
	assert_non_null(strstr(text, hostile_shown));
	free(text);
	fclose(f);
	game_free(g);
}

static void test_check(void **state)
{
	struct check_limits limits = { 1000, 100, 1000 };
	struct referee_fault fault = hostile_fault();
	struct game *g = new_game();
	const char *bot = "checked";
	struct check c;
	FILE *f = tmpfile();
	char *text;

	(void)state;
	/* verbose: the transcript goes to the same terminal */
	check_init(&c, f, bot, &limits, 1);
	check_begin_game(&c, 1, 1);
	c.observer.line(c.observer.ctx, bot, -1, REFEREE_FROM_BOT, hostile, sizeof(hostile) - 1,
			clock_now_us());
	c.observer.game_start(c.observer.ctx, 1, g);
	c.observer.fault(c.observer.ctx, &fault, g);
	text = stream_text(f);
	assert_terminal_safe(text);
	assert_non_null(strstr(text, "  hello: {"));
	assert_non_null(strstr(text, "PROBLEM 1: malformed fault"));
	assert_non_null(strstr(text, "    line:     {"));
	check_release(&c);
	free(text);
	fclose(f);
	game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_plain_unchanged),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_transcript),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
