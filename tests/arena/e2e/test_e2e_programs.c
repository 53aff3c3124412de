/*
 * test_e2e_programs.c - a bot whose program changes between two runs of one
 * tournament: the resume is refused, naming the bot and its file; --fresh
 * starts the directory over with the old one renamed, nothing deleted; an
 * unchanged bot resumes; a tournament.json from before programs were recorded
 * resumes and gets them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e.h"

#define GAMES 2 /* one table, one deal, two rotations */

/* A script bot: an interpreter (/bin/sh) running bot.sh, which runs badbot (so no
 * sandbox: it would hide the other bot's directory, where badbot is). */
static void write_tournament(const char *dir)
{
	char text[1024];

	snprintf(text, sizeof(text), "#!/bin/sh\nexec %s good\n", BADBOT_PATH);
	e2e_write(dir, "bot.sh", text);
	snprintf(text, sizeof(text),
		 "{\"name\":\"p\",\"bots\":["
		 "{\"name\":\"script\",\"command\":[\"/bin/sh\",\"bot.sh\"]},"
		 "{\"name\":\"plain\",\"command\":[\"%s\",\"good\"]}],"
		 "\"players\":2,\"deals\":1,\"rules\":{\"stock_size\":3},\"seed\":9,"
		 "\"output\":\"out\",\"sandbox\":\"off\"}", BADBOT_PATH);
	e2e_write(dir, "t.json", text);
}

static char *read_in(const char *dir, const char *name)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return e2e_read(path, NULL);
}

static size_t records_in(const char *dir, const char *sub)
{
	char path[400];
	cJSON **recs;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	n = e2e_records(path, &recs);
	e2e_free_records(recs, n);
	return n;
}

/* The sha256 that dir/out/tournament.json records for bot's k-th file, malloc'ed. */
static char *recorded_hash(const char *dir, const char *bot, int k)
{
	char *text = read_in(dir, "out/tournament.json");
	cJSON *root = cJSON_Parse(text), *programs, *files, *sha;
	char *hash;

	programs = cJSON_GetObjectItemCaseSensitive(root, "programs");
	files = cJSON_GetObjectItemCaseSensitive(programs, bot);
	sha = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(files, k), "sha256");
	assert_true(cJSON_IsString(sha));
	assert_int_equal(strlen(sha->valuestring), 64);
	hash = strdup(sha->valuestring);
	cJSON_Delete(root);
	free(text);
	return hash;
}

static void test_changed_script_refused_then_fresh(void **state)
{
	const char *run[] = { "run", "--quiet", "t.json", NULL };
	const char *fresh[] = { "run", "--quiet", "--fresh", "t.json", NULL };
	char dir[256], *err, *out, *before, *after, *text;
	struct stat st;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "programs");
	write_tournament(dir);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	assert_int_equal(records_in(dir, "out"), GAMES);
	before = recorded_hash(dir, "script", 1);

	/* unchanged: resumes with nothing to play, no refusal */
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	assert_int_equal(records_in(dir, "out"), GAMES);

	/* the script edited: refused, naming the bot, its file and the ways out */
	text = read_in(dir, "bot.sh");
	{
		char grown[1024];

		snprintf(grown, sizeof(grown), "%s# tuned\n", text);
		e2e_write(dir, "bot.sh", grown);
	}
	free(text);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 1);
	err = read_in(dir, "stderr.txt");
	assert_non_null(strstr(err, "bot \"script\" changed since its recorded games"));
	assert_non_null(strstr(err, "/bot.sh\" has SHA-256"));
	assert_non_null(strstr(err, "--fresh"));
	assert_non_null(strstr(err, "--output"));
	assert_null(strstr(err, "\"plain\""));
	free(err);
	assert_int_equal(records_in(dir, "out"), GAMES);
	after = recorded_hash(dir, "script", 1);
	assert_string_equal(before, after);
	free(after);

	/* --fresh: the old directory renamed whole, a new one played with the new hash */
	assert_int_equal(e2e_run(dir, fresh, 60000, NULL), 0);
	out = read_in(dir, "stdout.txt");
	assert_non_null(strstr(out, "moved the old \"out\" to \"out.old-1\""));
	free(out);
	assert_int_equal(records_in(dir, "out.old-1"), GAMES);
	assert_int_equal(records_in(dir, "out"), GAMES);
	after = recorded_hash(dir, "script", 1);
	assert_string_not_equal(before, after);
	free(after);
	free(before);
	/* a second --fresh takes the next free name */
	assert_int_equal(e2e_run(dir, fresh, 60000, NULL), 0);
	{
		char path[400];

		snprintf(path, sizeof(path), "%s/out.old-2/games.jsonl", dir);
		assert_int_equal(stat(path, &st), 0);
	}
	e2e_remove(dir);
}

/* --fresh moves only a tournament's output directory: anything else is left alone. */
static void test_fresh_leaves_other_directories(void **state)
{
	const char *fresh[] = { "run", "--quiet", "--fresh", "--output", "mine", "t.json", NULL };
	char dir[256], path[400], *err;
	struct stat st;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "programs-fresh");
	write_tournament(dir);
	snprintf(path, sizeof(path), "%s/mine", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	e2e_write(path, "notes.txt", "mine\n");
	assert_int_equal(e2e_run(dir, fresh, 60000, NULL), 1);
	err = read_in(dir, "stderr.txt");
	assert_non_null(strstr(err, "\"mine\" is not a tournament's output directory"));
	free(err);
	snprintf(path, sizeof(path), "%s/mine/notes.txt", dir);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof(path), "%s/mine/games.jsonl", dir);
	assert_int_not_equal(stat(path, &st), 0);
	e2e_remove(dir);
}

/* A tournament.json written before programs were recorded resumes, and gets them. */
static void test_old_tournament_json_gets_programs(void **state)
{
	const char *run[] = { "run", "--quiet", "t.json", NULL };
	char dir[256], path[400], *text, *hash;
	cJSON *root;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "programs-old");
	write_tournament(dir);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	text = read_in(dir, "out/tournament.json");
	root = cJSON_Parse(text);
	free(text);
	cJSON_DeleteItemFromObjectCaseSensitive(root, "programs");
	text = cJSON_Print(root);
	snprintf(path, sizeof(path), "%s/out", dir);
	e2e_write(path, "tournament.json", text);
	free(text);
	cJSON_Delete(root);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	hash = recorded_hash(dir, "plain", 0);
	free(hash);
	e2e_remove(dir);
}

/*
 * A file of the output directory given to a bot (its games.jsonl, here) is
 * not the bot's program: it changes with every game, and the resume goes on.
 */
static void test_output_files_are_not_programs(void **state)
{
	const char *run[] = { "run", "--quiet", "--deals", "2", "t.json", NULL };
	char dir[256], text[1024], *hash;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "programs-output");
	snprintf(text, sizeof(text),
		 "{\"name\":\"p\",\"bots\":["
		 "{\"name\":\"reader\",\"command\":[\"%s\",\"good\",\"out/games.jsonl\"]},"
		 "{\"name\":\"plain\",\"command\":[\"%s\",\"good\"]}],"
		 "\"players\":2,\"deals\":1,\"rules\":{\"stock_size\":3},\"seed\":9,"
		 "\"output\":\"out\"}", BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	/* a resume, with games.jsonl there now */
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	assert_int_equal(records_in(dir, "out"), 4);
	hash = recorded_hash(dir, "reader", 0);
	free(hash);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changed_script_refused_then_fresh),
		cmocka_unit_test(test_fresh_leaves_other_directories),
		cmocka_unit_test(test_old_tournament_json_gets_programs),
		cmocka_unit_test(test_output_files_are_not_programs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
