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
	"options (each overrides the tournament file):\n"
	"  -j, --jobs N          games at once (default: the file's concurrency, else CPUs)\n"
	"      --seed N          tournament seed\n"
	"  -o, --output DIR      output directory (default: results/<name>)\n"
	"      --deals N         deals per table\n"
	"      --move-ms N       per-move limit\n"
	"      --game-ms N       per-game time bank\n"
	"      --startup-ms N    hello deadline after a bot starts\n"
	"      --no-timeout      no move or game time limits (debugging)\n"
	"      --no-pin          do not pin workers and their bots to CPUs\n"
	"      --cpu-seconds N   per-bot CPU time limit (0 = none), for every bot\n"
	"      --memory-mb N     per-bot address-space limit (0 = none)\n"
	"      --open-files N    per-bot open-files limit (0 = unchanged)\n"
	"      --processes N     per-bot process limit (0 = unchanged)\n"
	"      --log-io          write every line to and from the bots to <output>/io/<game>.log\n"
	"      --no-report       no ranking table and no report files at the end\n"
	"  -q, --quiet           no progress line and no ranking table\n"
	"  -h, --help            this text\n"
	"\n"
	"A resume must use the same tournament file and game-changing options (seed, deals,\n"
	"rules, time, limits); -j, --no-pin, --quiet, --log-io and --no-report may change.\n"
	"Exit status: 0 all games recorded, 1 stopped early or failed, 2 bad usage.\n";

enum {
	OPT_SEED = 256, OPT_DEALS, OPT_MOVE_MS, OPT_GAME_MS, OPT_STARTUP_MS, OPT_NO_TIMEOUT,
	OPT_NO_PIN, OPT_CPU, OPT_MEM, OPT_FILES, OPT_PROCS, OPT_LOG_IO, OPT_NO_REPORT,
};

static const struct option run_options[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "output", required_argument, NULL, 'o' },
	{ "deals", required_argument, NULL, OPT_DEALS },
	{ "move-ms", required_argument, NULL, OPT_MOVE_MS },
	{ "game-ms", required_argument, NULL, OPT_GAME_MS },
	{ "startup-ms", required_argument, NULL, OPT_STARTUP_MS },
	{ "no-timeout", no_argument, NULL, OPT_NO_TIMEOUT },
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "cpu-seconds", required_argument, NULL, OPT_CPU },
	{ "memory-mb", required_argument, NULL, OPT_MEM },
	{ "open-files", required_argument, NULL, OPT_FILES },
	{ "processes", required_argument, NULL, OPT_PROCS },
	{ "log-io", no_argument, NULL, OPT_LOG_IO },
	{ "no-report", no_argument, NULL, OPT_NO_REPORT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *const limit_names[] = { "--cpu-seconds", "--memory-mb", "--open-files",
	"--processes" };

/* Command-line values, applied on top of the tournament file. */
struct run_overrides {
	long long jobs, deals, move_ms, game_ms, startup_ms;
	long long limit[4];           /* cpu, memory, files, processes; -1 = keep */
	unsigned long long seed;
	int has_seed, no_timeout, no_pin, quiet, log_io, no_report;
	const char *output;
};

static void on_stop_signal(int sig)
{
	(void)sig;
	tournament_request_stop();
}

static int parse_run_options(int argc, char **argv, struct run_overrides *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->jobs = o->deals = o->move_ms = o->game_ms = o->startup_ms = -1;
	for (int i = 0; i < 4; i++)
		o->limit[i] = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+j:o:qh", run_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (options_number("--jobs", optarg, 1, 1024, &o->jobs) < 0)
				return 2;
			break;
		case OPT_SEED:
			if (options_seed("--seed", optarg, &o->seed) < 0)
				return 2;
			o->has_seed = 1;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_DEALS:
			if (options_number("--deals", optarg, 1, 100000000, &o->deals) < 0)
				return 2;
			break;
		case OPT_MOVE_MS:
			if (options_number("--move-ms", optarg, 1, 3600000, &o->move_ms) < 0)
				return 2;
			break;
		case OPT_GAME_MS:
			if (options_number("--game-ms", optarg, 1, 86400000, &o->game_ms) < 0)
				return 2;
			break;
		case OPT_STARTUP_MS:
			if (options_number("--startup-ms", optarg, 1, 600000, &o->startup_ms) < 0)
				return 2;
			break;
		case OPT_CPU: case OPT_MEM: case OPT_FILES: case OPT_PROCS:
			if (options_number(limit_names[c - OPT_CPU], optarg, 0, 1 << 24,
					   &o->limit[c - OPT_CPU]) < 0)
				return 2;
			break;
		case OPT_NO_TIMEOUT:
			o->no_timeout = 1;
			break;
		case OPT_NO_PIN:
			o->no_pin = 1;
			break;
		case OPT_LOG_IO:
			o->log_io = 1;
			break;
		case OPT_NO_REPORT:
			o->no_report = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			fputs(run_usage, stdout);
			return 0;
		default:
			fputs(run_usage, stderr);
			return 2;
		}
	}
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
	if (o->has_seed)
		cfg->seed = o->seed;
	if (o->output) {
		free(cfg->output);
		if (!(cfg->output = strdup(o->output)))
			return -ENOMEM;
	}
	if (o->deals > 0)
		cfg->deals = (uint32_t)o->deals;
	if (o->move_ms > 0)
		cfg->move_ms = (int)o->move_ms;
	if (o->game_ms > 0)
		cfg->game_ms = (int)o->game_ms;
	if (o->startup_ms > 0)
		cfg->startup_ms = (int)o->startup_ms;
	if (o->no_timeout)
		cfg->move_ms = cfg->game_ms = 0;
	if (o->no_pin)
		cfg->pin = 0;
	for (size_t i = 0; i <= cfg->nbots; i++) {
		struct bot_limits *l = i < cfg->nbots ? &cfg->bots[i].limits : &cfg->limits;

		if (o->limit[0] >= 0)
			l->cpu_seconds = (long)o->limit[0];
		if (o->limit[1] >= 0)
			l->memory_mb = (long)o->limit[1];
		if (o->limit[2] >= 0)
			l->open_files = (long)o->limit[2];
		if (o->limit[3] >= 0)
			l->processes = (long)o->limit[3];
	}
	return 0;
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
	    report_generate(dirs, 1, NULL, o.quiet ? NULL : stdout, err, sizeof(err)) < 0)
		warnx("run: report: %s", err);
	if (!o.quiet)
		printf("results in %s\n", cfg.output);
	ret = 0;
out:
	config_release(&cfg);
	return ret;
}
