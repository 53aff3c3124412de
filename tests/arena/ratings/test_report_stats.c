/*
 * test_report_stats.c - what a report says about its ratings (report_stats.c
 * and the intervals of report.c): bounds for ratings set by the prior alone,
 * disconnected pools, rated W/D/L against real wins, the fit line, the
 * anchor with a rating, the difference to the next bot, the seat warning,
 * and intervals clustered by deal; each in every format where it shows.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assert_near.h"
#include "gamelog.h"
#include "rating.h"
#include "rating_fixture.h"
#include "report.h"
#include "report_html.h"

struct built {
	struct gamelog log;
	struct report r;
	int next_id;
};

/* Add one record: 2-6 seats, bots by name, placings (1 best); winners are the seats placed 1
 * unless stalemate. Partnership records use R10's teams. */
static void add(struct built *b, int table, int deal, int rotation, int players, int partnership,
		const char *const *bots, const int *placing, int stalemate)
{
	char line[2048], list[512];
	int len, n = 0;

	len = snprintf(line, sizeof(line), "{\"id\":\"g%d\",\"table\":%d,\"deal\":%d,\"rotation\":%d,"
		       "\"players\":%d,\"partnership\":%s,\"teams\":[", b->next_id++, table, deal,
		       rotation, players, partnership ? "true" : "false");
	int teams = partnership ? players / 2 : players;
	for (int t = 0; t < teams; t++) {
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s[%d", t ? "," : "", t);
		if (partnership)
			len += snprintf(line + len, sizeof(line) - (size_t)len, ",%d", t + teams);
		len += snprintf(line + len, sizeof(line) - (size_t)len, "]");
	}
	len += snprintf(line + len, sizeof(line) - (size_t)len, "],\"match\":false,\"games\":1,\"bots\":[");
	for (int s = 0; s < players; s++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s\"%s\"", s ? "," : "", bots[s]);
	list[0] = '\0';
	for (int s = 0; s < players && !stalemate; s++)
		if (placing[s] == 1)
			n += snprintf(list + n, sizeof(list) - (size_t)n, "%s%d", n ? "," : "", s);
	len += snprintf(line + len, sizeof(line) - (size_t)len, "],\"winners\":[%s],\"reason\":\"%s\","
			"\"placings\":[", list, stalemate ? "stalemate" : "stock_emptied");
	for (int s = 0; s < players; s++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%d", s ? "," : "", placing[s]);
	len += snprintf(line + len, sizeof(line) - (size_t)len, "],\"stock_left\":[");
	for (int s = 0; s < players; s++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%d", s ? "," : "",
				placing[s] == 1 && !stalemate ? 0 : placing[s]);
	len += snprintf(line + len, sizeof(line) - (size_t)len, "],\"scores\":[");
	for (int s = 0; s < players; s++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%s0", s ? "," : "");
	len += snprintf(line + len, sizeof(line) - (size_t)len, "],\"faults\":[]}");
	assert_true(len > 0 && (size_t)len < sizeof(line));
	if (gamelog_add_line(&b->log, line, (size_t)len, 0) != 0)
		fail_msg("record refused: %s\n%s", b->log.why, line);
}

/* A 2-player game at its own deal: first wins unless draw. */
static void duel(struct built *b, const char *first, const char *second, int draw)
{
	const char *bots[2] = { first, second };
	int placing[2] = { 1, draw ? 1 : 2 };

	add(b, 0, b->next_id, 0, 2, 0, bots, placing, 0);
}

static void build(struct built *b, const struct report_options *opt)
{
	char err[256];
	struct report_options defaults = REPORT_OPTIONS_DEFAULT;

	if (fixture_report_build(&b->r, &b->log, opt ? opt : &defaults, err, sizeof(err)) != 0)
		fail_msg("fixture_report_build: %s", err);
}

static void release(struct built *b)
{
	report_release(&b->r);
	gamelog_release(&b->log);
}

static const struct report_bot *bot(const struct built *b, const char *name)
{
	long i = gamelog_find_bot(&b->log, name);

	assert_true(i >= 0);
	return &b->r.bots[i];
}

/* Everything one writer produces, as a string (free it). */
static char *written(const struct report *r, int (*writer)(const struct report *, FILE *))
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	assert_int_equal(writer(r, f), 0);
	fclose(f);
	return text;
}

static int write_table(const struct report *r, FILE *out)
{
	report_print_table_wide(r, out, true);
	return 0;
}

/* Every format holds needle. */
static void all_formats_hold(const struct report *r, const char *md, const char *html,
			     const char *csv, const char *json, const char *table)
{
	char *text;

	text = written(r, report_write_md);
	if (!strstr(text, md))
		fail_msg("report.md lacks \"%s\":\n%s", md, text);
	free(text);
	text = written(r, report_write_html);
	if (!strstr(text, html))
		fail_msg("report.html lacks \"%s\"", html);
	free(text);
	text = written(r, report_write_csv);
	if (!strstr(text, csv))
		fail_msg("ratings.csv lacks \"%s\":\n%s", csv, text);
	free(text);
	text = written(r, report_write_json);
	if (!strstr(text, json))
		fail_msg("ratings.json lacks \"%s\"", json);
	free(text);
	text = written(r, write_table);
	if (!strstr(text, table))
		fail_msg("the table lacks \"%s\":\n%s", table, text);
	free(text);
}

/* A bot that never scored is rated by the prior alone: a bound, with no interval. */
static void test_winless_bot_is_a_bound(void **state)
{
	struct built b = { 0 };
	char want[64];

	(void)state;
	gamelog_init(&b.log);
	for (int k = 0; k < 20; k++) {
		duel(&b, "A", "B", k % 3 == 0);
		duel(&b, k % 2 ? "B" : "A", k % 2 ? "A" : "B", 0);
		duel(&b, "A", "Z", 0);
		duel(&b, "B", "Z", 0);
	}
	build(&b, NULL);
	const struct report_bot *z = bot(&b, "Z"), *a = bot(&b, "A");
	assert_int_equal(z->bound, -1);
	/* Nothing is measured against a bound: no difference to it, no fit residual with it. */
	assert_true(isnan(bot(&b, "B")->next_diff));
	assert_true(isfinite(a->next_diff));
	assert_true(b.r.fit_j != gamelog_find_bot(&b.log, "Z") &&
		    b.r.fit_i != gamelog_find_bot(&b.log, "Z"));
	assert_int_equal(a->bound, 0);
	assert_int_equal(b.r.bounds, 1);
	/* At the bound, losing all 40 results has a 5% chance. */
	double ln = 20 * log(1 - rating_expected(z->bound_elo - a->elo)) +
		    20 * log(1 - rating_expected(z->bound_elo - bot(&b, "B")->elo));
	assert_near(ln, log(0.05), 1e-6);
	assert_true(z->bound_elo > z->elo);
	snprintf(want, sizeof(want), "< %.1f", z->bound_elo);
	char csv[64], json[64];
	snprintf(csv, sizeof(csv), "<,%.2f", z->bound_elo);
	snprintf(json, sizeof(json), "\"elo_bound\":\t\"<\"");
	all_formats_hold(&b.r, want, "&lt; ", csv, json, want);
	all_formats_hold(&b.r, "\\* \\< x or \\> x: a rating set by the prior alone",
			 "* &lt; x or &gt; x: a rating set by the prior alone", ",,,,40,0,0.0000,",
			 "a rating set by the prior alone", "< x or > x: a rating set by the prior");
	release(&b);
}

/* Two groups that never met: two rankings, each centred, no LOS across, and a warning. */
static void test_disconnected_pools(void **state)
{
	struct built b = { 0 };

	(void)state;
	gamelog_init(&b.log);
	for (int k = 0; k < 12; k++) {
		duel(&b, k % 3 ? "A" : "B", k % 3 ? "B" : "A", 0);
		duel(&b, k % 4 ? "C" : "D", k % 4 ? "D" : "C", 0);
	}
	build(&b, NULL);
	assert_int_equal(b.r.fit.npools, 2);
	const struct report_bot *a = bot(&b, "A"), *bb = bot(&b, "B"), *c = bot(&b, "C"),
				*d = bot(&b, "D");
	assert_int_not_equal(a->pool, c->pool);
	assert_int_equal(a->pool, bb->pool);
	assert_near(a->elo + bb->elo, 0, 1e-9);
	assert_near(c->elo + d->elo, 0, 1e-9);
	assert_int_equal(a->rank, 1);
	assert_int_equal(c->rank, 1);
	assert_int_equal(bb->rank, 2);
	assert_int_equal(d->rank, 2);
	assert_true(isnan(rating_los(&b.r.fit, 0, 2)));
	assert_true(!isfinite(a->next_diff) || a->next_diff == a->elo - bb->elo);
	all_formats_hold(&b.r, "### Pool 2", "Pool 2</th>", ",2,1,",
			 "the bots form 2 pools that never met", "pool 2:");
	all_formats_hold(&b.r, "Warning: the bots form 2 pools", "note warn", ",1,2,",
			 "\"pools\":\t2", "ratings of different pools are not comparable");
	release(&b);
}

/* A stalemate is a rated result by stock left, never a real win. */
static void test_rated_results_and_real_wins(void **state)
{
	struct built b = { 0 };
	const char *three[3] = { "A", "B", "C" };
	int stale[3] = { 1, 2, 2 }, won[3] = { 2, 1, 3 };

	(void)state;
	gamelog_init(&b.log);
	add(&b, 0, 0, 0, 3, 0, three, stale, 1);
	add(&b, 0, 1, 0, 3, 0, three, won, 0);
	build(&b, NULL);
	const struct report_bot *a = bot(&b, "A"), *bb = bot(&b, "B"), *c = bot(&b, "C");
	assert_int_equal(a->wins, 0);
	assert_near(a->rated_w, 3, 0); /* B and C in the stalemate, C in the second */
	assert_near(a->rated_d, 0, 0);
	assert_near(a->rated_l, 1, 0);
	assert_near(report_rated_score(a), 0.75, 1e-12);
	assert_int_equal(bb->wins, 1);
	assert_near(bb->rated_w, 2, 0);
	assert_near(bb->rated_d, 1, 0);
	assert_near(bb->rated_l, 1, 0);
	assert_near(c->rated_d, 1, 0);
	assert_near(c->rated_l, 3, 0);
	all_formats_hold(&b.r, "| 3 / 0 / 1 | 2 | 0 |", "<td>3 / 0 / 1</td>", ",3,0,1,0.7500,0",
			 "\"real_wins\":\t0", "3/0/1");
	release(&b);
}

/* A cycle at 75% is fitted as three equal bots; the fit line says the model does not explain it. */
static void test_fit_line_flags_a_cycle(void **state)
{
	struct built b = { 0 }, ok = { 0 };
	static const char *const cyc[3][2] = { { "A", "B" }, { "B", "C" }, { "C", "A" } };

	(void)state;
	gamelog_init(&b.log);
	gamelog_init(&ok.log);
	for (int p = 0; p < 3; p++)
		for (int k = 0; k < 40; k++) {
			duel(&b, cyc[p][k % 4 == 3], cyc[p][k % 4 != 3], 0);
			duel(&ok, cyc[p][k % 2], cyc[p][1 - k % 2], 0);
		}
	build(&b, NULL);
	build(&ok, NULL);
	assert_true(fabs(b.r.fit_z) > 3);
	assert_true(b.r.fit_p * (double)b.r.fit_pairs < 0.05);
	assert_near(b.r.fit_expected, 0.5, 1e-6);
	assert_true(ok.r.fit_p * (double)ok.r.fit_pairs >= 0.05);
	all_formats_hold(&b.r, "the ratings do not explain this result",
			 "the ratings do not explain this result", ",40,0,40,0.5000,",
			 "\"p_adjusted\"", "Fit: the largest head-to-head residual");
	all_formats_hold(&ok.r, "within chance", "within chance", "rank,", "within chance",
			 "within chance");
	release(&b);
	release(&ok);
}

/* --anchor B=1500 rates B 1500 and moves nothing else: differences, intervals of them. */
static void test_anchor_with_rating(void **state)
{
	struct built b = { 0 }, anchored = { 0 };
	struct report_options opt = REPORT_OPTIONS_DEFAULT;

	(void)state;
	gamelog_init(&b.log);
	gamelog_init(&anchored.log);
	for (int k = 0; k < 30; k++) {
		const char *x = k % 3 == 0 ? "C" : "A", *y = k % 5 == 0 ? "A" : "B";
		if (strcmp(x, y) == 0)
			y = "C";
		duel(&b, x, y, k % 7 == 0);
		duel(&anchored, x, y, k % 7 == 0);
	}
	build(&b, NULL);
	opt.anchor = "B";
	opt.anchor_elo = 1500;
	build(&anchored, &opt);
	assert_near(bot(&anchored, "B")->elo, 1500, 1e-9);
	assert_near(bot(&anchored, "B")->ci95, 0, 1e-9);
	for (size_t k = 0; k < 3; k++) {
		const struct report_bot *p = &b.r.bots[b.r.order[k]];
		const struct report_bot *q = &anchored.r.bots[anchored.r.order[k]];
		assert_string_equal(p->name, q->name);
		if (k < 2) {
			assert_near(p->next_diff, q->next_diff, 1e-9);
			/* The interval of a difference does not depend on the anchor. */
			assert_near(p->next_ci95, q->next_ci95, 1e-6);
			assert_true(p->next_ci95 > 0);
		} else {
			assert_true(isnan(p->next_diff));
		}
	}
	char *json = written(&anchored.r, report_write_json);
	assert_non_null(strstr(json, "\"anchor_elo\":\t1500"));
	free(json);
	release(&b);
	release(&anchored);
}

/* Seat 0 wins 70%: a warning without duplicate deals, none with them or with even seats. */
static void test_seat_warning(void **state)
{
	struct built plain = { 0 }, dup = { 0 }, even = { 0 };
	const char *ab[2] = { "A", "B" }, *ba[2] = { "B", "A" };
	int first[2] = { 1, 2 }, second[2] = { 2, 1 };

	(void)state;
	gamelog_init(&plain.log);
	gamelog_init(&dup.log);
	gamelog_init(&even.log);
	for (int k = 0; k < 200; k++) {
		int seat0 = k % 10 < 7;
		add(&plain, 0, k, 0, 2, 0, k % 2 ? ab : ba, seat0 ? first : second, 0);
		add(&dup, 0, k / 2, k % 2, 2, 0, k % 2 ? ba : ab, seat0 ? first : second, 0);
		add(&even, 0, k, 0, 2, 0, k % 2 ? ab : ba, k % 4 < 2 ? first : second, 0);
	}
	build(&plain, NULL);
	build(&dup, NULL);
	build(&even, NULL);
	assert_true(plain.r.seat_p[2] < 1e-6);
	all_formats_hold(&plain.r, "seats won 70.0%, 30.0% of the records",
			 "seats won 70.0%, 30.0%", "rank,", "\"equal_sides_p\"", "differs beyond chance");
	char *text = written(&dup.r, report_write_md);
	assert_null(strstr(text, "differs beyond chance"));
	free(text);
	assert_true(even.r.seat_p[2] > 0.5);
	text = written(&even.r, report_write_md);
	assert_null(strstr(text, "differs beyond chance"));
	free(text);
	release(&plain);
	release(&dup);
	release(&even);
}

/*
 * 2-player duplicate deals where the deal decides everything (the seat that
 * moves first wins both rotations): each deal is one win each, so the deal
 * as a cluster leaves almost no uncertainty, while results taken one by one
 * look like coin flips. The robust interval must be far narrower than the
 * plain one, which --plain-intervals still gives.
 */
static void test_intervals_clustered_by_deal(void **state)
{
	struct built robust = { 0 }, plain = { 0 };
	struct report_options opt = REPORT_OPTIONS_DEFAULT;
	const char *ab[2] = { "A", "B" }, *ba[2] = { "B", "A" };
	int first[2] = { 1, 2 }, second[2] = { 2, 1 };

	(void)state;
	gamelog_init(&robust.log);
	gamelog_init(&plain.log);
	for (int d = 0; d < 100; d++) {
		/* One deal in ten A wins both rotations, so A is a little stronger. */
		int both = d % 10 == 0;
		add(&robust, 0, d, 0, 2, 0, ab, first, 0);
		add(&robust, 0, d, 1, 2, 0, ba, both ? second : first, 0);
		add(&plain, 0, d, 0, 2, 0, ab, first, 0);
		add(&plain, 0, d, 1, 2, 0, ba, both ? second : first, 0);
	}
	build(&robust, NULL);
	opt.plain_intervals = true;
	build(&plain, &opt);
	double r = bot(&robust, "A")->ci95, p = bot(&plain, "A")->ci95;
	assert_near(bot(&robust, "A")->elo, bot(&plain, "A")->elo, 1e-9);
	assert_true(r > 0 && r < 0.5 * p);
	assert_near(p, RATING_Z95 * sqrt(plain.r.fit.cov_model[0]), 1e-9);
	char *json = written(&plain.r, report_write_json);
	assert_non_null(strstr(json, "\"intervals\":\t\"plain\""));
	free(json);
	release(&robust);
	release(&plain);
}

/* The verdict line opens the table, report.md and report.html; report.md has the faults. */
static void test_verdict_and_faults_everywhere(void **state)
{
	struct built b = { 0 };
	const char *two[2] = { "hard", "medium" };
	int first[2] = { 1, 2 }, second[2] = { 2, 1 };
	char verdict[256], *text;

	(void)state;
	gamelog_init(&b.log);
	for (int k = 0; k < 12; k++)
		add(&b, 0, k, 0, 2, 0, two, k % 4 ? first : second, 0);
	build(&b, NULL);
	report_verdict(&b.r, verdict, sizeof(verdict));
	if (strncmp(verdict, "hard leads medium by ", 21) || !strstr(verdict, " Elo; LOS ") ||
	    !strstr(verdict, "%: not yet decided"))
		fail_msg("verdict: %s", verdict);
	text = written(&b.r, write_table);
	if (strncmp(text, verdict, strlen(verdict)))
		fail_msg("the table does not open with the verdict:\n%s", text);
	free(text);
	text = written(&b.r, report_write_md);
	if (!strstr(text, "# Tournament report\n\n**hard leads medium by ") ||
	    !strstr(text, "Quote a bot's Elo with its \u00b195% interval") ||
	    !strstr(text, "## Faults\n\nNo bot faulted (R11).\n"))
		fail_msg("report.md:\n%s", text);
	free(text);
	text = written(&b.r, report_write_html);
	if (!strstr(text, "<p class=\"verdict\"><b>hard leads medium by ") ||
	    !strstr(text, "<b>Which figure to quote:</b> Quote a bot's Elo"))
		fail_msg("report.html has no verdict line or no word on which Elo to quote");
	free(text);
	release(&b);
}

/* A 2-player game where second has a start fault, and first one too when both. */
static void start_faults(struct built *b, const char *first, const char *second, int both)
{
	char line[512];
	int len = snprintf(line, sizeof(line), "{\"id\":\"g%d\",\"table\":0,\"deal\":%d,"
			   "\"rotation\":0,\"players\":2,\"partnership\":false,\"teams\":"
			   "[[0],[1]],\"match\":false,\"games\":1,\"bots\":[\"%s\",\"%s\"],"
			   "\"winners\":[%s],\"reason\":\"stock_emptied\",\"placings\":[1,2],"
			   "\"stock_left\":[0,5],\"scores\":[0,0],\"faults\":[%s{\"seat\":1,"
			   "\"kind\":\"start\"}]}", b->next_id, b->next_id, first, second,
			   both ? "" : "0", both ? "{\"seat\":0,\"kind\":\"start\"}," : "");

	b->next_id++;
	if (gamelog_add_line(&b->log, line, (size_t)len, 0) != 0)
		fail_msg("record refused: %s\n%s", b->log.why, line);
}

/* A bot whose every game is a start fault is left out of the fit: its forfeits lift nobody. */
static void test_never_started_not_rated(void **state)
{
	struct built b = { 0 };
	const char *ab[2] = { "a", "b" };
	int even[2][2] = { { 1, 2 }, { 2, 1 } };

	(void)state;
	gamelog_init(&b.log);
	for (int k = 0; k < 20; k++)
		add(&b, 0, b.next_id, 0, 2, 0, ab, even[k % 2], 0);
	for (int k = 0; k < 20; k++)
		start_faults(&b, "a", "ghost", 0);
	build(&b, NULL);
	assert_true(report_never_started(bot(&b, "ghost")));
	/* a and b split their games: 20 wins over a bot that never ran do not part them */
	assert_true(fabs(bot(&b, "a")->elo - bot(&b, "b")->elo) < 1.0);
	assert_true(bot(&b, "a")->pool == bot(&b, "b")->pool);
	assert_true(bot(&b, "ghost")->pool != bot(&b, "a")->pool);
	release(&b);
}

static int league_section(void *ctx, FILE *out)
{
	(void)ctx;
	fputs("LEAGUE SECTION\n", out);
	return 0;
}

/* A league's report says so in its title and shows its section first; report.md is plain
 * text for a pager: no character references, no escaped full stops. */
static void test_league_report_first(void **state)
{
	struct built b = { 0 };
	struct report_options opt = REPORT_OPTIONS_DEFAULT;
	char *md, *html;

	(void)state;
	gamelog_init(&b.log);
	for (int k = 0; k < 6; k++)
		duel(&b, "my_bot-1.5", "other", k % 3 == 0);
	opt.section_md = league_section;
	opt.section_html = league_section;
	opt.title = "League report";
	build(&b, &opt);
	md = written(&b.r, report_write_md);
	html = written(&b.r, report_write_html);
	assert_true(strncmp(md, "# League report\n", 16) == 0);
	assert_non_null(strstr(md, "LEAGUE SECTION"));
	assert_true(strstr(md, "LEAGUE SECTION") < strstr(md, "## Ranking"));
	assert_non_null(strstr(md, "| my_bot-1.5 |"));
	assert_null(strstr(md, "&#"));
	assert_null(strstr(md, "\\."));
	assert_non_null(strstr(html, "<title>League report</title>"));
	assert_true(strstr(html, "LEAGUE SECTION") < strstr(html, "<h2>Ranking"));
	free(md);
	free(html);
	release(&b);
}

static int write_table_80(const struct report *r, FILE *out)
{
	report_print_table(r, out);
	return 0;
}

/* The notes under the console ranking fit 80 columns where the output is no terminal. */
static void test_table_notes_wrapped(void **state)
{
	struct built b = { 0 };
	char *text, *line, *save = NULL;

	(void)state;
	gamelog_init(&b.log);
	for (int k = 0; k < 9; k++)
		duel(&b, "alpha", k % 3 ? "beta" : "gamma", k % 4 == 0);
	build(&b, NULL);
	text = written(&b.r, write_table_80);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t cols = 0;

		for (const char *c = line; *c; c++)
			cols += ((unsigned char)*c & 0xc0) != 0x80;
		if (cols > 80)
			fail_msg("a line of %zu columns: %s", cols, line);
	}
	free(text);
	release(&b);
}


/* The first row of text that names bot, from the start of its line. */
static char *row_of(char *text, const char *bot)
{
	char *at = strstr(text, bot);

	assert_non_null(at);
	while (at > text && at[-1] != '\n')
		at--;
	return at;
}

/* A bot that never started has no rank: "-" in the console table (80 columns and --wide)
 * and in report.md, listed last, and in the table of its rated opponents, not as the first
 * of a pool of its own; also when no bot started. */
static void test_never_started_unranked(void **state)
{
	struct built b = { 0 };
	char *text, *md;
	int wide;

	(void)state;
	for (int none_started = 0; none_started < 2; none_started++) {
		gamelog_init(&b.log);
		b.next_id = 0;
		for (int k = 0; k < 4 && !none_started; k++)
			duel(&b, "alpha", "beta", k % 2);
		for (int k = 0; k < 3; k++)
			start_faults(&b, none_started ? "alpha" : "beta", "ghost", none_started);
		build(&b, NULL);
		for (wide = 0; wide < 2; wide++) {
			text = written(&b.r, wide ? write_table : write_table_80);
			if (strncmp(row_of(text, "ghost"), "   -  ghost", 11) != 0)
				fail_msg("ghost has a rank:\n%s", text);
			assert_true(row_of(text, "ghost") > row_of(text, "alpha"));
			assert_null(strstr(text, "\npool "));
			free(text);
		}
		md = written(&b.r, report_write_md);
		assert_non_null(strstr(md, "| - | ghost |"));
		assert_non_null(strstr(md, none_started ? "| - | alpha |" : "| 1 | "));
		/* one table: no second head for the bot apart */
		assert_null(strstr(strstr(md, "| rank |") + 1, "| rank |"));
		free(md);
		release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_winless_bot_is_a_bound),
		cmocka_unit_test(test_never_started_not_rated),
		cmocka_unit_test(test_league_report_first),
		cmocka_unit_test(test_table_notes_wrapped),
		cmocka_unit_test(test_never_started_unranked),
		cmocka_unit_test(test_disconnected_pools),
		cmocka_unit_test(test_rated_results_and_real_wins),
		cmocka_unit_test(test_verdict_and_faults_everywhere),
		cmocka_unit_test(test_fit_line_flags_a_cycle),
		cmocka_unit_test(test_anchor_with_rating),
		cmocka_unit_test(test_seat_warning),
		cmocka_unit_test(test_intervals_clustered_by_deal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
