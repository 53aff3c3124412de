/*
 * bench_bots - strength and speed of reference bot policies, in-process.
 *
 *   bench_bots [--partnership] [--stock N] [--seed N] [--samples N] [--candidates N]
 *              [--oracle] [--worlds N] [--margin PCT] [--rollout-medium]
 *              DEALS BOT BOT [BOT...]
 *
 * The bots (easy, medium, hard, expert) sit at one table in the order given,
 * one per seat, so their number is the number of players; with
 * --partnership seats s and s + n/2 are a team (R10), so "expert hard expert
 * hard" pits two teams. Each deal (seeds from --seed, default 1) is played
 * once per seat rotation (duplicate), so the luck of the deal cancels out.
 * Prints each pair of different bots' score head to head (R7 placings,
 * teammates not paired, ties worth half), with a 95% interval from the
 * spread of per-deal scores, and each bot's decision times (CPU time). With
 * BENCH_PROTOCOL set in the environment every request goes through the
 * protocol encoder and parser, as in a real game. --samples and --candidates
 * change the expert's worlds and candidates per decision (expert.h); with
 * --oracle the expert judges over the true hidden cards instead (a cheat, to
 * measure what perfect information is worth to it). The bot "seer" plays
 * every legal move out to the game's end with hard at every seat (harness.h):
 * over the true cards (a cheat), or with --worlds N over N deals of the
 * unseen cards, taking a move other than hard's only when its mean score is
 * --margin PCT points better; --rollout-medium plays out with medium.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static int kind_of(const char *name)
{
	if (strcmp(name, "easy") == 0)
		return HARNESS_EASY;
	if (strcmp(name, "medium") == 0)
		return HARNESS_MEDIUM;
	if (strcmp(name, "hard") == 0)
		return HARNESS_HARD;
	if (strcmp(name, "expert") == 0)
		return HARNESS_EXPERT;
	if (strcmp(name, "seer") == 0)
		return HARNESS_SEER;
	errx(2, "unknown bot '%s' (easy, medium, hard, expert, seer)", name);
}

/* The bot at one position of the table list; positions with one name are one bot. */
struct entrant {
	const char *name;
	int bot; /* index of the name */
	struct harness_player player;
	struct hard *hard;
	struct expert *expert;
};

static int compare_us(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static long parse_long(const char *s, const char *what)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n < 0)
		errx(2, "bad %s '%s'", what, s);
	return n;
}

/* Per pair of bot names: the score sum and count over all games, and per deal. */
struct pair_score {
	double sum, count;
	double deal_sum, deal_sq; /* over deals: sum and sum of squares of the deal's mean score */
	int deals;
	double stalled_sum, stalled_count; /* over the games that ended in a stalemate (R7) */
};

static const char usage[] = "usage: bench_bots [--partnership] [--stock N] [--seed N] [--samples N] "
			    "[--candidates N] [--oracle] [--worlds N] [--margin PCT] [--rollout-medium] "
			    "DEALS BOT BOT [BOT...]";

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "partnership", no_argument, NULL, 'p' },
		{ "stock", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "samples", required_argument, NULL, 'n' },
		{ "candidates", required_argument, NULL, 'c' },
		{ "oracle", no_argument, NULL, 'o' },
		{ "worlds", required_argument, NULL, 'w' },
		{ "margin", required_argument, NULL, 'm' },
		{ "rollout-medium", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	int partnership = 0, stock = 0, oracle = 0, worlds = 0, rollout_medium = 0, c;
	double margin = 0;
	long first_seed = 1;
	struct expert_config ecfg;
	expert_config_default(&ecfg);
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'p':
			partnership = 1;
			break;
		case 's':
			stock = (int)parse_long(optarg, "--stock");
			break;
		case 'S':
			first_seed = parse_long(optarg, "--seed");
			break;
		case 'n':
			ecfg.samples = (int)parse_long(optarg, "--samples");
			break;
		case 'c':
			ecfg.candidates = (int)parse_long(optarg, "--candidates");
			break;
		case 'o':
			oracle = 1;
			break;
		case 'w':
			worlds = (int)parse_long(optarg, "--worlds");
			break;
		case 'm':
			margin = (double)parse_long(optarg, "--margin") / 100.0;
			break;
		case 'r':
			rollout_medium = 1;
			break;
		default:
			errx(2, "%s", usage);
		}
	}
	if (argc - optind < 3 || argc - optind - 1 > ENGINE_MAX_PLAYERS)
		errx(2, "%s", usage);
	long deals = parse_long(argv[optind], "DEALS");
	int players = argc - optind - 1;

	/* A player per position (an expert follows one seat's game), figures per name. */
	struct entrant list[ENGINE_MAX_PLAYERS];
	const char *names[ENGINE_MAX_PLAYERS];
	int n_bots = 0;
	for (int s = 0; s < players; s++) {
		struct entrant *f = &list[s];
		memset(f, 0, sizeof(*f));
		f->name = argv[optind + 1 + s];
		for (f->bot = 0; f->bot < n_bots && strcmp(names[f->bot], f->name) != 0; f->bot++)
			;
		if (f->bot == n_bots)
			names[n_bots++] = f->name;
		int kind = kind_of(f->name);
		if (kind == HARNESS_HARD || kind == HARNESS_SEER) {
			struct hard_config cfg;
			hard_config_default(&cfg);
			f->hard = hard_new(&cfg);
		} else if (kind == HARNESS_EXPERT) {
			f->expert = expert_new(&ecfg);
		}
		if (((kind == HARNESS_HARD || kind == HARNESS_SEER) && !f->hard) || (kind == HARNESS_EXPERT && !f->expert))
			errx(1, "out of memory");
		harness_player_init(&f->player, kind, (uint64_t)s + 1, f->hard);
		f->player.expert = f->expert;
		f->player.oracle = oracle;
		f->player.worlds = worlds;
		f->player.rollout_medium = rollout_medium;
		f->player.margin = margin;
		f->player.keep_times = 1;
	}
	if (n_bots < 2)
		errx(2, "name at least two different bots");

	struct pair_score score[ENGINE_MAX_PLAYERS][ENGINE_MAX_PLAYERS];
	memset(score, 0, sizeof(score));
	int faults = 0, stalemates = 0;
	for (long d = 0; d < deals; d++) {
		double deal_sum[ENGINE_MAX_PLAYERS][ENGINE_MAX_PLAYERS] = { { 0 } };
		double deal_count[ENGINE_MAX_PLAYERS][ENGINE_MAX_PLAYERS] = { { 0 } };
		uint64_t seed = (uint64_t)(first_seed + d) * 0x9e3779b97f4a7c15ULL;
		for (int rot = 0; rot < players; rot++) {
			struct harness_player *seats[ENGINE_MAX_PLAYERS];
			int who[ENGINE_MAX_PLAYERS];
			for (int s = 0; s < players; s++) {
				struct entrant *f = &list[(s + rot) % players];
				who[s] = f->bot;
				seats[s] = &f->player;
			}
			struct game_rules rules = { .players = players, .seed = seed, .dealer = players - 1,
				.partnership = partnership, .stock_size = stock };
			struct harness_game hg = { .via_protocol = getenv("BENCH_PROTOCOL") != NULL,
				.move_ms = 1000, .bank_ms = 60000 };
			if (harness_play(&rules, seats, &hg) < 0)
				faults++;
			stalemates += hg.result.winner < 0;
			for (int i = 0; i < players; i++)
				for (int j = 0; j < players; j++) {
					if (who[i] == who[j] || (partnership && (i - j + players) % players == players / 2))
						continue;
					int pi = hg.result.placing[i], pj = hg.result.placing[j];
					double x = pi < pj ? 1.0 : pi == pj ? 0.5 : 0.0;
					deal_sum[who[i]][who[j]] += x;
					deal_count[who[i]][who[j]] += 1;
					if (hg.result.winner < 0) {
						score[who[i]][who[j]].stalled_sum += x;
						score[who[i]][who[j]].stalled_count += 1;
					}
				}
		}
		for (int a = 0; a < n_bots; a++)
			for (int b = 0; b < n_bots; b++) {
				struct pair_score *p = &score[a][b];
				if (deal_count[a][b] == 0)
					continue;
				double mean = deal_sum[a][b] / deal_count[a][b];
				p->sum += deal_sum[a][b];
				p->count += deal_count[a][b];
				p->deal_sum += mean;
				p->deal_sq += mean * mean;
				p->deals++;
			}
	}
	printf("%d players%s, stock %d, %ld deals x %d rotations; stalemates %d, faults %d\n", players,
	       partnership ? " (partnership)" : "", stock, deals, players, stalemates, faults);
	for (int a = 0; a < n_bots; a++)
		for (int b = a + 1; b < n_bots; b++) {
			struct pair_score *p = &score[a][b];
			if (p->deals == 0)
				continue;
			double m = p->deal_sum / p->deals;
			double var = p->deals > 1 ? (p->deal_sq - p->deals * m * m) / (p->deals - 1) : 0;
			double half = 1.96 * sqrt(var / p->deals);
			printf("%s vs %s: %.1f%% +- %.1f (%.0f pairings)", names[a], names[b],
			       100 * p->sum / p->count, 100 * half, p->count);
			if (p->stalled_count > 0)
				printf("; in stalemates %.1f%% (%.0f pairings)",
				       100 * p->stalled_sum / p->stalled_count, p->stalled_count);
			printf("\n");
		}
	for (int b = 0; b < n_bots; b++) {
		struct harness_player all = { 0 };
		for (int k = 0; k < players; k++) {
			struct harness_player *p = &list[k].player;
			if (list[k].bot != b)
				continue;
			all.kind = p->kind;
			all.decisions += p->decisions;
			all.total_us += p->total_us;
			all.max_us = p->max_us > all.max_us ? p->max_us : all.max_us;
			all.cut_short += p->cut_short;
			all.net_hits += p->net_hits;
			all.judged += p->judged;
			all.times = realloc(all.times, (all.n_times + p->n_times) * sizeof(*all.times));
			if (!all.times)
				errx(1, "out of memory");
			memcpy(all.times + all.n_times, p->times, p->n_times * sizeof(*p->times));
			all.n_times += p->n_times;
		}
		if (all.n_times == 0)
			continue;
		qsort(all.times, all.n_times, sizeof(*all.times), compare_us);
		printf("%s: %ld decisions, mean %.1f us, p99 %lld us, max %lld us", names[b], all.decisions,
		       (double)all.total_us / (double)all.decisions, (long long)all.times[all.n_times * 99 / 100],
		       (long long)all.max_us);
		if (all.kind == HARNESS_HARD)
			printf(", searches cut short %ld, by the clock %ld", all.cut_short, all.net_hits);
		if (all.kind == HARNESS_EXPERT)
			printf(", judged over deals %ld, stopped by the clock %ld", all.judged, all.net_hits);
		printf("\n");
		free(all.times);
	}
	for (int k = 0; k < players; k++) {
		free(list[k].player.times);
		hard_free(list[k].hard);
		expert_free(list[k].expert);
	}
	return 0;
}
