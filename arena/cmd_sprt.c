/*
 * cmd_sprt.c - `skipbo-arena sprt [options] BOT_A BOT_B`: play duplicate game
 * pairs between two bots until the GSPRT of sprt.h decides whether A is
 * stronger by at least elo1 (H1) or by at most elo0 (H0), printing the
 * log-likelihood ratio and its bounds after every pair.
 *
 * Pair k deals seed_k = schedule_deal_seed(seed, 0, k) twice: A in seat 0,
 * then B in seat 0, seat 0 moving first in both (R3, as in tournaments).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "echo.h"
#include "options.h"
#include "pool.h"
#include "rating.h"
#include "referee.h"
#include "schedule.h"
#include "sprt.h"
#include "termsafe.h"

struct sprt_run {
	struct options_common common;
	double elo0, elo1, alpha, beta;
	long long max_pairs;
	const char *name[2];
	int quiet;
	char *argv_cmd[2];
	const struct referee_observer *observer; /* the bots' stderr shown, or NULL */
};

static const char sprt_usage[] =
	"usage: skipbo-arena sprt [options] BOT_A BOT_B\n"
	"\n"
	"Play duplicate game pairs (each deal twice, seats swapped) between two bot\n"
	"commands until a sequential probability ratio test on pair scores accepts\n"
	"H1 (A is at least ELO1 stronger) or H0 (A is at most ELO0 stronger).\n"
	"\n"
	"options:\n"
	"      --elo0 E          H0 bound in logistic Elo (default 0)\n"
	"      --elo1 E          H1 bound in logistic Elo (default 20)\n"
	"      --alpha P         chance of accepting H1 when H0 holds (default 0.05)\n"
	"      --beta P          chance of accepting H0 when H1 holds (default 0.05)\n"
	"      --max-pairs N     stop undecided after N pairs (default 20000)\n"
	"      --seed N          deal seed (decimal or 0x hex; default: random, printed)\n"
	"      --seed-file FILE  the seed from FILE (or SKIPBO_SEED in the environment)\n"
	"      --stock N         stock size (default: R3, 30 for two players)\n"
	OPTIONS_TIME_HELP
	OPTIONS_LIMITS_HELP
	OPTIONS_SANDBOX_HELP
	"                        (defaults as in a tournament file, arena/TOURNAMENT.md)\n"
	"      --name-a NAME     name of BOT_A (default: its program name)\n"
	"      --name-b NAME     name of BOT_B (default: its program name)\n"
	OPTIONS_BOT_STDERR_HELP
	OPTIONS_ENV_HELP("both bots'")
	"  -q, --quiet           print only the result, not every pair\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 when the test finished (decided or at --max-pairs), 1 on an\n"
	"arena error, 2 on bad usage.\n";

enum { OPT_ELO0 = OPTIONS_OWN, OPT_ELO1, OPT_ALPHA, OPT_BETA, OPT_MAX_PAIRS, OPT_NAME_A,
	OPT_NAME_B };

/* The options of sprt alone; options.h adds the seed, stock, time and limits. */
static const struct option sprt_options[] = {
	{ "elo0", required_argument, NULL, OPT_ELO0 },
	{ "elo1", required_argument, NULL, OPT_ELO1 },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "beta", required_argument, NULL, OPT_BETA },
	{ "max-pairs", required_argument, NULL, OPT_MAX_PAIRS },
	{ "name-a", required_argument, NULL, OPT_NAME_A },
	{ "name-b", required_argument, NULL, OPT_NAME_B },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* A number strictly between lo and hi (sprt_init's ranges). 0, or -1 after the message. */
static int parse_double(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*out) || !(*out > lo && *out < hi)) {
		warnx("%s: expected a number above %g and below %g, got \"%s\"", opt, lo, hi, arg);
		return -1;
	}
	return 0;
}

static int sprt_option(void *ctx, int c, const char *arg)
{
	struct sprt_run *run = ctx;

	switch (c) {
	case OPT_ELO0: return parse_double("--elo0", arg, -2000, 2000, &run->elo0);
	case OPT_ELO1: return parse_double("--elo1", arg, -2000, 2000, &run->elo1);
	case OPT_ALPHA: return parse_double("--alpha", arg, 0, 0.5, &run->alpha);
	case OPT_BETA: return parse_double("--beta", arg, 0, 0.5, &run->beta);
	case OPT_MAX_PAIRS: return options_number("--max-pairs", arg, 1, 100000000, &run->max_pairs);
	case OPT_NAME_A: run->name[0] = arg; break;
	case OPT_NAME_B: run->name[1] = arg; break;
	case 'q': run->quiet = 1; break;
	}
	return 0;
}

/* Returns -1 to go on, or the exit status (0 after --help, 2 for bad usage). */
static int sprt_parse(int argc, char **argv, struct sprt_run *run)
{
	const struct options_command cmd = { sprt_usage, "q", sprt_options,
		OPTIONS_SEED | OPTIONS_STOCK | OPTIONS_TIME | OPTIONS_LIMITS | OPTIONS_SANDBOX |
		OPTIONS_BOT_STDERR | OPTIONS_ENV, sprt_option, run };
	int ret;

	options_common_init(&run->common, 1);
	if ((ret = options_parse(&cmd, argc, argv, &run->common)) >= 0)
		return ret;
	if (options_resolve_seed(&run->common) < 0)
		return 1;
	if (argc - optind != 2) {
		warnx("sprt: want two bot commands, BOT_A and BOT_B");
		options_bad_usage(sprt_usage, NULL, argv);
		return 2;
	}
	run->argv_cmd[0] = argv[optind];
	run->argv_cmd[1] = argv[optind + 1];
	return -1;
}

/* Bot A's R7 result in one game where it sat at seat_a. */
static double result_of(const struct referee_outcome *out, int seat_a)
{
	int a = out->placings[seat_a], b = out->placings[1 - seat_a];

	return a < b ? 1.0 : a > b ? 0.0 : 0.5;
}

/* Play one game; *score gets A's result, *faults counts faults. 0 or negative (arena error). */
static int play_game(const struct sprt_run *run, struct pool *pool, uint64_t pair,
		     int rotation, double *score, long *faults)
{
	struct referee_setup setup = { 0 };
	struct game_rules rules;
	struct referee_outcome out = { 0 };
	char id[64], err[512], told[REFEREE_OPAQUE_ID_SIZE];
	int ret;

	snprintf(id, sizeof(id), "sprt-d%04llu-r%d", (unsigned long long)pair, rotation);
	/* the bots are told an id that names no pair or rotation */
	referee_opaque_id(run->common.seed, id, told);
	rules = (struct game_rules){ .players = 2, .stock_size = (int)run->common.stock,
				     .seed = schedule_deal_seed(run->common.seed, 0, (uint32_t)pair) };
	referee_setup_init(&setup, id, &rules, (int)run->common.move_ms, (int)run->common.game_ms);
	setup.bot_id = told;
	setup.observer = run->observer;
	/* rotation 0: A (bot 0) in seat 0; rotation 1: B in seat 0. */
	for (int s = 0; s < 2; s++) {
		ret = pool_acquire(pool, (size_t)((s + rotation) % 2), &setup.seats[s]);
		if (ret < 0) {
			warnx("sprt: starting bots: %s", strerror(-ret));
			return ret;
		}
	}
	/* the next game's processes start during this one */
	for (int b = 0; b < 2; b++)
		if ((ret = pool_prepare(pool, (size_t)b)) < 0) {
			warnx("sprt: starting bots: %s", strerror(-ret));
			return ret;
		}
	ret = referee_play(&setup, &out, err, sizeof(err));
	if (ret < 0) {
		warnx("sprt: %s: %s", id, err);
		return ret;
	}
	for (int s = 0; s < 2; s++)
		pool_release(pool, (size_t)((s + rotation) % 2), out.faulted[s]);
	*score = result_of(&out, rotation);
	*faults += (long)out.nfaults;
	for (size_t f = 0; f < out.nfaults && !run->quiet; f++) {
		printf("fault in %s: %s (seat %d) %s: ", id, setup.seats[out.faults[f].seat].name,
		       out.faults[f].seat, protocol_fault_kind_names[out.faults[f].kind]);
		termsafe_puts(stdout, out.faults[f].reason);
		putchar('\n');
	}
	referee_outcome_release(&out);
	return 0;
}

static void print_status(const struct sprt *t, const char *prefix)
{
	struct rating_paired st;

	rating_paired_stats(t->pent, &st);
	printf("%s%6.0f  pairs 0/0.5/1/1.5/2: %g/%g/%g/%g/%g  score %.4f  Elo %+.1f",
	       prefix, t->pairs, t->pent[0], t->pent[1], t->pent[2], t->pent[3], t->pent[4],
	       st.score, st.elo);
	if (isfinite(st.elo_lo))
		printf(" [%+.1f, %+.1f]", st.elo_lo, st.elo_hi);
	printf("  LLR %+.3f  bounds [%.3f, %.3f]\n", t->llr, t->lower, t->upper);
}

static int sprt_play(struct sprt_run *run, struct bot_spec *specs)
{
	struct pool_config pc = { .specs = specs, .nbots = 2, .cpu = -1,
				  .startup_ms = (int)run->common.startup_ms, .fresh = 1 };
	struct pool *pool = NULL;
	struct echo echo;
	struct sprt t;
	long faults = 0;
	int ret;

	echo_init(&echo, stderr);
	if (OPTIONS_SHOW_BOTS(&run->common))
		run->observer = pc.observer = &echo.observer;

	/* the options' ranges are checked as they are read; what is left is their order */
	if (sprt_init(&t, run->elo0, run->elo1, run->alpha, run->beta) < 0) {
		warnx("sprt: --elo0 %g and --elo1 %g: --elo0 must be below --elo1", run->elo0,
		      run->elo1);
		return 2;
	}
	if (pool_new(&pc, &pool) < 0) {
		warnx("sprt: out of memory");
		return 1;
	}
	printf("SPRT %s vs %s: H0 elo <= %g, H1 elo >= %g, alpha %g, beta %g, "
	       "bounds [%.3f, %.3f], seed %llu\n", specs[0].name, specs[1].name, run->elo0,
	       run->elo1, run->alpha, run->beta, t.lower, t.upper, run->common.seed);
	fflush(stdout);
	for (long long pair = 0; pair < run->max_pairs && sprt_status(&t) == SPRT_CONTINUE; pair++) {
		double first, second;
		if ((ret = play_game(run, pool, (uint64_t)pair, 0, &first, &faults)) < 0 ||
		    (ret = play_game(run, pool, (uint64_t)pair, 1, &second, &faults)) < 0) {
			pool_free(pool);
			return 1;
		}
		sprt_add_pair(&t, first + second);
		if (!run->quiet) {
			print_status(&t, "pair ");
			fflush(stdout);
		}
	}
	pool_free(pool);
	print_status(&t, "final ");
	printf("faults: %ld\nresult: %s\n", faults,
	       sprt_status(&t) == SPRT_ACCEPT_H1 ? "H1 accepted (A is stronger by elo1 or more)" :
	       sprt_status(&t) == SPRT_ACCEPT_H0 ? "H0 accepted (A is not stronger by more than elo0)" :
	       "undecided at --max-pairs");
	return 0;
}

int cmd_sprt(int argc, char **argv)
{
	struct sprt_run run = { .elo0 = 0, .elo1 = 20, .alpha = 0.05, .beta = 0.05,
				.max_pairs = 20000 };
	struct bot_spec specs[2] = { 0 };
	char *bot_argv[2] = { NULL, NULL }, *log_path[2] = { NULL, NULL }, *names[2] = { NULL, NULL };
	char **split[2] = { NULL, NULL };
	char cwd[4096], resolved[4096], why[512];
	struct sandbox *sb = NULL;
	int ret = sprt_parse(argc, argv, &run);

	if (ret >= 0)
		return ret;
	ret = 1;
	if (!getcwd(cwd, sizeof(cwd))) {
		warn("sprt: getcwd");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		split[i] = options_split(run.argv_cmd[i]);
		if (!split[i]) {
			warnx("sprt: empty bot command \"%s\"", run.argv_cmd[i]);
			ret = 2;
			goto out;
		}
		if (config_resolve_command(split[i][0], cwd, resolved, sizeof(resolved), why,
					   sizeof(why)) < 0) {
			warnx("sprt: bot %c: %s", 'A' + i, why);
			ret = 2;
			goto out;
		}
		bot_argv[i] = split[i][0];
		split[i][0] = strdup(resolved);
		if (!split[i][0])
			goto out;
		if (run.name[i]) {
			names[i] = strdup(run.name[i]);
		} else {
			char *base = basename(bot_argv[i]);
			/* Two copies of one program still need two names. */
			if (asprintf(&names[i], "%s%s", base, i == 1 && names[0] &&
				     strcmp(names[0], base) == 0 ? "-b" : "") < 0)
				names[i] = NULL;
		}
		if (!names[i])
			goto out;
		specs[i].name = names[i];
		specs[i].argv = split[i];
		specs[i].stderr_cap = CONFIG_DEFAULT_STDERR_CAP;
		specs[i].cpu = -1;
		specs[i].limits = run.common.limits;
		specs[i].env = run.common.env;
	}
	if (options_stderr_files(&run.common, specs, 2, log_path) < 0)
		goto out;
	/* the bots' logs are the arena's to write, not theirs to read */
	if (options_open_sandbox(&run.common, specs, 2, &run.common.stderr_dir,
				 run.common.stderr_dir ? 1 : 0, &sb) < 0)
		ret = sprt_play(&run, specs);
	sandbox_close(sb);
out:
	for (int i = 0; i < 2; i++) {
		free(bot_argv[i]);
		free(log_path[i]);
		free(names[i]);
		if (split[i])
			options_free_argv(split[i]);
	}
	return ret;
}
