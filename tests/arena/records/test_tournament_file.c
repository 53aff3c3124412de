/*
 * test_tournament_file.c - tournament.json's one writer and strict reader
 * (tournament_file.h): the keys of a run set and read back, the games-only
 * form without them, the sandbox noted "mixed", the start kept across runs,
 * a whole file replaced with no temporary file left, and a broken file
 * refused with its name and line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tournament_file.h"

#define SETTINGS "{\"name\": \"t\", \"bots\": [{\"name\": \"a\"}, {\"name\": \"b\"}], " \
	"\"players\": 2, \"deals\": 3, \"duplicate\": true, \"seed\": \"42\", " \
	"\"concurrency\": 2, \"output\": \"x\", \"sandbox\": \"off\"}"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/test-tournament-file-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof path, "%s/tournament.json", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}

static void write_text(const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/tournament.json", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* The keys a run adds, written and read back; no temporary file left. */
static void test_written_and_read(void **state)
{
	const struct records_sprt sprt = { .on = 1, .elo0 = 0, .elo1 = 5, .alpha = 0.05,
					   .beta = 0.05 };
	struct records_tournament_doc d;
	struct records_tournament t;
	char err[256], tmp[160];
	time_t before = time(NULL);

	(void)state;
	assert_int_equal(records_tournament_doc_new(SETTINGS, &d), 0);
	assert_int_equal(records_tournament_set_shard(&d, 1, 3), 0);
	assert_int_equal(records_tournament_set_sprt(&d, &sprt), 0);
	assert_int_equal(records_tournament_set_programs(&d, cJSON_CreateObject()), 0);
	assert_int_equal(records_tournament_set_started(&d, NULL), 0);
	assert_int_equal(records_tournament_write(dir, &d, err, sizeof err), 0);
	records_tournament_doc_release(&d);
	snprintf(tmp, sizeof tmp, "%s/tournament.json.tmp", dir);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(records_read_tournament(dir, &t, err, sizeof err), 0);
	assert_int_equal(t.shard, 2);
	assert_int_equal(t.nshards, 3);
	assert_true(t.sprt.on);
	assert_true(t.sprt.elo1 == 5);
	assert_string_equal(t.name, "t");
	assert_true(t.started >= (long long)before - 1 && t.started <= (long long)time(NULL));
	assert_int_equal(t.nbots, 2);
	/* the games-only form: no key of one run, "shard" and "sprt" kept */
	assert_null(strstr(t.same, "concurrency"));
	assert_null(strstr(t.same, "programs"));
	assert_null(strstr(t.same, "started"));
	records_tournament_release(&t);
}

/* A resumed directory keeps its start; a run without a sandbox after one with it: "mixed". */
static void test_started_kept_sandbox_mixed(void **state)
{
	struct records_tournament_doc old, d;
	char err[256];

	(void)state;
	write_text("{\"players\": 2, \"deals\": 1, \"seed\": \"1\", \"sandbox\": \"on\", "
		   "\"started\": \"2026-01-02T03:04:05Z\"}\n");
	assert_int_equal(records_tournament_doc_load(dir, &old, err, sizeof err), 0);
	assert_int_equal(records_tournament_doc_new(SETTINGS, &d), 0);
	assert_int_equal(records_tournament_set_started(&d, &old), 0);
	assert_int_equal(records_tournament_note_sandbox(&d, records_tournament_sandbox(&old)), 1);
	assert_string_equal(records_tournament_sandbox(&d), "mixed");
	/* the same sandbox again: nothing to note */
	assert_int_equal(records_tournament_note_sandbox(&old, "on"), 0);
	assert_int_equal(records_tournament_write(dir, &d, err, sizeof err), 0);
	records_tournament_doc_release(&d);
	records_tournament_doc_release(&old);
	{
		struct records_tournament t;

		assert_int_equal(records_read_tournament(dir, &t, err, sizeof err), 0);
		assert_int_equal(t.started, 1767323045LL);
		records_tournament_release(&t);
	}
}

/* A file that is not strict JSON, or whose start is no UTC stamp: refused, named. */
static void test_broken_refused(void **state)
{
	struct records_tournament_doc d;
	struct records_tournament t;
	char err[256];

	(void)state;
	write_text("{\"players\": 2,\n\"players\": 2}\n");
	assert_int_equal(records_tournament_doc_load(dir, &d, err, sizeof err), -EBADMSG);
	assert_non_null(strstr(err, "tournament.json\", line 2"));
	write_text("{\"players\": 2, \"deals\": 1, \"seed\": \"1\", \"started\": \"yesterday\"}\n");
	assert_int_equal(records_read_tournament(dir, &t, err, sizeof err), -EBADMSG);
	assert_non_null(strstr(err, "started"));
	records_tournament_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_and_read),
		cmocka_unit_test(test_started_kept_sandbox_mixed),
		cmocka_unit_test(test_broken_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
