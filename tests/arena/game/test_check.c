/*
 * test_check.c - the diagnosis module of `skipbo-arena check` (arena/game/check.h),
 * driven with a real engine game and hand-made referee callbacks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"

static const struct check_limits limits = { 300, 1000, 60000 };

struct fixture {
	struct game *g;
	struct check c;
	char *text;
	size_t len;
	FILE *out;
	const char *bot;   /* the pointer the check compares names by */
};

static int setup(void **state)
{
	static const char bot_name[] = "mybot";
	struct game_rules rules = { .players = 2, .stock_size = 5, .dealer = 1, .seed = 7 };
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->g = game_new(&rules, NULL);
	assert_non_null(f->g);
	f->out = open_memstream(&f->text, &f->len);
	assert_non_null(f->out);
	f->bot = bot_name;
	check_init(&f->c, f->out, f->bot, &limits, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	check_release(&f->c);
	fclose(f->out);
	free(f->text);
	game_free(f->g);
	free(f);
	return 0;
}

static const char *output(struct fixture *f)
{
	fflush(f->out);
	return f->text;
}

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("expected \"%s\" in:\n%s", part, text);
}

static void test_format_move(void **state)
{
	struct move play_hand = { MOVE_PLAY, SOURCE_HAND, 0, 0, 7, 2 };
	struct move play_stock = { MOVE_PLAY, SOURCE_STOCK, 1, 0, 11, 0 };
	struct move play_discard = { MOVE_PLAY, SOURCE_DISCARD, 1, 3, 9, 1 };
	struct move discard = { MOVE_DISCARD, 0, 0, 0, 7, 0 };
	struct move pass = { MOVE_PASS, 0, 0, 0, 0, 0 };
	char buf[CHECK_MOVE_MAX];

	(void)state;
	/* the move encoding of PROTOCOL.md 4.1, so an author can compare with what was sent */
	check_format_move(&play_hand, buf, sizeof(buf));
	assert_string_equal(buf, "{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":2}");
	check_format_move(&play_stock, buf, sizeof(buf));
	assert_string_equal(buf, "{\"action\":\"play\",\"from\":\"stock\",\"seat\":1,\"card\":11,"
			    "\"to\":0}");
	check_format_move(&play_discard, buf, sizeof(buf));
	assert_string_equal(buf, "{\"action\":\"play\",\"from\":\"discard\",\"seat\":1,\"pile\":3,"
			    "\"card\":9,\"to\":1}");
	check_format_move(&discard, buf, sizeof(buf));
	assert_string_equal(buf, "{\"action\":\"discard\",\"card\":7,\"pile\":0}");
	check_format_move(&pass, buf, sizeof(buf));
	assert_string_equal(buf, "{\"action\":\"pass\"}");
}

/* "hand: a b c" exactly as the view holds it, SKIP-BO as SB (R1). */
static void hand_line(const struct seat_view *v, char *buf, size_t size)
{
	snprintf(buf, size, "  hand:");
	for (int k = 0; k < v->hand_size; k++) {
		size_t n = strlen(buf);

		if (v->hand[k] == CARD_SKIPBO)
			snprintf(buf + n, size - n, " SB");
		else
			snprintf(buf + n, size - n, " %d", v->hand[k]);
	}
	strlcat(buf, "\n", size);
}

static void test_position(void **state)
{
	struct fixture *f = *state;
	int seat = game_to_move(f->g);
	struct seat_view v;
	char expect[128];
	const char *text;

	game_view(f->g, seat, &v);
	check_print_position(f->out, &v, "  ");
	text = output(f);
	hand_line(&v, expect, sizeof(expect));
	assert_contains(text, expect);
	assert_contains(text, "  building piles: [0] empty [1] empty [2] empty [3] empty\n");
	snprintf(expect, sizeof(expect), "  seat %d (you): stock top ", seat);
	assert_contains(text, expect);
	snprintf(expect, sizeof(expect), "  seat %d (opponent): stock top ", 1 - seat);
	assert_contains(text, expect);
	snprintf(expect, sizeof(expect), "(%d cards), discard tops [0] empty [1] empty [2] empty "
		 "[3] empty\n", 5);
	assert_contains(text, expect);
}

static void test_illegal_move_report(void **state)
{
	struct fixture *f = *state;
	int seat = game_to_move(f->g), n;
	struct move legal[ENGINE_MAX_MOVES];
	struct referee_fault fault = { .seat = seat, .game = 1, .kind = PROTOCOL_FAULT_ILLEGAL, .turn = 1,
		.move = 1 };
	char expect[160], mv[CHECK_MOVE_MAX];
	const char *text;

	n = game_legal_moves(f->g, legal);
	/* as the referee writes it: the position at its end (referee_fault_placed) */
	strlcpy(fault.reason, "illegal move (pass): pass is legal only with an empty hand "
		"(at turn 1, move 1)", sizeof(fault.reason));
	strlcpy(fault.line, "{\"type\":\"move\",\"move\":{\"action\":\"pass\"}}", sizeof(fault.line));
	check_begin_game(&f->c, 1, seat);
	f->c.observer.game_start(f->c.observer.ctx, 1, f->g);
	f->c.observer.fault(f->c.observer.ctx, &fault, f->g);
	text = output(f);
	/* said once: the reason's position, no other */
	assert_contains(text, "PROBLEM 1: illegal fault: illegal move (pass): pass is legal only "
			"with an empty hand (at turn 1, move 1)\n");
	assert_contains(text, "sent:     {\"type\":\"move\",\"move\":{\"action\":\"pass\"}}\n");
	assert_contains(text, "position:\n");
	assert_contains(text, "building piles:");
	snprintf(expect, sizeof(expect), "legal alternatives (%d):\n", n);
	assert_contains(text, expect);
	for (int i = 0; i < n; i++) {
		check_format_move(&legal[i], mv, sizeof(mv));
		snprintf(expect, sizeof(expect), "      %s\n", mv);
		assert_contains(text, expect);
	}
	assert_int_equal(check_summary(&f->c), 1);
	assert_contains(output(f), "FAIL: 1 problem\n");
}

/* Plays the game out with first legal moves, timing the checked seat's with us_of(k). */
static void play_out(struct fixture *f, int seat, int64_t (*us_of)(int k))
{
	int k = 0, s;

	check_begin_game(&f->c, 1, seat);
	f->c.observer.game_start(f->c.observer.ctx, 1, f->g);
	while ((s = game_to_move(f->g)) >= 0) {
		struct move legal[ENGINE_MAX_MOVES];

		assert_true(game_legal_moves(f->g, legal) > 0);
		assert_int_equal(game_apply(f->g, &legal[0]), 0);
		f->c.observer.move(f->c.observer.ctx, s, &legal[0], s == seat ? us_of(k++) : 999999,
				   f->g);
	}
	assert_true(k >= 3);
}

/* 1, 2, 3 ms, then 2 ms: a median of 2 ms and a maximum of 3 ms. */
static int64_t steady_us(int k)
{
	return k < 3 ? (k + 1) * 1000 : 2000;
}

static int64_t slow_us(int k)
{
	return k == 0 ? 600000 : 1000;
}

static void test_clean_game_passes_with_times(void **state)
{
	struct fixture *f = *state;
	struct referee_outcome o = { .players = 2, .reason = END_STOCK_EMPTIED };
	const char *names[2] = { f->bot, "easy-1" };
	const char *text;

	play_out(f, 0, steady_us);
	check_end_game(&f->c, &o, names);
	assert_int_equal(check_summary(&f->c), 0);
	text = output(f);
	/* the other seat's 999999 us never counts: only the checked bot is timed */
	assert_contains(text, "median 2.000 ms, p99 3.000 ms, max 3.000 ms; limit 1000 ms per move");
	assert_contains(text, "result: stock_emptied");
	assert_null(strstr(text, "warning"));
	assert_contains(text, "\nPASS\n");
}

static void test_slow_move_warns(void **state)
{
	struct fixture *f = *state;
	const char *text;

	play_out(f, 1, slow_us);
	assert_int_equal(check_summary(&f->c), 0);
	text = output(f);
	assert_contains(text, "max 600.000 ms");
	assert_contains(text, "warning: the slowest move took 60% of the move limit");
}

static void test_opponent_fault_fails_the_check(void **state)
{
	struct fixture *f = *state;
	struct referee_fault fault = { .seat = 1, .game = 1, .kind = PROTOCOL_FAULT_TIMEOUT, .turn = 2 };

	strlcpy(fault.reason, "no answer within 1000 ms", sizeof(fault.reason));
	check_begin_game(&f->c, 1, 0);
	f->c.observer.fault(f->c.observer.ctx, &fault, f->g);
	assert_int_equal(check_summary(&f->c), 1);
	assert_contains(output(f), "OPPONENT FAULT 1: timeout fault");
	assert_contains(output(f), "FAIL: 1 problem (1 of them the opponent's)\n");
}

/* A timeout whose reason says the machine probably caused it gets the hint to
 * check again on a quieter machine or lower -j, not the flush hint. */
static void test_machine_delay_hint(void **state)
{
	struct fixture *f = *state;
	struct referee_fault fault = { .seat = 0, .game = 1, .kind = PROTOCOL_FAULT_TIMEOUT, .turn = 2 };

	snprintf(fault.reason, sizeof(fault.reason), "answered after 1275 ms (0 ms of CPU time), "
		 "past its limit of 1000 ms; %s: it used under half its limit", REFEREE_MACHINE_NOTE);
	check_begin_game(&f->c, 1, 0);
	f->c.observer.fault(f->c.observer.ctx, &fault, f->g);
	assert_int_equal(check_summary(&f->c), 1);
	assert_contains(output(f), "probably the machine, not the bot");
	assert_contains(output(f), "hint:     other work on this machine kept it from running: "
			"check again when the machine is quieter (in a tournament, lower -j)");
	assert_null(strstr(output(f), "flush"));
}

/* The same fault again (numbers aside) takes one line naming the first, and
 * the summary counts it; another reason is a problem of its own. */
static void test_repeated_faults_grouped(void **state)
{
	struct fixture *f = *state;
	struct referee_fault fault = { .seat = 0, .game = 1, .kind = PROTOCOL_FAULT_TIMEOUT, .turn = 2 };
	const char *text;

	for (int game = 1; game <= 3; game++) {
		snprintf(fault.reason, sizeof(fault.reason), game < 3 ? "no answer within %d ms" :
			 "its game bank of %d ms is used up", 1000 * game);
		check_begin_game(&f->c, game, 0);
		f->c.observer.fault(f->c.observer.ctx, &fault, f->g);
	}
	assert_int_equal(check_summary(&f->c), 1);
	text = output(f);
	assert_contains(text, "PROBLEM 2: timeout fault at turn 2, decision 0: no answer within "
			"2000 ms\n    as PROBLEM 1 above (2 times so far)\n");
	assert_contains(text, "PROBLEM 3: timeout fault at turn 2, decision 0: its game bank of "
			"3000 ms is used up\n    expected:");
	assert_contains(text, "2 times: timeout: no answer within # ms (first: PROBLEM 1)\n"
			"FAIL: 3 problems\n");
}

static void test_start_fault_quotes_the_hello(void **state)
{
	struct fixture *f = *state;
	static const char bad[] = "{\"type\":\"hello\",\"protocol\":2,\"name\":\"x\"}";
	static const char other[] = "{\"type\":\"hello\",\"from\":\"the opponent\"}";
	char same_name[] = "mybot";
	struct referee_fault fault = { .seat = 0, .game = 1, .kind = PROTOCOL_FAULT_START };
	const char *text;

	strlcpy(fault.reason, "bad hello: the bot speaks protocol 2", sizeof(fault.reason));
	check_begin_game(&f->c, 1, 0);
	f->c.observer.line(f->c.observer.ctx, f->bot, -1, REFEREE_FROM_BOT, bad, strlen(bad), 0);
	/* another process's line, even under an equal name, is not the bot's */
	f->c.observer.line(f->c.observer.ctx, same_name, -1, REFEREE_FROM_BOT, other,
			   strlen(other), 0);
	f->c.observer.fault(f->c.observer.ctx, &fault, f->g);
	text = output(f);
	assert_contains(text, "PROBLEM 1: start fault: bad hello: the bot speaks protocol 2\n");
	assert_contains(text, "line:     {\"type\":\"hello\",\"protocol\":2,\"name\":\"x\"}\n");
	assert_contains(text, "expected: a first line {\"type\":\"hello\",\"protocol\":1,");
	assert_contains(text, "within 300 ms of the start");
	assert_null(strstr(text, "the opponent"));
}

static void test_protocol_fault_shows_a_correct_answer(void **state)
{
	struct fixture *f = *state;
	int seat = game_to_move(f->g);
	struct move legal[ENGINE_MAX_MOVES];
	struct referee_fault fault = { .seat = seat, .game = 1, .kind = PROTOCOL_FAULT_PROTOCOL, .turn = 1,
		.move = 1 };
	char mv[CHECK_MOVE_MAX], expect[200];

	assert_true(game_legal_moves(f->g, legal) > 0);
	strlcpy(fault.reason, "expected \"type\":\"move\", got \"moove\"", sizeof(fault.reason));
	strlcpy(fault.line, "{\"type\":\"moove\"}", sizeof(fault.line));
	check_begin_game(&f->c, 1, seat);
	f->c.observer.game_start(f->c.observer.ctx, 1, f->g);
	f->c.observer.fault(f->c.observer.ctx, &fault, f->g);
	check_format_move(&legal[0], mv, sizeof(mv));
	snprintf(expect, sizeof(expect), "such as:  {\"type\":\"move\",\"move\":%s}\n", mv);
	assert_contains(output(f), "line:     {\"type\":\"moove\"}\n");
	assert_contains(output(f), expect);
	assert_null(strstr(output(f), "legal alternatives"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_move),
		cmocka_unit_test_setup_teardown(test_position, setup, teardown),
		cmocka_unit_test_setup_teardown(test_illegal_move_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clean_game_passes_with_times, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_move_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_opponent_fault_fails_the_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_machine_delay_hint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeated_faults_grouped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_fault_quotes_the_hello, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protocol_fault_shows_a_correct_answer, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
