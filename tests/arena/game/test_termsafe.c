/*
 * test_termsafe.c - a bot's bytes never reach a terminal raw: termsafe.h
 * itself (valid UTF-8 text shown as it is, what drives or reorders a terminal
 * escaped), and the three places that print bot text as a game is played (the
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

/* Valid UTF-8 text passes as it is; what reorders or drives a terminal, and every byte of
 * invalid UTF-8, does not; the stderr logs' mode keeps to ASCII. */
static void test_utf8(void **state)
{
	static const struct {
		const char *in, *shown;
	} cases[] = {
		{ "j\xc3\xa4ger", "j\xc3\xa4ger" },                     /* a name */
		{ "\xe2\x82\xac \xe6\x97\xa5", "\xe2\x82\xac \xe6\x97\xa5" },     /* 3 bytes */
		{ "\xf0\x9f\x83\x8f", "\xf0\x9f\x83\x8f" },                 /* 4 bytes */
		{ "a\xc2\x85" "b", "a\\302\\205b" },                  /* C1: NEL */
		{ "\xe2\x80\xae" "abc", "\\342\\200\\256abc" },       /* RIGHT-TO-LEFT OVERRIDE */
		{ "\xe2\x81\xa6x\xe2\x81\xa9", "\\342\\201\\246x\\342\\201\\251" }, /* isolates */
		{ "\xe2\x80\x8f", "\xe2\x80\x8f" },                   /* a mark, no override */
		{ "\xc3", "\\303" },                                  /* cut short */
		{ "\xc3(", "\\303(" },
		{ "\xa4", "\\244" },                                  /* a stray continuation */
		{ "\xc0\xaf", "\\300\\257" },                         /* overlong '/' */
		{ "\xe0\x80\xaf", "\\340\\200\\257" },
		{ "\xed\xa0\x80", "\\355\\240\\200" },                /* a surrogate */
		{ "\xf4\x90\x80\x80", "\\364\\220\\200\\200" },       /* past U+10FFFF */
		{ "\xff\xfe", "\\377\\376" },
	};
	char buf[128], esc[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = tmpfile();
		char *text;

		termsafe_puts(f, cases[i].in);
		text = stream_text(f);
		if (strcmp(text, cases[i].shown) != 0)
			fail_msg("case %zu: \"%s\" written, \"%s\" expected", i, text, cases[i].shown);
		assert_string_equal(termsafe_copy(buf, sizeof(buf), cases[i].in), cases[i].shown);
		free(text);
		fclose(f);
	}
	/* cut between characters, never inside one */
	assert_string_equal(termsafe_copy(buf, 4, "j\xc3\xa4ger"), "j\xc3\xa4");
	assert_string_equal(termsafe_copy(buf, 3, "j\xc3\xa4ger"), "j");
	/* the logs' mode: plain ASCII */
	textesc_escape(esc, "j\xc3\xa4ger", 6, TEXTESC_ASCII);
	assert_string_equal(esc, "j\\303\\244ger");
	textesc_escape(esc, "j\xc3\xa4ger\x1b", 7, TEXTESC_UTF8);
	assert_string_equal(esc, "j\xc3\xa4ger\\033");
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
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_transcript),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
