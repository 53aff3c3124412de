/*
 * test_results.c - the output directory: tournament.json, crash-safe
 * games.jsonl (a torn last line is cut off on open), the resume guard (other
 * games, changed bot programs), moving a directory aside for --fresh, and the
 * record format of results/README.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "results_text.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/test_results.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

struct ids {
	int n;
	char id[8][32];
};

static int collect(void *ctx, const struct results_record *rec)
{
	struct ids *ids = ctx;

	snprintf(ids->id[ids->n++], 32, "%s", rec->id);
	return 0;
}

/* A minimal record of a 2-player game, as a resume reads it. */
#define RECORD(id) "{\"id\":\"" id "\",\"players\":2,\"placings\":[1,2]}"

static void append_raw(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_open_append_resume(void **state)
{
	char sub[128], path[192], err[512] = "";
	struct results *r;
	struct ids ids = { 0 };
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	assert_int_equal(open_text(sub, "{\"x\":1}", &r, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/replays", sub);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(path, sizeof(path), "%s/logs", sub);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(results_append(r, RECORD("g1"), strlen(RECORD("g1"))), 0);
	assert_int_equal(results_append(r, RECORD("g2"), strlen(RECORD("g2"))), 0);
	results_close(r);

	/* a crash in the middle of the third line */
	snprintf(path, sizeof(path), "%s/games.jsonl", sub);
	append_raw(path, "{\"id\":\"g3\",\"tor");
	assert_int_equal(open_text(sub, "{\"x\":1}", &r, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 2 * (strlen(RECORD("g1")) + 1)); /* the torn line is gone */
	assert_int_equal(results_scan(r, collect, &ids, err, sizeof(err)), 0);
	assert_int_equal(ids.n, 2);
	assert_string_equal(ids.id[0], "g1");
	assert_string_equal(ids.id[1], "g2");
	assert_int_equal(results_append(r, RECORD("g3"), strlen(RECORD("g3"))), 0);
	ids.n = 0;
	assert_int_equal(results_scan(r, collect, &ids, err, sizeof(err)), 0);
	assert_int_equal(ids.n, 3);
	results_close(r);
}

/* A new tournament.json records when the tournament started (UTC); a resume
 * keeps that time and is not refused for it. */
static void test_started_recorded_once(void **state)
{
	char sub[128], path[192], err[512] = "", first[4096] = "", again[4096] = "";
	const char *at;
	struct results *r;
	FILE *f;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/started", dir);
	assert_int_equal(open_text(sub, "{\"x\":1}", &r, err, sizeof(err)), 0);
	results_close(r);
	snprintf(path, sizeof(path), "%s/tournament.json", sub);
	assert_non_null(f = fopen(path, "r"));
	assert_true(fread(first, 1, sizeof(first) - 1, f) > 0);
	fclose(f);
	at = strstr(first, "\"started\":\t\"");
	assert_non_null(at);
	at += strlen("\"started\":\t\"");
	assert_true(strlen(at) > 20 && at[4] == '-' && at[10] == 'T' && at[19] == 'Z');
	sleep(1);
	assert_int_equal(open_text(sub, "{\"x\":1}", &r, err, sizeof(err)), 0);
	results_close(r);
	assert_non_null(f = fopen(path, "r"));
	assert_true(fread(again, 1, sizeof(again) - 1, f) > 0);
	fclose(f);
	/* the same start, to the second, although a second has passed (the file
	 * itself may differ: a resume adds what the first open left out, "sandbox") */
	assert_non_null(strstr(again, "\"started\":\t\""));
	assert_memory_equal(strstr(again, "\"started\":\t\""), at - strlen("\"started\":\t\""),
			    strlen("\"started\":\t\"2026-11-22T20:29:18Z\""));
}

static void test_torn_only_line(void **state)
{
	char sub[128], path[192], err[512] = "";
	struct results *r;
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/torn", dir);
	assert_int_equal(open_text(sub, "{}", &r, err, sizeof(err)), 0);
	results_close(r);
	snprintf(path, sizeof(path), "%s/games.jsonl", sub);
	append_raw(path, "{\"id\":");
	assert_int_equal(open_text(sub, "{}", &r, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);
	results_close(r);
}

static void test_different_tournament_refused(void **state)
{
	char sub[128], path[192], err[512] = "";
	struct results *r;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/guard", dir);
	assert_int_equal(open_text(sub, "{\"seed\":\"1\",\"concurrency\":2}", &r, err, sizeof(err)), 0);
	results_close(r);
	/* another concurrency: the same games */
	assert_int_equal(open_text(sub, "{\"seed\":\"1\",\"concurrency\":1}", &r, err, sizeof(err)), 0);
	results_close(r);
	assert_int_equal(open_text(sub, "{\"seed\":\"2\"}", &r, err,
				      sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "different tournament"));
	/* the refusal names the setting that differs and both values */
	assert_non_null(strstr(err, "seed: \"1\" in the directory, \"2\" now"));
	assert_null(r);
	/* a broken games.jsonl line is reported with its number */
	assert_int_equal(open_text(sub, "{\"seed\":\"1\"}", &r, err,
				      sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/games.jsonl", sub);
	append_raw(path, RECORD("a") "\nnot json\n");
	{
		struct ids ids = { 0 };

		assert_int_equal(results_scan(r, collect, &ids, err, sizeof(err)), -EBADMSG);
		assert_non_null(strstr(err, "line 2"));
	}
	results_close(r);
}

#define PROGRAMS(hash) "{\"seed\":\"1\",\"programs\":{\"a\":[{\"file\":\"/bin/a\"," \
	"\"sha256\":\"" hash "\"}]}}"

/* The same games, but a bot's program changed: refused with the bot and file named. */
static void test_changed_program_refused(void **state)
{
	char sub[128], err[512] = "";
	struct results *r;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/programs", dir);
	assert_int_equal(open_text(sub, PROGRAMS("aa11"), &r, err, sizeof(err)), 0);
	results_close(r);
	assert_int_equal(open_text(sub, PROGRAMS("aa11"), &r, err, sizeof(err)), 0);
	results_close(r);
	assert_int_equal(open_text(sub, PROGRAMS("bb22"), &r, err, sizeof(err)),
			 -ESTALE);
	assert_null(r);
	assert_non_null(strstr(err, "bot \"a\" changed since its recorded games: \"/bin/a\" has "
			       "SHA-256 bb22... now, aa11... then"));
}

/* --fresh: a tournament's directory renamed to the first free .old-K; nothing else moved. */
static void test_move_aside(void **state)
{
	char sub[128], path[256], moved[256], err[512] = "";
	struct results *r;
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/aside", dir);
	assert_int_equal(results_move_aside(sub, moved, sizeof(moved)), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(results_move_aside(sub, moved, sizeof(moved)), -ENOTEMPTY);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(open_text(sub, PROGRAMS("aa11"), &r, err, sizeof(err)), 0);
	results_close(r);
	/* .old-1 taken by something else: kept, and the next name used */
	snprintf(path, sizeof(path), "%s.old-1", sub);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/", sub);
	assert_int_equal(results_move_aside(path, moved, sizeof(moved)), 1);
	snprintf(path, sizeof(path), "%s.old-2", sub);
	assert_string_equal(moved, path);
	snprintf(path, sizeof(path), "%s.old-2/tournament.json", sub);
	assert_int_equal(stat(path, &st), 0);
	snprintf(path, sizeof(path), "%s.old-1", sub);
	assert_int_equal(stat(path, &st), 0);
	assert_int_not_equal(stat(sub, &st), 0);
}

/* A resume reads every record strictly: a damaged one is refused with its line and field. */
static void test_scan_strict(void **state)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "{\"id\":\"a\",\"id\":\"b\",\"players\":2,\"placings\":[1,2]}", "duplicate key \"id\"" },
		{ "{\"id\":\"a\",\"players\":2.0,\"placings\":[1,2]}", "players: expected an integer" },
		{ "{\"id\":\"a\",\"players\":2,\"placings\":[1,7.0]}", "placings[1]: expected an integer from 1 to 2, found 7.0" },
		{ "{\"id\":\"a\",\"players\":2,\"placings\":[1,1e400]}", "placings[1]" },
		{ "{\"id\":\"a\",\"players\":2,\"placings\":[1,-2147483648]}", "placings[1]" },
		{ "{\"id\":\"a\",\"players\":2,\"placings\":[1,9e18]}", "placings[1]" },
		{ "{\"id\":\"a\",\"players\":1e3,\"placings\":[1,2]}", "players" },
		{ "{\"id\":\"a\",\"players\":3,\"placings\":[1,2]}", "placings: expected an array of 3" },
		{ "{\"id\":7,\"players\":2,\"placings\":[1,2]}", "not a game record" },
	};
	char sub[128], path[192], err[512] = "";
	struct results *r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ids ids = { 0 };
		FILE *f;

		snprintf(sub, sizeof(sub), "%s/strict%zu", dir, i);
		assert_int_equal(open_text(sub, "{}", &r, err, sizeof(err)), 0);
		snprintf(path, sizeof(path), "%s/games.jsonl", sub);
		f = fopen(path, "a");
		assert_non_null(f);
		fprintf(f, "%s\n%s\n%s\n", RECORD("ok"), bad[i].line, RECORD("later"));
		fclose(f);
		err[0] = '\0';
		assert_int_equal(results_scan(r, collect, &ids, err, sizeof(err)), -EBADMSG);
		assert_int_equal(ids.n, 1); /* the line before; nothing after */
		if (!strstr(err, "line 2: ") || !strstr(err, bad[i].why))
			fail_msg("%s: got \"%s\", expected \"%s\"", bad[i].line, err, bad[i].why);
		results_close(r);
	}
}

static int stop_at_second(void *ctx, const struct results_record *rec)
{
	struct ids *ids = ctx;

	(void)rec;
	return ++ids->n == 2 ? -EINTR : 0;
}

/* fn's error ends the scan and is returned. */
static void test_scan_stopped(void **state)
{
	char sub[128], err[512] = "";
	struct results *r;
	struct ids ids = { 0 };

	(void)state;
	snprintf(sub, sizeof(sub), "%s/stopped", dir);
	assert_int_equal(open_text(sub, "{}", &r, err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(results_append(r, RECORD("x"), strlen(RECORD("x"))), 0);
	assert_int_equal(results_scan(r, stop_at_second, &ids, err, sizeof(err)), -EINTR);
	assert_int_equal(ids.n, 2);
	results_close(r);
}

static void test_record_format(void **state)
{
	struct referee_outcome o = { 0 };
	struct schedule_game g = { 0 };
	const char *bots[6] = { "alpha", "beta", "c", "d", "e", "f" };
	struct replay_location at = { "replays/00000000000000ff.jsonl.zst", 1 << 20, 17 };
	struct results_game rg = { &g, bots, &o, &at };
	struct jsonw w;
	cJSON *rec, *t, *f;

	(void)state;
	g.table = 1;
	g.deal = 2;
	g.rotation = 1;
	g.seed = UINT64_MAX;
	strcpy(g.id, "t0001-d0002-r1");
	o.players = 2;
	o.games = 1;
	o.reason = END_FORFEIT;
	o.nwinners = 1;
	o.winners[0] = 0;
	o.placings[0] = 1;
	o.placings[1] = 2;
	o.stock_left[0] = 3;
	o.stock_left[1] = 9;
	o.scores[0] = 70;
	o.turns = 12;
	o.moves = 40;
	o.time[0] = (struct referee_time_stats){ 20, 35.25, 30, 120, 400, 31.5, 380 };
	o.nfaults = 1;
	o.faults = calloc(1, sizeof(*o.faults));
	o.faults[0].seat = 1;
	o.faults[0].game = 1;
	o.faults[0].kind = PROTOCOL_FAULT_MALFORMED;
	o.faults[0].turn = 12;
	o.faults[0].move = 40;
	strcpy(o.faults[0].reason, "not JSON");
	strcpy(o.faults[0].line, "bad \xff \"line\"");
	jsonw_init(&w);
	assert_int_equal(results_format_record(&w, &rg), 0);
	assert_null(strchr(w.data, '\n'));
	assert_non_null(strstr(w.data, "\"seed\":18446744073709551615,")); /* every digit */
	rec = cJSON_Parse(w.data);
	assert_non_null(rec);
	assert_string_equal(cJSON_GetObjectItem(rec, "id")->valuestring, "t0001-d0002-r1");
	assert_int_equal(cJSON_GetObjectItem(rec, "rotation")->valueint, 1);
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "bots"), 1)->valuestring, "beta");
	assert_string_equal(cJSON_GetObjectItem(rec, "reason")->valuestring, "forfeit");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(rec, "winners")), 1);
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "scores"), 0)->valueint, 70);
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "stock_left"), 1)->valueint, 9);
	{
		char *teams = cJSON_PrintUnformatted(cJSON_GetObjectItem(rec, "teams"));

		assert_string_equal(teams, "[[0],[1]]");
		free(teams);
	}
	t = cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "time"), 0);
	assert_int_equal(cJSON_GetObjectItem(t, "p99_us")->valueint, 120);
	assert_true(cJSON_GetObjectItem(t, "mean_us")->valuedouble > 35.1);
	assert_true(cJSON_GetObjectItem(t, "cpu_mean_us")->valuedouble > 31.4);
	assert_int_equal(cJSON_GetObjectItem(t, "cpu_max_us")->valueint, 380);
	f = cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "faults"), 0);
	assert_string_equal(cJSON_GetObjectItem(f, "bot")->valuestring, "beta");
	assert_string_equal(cJSON_GetObjectItem(f, "kind")->valuestring, "malformed");
	assert_string_equal(cJSON_GetObjectItem(f, "line")->valuestring, "bad \xef\xbf\xbd \"line\"");
	assert_string_equal(cJSON_GetObjectItem(rec, "replay")->valuestring,
			    "replays/00000000000000ff.jsonl.zst");
	assert_int_equal(cJSON_GetObjectItem(rec, "replay_offset")->valuedouble, 1 << 20);
	assert_int_equal(cJSON_GetObjectItem(rec, "replay_line")->valuedouble, 17);
	cJSON_Delete(rec);
	/* partnership teams */
	o.players = 6;
	o.partnership = 1;
	o.nfaults = 0;
	assert_int_equal(results_format_record(&w, &rg), 0);
	assert_non_null(strstr(w.data, "\"teams\":[[0,3],[1,4],[2,5]]"));
	jsonw_release(&w);
	free(o.faults);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_append_resume),
		cmocka_unit_test(test_started_recorded_once),
		cmocka_unit_test(test_torn_only_line),
		cmocka_unit_test(test_different_tournament_refused),
		cmocka_unit_test(test_changed_program_refused),
		cmocka_unit_test(test_move_aside),
		cmocka_unit_test(test_scan_strict),
		cmocka_unit_test(test_scan_stopped),
		cmocka_unit_test(test_record_format),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
