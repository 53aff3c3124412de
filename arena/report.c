/*
 * report.c - computing a report from game records, the terminal table, and
 * writing every report file (the formats are in report_write.c and
 * report_html.c).
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_html.h"

double report_win_rate(const struct report_bot *b)
{
	return b->games ? (double)b->wins / (double)b->games : 0.0;
}

double report_avg_stock(const struct report_bot *b)
{
	return b->games ? b->stock_left_sum / (double)b->games : 0.0;
}

static void add_seat_stats(struct report *r, const struct gamelog_game *g)
{
	r->seat_games[g->players]++;
	for (int s = 0; s < g->players; s++) {
		struct report_bot *b = &r->bots[g->bot[s]];
		b->games++;
		b->wins += g->winner[s];
		b->points += g->score[s];
		b->stock_left_sum += g->stock_left[s];
		r->seat_wins[g->players][s] += g->winner[s];
		if (g->fault[s] >= 0) {
			b->faults[g->fault[s]]++;
			b->faults_total++;
		}
		if (g->has_time && g->time[s].moves > 0) {
			double m = g->time[s].moves;
			b->time_moves += m;
			b->time_mean_us += g->time[s].mean_us * m;
			b->time_p99_us += g->time[s].p99_us * m;
			b->time_max_us = fmax(b->time_max_us, g->time[s].max_us);
		}
	}
}

/* A 2-player record that may be half of a duplicate pair, with its sort key. */
struct dup_key {
	unsigned source;
	int table, deal, rotation;
	size_t index;
};

static int dup_key_cmp(const void *pa, const void *pb)
{
	const struct dup_key *a = pa, *b = pb;

	if (a->source != b->source)
		return a->source < b->source ? -1 : 1;
	if (a->table != b->table)
		return a->table < b->table ? -1 : 1;
	if (a->deal != b->deal)
		return a->deal < b->deal ? -1 : 1;
	if (a->rotation != b->rotation)
		return a->rotation < b->rotation ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static double seat0_result(const struct gamelog_game *g)
{
	return g->placing[0] < g->placing[1] ? 1.0 : g->placing[0] > g->placing[1] ? 0.0 : 0.5;
}

/* Find the duplicate pairs and count their pair scores. -ENOMEM. */
static int add_duplicate_pairs(struct report *r)
{
	const struct gamelog *log = r->log;
	struct dup_key *keys = reallocarray(NULL, log->ngames ? log->ngames : 1, sizeof(*keys));
	size_t nkeys = 0, n = r->nbots;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < log->ngames; i++) {
		const struct gamelog_game *g = &log->games[i];
		if (g->players == 2 && !g->partnership && g->rotation <= 1 && g->bot[0] != g->bot[1])
			keys[nkeys++] = (struct dup_key){ g->source, g->table, g->deal, g->rotation, i };
	}
	qsort(keys, nkeys, sizeof(*keys), dup_key_cmp);
	for (size_t k = 0; k + 1 < nkeys; k++) {
		const struct dup_key *a = &keys[k], *b = &keys[k + 1];
		if (a->source != b->source || a->table != b->table || a->deal != b->deal ||
		    a->rotation != 0 || b->rotation != 1)
			continue;
		const struct gamelog_game *g0 = &log->games[a->index], *g1 = &log->games[b->index];
		if (g0->bot[0] != g1->bot[1] || g0->bot[1] != g1->bot[0])
			continue;
		unsigned x = g0->bot[0], y = g0->bot[1];
		int score = (int)lround(2.0 * (seat0_result(g0) + 1.0 - seat0_result(g1)));
		r->bots[x].pent[score]++;
		r->bots[y].pent[4 - score]++;
		r->pair_pent[(x * n + y) * 5 + (size_t)score]++;
		r->pair_pent[(y * n + x) * 5 + (size_t)(4 - score)]++;
		r->duplicate_pairs++;
		k++;
	}
	free(keys);
	return 0;
}

/* Rank order: Elo descending, then name, so equal ratings list the same way every time. */
struct rank_key {
	double elo;
	const char *name;
	size_t index;
};

static int rank_cmp(const void *pa, const void *pb)
{
	const struct rank_key *a = pa, *b = pb;

	if (a->elo != b->elo)
		return a->elo > b->elo ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int rank_bots(struct report *r)
{
	struct rank_key *keys = reallocarray(NULL, r->nbots, sizeof(*keys));

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < r->nbots; i++)
		keys[i] = (struct rank_key){ r->bots[i].elo, r->bots[i].name, i };
	qsort(keys, r->nbots, sizeof(*keys), rank_cmp);
	for (size_t k = 0; k < r->nbots; k++)
		r->order[k] = keys[k].index;
	free(keys);
	return 0;
}

int report_build(struct report *r, const struct gamelog *log, const char *anchor,
		 double prior_draws, char *err, size_t errsz)
{
	struct rating_options opt = { prior_draws, -1 };
	size_t n = log->nbots;
	int rc;

	memset(r, 0, sizeof(*r));
	r->log = log;
	r->anchor = -1;
	r->prior_draws = prior_draws;
	if (log->ngames == 0 || n == 0) {
		snprintf(err, errsz, "no complete game records yet");
		return -ENODATA;
	}
	if (anchor) {
		opt.anchor = gamelog_find_bot(log, anchor);
		if (opt.anchor < 0) {
			snprintf(err, errsz, "anchor bot \"%s\" played no game", anchor);
			return -ENOENT;
		}
		r->anchor = opt.anchor;
	}
	r->nbots = n;
	rc = -ENOMEM;
	r->bots = calloc(n, sizeof(*r->bots));
	r->order = calloc(n, sizeof(*r->order));
	r->pair_pent = calloc(n * n * 5, sizeof(double));
	if (!r->bots || !r->order || !r->pair_pent || rating_pairs_init(&r->pairs, n) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		r->bots[i].name = log->bots[i];
	for (size_t i = 0; i < log->ngames; i++) {
		const struct gamelog_game *g = &log->games[i];
		int placing[GAMELOG_SEATS_MAX];
		unsigned team[GAMELOG_SEATS_MAX];
		add_seat_stats(r, g);
		for (int s = 0; s < g->players; s++) {
			placing[s] = g->placing[s];
			team[s] = g->team[s];
		}
		rating_pairs_add_placings(&r->pairs, g->players, g->bot, placing, team);
	}
	rc = add_duplicate_pairs(r);
	if (rc < 0)
		goto out;
	rc = rating_fit(&r->pairs, &opt, &r->fit);
	if (rc < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct report_bot *b = &r->bots[i];
		b->elo = r->fit.elo[i];
		b->ci95 = rating_ci95(&r->fit, i);
		if (b->time_moves > 0) {
			b->time_mean_us /= b->time_moves;
			b->time_p99_us /= b->time_moves;
		}
		rating_paired_stats(b->pent, &b->paired);
	}
	rc = rank_bots(r);
out:
	if (rc < 0) {
		if (rc == -EINVAL)
			snprintf(err, errsz, "bad rating options (prior draws must be > 0)");
		else
			snprintf(err, errsz, "computing ratings: %s", strerror(-rc));
		report_release(r);
	}
	return rc;
}

void report_release(struct report *r)
{
	free(r->bots);
	free(r->order);
	free(r->pair_pent);
	rating_fit_release(&r->fit);
	rating_pairs_release(&r->pairs);
	memset(r, 0, sizeof(*r));
}

void report_method_text(const struct report *r, char *buf, size_t size)
{
	char anchor[160];

	if (r->anchor >= 0)
		snprintf(anchor, sizeof(anchor), "%s is rated 0", r->bots[r->anchor].name);
	else
		snprintf(anchor, sizeof(anchor), "the field average is 0");
	snprintf(buf, size,
		 "Elo: joint maximum-likelihood Bradley-Terry fit on the logistic Elo scale "
		 "(E = 1/(1+10^(-d/400))) of the pairwise results of every game (R7 placings; "
		 "teammates not paired; equal placings are draws, worth half a point), with a "
		 "prior of %g virtual draws of each bot against a 0-rated opponent; %s. "
		 "+-95%%: 1.96 standard errors from the inverse of the observed information "
		 "matrix under the anchor constraint (results treated as independent). "
		 "LOS(A>B) = Phi((Elo_A - Elo_B) / sd(Elo_A - Elo_B)) from the same covariance.",
		 r->prior_draws, anchor);
}

static void fault_summary(const struct report_bot *b, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < GAMELOG_FAULT_KINDS && used < size; k++) {
		if (!b->faults[k])
			continue;
		int w = snprintf(buf + used, size - used, "%s%s %ld", used ? ", " : "",
				 gamelog_fault_names[k], b->faults[k]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

void report_print_table(const struct report *r, FILE *out)
{
	int width = 3;

	for (size_t i = 0; i < r->nbots; i++) {
		int len = (int)strlen(r->bots[i].name);
		width = len > width ? (len < 32 ? len : 32) : width;
	}
	fprintf(out, "%4s  %-*s %8s %7s %7s %7s %6s %8s %6s %9s %9s %9s  %s\n",
		"rank", width, "bot", "elo", "+-95%", "games", "wins", "win%", "points", "stock",
		"mean_us", "p99_us", "max_us", "faults");
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		char faults[160];
		fault_summary(b, faults, sizeof(faults));
		fprintf(out, "%4zu  %-*.*s %8.1f %7.1f %7ld %7ld %5.1f%% %8ld %6.2f ",
			k + 1, width, width, b->name, b->elo, b->ci95, b->games, b->wins,
			100.0 * report_win_rate(b), b->points, report_avg_stock(b));
		if (b->time_moves > 0)
			fprintf(out, "%9.1f %9.0f %9.0f", b->time_mean_us, b->time_p99_us, b->time_max_us);
		else
			fprintf(out, "%9s %9s %9s", "-", "-", "-");
		fprintf(out, "  %s\n", faults[0] ? faults : "-");
	}
	fprintf(out, "%zu records%s; Elo: Bradley-Terry fit, field average 0",
		r->log->ngames, r->log->nsources > 1 ? " (merged)" : "");
	if (r->anchor >= 0)
		fprintf(out, " (anchor %s = 0)", r->bots[r->anchor].name);
	fprintf(out, "\n");
	if (r->log->torn || r->log->invalid)
		fprintf(out, "skipped: %zu incomplete last line(s), %zu invalid line(s)\n",
			r->log->torn, r->log->invalid);
}

typedef int (*report_writer)(const struct report *r, FILE *out);

/* Write one file through a temporary name and rename(2), so readers see old or new, never half. */
static int write_atomically(const struct report *r, const char *dir, const char *name,
			    report_writer writer, char *err, size_t errsz)
{
	char path[4096], tmp[4200];
	int rc = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp)) {
		snprintf(err, errsz, "path too long: \"%s\"", dir);
		return -ENAMETOOLONG;
	}
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		snprintf(err, errsz, "cannot create \"%s\": %s", tmp, strerror(errno));
		return rc;
	}
	rc = writer(r, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc < 0) {
		snprintf(err, errsz, "writing \"%s\": %s", path, strerror(-rc));
		unlink(tmp);
	}
	return rc;
}

int report_generate_with(const char *const *dirs, size_t ndirs, const char *outdir,
			 const char *anchor, double prior_draws, FILE *table,
			 char *err, size_t errsz)
{
	static const struct {
		const char *name;
		report_writer writer;
	} files[] = {
		{ "ratings.json", report_write_json },
		{ "ratings.csv", report_write_csv },
		{ "report.md", report_write_md },
		{ "report.html", report_write_html },
	};
	struct gamelog log;
	struct report r = { 0 };
	int rc = 0;

	gamelog_init(&log);
	if (ndirs == 0 || (!outdir && ndirs > 1)) {
		snprintf(err, errsz, ndirs ? "several directories need an output directory"
					   : "no tournament directory given");
		return -EINVAL;
	}
	if (!outdir)
		outdir = dirs[0];
	for (size_t i = 0; i < ndirs; i++) {
		char path[4096];
		if ((size_t)snprintf(path, sizeof(path), "%s/games.jsonl", dirs[i]) >= sizeof(path)) {
			snprintf(err, errsz, "path too long: \"%s\"", dirs[i]);
			rc = -ENAMETOOLONG;
			goto out;
		}
		rc = gamelog_read(&log, path, err, errsz);
		if (rc < 0)
			goto out;
	}
	rc = report_build(&r, &log, anchor, prior_draws, err, errsz);
	if (rc < 0)
		goto out;
	r.dirs = dirs;
	r.ndirs = ndirs;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		rc = write_atomically(&r, outdir, files[i].name, files[i].writer, err, errsz);
		if (rc < 0)
			goto out;
	}
	if (table)
		report_print_table(&r, table);
out:
	report_release(&r);
	gamelog_release(&log);
	return rc;
}

int report_generate(const char *const *dirs, size_t ndirs, const char *outdir, FILE *table,
		    char *err, size_t errsz)
{
	return report_generate_with(dirs, ndirs, outdir, NULL, RATING_PRIOR_DRAWS, table,
				    err, errsz);
}
