/*
 * bench_league_scale.c - a league of ENTRIES entries for GAMES games, as the
 * league's loop runs it: the scheduler chooses each 2-player deal, its two
 * games (simulated: Bradley-Terry from known strengths) go into league_fit,
 * and a refit is asked for whenever the last one has finished; its standings
 * go back to the scheduler. Deals are not played, so the figures are the
 * league's own costs.
 *
 * usage: bench_league_scale [ENTRIES [GAMES [sums]]]   (default 100 1000000)
 *
 * With "sums", the control: no league_fit and no thread, the same results
 * summed directly (rating_pairs and cluster.h, the buffer folded when full at
 * equal abilities, which costs what any fold costs), timed alike. On a
 * loaded machine the tail of both is other processes; a stall of
 * league_fit_add behind a refit would show as a tail the control lacks.
 *
 * Prints, at 100,000 and 1,000,000 games and at the end: the scheduler's
 * CPU time per game (next + played + the update after each refit, this
 * thread's CPU clock); league_fit_add's wall time (mean, 99th and 99.99th
 * percentile, worst; on a loaded machine the worst is a descheduled thread)
 * and the adds over 1 ms; the refits done and their mean wall time; the
 * room of league_fit's two queue buffers (the games that came during the
 * slowest refit); the process's resident memory (VmRSS) and its peak
 * (VmHWM).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "league_fit.h"
#include "league_sched.h"
#include "xorshift.h"

#define ELO_PER_NAT (400.0 / M_LN10)
#define HIST_BUCKETS 240
#define HIST_RATIO 1.1
#define HIST_FIRST 50e-9 /* seconds: the upper bound of the first bucket */

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A line "NAME: N kB" of /proc/self/status, in MB; -1 if missing. */
static double status_mb(const char *name)
{
	char line[256];
	double kb = -1;
	size_t len = strlen(name);
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':')
			kb = atof(line + len + 1);
	fclose(f);
	return kb / 1024.0;
}

struct bench {
	size_t n;
	double *elo;
	uint64_t rng;
	struct league_sched sched;
	struct league_fit fit;
	struct league_sched_entry *entry;
	double sched_cpu, add_wall, add_max, refit_started;
	uint64_t add_hist[HIST_BUCKETS]; /* league_fit_add's wall times, HIST_RATIO apart */
	double refit_wall;
	uint64_t refits, generation, games, slow_adds;
	bool refit;
	struct rating_pairs pairs; /* the control's sums */
	struct cluster_sums *clusters;
	double *zero; /* n abilities 0, then RATING_KINDS discriminations 1 */
};

static size_t hist_bucket(double seconds)
{
	double bound = HIST_FIRST;
	size_t k = 0;

	while (seconds > bound && k + 1 < HIST_BUCKETS) {
		bound *= HIST_RATIO;
		k++;
	}
	return k;
}

/* The wall time of league_fit_add below which a share q of the calls fell (to 10%). */
static double add_quantile(const struct bench *b, double q)
{
	uint64_t total = 0, seen = 0;
	double bound = HIST_FIRST;

	for (size_t k = 0; k < HIST_BUCKETS; k++)
		total += b->add_hist[k];
	for (size_t k = 0; k < HIST_BUCKETS; k++, bound *= HIST_RATIO) {
		seen += b->add_hist[k];
		if ((double)seen >= q * (double)total)
			return bound;
	}
	return bound;
}

/* The control: one game's results summed without league_fit. */
static int control_add(struct bench *b, uint64_t deal, const uint32_t *seat, const int *placing,
		       const uint32_t *team)
{
	struct rating_result res[RATING_GAME_RESULTS_MAX];
	size_t count = rating_game_results(2, seat, placing, team, res);
	int rc = rating_pairs_add_results(&b->pairs, res, count);

	if (rc == 0)
		rc = cluster_sums_add_results(b->clusters, deal, res, count);
	if (rc == 0 && cluster_sums_full(b->clusters))
		rc = cluster_sums_fold(b->clusters, b->n, b->zero, b->zero + b->n);
	return rc;
}

/* The two games of a deal between a and b into the fit. */
static int play(struct bench *b, const uint32_t *table, uint64_t deal)
{
	double p = 1.0 / (1.0 + exp(-(b->elo[table[0]] - b->elo[table[1]]) / ELO_PER_NAT));

	for (int rot = 0; rot < 2; rot++) {
		double u = (double)(xorshift64s(&b->rng) >> 11) / 9007199254740992.0;
		int first_wins = u < p;
		uint32_t seat[2] = { table[rot], table[1 - rot] }, team[2] = { 0, 1 };
		int placing[2] = { rot ? first_wins : !first_wins, rot ? !first_wins : first_wins };
		double t0 = clock_s(CLOCK_MONOTONIC);
		int rc = b->refit ? league_fit_add(&b->fit, deal, 2, seat, placing, team)
				  : control_add(b, deal, seat, placing, team);
		double dt = clock_s(CLOCK_MONOTONIC) - t0;
		if (rc < 0)
			return rc;
		b->add_wall += dt;
		b->add_max = dt > b->add_max ? dt : b->add_max;
		b->add_hist[hist_bucket(dt)]++;
		b->slow_adds += dt > 1e-3;
		b->games++;
	}
	return 0;
}

/* A finished refit's standings into the scheduler, and the next refit asked for. */
static int take_standings(struct bench *b)
{
	struct league_standings st;
	int rc = league_fit_latest(&b->fit, &st);

	if (rc < 0)
		return rc;
	if (st.generation != b->generation) {
		double now = clock_s(CLOCK_MONOTONIC);
		b->refit_wall += now - b->refit_started;
		b->refits++;
		b->generation = st.generation;
		for (size_t e = 0; e < b->n; e++)
			b->entry[e] = (struct league_sched_entry){ true, false, st.games[e], st.elo[e],
								   st.ci95[e] };
		double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		rc = league_sched_update(&b->sched, b->entry, b->n);
		b->sched_cpu += clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
		b->refit_started = now;
		league_fit_request(&b->fit);
	}
	league_standings_release(&st);
	return rc;
}

static void report(struct bench *b)
{
	pthread_mutex_lock(&b->fit.lock);
	size_t queue = b->fit.capqueue + b->fit.capspare;
	pthread_mutex_unlock(&b->fit.lock);
	printf("| %zu | %llu | %.2f | %.2f / %.1f / %.1f / %.0f | %llu | %llu | %.1f | %zu | %.1f / %.1f |\n",
	       b->n, (unsigned long long)b->games, 1e6 * b->sched_cpu / (double)b->games,
	       1e6 * b->add_wall / (double)b->games, 1e6 * add_quantile(b, 0.99),
	       1e6 * add_quantile(b, 0.9999), 1e6 * b->add_max, (unsigned long long)b->slow_adds,
	       (unsigned long long)b->refits, b->refits ? 1e3 * b->refit_wall / (double)b->refits : 0,
	       queue,
	       status_mb("VmRSS"), status_mb("VmHWM"));
	fflush(stdout);
}

static int run(struct bench *b, uint64_t games)
{
	uint64_t deal = 0;
	int rc;

	while (b->games < games) {
		uint32_t table[2];
		double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		rc = league_sched_next(&b->sched, table);
		b->sched_cpu += clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (rc < 0 || (rc = play(b, table, deal++)) < 0)
			return rc;
		t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		rc = league_sched_played(&b->sched, table, 2);
		b->sched_cpu += clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
		/* the first refit once there is a game to fit */
		if (rc == 0 && b->refit && deal == 1) {
			b->refit_started = clock_s(CLOCK_MONOTONIC);
			league_fit_request(&b->fit);
		}
		if (rc < 0 || (b->refit && deal % 64 == 0 && (rc = take_standings(b)) < 0))
			return rc;
		if (b->games == 100000 || b->games == 1000000 || b->games >= games)
			report(b);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	uint64_t games = argc > 2 ? (uint64_t)atoll(argv[2]) : 1000000;
	int rc;

	b.n = argc > 1 ? (size_t)atol(argv[1]) : 100;
	b.refit = argc <= 3 || strcmp(argv[3], "sums");
	b.rng = 0x9e3779b97f4a7c15ull;
	b.elo = calloc(b.n ? b.n : 1, sizeof(*b.elo));
	b.entry = calloc(b.n ? b.n : 1, sizeof(*b.entry));
	b.clusters = calloc(1, sizeof(*b.clusters));
	b.zero = calloc(b.n + RATING_KINDS, sizeof(*b.zero));
	if (b.clusters)
		cluster_sums_init(b.clusters);
	for (int k = 0; b.zero && k < RATING_KINDS; k++)
		b.zero[b.n + (size_t)k] = 1.0; /* the control's kinds: discrimination 1 */
	if (b.n < 2 || !b.elo || !b.entry || !b.clusters || !b.zero ||
	    rating_pairs_init(&b.pairs, b.n) < 0) {
		fprintf(stderr, "usage: bench_league_scale [ENTRIES [GAMES [sums]]]\n");
		return 2;
	}
	for (size_t e = 0; e < b.n; e++) {
		b.elo[e] = 20.0 * ((double)b.n / 2 - (double)e); /* 20 Elo apart */
		b.entry[e] = (struct league_sched_entry){ true, false, 0, NAN, NAN };
	}
	if (league_sched_init(&b.sched, 2, 8, 1) < 0 || league_sched_update(&b.sched, b.entry, b.n) < 0 ||
	    league_fit_init(&b.fit, NULL) < 0) {
		fprintf(stderr, "bench_league_scale: out of memory\n");
		return 1;
	}
	printf("| entries | games | scheduler CPU per game (µs) | league_fit_add wall mean / p99 / p99.99 / max (µs) | adds over 1 ms | "
	       "refits | refit mean (ms) | queue room (games) | RSS / peak RSS (MB) |\n"
	       "|---|---|---|---|---|---|---|---|---|\n");
	rc = run(&b, games);
	league_fit_release(&b.fit);
	league_sched_release(&b.sched);
	rating_pairs_release(&b.pairs);
	cluster_sums_release(b.clusters);
	free(b.clusters);
	free(b.zero);
	free(b.elo);
	free(b.entry);
	if (rc < 0) {
		fprintf(stderr, "bench_league_scale: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
