/*
 * test_report.c - report files from games.jsonl: contents checked against
 * numbers worked out by hand, merging, torn lines, the `report` command, and
 * the ratings of a fixture matched against R's BradleyTerry2.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "assert_near.h"
#include "commands.h"
#include "gamelist.h"
#include "gamelog.h"
#include "rating.h"
#include "rating_fixture.h"
#include "report.h"
#include "report_html.h"

/*
 * Six records among bots A, B, C. Records 1+2 and 3+4 are the two rotations of
 * deals 0 and 1 at table 0 (duplicate pairs). By hand:
 *   A: 6 games, 3 wins, 130 points, stock 0+3+0+0+3+4 = 10
 *   B: 6 games, 1 win, 40 points, stock 5+0+4+2+1+9 = 21, one timeout
 *   C: 2 games, 1 win, 90 points, stock 3+0 = 3
 *   A-B 4/6 for A, A-C 0.5/2 for A (a draw in record 5), B-C 1/2
 *   pairs: deal 0 A scores 1 + 0 = 1, deal 1 A scores 1 + 1 = 2
 *   times: A mean (100*10 + 300*30)/400 = 25, p99 (100*50 + 300*90)/400 = 80, max 95
 *          B mean (100*20 + 300*40)/400 = 35, p99 (100*60 + 300*100)/400 = 90, max 500
 *   seats, 2 players: seat 0 won 3 of 4; 3 players: seat 0 won 1 of 2
 */
static const char *const records[6] = {
	"{\"id\":\"t0000-d0000-r0\",\"table\":0,\"deal\":0,\"rotation\":0,\"players\":2,"
	"\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,\"games\":1,\"bots\":[\"A\",\"B\"],"
	"\"winners\":[0],\"reason\":\"stock_emptied\",\"placings\":[1,2],\"stock_left\":[0,5],"
	"\"scores\":[50,0],\"turns\":50,\"moves\":200,\"time\":[{\"moves\":100,\"mean_us\":10,"
	"\"median_us\":9,\"p99_us\":50,\"max_us\":80},{\"moves\":100,\"mean_us\":20,\"median_us\":19,"
	"\"p99_us\":60,\"max_us\":70}],\"faults\":[]}",
	"{\"id\":\"t0000-d0000-r1\",\"table\":0,\"deal\":0,\"rotation\":1,\"players\":2,"
	"\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,\"games\":1,\"bots\":[\"B\",\"A\"],"
	"\"winners\":[0],\"reason\":\"stock_emptied\",\"placings\":[1,2],\"stock_left\":[0,3],"
	"\"scores\":[40,0],\"turns\":60,\"moves\":600,\"time\":[{\"moves\":300,\"mean_us\":40,"
	"\"median_us\":39,\"p99_us\":100,\"max_us\":500,\"cpu_mean_us\":36},{\"moves\":300,\"mean_us\":30,"
	"\"median_us\":29,\"p99_us\":90,\"max_us\":95}],\"faults\":[]}",
	"{\"id\":\"t0000-d0001-r0\",\"table\":0,\"deal\":1,\"rotation\":0,\"players\":2,"
	"\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,\"games\":1,\"bots\":[\"A\",\"B\"],"
	"\"winners\":[0],\"reason\":\"stock_emptied\",\"placings\":[1,2],\"stock_left\":[0,4],"
	"\"scores\":[45,0],\"faults\":[]}",
	"{\"id\":\"t0000-d0001-r1\",\"table\":0,\"deal\":1,\"rotation\":1,\"players\":2,"
	"\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,\"games\":1,\"bots\":[\"B\",\"A\"],"
	"\"winners\":[1],\"reason\":\"stock_emptied\",\"placings\":[2,1],\"stock_left\":[2,0],"
	"\"scores\":[0,35],\"faults\":[]}",
	"{\"id\":\"t0001-d0000-r0\",\"table\":1,\"deal\":0,\"rotation\":0,\"players\":3,"
	"\"partnership\":false,\"teams\":[[0],[1],[2]],\"match\":false,\"games\":1,"
	"\"bots\":[\"A\",\"B\",\"C\"],\"winners\":[],\"reason\":\"stalemate\",\"placings\":[2,1,2],"
	"\"stock_left\":[3,1,3],\"scores\":[0,0,0],\"faults\":[]}",
	"{\"id\":\"t0001-d0001-r0\",\"table\":1,\"deal\":1,\"rotation\":0,\"players\":3,"
	"\"partnership\":false,\"teams\":[[0],[1],[2]],\"match\":false,\"games\":1,"
	"\"bots\":[\"C\",\"A\",\"B\"],\"winners\":[0],\"reason\":\"stock_emptied\","
	"\"placings\":[1,2,3],\"stock_left\":[0,4,9],\"scores\":[90,0,0],"
	"\"faults\":[{\"seat\":2,\"bot\":\"B\",\"kind\":\"timeout\",\"turn\":30,\"move\":100,"
	"\"reason\":\"no answer within 1000 ms\",\"line\":\"\"}]}",
};

/* Make fixture_dir/name holding records [from, to) and optionally a torn tail; returns its path. */
static const char *make_dir(const char *name, int from, int to, const char *tail)
{
	static char dirs[4][128];
	static int next;
	char *dir = dirs[next++ % 4];
	FILE *f;

	snprintf(dir, 128, "%s/%s", fixture_dir, name);
	f = fixture_games_create(dir);
	for (int i = from; i < to; i++)
		fprintf(f, "%s\n", records[i]);
	if (tail)
		fputs(tail, f);
	assert_int_equal(fclose(f), 0);
	return dir;
}

static char *slurp(const char *dir, const char *name)
{
	char path[256];
	FILE *f;
	long size;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	return text;
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static cJSON *load_json(const char *dir)
{
	char *text = slurp(dir, "ratings.json");
	cJSON *root = cJSON_Parse(text);
	free(text);
	assert_non_null(root);
	return root;
}

static const cJSON *json_bot(const cJSON *root, const char *name)
{
	const cJSON *b;
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(root, "bots")) {
		if (strcmp(cJSON_GetObjectItemCaseSensitive(b, "bot")->valuestring, name) == 0)
			return b;
	}
	fail_msg("bot %s missing from ratings.json", name);
	return NULL;
}

static double num(const cJSON *obj, const char *path)
{
	char key[64];
	const char *dot = strchr(path, '.');

	if (dot) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		return num(cJSON_GetObjectItemCaseSensitive(obj, key), dot + 1);
	}
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, path);
	if (!cJSON_IsNumber(v))
		fail_msg("%s is not a number", path);
	return v->valuedouble;
}

/* The counts of every bot, the same whether the records come from one directory or two. */
static void check_counts(const cJSON *root)
{
	const cJSON *a = json_bot(root, "A"), *b = json_bot(root, "B"), *c = json_bot(root, "C");

	assert_near(num(root, "records"), 6, 0);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "bots")), 3);
	assert_near(num(a, "games"), 6, 0);
	assert_near(num(a, "wins"), 3, 0);
	assert_near(num(a, "win_rate"), 0.5, 1e-9);
	assert_near(num(a, "points"), 130, 0);
	assert_near(num(a, "avg_stock_left"), 10.0 / 6, 0.001);
	assert_near(num(a, "faults_total"), 0, 0);
	assert_near(num(a, "time.mean_us"), 25, 1e-9);
	assert_near(num(a, "time.p99_us"), 80, 1e-9);
	assert_near(num(a, "time.max_us"), 95, 1e-9);
	assert_near(num(b, "games"), 6, 0);
	/* CPU per move, moves-weighted: 100 moves without it (0), 300 at 36 */
	assert_near(num(b, "time.cpu_mean_us"), 27, 1e-9);
	assert_near(num(a, "time.cpu_mean_us"), 0, 0);
	assert_near(num(b, "wins"), 1, 0);
	assert_near(num(b, "points"), 40, 0);
	assert_near(num(b, "avg_stock_left"), 3.5, 1e-9);
	assert_near(num(b, "faults.timeout"), 1, 0);
	assert_near(num(b, "faults_total"), 1, 0);
	assert_near(num(b, "time.mean_us"), 35, 1e-9);
	assert_near(num(b, "time.p99_us"), 90, 1e-9);
	assert_near(num(b, "time.max_us"), 500, 1e-9);
	assert_near(num(c, "games"), 2, 0);
	assert_near(num(c, "wins"), 1, 0);
	assert_near(num(c, "points"), 90, 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "time")));

	/* Cross table, rows and columns in rank order. */
	const cJSON *cross = cJSON_GetObjectItemCaseSensitive(root, "cross");
	const cJSON *names = cJSON_GetObjectItemCaseSensitive(cross, "bots");
	int ia = -1, ib = -1, ic = -1;
	for (int k = 0; k < 3; k++) {
		const char *s = cJSON_GetArrayItem(names, k)->valuestring;
		if (!strcmp(s, "A")) ia = k;
		if (!strcmp(s, "B")) ib = k;
		if (!strcmp(s, "C")) ic = k;
	}
	assert_true(ia >= 0 && ib >= 0 && ic >= 0);
#define CELL(m, i, j) cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cross, m), i), j)->valuedouble
	assert_near(CELL("score", ia, ib), 4, 0);
	assert_near(CELL("games", ia, ib), 6, 0);
	assert_near(CELL("score", ib, ia), 2, 0);
	assert_near(CELL("score", ia, ic), 0.5, 0);
	assert_near(CELL("games", ic, ia), 2, 0);
	assert_near(CELL("score", ib, ic), 1, 0);
#undef CELL

	/* Ranks follow Elo, and the field average is 0. */
	double sum = 0, prev = 1e9;
	const cJSON *bot;
	cJSON_ArrayForEach(bot, cJSON_GetObjectItemCaseSensitive(root, "bots")) {
		double elo = num(bot, "elo");
		assert_true(elo <= prev);
		assert_true(num(bot, "ci95") > 0);
		prev = elo;
		sum += elo;
	}
	assert_near(sum, 0, 0.05);
}

static void test_report_files(void **state)
{
	const char *dir = make_dir("one", 0, 6, NULL);
	char err[256], *text;
	FILE *table = tmpfile();
	(void)state;

	assert_non_null(table);
	assert_int_equal(report_generate(&dir, 1, NULL, table, err, sizeof(err)), 0);

	cJSON *root = load_json(dir);
	check_counts(root);
	assert_near(num(root, "duplicate_pairs"), 2, 0);
	const cJSON *pa = cJSON_GetObjectItemCaseSensitive(json_bot(root, "A"), "paired");
	assert_near(num(pa, "pairs"), 2, 0);
	assert_near(num(pa, "score"), 0.75, 1e-9);
	const cJSON *pent = cJSON_GetObjectItemCaseSensitive(pa, "pentanomial");
	double want_a[5] = { 0, 0, 1, 0, 1 };
	for (int k = 0; k < 5; k++)
		assert_near(cJSON_GetArrayItem(pent, k)->valuedouble, want_a[k], 0);
	pent = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(json_bot(root, "B"), "paired"), "pentanomial");
	double want_b[5] = { 1, 0, 1, 0, 0 };
	for (int k = 0; k < 5; k++)
		assert_near(cJSON_GetArrayItem(pent, k)->valuedouble, want_b[k], 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(json_bot(root, "C"), "paired")));
	const cJSON *seats = cJSON_GetObjectItemCaseSensitive(root, "seats");
	assert_int_equal(cJSON_GetArraySize(seats), 2);
	const cJSON *two = cJSON_GetArrayItem(seats, 0);
	assert_near(num(two, "players"), 2, 0);
	assert_near(num(two, "games"), 4, 0);
	assert_near(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(two, "win_rate"), 0)->valuedouble, 0.75, 1e-9);
	assert_near(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(two, "win_rate"), 1)->valuedouble, 0.25, 1e-9);
	cJSON_Delete(root);

	/* CSV: a header and one row per bot, every row as wide as the header. */
	text = slurp(dir, "ratings.csv");
	assert_int_equal(count(text, "\n"), 4);
	assert_true(strncmp(text, "rank,bot,elo,ci95,", 18) == 0);
	char *first = strdup(text);
	size_t fields = count(strtok(first, "\n"), ",");
	free(first);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		assert_int_equal(count(line, ","), fields);
	free(text);
	text = slurp(dir, "ratings.csv");
	assert_non_null(strstr(text, ",A,"));
	assert_non_null(strstr(text, ",6,3,0.5000,130,1.667,0,"));
	assert_non_null(strstr(text, ",6,1,0.1667,40,3.500,1,1,"));
	free(text);

	/* Markdown: the ranking rows, the cross-table cells, the paired section. */
	text = slurp(dir, "report.md");
	assert_non_null(strstr(text, "\n| 1 | "));
	assert_non_null(strstr(text, "\n| 3 | "));
	assert_null(strstr(text, "\n| 4 | "));
	assert_non_null(strstr(text, " 4/6 |"));
	assert_non_null(strstr(text, " 0.5/2 |"));
	assert_non_null(strstr(text, "## Paired statistics (duplicate deals)"));
	assert_non_null(strstr(text, "| 2 | 4 | 75.0% | 25.0% |"));
	assert_non_null(strstr(text, "timeout 1"));
	free(text);

	/* HTML: the elements report_html.h promises, one per bot or pair. */
	text = slurp(dir, "report.html");
	assert_int_equal(count(text, "<table id=\"ranking\">"), 1);
	assert_int_equal(count(text, "<circle class=\"elo\""), 3);
	assert_int_equal(count(text, "<rect class=\"cell\""), 6);
	assert_int_equal(count(text, "<rect class=\"mean\""), 2);
	assert_non_null(strstr(text, "</html>"));
	/* one inline script, the game list's filter; nothing loaded from elsewhere */
	assert_int_equal(count(text, "<script"), 1);
	assert_int_equal(count(text, "<script>"), 1);
	assert_null(strstr(text, " src="));
	assert_int_equal(count(text, "<table id=\"games\">"), 1);
	free(text);

	/* The terminal table: a header and the three bots. */
	char buf[4096];
	rewind(table);
	size_t got = fread(buf, 1, sizeof(buf) - 1, table);
	buf[got] = '\0';
	fclose(table);
	assert_non_null(strstr(buf, "rank"));
	/* the verdict, header, 3 bots, where the other columns are, records line, model, ties,
	 * skipped line, the fit line, the notes wrapped: every line in 80 columns (no tty) */
	assert_in_range(count(buf, "\n"), 10, 24);
	for (char *line = buf; *line; line = strchr(line, '\n') + 1)
		assert_in_range(strcspn(line, "\n"), 1, 80);
	assert_non_null(strstr(buf, "Model: pairwise Bradley-Terry fit of 2-player games"));
	assert_non_null(strstr(buf, "Ties: "));
	assert_non_null(strstr(buf, "Fit: the largest head-to-head residual is "));
	assert_non_null(strstr(buf, "timeout 1"));
}

static void test_merge_two_directories(void **state)
{
	const char *dirs[2] = { make_dir("first", 0, 3, NULL), make_dir("second", 3, 6, NULL) };
	const char *out = make_dir("merged", 0, 0, NULL);
	char err[256];
	(void)state;

	assert_int_equal(report_generate(dirs, 2, NULL, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(report_generate(dirs, 2, out, NULL, err, sizeof(err)), 0);
	cJSON *root = load_json(out);
	check_counts(root);
	/* Deal 1's rotations are in different tournaments: not a pair. */
	assert_near(num(root, "duplicate_pairs"), 1, 0);
	cJSON_Delete(root);
	/* Nothing was written into the source directories. */
	char path[256];
	snprintf(path, sizeof(path), "%s/ratings.json", dirs[0]);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_torn_last_line_ignored(void **state)
{
	char tail[200], err[256];
	(void)state;

	snprintf(tail, sizeof(tail), "%.100s", records[0]);
	const char *dir = make_dir("running", 0, 6, tail);
	assert_int_equal(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)), 0);
	cJSON *root = load_json(dir);
	check_counts(root);
	assert_near(num(root, "skipped_torn"), 1, 0);
	assert_near(num(root, "skipped_invalid"), 0, 0);
	cJSON_Delete(root);
}

static void test_errors_and_anchor(void **state)
{
	const char *dir = make_dir("anchor", 0, 6, NULL), *empty = make_dir("empty", 0, 0, "{\"torn");
	const char *missing = "/nonexistent-dir";
	char err[256];
	(void)state;

	assert_int_equal(report_generate(&missing, 1, NULL, NULL, err, sizeof(err)), -ENOENT);
	/* a folder without games.jsonl: the error says what to name instead */
	assert_non_null(strstr(err, "name the output directory of a run"));
	assert_int_equal(report_generate(&empty, 1, NULL, NULL, err, sizeof(err)), -ENODATA);
	struct report_options opt = REPORT_OPTIONS_DEFAULT;

	opt.anchor = "Z";
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, NULL, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "\"Z\""));
	opt.anchor = "B";
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, NULL, err, sizeof(err)), 0);
	cJSON *root = load_json(dir);
	assert_near(num(json_bot(root, "B"), "elo"), 0, 1e-9);
	assert_near(num(json_bot(root, "B"), "ci95"), 0, 1e-9);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(root, "anchor")->valuestring, "B");
	cJSON_Delete(root);
}

/*
 * Fixed ratings (a league's anchors): each given bot is rated as given, with
 * no interval and no bound, the others fitted against them; every format
 * names them, and ratings.json lists them. An unknown name is left out.
 */
static void test_fixed_ratings(void **state)
{
	const char *dir = make_dir("fixed", 0, 6, NULL);
	const char *names[] = { "A", "B", "nobody" };
	const double elo[] = { 100, -50, 7 };
	struct report_options opt = REPORT_OPTIONS_DEFAULT;
	char err[256], *md;
	cJSON *root, *fixed;
	(void)state;

	opt.fixed_names = names;
	opt.fixed_elo = elo;
	opt.nfixed = 3;
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, NULL, err, sizeof(err)), 0);
	root = load_json(dir);
	assert_near(num(json_bot(root, "A"), "elo"), 100, 1e-9);
	assert_near(num(json_bot(root, "A"), "ci95"), 0, 1e-9);
	assert_near(num(json_bot(root, "B"), "elo"), -50, 1e-9);
	assert_true(num(json_bot(root, "C"), "ci95") > 0);
	fixed = cJSON_GetObjectItemCaseSensitive(root, "fixed");
	assert_int_equal(cJSON_GetArraySize(fixed), 2);
	assert_near(num(fixed, "A"), 100, 1e-9);
	assert_null(cJSON_GetObjectItemCaseSensitive(fixed, "nobody"));
	cJSON_Delete(root);
	md = slurp(dir, "report.md");
	assert_non_null(strstr(md, "fixed, not fitted: A 100, B -50"));
	free(md);
	/* --anchor wins over fixed ratings */
	opt.anchor = "C";
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, NULL, err, sizeof(err)), 0);
	root = load_json(dir);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "fixed"));
	assert_near(num(json_bot(root, "C"), "elo"), 0, 1e-9);
	cJSON_Delete(root);
}

static void test_report_command(void **state)
{
	const char *dir = make_dir("command", 0, 6, NULL);
	char *ok[] = { "report", "--quiet", "--prior", "1", (char *)dir, NULL };
	char *bad_prior[] = { "report", "--prior", "-1", (char *)dir, NULL };
	/* Options after the directory, and a prior small enough to have stopped Newton. */
	char *after[] = { "report", (char *)dir, "--prior", "1e-6", "-q", NULL };
	char *anchored[] = { "report", "-q", (char *)dir, "--anchor", "B=12.5", "--plain-intervals",
			     NULL };
	char *no_number[] = { "report", "-q", (char *)dir, "--anchor", "B=x", NULL };
	char *empty_name[] = { "report", "-q", (char *)dir, "--anchor", "=5", NULL };
	char *no_dir[] = { "report", NULL };
	char *two_no_out[] = { "report", (char *)dir, (char *)dir, NULL };
	char *missing[] = { "report", "-q", "/nonexistent-dir", NULL };
	(void)state;

	assert_int_equal(cmd_report(5, ok), 0);
	cJSON *root = load_json(dir);
	assert_near(num(root, "prior_draws"), 1, 0);
	check_counts(root);
	cJSON_Delete(root);
	assert_int_equal(cmd_report(4, bad_prior), 2);
	assert_int_equal(cmd_report(5, after), 0);
	root = load_json(dir);
	assert_near(num(root, "prior_draws"), 1e-6, 0);
	cJSON_Delete(root);
	assert_int_equal(cmd_report(6, anchored), 0);
	root = load_json(dir);
	assert_near(num(json_bot(root, "B"), "elo"), 12.5, 1e-9);
	assert_near(num(root, "anchor_elo"), 12.5, 0);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(root, "intervals")->valuestring, "plain");
	cJSON_Delete(root);
	/* "B=x" is a bot named so, which played no game; "=5" names no bot. */
	assert_int_equal(cmd_report(5, no_number), 1);
	assert_int_equal(cmd_report(5, empty_name), 2);
	assert_int_equal(cmd_report(1, no_dir), 2);
	assert_int_equal(cmd_report(3, two_no_out), 2);
	assert_int_equal(cmd_report(3, missing), 1);
}

/* records[0] with a move time of value at seat 1, as a crafted line could hold it. */
static void crafted_time(char *buf, size_t size, const char *value)
{
	const char *at = strstr(records[0], "\"max_us\":70");

	assert_non_null(at);
	snprintf(buf, size, "%.*s\"max_us\":%s%s\n", (int)(at - records[0]), records[0], value,
		 at + strlen("\"max_us\":70"));
}

/* A move time of 1e400 or 1e39 is refused with its line; the report is written at once. */
static void test_hostile_times(void **state)
{
	char tail[2048], line[1024], err[256];
	FILE *table = tmpfile();
	const char *dir;
	char *md, *html, *text;
	(void)state;

	crafted_time(tail, sizeof(tail), "1e400");
	crafted_time(line, sizeof(line), "1e39");
	strcat(tail, line);
	dir = make_dir("hostile", 0, 6, tail);
	assert_int_equal(report_generate(&dir, 1, NULL, table, err, sizeof(err)), 0);
	cJSON *root = load_json(dir);
	check_counts(root);
	assert_near(num(root, "skipped_invalid"), 2, 0);
	cJSON_Delete(root);
	text = calloc(1, 4096);
	assert_non_null(text);
	rewind(table);
	assert_true(fread(text, 1, 4095, table) > 0);
	assert_non_null(strstr(text, "/hostile/games.jsonl, line 7: time[1].max_us: expected a "
				     "number from 0 to"));
	assert_non_null(strstr(text, "found 1e400"));
	free(text);
	fclose(table);
	md = slurp(dir, "report.md");
	assert_non_null(strstr(md, "line 7: time\\[1\\].max_us"));
	free(md);
	html = slurp(dir, "report.html");
	assert_true(strlen(html) < 200000);
	assert_non_null(strstr(html, "line 7: time[1].max_us"));
	free(html);
}

/* Whatever the numbers, every chart axis has a bounded number of ticks. */
static void test_chart_axes_bounded(void **state)
{
	static const double extremes[] = { INFINITY, -INFINITY, NAN, 1e39, 1e300, DBL_MAX, 1e-300 };
	struct gamelog log;
	struct report r;
	char err[256];
	(void)state;

	gamelog_init(&log);
	for (int i = 0; i < 6; i++)
		assert_int_equal(gamelog_add_line(&log, records[i], strlen(records[i]), 0), 0);
	assert_int_equal(fixture_report_build(&r, &log, &report_defaults, err, sizeof(err)), 0);
	for (size_t k = 0; k < sizeof(extremes) / sizeof(extremes[0]); k++) {
		FILE *f = tmpfile();
		long size;

		assert_non_null(f);
		r.bots[0].time_max_us = extremes[k];
		r.bots[1].time_mean_us = extremes[k];
		r.bots[0].elo = extremes[k];
		r.bots[1].ci95 = extremes[k];
		assert_int_equal(report_write_html(&r, f), 0);
		size = ftell(f);
		if (size <= 0 || size > 200000)
			fail_msg("report.html of %zu bytes with %g", (size_t)size, extremes[k]);
		fclose(f);
	}
	report_release(&r);
	gamelog_release(&log);
}

/*
 * A gauntlet (tournament.json names C the challenger): C against the field A
 * and B scored 1.5 of 2 against A and 1 of 2 against B, so 2.5 of 4 results;
 * a partial report says so in every format.
 */
static void test_gauntlet_and_partial(void **state)
{
	struct report_options opt = REPORT_OPTIONS_DEFAULT;
	const char *dir = make_dir("gauntlet", 0, 6, NULL);
	const cJSON *list, *c;
	char path[256], err[256], *md, *html;
	double mean;
	cJSON *root;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tournament.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"name\": \"g\", \"format\": \"gauntlet\", \"challengers\": [\"C\"]}", f);
	assert_int_equal(fclose(f), 0);
	opt.partial = true;
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, NULL, err, sizeof(err)), 0);
	root = load_json(dir);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "partial")));
	list = cJSON_GetObjectItemCaseSensitive(root, "challengers");
	assert_int_equal(cJSON_GetArraySize(list), 1);
	c = cJSON_GetArrayItem(list, 0);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(c, "bot")->valuestring, "C");
	assert_near(num(c, "field_results"), 4, 1e-9);
	assert_near(num(c, "field_score"), 0.625, 1e-9);
	mean = (num(json_bot(root, "A"), "elo") + num(json_bot(root, "B"), "elo")) / 2;
	assert_near(num(c, "elo_minus_field_mean"), num(json_bot(root, "C"), "elo") - mean, 0.02);
	cJSON_Delete(root);
	md = slurp(dir, "report.md");
	assert_non_null(strstr(md, "**Partial: the run was stopped before every game was played"));
	assert_non_null(strstr(md, "| 1 | C | "));
	assert_non_null(strstr(md, " | 4 | 62.5% | "));
	free(md);
	html = slurp(dir, "report.html");
	assert_int_equal(count(html, "<p class=\"warn partial\">"), 1);
	assert_non_null(strstr(html, "<table id=\"challengers\">"));
	free(html);
}

/* Each bot's section gives its results by seat (records 0-5, worked out by hand). */
static void test_per_bot_by_seat(void **state)
{
	const char *dir = make_dir("by-seat", 0, 6, NULL);
	char err[256], *html;

	(void)state;
	assert_int_equal(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)), 0);
	html = slurp(dir, "report.html");
	assert_non_null(strstr(html, "By seat: seat 0 won 2 of 3 (66.7%), seat 1 won 1 of 3 "
				     "(33.3%). Faults: none."));
	assert_non_null(strstr(html, "By seat: seat 0 won 1 of 2 (50.0%), seat 1 won 0 of 3 "
				     "(0.0%), seat 2 won 0 of 1 (0.0%). Faults: timeout 1."));
	free(html);
}

/* The header's dates: when the tournament started (tournament.json), when
 * the last game was recorded (games.jsonl's time) and when the report was
 * made, by which version of the arena. */
static void test_header_dates(void **state)
{
	const char *dir = make_dir("dated", 0, 6, NULL);
	struct timeval at[2] = { { 1767323040, 0 }, { 1767323040, 0 } }; /* 2026-01-02 03:04 UTC */
	char path[256], err[256], *html;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tournament.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"name\": \"dated\", \"players\": 2, \"started\": \"2026-01-01T22:33:44Z\"}", f);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	assert_int_equal(utimes(path, at), 0);
	assert_int_equal(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)), 0);
	html = slurp(dir, "report.html");
	assert_non_null(strstr(html, "<dt>started</dt><dd>2026-01-01T22:33:44Z</dd>\n"
				     "<dt>last game recorded</dt><dd>2026-01-02 03:04 UTC</dd>\n"
				     "<dt>report made</dt><dd>20"));
	assert_non_null(strstr(html, " UTC by skipbo-arena " SKIPBO_VERSION "</dd>"));
	free(html);
}

/* A faulted 2-player record of A against B: B removed with this kind and reason. */
static void faulted_record(FILE *f, const char *id, int table, const char *kind, const char *why)
{
	fprintf(f, "{\"id\":\"%s\",\"table\":%d,\"deal\":0,\"rotation\":0,\"players\":2,"
		"\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,\"games\":1,"
		"\"bots\":[\"A\",\"B\"],\"winners\":[0],\"reason\":\"forfeit\",\"placings\":[1,2],"
		"\"stock_left\":[3,5],\"scores\":[25,0],\"faults\":[{\"seat\":1,\"bot\":\"B\","
		"\"kind\":\"%s\",\"game\":1,\"turn\":3,\"move\":9,\"reason\":\"%s\","
		"\"line\":\"\"}]}\n", id, table, kind, why);
}

/* The faults section lists each distinct reason per bot and kind with how
 * often it was given and the first game that gave it, escaped as HTML;
 * reasons alike but for their numbers (the position a reason ends with) are one. */
static void test_fault_reasons(void **state)
{
	const char *dir = make_dir("reasons", 0, 6, NULL);
	char path[256], err[256], *html;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	f = fopen(path, "a");
	assert_non_null(f);
	faulted_record(f, "t0002-d0000-r0", 2, "timeout", "no answer within 1000 ms");
	faulted_record(f, "t0002-d0001-r0", 2, "illegal", "<b> is not a move");
	faulted_record(f, "t0002-d0002-r0", 2, "timeout", "no answer within 1000 ms");
	/* one reason, placed where each fault happened */
	faulted_record(f, "t0002-d0003-r0", 2, "malformed", "not JSON (at turn 3, move 9)");
	faulted_record(f, "t0002-d0004-r0", 2, "malformed", "not JSON (at turn 12, move 40)");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)), 0);
	html = slurp(dir, "report.html");
	assert_int_equal(count(html, "<table id=\"fault-reasons\">"), 1);
	assert_non_null(strstr(html, "<details id=\"fault-reasons-box\" open><summary>3 distinct "
				     "reasons, each "));
	assert_non_null(strstr(html, "<td class=\"name\">malformed</td><td>2</td><td class=\"name\">"
				     "not JSON (at turn 3, move 9)</td><td class=\"name\">"
				     "t0002-d0003-r0</td>"));
	/* records[5] gave the timeout first; two more gave the same reason */
	assert_non_null(strstr(html, "<tr><td class=\"name\">B</td><td class=\"name\">timeout"
				     "</td><td>3</td><td class=\"name\">no answer within 1000 ms"
				     "</td><td class=\"name\">t0001-d0001-r0</td></tr>"));
	assert_non_null(strstr(html, "<tr><td class=\"name\">B</td><td class=\"name\">illegal"
				     "</td><td>1</td><td class=\"name\">&lt;b&gt; is not a move"
				     "</td><td class=\"name\">t0002-d0001-r0</td></tr>"));
	assert_null(strstr(html, "id=\"fault-reasons-more\""));
	free(html);
}

/*
 * The 80-column table: B's six fault kinds ("timeout 1, exit 1, closed 1,
 * malformed 1, protocol 1, illegal 1", 57 characters) pass column 80 after
 * its 50 columns, so they continue on lines of their own under the column,
 * broken after a comma; the wide table keeps them on B's line.
 */
static void test_narrow_table_wraps_faults(void **state)
{
	static const char *const kinds[] = { "exit", "closed", "malformed", "protocol", "illegal" };
	const char *dir = make_dir("wrapped", 0, 6, NULL);
	struct report_options opt = REPORT_OPTIONS_DEFAULT;
	char path[256], err[256], buf[8192], *line, *next;
	static const char *const continued[] = { "malformed 1, protocol 1,\n", "illegal 1\n" };
	int b_lines = 0, under = 0;
	FILE *f, *table;

	(void)state;
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	f = fopen(path, "a");
	assert_non_null(f);
	for (int k = 0; k < 5; k++) {
		char id[32];

		snprintf(id, sizeof(id), "t0002-d%04d-r0", k);
		faulted_record(f, id, 2, kinds[k], "why");
	}
	assert_int_equal(fclose(f), 0);
	table = tmpfile();
	assert_non_null(table);
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, table, err, sizeof(err)), 0);
	rewind(table);
	buf[fread(buf, 1, sizeof(buf) - 1, table)] = '\0';
	*strstr(buf, "(--wide") = '\0';
	for (line = strstr(buf, "\nrank ") + 1; *line; line = next + 1) {
		next = strchr(line, '\n');
		assert_non_null(next);
		assert_in_range(next - line, 1, 80);
		if (strncmp(line, "   2  B ", 8) == 0 || strncmp(line, "   3  B ", 8) == 0) {
			b_lines++;
			assert_non_null(strstr(line, "  timeout 1, exit 1, closed 1,\n"));
		} else if (line[0] == ' ' && strspn(line, " ") == 50) {
			assert_in_range(under, 0, 1);
			assert_int_equal(strncmp(line + 50, continued[under],
						 strlen(continued[under])), 0);
			under++;
		}
	}
	assert_int_equal(b_lines, 1);
	assert_int_equal(under, 2);
	fclose(table);
	/* wide: the whole list on B's line */
	opt.wide = true;
	table = tmpfile();
	assert_non_null(table);
	assert_int_equal(report_generate_opts(&dir, 1, NULL, &opt, table, err, sizeof(err)), 0);
	rewind(table);
	buf[fread(buf, 1, sizeof(buf) - 1, table)] = '\0';
	assert_non_null(strstr(buf, "  timeout 1, exit 1, closed 1, malformed 1, protocol 1, "
				    "illegal 1\n"));
	fclose(table);
}

/*
 * 100,000 games, 4,000 of them faulted with as many reasons: report.html
 * stays small, listing GAMELIST_MAX games and GAMELIST_REASONS_MAX reasons
 * and saying how many it left out.
 */
static void test_big_tournament_page_bounded(void **state)
{
	char path[256], err[256], id[32], why[32], note[128], *html;
	const char *dir = path;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/big", fixture_dir);
	f = fixture_games_create(dir);
	for (int i = 0; i < 100000; i++) {
		snprintf(id, sizeof(id), "t%04d-d%04d-r0", i % 1000, i / 1000);
		if (i % 25 == 0) {
			/* distinct in letters: reasons apart only by a number are one */
			snprintf(why, sizeof(why), "reason %c%c%c", 'a' + i / 25 % 26,
				 'a' + i / 25 / 26 % 26, 'a' + i / 25 / 676 % 26);
			faulted_record(f, id, i % 1000, "illegal", why);
		} else {
			fprintf(f, "{\"id\":\"%s\",\"table\":%d,\"deal\":%d,\"rotation\":0,"
				"\"players\":2,\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,"
				"\"games\":1,\"bots\":[\"A\",\"B\"],\"winners\":[%d],"
				"\"reason\":\"stock_emptied\",\"placings\":[%d,%d],\"stock_left\":[0,0],"
				"\"scores\":[5,5],\"faults\":[]}\n", id, i % 1000, i / 1000, i % 3 == 0,
				1 + (i % 3 == 0), 2 - (i % 3 == 0));
		}
	}
	assert_int_equal(fclose(f), 0);
	assert_int_equal(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)), 0);
	html = slurp(dir, "report.html");
	assert_int_equal(count(html, "<tr data-bots="), GAMELIST_MAX);
	snprintf(note, sizeof(note), "%d games listed", GAMELIST_MAX);
	assert_non_null(strstr(html, note));
	snprintf(note, sizeof(note), "; %d more are in games.jsonl", 100000 - GAMELIST_MAX);
	assert_non_null(strstr(html, note));
	assert_int_equal(count(html, "<td class=\"name\">illegal</td>"), GAMELIST_REASONS_MAX);
	assert_non_null(strstr(html, "<details id=\"fault-reasons-box\"><summary>200 distinct "));
	snprintf(note, sizeof(note), "%d more faults gave other reasons", 4000 - GAMELIST_REASONS_MAX);
	assert_non_null(strstr(html, note));
	/* a page a phone opens: well under a megabyte per 1000 rows */
	assert_true(strlen(html) < 2u * 1024 * 1024);
	free(html);
}

/* After report_request_stop() (a signal), a report stops with -EINTR and leaves no file. */
static void test_stop_leaves_nothing(void **state)
{
	const char *dir = make_dir("stopped", 0, 6, NULL);
	char path[256], err[256];
	int status;
	pid_t pid;
	(void)state;

	/* in a child: the request lasts for the rest of the process */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		report_request_stop();
		_exit(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)) == -EINTR &&
		      strstr(err, "stopped") ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	for (const char *const *name = (const char *const[]){ "ratings.json", "report.md",
							       "report.html", NULL }; *name; name++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *name);
		assert_int_equal(access(path, F_OK), -1);
	}
	snprintf(path, sizeof(path), "ls %s | grep -q tmp", dir);
	assert_int_not_equal(system(path), 0);
}

/* A temporary of a report killed on the way (kill -9) goes with the next report; one of a
 * report still running, or not a report's, stays. */
static void test_dead_temporaries_removed(void **state)
{
	const char *dir = make_dir("killed", 0, 6, NULL);
	char dead[256], live[256], other[256], err[256];
	pid_t gone, alive;
	int status;
	(void)state;

	gone = fork();
	assert_true(gone >= 0);
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, &status, 0), gone);
	alive = fork();
	assert_true(alive >= 0);
	if (alive == 0) {
		pause();
		_exit(0);
	}
	snprintf(dead, sizeof(dead), "%s/report.md.tmp.%ld", dir, (long)gone);
	snprintf(live, sizeof(live), "%s/report.md.tmp.%ld", dir, (long)alive);
	snprintf(other, sizeof(other), "%s/notes.md.tmp.%ld", dir, (long)gone);
	for (const char *const *p = (const char *const[]){ dead, live, other, NULL }; *p; p++) {
		FILE *f = fopen(*p, "w");

		assert_non_null(f);
		fputs("# Ran", f);
		assert_int_equal(fclose(f), 0);
	}
	assert_int_equal(report_generate(&dir, 1, NULL, NULL, err, sizeof(err)), 0);
	kill(alive, SIGKILL);
	assert_int_equal(waitpid(alive, &status, 0), alive);
	assert_int_equal(access(dead, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	assert_int_equal(access(other, F_OK), 0);
}

/* Our fit against BradleyTerry2's on the fixture (fixture/fit_bradleyterry.R). */
static void test_matches_bradleyterry2(void **state)
{
	struct gamelog log;
	struct report r;
	char err[256], line[256];
	FILE *f;
	int checked = 0;
	(void)state;

	gamelog_init(&log);
	assert_int_equal(gamelog_read(&log, RATING_FIXTURE_DIR "/games.jsonl", err, sizeof(err)), 0);
	assert_int_equal(log.invalid, 0);
	assert_int_equal(fixture_report_build(&r, &log, &report_defaults, err, sizeof(err)), 0);
	f = fopen(RATING_FIXTURE_DIR "/expected_elo.csv", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		char *comma = strchr(line, ',');
		assert_non_null(comma);
		*comma = '\0';
		long i = gamelog_find_bot(&log, line);
		assert_true(i >= 0);
		assert_near(r.bots[i].elo, strtod(comma + 1, NULL), 1.0);
		checked++;
	}
	fclose(f);
	assert_int_equal(checked, (int)log.nbots);
	assert_true(checked >= 5);
	report_release(&r);
	gamelog_release(&log);
}

static void line_into(void *ctx, const char *text)
{
	strlcat(ctx, text, 4096);
	strlcat(ctx, "\n", 4096);
}

/*
 * The header of a report of mixed player counts and partnership games names
 * the team model, every kind of game and that they share one scale; its tie
 * count is the draws of fixture/pairs.csv (counted by make_fixture.py).
 */
static void test_model_and_ties_lines(void **state)
{
	struct gamelog log;
	struct report r;
	char err[256], line[256], text[4096] = "", expect[128];
	double draws = 0, results = 0;
	FILE *f;
	(void)state;

	gamelog_init(&log);
	assert_int_equal(gamelog_read(&log, RATING_FIXTURE_DIR "/games.jsonl", err, sizeof(err)), 0);
	assert_int_equal(fixture_report_build(&r, &log, &report_defaults, err, sizeof(err)), 0);
	f = fopen(RATING_FIXTURE_DIR "/pairs.csv", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		double w1, w2, d;
		char *p = line;
		for (int field = 0; field < 3; field++) { /* kind, player1, player2 */
			p = strchr(p, ',');
			assert_non_null(p);
			p++;
		}
		assert_int_equal(sscanf(p, "%lf,%lf,%lf", &w1, &w2, &d), 3);
		draws += d;
		results += w1 + w2 + d;
	}
	fclose(f);
	assert_true(draws > 0);
	report_model_lines(&r, line_into, text);
	assert_non_null(strstr(text, "Model: team Bradley-Terry fit of 2-player games (702 records), "
				     "3-player games (388 records), 4-player games (488 records) and "
				     "4-player partnership games (222 records)"));
	assert_non_null(strstr(text, "joined on the Elo scale of 2-player games"));
	/* the discriminations against the reference kind are those R fits (fit_bradleyterry.R) */
	assert_int_equal(r.fit.reference_kind, rating_kind(2, 0));
	f = fopen(RATING_FIXTURE_DIR "/expected_scale.csv", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	int scales = 0;
	while (fgets(line, sizeof(line), f)) {
		int players = atoi(line), kind = rating_kind(players, strchr(line, 'p') != NULL);
		double want = strtod(strchr(line, ',') + 1, NULL);
		assert_near(r.fit.scale[kind], want, 0.01);
		snprintf(expect, sizeof(expect), "%s x%.2f", rating_kind_name(kind), r.fit.scale[kind]);
		assert_non_null(strstr(text, expect));
		scales++;
	}
	fclose(f);
	assert_int_equal(scales, 3);
	snprintf(expect, sizeof(expect), "Ties: %.0f of %.0f rated results", draws, results);
	assert_non_null(strstr(text, expect));
	assert_near(r.pairs.ties, draws, 0);
	report_release(&r);
	gamelog_release(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_files),
		cmocka_unit_test(test_merge_two_directories),
		cmocka_unit_test(test_torn_last_line_ignored),
		cmocka_unit_test(test_errors_and_anchor),
		cmocka_unit_test(test_fixed_ratings),
		cmocka_unit_test(test_report_command),
		cmocka_unit_test(test_hostile_times),
		cmocka_unit_test(test_chart_axes_bounded),
		cmocka_unit_test(test_stop_leaves_nothing),
		cmocka_unit_test(test_dead_temporaries_removed),
		cmocka_unit_test(test_gauntlet_and_partial),
		cmocka_unit_test(test_header_dates),
		cmocka_unit_test(test_per_bot_by_seat),
		cmocka_unit_test(test_fault_reasons),
		cmocka_unit_test(test_narrow_table_wraps_faults),
		cmocka_unit_test(test_big_tournament_page_bounded),
		cmocka_unit_test(test_matches_bradleyterry2),
		cmocka_unit_test(test_model_and_ties_lines),
	};
	return cmocka_run_group_tests(tests, fixture_dir_make, fixture_dir_remove);
}
