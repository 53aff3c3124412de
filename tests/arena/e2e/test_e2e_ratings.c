/*
 * test_e2e_ratings.c - partnership ratings of the built skipbo-arena with the
 * reference bots: two copies of one program rate within the interval of
 * their difference, and the ranking does not depend on the order of the bots in the
 * tournament file (the team model of ratings/rating.h, the pairings of
 * tournament/schedule.h). A directory written before pairings resumes with
 * the schedule it was started with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "e2e.h"

#ifdef MEDIUM_PATH
enum { BOTS = 4, DEALS = 40 };

/* name, program: "medium2" is the same program as "medium" */
static const char *const programs[BOTS][2] = {
	{ "easy", EASY_PATH },
	{ "medium", MEDIUM_PATH },
	{ "medium2", MEDIUM_PATH },
	{ "hard", HARD_PATH },
};

/* Write dir/t.json: the bots in list order order[], 4-player partnership, and with
 * schedule non-zero that "schedule" key. */
static void write_tournament(const char *dir, const int *order, int schedule)
{
	char text[4096], *p = text, *end = text + sizeof(text);

	p += snprintf(p, (size_t)(end - p), "{\"name\":\"copies\",\"bots\":[");
	for (int k = 0; k < BOTS; k++)
		p += snprintf(p, (size_t)(end - p), "%s{\"name\":\"%s\",\"command\":[\"%s\"]}",
			      k ? "," : "", programs[order[k]][0], programs[order[k]][1]);
	p += snprintf(p, (size_t)(end - p),
		      "],\"players\":4,\"deals\":%d,\"duplicate\":false,"
		      "\"rules\":{\"stock_size\":10,\"partnership\":true},"
		      "\"time\":{\"move_ms\":5000,\"game_ms\":120000},"
		      /* no address-space limit: sanitizer builds of the bots reserve terabytes */
		      /* a fixed deal: the same games in both list orders, whatever the run */
		      "\"limits\":{\"memory_mb\":0},\"output\":\"out\",\"seed\":1", DEALS);
	if (schedule)
		p += snprintf(p, (size_t)(end - p), ",\"schedule\":%d", schedule);
	snprintf(p, (size_t)(end - p), "}");
	e2e_write(dir, "t.json", text);
}

static cJSON *read_ratings(const char *dir)
{
	char path[512];
	cJSON *root;

	snprintf(path, sizeof(path), "%s/out/ratings.json", dir);
	root = e2e_read_json(path);
	assert_non_null(root);
	return root;
}

/* The place of the bot in the ranking of ratings.json (its rows and los's rows, from 0). */
static int rank_of(const cJSON *root, const char *name)
{
	const cJSON *b;
	int k = 0;

	cJSON_ArrayForEach(b, cJSON_GetObjectItem(root, "bots")) {
		if (!strcmp(cJSON_GetObjectItem(b, "bot")->valuestring, name))
			return k;
		k++;
	}
	fail_msg("no bot %s in ratings.json", name);
	return -1;
}

/* Run the tournament with the bots in this order; ranking[] gets the programs in rank order
 * (a copy named by its program), the copies' ratings are checked. */
static void run_order(const int *order, const char **ranking)
{
	const char *args[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	char dir[256], out[300];
	cJSON *root, **recs;
	const cJSON *b;
	size_t n;
	int k = 0;

	e2e_tempdir(dir, sizeof(dir), "copies");
	write_tournament(dir, order, 0);
	assert_int_equal(e2e_run(dir, args, 300000, NULL), 0);
	snprintf(out, sizeof(out), "%s/out", dir);
	n = e2e_records(out, &recs);
	/* every deal under the three pairings of four bots */
	assert_int_equal(n, 3 * DEALS);
	e2e_free_records(recs, n);
	root = read_ratings(dir);
	int ia = rank_of(root, "medium"), ib = rank_of(root, "medium2");
	const cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "bots"), ia);
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "bots"), ib);
	double los = cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "los"), ia),
					ib)->valuedouble;
	printf("medium %.1f +- %.1f, medium2 %.1f +- %.1f, LOS %.3f\n",
	       cJSON_GetObjectItem(a, "elo")->valuedouble, cJSON_GetObjectItem(a, "ci95")->valuedouble,
	       cJSON_GetObjectItem(c, "elo")->valuedouble, cJSON_GetObjectItem(c, "ci95")->valuedouble,
	       los);
	/*
	 * The copies' difference lies within its own 99% interval (LOS from the covariance,
	 * which counts what the copies' ratings share): the pairwise fit of fixed partners put
	 * two copies 196 Elo apart, with LOS 1.000. Asking each copy to lie within the other's
	 * 95% interval would fail one time in six with a perfect model, as the difference of
	 * two ratings varies more than either.
	 */
	assert_true(los > 0.005 && los < 0.995);
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(root, "bots")) {
		const char *name = cJSON_GetObjectItem(b, "bot")->valuestring;
		/* a copy counts as its program; the names outlive the document */
		ranking[k++] = !strcmp(name, "medium2") ? "medium" : !strcmp(name, "medium") ?
			       "medium" : !strcmp(name, "easy") ? "easy" : "hard";
	}
	assert_int_equal(k, BOTS);
	cJSON_Delete(root);
	e2e_remove(dir);
}

static void test_copies_and_list_order(void **state)
{
	static const int first[BOTS] = { 0, 1, 2, 3 }, second[BOTS] = { 2, 3, 0, 1 };
	const char *a[BOTS], *b[BOTS];

	(void)state;
	run_order(first, a);
	run_order(second, b);
	for (int k = 0; k < BOTS; k++) {
		printf("%d. %s / %s\n", k + 1, a[k], b[k]);
		assert_string_equal(a[k], b[k]);
	}
}

/*
 * A directory of schedule version 1 (what a run wrote before pairings; its
 * tournament.json has no "schedule") resumes with version 1: nothing left to
 * play, nothing refused, the report reads it.
 */
static void test_old_directory_resumes(void **state)
{
	static const int order[BOTS] = { 0, 1, 2, 3 };
	const char *args[] = { "run", "-j", "2", "--quiet", "t.json", NULL };
	char dir[256], out[300], path[400], *text;
	cJSON **recs;
	size_t n;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "oldsched");
	snprintf(out, sizeof(out), "%s/out", dir);
	write_tournament(dir, order, 1);
	assert_int_equal(e2e_run(dir, args, 300000, NULL), 0);
	snprintf(path, sizeof(path), "%s/tournament.json", out);
	text = e2e_read(path, NULL);
	assert_non_null(text);
	assert_null(strstr(text, "\"schedule\""));
	free(text);
	n = e2e_records(out, &recs);
	assert_int_equal(n, DEALS); /* one pairing per deal */
	e2e_free_records(recs, n);
	/* the same tournament file without the key: a resume of the old directory */
	write_tournament(dir, order, 0);
	assert_int_equal(e2e_run(dir, args, 300000, NULL), 0);
	n = e2e_records(out, &recs);
	assert_int_equal(n, DEALS);
	e2e_free_records(recs, n);
	cJSON_Delete(read_ratings(dir));
	e2e_remove(dir);
}
#else
static void test_copies_and_list_order(void **state)
{
	(void)state;
	skip();
}

static void test_old_directory_resumes(void **state)
{
	(void)state;
	skip();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copies_and_list_order),
		cmocka_unit_test(test_old_directory_resumes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
