/*
 * test_referee.c - the referee and the bot pool against real bot processes
 * (badbot): results, R11 faults, R9 matches, timing statistics, observers
 * and process reuse; the move clock (protocol/PROTOCOL.md "Time": late
 * answers, the bank, a stopped arena) and output out of turn.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "own_delay.h"
#include "pool.h"
#include "referee.h"

static char *good_argv[] = { BADBOT_PATH, "good", NULL };
static char *illegal_argv[] = { BADBOT_PATH, "illegal", NULL };
static char *never_argv[] = { BADBOT_PATH, "never-answer", NULL };
static char *missing_argv[] = { "/nonexistent/bot", NULL };
static char *late200_argv[] = { BADBOT_PATH, "late", "200", NULL };
static char *late400_argv[] = { BADBOT_PATH, "late", "400", NULL };
static char *late50_argv[] = { BADBOT_PATH, "late", "50", NULL };
static char *late250_argv[] = { BADBOT_PATH, "late", "250", NULL };
static char *busy250_argv[] = { BADBOT_PATH, "busy", "250", NULL };
static char *early_argv[] = { BADBOT_PATH, "early-line", NULL };
static char *double_argv[] = { BADBOT_PATH, "double-answer", NULL };
static char *double_later_argv[] = { BADBOT_PATH, "double-answer", "30", NULL };
static char *holder_argv[] = { BADBOT_PATH, "fork-holder-at-start", NULL };
static char *no_hello_argv[] = { BADBOT_PATH, "no-hello", NULL };
static char *no_newline_argv[] = { BADBOT_PATH, "no-newline", NULL };
static char *chatty_argv[] = { BADBOT_PATH, "chatty", NULL };

struct table {
	struct bot_spec specs[2];
	struct pool *pool;
	struct referee_setup setup;
	struct referee_outcome out;
};

static void table_open(struct table *t, char **a, char **b, int stock)
{
	struct pool_config pc = { 0 };

	memset(t, 0, sizeof(*t));
	t->specs[0] = (struct bot_spec){ .name = "a", .argv = a, .cpu = -1 };
	t->specs[1] = (struct bot_spec){ .name = "b", .argv = b, .cpu = -1 };
	pc.specs = t->specs;
	pc.nbots = 2;
	pc.cpu = -1;
	pc.startup_ms = 2000;
	assert_int_equal(pool_new(&pc, &t->pool), 0);
	t->setup.id = "test";
	t->setup.rules.players = 2;
	t->setup.rules.stock_size = stock;
	t->setup.rules.dealer = 1;
	t->setup.rules.seed = 11;
	t->setup.move_ms = 300;
	t->setup.game_ms = 5000;
}

static void table_play(struct table *t)
{
	char err[256];

	for (int s = 0; s < 2; s++)
		assert_int_equal(pool_acquire(t->pool, (size_t)s, &t->setup.seats[s]), 0);
	assert_int_equal(referee_play(&t->setup, &t->out, err, sizeof(err)), 0);
	for (int s = 0; s < 2; s++)
		pool_release(t->pool, (size_t)s, t->out.faulted[s]);
}

static void table_close(struct table *t)
{
	referee_outcome_release(&t->out);
	pool_free(t->pool);
}

/* Limits no move of a good bot comes near however loaded the machine: for the tests that
 * count faults, which a slow machine's timeout must not add to. */
static void generous(struct table *t)
{
	t->setup.move_ms = 30000;
	t->setup.game_ms = 1800000;
}

static void test_good_game(void **state)
{
	struct table t;
	uint32_t answered = 0;

	(void)state;
	table_open(&t, good_argv, good_argv, 4);
	generous(&t);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 0);
	assert_int_equal(t.out.reason, END_STOCK_EMPTIED);
	assert_int_equal(t.out.games, 1);
	assert_int_equal(t.out.nwinners, 1);
	/* R7/R8: the winner emptied its stock and scores 25 + 5 x the other's stock */
	assert_int_equal(t.out.stock_left[t.out.winners[0]], 0);
	assert_int_equal(t.out.placings[t.out.winners[0]], 1);
	assert_int_equal(t.out.scores[t.out.winners[0]], 25 + 5 * t.out.stock_left[1 - t.out.winners[0]]);
	for (int s = 0; s < 2; s++) {
		answered += t.out.time[s].moves;
		assert_true(t.out.time[s].max_us >= t.out.time[s].p99_us);
		assert_true(t.out.time[s].p99_us >= t.out.time[s].median_us);
	}
	assert_int_equal(answered, t.out.moves);
	assert_int_equal(t.out.log[0].nmoves, t.out.moves);
	assert_true(t.out.log[0].nevents > t.out.moves);
	assert_int_equal(t.out.log[0].rules.stock_size, 4);
	table_close(&t);
}

static void test_illegal_move_fault(void **state)
{
	struct table t;
	const struct referee_fault *f;
	char at[64];

	(void)state;
	table_open(&t, good_argv, illegal_argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	f = &t.out.faults[0];
	assert_int_equal(f->seat, 1);
	assert_string_equal(protocol_fault_kind_names[f->kind], "illegal");
	assert_true(f->turn >= 1);
	assert_true(f->move >= 1);
	assert_true(f->reason[0] != '\0');
	/* the reason says where: the turn and move of the request the bot answered */
	snprintf(at, sizeof(at), " (at turn %" PRIu32 ", move %" PRIu32 ")", f->turn, f->move);
	if (strlen(f->reason) <= strlen(at) ||
	    strcmp(f->reason + strlen(f->reason) - strlen(at), at) != 0)
		fail_msg("reason \"%s\" does not end with \"%s\"", f->reason, at);
	assert_non_null(strstr(f->line, "\"type\":\"move\""));
	/* R11: removed, placed last; the other wins by forfeit */
	assert_int_equal(t.out.faulted[1], 1);
	assert_int_equal(t.out.faulted[0], 0);
	assert_int_equal(t.out.reason, END_FORFEIT);
	assert_int_equal(t.out.winners[0], 0);
	assert_int_equal(t.out.placings[1], 2);
	/* the illegal answer has no decision event, so no time in the log either:
	 * the log's times stay aligned with the decision events */
	assert_int_equal(t.out.log[0].nmoves, t.out.moves);
	table_close(&t);
}

/* The seat's stderr lines are observed as they come, and with keep_stderr
 * each decision's are kept beside it; a quiet seat's decisions have none. */
static int observed_lines[2];

static void count_stderr(void *ctx, const char *name, int seat, const char *line, size_t len)
{
	(void)ctx;
	(void)name;
	(void)line;
	(void)len;
	if (seat >= 0 && seat < 2)
		observed_lines[seat]++;
}

static void test_stderr_per_decision(void **state)
{
	const struct referee_observer watch = { .stderr_line = count_stderr };
	const struct referee_game_log *log;
	struct table t;
	size_t k = 0;
	int asked = 0;

	(void)state;
	table_open(&t, chatty_argv, good_argv, 4);
	generous(&t);
	t.setup.keep_stderr = 1;
	t.setup.observer = &watch;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 0);
	log = &t.out.log[0];
	assert_non_null(log->move_stderr);
	for (size_t i = 0; i < log->nevents; i++) {
		const struct event *ev = &log->events[i];
		char want[64];

		if (ev->kind != EVENT_PLAY && ev->kind != EVENT_DISCARD && ev->kind != EVENT_PASS)
			continue;
		assert_true(k < log->nmoves);
		if (ev->seat == 1) {
			assert_null(log->move_stderr[k++]);
			continue;
		}
		snprintf(want, sizeof(want), "chatty: request %d of turn ", ++asked);
		assert_non_null(log->move_stderr[k]);
		if (strncmp(log->move_stderr[k], want, strlen(want)) ||
		    !strstr(log->move_stderr[k], "\nchatty: esc \033[2J bell \a tab \t end"))
			fail_msg("decision %zu: \"%s\", expected \"%s...\"", k, log->move_stderr[k], want);
		k++;
	}
	assert_int_equal(k, log->nmoves);
	assert_int_equal(observed_lines[0], 2 * asked);
	assert_int_equal(observed_lines[1], 0);
	table_close(&t);
}

static void test_timeout_fault(void **state)
{
	struct table t;
	int64_t start = clock_now_us();

	(void)state;
	table_open(&t, never_argv, good_argv, 4);
	t.setup.move_ms = 100;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "timeout");
	assert_non_null(strstr(t.out.faults[0].reason, "100 ms"));
	/* a timeout is no fault in what the bot wrote: its reason names no position */
	assert_null(strstr(t.out.faults[0].reason, "(at turn "));
	assert_true(clock_now_us() - start < 3000000);
	table_close(&t);
}

static void test_start_fault(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, good_argv, missing_argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "start");
	assert_int_equal(t.out.faults[0].turn, 0);
	assert_int_equal(t.out.faults[0].move, 0);
	assert_non_null(strstr(t.out.faults[0].reason, "could not start"));
	assert_int_equal(t.out.winners[0], 0);
	table_close(&t);
}

/* R11: both seats fail at the start (no process; an exit before the hello): no winner,
 * nobody scores, whichever fault was read first. */
static void test_start_faults_of_every_seat(void **state)
{
	static char *false_argv[] = { "/bin/false", NULL };
	struct table t;

	(void)state;
	table_open(&t, missing_argv, false_argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 2);
	assert_int_equal(t.out.nwinners, 0);
	assert_int_equal(t.out.scores[0], 0);
	assert_int_equal(t.out.scores[1], 0);
	assert_int_equal(t.out.reason, END_FORFEIT);
	table_close(&t);
	/* and in a match: no game is won, so no match either */
	table_open(&t, false_argv, missing_argv, 4);
	t.setup.match = 1;
	table_play(&t);
	assert_int_equal(t.out.nwinners, 0);
	assert_int_equal(t.out.scores[0] + t.out.scores[1], 0);
	assert_int_equal(t.out.games, 1);
	table_close(&t);
}

static void test_match_to_500(void **state)
{
	struct table t;
	int best = 0;

	(void)state;
	table_open(&t, good_argv, good_argv, 2);
	generous(&t);
	t.setup.match = 1;
	table_play(&t);
	assert_true(t.out.games > 1);
	assert_int_equal(t.out.nfaults, 0);
	for (int s = 0; s < 2; s++)
		best = t.out.scores[s] > best ? t.out.scores[s] : best;
	/* R9: the match ends once a side reaches 500; the winner holds the best total */
	assert_true(best >= MATCH_TARGET);
	assert_int_equal(t.out.scores[t.out.winners[0]], best);
	assert_int_equal(t.out.placings[t.out.winners[0]], 1);
	/* R9: the dealer moves one seat left after each game */
	assert_int_equal(t.out.log[1].rules.dealer, (t.out.log[0].rules.dealer + 1) % 2);
	table_close(&t);
}

static void test_process_reuse(void **state)
{
	struct table t;
	pid_t first;

	(void)state;
	table_open(&t, good_argv, illegal_argv, 3);
	generous(&t);
	table_play(&t);
	first = bot_pid(t.setup.seats[0].bot);
	referee_outcome_release(&t.out);
	table_play(&t);
	/* the well-behaved bot keeps its process; the faulty one got a fresh one */
	assert_int_equal(bot_pid(t.setup.seats[0].bot), first);
	assert_int_equal(t.out.faulted[1], 1);
	table_close(&t);
}

struct counts {
	int to_bot, from_bot, moves, starts, ends;
};

static void count_line(void *ctx, const char *name, int seat, enum referee_dir dir,
		       const char *line, size_t len, int64_t at)
{
	struct counts *c = ctx;

	(void)name, (void)seat, (void)line, (void)len, (void)at;
	if (dir == REFEREE_TO_BOT)
		c->to_bot++;
	else
		c->from_bot++;
}

static void count_move(void *ctx, int seat, const struct move *m, int64_t us, const struct game *g)
{
	(void)seat, (void)m, (void)us, (void)g;
	((struct counts *)ctx)->moves++;
}

static void count_start(void *ctx, int game, const struct game *g)
{
	(void)game, (void)g;
	((struct counts *)ctx)->starts++;
}

static void count_end(void *ctx, int game, const struct game *g)
{
	(void)game, (void)g;
	((struct counts *)ctx)->ends++;
}

static void test_observer(void **state)
{
	struct table t;
	struct counts c = { 0 };
	struct referee_observer o = { &c, count_line, count_start, count_move, NULL, count_end };

	(void)state;
	table_open(&t, good_argv, good_argv, 3);
	generous(&t);
	t.setup.observer = &o;
	table_play(&t);
	assert_int_equal(c.moves, (int)t.out.moves);
	assert_int_equal(c.from_bot, (int)t.out.moves);
	/* two game_starts, one request per move, two game_ends */
	assert_int_equal(c.to_bot, (int)t.out.moves + 4);
	assert_int_equal(c.starts, 1);
	assert_int_equal(c.ends, 1);
	table_close(&t);
}

static void test_time_stats(void **state)
{
	uint32_t us[100];
	struct referee_time_stats st;

	(void)state;
	for (int i = 0; i < 100; i++)
		us[i] = (uint32_t)(100 - i); /* 100 .. 1, unsorted */
	referee_time_stats(us, 100, &st);
	assert_int_equal(st.moves, 100);
	assert_true(st.mean_us > 50.49 && st.mean_us < 50.51);
	assert_int_equal(st.median_us, 50);
	assert_int_equal(st.p99_us, 99);
	assert_int_equal(st.max_us, 100);
	us[0] = 7;
	referee_time_stats(us, 1, &st);
	assert_int_equal(st.median_us, 7);
	assert_int_equal(st.p99_us, 7);
	referee_time_stats(us, 0, &st);
	assert_int_equal(st.moves, 0);
	assert_int_equal(st.max_us, 0);
}

/* ---- the move clock ---- */

/* Every request's "bank_ms" seen by the observer, and the lowest one. */
struct banks {
	int requests;
	long lowest;
};

static void watch_bank(void *ctx, const char *name, int seat, enum referee_dir dir,
		       const char *line, size_t len, int64_t at)
{
	struct banks *b = ctx;
	const char *p = strstr(line, "\"bank_ms\":");

	(void)name, (void)seat, (void)len, (void)at;
	if (dir != REFEREE_TO_BOT || !strstr(line, "\"type\":\"request\"") || !p)
		return;
	b->requests++;
	if (b->requests == 1 || atol(p + 10) < b->lowest)
		b->lowest = atol(p + 10);
}

static void test_answer_inside_limit(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, late200_argv, good_argv, 2);
	t.setup.move_ms = 400;
	t.setup.game_ms = 60000;
	/* a busy machine may wake the sleeping bot late: that is the margin's case */
	t.setup.margin_ms = 60000;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 0);
	/* the charged time is the bot's 200 ms sleep, not less */
	assert_true(t.out.time[0].median_us >= 200000);
	assert_true(t.out.time[0].max_us <= 400000);
	/* it slept: its CPU time per move is far below its wall time */
	assert_true(t.out.time[0].cpu_mean_us < 100000);
	table_close(&t);
}

/* 250 ms against 200: in the margin, and the bot's CPU time is far below the
 * limit, so the delay may be the machine's: on time, charged the whole limit. */
static void test_answer_in_margin(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, late250_argv, good_argv, 2);
	t.setup.move_ms = 200;
	t.setup.game_ms = 60000;
	/* wide, so that a busy machine cannot push the answer past it */
	t.setup.margin_ms = 5000;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 0);
	assert_int_equal(t.out.time[0].max_us, 200000);
	table_close(&t);
}

/* 250 ms of CPU time against 200: the bot thought past its limit, and its
 * answer, read in the margin, is refused. */
static void test_thinking_past_limit(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, busy250_argv, good_argv, 2);
	t.setup.move_ms = 200;
	/* a wide margin: on a busy machine 250 ms of CPU can take far more wall time */
	t.setup.margin_ms = 60000;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_int_equal(t.out.faults[0].seat, 0);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "timeout");
	if (!strstr(t.out.faults[0].reason, "ms of CPU time), past its limit of 200 ms"))
		fail_msg("reason: %s", t.out.faults[0].reason);
	/* the late line is quoted: it was read, and refused */
	assert_non_null(strstr(t.out.faults[0].line, "\"type\":\"move\""));
	table_close(&t);
}

/* A timeout is flagged as the machine's only with little CPU time on a loaded machine. */
static void test_machine_delay_rule(void **state)
{
	(void)state;
	/* the case: 0 ms of CPU against 1000, load 12 on 2 CPUs */
	assert_true(referee_machine_delay_likely(0, 1000000, 12.0, 2));
	assert_true(referee_machine_delay_likely(500000, 1000000, 2.0, 2));
	/* it thought for most of its limit: its own slowness */
	assert_false(referee_machine_delay_likely(500001, 1000000, 12.0, 2));
	/* a quiet machine: a bot that waits is waiting for itself (a sleep, a deadlock) */
	assert_false(referee_machine_delay_likely(0, 1000000, 1.9, 2));
	/* unknown CPU time tells nothing */
	assert_false(referee_machine_delay_likely(-1, 1000000, 12.0, 2));
	assert_true(referee_machine_delay("answered after 1275 ms (0 ms of CPU time), past its "
					  "limit of 1000 ms; " REFEREE_MACHINE_NOTE ": it used"));
	assert_false(referee_machine_delay("no answer within 1000 ms"));
}

static void test_answer_past_limit(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, late400_argv, good_argv, 2);
	t.setup.move_ms = 200;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "timeout");
	assert_int_equal(t.out.faults[0].seat, 0);
	assert_int_equal(t.out.faults[0].move, 1);
	assert_int_equal(t.out.time[0].moves, 0);
	table_close(&t);
}

/*
 * The bank runs down but never below 0: 200 ms answers against a 300 ms
 * limit and a 450 ms bank leave 250, then 50 ms (on a busy machine an answer
 * in the margin is charged the whole limit, and the bank runs out a move
 * sooner); then the seat times out on its bank, and no request ever carried a
 * negative bank.
 */
static void test_bank_never_negative(void **state)
{
	struct table t;
	struct banks b = { 0, 0 };
	struct referee_observer o = { .ctx = &b, .line = watch_bank };

	(void)state;
	table_open(&t, late200_argv, good_argv, 10);
	t.setup.move_ms = 300;
	t.setup.game_ms = 450;
	t.setup.observer = &o;
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_int_equal(t.out.faults[0].seat, 0);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "timeout");
	assert_non_null(strstr(t.out.faults[0].reason, "game bank"));
	assert_true(t.out.time[0].moves >= 1 && t.out.time[0].moves <= 2);
	assert_true(b.requests >= 2);
	assert_true(b.lowest >= 0);
	assert_true(b.lowest <= 250);
	table_close(&t);
}

/*
 * The arena is stopped (SIGSTOP) for 2.5 s while a bot answers in 50 ms
 * against a 1000 ms limit and the 100 ms margin: the stop is the arena's and
 * the bot's CPU time is within the limit, so the answer is on time (charged
 * at most the limit).
 */
static void test_stopped_arena(void **state)
{
	struct table t;
	pid_t stopper, arena = getpid();
	int status;

	(void)state;
	assert_int_equal(own_delay_install(), 0);
	table_open(&t, late50_argv, good_argv, 2);
	t.setup.move_ms = 1000;
	t.setup.game_ms = 60000;
	stopper = fork();
	assert_true(stopper >= 0);
	if (stopper == 0) {
		struct timespec pause = { 2, 500000000 };

		/* wait for the first requests to be out, then stop the arena */
		usleep(150000);
		kill(arena, SIGSTOP);
		nanosleep(&pause, NULL);
		kill(arena, SIGCONT);
		_exit(0);
	}
	table_play(&t);
	assert_int_equal(waitpid(stopper, &status, 0), stopper);
	assert_int_equal(t.out.nfaults, 0);
	assert_true(t.out.time[0].max_us <= 1000000);
	table_close(&t);
}

/* ---- output out of turn ---- */

static void test_answer_before_request(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, early_argv, good_argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_int_equal(t.out.faults[0].seat, 0);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "protocol");
	assert_non_null(strstr(t.out.faults[0].reason, "answered before the request"));
	/* the stale line is quoted, and was never played */
	assert_non_null(strstr(t.out.faults[0].line, "\"from\":\"stock\""));
	assert_int_equal(t.out.faults[0].move, 1);
	assert_int_equal(t.out.time[0].moves, 0);
	table_close(&t);
}

/* Seat 0 answered `answered` moves, the last of them move `last`, then wrote one more line. */
static void check_second_answer(const struct table *t, uint32_t answered, const char *last)
{
	assert_int_equal(t->out.nfaults, 1);
	assert_int_equal(t->out.faults[0].seat, 0);
	assert_string_equal(protocol_fault_kind_names[t->out.faults[0].kind], "protocol");
	assert_non_null(strstr(t->out.faults[0].reason, last));
	assert_non_null(strstr(t->out.faults[0].line, "\"type\":\"move\""));
	assert_int_equal(t->out.time[0].moves, answered);
}

/* Both lines in one write: caught before move 2, seat 0's first answer being move 1. */
static void test_second_answer_same_write(void **state)
{
	struct table t;

	(void)state;
	table_open(&t, double_argv, good_argv, 4);
	table_play(&t);
	check_second_answer(&t, 1, "a second answer to move 1:");
	table_close(&t);
}

/* The extra line 30 ms after the discard that ends seat 0's first turn, while the
 * opponent (200 ms a move) is still thinking: caught before seat 0's next request. */
static void test_second_answer_later(void **state)
{
	struct table t;
	char last[64];

	(void)state;
	table_open(&t, double_later_argv, late200_argv, 4);
	t.setup.move_ms = 1000;
	table_play(&t);
	assert_true(t.out.time[0].moves >= 1);
	snprintf(last, sizeof last, "a second answer to move %u:", t.out.time[0].moves);
	check_second_answer(&t, t.out.time[0].moves, last);
	table_close(&t);
}

/*
 * A bot that exits before its hello while a child of it holds its output:
 * said as an exit, at once, not as a missing hello after the start-up limit.
 */
static void test_exit_with_output_held(void **state)
{
	struct table t;
	int64_t start = clock_now_us();

	(void)state;
	table_open(&t, good_argv, holder_argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "start");
	assert_non_null(strstr(t.out.faults[0].reason, "exited with status 4 before its hello"));
	assert_non_null(strstr(t.out.faults[0].reason, "holds its output open"));
	/* the start-up limit is 2000 ms */
	assert_true(clock_now_us() - start < 1500000);
	table_close(&t);
}

/* A missing hello says what the bot wrote: nothing, or a line never ended. */
static void check_start_hint(char **argv, const char *hint)
{
	struct table t;

	table_open(&t, good_argv, argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	assert_string_equal(protocol_fault_kind_names[t.out.faults[0].kind], "start");
	assert_non_null(strstr(t.out.faults[0].reason, "no hello within 2000 ms"));
	if (!strstr(t.out.faults[0].reason, hint))
		fail_msg("reason: %s", t.out.faults[0].reason);
	table_close(&t);
}

static void test_no_hello_hint(void **state)
{
	(void)state;
	check_start_hint(no_hello_argv, "it wrote nothing on stdout: did it flush stdout");
}

static void test_unterminated_hello_hint(void **state)
{
	(void)state;
	check_start_hint(no_newline_argv, "without a newline: end each line with \\n");
}

/* One initialiser for every command's setup: the arena deals so that seat 0 moves first (R3). */
static void test_setup_init(void **state)
{
	struct game_rules rules = { .players = 4, .stock_size = 5, .seed = 7 };
	struct referee_setup s;
	struct game *g;
	int err = 0;

	(void)state;
	memset(&s, 0xff, sizeof(s));
	referee_setup_init(&s, "g1", &rules, 100, 2000);
	assert_string_equal(s.id, "g1");
	assert_int_equal(s.rules.dealer, 3);
	assert_int_equal(s.rules.stock_size, 5);
	assert_int_equal(s.move_ms, 100);
	assert_int_equal(s.game_ms, 2000);
	assert_int_equal(s.match, 0);
	assert_int_equal(s.margin_ms, 0);
	assert_null(s.observer);
	assert_null(s.start);
	assert_int_equal(s.nstart, 0);
	for (int players = 2; players <= ENGINE_MAX_PLAYERS; players++) {
		rules.players = players;
		referee_setup_init(&s, "g", &rules, 0, 0);
		g = game_new(&s.rules, &err);
		assert_non_null(g);
		assert_int_equal(game_to_move(g), 0);
		game_free(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_game),
		cmocka_unit_test(test_illegal_move_fault),
		cmocka_unit_test(test_stderr_per_decision),
		cmocka_unit_test(test_timeout_fault),
		cmocka_unit_test(test_start_fault),
		cmocka_unit_test(test_start_faults_of_every_seat),
		cmocka_unit_test(test_match_to_500),
		cmocka_unit_test(test_process_reuse),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_time_stats),
		cmocka_unit_test(test_answer_inside_limit),
		cmocka_unit_test(test_answer_in_margin),
		cmocka_unit_test(test_thinking_past_limit),
		cmocka_unit_test(test_machine_delay_rule),
		cmocka_unit_test(test_answer_past_limit),
		cmocka_unit_test(test_bank_never_negative),
		cmocka_unit_test(test_stopped_arena),
		cmocka_unit_test(test_answer_before_request),
		cmocka_unit_test(test_second_answer_same_write),
		cmocka_unit_test(test_second_answer_later),
		cmocka_unit_test(test_exit_with_output_held),
		cmocka_unit_test(test_no_hello_hint),
		cmocka_unit_test(test_unterminated_hello_hint),
		cmocka_unit_test(test_setup_init),
	};

	/* as skipbo-arena does (main.c): a bot that exited before its hello was written to,
	 * /bin/false on a loaded machine, is an EPIPE, not the end of the program */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
