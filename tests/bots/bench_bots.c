/*
 * bench_bots - strength and speed of two reference bot policies, in-process.
 *
 *   bench_bots A B DEALS [PLAYERS] [NODES]
 *
 * A and B are easy, medium or hard. Each deal (seed 1..DEALS) is played twice
 * with the seats swapped (duplicate), so the luck of the deal cancels out.
 * Prints each side's wins and share of points, stalemates, and decision times.
 * With BENCH_PROTOCOL set in the environment every request goes through the
 * protocol encoder and parser, as in a real game.
 */
#include <err.h>
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
	errx(2, "unknown bot '%s' (easy, medium, hard)", name);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		errx(2, "usage: bench_bots A B DEALS [PLAYERS] [NODES]");
	int deals = atoi(argv[3]);
	int players = argc > 4 ? atoi(argv[4]) : 2;
	struct hard_config cfg;
	hard_config_default(&cfg);
	if (argc > 5)
		cfg.max_nodes = atol(argv[5]);
	struct hard *ha = hard_new(&cfg), *hb = hard_new(&cfg);
	if (!ha || !hb)
		errx(1, "out of memory");
	struct harness_player a, b;
	harness_player_init(&a, kind_of(argv[1]), 1, ha);
	harness_player_init(&b, kind_of(argv[2]), 2, hb);
	double points_a = 0, games = 0;
	int wins_a = 0, wins_b = 0, stalemates = 0, faults = 0;
	for (int d = 1; d <= deals; d++) {
		for (int rot = 0; rot < 2; rot++) {
			struct harness_player *seats[ENGINE_MAX_PLAYERS];
			for (int s = 0; s < players; s++)
				seats[s] = (s + rot) % 2 == 0 ? &a : &b;
			struct game_rules rules = { .players = players, .seed = (uint64_t)d * 0x9e3779b97f4a7c15ULL, .dealer = players - 1 };
			struct harness_game hg = { .via_protocol = getenv("BENCH_PROTOCOL") != NULL, .move_ms = 1000, .bank_ms = 60000 };
			if (harness_play(&rules, seats, &hg) < 0)
				faults++;
			games++;
			int wa = 0, wb = 0;
			for (int s = 0; s < players; s++)
				if (hg.result.winners[s] && seats[s] == &a)
					wa = 1;
				else if (hg.result.winners[s])
					wb = 1;
			if (!wa && !wb) {
				stalemates++;
				points_a += 0.5;
			}
			wins_a += wa;
			wins_b += wb;
			points_a += wa;
		}
	}
	double score = points_a / games;
	double se = sqrt(score * (1 - score) / games);
	double elo = score > 0 && score < 1 ? -400 * log10(1 / score - 1) : 0;
	printf("%s vs %s: %d deals x 2, %d players: %s wins %d, %s wins %d, stalemates %d, faults %d\n",
	       argv[1], argv[2], deals, players, argv[1], wins_a, argv[2], wins_b, stalemates, faults);
	printf("score %.3f +- %.3f (95%%: 1.96 se), Elo difference %.0f\n", score, 1.96 * se, elo);
	printf("%s: %ld decisions, mean %.1f us, max %lld us; %s: %ld decisions, mean %.1f us, max %lld us\n",
	       argv[1], a.decisions, a.decisions ? (double)a.total_us / a.decisions : 0, (long long)a.max_us,
	       argv[2], b.decisions, b.decisions ? (double)b.total_us / b.decisions : 0, (long long)b.max_us);
	if (a.kind == HARNESS_HARD || b.kind == HARNESS_HARD)
		printf("hard searches cut short: %ld, of them by the safety net's clock: %ld\n",
		       a.cut_short + b.cut_short, a.net_hits + b.net_hits);
	hard_free(ha);
	hard_free(hb);
	return 0;
}
