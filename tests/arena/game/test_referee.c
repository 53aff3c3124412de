/*
 * test_referee.c - the referee and the bot pool against real bot processes
 * (badbot): results, R11 faults, R9 matches, timing statistics, observers
 * and process reuse.
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

static char *good_argv[] = { BADBOT_PATH, "good", NULL };
static char *illegal_argv[] = { BADBOT_PATH, "illegal", NULL };
static char *never_argv[] = { BADBOT_PATH, "never-answer", NULL };
static char *missing_argv[] = { "/nonexistent/bot", NULL };

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

static void test_good_game(void **state)
{
	struct table t;
	uint32_t answered = 0;

	(void)state;
	table_open(&t, good_argv, good_argv, 4);
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

	(void)state;
	table_open(&t, good_argv, illegal_argv, 4);
	table_play(&t);
	assert_int_equal(t.out.nfaults, 1);
	f = &t.out.faults[0];
	assert_int_equal(f->seat, 1);
	assert_string_equal(f->kind, "illegal");
	assert_true(f->turn >= 1);
	assert_true(f->move >= 1);
	assert_true(f->reason[0] != '\0');
	assert_non_null(strstr(f->line, "\"type\":\"move\""));
	/* R11: removed, placed last; the other wins by forfeit */
	assert_int_equal(t.out.faulted[1], 1);
	assert_int_equal(t.out.faulted[0], 0);
	assert_int_equal(t.out.reason, END_FORFEIT);
	assert_int_equal(t.out.winners[0], 0);
	assert_int_equal(t.out.placings[1], 2);
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
	assert_string_equal(t.out.faults[0].kind, "timeout");
	assert_non_null(strstr(t.out.faults[0].reason, "100 ms"));
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
	assert_string_equal(t.out.faults[0].kind, "start");
	assert_int_equal(t.out.faults[0].turn, 0);
	assert_int_equal(t.out.faults[0].move, 0);
	assert_non_null(strstr(t.out.faults[0].reason, "could not start"));
	assert_int_equal(t.out.winners[0], 0);
	table_close(&t);
}

static void test_match_to_500(void **state)
{
	struct table t;
	int best = 0;

	(void)state;
	table_open(&t, good_argv, good_argv, 2);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_game),
		cmocka_unit_test(test_illegal_move_fault),
		cmocka_unit_test(test_timeout_fault),
		cmocka_unit_test(test_start_fault),
		cmocka_unit_test(test_match_to_500),
		cmocka_unit_test(test_process_reuse),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_time_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
