/*
 * bench_engine - plays uniformly random legal-move games on one thread and
 * prints moves/s and games/s, with the event log on and off, for 2 players
 * with stock 30 and 6 players with stock 20. Rates are per second of this
 * thread's CPU time, so that other work on a shared machine does not skew
 * them; the policy's own random draws are included.
 *
 * usage: bench_engine [seconds per configuration, default 2]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(int players, int stock, int no_log, double seconds)
{
	struct game_rules rules = { .players = players, .stock_size = stock,
				    .no_event_log = no_log };
	struct rng policy;
	struct move moves[ENGINE_MAX_MOVES];
	unsigned long long total_moves = 0, games = 0, won = 0;
	double start = now(), elapsed;

	rng_seed(&policy, 42);
	do {
		for (int batch = 0; batch < 16; batch++) {
			struct game *g;
			struct game_result res;

			rules.seed = rng_next(&policy);
			g = game_new(&rules, NULL);
			if (!g) {
				fprintf(stderr, "bench_engine: out of memory\n");
				exit(1);
			}
			while (game_to_move(g) >= 0) {
				int n = game_legal_moves(g, moves);

				game_apply(g, &moves[rng_below(&policy, (uint64_t)n)]);
			}
			game_result(g, &res);
			total_moves += res.moves;
			won += res.status == GAME_WON;
			games++;
			game_free(g);
		}
		elapsed = now() - start;
	} while (elapsed < seconds);
	printf("%d players, stock %2d, event log %-3s: %6.2f M moves/s, %9.0f games/s "
	       "(%llu games, %.0f moves/game, %.0f%% won)\n",
	       players, stock, no_log ? "off" : "on", (double)total_moves / elapsed / 1e6,
	       (double)games / elapsed, games, (double)total_moves / (double)games,
	       100.0 * (double)won / (double)games);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;

	if (seconds <= 0) {
		fprintf(stderr, "usage: bench_engine [seconds per configuration]\n");
		return 2;
	}
	run(2, 30, 0, seconds);
	run(2, 30, 1, seconds);
	run(6, 20, 0, seconds);
	run(6, 20, 1, seconds);
	return 0;
}
