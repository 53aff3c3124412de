/*
 * test_e2e_formats.c - the tournament formats and ways of running one, as a
 * person types them: a gauntlet from a file and from --bot options, the
 * ranking every N games, Ctrl-C with a partial report and the command that
 * resumes, the cutechess spelling of -j, contradictory options.
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

#define TIMEOUT_MS 60000

/* dir/name's text (the test fails without it); free it. */
static char *read_in(const char *dir, const char *name)
{
	char path[4096];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = e2e_read(path, NULL);
	if (!text)
		fail_msg("no file %s", path);
	return text;
}

static int occurrences(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* A gauntlet file: every game seats the challenger, and the report ranks it against the field. */
static void test_gauntlet_file(void **state)
{
	const char *args[] = { "run", "-j", "2", "--sandbox", "off", "g.json", NULL };
	char dir[256], text[2048], out[300], *ratings, *md;
	cJSON **recs;
	size_t n;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "formats");
	snprintf(text, sizeof(text),
		 "{\"name\":\"g\",\"format\":\"gauntlet\",\"challengers\":[\"c\"],\"bots\":["
		 "{\"name\":\"a\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"c\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"d\",\"command\":[\"%s\",\"good\"]}],"
		 "\"deals\":3,\"rules\":{\"stock_size\":3},\"output\":\"out\"}",
		 BADBOT_PATH, BADBOT_PATH, BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "g.json", text);
	assert_int_equal(e2e_run(dir, args, TIMEOUT_MS, NULL), 0);
	snprintf(out, sizeof(out), "%s/out", dir);
	n = e2e_records(out, &recs);
	assert_int_equal(n, 3 * 3 * 2); /* c against a, b, d; 3 deals; 2 rotations */
	for (size_t i = 0; i < n; i++) {
		const cJSON *bots = cJSON_GetObjectItemCaseSensitive(recs[i], "bots"), *b;
		int seats_c = 0;

		cJSON_ArrayForEach(b, bots)
			seats_c += cJSON_IsString(b) && strcmp(b->valuestring, "c") == 0;
		assert_int_equal(seats_c, 1);
	}
	e2e_free_records(recs, n);
	ratings = read_in(out, "ratings.json");
	assert_non_null(strstr(ratings, "\"challengers\""));
	assert_non_null(strstr(ratings, "\"field_score\""));
	md = read_in(out, "report.md");
	assert_non_null(strstr(md, "## Challengers against the field"));
	free(md);
	md = read_in(out, "report.html");
	assert_non_null(strstr(md, "<table id=\"challengers\">"));
	free(md);
	free(ratings);
	md = read_in(dir, "stdout.txt");
	assert_non_null(strstr(md, "challengers against the field (gauntlet):"));
	free(md);
	/* report -o creates the directory it is asked to write, parents too */
	{
		const char *args_report[] = { "report", "-q", "-o", "new/deeper", "out", NULL };

		assert_int_equal(e2e_run(dir, args_report, TIMEOUT_MS, NULL), 0);
		snprintf(out, sizeof(out), "%s/new/deeper", dir);
		md = read_in(out, "ratings.json");
		free(md);
	}
	e2e_remove(dir);
}

/* --bot without a file, a gauntlet by --gauntlet; its tournament.json runs it again. */
static void test_bot_options(void **state)
{
	char dir[256], a[300], b[300], c[300], path[400], *json, *out;
	const char *args[] = { "run", "--bot", a, "--bot", b, "--bot", c, "--gauntlet", "b",
			       "--deals", "2", "--stock", "3", "--sandbox", "off",
			       "--rating-interval", "3", "-concurrency", "2", NULL };
	const char *again[] = { "run", "--sandbox", "off", "results/quick/tournament.json", NULL };
	cJSON **recs;
	size_t n;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "formats");
	snprintf(a, sizeof(a), "a=%s good", BADBOT_PATH);
	snprintf(b, sizeof(b), "b=%s good", BADBOT_PATH);
	snprintf(c, sizeof(c), "c=%s good", BADBOT_PATH);
	assert_int_equal(e2e_run(dir, args, TIMEOUT_MS, NULL), 0);
	snprintf(path, sizeof(path), "%s/results/quick", dir);
	n = e2e_records(path, &recs);
	assert_int_equal(n, 2 * 2 * 2); /* b against a and c */
	e2e_free_records(recs, n);
	json = read_in(path, "tournament.json");
	assert_non_null(strstr(json, "\"gauntlet\""));
	assert_non_null(strstr(json, "\"stock_size\":\t3"));
	free(json);
	out = read_in(dir, "stdout.txt");
	assert_non_null(strstr(out, "(the tournament file: results/quick/tournament.json)"));
	/* 8 games, a ranking every 3: after 3 and 6 */
	assert_int_equal(occurrences(out, "ranking after "), 2);
	assert_non_null(strstr(out, "ranking after 6 games played:"));
	free(out);
	/* the written file is the tournament: running it finds every game recorded */
	assert_int_equal(e2e_run(dir, again, TIMEOUT_MS, NULL), 0);
	out = read_in(dir, "stdout.txt");
	assert_non_null(strstr(out, "8 of 8 games already recorded"));
	free(out);
	e2e_remove(dir);
}

/* Mistakes on the command line are named: --bot, contradictions, a value out of range. */
static void test_bot_option_mistakes(void **state)
{
	const char *no_eq[] = { "run", "--bot", "just-a-name", "--bot", "b=/bin/true", NULL };
	const char *file_too[] = { "run", "--bot", "a=/bin/true", "t.json", NULL };
	const char *players_alone[] = { "run", "--players", "3", "t.json", NULL };
	const char *contradiction[] = { "run", "--no-timeout", "--move-ms", "100", "t.json", NULL };
	const char *alpha[] = { "sprt", "--alpha", "2", "a", "b", NULL };
	const char *prior[] = { "report", "--prior", "-1", "out", NULL };
	const char *challenger[] = { "run", "--bot", "a=/bin/true", "--bot", "b=/bin/true",
				     "--gauntlet", "ab", NULL };
	const char *play_rules[] = { "play", "--partnership", "a", "b", "c", NULL };
	const char *play_contradiction[] = { "play", "--game-ms", "50", "--no-timeout", "a", "b",
					     NULL };
	char dir[256], *err;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "formats");
	assert_int_equal(e2e_run(dir, no_eq, TIMEOUT_MS, NULL), 1);
	assert_int_equal(e2e_run(dir, file_too, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, players_alone, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, contradiction, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, alpha, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, prior, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, challenger, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, play_contradiction, TIMEOUT_MS, NULL), 2);
	assert_int_equal(e2e_run(dir, play_rules, TIMEOUT_MS, NULL), 2);
	err = read_in(dir, "stderr.txt");
	assert_non_null(strstr(err, "--bot \"just-a-name\": expected NAME=COMMAND"));
	assert_non_null(strstr(err, "a tournament file (\"t.json\") and --bot"));
	assert_non_null(strstr(err, "--players needs --bot"));
	assert_non_null(strstr(err, "run: --no-timeout and --move-ms contradict each other"));
	assert_non_null(strstr(err, "play: --no-timeout and --game-ms contradict each other"));
	assert_non_null(strstr(err, "play: 3 bots with --partnership: impossible rules: "));
	assert_non_null(strstr(err, "--alpha: expected a number above 0 and below 0.5, got \"2\""));
	assert_non_null(strstr(err, "--prior: expected a number from 0 to 1000000, got \"-1\""));
	assert_non_null(strstr(err, "run: --gauntlet \"ab\": no --bot of that name (--bot "
			       "ab=COMMAND)\n"));
	free(err);
	e2e_remove(dir);
}

/* Complete records in dir/out/games.jsonl. */
static size_t records_now(const char *dir)
{
	char path[512], *text;
	int n;

	snprintf(path, sizeof(path), "%s/out/games.jsonl", dir);
	if (!(text = e2e_read(path, NULL)))
		return 0;
	n = occurrences(text, "\n");
	free(text);
	return (size_t)n;
}

/*
 * Ctrl-C or SIGTERM (sig): the games in flight end, the report of those played says partial,
 * the command resumes.
 */
static void stop_partial_report(int sig)
{
	const char *args[] = { "run", "-j", "2", "--sandbox", "off", "t.json", NULL };
	struct timespec tick = { 0, 5000000L };
	char dir[256], text[2048], out[300], *err, *ratings;
	size_t before;
	pid_t pid;

	e2e_tempdir(dir, sizeof(dir), "formats");
	snprintf(text, sizeof(text),
		 "{\"name\":\"s\",\"bots\":["
		 "{\"name\":\"a\",\"command\":[\"%s\",\"late\",\"2\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"late\",\"2\"]}],"
		 "\"deals\":500,\"rules\":{\"stock_size\":3},\"output\":\"out\"}",
		 BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
	pid = e2e_start(dir, args);
	for (int i = 0; i < 6000 && records_now(dir) < 4; i++)
		nanosleep(&tick, NULL);
	assert_true(records_now(dir) >= 4);
	kill(pid, sig);
	assert_int_equal(e2e_wait(pid, TIMEOUT_MS, NULL), 1);
	before = records_now(dir);
	assert_true(before < 1000);
	err = read_in(dir, "stderr.txt");
	assert_non_null(strstr(err, "marked partial"));
	assert_non_null(strstr(err, "resume with: skipbo-arena run -j 2 --sandbox off t.json\n"));
	free(err);
	snprintf(out, sizeof(out), "%s/out", dir);
	ratings = read_in(out, "ratings.json");
	assert_non_null(strstr(ratings, "\"partial\":\ttrue"));
	free(ratings);
	e2e_remove(dir);
}

static void test_interrupt_partial_report(void **state)
{
	(void)state;
	stop_partial_report(SIGINT);
}

static void test_sigterm_partial_report(void **state)
{
	(void)state;
	stop_partial_report(SIGTERM);
}

/* What one run of args in dir, exiting with status, writes to name ("stdout.txt" or
 * "stderr.txt", which e2e_start appends to); free it. */
static char *output_of(const char *dir, const char *const *args, int status, const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	unlink(path);
	assert_int_equal(e2e_run(dir, args, TIMEOUT_MS, NULL), status);
	return read_in(dir, name);
}

/* --version among other options; -j and --concurrency where games are played one at a time. */
static void test_version_and_concurrency(void **state)
{
	const char *version[][5] = {
		{ "run", "-q", "--version", NULL }, { "play", "--seed", "3", "--version", NULL },
		{ "report", "-q", "--version", NULL }, { "replay", "-r", "--version", NULL },
		{ "merge", "--partial", "--version", NULL }, { "status", "--version", NULL },
		{ "serve", "--listen", "127.0.0.1:0", "--version", NULL },
		{ "sprt", "-q", "--version", NULL }, { "check", "-v", "--version", NULL },
	};
	const char *one_at_a_time[][6] = {
		{ "play", "--concurrency", "4", "a", "b", NULL },
		{ "check", "-j", "2", "a", NULL },
	};
	const char *expected[] = {
		"play: --concurrency: play plays its games one at a time; only run plays several "
		"at once (run -j N)\n",
		"check: -j: check plays its games one at a time;",
	};
	const char *top[] = { "--version", NULL };
	char dir[256], *text, *want;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "formats");
	want = output_of(dir, top, 0, "stdout.txt");
	assert_true(strncmp(want, "skipbo-arena ", 13) == 0);
	for (size_t i = 0; i < sizeof(version) / sizeof(version[0]); i++) {
		text = output_of(dir, version[i], 0, "stdout.txt");
		assert_string_equal(text, want);
		free(text);
	}
	free(want);
	for (size_t i = 0; i < sizeof(one_at_a_time) / sizeof(one_at_a_time[0]); i++) {
		text = output_of(dir, one_at_a_time[i], 2, "stderr.txt");
		assert_non_null(strstr(text, expected[i]));
		/* the reason, not the usage text */
		assert_null(strstr(text, "usage:"));
		free(text);
	}
	e2e_remove(dir);
}

/* A script without #! is a start fault saying so; its bot never started: exit status 3. */
static void test_script_without_shebang(void **state)
{
	const char *args[] = { "run", "--sandbox", "off", "-j", "1", "t.json", NULL };
	char dir[256], text[2048], path[300], *err, *games;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "formats");
	e2e_write(dir, "bot.py", "import sys\nprint('no #! line above')\n");
	snprintf(path, sizeof(path), "%s/bot.py", dir);
	assert_int_equal(chmod(path, 0755), 0);
	snprintf(text, sizeof(text),
		 "{\"name\":\"n\",\"bots\":["
		 "{\"name\":\"script\",\"command\":[\"./bot.py\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"good\"]}],"
		 "\"deals\":2,\"rules\":{\"stock_size\":3},\"output\":\"out\"}", BADBOT_PATH);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, args, TIMEOUT_MS, NULL), 3);
	err = read_in(dir, "stderr.txt");
	assert_non_null(strstr(err, "1 bot never started"));
	free(err);
	snprintf(path, sizeof(path), "%s/out", dir);
	games = read_in(path, "games.jsonl");
	assert_int_equal(occurrences(games, "a script needs a first line such as #!/bin/sh"), 4);
	free(games);
	e2e_remove(dir);
}

/* play with no bot able to start: no game, no winner, exit status 1. */
static void test_play_nobody_started(void **state)
{
	char dir[256], *out;
	const char *args[] = { "play", "--pin", "99", "--sandbox", "off", BADBOT_PATH,
			       BADBOT_PATH, NULL };

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "formats");
	assert_int_equal(e2e_run(dir, args, TIMEOUT_MS, NULL), 1);
	out = read_in(dir, "stdout.txt");
	assert_non_null(strstr(out, "result: no game: no bot could start\nwinners: none\n"));
	assert_null(strstr(out, "placing 1"));
	free(out);
	out = read_in(dir, "stderr.txt");
	assert_non_null(strstr(out, "--pin 99: not a CPU this process may use"));
	free(out);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gauntlet_file),
		cmocka_unit_test(test_bot_options),
		cmocka_unit_test(test_bot_option_mistakes),
		cmocka_unit_test(test_interrupt_partial_report),
		cmocka_unit_test(test_sigterm_partial_report),
		cmocka_unit_test(test_version_and_concurrency),
		cmocka_unit_test(test_script_without_shebang),
		cmocka_unit_test(test_play_nobody_started),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
