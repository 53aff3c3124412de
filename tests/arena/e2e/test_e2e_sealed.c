/*
 * test_e2e_sealed.c - what a bot cannot know of a tournament, end to end:
 * - with no seed given, a run draws a random one and records it in
 *   tournament.json; a resume plays on with that seed; --seed-file and
 *   SKIPBO_SEED give one off the command line; --seed on the command line of
 *   a sandboxed run is warned about; a shard needs a seed given;
 * - the game id a bot is told names no table, deal or rotation (the records
 *   and replays keep the real ids), is the same for the same seed, and
 *   `play --game-id ID` still tells exactly ID;
 * - every game gets fresh bot processes, unless "processes": "reuse" (or
 *   --reuse-processes) says otherwise, which tournament.json records and the
 *   reports say;
 * - a process gets quit and time to exit after its game, sandboxed or not:
 *   its last words reach its log.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define WALL_LIMIT_MS 60000
#define GAMES 12 /* 3 tables x 2 deals x 2 rotations */

static const char *tournament(char *text, size_t size, const char *extra)
{
	snprintf(text, size,
		 "{\"name\":\"s\",\"bots\":[{\"name\":\"chatty\",\"command\":[\"%s\",\"chatty\"]},"
		 "{\"name\":\"good\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"good2\",\"command\":[\"%s\",\"good\"]}],"
		 "\"deals\":2,\"rules\":{\"stock_size\":3},\"output\":\"out\"%s}",
		 BADBOT_PATH, BADBOT_PATH, BADBOT_PATH, extra);
	return text;
}

/* The "seed" of dir/out/tournament.json (a decimal string), and its "processes" into mode. */
static uint64_t recorded_seed(const char *dir, char *mode, size_t size)
{
	char path[300], *text;
	cJSON *root;
	uint64_t seed;

	snprintf(path, sizeof(path), "%s/out/tournament.json", dir);
	assert_non_null(text = e2e_read(path, NULL));
	assert_non_null(root = cJSON_Parse(text));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(root, "seed")));
	seed = strtoull(cJSON_GetObjectItem(root, "seed")->valuestring, NULL, 10);
	if (mode)
		snprintf(mode, size, "%s", cJSON_GetObjectItem(root, "processes")->valuestring);
	cJSON_Delete(root);
	free(text);
	return seed;
}

/* Run t.json (written from extra) in a new dir with args; the exit status must be want. */
static void run_in(char dir[256], const char *tag, const char *extra, const char *const *args,
		   int want)
{
	char text[2048];

	e2e_tempdir(dir, 256, tag);
	e2e_write(dir, "t.json", tournament(text, sizeof(text), extra));
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), want);
}

static void test_random_seed_recorded_and_resumed(void **state)
{
	const char *args[] = { "run", "-j", "2", "--quiet", "--no-report", "t.json", NULL };
	char one[256], two[256], path[300], *games, *cut;
	uint64_t seed;
	cJSON **recs;
	size_t n;

	(void)state;
	run_in(one, "seed1", "", args, 0);
	run_in(two, "seed2", "", args, 0);
	seed = recorded_seed(one, NULL, 0);
	/* 2^-64 chances aside, two random draws differ, and neither is the old default */
	assert_true(seed != recorded_seed(two, NULL, 0));
	assert_true(seed != 1);
	/* half the games lost: the resume plays them with the recorded seed */
	snprintf(path, sizeof(path), "%s/out/games.jsonl", one);
	assert_non_null(games = e2e_read(path, NULL));
	cut = games;
	for (int i = 0; i < GAMES / 2; i++)
		cut = strchr(cut, '\n') + 1;
	*cut = '\0';
	e2e_write(one, "out/games.jsonl", games);
	free(games);
	assert_int_equal(e2e_run(one, args, WALL_LIMIT_MS, NULL), 0);
	assert_true(recorded_seed(one, NULL, 0) == seed);
	snprintf(path, sizeof(path), "%s/out", one);
	n = e2e_records(path, &recs);
	assert_int_equal(n, GAMES);
	/* the rotations of a deal, one recorded by each run, share its deal seed */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++)
			if (cJSON_GetObjectItem(recs[i], "table")->valueint ==
			    cJSON_GetObjectItem(recs[k], "table")->valueint &&
			    cJSON_GetObjectItem(recs[i], "deal")->valueint ==
			    cJSON_GetObjectItem(recs[k], "deal")->valueint)
				assert_true(cJSON_GetObjectItem(recs[i], "seed")->valuedouble ==
					    cJSON_GetObjectItem(recs[k], "seed")->valuedouble);
	e2e_free_records(recs, n);
	e2e_remove(one);
	e2e_remove(two);
}

/* The shards of a tournament must share its seed: a shard without one is refused. */
static void test_shard_needs_a_seed(void **state)
{
	const char *args[] = { "run", "--quiet", "--no-report", "--shard", "1/2", "t.json", NULL };
	char dir[256], path[300], *err;

	(void)state;
	run_in(dir, "shardseed", "", args, 2);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	assert_non_null(err = e2e_read(path, NULL));
	assert_non_null(strstr(err, "--shard: the shards of a tournament deal with one seed"));
	free(err);
	e2e_remove(dir);
	run_in(dir, "shardseed2", ",\"seed\":8", args, 0);
	e2e_remove(dir);
}

static void test_seed_off_the_command_line(void **state)
{
	const char *file_args[] = { "run", "--quiet", "--no-report", "--seed-file", "seed.txt",
		"t.json", NULL };
	const char *env_args[] = { "run", "--quiet", "--no-report", "t.json", NULL };
	const char *cmdline_args[] = { "run", "--quiet", "--no-report", "--sandbox", "on",
		"--seed", "5", "t.json", NULL };
	char dir[256], path[300], text[2048], *err;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "seedfile");
	e2e_write(dir, "seed.txt", "0xfeedface\n");
	e2e_write(dir, "t.json", tournament(text, sizeof(text), ""));
	assert_int_equal(e2e_run(dir, file_args, WALL_LIMIT_MS, NULL), 0);
	assert_true(recorded_seed(dir, NULL, 0) == 0xfeedfaceu);
	e2e_remove(dir);

	setenv("SKIPBO_SEED", "123456789", 1);
	run_in(dir, "seedenv", "", env_args, 0);
	unsetenv("SKIPBO_SEED");
	assert_true(recorded_seed(dir, NULL, 0) == 123456789u);
	e2e_remove(dir);

	/* on the command line of a sandboxed run: a warning (where the sandbox works) */
	e2e_tempdir(dir, sizeof(dir), "seedwarn");
	e2e_write(dir, "t.json", tournament(text, sizeof(text), ""));
	if (e2e_run(dir, cmdline_args, WALL_LIMIT_MS, NULL) == 0) {
		snprintf(path, sizeof(path), "%s/stderr.txt", dir);
		assert_non_null(err = e2e_read(path, NULL));
		assert_non_null(strstr(err, "warning: --seed on the command line"));
		assert_non_null(strstr(err, "--seed-file FILE or SKIPBO_SEED"));
		free(err);
		assert_true(recorded_seed(dir, NULL, 0) == 5);
	}
	e2e_remove(dir);
}

/* The "game" of every game_start line in dir/out/io/ *.log, and the file's game id. */
static size_t told_ids(const char *dir, char told[][64], char real[][64], size_t max)
{
	char io[300], path[600], *text, *at;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(io, sizeof(io), "%s/out/io", dir);
	assert_non_null(d = opendir(io));
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", io, de->d_name);
		assert_non_null(text = e2e_read(path, NULL));
		assert_non_null(at = strstr(text, "{\"type\":\"game_start\",\"game\":\""));
		sscanf(at + strlen("{\"type\":\"game_start\",\"game\":\""), "%63[^\"]", told[n]);
		snprintf(real[n], 64, "%.*s", (int)(strlen(de->d_name) - 4), de->d_name);
		n++;
		free(text);
	}
	closedir(d);
	return n;
}

static void test_opaque_game_ids(void **state)
{
	const char *args[] = { "run", "-j", "2", "--quiet", "--no-report", "--log-io", "t.json",
		NULL };
	char one[256], two[256], told[2][GAMES][64], real[2][GAMES][64];
	size_t n;

	(void)state;
	run_in(one, "ids1", ",\"seed\":99", args, 0);
	run_in(two, "ids2", ",\"seed\":99", args, 0);
	n = told_ids(one, told[0], real[0], GAMES);
	assert_int_equal(n, GAMES);
	assert_int_equal(told_ids(two, told[1], real[1], GAMES), GAMES);
	for (size_t i = 0; i < n; i++) {
		/* "g" and 16 hex digits: no table, deal or rotation in it */
		assert_int_equal(strlen(told[0][i]), 17);
		assert_int_equal(told[0][i][0], 'g');
		for (size_t c = 1; c < 17; c++)
			assert_true(isxdigit((unsigned char)told[0][i][c]));
		assert_non_null(strstr(real[0][i], "-d"));
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(told[0][i], told[0][k]);
		/* the same seed and game: the same id, so a bot seeding from it plays the same */
		for (size_t k = 0; k < n; k++)
			if (strcmp(real[0][i], real[1][k]) == 0)
				assert_string_equal(told[0][i], told[1][k]);
	}
	e2e_remove(one);
	e2e_remove(two);
}

static void test_play_tells_the_game_id_given(void **state)
{
	const char *args[] = { "play", "--log-io", "--game-id", "t0001-d0002-r1", "--quiet-bots",
		BADBOT_PATH " good", BADBOT_PATH " good", NULL };
	char dir[256], path[300], *err;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "playid");
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	assert_non_null(err = e2e_read(path, NULL));
	assert_non_null(strstr(err, "{\"type\":\"game_start\",\"game\":\"t0001-d0002-r1\""));
	free(err);
	e2e_remove(dir);
}

/* Distinct processes in dir/out/logs/chatty.stderr (its "[TAG pid N]" tags). */
static size_t chatty_processes(const char *dir)
{
	char path[300], *log, *line, *save = NULL, pids[64][16];
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/out/logs/chatty.stderr", dir);
	assert_non_null(log = e2e_read(path, NULL));
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *at = strstr(line, "pid ");
		char pid[16] = "";
		size_t k = 0;

		if (!at || sscanf(at, "pid %15[0-9]", pid) != 1)
			continue;
		while (k < n && strcmp(pids[k], pid))
			k++;
		if (k == n && n < 64)
			snprintf(pids[n++], sizeof(pids[0]), "%s", pid);
	}
	free(log);
	return n;
}

/* Do dir's report.md and ratings.json say that processes were reused? */
static bool reports_say_reused(const char *dir)
{
	char path[300], *md, *json;
	bool md_says, json_says;

	snprintf(path, sizeof(path), "%s/out/report.md", dir);
	assert_non_null(md = e2e_read(path, NULL));
	snprintf(path, sizeof(path), "%s/out/ratings.json", dir);
	assert_non_null(json = e2e_read(path, NULL));
	md_says = strstr(md, "processes reused: a bot played several games in one process") != NULL;
	json_says = strstr(json, "\"processes_reused\":\ttrue") != NULL;
	assert_true(md_says == json_says);
	free(md);
	free(json);
	return md_says;
}

/* A run of t.json (extra added) with args in dir: chatty's processes, the mode recorded, the reports. */
static void processes_run(char dir[256], const char *tag, const char *extra,
			  const char *const *args, size_t processes, const char *mode)
{
	char recorded[16];

	run_in(dir, tag, extra, args, 0);
	assert_int_equal(chatty_processes(dir), processes);
	recorded_seed(dir, recorded, sizeof(recorded));
	assert_string_equal(recorded, mode);
	assert_true(reports_say_reused(dir) == (strcmp(mode, "reuse") == 0));
}

static void test_fresh_processes_unless_reuse(void **state)
{
	const char *args[] = { "run", "-j", "1", "--quiet", "t.json", NULL };
	const char *reuse_args[] = { "run", "-j", "1", "--quiet", "--reuse-processes", "t.json",
		NULL };
	char dir[256];

	(void)state;
	/* chatty plays 8 of the 12 games: a process each */
	processes_run(dir, "fresh", "", args, 8, "fresh");
	e2e_remove(dir);
	processes_run(dir, "reuse", ",\"processes\":\"reuse\"", args, 1, "reuse");
	e2e_remove(dir);
	processes_run(dir, "reusecli", "", reuse_args, 1, "reuse");
	/* a resume must keep the processes it was recorded with */
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 1);
	e2e_remove(dir);
}

/* How many lines of the log at dir/out/logs/NAME.stderr hold what. */
static size_t count_in_log(const char *dir, const char *name, const char *what)
{
	char path[400], *text, *at;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/out/logs/%s.stderr", dir, name);
	assert_non_null(text = e2e_read(path, NULL));
	for (at = text; (at = strstr(at, what)); at++)
		n++;
	free(text);
	return n;
}

/*
 * The end of a game is the same in and out of the sandbox (PROTOCOL.md): a
 * process gets quit after game_end and time to exit, so what it writes after
 * its game, even 20 ms after, reaches its log in every game.
 */
static void test_last_words_in_every_game(void **state)
{
	static const char *const modes[] = { "on", "off" };
	const char *args[] = { "run", "-j", "2", "--quiet", "--no-report", "t.json", NULL };

	(void)state;
	for (size_t m = 0; m < 2; m++) {
		char dir[256], text[1024];

		e2e_tempdir(dir, sizeof(dir), "last");
		snprintf(text, sizeof(text),
			 "{\"name\":\"l\",\"bots\":[{\"name\":\"last\",\"command\":[\"%s\","
			 "\"last-words\"]},{\"name\":\"good\",\"command\":[\"%s\",\"good\"]}],"
			 "\"deals\":4,\"rules\":{\"stock_size\":3},\"output\":\"out\","
			 "\"sandbox\":\"%s\"}", BADBOT_PATH, BADBOT_PATH, modes[m]);
		e2e_write(dir, "t.json", text);
		assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
		/* 4 deals x 2 rotations, a process each */
		assert_int_equal(count_in_log(dir, "last", " game_end"), 8);
		assert_int_equal(count_in_log(dir, "last", " quit"), 8);
		e2e_remove(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_seed_recorded_and_resumed),
		cmocka_unit_test(test_seed_off_the_command_line),
		cmocka_unit_test(test_shard_needs_a_seed),
		cmocka_unit_test(test_opaque_game_ids),
		cmocka_unit_test(test_play_tells_the_game_id_given),
		cmocka_unit_test(test_fresh_processes_unless_reuse),
		cmocka_unit_test(test_last_words_in_every_game),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
