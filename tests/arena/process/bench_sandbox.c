/*
 * bench_sandbox.c - what the sandbox costs, with and without it side by side
 * in one run: the start-up latency of a bot process (from bot_start() to its
 * hello), and decisions per second of games between two copies of the
 * minimal C bot (tests/arena/bench_bot) through the pool and the referee,
 * everything on one CPU as a tournament worker is. The two modes alternate
 * in short rounds, so a change in the machine's load falls on both; besides
 * the totals it prints the median of the rounds' on/off ratios, which a
 * burst of someone else's work in one round cannot move much, and the CPU
 * time per decision, which the load does not change at all.
 *
 * usage: bench_sandbox [STARTS [SECONDS [CPU [BOT]]]]
 *        (default 100 starts and 6 s of games per mode, CPU 0, BOT bench_bot)
 *
 * A benchmark program, not a test (figures in README.md). It refuses to run
 * where the sandbox is not available, saying why.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pool.h"
#include "referee.h"
#include "reaper.h"
#include "sandbox.h"

#define ROUNDS 20

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int compare_us(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* One start of spec: µs from bot_start() to its hello; -1 on failure. */
static int64_t start_once(const struct bot_spec *spec)
{
	static const char hello[] = "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"bench\"}";
	int64_t t0 = clock_now_us(), t1 = -1;
	const char *line;
	struct bot *b;
	char why[512];
	size_t len;

	if (bot_start(spec, &b, why, sizeof why) < 0) {
		fprintf(stderr, "bench_sandbox: %s\n", why);
		return -1;
	}
	if (bot_write_line(b, hello, strlen(hello), t0 + 10000000) == 0 &&
	    bot_read_line(b, &line, &len, t0 + 10000000) == 0)
		t1 = clock_now_us();
	bot_close(b, 1000);
	return t1 < 0 ? -1 : t1 - t0;
}

static void print_starts(const char *mode, int64_t *us, int n)
{
	double sum = 0;

	qsort(us, (size_t)n, sizeof *us, compare_us);
	for (int i = 0; i < n; i++)
		sum += (double)us[i];
	printf("start-up, sandbox %-3s: %d starts, hello after median %.2f ms, p90 %.2f ms, "
	       "mean %.2f ms\n", mode, n, (double)us[n / 2] / 1000, (double)us[n * 9 / 10] / 1000,
	       sum / n / 1000);
}

/* CPU time of the calling thread, µs. */
static int64_t thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct totals {
	uint64_t decisions;
	int64_t elapsed_us, arena_cpu_us, bots_cpu_us;
	int64_t slowest_us;         /* the slowest answer */
};

/* Games for seconds through a pool of specs[0..1], added to *t. */
static int play_for(struct bot_spec *specs, int cpu, double seconds, struct totals *t)
{
	struct pool_config pc = { specs, 2, cpu, 10000, NULL };
	struct referee_setup setup = { 0 };
	struct pool *pool;
	int64_t start, end, cpu0 = thread_cpu_us(), bots0 = 0, bots1 = 0;
	char err[256];
	int ret = 0;

	if (pool_new(&pc, &pool) < 0)
		return -1;
	setup.id = "bench";
	setup.rules.players = 2;
	setup.rules.stock_size = 30;
	setup.rules.dealer = 1;
	/* a benchmark on a busy machine must not stop at a hiccup */
	setup.move_ms = 10000;
	setup.game_ms = 600000;
	start = clock_now_us();
	end = start + (int64_t)(seconds * 1e6);
	for (uint64_t game = 1; ret == 0 && clock_now_us() < end; game++) {
		struct referee_outcome out;

		for (int s = 0; s < 2; s++)
			if (pool_acquire(pool, (size_t)s, &setup.seats[s]) < 0 || !setup.seats[s].bot)
				ret = -1;
		if (ret == 0 && game == 1)
			bots0 = bot_cpu_us(setup.seats[0].bot) + bot_cpu_us(setup.seats[1].bot);
		setup.rules.seed = game;
		if (ret == 0 && referee_play(&setup, &out, err, sizeof err) < 0) {
			fprintf(stderr, "bench_sandbox: %s\n", err);
			ret = -1;
		} else if (ret == 0 && out.nfaults) {
			fprintf(stderr, "bench_sandbox: a %s fault: %s\n",
				protocol_fault_kind_names[out.faults[0].kind], out.faults[0].reason);
			referee_outcome_release(&out);
			ret = -1;
		}
		if (ret == 0) {
			t->decisions += out.moves;
			for (int s = 0; s < 2; s++)
				if (out.time[s].max_us > t->slowest_us)
					t->slowest_us = out.time[s].max_us;
			referee_outcome_release(&out);
		}
	}
	t->elapsed_us += clock_now_us() - start;
	t->arena_cpu_us += thread_cpu_us() - cpu0;
	if (ret == 0)
		bots1 = bot_cpu_us(setup.seats[0].bot) + bot_cpu_us(setup.seats[1].bot);
	t->bots_cpu_us += bots1 - bots0;
	pool_free(pool);
	return ret;
}

int main(int argc, char **argv)
{
	static char *cheap[] = { BENCH_BOT_PATH, NULL };
	int starts = argc > 1 ? atoi(argv[1]) : 100;
	double seconds = argc > 2 ? atof(argv[2]) : 6.0;
	int cpu = argc > 3 ? atoi(argv[3]) : 0;
	char **bot = argc > 4 ? argv + 4 : cheap;
	struct bot_spec specs[2] = {
		{ .name = "a", .argv = bot, .cpu = -1 },
		{ .name = "b", .argv = bot, .cpu = -1 },
	};
	struct sandbox_setup setup = { SANDBOX_ON, specs, 2, NULL, 0 };
	int64_t *us[2];
	struct totals t[2] = { { 0 } };
	double ratio[ROUNDS / 2];
	struct sandbox *sb;
	char note[1024];
	cpu_set_t set;

	reaper_start();
	if (sandbox_open(&setup, &sb, note, sizeof note) < 0) {
		fprintf(stderr, "bench_sandbox: %s\n", note);
		return 1;
	}
	printf("sandbox: %s%s%s\n", sandbox_describe(sb), note[0] ? "; " : "", note);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0)
		perror("sched_setaffinity");
	us[0] = calloc((size_t)starts, sizeof *us[0]);
	us[1] = calloc((size_t)starts, sizeof *us[1]);
	if (!us[0] || !us[1] || starts < 1)
		return 1;
	/* off and on in turn, each start on the same CPU */
	for (int i = 0; i < 2 * starts; i++) {
		struct bot_spec spec = specs[0];
		int on = i % 2;

		spec.cpu = cpu;
		spec.sandbox = on ? sb : NULL;
		if ((us[on][i / 2] = start_once(&spec)) < 0)
			return 1;
	}
	print_starts("off", us[0], starts);
	print_starts("on", us[1], starts);
	for (int round = 0; round < ROUNDS; round++) {
		int on = round % 2;
		struct totals before = t[on];

		specs[0].sandbox = specs[1].sandbox = on ? sb : NULL;
		if (play_for(specs, cpu, seconds * 2 / ROUNDS, &t[on]) < 0) {
			fprintf(stderr, "bench_sandbox: a game failed (sandbox %s)\n", on ? "on" : "off");
			return 1;
		}
		ratio[round / 2] = on ? ratio[round / 2] /
			((double)(t[1].decisions - before.decisions) /
			 (double)(t[1].elapsed_us - before.elapsed_us)) :
			(double)(t[0].decisions - before.decisions) /
			(double)(t[0].elapsed_us - before.elapsed_us);
	}
	/* ratio[] held off/on rates: made on/off, sorted for the median */
	for (int i = 0; i < ROUNDS / 2; i++)
		ratio[i] = 1.0 / ratio[i];
	qsort(ratio, ROUNDS / 2, sizeof *ratio, compare_double);
	for (int on = 0; on < 2; on++)
		printf("decisions, sandbox %-3s: %llu in %.2f s: %.0f decisions/s; CPU per decision: "
		       "arena %.2f us, bots %.2f us; slowest answer %.1f ms\n", on ? "on" : "off",
		       (unsigned long long)t[on].decisions, (double)t[on].elapsed_us / 1e6,
		       (double)t[on].decisions * 1e6 / (double)t[on].elapsed_us,
		       (double)t[on].arena_cpu_us / (double)t[on].decisions,
		       (double)t[on].bots_cpu_us / (double)t[on].decisions,
		       (double)t[on].slowest_us / 1000);
	printf("on / off: %.1f%% of the decisions/s; median of %d rounds %.1f%%\n",
	       100.0 * ((double)t[1].decisions / (double)t[1].elapsed_us) /
	       ((double)t[0].decisions / (double)t[0].elapsed_us), ROUNDS / 2,
	       100.0 * (ratio[ROUNDS / 4 - 1] + ratio[ROUNDS / 4]) / 2);
	free(us[0]);
	free(us[1]);
	sandbox_close(sb);
	return 0;
}
