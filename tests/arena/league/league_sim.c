/*
 * league_sim.c - simulated leagues; the model is in league_sim.h.
 */
#include "league_sim.h"

#include "league_sched.h"
#include "rating.h"
#include "xorshift.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ELO_PER_NAT (400.0 / M_LN10)
#define REFIT_MIN_DEALS 32

static double uniform_open(uint64_t *rng)
{
	return ((double)(xorshift64s(rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *rng)
{
	return sqrt(-2.0 * log(uniform_open(rng))) * cos(2.0 * M_PI * uniform_open(rng));
}

static int by_elo_descending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? 1 : a > b ? -1 : 0;
}

void league_sim_even_field(double *elo, size_t bots, double spacing)
{
	for (size_t i = 0; i < bots; i++)
		elo[i] = spacing * ((double)(bots - 1) / 2.0 - (double)i);
}

void league_sim_normal_field(double *elo, size_t bots, double sd, uint64_t seed)
{
	uint64_t rng = seed * 2 + 1;

	for (size_t i = 0; i < bots; i++)
		elo[i] = sd * normal(&rng);
	qsort(elo, bots, sizeof(*elo), by_elo_descending);
}

struct sim {
	const struct league_sim_options *opt;
	uint64_t rng;
	struct rating_pairs pairs;
	struct cluster_sums *clusters;
	struct league_sched sched;
	struct league_sched_entry *entry;
	uint32_t *rr;          /* round robin: the pairs of one cycle */
	size_t rr_pairs, rr_next;
	size_t *true_rank, *fit_rank;
	uint64_t deals;
};

/* Both games of a deal between a and b. 0 or -ENOMEM. */
static int play_deal(struct sim *s, uint32_t a, uint32_t b)
{
	double d = (s->opt->elo[a] - s->opt->elo[b]) / ELO_PER_NAT;
	double h = s->opt->luck_sd * normal(&s->rng);

	for (int rot = 0; rot < 2; rot++) {
		double p = 1.0 / (1.0 + exp(-(d + (rot ? -h : h))));
		int a_wins = uniform_open(&s->rng) < p;
		unsigned bot[2] = { rot ? b : a, rot ? a : b }, team[2] = { 0, 1 };
		int placing[2] = { rot ? a_wins : !a_wins, rot ? !a_wins : a_wins };
		int rc = rating_add_clustered(&s->pairs, s->clusters, s->deals, 2, bot, placing, team);
		if (rc < 0)
			return rc;
	}
	s->deals++;
	return 0;
}

/* The next round-robin pair: a new shuffled cycle when one ends. */
static void round_robin_next(struct sim *s, uint32_t *table)
{
	if (s->rr_next == s->rr_pairs) {
		for (size_t k = s->rr_pairs; k > 1; k--) {
			size_t j = xorshift64s(&s->rng) % k;
			uint32_t t0 = s->rr[2 * (k - 1)], t1 = s->rr[2 * (k - 1) + 1];
			s->rr[2 * (k - 1)] = s->rr[2 * j];
			s->rr[2 * (k - 1) + 1] = s->rr[2 * j + 1];
			s->rr[2 * j] = t0;
			s->rr[2 * j + 1] = t1;
		}
		s->rr_next = 0;
	}
	table[0] = s->rr[2 * s->rr_next];
	table[1] = s->rr[2 * s->rr_next + 1];
	s->rr_next++;
}

/* Fit, measure, and hand the standings to the scheduler. *all: every adjacent pair
 * separated; share and rank error measured. */
static int refit(struct sim *s, bool *all, double *share, double *rank_error)
{
	struct rating_options ropt = RATING_OPTIONS_DEFAULT;
	struct rating_fit fit;
	size_t n = s->opt->bots, separated = 0;
	int rc;

	ropt.clusters = s->clusters;
	if ((rc = rating_fit(&s->pairs, &ropt, &fit)) < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		s->fit_rank[i] = 0;
		for (size_t j = 0; j < n; j++)
			s->fit_rank[i] += fit.elo[j] > fit.elo[i];
	}
	*rank_error = 0;
	for (size_t i = 0; i < n; i++)
		*rank_error += fabs((double)s->fit_rank[i] - (double)s->true_rank[i]) / (double)n;
	/* bots are numbered in any order: the adjacent pairs of the true order */
	for (size_t r = 0; r + 1 < n; r++) {
		size_t hi = 0, lo = 0;
		for (size_t i = 0; i < n; i++) {
			hi = s->true_rank[i] == r ? i : hi;
			lo = s->true_rank[i] == r + 1 ? i : lo;
		}
		separated += rating_los(&fit, hi, lo) >= 0.975;
	}
	*share = (double)separated / (double)(n - 1);
	*all = separated == n - 1;
	for (size_t i = 0; i < n; i++) {
		double games = 0;
		for (size_t j = 0; j < n; j++)
			games += s->pairs.games[i * n + j];
		s->entry[i] = (struct league_sched_entry){ true, false, (uint64_t)games,
							   games > 0 ? fit.elo[i] : NAN,
							   games > 0 ? rating_ci95(&fit, i) : NAN };
	}
	rating_fit_release(&fit);
	return s->opt->scheduled ? league_sched_update(&s->sched, s->entry, n) : 0;
}

static void sim_release(struct sim *s)
{
	rating_pairs_release(&s->pairs);
	if (s->clusters)
		cluster_sums_release(s->clusters);
	free(s->clusters);
	league_sched_release(&s->sched);
	free(s->entry);
	free(s->rr);
	free(s->true_rank);
	free(s->fit_rank);
}

static int sim_init(struct sim *s, const struct league_sim_options *opt)
{
	size_t n = opt->bots;
	int rc;

	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->rng = opt->seed * 2 + 1;
	s->rr_pairs = n * (n - 1) / 2;
	s->rr_next = s->rr_pairs;
	s->clusters = calloc(1, sizeof(*s->clusters));
	s->entry = calloc(n, sizeof(*s->entry));
	s->rr = calloc(2 * s->rr_pairs, sizeof(*s->rr));
	s->true_rank = calloc(n, sizeof(*s->true_rank));
	s->fit_rank = calloc(n, sizeof(*s->fit_rank));
	if (!s->clusters || !s->entry || !s->rr || !s->true_rank || !s->fit_rank)
		return -ENOMEM;
	cluster_sums_init(s->clusters);
	if ((rc = rating_pairs_init(&s->pairs, n)) < 0)
		return rc;
	for (size_t i = 0, k = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++, k++) {
			s->rr[2 * k] = (uint32_t)i;
			s->rr[2 * k + 1] = (uint32_t)j;
		}
		for (size_t j = 0; j < n; j++)
			s->true_rank[i] += opt->elo[j] > opt->elo[i];
		s->entry[i] = (struct league_sched_entry){ true, false, 0, NAN, NAN };
	}
	if ((rc = league_sched_init(&s->sched, 2, opt->floor_deals, opt->seed)) < 0)
		return rc;
	return league_sched_update(&s->sched, s->entry, n);
}

/* The deal count of the next refit: REFIT_MIN_DEALS or 1% on, or the next mark first. */
static uint64_t next_refit(const struct sim *s, size_t mark)
{
	uint64_t step = s->deals / 100 > REFIT_MIN_DEALS ? s->deals / 100 : REFIT_MIN_DEALS;
	uint64_t at = s->deals + step;

	if (mark < s->opt->nmarks && s->opt->marks[mark] / 2 < at)
		at = s->opt->marks[mark] / 2;
	return at > s->deals ? at : s->deals + 1;
}

static int sim_loop(struct sim *s, struct league_sim_result *out)
{
	const struct league_sim_options *opt = s->opt;
	size_t mark = 0;
	uint64_t refit_at = next_refit(s, 0);
	int rc;

	while (2 * s->deals < opt->budget_games) {
		uint32_t table[2];
		if (opt->scheduled) {
			if ((rc = league_sched_next(&s->sched, table)) < 0 ||
			    (rc = play_deal(s, table[0], table[1])) < 0 ||
			    (rc = league_sched_played(&s->sched, table, 2)) < 0)
				return rc;
		} else {
			round_robin_next(s, table);
			if ((rc = play_deal(s, table[0], table[1])) < 0)
				return rc;
		}
		if (s->deals < refit_at && 2 * s->deals < opt->budget_games)
			continue;
		bool all;
		double share, rank_error;
		if ((rc = refit(s, &all, &share, &rank_error)) < 0)
			return rc;
		out->fits++;
		for (; mark < opt->nmarks && opt->marks[mark] <= 2 * s->deals; mark++) {
			out->share[mark] = share;
			out->rank_error[mark] = rank_error;
		}
		if (share >= 0.9 && !out->most_at)
			out->most_at = 2 * s->deals;
		if (all && !out->separated_at)
			out->separated_at = 2 * s->deals;
		if (all && opt->stop_when_separated)
			break;
		refit_at = next_refit(s, mark);
	}
	out->games = 2 * s->deals;
	return 0;
}

int league_sim_run(const struct league_sim_options *opt, struct league_sim_result *out)
{
	struct sim s;
	int rc;

	memset(out, 0, sizeof(*out));
	if (opt->bots < 3 || opt->nmarks > LEAGUE_SIM_MARKS_MAX)
		return -EINVAL;
	rc = sim_init(&s, opt);
	if (rc == 0)
		rc = sim_loop(&s, out);
	sim_release(&s);
	return rc;
}
