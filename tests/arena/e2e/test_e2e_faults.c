/*
 * test_e2e_faults.c - one small tournament per misbehaving bot (badbot MODE
 * beside two `badbot good`), run through the built skipbo-arena. Each must
 * record the right R11 fault kind against the misbehaving bot only, finish in
 * bounded wall time, and leave every other game's result intact. They run
 * with "replays": "faults": exactly the games with a fault have a replay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e.h"
#include "replay_find.h"

#define WALL_LIMIT_MS 30000

struct mode_case {
	const char *args;      /* badbot arguments, JSON array items */
	const char *kind;      /* the fault kind, NULL for none */
	int every_game;        /* faults in every game it plays (else: at least once) */
	const char *extra;     /* extra JSON for the bad bot (limits) */
	int startup_ms;        /* 0: STARTUP_MS */
};

/* Far above an idle start (a few ms), so that only a bot that never says hello
 * misses it; those that never do wait it out, so it stays short. */
#define STARTUP_MS 2000

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The record has a replay, read through it, if and only if want. */
static void expect_replay(const char *dir, const cJSON *rec, int want)
{
	char out[600], err[1024], id[64];
	size_t len;
	int code;
	char *text;

	snprintf(out, sizeof(out), "%s/out", dir);
	text = replay_find(out, str(rec, "id"), &len, &code, err, sizeof(err));
	if (!want) {
		assert_null(cJSON_GetObjectItem(rec, "replay"));
		assert_null(cJSON_GetObjectItem(rec, "replay_offset"));
		assert_null(text);
		assert_int_equal(code, -ENODATA);
		/* the message says which setting left the replay out */
		assert_non_null(strstr(err, "has no replay: the tournament's \"replays\" is"));
		return;
	}
	if (!text)
		fail_msg("game %s: %s", str(rec, "id"), err);
	assert_non_null(strstr(str(rec, "replay"), ".jsonl.zst"));
	assert_int_equal(replay_document_id(text, len, id, sizeof(id)), 0);
	assert_string_equal(id, str(rec, "id"));
	free(text);
}

/* In a new directory dir (tag names it): 2 deals of "good" against badbot
 * mode at stock 3, extra keys added to the tournament, run with -j 1; every
 * game recorded. */
static void run_pair(char dir[256], const char *tag, const char *mode, const char *extra)
{
	char text[1024];
	const char *args[] = { "run", "-j", "1", "--quiet", "t.json", NULL };

	e2e_tempdir(dir, 256, tag);
	snprintf(text, sizeof(text),
		 "{\"name\":\"f\",\"bots\":[{\"name\":\"good\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"%s\",\"command\":[\"%s\",\"%s\"]}],"
		 "\"deals\":2,\"rules\":{\"stock_size\":3},%s,\"output\":\"out\"}",
		 BADBOT_PATH, mode, BADBOT_PATH, mode, extra);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
}

/* "replays": "none": the records name none and none is written. */
static void test_replays_none(void **state)
{
	char dir[256], out[300];
	cJSON **recs;
	size_t n;

	(void)state;
	run_pair(dir, "noreplays", "illegal", "\"replays\":\"none\"");
	snprintf(out, sizeof(out), "%s/out", dir);
	n = e2e_records(out, &recs);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		expect_replay(dir, recs[i], 0);
	e2e_free_records(recs, n);
	e2e_remove(dir);
}

/* Run the tournament of case c and check its records. */
static void run_case(const struct mode_case *c)
{
	char dir[256], text[2048], out[300];
	const char *args[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	cJSON **recs;
	double secs;
	size_t n, bad_games = 0, faulted_games = 0;
	int status, never_started;

	e2e_tempdir(dir, sizeof(dir), "faults");
	snprintf(text, sizeof(text),
		 "{\"name\":\"f\",\"bots\":["
		 "{\"name\":\"good1\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"good2\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"bad\",\"command\":[\"%s\",%s]%s}],"
		 "\"players\":2,\"deals\":1,\"rules\":{\"stock_size\":3},"
		 "\"time\":{\"startup_ms\":%d,\"move_ms\":1000,\"game_ms\":10000},"
		 "\"stderr_cap\":10000,\"replays\":\"faults\",\"seed\":1,\"output\":\"out\"}",
		 BADBOT_PATH, BADBOT_PATH, BADBOT_PATH, c->args, c->extra ? c->extra : "",
		 c->startup_ms ? c->startup_ms : STARTUP_MS);
	e2e_write(dir, "t.json", text);
	status = e2e_run(dir, args, WALL_LIMIT_MS, &secs);
	/* every game recorded; a bot whose every game is a start fault makes it status 3 */
	never_started = c->kind && !strcmp(c->kind, "start") && c->every_game;
	if (status != (never_started ? 3 : 0))
		fail_msg("mode %s: skipbo-arena exited %d after %.1f s", c->args, status, secs);
	snprintf(out, sizeof(out), "%s/out", dir);
	n = e2e_records(out, &recs);
	assert_int_equal(n, 6); /* 3 tables x 1 deal x 2 rotations */
	for (size_t i = 0; i < n; i++) {
		const cJSON *bots = cJSON_GetObjectItem(recs[i], "bots");
		const cJSON *faults = cJSON_GetObjectItem(recs[i], "faults"), *f;
		int bad_seat = -1, nf = cJSON_GetArraySize(faults);

		for (int s = 0; s < 2; s++)
			if (!strcmp(cJSON_GetArrayItem(bots, s)->valuestring, "bad"))
				bad_seat = s;
		expect_replay(dir, recs[i], nf > 0);
		if (bad_seat < 0) {
			/* good1 against good2: untouched by the misbehaviour next door */
			assert_int_equal(nf, 0);
			assert_string_equal(str(recs[i], "reason"), "stock_emptied");
			assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(recs[i], "winners")), 1);
			continue;
		}
		bad_games++;
		cJSON_ArrayForEach(f, faults) {
			/* only the misbehaving bot is ever blamed, with the right kind */
			assert_string_equal(str(f, "bot"), "bad");
			assert_int_equal(cJSON_GetObjectItem(f, "seat")->valueint, bad_seat);
			if (!c->kind)
				fail_msg("mode %s: unexpected fault %s: %s", c->args, str(f, "kind"),
					 str(f, "reason"));
			assert_string_equal(str(f, "kind"), c->kind);
			assert_true(strlen(str(f, "reason")) > 0);
		}
		if (nf) {
			faulted_games++;
			assert_int_equal(nf, 1);
			/* R11: the faulty seat is placed last, the other wins */
			assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(recs[i], "winners"), 0)->valueint,
					 1 - bad_seat);
			assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(recs[i], "placings"),
							    bad_seat)->valueint, 2);
		}
	}
	assert_int_equal(bad_games, 4);
	if (c->kind && c->every_game)
		assert_int_equal(faulted_games, 4);
	else if (c->kind)
		assert_true(faulted_games >= 1);
	e2e_free_records(recs, n);
	e2e_remove(dir);
}

#define CASE_STARTUP(name, args, kind, every, extra, startup_ms) \
	static void name(void **state) \
	{ \
		static const struct mode_case c = { args, kind, every, extra, startup_ms }; \
		(void)state; \
		run_case(&c); \
	}

#define CASE(name, args, kind, every, extra) CASE_STARTUP(name, args, kind, every, extra, 0)

CASE(test_exit_at_start, "\"exit-at-start\"", "start", 1, NULL)
CASE(test_no_hello, "\"no-hello\"", "start", 1, NULL)
CASE(test_never_answer, "\"never-answer\"", "timeout", 1, NULL)
CASE(test_late, "\"late\",\"1500\"", "timeout", 1, NULL)
CASE(test_garbage, "\"garbage\"", "malformed", 1, NULL)
CASE(test_huge_line, "\"huge-line\"", "malformed", 1, NULL)
CASE(test_close_stdout, "\"close-stdout\"", "closed", 1, NULL)
CASE(test_no_read, "\"no-read\"", "start", 1, NULL)
CASE(test_die_midgame, "\"die-midgame\",\"1\"", "exit", 0, NULL)
CASE(test_die_by_signal, "\"die-midgame\",\"1\",\"sig11\"", "exit", 0, NULL)
CASE(test_fork_holder, "\"fork-holder\"", "exit", 1, NULL)
CASE(test_illegal, "\"illegal\"", "illegal", 1, NULL)
CASE(test_wrong_type, "\"wrong-type\"", "protocol", 1, NULL)
CASE(test_fork_bomb, "\"fork-bomb\",\"50\"", NULL, 0, ",\"limits\":{\"processes\":20}")
/* it touches its whole 64 MiB before its hello: seconds on a loaded machine */
CASE_STARTUP(test_memory_hog, "\"memory-hog\"", NULL, 0, ",\"limits\":{\"memory_mb\":64}", 30000)

static void test_stderr_flood_capped(void **state)
{
	char dir[256], path[300];
	struct stat st;
	size_t len;
	char *log;

	(void)state;
	run_pair(dir, "flood", "stderr-flood", "\"stderr_cap\":10000,\"processes\":\"reuse\"");
	snprintf(path, sizeof(path), "%s/out/logs/stderr-flood.stderr", dir);
	assert_int_equal(stat(path, &st), 0);
	/* reused: one process for all four games (-j 1, no faults): one cap and the mark */
	assert_true(st.st_size >= 10000 && st.st_size <= 10100);
	log = e2e_read(path, &len);
	assert_non_null(strstr(log, "[log truncated]"));
	free(log);
	snprintf(path, sizeof(path), "%s/out", dir);
	{
		cJSON **recs;
		size_t n = e2e_records(path, &recs);

		assert_int_equal(n, 4);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(recs[i], "faults")), 0);
		e2e_free_records(recs, n);
	}
	e2e_remove(dir);
}

/* The games of records recs[0..n) in which bot made a move, as bits. */
static size_t games_moved_in(cJSON **recs, size_t n, const char *bot)
{
	size_t moved = 0;

	for (size_t i = 0; i < n; i++) {
		const cJSON *bots = cJSON_GetObjectItem(recs[i], "bots");

		for (int s = 0; s < cJSON_GetArraySize(bots); s++) {
			const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(recs[i], "time"), s);

			if (!strcmp(cJSON_GetArrayItem(bots, s)->valuestring, bot) &&
			    cJSON_GetObjectItem(t, "moves")->valueint > 0)
				moved |= (size_t)1 << i;
		}
	}
	return moved;
}

/*
 * With -j 2 two processes of one bot write one log at once: each line is
 * tagged with its process and the game it came in, and the games named are
 * exactly the recorded games in which that bot was asked for a move (at
 * stock 3 the first player can win before the second is asked: the seed is
 * one where chatty is asked in each of its 8 games). Each game has a fresh
 * process: a process's lines name one game. With --log-io the replays carry
 * each decision's lines.
 */
static void test_stderr_lines_tagged(void **state)
{
	char dir[256], text[1024], path[300], pid[16][32], pid_game[16][64];
	const char *args[] = { "run", "-j", "2", "--quiet", "--log-io", "t.json", NULL };
	char *log, *line, *save = NULL, *replay, err[1024];
	cJSON **recs;
	size_t len, n, tagged_games = 0, lines = 0, npids = 0;
	int code;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "tags");
	snprintf(text, sizeof(text),
		 "{\"name\":\"t\",\"bots\":[{\"name\":\"chatty\",\"command\":[\"%s\",\"chatty\"]},"
		 "{\"name\":\"good\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"good2\",\"command\":[\"%s\",\"good\"]}],"
		 "\"deals\":2,\"rules\":{\"stock_size\":3},\"seed\":1,\"output\":\"out\"}",
		 BADBOT_PATH, BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
	snprintf(path, sizeof(path), "%s/out/logs/chatty.stderr", dir);
	log = e2e_read(path, &len);
	assert_non_null(log);
	snprintf(path, sizeof(path), "%s/out", dir);
	n = e2e_records(path, &recs);
	assert_int_equal(n, 12);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char game[64] = "", proc[32];

		lines++;
		if (sscanf(line, "[pid %31[0-9]] chatty: started", proc) != 1 &&
		    sscanf(line, "[%63s pid %31[0-9]] chatty: ", game, proc) != 2)
			fail_msg("untagged line in the log: \"%s\"", line);
		if (!game[0])
			continue;
		{
			size_t k = 0;

			while (k < npids && strcmp(pid[k], proc))
				k++;
			if (k == npids) {
				assert_true(npids < 16);
				strlcpy(pid[npids], proc, sizeof(pid[0]));
				strlcpy(pid_game[npids++], game, sizeof(pid_game[0]));
			} else if (strcmp(pid_game[k], game)) {
				fail_msg("process %s wrote in games %s and %s", proc, pid_game[k], game);
			}
		}
		/* a game of chatty's, recorded */
		for (size_t i = 0; i < n; i++) {
			const cJSON *id = cJSON_GetObjectItem(recs[i], "id");
			char *bots = cJSON_PrintUnformatted(cJSON_GetObjectItem(recs[i], "bots"));

			if (!strcmp(id->valuestring, game)) {
				if (!strstr(bots, "\"chatty\""))
					fail_msg("line of game %s, where chatty did not play", game);
				tagged_games |= (size_t)1 << i;
			}
			free(bots);
		}
	}
	/* a process a game; every game chatty was asked in (8 of 12) in the log */
	assert_int_equal(tagged_games, games_moved_in(recs, n, "chatty"));
	assert_int_equal(npids, 8);
	assert_int_equal(__builtin_popcountll(tagged_games), 8);
	assert_true(lines > 16);
	/* --log-io: each decision's lines in the replay too */
	snprintf(path, sizeof(path), "%s/out", dir);
	replay = replay_find(path, "t0000-d0000-r0", &len, &code, err, sizeof(err));
	if (!replay)
		fail_msg("%s", err);
	assert_non_null(strstr(replay, ",\"stderr\":\"chatty: request 1 of turn 1\\u000achatty: esc "
			       "\\u001b[2J bell \\u0007 tab \\u0009 end\"}"));
	free(replay);
	e2e_free_records(recs, n);
	free(log);
	e2e_remove(dir);
}

static void test_bad_config_refused_before_running(void **state)
{
	char dir[256], path[300];
	const char *args[] = { "run", "t.json", NULL };
	struct stat st;
	char *err;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "config");
	e2e_write(dir, "t.json", "{\"name\":\"c\",\"bots\":[{\"name\":\"a\",\"command\":[\"./nope\"]},"
		  "{\"name\":\"b\",\"command\":[\"./nope\"]}],\"output\":\"out\"}");
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 1);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	err = e2e_read(path, NULL);
	assert_non_null(strstr(err, "bots[0].command: no such file"));
	free(err);
	snprintf(path, sizeof(path), "%s/out", dir);
	assert_int_equal(stat(path, &st), -1); /* nothing ran, nothing written */
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_at_start),
		cmocka_unit_test(test_no_hello),
		cmocka_unit_test(test_never_answer),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_close_stdout),
		cmocka_unit_test(test_no_read),
		cmocka_unit_test(test_die_midgame),
		cmocka_unit_test(test_die_by_signal),
		cmocka_unit_test(test_fork_holder),
		cmocka_unit_test(test_illegal),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_fork_bomb),
		cmocka_unit_test(test_memory_hog),
		cmocka_unit_test(test_stderr_flood_capped),
		cmocka_unit_test(test_stderr_lines_tagged),
		cmocka_unit_test(test_replays_none),
		cmocka_unit_test(test_bad_config_refused_before_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
