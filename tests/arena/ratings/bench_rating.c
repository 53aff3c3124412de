/*
 * bench_rating.c - time the Elo fit: aggregate GAMES simulated games among
 * BOTS bots into the pairwise matrix and fit it (rating_pairs_add_placings +
 * rating_fit), on one core, as a report does: with the per-deal sums of the
 * robust intervals (rating_add_clustered, two consecutive games making a
 * deal) and the sandwich in the fit.
 *
 * usage: bench_rating [GAMES [BOTS [PLAYERS]]]   (default 1000000 50 2)
 *
 * Games are simulated before the clock starts from known ratings (spread
 * evenly over -600..+600 Elo; PLAYERS seats drawn at random, placings by
 * Gumbel noise on the logistic scale: the difference of two Gumbel variables is
 * logistic, so every pair in a game follows the Bradley-Terry model exactly),
 * so the output also shows how far the fit lands from the truth.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rating.h"
#include "xorshift.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng_next(void)
{
	return xorshift64s(&rng_state);
}

static double uniform_open(void)
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

/* The thread's CPU time: on a shared machine the wall clock also counts other people's work. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long games = argc > 1 ? atol(argv[1]) : 1000000;
	long nbots = argc > 2 ? atol(argv[2]) : 50;
	int players = argc > 3 ? atoi(argv[3]) : 2;
	unsigned team[6] = { 0, 1, 2, 3, 4, 5 };
	struct rating_pairs pairs;
	struct rating_fit fit;
	struct cluster_sums clusters;
	struct rating_options opt = RATING_OPTIONS_DEFAULT;

	if (games < 1 || nbots < 2 || players < 2 || players > 6 || players > nbots) {
		fprintf(stderr, "usage: bench_rating [GAMES [BOTS [PLAYERS]]]\n");
		return 2;
	}
	double *truth = calloc((size_t)nbots, sizeof(double));
	unsigned *bot = calloc((size_t)games * (size_t)players, sizeof(unsigned));
	int *placing = calloc((size_t)games * (size_t)players, sizeof(int));
	if (!truth || !bot || !placing || rating_pairs_init(&pairs, (size_t)nbots) < 0) {
		fprintf(stderr, "bench_rating: out of memory\n");
		return 1;
	}
	for (long i = 0; i < nbots; i++)
		truth[i] = -600.0 + 1200.0 * (double)i / (double)(nbots - 1);
	for (long g = 0; g < games; g++) {
		unsigned *b = &bot[g * players];
		double perf[6];
		for (int s = 0; s < players; s++) {
			int fresh;
			do {
				b[s] = (unsigned)(rng_next() % (uint64_t)nbots);
				fresh = 1;
				for (int t = 0; t < s; t++)
					fresh &= b[t] != b[s];
			} while (!fresh);
			perf[s] = truth[b[s]] / (400.0 / M_LN10) - log(-log(uniform_open()));
		}
		for (int s = 0; s < players; s++) {
			int place = 1;
			for (int t = 0; t < players; t++)
				place += perf[t] > perf[s];
			placing[g * players + s] = place;
		}
	}

	cluster_sums_init(&clusters);
	double t0 = now_s();
	for (long g = 0; g < games; g++) {
		if (rating_add_clustered(&pairs, &clusters, (uint64_t)g / 2, players, &bot[g * players],
					 &placing[g * players], team) < 0) {
			fprintf(stderr, "bench_rating: out of memory\n");
			return 1;
		}
	}
	double t1 = now_s();
	opt.clusters = &clusters;
	if (rating_fit(&pairs, &opt, &fit) < 0) {
		fprintf(stderr, "bench_rating: fit failed\n");
		return 1;
	}
	double t2 = now_s();

	double worst = 0, mean_truth = 0;
	for (long i = 0; i < nbots; i++)
		mean_truth += truth[i] / (double)nbots;
	for (long i = 0; i < nbots; i++)
		worst = fmax(worst, fabs(fit.elo[i] - (truth[i] - mean_truth)));
	printf("games %ld  bots %ld  players %d\n", games, nbots, players);
	printf("CPU time: aggregate %.3f s  fit %.3f s (%d Newton iterations)  total %.3f s\n",
	       t1 - t0, t2 - t1, fit.iterations, t2 - t0);
	printf("largest |fitted - true| %.1f Elo; 95%% interval of bot 0 +-%.1f\n", worst,
	       rating_ci95(&fit, 0));
	rating_fit_release(&fit);
	rating_pairs_release(&pairs);
	cluster_sums_release(&clusters);
	free(truth);
	free(bot);
	free(placing);
	return 0;
}
