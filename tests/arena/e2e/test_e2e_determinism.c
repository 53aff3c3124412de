/*
 * test_e2e_determinism.c - the same tournament and seed give the same games
 * (all fields but timings) with -j 1 and -j 2, and every replay of a
 * tournament re-checks with `skipbo-arena replay`: 2-player games with
 * faults, a 4-player partnership tournament of R9 matches, and the bundled
 * reference bots when they are built; and a reference bot plays the same
 * games whether it asks for compact requests (PROTOCOL.md 4.2) or not, as
 * badbot good-compact plays those of badbot good.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "e2e.h"

static const char *tournament_2p =
	"{\"name\":\"d\",\"bots\":["
	"{\"name\":\"a\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"b\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"ill\",\"command\":[\"" BADBOT_PATH "\",\"illegal\"]},"
	"{\"name\":\"wt\",\"command\":[\"" BADBOT_PATH "\",\"wrong-type\"]}],"
	"\"players\":2,\"deals\":4,\"rules\":{\"stock_size\":6},\"seed\":2024,\"output\":\"out\"}";

static const char *tournament_match =
	"{\"name\":\"m\",\"bots\":["
	"{\"name\":\"a\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"b\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"c\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"d\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"e\",\"command\":[\"" BADBOT_PATH "\",\"illegal\"]}],"
	"\"players\":4,\"deals\":1,\"duplicate\":false,"
	"\"rules\":{\"stock_size\":3,\"partnership\":true,\"mode\":\"match\"},\"output\":\"out\"}";

/* Run `replay --quiet` on every replay in dir/out/replays; all must pass. */
/* Every record of dir/out has its replay where it says, and `replay` re-checks each one with the
 * engine (written to a file of its own). */
static void check_replays(const char *dir, size_t expected)
{
	char out[300], path[400];
	const char *args[1100];
	char *names[1100];
	size_t n = 0, nrecs, len;
	cJSON **recs;

	snprintf(out, sizeof(out), "%s/out", dir);
	nrecs = e2e_records(out, &recs);
	assert_int_equal(nrecs, expected);
	assert_true(nrecs < 1000);
	snprintf(path, sizeof(path), "%s/check", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	args[n++] = "replay";
	args[n++] = "--quiet";
	for (size_t i = 0; i < nrecs; i++) {
		char *text = e2e_replay(out, recs[i], &len);

		assert_non_null(text);
		if (asprintf(&names[n], "check/%s.json", cJSON_GetObjectItem(recs[i], "id")->valuestring) < 0)
			abort();
		e2e_write(dir, names[n], text);
		free(text);
		args[n] = names[n];
		n++;
	}
	args[n] = NULL;
	e2e_free_records(recs, nrecs);
	if (e2e_run(dir, args, 60000, NULL) != 0) {
		char *err;

		snprintf(path, sizeof(path), "%s/stderr.txt", dir);
		err = e2e_read(path, NULL);
		fail_msg("replay failed: %s", err ? err : "?");
	}
	for (size_t i = 2; i < n; i++)
		free(names[i]);
}

static void test_same_games_any_concurrency(void **state)
{
	const char *j1[] = { "run", "-j", "1", "--quiet", "t.json", NULL };
	const char *j2[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	char d1[256], d2[256], o1[300], o2[300];
	char **a, **b;
	size_t na, nb, faults = 0;

	(void)state;
	e2e_tempdir(d1, sizeof(d1), "det1");
	e2e_tempdir(d2, sizeof(d2), "det2");
	e2e_write(d1, "t.json", tournament_2p);
	e2e_write(d2, "t.json", tournament_2p);
	assert_int_equal(e2e_run(d1, j1, 60000, NULL), 0);
	assert_int_equal(e2e_run(d2, j2, 60000, NULL), 0);
	snprintf(o1, sizeof(o1), "%s/out", d1);
	snprintf(o2, sizeof(o2), "%s/out", d2);
	a = e2e_canonical_lines(o1, &na);
	b = e2e_canonical_lines(o2, &nb);
	assert_int_equal(na, 48); /* 6 tables x 4 deals x 2 rotations */
	assert_int_equal(nb, na);
	for (size_t i = 0; i < na; i++) {
		assert_string_equal(a[i], b[i]);
		faults += strstr(a[i], "\"faults\":[]") == NULL;
	}
	assert_true(faults >= 12); /* the misbehaving bots' games are part of the comparison */
	check_replays(d2, 48);
	e2e_free_lines(a, na);
	e2e_free_lines(b, nb);
	e2e_remove(d1);
	e2e_remove(d2);
}

static void test_partnership_matches_recheck(void **state)
{
	const char *args[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	char dir[256], out[300];
	cJSON **recs;
	size_t n;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "match");
	e2e_write(dir, "t.json", tournament_match);
	assert_int_equal(e2e_run(dir, args, 60000, NULL), 0);
	snprintf(out, sizeof(out), "%s/out", dir);
	n = e2e_records(out, &recs);
	assert_int_equal(n, 15); /* C(5,4) tables, one deal under 3 pairings, no duplicates */
	for (size_t i = 0; i < n; i++) {
		const cJSON *scores = cJSON_GetObjectItem(recs[i], "scores");
		int best = 0;

		assert_true(cJSON_IsTrue(cJSON_GetObjectItem(recs[i], "match")));
		assert_true(cJSON_GetObjectItem(recs[i], "games")->valueint >= 1);
		for (int s = 0; s < 4; s++)
			if (cJSON_GetArrayItem(scores, s)->valueint > best)
				best = cJSON_GetArrayItem(scores, s)->valueint;
		assert_true(best >= 500); /* R9 */
		/* R10: partners carry the team score */
		assert_int_equal(cJSON_GetArrayItem(scores, 0)->valueint,
				 cJSON_GetArrayItem(scores, 2)->valueint);
	}
	e2e_free_records(recs, n);
	check_replays(dir, 15);
	e2e_remove(dir);
}

static void test_reference_bots_recheck(void **state)
{
#ifdef EASY_PATH
	const char *args[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	char dir[256], out[300];
	cJSON **recs;
	size_t n;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "real");
	e2e_write(dir, "t.json",
		  "{\"name\":\"real\",\"bots\":["
		  "{\"name\":\"easy\",\"command\":[\"" EASY_PATH "\"]},"
		  "{\"name\":\"medium\",\"command\":[\"" MEDIUM_PATH "\"]},"
		  "{\"name\":\"hard\",\"command\":[\"" HARD_PATH "\"]}],"
		  "\"players\":2,\"deals\":2,\"rules\":{\"stock_size\":8},"
		  "\"time\":{\"move_ms\":5000,\"game_ms\":120000},"
		  /* no address-space limit: sanitizer builds of the bots reserve terabytes */
		  "\"limits\":{\"memory_mb\":0},\"output\":\"out\"}");
	assert_int_equal(e2e_run(dir, args, 100000, NULL), 0);
	snprintf(out, sizeof(out), "%s/out", dir);
	n = e2e_records(out, &recs);
	assert_int_equal(n, 12);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(recs[i], "faults")), 0);
	e2e_free_records(recs, n);
	check_replays(dir, 12);
	e2e_remove(dir);
#else
	(void)state;
	skip();
#endif
}

/* Bots "c" and "o" (their members after the name), with --log-io. */
static void run_pair(const char *dir, const char *c, const char *o)
{
	const char *args[] = { "run", "-j", "1", "--quiet", "--log-io", "t.json", NULL };
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"name\":\"cmp\",\"bots\":[{\"name\":\"c\",%s},{\"name\":\"o\",%s}],"
		 "\"players\":2,\"deals\":2,\"rules\":{\"stock_size\":6},"
		 "\"time\":{\"move_ms\":5000,\"game_ms\":120000},"
		 "\"limits\":{\"memory_mb\":0},\"seed\":7,\"output\":\"out\"}", c, o);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, args, 100000, NULL), 0);
}

/* Requests to bot name in dir's transcripts, and how many of them are compact. */
static void count_requests(const char *dir, const char *name, int *requests, int *compact)
{
	char io[300], path[600], prefix[32], *text, *line;
	struct dirent *de;
	DIR *d;

	*requests = *compact = 0;
	snprintf(io, sizeof(io), "%s/out/io", dir);
	snprintf(prefix, sizeof(prefix), " %s <- {\"type\":\"request\"", name);
	assert_non_null(d = opendir(io));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", io, de->d_name);
		assert_non_null(text = e2e_read(path, NULL));
		for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			if (!strstr(line, prefix))
				continue;
			(*requests)++;
			*compact += strstr(line, ",\"discard_any\":") != NULL;
		}
		free(text);
	}
	closedir(d);
}

/* The games of two run_pair() directories are the same (timings aside). */
static void same_games(const char *one, const char *two)
{
	char out[300];
	char **a, **b;
	size_t na, nb;

	snprintf(out, sizeof(out), "%s/out", one);
	a = e2e_canonical_lines(out, &na);
	snprintf(out, sizeof(out), "%s/out", two);
	b = e2e_canonical_lines(out, &nb);
	assert_int_equal(na, 4);
	assert_int_equal(nb, na);
	for (size_t i = 0; i < na; i++)
		assert_string_equal(a[i], b[i]);
	e2e_free_lines(a, na);
	e2e_free_lines(b, nb);
}

/*
 * Bot "c" (command compact, asking for compact requests) against "o"
 * (command ordinary), and the same tournament with "o"'s command at both
 * seats: the transcripts show each bot the form it asked for, and the games
 * are the same.
 */
static void compact_pair(const char *tag, const char *compact_cmd, const char *ordinary_cmd)
{
	char mixed[256], plain[256];
	int requests, compact;

	e2e_tempdir(mixed, sizeof(mixed), tag);
	e2e_tempdir(plain, sizeof(plain), "ordinary");
	run_pair(mixed, compact_cmd, ordinary_cmd);
	run_pair(plain, ordinary_cmd, ordinary_cmd);
	count_requests(mixed, "c", &requests, &compact);
	assert_true(requests > 50);
	assert_int_equal(compact, requests);
	count_requests(mixed, "o", &requests, &compact);
	assert_true(requests > 50);
	assert_int_equal(compact, 0);
	count_requests(plain, "c", &requests, &compact);
	assert_true(requests > 50);
	assert_int_equal(compact, 0);
	same_games(mixed, plain);
	e2e_remove(mixed);
	e2e_remove(plain);
}

/* skipbo-easy asks for compact requests unless SKIPBO_COMPACT=0. */
static void test_compact_requests_same_games(void **state)
{
	(void)state;
#ifdef EASY_PATH
	compact_pair("compact", "\"command\":[\"" EASY_PATH "\"]",
		     "\"command\":[\"" EASY_PATH "\"],\"env\":{\"SKIPBO_COMPACT\":\"0\"}");
#else
	skip();
#endif
}

/* badbot good-compact, the benchmark's cJSON bot on compact requests, plays
 * as badbot good: the first legal move of the ordinary request. */
static void test_badbot_good_compact(void **state)
{
	(void)state;
	compact_pair("good-compact", "\"command\":[\"" BADBOT_PATH "\",\"good-compact\"]",
		     "\"command\":[\"" BADBOT_PATH "\",\"good\"]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_games_any_concurrency),
		cmocka_unit_test(test_partnership_matches_recheck),
		cmocka_unit_test(test_reference_bots_recheck),
		cmocka_unit_test(test_compact_requests_same_games),
		cmocka_unit_test(test_badbot_good_compact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
