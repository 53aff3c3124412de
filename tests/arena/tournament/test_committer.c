/*
 * test_committer.c - finished games made durable in groups while the worker
 * plays on: a game is counted only once its record is in games.jsonl and its
 * replay can be read where the record says; groups go at their size, at
 * their time, at a flush and at the finish; a failure is reported once and
 * nothing after it is counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "committer.h"
#include "replay_file.h"
#include "results.h"
#include "results_text.h"

struct seen {
	char dir[PATH_MAX];
	pthread_mutex_t lock;
	int counted, calls, failures, failed_code;
	char failed_what[64];
	int bad; /* a game counted before its record and replay could be read */
};

/* Every record of games.jsonl so far, each replay read where it says: the records' count,
 * or -1 when a replay is missing or is not its game's. */
static int durable_games(const char *dir)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		cJSON *rec = cJSON_Parse(line);
		const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(rec, "replay"));
		char want[64], *text;
		size_t len;

		if (!rec || !file) {
			cJSON_Delete(rec);
			n = -1;
			break;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		text = replay_read_at(path,
				      (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(rec, "replay_offset")),
				      (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(rec, "replay_line")),
				      &len);
		snprintf(want, sizeof(want), "{\"id\":\"%s\"}\n",
			 cJSON_GetStringValue(cJSON_GetObjectItem(rec, "id")));
		if (!text || strcmp(text, want) != 0)
			n = -1;
		free(text);
		cJSON_Delete(rec);
		if (n < 0)
			break;
		n++;
	}
	fclose(f);
	return n;
}

static void counted(void *ctx, const struct committed_game *games, int n)
{
	struct seen *s = ctx;
	int durable = durable_games(s->dir);

	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < n; i++)
		s->bad |= games[i].players != 2 || games[i].game.bots[1] != s->counted + i;
	s->counted += n;
	s->calls++;
	s->bad |= durable < s->counted;
	pthread_mutex_unlock(&s->lock);
}

static void failed(void *ctx, int code, const char *what, const char *detail)
{
	struct seen *s = ctx;

	(void)detail;
	pthread_mutex_lock(&s->lock);
	s->failures++;
	s->failed_code = code;
	snprintf(s->failed_what, sizeof(s->failed_what), "%s", what);
	pthread_mutex_unlock(&s->lock);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int counted_now(struct seen *s)
{
	pthread_mutex_lock(&s->lock);
	int n = s->counted;
	pthread_mutex_unlock(&s->lock);
	return n;
}

/* A committer on a fresh output directory; with_replays makes its replays/ too; flushed:
 * its caller flushes each batch. */
static struct committer *start_with(struct seen *s, struct results **res, int with_replays,
				    bool flushed)
{
	struct committer_ops ops = { counted, failed, s, flushed };
	struct committer *c;
	char err[256], cmd[PATH_MAX + 16];

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	snprintf(s->dir, sizeof(s->dir), "/tmp/test_committer.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	assert_int_equal(open_text(s->dir, "{}", res, err, sizeof(err)), 0);
	if (!with_replays) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s/replays", s->dir);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(committer_start(*res, s->dir, &ops, &c), 0);
	return c;
}

static struct committer *start(struct seen *s, struct results **res, int with_replays)
{
	return start_with(s, res, with_replays, false);
}

static void stop(struct seen *s, struct results *res)
{
	char cmd[PATH_MAX + 16];

	results_close(res);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", s->dir);
	assert_int_equal(system(cmd), 0);
	pthread_mutex_destroy(&s->lock);
}

/* Game k: its replay, then its record, as a worker adds them. */
static int add_game(struct committer *c, int k)
{
	struct committed_game g = { .players = 2, .game.bots = { 0, k } };
	struct replay_location at;
	char doc[64], rec[256];
	int ret;

	snprintf(doc, sizeof(doc), "{\"id\":\"g%d\"}\n", k);
	if ((ret = committer_add_replay(c, doc, strlen(doc), &at)) < 0)
		return ret;
	snprintf(rec, sizeof(rec),
		 "{\"id\":\"g%d\",\"replay\":\"%s\",\"replay_offset\":%" PRIu64
		 ",\"replay_line\":%" PRIu64 "}", k, at.file, at.offset, at.line);
	return committer_add_game(c, &g, rec, strlen(rec));
}

static void test_groups_by_size_and_finish(void **state)
{
	enum { GAMES = 2 * COMMIT_GROUP_MAX + 22 };
	struct results *res;
	struct seen s;
	struct committer *c = start(&s, &res, 1);

	(void)state;
	for (int k = 0; k < GAMES; k++)
		assert_int_equal(add_game(c, k), 0);
	committer_finish(c);
	assert_int_equal(s.counted, GAMES);
	assert_true(s.calls >= 3); /* two full groups and the rest */
	assert_false(s.bad);
	assert_int_equal(s.failures, 0);
	assert_int_equal(durable_games(s.dir), GAMES);
	stop(&s, res);
}

static void test_group_by_time(void **state)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct results *res;
	struct seen s;
	struct committer *c = start(&s, &res, 1);

	(void)state;
	/* the first game after a pause goes at once */
	double start = now_ms();

	assert_int_equal(add_game(c, 0), 0);
	for (int i = 0; i < 200 && counted_now(&s) < 1; i++)
		nanosleep(&tick, NULL);
	assert_int_equal(counted_now(&s), 1);
	assert_int_equal(add_game(c, 1), 0);
	/* the next waits for its group (when the machine was quick enough to tell)... */
	nanosleep(&tick, NULL);
	if (now_ms() - start < COMMIT_GROUP_MS - 20)
		assert_int_equal(counted_now(&s), 1);
	/* ...until a game ends COMMIT_GROUP_MS after the last hand-over */
	nanosleep(&(struct timespec){ 0, (COMMIT_GROUP_MS + 10) * 1000L * 1000L }, NULL);
	assert_int_equal(add_game(c, 2), 0);
	for (int i = 0; i < 200 && counted_now(&s) < 3; i++)
		nanosleep(&tick, NULL);
	assert_int_equal(counted_now(&s), 3);
	committer_finish(c);
	assert_false(s.bad);
	stop(&s, res);
}

/* A flush: the games added are durable and counted when it returns, with no wait for a group. */
static void test_flush_durable_at_once(void **state)
{
	struct results *res;
	struct seen s;
	struct committer *c = start(&s, &res, 1);

	(void)state;
	assert_int_equal(committer_flush(c), 0);
	/* the first goes at once; the second would wait COMMIT_GROUP_MS for its group */
	assert_int_equal(add_game(c, 0), 0);
	assert_int_equal(add_game(c, 1), 0);
	assert_int_equal(committer_flush(c), 0);
	assert_int_equal(counted_now(&s), 2);
	assert_int_equal(durable_games(s.dir), 2);
	assert_int_equal(add_game(c, 2), 0);
	assert_int_equal(committer_flush(c), 0);
	assert_int_equal(counted_now(&s), 3);
	assert_int_equal(durable_games(s.dir), 3);
	committer_finish(c);
	assert_false(s.bad);
	stop(&s, res);
}

/* A committer whose caller flushes (a lease desk's): no group goes for the time since the
 * last, so a results call costs one pair of fsyncs. */
static void test_flushed_by_its_caller(void **state)
{
	struct timespec group = { 0, (COMMIT_GROUP_MS + 10) * 1000L * 1000L };
	struct results *res;
	struct seen s;
	struct committer *c = start_with(&s, &res, 1, true);

	(void)state;
	/* else the first game after a pause would go at once, and so would the second */
	assert_int_equal(add_game(c, 0), 0);
	nanosleep(&group, NULL);
	assert_int_equal(add_game(c, 1), 0);
	nanosleep(&group, NULL);
	assert_int_equal(counted_now(&s), 0);
	assert_int_equal(durable_games(s.dir), 0);
	assert_int_equal(committer_flush(c), 0);
	assert_int_equal(counted_now(&s), 2);
	assert_int_equal(durable_games(s.dir), 2);
	committer_finish(c);
	assert_false(s.bad);
	stop(&s, res);
}

static void test_failure_counts_nothing_more(void **state)
{
	struct results *res;
	struct seen s;
	struct committer *c = start(&s, &res, 0); /* no replays/: the pack cannot be made */

	(void)state;
	assert_int_equal(add_game(c, 0), -ENOENT);
	assert_int_equal(add_game(c, 1), -ENOENT);
	/* a flush says the games are not kept */
	assert_int_equal(committer_flush(c), -ENOENT);
	committer_finish(c);
	assert_int_equal(s.failures, 1);
	assert_int_equal(s.failed_code, -ENOENT);
	assert_string_equal(s.failed_what, "replays");
	assert_int_equal(s.counted, 0);
	assert_int_equal(durable_games(s.dir), 0);
	stop(&s, res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_by_size_and_finish),
		cmocka_unit_test(test_group_by_time),
		cmocka_unit_test(test_flush_durable_at_once),
		cmocka_unit_test(test_flushed_by_its_caller),
		cmocka_unit_test(test_failure_counts_nothing_more),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
