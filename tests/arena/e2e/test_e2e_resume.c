/*
 * test_e2e_resume.c - kill -9 at random points, re-run the same command, and
 * end with the same set of games (all fields but timings) as a run that was
 * never interrupted: no game lost, none twice, a torn last line ignored.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define GAMES 240 /* C(4,2) tables x 20 deals x 2 rotations */
/* A run's hang guard: far above the seconds it takes, however loaded the machine. */
#define RUN_GUARD_MS 300000

static void write_tournament(const char *dir)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"name\":\"r\",\"bots\":["
		 "{\"name\":\"a\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"c\",\"command\":[\"%s\",\"illegal\"]},"
		 "{\"name\":\"d\",\"command\":[\"%s\",\"good\"]}],"
		 "\"players\":2,\"deals\":20,\"rules\":{\"stock_size\":4},\"seed\":77,"
		 /* limits no move comes near on a loaded machine: the runs compared must
		  * not differ by a timeout */
		 "\"time\":{\"move_ms\":30000,\"game_ms\":1800000,\"startup_ms\":60000},"
		 "\"output\":\"out\"}", BADBOT_PATH, BADBOT_PATH, BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
}

/* Complete records in games.jsonl (its newlines); 0 while it does not exist. */
static size_t count_records(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;
	int c;

	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/*
 * Let the running tournament append `more` records (or end), then a random
 * 0-2 ms more, so that the kill lands anywhere: between games, in the middle
 * of one, or during a write. Waiting on progress instead of wall time keeps
 * every kill inside the tournament however slow the machine is.
 */
static void wait_for_progress(const char *path, pid_t pid, size_t more)
{
	size_t target = count_records(path) + more;
	struct timespec tick = { 0, 1000000L };
	struct timespec jitter = { 0, (long)(rand() % 2000) * 1000L };

	if (target >= GAMES)
		target = GAMES - 1;
	for (int ms = 0; ms < 60000 && count_records(path) < target && kill(pid, 0) == 0; ms++)
		nanosleep(&tick, NULL);
	nanosleep(&jitter, NULL);
}

static void test_resume_after_kill9(void **state)
{
	const char *args[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	char ref[256], dir[256], out[300], path[400];
	char **want, **got;
	size_t nwant, ngot;
	int status = -1, kills = 0, torn = 0, partial = 0;

	(void)state;
	srand(12345);
	e2e_tempdir(ref, sizeof(ref), "resume-ref");
	write_tournament(ref);
	assert_int_equal(e2e_run(ref, args, RUN_GUARD_MS, NULL), 0);
	snprintf(out, sizeof(out), "%s/out", ref);
	want = e2e_canonical_lines(out, &nwant);
	assert_int_equal(nwant, GAMES);

	e2e_tempdir(dir, sizeof(dir), "resume");
	write_tournament(dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(path, sizeof(path), "%s/games.jsonl", out);
	for (int attempt = 0; attempt < 100 && status != 0; attempt++) {
		pid_t pid = e2e_start(dir, args);

		/* a handful of kills at random points, then let it finish */
		if (kills < 6) {
			wait_for_progress(path, pid, 1 + (size_t)(rand() % 30));
			if (kill(pid, SIGKILL) == 0)
				kills++;
		}
		status = e2e_wait(pid, RUN_GUARD_MS, NULL);
		assert_true(status == 0 || status == 128 + SIGKILL);
		if (status != 0) {
			cJSON **recs;
			size_t n = e2e_records(out, &recs);

			/* killed with part of the tournament on disk */
			partial += n > 0 && n < GAMES;
			e2e_free_records(recs, n);
		}
		if (status != 0 && !torn) {
			/* as if the kill had come in the middle of a write */
			FILE *f = fopen(path, "a");
			assert_non_null(f);
			fputs("{\"id\":\"t0000-d0000-r0\",\"table\":0,\"dea", f);
			fclose(f);
			torn = 1;
		}
	}
	assert_int_equal(status, 0);
	assert_true(kills >= 3);
	assert_true(partial >= 2);
	got = e2e_canonical_lines(out, &ngot);
	assert_int_equal(ngot, GAMES);
	for (size_t i = 0; i < ngot; i++)
		assert_string_equal(got[i], want[i]);
	/* every record has its replay where the record says, whatever the kills cut off */
	{
		cJSON **recs;
		size_t n = e2e_records(out, &recs), len;

		assert_int_equal(n, GAMES);
		for (size_t i = 0; i < n; i++) {
			char *text = e2e_replay(out, recs[i], &len), want_id[64];

			assert_non_null(text);
			snprintf(want_id, sizeof(want_id), "\"id\":\"%s\"",
				 cJSON_GetObjectItem(recs[i], "id")->valuestring);
			assert_non_null(strstr(text, want_id));
			assert_int_equal(text[len - 1], '\n');
			free(text);
		}
		e2e_free_records(recs, n);
	}
	e2e_free_lines(want, nwant);
	e2e_free_lines(got, ngot);
	e2e_remove(ref);
	e2e_remove(dir);
}

static void test_resume_refuses_other_tournament(void **state)
{
	const char *args[] = { "run", "--quiet", "t.json", NULL };
	const char *other_seed[] = { "run", "--quiet", "--seed", "78", "t.json", NULL };
	char dir[256], path[300], *err;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "resume-guard");
	write_tournament(dir);
	assert_int_equal(e2e_run(dir, args, RUN_GUARD_MS, NULL), 0);
	assert_int_equal(e2e_run(dir, other_seed, RUN_GUARD_MS, NULL), 1);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	err = e2e_read(path, NULL);
	assert_non_null(strstr(err, "different tournament"));
	free(err);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resume_after_kill9),
		cmocka_unit_test(test_resume_refuses_other_tournament),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
