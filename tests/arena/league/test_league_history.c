/*
 * test_league_history.c - history.jsonl (league_history.c) written and read
 * back, its strict reader's refusals, a line torn by a kill, the summary's
 * bounded memory, and the league section of report.md and report.html
 * (league_history_report.c).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "league_history.h"
#include "league_history_report.h"

static char dir[] = "/tmp/test_league_history.XXXXXX";
static char path[sizeof(dir) + 32];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, LEAGUE_HISTORY_FILE);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

static void write_text(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* What the reader saw: every line's entries copied. */
struct seen {
	size_t lines;
	int64_t time[4];
	uint64_t games[4];
	size_t n[4];
	char name[4][3][LEAGUE_HISTORY_NAME_MAX + 1];
	double elo[4][3], ci95[4][3];
	uint64_t entry_games[4][3];
};

static int collect(void *ctx, const struct league_history_line *line)
{
	struct seen *s = ctx;
	size_t k = s->lines++;

	if (k >= 4 || line->n > 3)
		return -E2BIG;
	s->time[k] = line->time;
	s->games[k] = line->games;
	s->n[k] = line->n;
	for (size_t i = 0; i < line->n; i++) {
		strcpy(s->name[k][i], line->entries[i].name);
		s->elo[k][i] = line->entries[i].elo;
		s->ci95[k][i] = line->entries[i].ci95;
		s->entry_games[k][i] = line->entries[i].games;
	}
	return 0;
}

static void round_trip(void **state)
{
	struct league_history_entry first[2] = { { "alice", 12.345678901234567, 8.5, 10 },
						 { "b\"o\\b <é>", NAN, NAN, 0 } };
	struct league_history_entry second[3] = { { "alice", -0.1, 0, 20 },
						  { "b\"o\\b <é>", 1e-9, 3.25, 4 },
						  { "carol@2", 1234.5, 99.0, 7 } };
	struct league_history_line lines[2] = { { 1764170000, 10, 2, first },
						{ 1764170060, 24, 3, second } };
	struct seen s = { 0 };
	char why[LEAGUE_HISTORY_WHY_MAX];

	(void)state;
	unlink(path);
	assert_int_equal(league_history_read(path, collect, &s, why, sizeof(why)), -ENOENT);
	for (int k = 0; k < 2; k++)
		assert_int_equal(league_history_append(path, &lines[k]), 0);
	assert_int_equal(league_history_read(path, collect, &s, why, sizeof(why)), 0);
	assert_int_equal(s.lines, 2);
	for (size_t k = 0; k < 2; k++) {
		assert_int_equal(s.time[k], lines[k].time);
		assert_int_equal(s.games[k], lines[k].games);
		assert_int_equal(s.n[k], lines[k].n);
		for (size_t i = 0; i < lines[k].n; i++) {
			const struct league_history_entry *e = &lines[k].entries[i];
			assert_string_equal(s.name[k][i], e->name);
			assert_true(isnan(e->elo) ? isnan(s.elo[k][i]) : s.elo[k][i] == e->elo);
			assert_true(isnan(e->ci95) ? isnan(s.ci95[k][i]) : s.ci95[k][i] == e->ci95);
			assert_int_equal(s.entry_games[k][i], e->games);
		}
	}
}

static void writer_refuses_bad_lines(void **state)
{
	struct league_history_entry twice[2] = { { "a", 1, 1, 1 }, { "a", 2, 2, 2 } };
	struct league_history_entry half[1] = { { "a", 1, NAN, 1 } };
	struct league_history_entry empty[1] = { { "", 1, 1, 1 } };
	struct league_history_line bad[3] = { { 1, 1, 2, twice }, { 1, 1, 1, half },
					      { 1, 1, 1, empty } };

	(void)state;
	for (int k = 0; k < 3; k++)
		assert_int_equal(league_history_append(path, &bad[k]), -EINVAL);
}

/* Each refusal: the text of line 2, and the start of the message after "path:2:". */
static void reader_refuses(void **state)
{
	static const char good[] = "{\"time\":1,\"games\":0,\"entries\":[]}\n";
	static const struct {
		const char *line, *message;
	} cases[] = {
		{ "{\"time\":1,\"games\":0,\"entries\":[],\"x\":1}", "1: unknown field \"x\"" },
		{ "{\"time\":1,\"games\":0}", "1: entries: expected an array" },
		{ "{\"time\":1,\"games\":7.0,\"entries\":[]}", "1: games: expected an integer" },
		{ "{\"time\":1,\"games\":0,\"entries\":[{\"name\":\"a\",\"elo\":null,\"ci95\":1,"
		  "\"games\":0}]}", "1: entries[0].elo and ci95" },
		{ "{\"time\":1,\"games\":0,\"entries\":[{\"name\":\"a\",\"elo\":1,\"ci95\":1,"
		  "\"games\":0},{\"name\":\"a\",\"elo\":1,\"ci95\":1,\"games\":0}]}",
		  "1: entries[1].name: \"a\" twice" },
		{ "{\"time\":1,\"games\":0,\"entries\":[{\"name\":\"a\",\"elo\":1,\"ci95\":-1,"
		  "\"games\":0}]}", "1: entries[0].ci95" },
		{ "{\"time\":1,\"time\":2,\"games\":0,\"entries\":[]}", "11: duplicate key" },
	};
	char text[512], why[LEAGUE_HISTORY_WHY_MAX], prefix[sizeof(path) + 8];
	struct seen s;

	(void)state;
	snprintf(prefix, sizeof(prefix), "%s:2:", path);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text), "%s%s\n%s", good, cases[k].line, good);
		write_text(text);
		memset(&s, 0, sizeof(s));
		assert_int_equal(league_history_read(path, collect, &s, why, sizeof(why)), -EBADMSG);
		assert_int_equal(s.lines, 1); /* the line before was read */
		assert_memory_equal(why, prefix, strlen(prefix));
		if (strncmp(why + strlen(prefix), cases[k].message, strlen(cases[k].message)))
			fail_msg("line %zu: \"%s\"", k, why);
	}
}

/* A kill in the middle of an append leaves a line without its newline: the reader skips
 * it, and the next append cuts it off before writing. */
static void torn_line(void **state)
{
	struct league_history_entry e[1] = { { "a", 5, 1, 3 } };
	struct league_history_line line = { 9, 3, 1, e };
	struct seen s = { 0 };
	char why[LEAGUE_HISTORY_WHY_MAX];

	(void)state;
	write_text("{\"time\":1,\"games\":0,\"entries\":[]}\n{\"time\":2,\"gam");
	assert_int_equal(league_history_read(path, collect, &s, why, sizeof(why)), 0);
	assert_int_equal(s.lines, 1);
	assert_int_equal(league_history_append(path, &line), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(league_history_read(path, collect, &s, why, sizeof(why)), 0);
	assert_int_equal(s.lines, 2);
	assert_int_equal(s.time[1], 9);
	/* a file that is one torn line */
	write_text("{\"time\":2,\"gam");
	assert_int_equal(league_history_append(path, &line), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(league_history_read(path, collect, &s, why, sizeof(why)), 0);
	assert_int_equal(s.lines, 1);
}

/* 1,000 refits of 3 entries, "new" joining at line 500: each series keeps a bounded number
 * of points, starts at its first line and ends at its last value. */
static void write_long_history(void)
{
	unlink(path);
	for (int64_t k = 0; k < 1000; k++) {
		struct league_history_entry e[3] = { { "old", 100.0 + (double)k / 10, 5, (uint64_t)k },
						     { "anchor", 0, 0, (uint64_t)k },
						     { "new", (double)k, 20, (uint64_t)k } };
		struct league_history_line line = { 1764170000 + 60 * k, 10 * (uint64_t)k,
						    k < 500 ? 2 : 3, e };
		assert_int_equal(league_history_append(path, &line), 0);
	}
}

static void summary_bounded(void **state)
{
	struct league_history_summary h;
	char why[LEAGUE_HISTORY_WHY_MAX];

	(void)state;
	write_long_history();
	assert_int_equal(league_history_summarise(path, &h, why, sizeof(why)), 0);
	assert_int_equal(h.lines, 1000);
	assert_int_equal(h.nseries, 3);
	assert_int_equal(h.last_games, 9990);
	const struct league_history_series *old = league_history_find(&h, "old");
	const struct league_history_series *fresh = league_history_find(&h, "new");
	assert_non_null(old);
	assert_non_null(fresh);
	assert_null(league_history_find(&h, "nobody"));
	assert_true(old->npoints <= 2 * LEAGUE_HISTORY_POINTS + 2);
	assert_true(old->npoints >= LEAGUE_HISTORY_POINTS / 2);
	assert_int_equal(old->points[0].line, 0);
	assert_int_equal(old->points[old->npoints - 1].line, 999);
	assert_true(old->points[old->npoints - 1].elo == 100.0 + 999.0 / 10);
	assert_int_equal(fresh->points[0].line, 500); /* where it came in, always kept */
	assert_true(fresh->points[fresh->npoints - 1].elo == 999);
	for (size_t k = 1; k < old->npoints; k++)
		assert_true(old->points[k].line > old->points[k - 1].line);
	league_history_summary_release(&h);
	unlink(path);
	assert_int_equal(league_history_summarise(path, &h, why, sizeof(why)), -ENOENT);
	assert_int_equal(h.nseries, 0);
	league_history_summary_release(&h);
}

/* The section of one format into a string (caller frees). */
static char *section(bool html, const struct league_history_summary *h,
		     const struct league_lineage *lin, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(html ? league_history_write_html(f, h, lin, n)
			      : league_history_write_md(f, h, lin, n), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void report_section(void **state)
{
	/* "new" is the second version of "old"; "new|<b>" is named to be escaped */
	struct league_lineage lin[4] = {
		{ "new", "old", LEAGUE_ENTRY_ACTIVE, NULL },
		{ "old", NULL, LEAGUE_ENTRY_RETIRED, NULL },
		{ "new|<b>", "new", LEAGUE_ENTRY_SUSPENDED, "3 start faults" },
		{ "anchor", NULL, LEAGUE_ENTRY_ACTIVE, NULL },
	};
	struct league_history_summary h;
	char why[LEAGUE_HISTORY_WHY_MAX];

	(void)state;
	write_long_history();
	assert_int_equal(league_history_summarise(path, &h, why, sizeof(why)), 0);
	char *md = section(false, &h, lin, 4), *html = section(true, &h, lin, 4);
	if (getenv("LEAGUE_HISTORY_SHOW"))
		printf("%s\n%s\n", md, html);
	/* rows by their latest Elo: new (999), old (199.9), anchor (0), then the unrated */
	char *r_new = strstr(md, "\n| new |"), *r_old = strstr(md, "\n| old |");
	char *r_anchor = strstr(md, "\n| anchor |");
	assert_non_null(r_new);
	assert_true(r_new < r_old && r_old < r_anchor);
	assert_non_null(strstr(md, "| new | old | playing | 999.0 | 20.0 | 999 | 500.0 | +499.0 |"));
	assert_non_null(strstr(md, "| old |  | retired | 199.9 | 5.0 | 999 | 100.0 | +99.9 |"));
	assert_non_null(strstr(md, "- old → new → new\\|\\<b\\>\n"));
	assert_non_null(strstr(md, "suspended (3 start faults)"));
	assert_non_null(strstr(md, "1000 refits on record from 2025-11-26 15:13 UTC to 2025-11-27 07:52 UTC"));
	assert_non_null(strstr(md, "| entry | 0 games |"));
	assert_non_null(strstr(md, " 9990 games |\n"));
	assert_null(strstr(md, "<b>"));
	assert_non_null(strstr(html, "<svg id=\"league-history\""));
	assert_non_null(strstr(html, "<polyline"));
	assert_non_null(strstr(html, "old &rarr; new &rarr; new|&lt;b&gt;"));
	assert_null(strstr(html, "<b>"));
	assert_non_null(strstr(html, "<table id=\"league-over-time\">"));
	free(md);
	free(html);
	/* no history yet: the entries are listed, unrated */
	league_history_summary_release(&h);
	unlink(path);
	assert_int_equal(league_history_summarise(path, &h, why, sizeof(why)), -ENOENT);
	md = section(false, &h, lin, 2);
	assert_non_null(strstr(md, "No rating on record yet."));
	assert_non_null(strstr(md, "| new | old | playing | - | - | 0 | - | - |"));
	free(md);
	league_history_summary_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(writer_refuses_bad_lines),
		cmocka_unit_test(reader_refuses),
		cmocka_unit_test(torn_line),
		cmocka_unit_test(summary_bounded),
		cmocka_unit_test(report_section),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
