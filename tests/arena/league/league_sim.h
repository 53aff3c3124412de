/*
 * league_sim.h - simulated leagues of bots of known strength, to measure how
 * fast a schedule separates them (the efficiency test and bench_league_sched).
 *
 * Every deal is a 2-player duplicate deal: two games, each bot holding each
 * hand once. A game follows Bradley-Terry on the Elo scale with the deal's
 * luck added: the bot holding hand A wins with probability
 * 1 / (1 + e^-(g_A - g_B + h)), h drawn once per deal from N(0, luck_sd^2)
 * (natural-log units) and entering the second game with the opposite sign, so
 * the luck of the cards cancels over the deal as it does in Skip-Bo's
 * duplicate play. Results are summed and fitted as `report` does
 * (rating_add_clustered, rating_fit with intervals clustered by deal).
 *
 * The schedule is either the league's (league_sched.h; refitted every
 * max(32, 1%) deals, as a running league refits in the background) or a
 * round robin (every pair once per cycle, pairs shuffled within a cycle). A
 * pair of bots adjacent in the true order is separated when the fit gives
 * the stronger one a likelihood of superiority of at least 0.975.
 */
#ifndef LEAGUE_SIM_H
#define LEAGUE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LEAGUE_SIM_MARKS_MAX 16

struct league_sim_options {
	size_t bots;
	const double *elo;     /* true strengths, Elo, bots of them (any order) */
	double luck_sd;        /* sd of a deal's luck, natural-log units */
	bool scheduled;        /* league_sched, or a round robin */
	uint64_t floor_deals;  /* league_sched's floor */
	uint64_t seed;
	uint64_t budget_games; /* stop here at the latest */
	bool stop_when_separated; /* stop once every adjacent pair is separated */
	const uint64_t *marks; /* games at which to measure (ascending), nmarks of them */
	size_t nmarks;
};

struct league_sim_result {
	uint64_t games;        /* games played */
	uint64_t separated_at; /* games when every adjacent pair was first separated; 0: never */
	uint64_t most_at;      /* games when 90% of them first were; 0: never */
	double share[LEAGUE_SIM_MARKS_MAX];      /* share of adjacent pairs separated at each mark */
	double rank_error[LEAGUE_SIM_MARKS_MAX]; /* mean |fitted rank - true rank| at each mark */
	uint64_t fits;
};

/* Run one simulated league. 0, -EINVAL, -ENOMEM, or rating_fit's error. */
int league_sim_run(const struct league_sim_options *opt, struct league_sim_result *out);

/* The strengths of a field: bots spaced evenly by `spacing` Elo, best first. */
void league_sim_even_field(double *elo, size_t bots, double spacing);

/* A field drawn from N(0, sd^2) Elo with a seed, sorted best first. */
void league_sim_normal_field(double *elo, size_t bots, double sd, uint64_t seed);

#endif
