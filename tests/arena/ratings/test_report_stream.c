/*
 * test_report_stream.c - the report read as a stream (report_load_opts, which keeps
 * no record) against a straightforward reference computed here from every
 * record held in memory, on a generated fixture: eleven bots appearing over
 * two directories, 2-player duplicate deals in order, reversed, interleaved,
 * shuffled and incomplete, 3-player, partnership and match records, ties,
 * faults, missing times, an invalid line and a torn last line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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
#include "xorshift.h"

#define NBOTS 11
#define DEALS 400 /* 2-player duplicate deals per directory */

static uint64_t rng_state;

static uint64_t rng(void)
{
	return xorshift64s(&rng_state);
}

static int pick(int n)
{
	return (int)(rng() % (uint64_t)n);
}

/* One record line. bots: bot numbers by seat; teams as a JSON array or NULL. */
static void record(FILE *f, int table, int deal, int rotation, int players, const int *bots,
		   const int *placing, const char *teams, bool partnership, int games)
{
	fprintf(f, "{\"id\":\"t%d-d%d-r%d\",\"table\":%d,\"deal\":%d,\"rotation\":%d,\"players\":%d,"
		"\"partnership\":%s,", table, deal, rotation, table, deal, rotation, players,
		partnership ? "true" : "false");
	if (teams)
		fprintf(f, "\"teams\":%s,", teams);
	fprintf(f, "\"match\":%s,\"games\":%d,\"bots\":[", games > 1 ? "true" : "false", games);
	for (int s = 0; s < players; s++)
		fprintf(f, "%s\"b%d\"", s ? "," : "", bots[s]);
	fputs("],\"winners\":[", f);
	for (int s = 0, first = 1; s < players; s++)
		if (placing[s] == 1 && pick(8)) {
			fprintf(f, "%s%d", first ? "" : ",", s);
			first = 0;
		}
	fputs("],\"placings\":[", f);
	for (int s = 0; s < players; s++)
		fprintf(f, "%s%d", s ? "," : "", placing[s]);
	fputs("],\"stock_left\":[", f);
	for (int s = 0; s < players; s++)
		fprintf(f, "%s%d", s ? "," : "", placing[s] == 1 ? 0 : 1 + pick(30));
	fputs("],\"scores\":[", f);
	for (int s = 0; s < players; s++)
		fprintf(f, "%s%d", s ? "," : "", placing[s] == 1 ? 5 * pick(40) : 0);
	fputs("]", f);
	if (pick(5)) {
		fputs(",\"time\":[", f);
		for (int s = 0; s < players; s++)
			fprintf(f, "%s{\"moves\":%d,\"mean_us\":%d.%d,\"median_us\":9,\"p99_us\":%d.3,"
				"\"max_us\":%d}", s ? "," : "", pick(4) ? 1 + pick(400) : 0,
				1 + pick(90), pick(10), 20 + pick(200), 300 + pick(5000));
		fputs("]", f);
	}
	fputs(",\"faults\":[", f);
	if (!pick(6)) {
		static const char *const kinds[] = { "timeout", "exit", "illegal", "start", "odd" };
		fprintf(f, "{\"seat\":%d,\"kind\":\"%s\"}", pick(players), kinds[pick(5)]);
	}
	fputs("]}\n", f);
}

/* R7 placings of a 2-player game: a win either way or a tie. */
static void two_placings(int *placing)
{
	int r = pick(9);
	placing[0] = r == 0 ? 1 : r < 5 ? 1 : 2;
	placing[1] = r == 0 ? 1 : placing[0] == 1 ? 2 : 1;
}

struct half {
	int table, deal, rotation, bots[2], placing[2];
};

/*
 * Directory dir with its games.jsonl: duplicate deals among bots [lo, hi),
 * emitted in the order named by mode, then other kinds of record.
 */
static void make_dir(const char *dir, int lo, int hi, int mode, const char *tail)
{
	static struct half halves[2 * DEALS];
	FILE *f = fixture_games_create(dir);
	int n = 0;

	for (int d = 0; d < DEALS; d++) {
		int a = lo + pick(hi - lo), b = lo + pick(hi - lo);
		for (int rot = 0; rot < 2; rot++) {
			struct half *h = &halves[n++];
			*h = (struct half){ d % 7, d, rot, { rot ? b : a, rot ? a : b }, { 0, 0 } };
			two_placings(h->placing);
		}
		if (d % 37 == 5) /* a rotation that never finished */
			n--;
		if (d % 53 == 7) { /* the second rotation did not swap the seats: no pair */
			halves[n - 1].bots[0] = a;
			halves[n - 1].bots[1] = b;
		}
	}
	if (mode == 1) { /* reversed: every rotation 1 before its rotation 0 */
		for (int i = 0; i < n / 2; i++) {
			struct half t = halves[i];
			halves[i] = halves[n - 1 - i];
			halves[n - 1 - i] = t;
		}
	} else if (mode == 2) { /* shuffled: many deals wait for their partner at once */
		for (int i = n - 1; i > 0; i--) {
			int j = pick(i + 1);
			struct half t = halves[i];
			halves[i] = halves[j];
			halves[j] = t;
		}
	}
	for (int i = 0; i < n; i++)
		record(f, halves[i].table, halves[i].deal, halves[i].rotation, 2, halves[i].bots,
		       halves[i].placing, pick(2) ? "[[0],[1]]" : NULL, false, 1);
	/* A deal whose rotation 1 comes first, then a rotation 0 without the swap, then one with it. */
	int b0[2] = { lo, lo + 1 }, b1[2] = { lo + 1, lo }, p[2] = { 1, 2 }, q[2] = { 2, 1 };
	record(f, 9, 9999, 1, 2, b1, q, NULL, false, 1);
	record(f, 9, 9999, 0, 2, b1, p, NULL, false, 1);
	record(f, 9, 9999, 0, 2, b0, p, NULL, false, 1);
	/* The two rotations of one deal in two directories (modes 0 and 2): not a pair. */
	int split[2][2] = { { 4, 5 }, { 5, 4 } };
	if (mode != 1)
		record(f, 8, 8888, mode / 2, 2, split[mode / 2], p, NULL, false, 1);
	for (int i = 0; i < 150; i++) {
		int bots[4], placing[4];
		for (int s = 0; s < 3; s++) {
			bots[s] = lo + pick(hi - lo);
			placing[s] = 1 + pick(3);
		}
		record(f, 20, i, 0, 3, bots, placing, "[[0],[1],[2]]", false, 1);
		for (int s = 0; s < 4; s++)
			bots[s] = lo + pick(hi - lo);
		placing[0] = placing[2] = 1 + pick(2);
		placing[1] = placing[3] = placing[0] == 1 ? 2 : 1;
		record(f, 21, i, 0, 4, bots, placing, "[[0,2],[1,3]]", true, 1);
		two_placings(placing);
		record(f, 22, i, 0, 2, bots, placing, NULL, false, 3);
	}
	fputs("{\"players\":2,\"bots\":[\"b0\"]}\n", f);
	if (tail)
		fputs(tail, f);
	assert_int_equal(fclose(f), 0);
}

/* The report's sums computed directly from the records held in log. */
struct reference {
	const struct gamelog *log; /* the stored records */
	size_t n;
	struct report_bot bots[NBOTS];
	double score[NBOTS][NBOTS], games[NBOTS][NBOTS], pent[NBOTS][NBOTS][5];
	long seat_games[GAMELOG_SEATS_MAX + 1], seat_wins[GAMELOG_SEATS_MAX + 1][GAMELOG_SEATS_MAX];
	size_t duplicate_pairs;
};

/* A seat's team places as its best-placed member (rating.h). */
static int team_placing(const struct gamelog_game *g, int s)
{
	int best = g->placing[s];

	for (int t = 0; t < g->players; t++)
		if (g->team[t] == g->team[s] && g->placing[t] < best)
			best = g->placing[t];
	return best;
}

/* A result between the teams of seats a and b counts when no bot sits twice among them. */
static bool teams_distinct(const struct gamelog_game *g, int a, int b)
{
	for (int s = 0; s < g->players; s++)
		for (int t = s + 1; t < g->players; t++) {
			bool in_s = g->team[s] == g->team[a] || g->team[s] == g->team[b];
			bool in_t = g->team[t] == g->team[a] || g->team[t] == g->team[b];
			if (in_s && in_t && g->bot[s] == g->bot[t])
				return false;
		}
	return true;
}

static double result(const struct gamelog_game *g, int a, int b)
{
	int pa = team_placing(g, a), pb = team_placing(g, b);

	return pa < pb ? 1.0 : pa > pb ? 0.0 : 0.5;
}

static bool dup_candidate(const struct gamelog_game *g)
{
	return g->players == 2 && !g->partnership && g->rotation <= 1 && g->bot[0] != g->bot[1];
}

static bool same_deal(const struct gamelog_game *a, const struct gamelog_game *b)
{
	return a->source == b->source && a->table == b->table && a->deal == b->deal;
}

static void reference_compute(struct reference *ref, const struct gamelog *log)
{
	memset(ref, 0, sizeof(*ref));
	ref->log = log;
	ref->n = log->nbots;
	assert_true(ref->n <= NBOTS);
	for (size_t i = 0; i < log->ngames; i++) {
		const struct gamelog_game *g = &log->games[i];
		ref->seat_games[g->players]++;
		for (int s = 0; s < g->players; s++) {
			struct report_bot *b = &ref->bots[g->bot[s]];
			b->games++;
			b->wins += g->winner[s];
			b->points += g->score[s];
			b->stock_left_sum += g->stock_left[s];
			ref->seat_wins[g->players][s] += g->winner[s];
			if (g->fault[s] >= 0) {
				b->faults[g->fault[s]]++;
				b->faults_total++;
			}
			if (g->has_time && g->time[s].moves > 0) {
				double m = g->time[s].moves;
				b->time_moves += m;
				b->time_mean_us += g->time[s].mean_us * m;
				b->time_p99_us += g->time[s].p99_us * m;
				if (g->time[s].max_us > b->time_max_us)
					b->time_max_us = g->time[s].max_us;
			}
			for (int t = s + 1; t < g->players; t++) {
				unsigned x = g->bot[s], y = g->bot[t];
				if (g->team[s] == g->team[t] || !teams_distinct(g, s, t))
					continue;
				ref->score[x][y] += result(g, s, t);
				ref->score[y][x] += result(g, t, s);
				ref->games[x][y]++;
				ref->games[y][x]++;
			}
		}
		/* A deal pairs its last rotation 0 with its first rotation 1, if the seats swapped. */
		if (!dup_candidate(g) || g->rotation != 0)
			continue;
		const struct gamelog_game *g1 = NULL;
		bool last = true;
		for (size_t j = 0; j < log->ngames; j++) {
			const struct gamelog_game *h = &log->games[j];
			if (!dup_candidate(h) || !same_deal(g, h))
				continue;
			if (h->rotation == 0 && j > i)
				last = false;
			if (h->rotation == 1 && !g1)
				g1 = h;
		}
		if (!last || !g1 || g->bot[0] != g1->bot[1] || g->bot[1] != g1->bot[0])
			continue;
		int score = (int)(2 * (result(g, 0, 1) + result(g1, 1, 0)));
		ref->bots[g->bot[0]].pent[score]++;
		ref->bots[g->bot[1]].pent[4 - score]++;
		ref->pent[g->bot[0]][g->bot[1]][score]++;
		ref->pent[g->bot[1]][g->bot[0]][4 - score]++;
		ref->duplicate_pairs++;
	}
	for (size_t i = 0; i < ref->n; i++) {
		struct report_bot *b = &ref->bots[i];
		if (b->time_moves > 0) {
			b->time_mean_us /= b->time_moves;
			b->time_p99_us /= b->time_moves;
		}
		rating_paired_stats(b->pent, &b->paired);
	}
}

/* Every number of r equals the reference's exactly (same additions in the same order). */
static void check_against_reference(const struct report *r, const struct reference *ref)
{
	size_t n = ref->n;
	struct rating_pairs pairs;
	struct rating_fit fit;

	assert_int_equal(r->nbots, n);
	assert_int_equal(r->duplicate_pairs, ref->duplicate_pairs);
	assert_memory_equal(r->seat_games, ref->seat_games, sizeof(ref->seat_games));
	assert_memory_equal(r->seat_wins, ref->seat_wins, sizeof(ref->seat_wins));
	assert_int_equal(rating_pairs_init(&pairs, n), 0);
	for (size_t k = 0; k < ref->log->ngames; k++) {
		const struct gamelog_game *g = &ref->log->games[k];
		int placing[GAMELOG_SEATS_MAX];
		unsigned team[GAMELOG_SEATS_MAX];
		for (int s = 0; s < g->players; s++) {
			placing[s] = g->placing[s];
			team[s] = g->team[s];
		}
		rating_pairs_add_placings(&pairs, g->players, g->bot, placing, team);
	}
	for (size_t i = 0; i < n; i++) {
		const struct report_bot *b = &r->bots[i], *w = &ref->bots[i];
		assert_int_equal(b->games, w->games);
		assert_int_equal(b->wins, w->wins);
		assert_int_equal(b->points, w->points);
		assert_true(b->stock_left_sum == w->stock_left_sum);
		assert_memory_equal(b->faults, w->faults, sizeof(w->faults));
		assert_int_equal(b->faults_total, w->faults_total);
		assert_true(b->time_moves == w->time_moves);
		assert_true(b->time_mean_us == w->time_mean_us);
		assert_true(b->time_p99_us == w->time_p99_us);
		assert_true(b->time_max_us == w->time_max_us);
		assert_memory_equal(b->pent, w->pent, sizeof(w->pent));
		assert_memory_equal(&b->paired, &w->paired, sizeof(w->paired));
		for (size_t j = 0; j < n; j++) {
			assert_true(r->pairs.score[i * n + j] == ref->score[i][j]);
			assert_true(r->pairs.games[i * n + j] == ref->games[i][j]);
			assert_memory_equal(&r->pair_pent[(i * n + j) * 5], ref->pent[i][j],
					    sizeof(ref->pent[i][j]));
			assert_true(pairs.score[i * n + j] == ref->score[i][j]);
			assert_true(pairs.games[i * n + j] == ref->games[i][j]);
		}
	}
	/* The fit of the stored records' results gives the same ratings, and the ranks follow them. */
	assert_int_equal(rating_fit(&pairs, NULL, &fit), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(r->bots[i].elo == fit.elo[i]);
		/* The report's intervals are robust; its model covariance is the plain fit's. */
		assert_true(RATING_Z95 * sqrt(r->fit.cov_model[i * n + i]) == rating_ci95(&fit, i));
		assert_true(isfinite(r->bots[i].ci95) && r->bots[i].ci95 > 0);
	}
	for (size_t k = 1; k < n; k++)
		assert_true(r->bots[r->order[k - 1]].elo >= r->bots[r->order[k]].elo);
	rating_fit_release(&fit);
	rating_pairs_release(&pairs);
}

static char *write_all(const struct report *r)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	assert_int_equal(report_write_json(r, f), 0);
	assert_int_equal(report_write_csv(r, f), 0);
	assert_int_equal(report_write_md(r, f), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_stream_matches_reference(void **state)
{
	char one[100], two[100], path[200], err[256];
	const char *dirs[2] = { one, two };
	struct gamelog stored, streamed;
	struct reference *ref = calloc(1, sizeof(*ref));
	struct report r, rs;
	(void)state;

	assert_non_null(ref);
	rng_state = 0x9e3779b97f4a7c15ull;
	snprintf(one, sizeof(one), "%s/one", fixture_dir);
	snprintf(two, sizeof(two), "%s/two", fixture_dir);
	/* Bots b0-b6 in the first directory, b4-b10 in the second: the arrays grow past 8 mid-read. */
	make_dir(one, 0, 7, 0, "{\"id\":\"torn\",\"table\":0,\"deal\":0,\"rota");
	make_dir(two, 4, 11, 2, NULL);

	gamelog_init(&stored);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/games.jsonl", dirs[i]);
		assert_int_equal(gamelog_read(&stored, path, err, sizeof(err)), 0);
	}
	assert_int_equal(stored.nbots, NBOTS);
	reference_compute(ref, &stored);
	/* Most deals pair (some miss a rotation, some did not swap, some are self-play). */
	assert_true(ref->duplicate_pairs > 500);

	gamelog_init(&streamed);
	assert_int_equal(report_load_opts(&r, &streamed, dirs, 2, &report_defaults,
				     err, sizeof(err)), 0);
	assert_int_equal(streamed.ngames, 0); /* nothing was kept */
	assert_null(streamed.games);
	assert_int_equal(streamed.records, stored.ngames);
	assert_int_equal(streamed.torn, 1);
	assert_int_equal(streamed.invalid, 2);
	assert_int_equal(streamed.nsources, 2);
	for (size_t i = 0; i < NBOTS; i++)
		assert_string_equal(r.bots[i].name, stored.bots[i]);
	check_against_reference(&r, ref);

	/* The files are byte for byte those of the report made from the stored records. */
	assert_int_equal(fixture_report_build(&rs, &stored, &report_defaults, err, sizeof(err)), 0);
	check_against_reference(&rs, ref);
	rs.dirs = r.dirs;
	rs.ndirs = r.ndirs;
	char *a = write_all(&r), *b = write_all(&rs);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"skipped_torn\":\t1,"));
	free(a);
	free(b);
	report_release(&rs);
	report_release(&r);
	gamelog_release(&streamed);
	gamelog_release(&stored);
	free(ref);
}

/* One directory with every rotation 1 ahead of its rotation 0, and the anchor option. */
static void test_reversed_rotations_and_anchor(void **state)
{
	char dir[100], path[200], err[256];
	const char *dirs[1] = { dir };
	struct gamelog stored, streamed;
	struct reference *ref = calloc(1, sizeof(*ref));
	struct report_options anchored = REPORT_OPTIONS_DEFAULT, nobody = REPORT_OPTIONS_DEFAULT;
	struct report r;
	(void)state;

	anchored.anchor = "b3";
	nobody.anchor = "nobody";

	assert_non_null(ref);
	rng_state = 0x2545f4914f6cdd1dull;
	snprintf(dir, sizeof(dir), "%s/reversed", fixture_dir);
	make_dir(dir, 0, 5, 1, NULL);
	gamelog_init(&stored);
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	assert_int_equal(gamelog_read(&stored, path, err, sizeof(err)), 0);
	reference_compute(ref, &stored);
	assert_true(ref->duplicate_pairs > 300);

	gamelog_init(&streamed);
	assert_int_equal(report_load_opts(&r, &streamed, dirs, 1, &anchored,
				     err, sizeof(err)), 0);
	assert_int_equal(r.anchor, gamelog_find_bot(&streamed, "b3"));
	assert_near(r.bots[r.anchor].elo, 0, 1e-9);
	assert_int_equal(r.duplicate_pairs, ref->duplicate_pairs);
	for (size_t i = 0; i < ref->n; i++) {
		assert_memory_equal(r.bots[i].pent, ref->bots[i].pent, sizeof(ref->bots[i].pent));
		assert_int_equal(r.bots[i].games, ref->bots[i].games);
	}
	report_release(&r);
	gamelog_release(&streamed);

	gamelog_init(&streamed);
	assert_int_equal(report_load_opts(&r, &streamed, dirs, 1, &nobody,
				     err, sizeof(err)), -ENOENT);
	gamelog_release(&streamed);
	gamelog_release(&stored);
	free(ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_matches_reference),
		cmocka_unit_test(test_reversed_rotations_and_anchor),
	};
	return cmocka_run_group_tests(tests, fixture_dir_make, fixture_dir_remove);
}
