/*
 * cmd_run.c - `skipbo-arena run TOURNAMENT.json [overrides]`.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "options.h"
#include "report.h"
#include "tournament.h"

static const char run_usage[] =
	"usage: skipbo-arena run [options] TOURNAMENT.json\n"
	"\n"
	"Run the round-robin tournament TOURNAMENT.json (arena/TOURNAMENT.md), or resume it:\n"
	"games already in the output directory's games.jsonl are not played again.\n"
	"\n"
	"options (each overrides the tournament file; the limits for every bot):\n"
	"  -j, --jobs N          games at once (default: the file's concurrency, else CPUs)\n"
	"      --seed N          tournament seed\n"
	"  -o, --output DIR      output directory (default: results/<name>)\n"
	"      --deals N         deals per table\n"
	"      --move-ms N       per-move limit\n"
	"      --game-ms N       per-game time bank\n"
	"      --startup-ms N    hello deadline after a bot starts\n"
	"      --no-timeout      no move or game time limits (debugging)\n"
	"      --no-pin          do not pin workers and their bots to CPUs\n"
	"      --shard K/N       play only shard K (1..N) of N; default output\n"
	"                        <output>/shard-K-of-N (arena/CLUSTER.md)\n"
	OPTIONS_LIMITS_HELP
	OPTIONS_SANDBOX_HELP
	"      --log-io          write every line to and from the bots to <output>/io/<game>.log,\n"
	"                        and keep each decision's stderr lines in its replay\n"
	"      --no-report       no ranking table and no report files at the end\n"
	"  -q, --quiet           no progress line and no ranking table\n"
	"  -h, --help            this text\n"
	"\n"
	"A resume must use the same tournament file and game-changing options (seed, deals,\n"
	"rules, time, limits); -j, --no-pin, --quiet, --log-io and --no-report may change.\n"
	"Exit status: 0 all games recorded, 1 stopped early or failed, 2 bad usage,\n"
	"3 all games recorded but a bot never started (every game of it a start fault).\n";

/* Every game is recorded, but some bot's program never ran: not a success. */
#define RUN_EXIT_NEVER_STARTED 3

enum { OPT_DEALS = OPTIONS_OWN, OPT_NO_TIMEOUT, OPT_NO_PIN, OPT_LOG_IO, OPT_NO_REPORT, OPT_SHARD };

/* The options of run alone; options.h adds the seed, time and limits. */
static const struct option run_options[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "deals", required_argument, NULL, OPT_DEALS },
	{ "no-timeout", no_argument, NULL, OPT_NO_TIMEOUT },
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "log-io", no_argument, NULL, OPT_LOG_IO },
	{ "no-report", no_argument, NULL, OPT_NO_REPORT },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* Command-line values, applied on top of the tournament file. */
struct run_overrides {
	struct options_common common; /* -1 or has_seed 0: keep the file's */
	long long jobs, deals;        /* -1 = keep */
	int no_timeout, no_pin, quiet, log_io, no_report;
	const char *output;
	long long shard, nshards;     /* --shard K/N, 1-based; nshards 0 = the whole tournament */
};

/* --shard K/N: 1 <= K <= N <= 100000. 0, or -1 after the message. */
static int parse_shard(const char *arg, struct run_overrides *o)
{
	char k[32];
	const char *slash = strchr(arg, '/');

	if (!slash || (size_t)(slash - arg) >= sizeof(k)) {
		warnx("--shard \"%s\": expected K/N, e.g. 3/8", arg);
		return -1;
	}
	memcpy(k, arg, (size_t)(slash - arg));
	k[slash - arg] = '\0';
	if (options_number("--shard N", slash + 1, 1, 100000, &o->nshards) ||
	    options_number("--shard K", k, 1, o->nshards, &o->shard))
		return -1;
	return 0;
}

/* Ctrl-C or SIGTERM stops whichever phase is running: the games or the final report. */
static void on_stop_signal(int sig)
{
	(void)sig;
	tournament_request_stop();
	report_request_stop();
}

static int run_option(void *ctx, int c, const char *arg)
{
	struct run_overrides *o = ctx;

	switch (c) {
	case 'j': return options_number("--jobs", arg, 1, 1024, &o->jobs);
	case 'o': o->output = arg; break;
	case OPT_DEALS: return options_number("--deals", arg, 1, 100000000, &o->deals);
	case OPT_NO_TIMEOUT: o->no_timeout = 1; break;
	case OPT_NO_PIN: o->no_pin = 1; break;
	case OPT_LOG_IO: o->log_io = 1; break;
	case OPT_NO_REPORT: o->no_report = 1; break;
	case OPT_SHARD: return parse_shard(arg, o);
	case 'q': o->quiet = 1; break;
	}
	return 0;
}

static int parse_run_options(int argc, char **argv, struct run_overrides *o)
{
	const struct options_command cmd = { run_usage, "j:o:q", run_options,
		OPTIONS_SEED | OPTIONS_TIME | OPTIONS_LIMITS | OPTIONS_SANDBOX, run_option, o };
	int ret;

	memset(o, 0, sizeof(*o));
	o->jobs = o->deals = -1;
	options_common_init(&o->common, 0);
	if ((ret = options_parse(&cmd, argc, argv, &o->common)) >= 0)
		return ret;
	if (argc - optind != 1) {
		warnx("run: expected one tournament file (see \"skipbo-arena run --help\")");
		return 2;
	}
	return -1;
}

static int apply_overrides(struct config *cfg, const struct run_overrides *o)
{
	if (o->jobs > 0)
		cfg->concurrency = (int)o->jobs;
	if (o->common.has_seed)
		cfg->seed = o->common.seed;
	if (o->output) {
		free(cfg->output);
		if (!(cfg->output = strdup(o->output)))
			return -ENOMEM;
	} else if (o->nshards) {
		char *dir;

		if (asprintf(&dir, "%s/shard-%lld-of-%lld", cfg->output, o->shard, o->nshards) < 0)
			return -ENOMEM;
		free(cfg->output);
		cfg->output = dir;
	}
	if (o->deals > 0)
		cfg->deals = (uint32_t)o->deals;
	if (o->common.move_ms > 0)
		cfg->move_ms = (int)o->common.move_ms;
	if (o->common.game_ms > 0)
		cfg->game_ms = (int)o->common.game_ms;
	if (o->common.startup_ms > 0)
		cfg->startup_ms = (int)o->common.startup_ms;
	if (o->no_timeout)
		cfg->move_ms = cfg->game_ms = 0;
	if (o->no_pin)
		cfg->pin = 0;
	if (o->common.sandbox >= 0)
		cfg->sandbox = o->common.sandbox;
	options_apply_limits(&o->common, &cfg->limits);
	for (size_t i = 0; i < cfg->nbots; i++)
		options_apply_limits(&o->common, &cfg->bots[i].limits);
	return 0;
}

/*
 * Sandboxes for the bots as cfg->sandbox says, hiding the output directory
 * and the tournament file from them (and, for a shard in its default place,
 * the directory of all the shards); cfg->sandbox becomes the mode in use,
 * which tournament.json records. -1 to go on, or the exit status.
 */
static int open_sandbox(struct config *cfg, int shards_below, struct sandbox **out)
{
	struct bot_spec *specs = calloc(cfg->nbots, sizeof(*specs));
	char *parent = strdup(cfg->output), *slash = parent ? strrchr(parent, '/') : NULL;
	const char *hide[] = { cfg->output, cfg->file, parent };
	struct options_common common;
	int ret;

	if (slash && shards_below)
		*slash = '\0';
	else
		hide[2] = NULL;
	if (!specs || !parent) {
		free(specs);
		free(parent);
		warnx("run: out of memory");
		return 1;
	}
	for (size_t i = 0; i < cfg->nbots; i++) {
		specs[i].name = cfg->bots[i].name;
		specs[i].argv = cfg->bots[i].argv;
		specs[i].cwd = cfg->bots[i].cwd;
	}
	options_common_init(&common, 0);
	common.sandbox = cfg->sandbox;
	ret = options_open_sandbox(&common, specs, cfg->nbots, hide, hide[2] ? 3 : 2, out);
	cfg->sandbox = *out ? SANDBOX_ON : SANDBOX_OFF;
	free(specs);
	free(parent);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct tournament_options topt = { 0 };
	struct run_overrides o;
	struct config cfg;
	struct sigaction sa = { 0 };
	char err[CONFIG_ERR_MAX + 256];
	const char *dirs[1];
	int ret;

	if ((ret = parse_run_options(argc, argv, &o)) >= 0)
		return ret;
	if (config_load(argv[optind], &cfg, err, sizeof(err)) < 0) {
		warnx("%s", err);
		return 1;
	}
	if (apply_overrides(&cfg, &o) < 0) {
		warnx("run: out of memory");
		ret = 1;
		goto out;
	}
	if ((cfg.move_ms == 0) != (cfg.game_ms == 0)) {
		warnx("run: move and game time limits are both set or both off (--no-timeout)");
		ret = 2;
		goto out;
	}
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	topt.quiet = o.quiet;
	topt.log_io = o.log_io;
	if (o.nshards) {
		topt.shard = (uint32_t)(o.shard - 1);
		topt.nshards = (uint32_t)o.nshards;
	}
	if ((ret = open_sandbox(&cfg, o.nshards && !o.output, &topt.sandbox)) >= 0)
		goto out;
	ret = tournament_run(&cfg, &topt, err, sizeof(err));
	if (ret < 0) {
		warnx("run: %s", err);
		ret = 1;
		goto out;
	}
	if (ret == 1) {
		warnx("run: stopped; run the same command again to resume");
		goto out;
	}
	/* the summary: ranking table and report files, from games.jsonl */
	dirs[0] = cfg.output;
	if (!o.no_report &&
	    (ret = report_generate(dirs, 1, NULL, o.quiet ? NULL : stdout, err, sizeof(err))) < 0) {
		if (ret == -EINTR) {
			warnx("run: stopped during the report; every game is recorded: "
			      "\"skipbo-arena report %s\" writes it", cfg.output);
			ret = 1;
			goto out;
		}
		warnx("run: report: %s", err);
	}
	if (!o.quiet)
		printf("results in %s\n", cfg.output);
	if (ret > 0) {
		warnx("run: %d bot%s never started: every game of %s is a start fault (see the "
		      "warning above, logs/ and \"skipbo-arena check\")", ret, ret == 1 ? "" : "s",
		      ret == 1 ? "it" : "each");
		ret = RUN_EXIT_NEVER_STARTED;
		goto out;
	}
	ret = 0;
out:
	sandbox_close(topt.sandbox);
	config_release(&cfg);
	return ret;
}
