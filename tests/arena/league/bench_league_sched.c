/*
 * bench_league_sched.c - games the league's scheduler needs to separate every
 * adjacent pair of a field at 95%, against a round robin of the same field
 * (league_sim.h: 2-player duplicate deals, Bradley-Terry with the deal's
 * luck, the fit of `report`).
 *
 * usage: bench_league_sched [BOTS [SEEDS [BUDGET]]]   (default 32 5 2000000)
 *
 * Two fields: evenly spaced by 40 Elo (half the step between the bundled
 * reference bots, 75-85 Elo at 2 players), and drawn from N(0, 200^2) Elo (a
 * ladder's random gaps, anew for each seed). Each run stops when every pair
 * adjacent in the true order is separated, or at BUDGET games; the table also
 * gives the share of pairs separated and the mean rank error at fixed budgets.
 */
#include <stdio.h>
#include <stdlib.h>

#include "league_sim.h"

#define LUCK_SD 1.0
#define FLOOR_DEALS 8

static const uint64_t marks[] = { 10000, 20000, 50000, 100000, 200000, 500000, 1000000 };
#define NMARKS (sizeof(marks) / sizeof(marks[0]))

static int compare_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* Games to a goal, or budget + 1 when it was never reached. */
static uint64_t or_never(uint64_t games, uint64_t budget)
{
	return games ? games : budget + 1;
}

static void print_games(uint64_t games, uint64_t budget)
{
	if (games > budget)
		printf("> %llu", (unsigned long long)budget);
	else
		printf("%llu", (unsigned long long)games);
}

/* One schedule over one field and seed; prints its row. Games to separate every adjacent
 * pair and 90% of them in all[] and most[]. 0, or -1 on an error. */
static int run(const char *field, const double *elo, size_t bots, bool scheduled,
	       uint64_t seed, uint64_t budget, uint64_t *all, uint64_t *most)
{
	struct league_sim_options opt = { bots, elo, LUCK_SD, scheduled, FLOOR_DEALS, seed,
					  budget, true, marks, NMARKS };
	struct league_sim_result r;

	if (league_sim_run(&opt, &r) < 0) {
		fprintf(stderr, "bench_league_sched: simulation failed\n");
		return -1;
	}
	*all = or_never(r.separated_at, budget);
	*most = or_never(r.most_at, budget);
	printf("| %s | %llu | %s | ", field, (unsigned long long)seed,
	       scheduled ? "league" : "round robin");
	print_games(*all, budget);
	printf(" | ");
	print_games(*most, budget);
	printf(" |");
	for (size_t m = 0; m < NMARKS; m++) {
		if (marks[m] > r.games)
			printf(" - |");
		else
			printf(" %.0f%% / %.2f |", 100.0 * r.share[m], r.rank_error[m]);
	}
	printf("\n");
	fflush(stdout);
	return 0;
}

/* The medians of both schedules' games to a goal, and their ratio (a bound when the round
 * robin never reached it). */
static void print_medians(const char *field, const char *goal, uint64_t *rr, uint64_t *league,
			  int seeds, uint64_t budget)
{
	qsort(rr, (size_t)seeds, sizeof(uint64_t), compare_u64);
	qsort(league, (size_t)seeds, sizeof(uint64_t), compare_u64);
	uint64_t a = rr[seeds / 2], b = league[seeds / 2];
	printf("%s, median games to separate %s: round robin ", field, goal);
	print_games(a, budget);
	printf(", league ");
	print_games(b, budget);
	if (b > budget)
		printf(" (neither within the budget)\n");
	else
		printf(" (%s%.2fx fewer)\n", a > budget ? "> " : "", (double)a / (double)b);
}

int main(int argc, char **argv)
{
	static const char *const fields[2] = { "even 40", "normal sd 200" };
	size_t bots = argc > 1 ? (size_t)atol(argv[1]) : 32;
	int seeds = argc > 2 ? atoi(argv[2]) : 5;
	uint64_t budget = argc > 3 ? (uint64_t)atoll(argv[3]) : 2000000;
	double *elo = calloc(bots ? bots : 1, sizeof(*elo));
	uint64_t *all[2][2], *most[2][2];

	if (bots < 3 || seeds < 1 || budget < 1 || !elo) {
		fprintf(stderr, "usage: bench_league_sched [BOTS [SEEDS [BUDGET]]]\n");
		return 2;
	}
	for (int f = 0; f < 2; f++)
		for (int s = 0; s < 2; s++) {
			all[f][s] = calloc((size_t)seeds, sizeof(uint64_t));
			most[f][s] = calloc((size_t)seeds, sizeof(uint64_t));
			if (!all[f][s] || !most[f][s])
				return 1;
		}
	printf("| field | seed | schedule | games to separate all | to separate 90%% |");
	for (size_t m = 0; m < NMARKS; m++)
		printf(" separated / rank error at %llu |", (unsigned long long)marks[m]);
	printf("\n|---|---|---|---|---|");
	for (size_t m = 0; m < NMARKS; m++)
		printf("---|");
	printf("\n");
	for (int f = 0; f < 2; f++)
		for (int seed = 1; seed <= seeds; seed++) {
			if (f)
				league_sim_normal_field(elo, bots, 200, (uint64_t)seed);
			else
				league_sim_even_field(elo, bots, 40);
			double gap = elo[0] - elo[1];
			for (size_t i = 1; i + 1 < bots; i++)
				gap = elo[i] - elo[i + 1] < gap ? elo[i] - elo[i + 1] : gap;
			printf("| %s | %d | (field) | spread %.0f Elo, smallest gap %.1f Elo | |\n",
			       fields[f], seed, elo[0] - elo[bots - 1], gap);
			for (int s = 0; s < 2; s++)
				if (run(fields[f], elo, bots, s, (uint64_t)seed, budget,
					&all[f][s][seed - 1], &most[f][s][seed - 1]) < 0)
					return 1;
		}
	for (int f = 0; f < 2; f++) {
		print_medians(fields[f], "every adjacent pair", all[f][0], all[f][1], seeds, budget);
		print_medians(fields[f], "90% of them", most[f][0], most[f][1], seeds, budget);
		for (int s = 0; s < 2; s++) {
			free(all[f][s]);
			free(most[f][s]);
		}
	}
	free(elo);
	return 0;
}
