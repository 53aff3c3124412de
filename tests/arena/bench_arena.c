/*
 * bench_arena.c - decisions per second through the arena: the referee and a
 * bot pool playing 2-player games between two `badbot good` processes over
 * pipes, everything pinned to one CPU (as a tournament worker is).
 *
 * usage: bench_arena [SECONDS [CPU [STOCK [BOT...]]]]
 *        (default 3 s, CPU 0, stock 30, BOT = badbot good: a bot command to
 *        play both seats instead, e.g. build/bots/skipbo-starter-c)
 *
 * Prints the decisions (request + answer round trips) per second and the
 * mean round trip, to compare with the raw pipe ping-pong of
 * tests/badbots/bench_pingpong on the same CPU placement.
 */
#include <sched.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>

#include "pool.h"
#include "referee.h"

struct sizes {
	uint64_t to_bot, to_bot_bytes, from_bot, from_bot_bytes;
};

/* Message sizes, so the raw ping-pong can be run with the same ones. */
static void count_line(void *ctx, const char *name, int seat, enum referee_dir dir,
		       const char *line, size_t len, int64_t at_us)
{
	struct sizes *sz = ctx;

	(void)name, (void)seat, (void)line, (void)at_us;
	if (dir == REFEREE_TO_BOT) {
		sz->to_bot++;
		sz->to_bot_bytes += len + 1;
	} else {
		sz->from_bot++;
		sz->from_bot_bytes += len + 1;
	}
}

static double cpu_us(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec * 1e6 + (double)ru->ru_utime.tv_usec +
	       (double)ru->ru_stime.tv_sec * 1e6 + (double)ru->ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
	static char *good[] = { BADBOT_PATH, "good", NULL };
	char **bot = argc > 4 ? argv + 4 : good;
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;
	int cpu = argc > 2 ? atoi(argv[2]) : 0;
	int stock = argc > 3 ? atoi(argv[3]) : 30;
	struct bot_spec specs[2] = {
		{ .name = "a", .argv = bot, .cpu = -1 },
		{ .name = "b", .argv = bot, .cpu = -1 },
	};
	struct pool_config pc = { specs, 2, cpu, 10000, NULL };
	struct referee_setup setup = { 0 };
	struct sizes sz = { 0 };
	struct referee_observer sizes_observer = { .ctx = &sz, .line = count_line };
	struct pool *pool;
	uint64_t decisions = 0, games = 0;
	int64_t start, end;
	cpu_set_t set;
	char err[256];

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		perror("sched_setaffinity");
	if (pool_new(&pc, &pool) < 0)
		return 1;
	setup.id = "bench";
	setup.rules.players = 2;
	setup.rules.stock_size = stock;
	setup.rules.dealer = 1;
	setup.move_ms = 1000;
	setup.game_ms = 60000;
	setup.observer = &sizes_observer;
	for (int s = 0; s < 2; s++)
		if (pool_acquire(pool, (size_t)s, &setup.seats[s]) < 0 || !setup.seats[s].bot) {
			fprintf(stderr, "bench_arena: cannot start %s\n", bot[0]);
			return 1;
		}
	start = clock_now_us();
	end = start + (int64_t)(seconds * 1e6);
	while (clock_now_us() < end) {
		struct referee_outcome out;

		setup.rules.seed = games + 1;
		if (referee_play(&setup, &out, err, sizeof(err)) < 0 || out.nfaults) {
			fprintf(stderr, "bench_arena: game failed: %s\n", err);
			return 1;
		}
		decisions += out.moves;
		games++;
		referee_outcome_release(&out);
	}
	end = clock_now_us();
	printf("arena: %llu games, %llu decisions in %.2f s on CPU %d: %.0f decisions/s "
	       "(%.2f us per decision)\n", (unsigned long long)games,
	       (unsigned long long)decisions, (double)(end - start) / 1e6, cpu,
	       (double)decisions * 1e6 / (double)(end - start),
	       (double)(end - start) / (double)decisions);
	printf("arena: mean line to the bot %.0f bytes, from the bot %.0f bytes (newline included)\n",
	       (double)sz.to_bot_bytes / (double)sz.to_bot,
	       (double)sz.from_bot_bytes / (double)sz.from_bot);
	pool_free(pool);
	{
		struct rusage self, bots;

		/* CPU time of the arena itself and of its bots (reaped by pool_free) */
		getrusage(RUSAGE_SELF, &self);
		getrusage(RUSAGE_CHILDREN, &bots);
		printf("arena: CPU per decision: arena %.2f us, bots %.2f us (user + system)\n",
		       cpu_us(&self) / (double)decisions, cpu_us(&bots) / (double)decisions);
	}
	return 0;
}
