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

#include <unistd.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "server.h"
#include "config.h"
#include "options.h"
#include "gamelog.h"
#include "report.h"
#include "results.h"
#include "tournament_file.h"
#include "tournament.h"

static const char run_usage[] =
	"usage: skipbo-arena run [options] TOURNAMENT.json\n"
	"       skipbo-arena run [options] --bot NAME=CMD --bot NAME=CMD [--bot ...]\n"
	"\n"
	"Run the tournament TOURNAMENT.json (arena/TOURNAMENT.md), or resume it: games\n"
	"already in the output directory's games.jsonl are not played again. With --bot,\n"
	"a round robin (or --gauntlet) of those bots without a file; the output directory's\n"
	"tournament.json is its tournament file.\n"
	"\n"
	"without a file:\n"
	"      --bot NAME=CMD    a bot: its name and command, split on spaces, quotes as sh (no shell)\n"
	"      --name NAME       the tournament's name (default: quick)\n"
	"      --players N       players per game, 2 to 6 (default 2)\n"
	"      --stock N         R3 stock size, 1 to 30 (default: R3's)\n"
	"      --gauntlet NAME   a gauntlet with challenger NAME (repeat for more)\n"
	"\n"
	"options (each overrides the tournament file; the limits for every bot):\n"
	"  -j, --jobs N          games at once (default: the file's concurrency, else CPUs)\n"
	"      --concurrency N   the same as -j N; also spelt -concurrency N\n"
	"      --seed N          tournament seed (default: the file's, else the one the\n"
	"                        output directory recorded, else random; recorded in\n"
	"                        tournament.json). A bot may read the command line:\n"
	"      --seed-file FILE  the seed from FILE, or SKIPBO_SEED in the environment\n"
	"  -o, --output DIR      output directory (default: results/<name>)\n"
	"      --deals N         deals per table\n"
	"      --move-ms N       per-move limit\n"
	"      --game-ms N       per-game time bank\n"
	"      --startup-ms N    hello deadline after a bot starts\n"
	"      --no-timeout      no move or game time limits (debugging)\n"
	"      --no-pin          do not pin workers and their bots to CPUs\n"
	"      --reuse-processes one process per bot and worker for many games, not a\n"
	"                        fresh one per game (\"processes\": \"reuse\"; trusted bots)\n"
	"      --shard K/N       play only shard K (1..N) of N; default output\n"
	"                        <output>/shard-K-of-N (arena/CLUSTER.md)\n"
	OPTIONS_LIMITS_HELP
	OPTIONS_SANDBOX_HELP
	"      --fresh           start the output directory over: an existing one is renamed\n"
	"                        <output>.old-K first (nothing is deleted)\n"
	"      --log-io          write every line to and from the bots to <output>/io/<game>.log,\n"
	"                        and keep each decision's stderr lines in its replay\n"
	"      --no-report       no ranking table and no report files at the end\n"
	"  -q, --quiet           no progress line and no ranking table\n"
	"      --wide            print every column of the ranking (default: the\n"
	"                        columns that fit 80 characters)\n"
	"      --rating-interval N  print the ranking every N games played\n"
	"      --serve ADDR:PORT serve the output directory live over HTTP while it runs\n"
	"                        (skipbo-arena serve; port 0: any free port)\n"
	"  -h, --help            this text\n"
	"\n"
	"A resume must use the same tournament file and game-changing options (seed, deals,\n"
	"rules, time, limits) and the same bot programs (by SHA-256 of each bot's executable\n"
	"and script, arena/TOURNAMENT.md); -j, --no-pin, --quiet, --wide, --log-io and\n"
	"--no-report may change.\n"
	"Ctrl-C or SIGTERM: the games in flight are finished, the report of the games\n"
	"played is written marked partial, and the command that resumes is printed.\n"
	"Exit status: 0 all games recorded, 1 stopped early or failed, 2 bad usage,\n"
	"3 all games recorded but a bot never started (every game of it a start fault).\n";

/* Every game is recorded, but some bot's program never ran: not a success. */
#define RUN_EXIT_NEVER_STARTED 3

enum {
	OPT_DEALS = OPTIONS_OWN, OPT_NO_TIMEOUT, OPT_NO_PIN, OPT_LOG_IO, OPT_NO_REPORT, OPT_SHARD,
	OPT_FRESH, OPT_BOT, OPT_NAME, OPT_PLAYERS, OPT_GAUNTLET, OPT_RATING_INTERVAL, OPT_SERVE,
	OPT_REUSE, OPT_WIDE,
};

/* --bot and --gauntlet at most this many times */
#define RUN_MAX_BOTS 64

/* The options of run alone; options.h adds the seed, time and limits. */
static const struct option run_options[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "concurrency", required_argument, NULL, 'j' },
	{ "bot", required_argument, NULL, OPT_BOT },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "players", required_argument, NULL, OPT_PLAYERS },
	{ "gauntlet", required_argument, NULL, OPT_GAUNTLET },
	{ "rating-interval", required_argument, NULL, OPT_RATING_INTERVAL },
	{ "output", required_argument, NULL, 'o' },
	{ "deals", required_argument, NULL, OPT_DEALS },
	{ "no-timeout", no_argument, NULL, OPT_NO_TIMEOUT },
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "reuse-processes", no_argument, NULL, OPT_REUSE },
	{ "log-io", no_argument, NULL, OPT_LOG_IO },
	{ "no-report", no_argument, NULL, OPT_NO_REPORT },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "fresh", no_argument, NULL, OPT_FRESH },
	{ "quiet", no_argument, NULL, 'q' },
	{ "wide", no_argument, NULL, OPT_WIDE },
	{ "serve", required_argument, NULL, OPT_SERVE },
	{ NULL, 0, NULL, 0 },
};

/* Command-line values, applied on top of the tournament file. */
struct run_overrides {
	struct options_common common; /* -1 or has_seed 0: keep the file's */
	long long jobs, deals;        /* -1 = keep */
	int no_timeout, no_pin, quiet, log_io, no_report, fresh, reuse;
	bool wide;                    /* --wide: every column of the ranking */
	const char *output;
	long long shard, nshards;     /* --shard K/N, 1-based; nshards 0 = the whole tournament */
	const char *bots[RUN_MAX_BOTS], *challengers[RUN_MAX_BOTS]; /* --bot, --gauntlet */
	size_t nbots, nchallengers;
	const char *name;             /* --name */
	long long players;            /* --players; 0 = not given */
	long long rating_interval;    /* --rating-interval; 0 = none */
	const char *serve;            /* --serve ADDR:PORT, or NULL */
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

/* Set once the games are over: a signal then stops the final report. */
static volatile sig_atomic_t reporting;
/* Set by any stop signal: one between the games' last check and the report stops the report. */
static volatile sig_atomic_t stop_signalled;

/* Ctrl-C or SIGTERM stops whichever phase is running: the games (then the
 * partial report is written), or the final report. */
static void on_stop_signal(int sig)
{
	(void)sig;
	stop_signalled = 1;
	if (reporting)
		report_request_stop();
	else
		tournament_request_stop();
}

/* A repeatable option's value into list; 0, or -1 after the message. */
static int add_listed(const char *option, const char *arg, const char **list, size_t *n)
{
	if (*n == RUN_MAX_BOTS) {
		warnx("%s: at most %d times", option, RUN_MAX_BOTS);
		return -1;
	}
	list[(*n)++] = arg;
	return 0;
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
	case OPT_REUSE: o->reuse = 1; break;
	case OPT_LOG_IO: o->log_io = 1; break;
	case OPT_NO_REPORT: o->no_report = 1; break;
	case OPT_SHARD: return parse_shard(arg, o);
	case OPT_FRESH: o->fresh = 1; break;
	case OPT_BOT: return add_listed("--bot", arg, o->bots, &o->nbots);
	case OPT_GAUNTLET: return add_listed("--gauntlet", arg, o->challengers, &o->nchallengers);
	case OPT_NAME: o->name = arg; break;
	case OPT_PLAYERS: return options_number("--players", arg, 2, 6, &o->players);
	case OPT_RATING_INTERVAL:
		return options_number("--rating-interval", arg, 1, 1000000000, &o->rating_interval);
	case 'q': o->quiet = 1; break;
	case OPT_WIDE: o->wide = true; break;
	case OPT_SERVE: o->serve = arg; break;
	}
	return 0;
}

/* Each --gauntlet NAME names a --bot: -1 to go on, or 2 after the message. */
static int gauntlet_names_bots(const struct run_overrides *o)
{
	for (size_t i = 0; i < o->nchallengers; i++) {
		size_t len = strlen(o->challengers[i]), b = 0;

		while (b < o->nbots && !(strncmp(o->bots[b], o->challengers[i], len) == 0 &&
					 o->bots[b][len] == '='))
			b++;
		if (b == o->nbots) {
			warnx("run: --gauntlet \"%s\": no --bot of that name (--bot %s=COMMAND)",
			      o->challengers[i], o->challengers[i]);
			return 2;
		}
	}
	return -1;
}

static int parse_run_options(int argc, char **argv, struct run_overrides *o)
{
	const struct options_command cmd = { run_usage, "j:o:q", run_options,
		OPTIONS_SEED | OPTIONS_STOCK | OPTIONS_TIME | OPTIONS_LIMITS | OPTIONS_SANDBOX,
		run_option, o };
	int ret;

	memset(o, 0, sizeof(*o));
	o->jobs = o->deals = -1;
	options_common_init(&o->common, 0);
	if ((ret = options_parse(&cmd, argc, argv, &o->common)) >= 0)
		return ret;
	if (options_check_no_timeout("run", o->no_timeout, &o->common) < 0)
		return 2;
	if (o->nbots) {
		if (argc - optind != 0) {
			warnx("run: a tournament file (\"%s\") and --bot: give one or the other",
			      argv[optind]);
			return 2;
		}
		return gauntlet_names_bots(o);
	}
	if (o->name || o->players || o->common.stock || o->nchallengers) {
		warnx("run: --%s needs --bot (a tournament file sets it with its own key)",
		      o->name ? "name" : o->players ? "players" : o->common.stock ? "stock" :
		      "gauntlet");
		return 2;
	}
	if (argc - optind != 1) {
		warnx("run: expected one tournament file or --bot NAME=CMD options (see "
		      "\"skipbo-arena run --help\")");
		return 2;
	}
	return -1;
}

/*
 * The tournament of the --bot options as the text of a tournament file
 * (TOURNAMENT.md), which config_parse then checks like any file. 0, or -1
 * after the message.
 */
static int quick_tournament(const struct run_overrides *o, char **text)
{
	cJSON *root = cJSON_CreateObject(), *bots, *names;
	int ret = -1;

	*text = NULL;
	if (!root)
		goto nomem;
	cJSON_AddStringToObject(root, "name", o->name ? o->name : "quick");
	bots = cJSON_AddArrayToObject(root, "bots");
	for (size_t i = 0; i < o->nbots; i++) {
		const char *eq = strchr(o->bots[i], '=');
		char **argv = eq ? options_split(eq + 1) : NULL, *name;
		cJSON *bot = cJSON_CreateObject(), *command;

		cJSON_AddItemToArray(bots, bot);
		if (!eq || eq == o->bots[i] || !argv) {
			options_free_argv(argv);
			warnx("--bot \"%s\": expected NAME=COMMAND (quotes around a path with "
			      "spaces), e.g. --bot medium=./build/bots/skipbo-medium", o->bots[i]);
			goto out;
		}
		name = strndup(o->bots[i], (size_t)(eq - o->bots[i]));
		if (!name || !cJSON_AddStringToObject(bot, "name", name)) {
			free(name);
			options_free_argv(argv);
			goto nomem;
		}
		free(name);
		command = cJSON_AddArrayToObject(bot, "command");
		for (size_t k = 0; argv[k]; k++)
			cJSON_AddItemToArray(command, cJSON_CreateString(argv[k]));
		options_free_argv(argv);
	}
	if (o->players)
		cJSON_AddNumberToObject(root, "players", (double)o->players);
	if (o->common.stock)
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(root, "rules"), "stock_size",
					(double)o->common.stock);
	if (o->nchallengers) {
		cJSON_AddStringToObject(root, "format", "gauntlet");
		names = cJSON_AddArrayToObject(root, "challengers");
		for (size_t i = 0; i < o->nchallengers; i++)
			cJSON_AddItemToArray(names, cJSON_CreateString(o->challengers[i]));
	}
	if (!(*text = cJSON_Print(root)))
		goto nomem;
	ret = 0;
	goto out;
nomem:
	warnx("run: out of memory");
out:
	cJSON_Delete(root);
	return ret;
}

/* The tournament of the file, or of the --bot options: 0, or -1 after the message. */
static int load_tournament(const char *file, const struct run_overrides *o, struct config *cfg)
{
	static char err[CONFIG_ERR_MAX];
	char cwd[PATH_MAX], *text;
	int ret;

	if (!o->nbots) {
		if (config_load(file, cfg, err, sizeof(err)) < 0) {
			/* FILE:LINE:COLUMN lines with their excerpts, as a compiler writes them */
			if (strchr(err, '\n'))
				fputs(err, stderr);
			else
				warnx("%s", err);
			return -1;
		}
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		warn("run: the current directory");
		return -1;
	}
	if (quick_tournament(o, &text) < 0)
		return -1;
	ret = config_parse(text, strlen(text), cwd, cfg, err, sizeof(err));
	free(text);
	if (ret < 0) {
		/* the keys named are those of the tournament.json the options make */
		fprintf(stderr, "skipbo-arena: run: --bot options:\n%s", err);
		return -1;
	}
	return 0;
}

static int apply_overrides(struct config *cfg, const struct run_overrides *o)
{
	if (o->jobs > 0)
		cfg->concurrency = (int)o->jobs;
	if (o->common.has_seed) {
		cfg->seed = o->common.seed;
		cfg->has_seed = 1;
	}
	if (o->reuse)
		cfg->processes = CONFIG_PROCESSES_REUSE;
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
	options_apply_to_config(&o->common, cfg);
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
	char *parent = strdup(cfg->output), *slash = parent ? strrchr(parent, '/') : NULL;
	const char *hide[] = { cfg->output, cfg->file, parent };
	int ret;

	if (!parent) {
		warnx("run: out of memory");
		return 1;
	}
	if (slash && shards_below)
		*slash = '\0';
	else
		hide[2] = NULL;
	ret = options_open_config_sandbox(cfg, hide, hide[2] ? 3 : 2, out);
	free(parent);
	return ret;
}

/*
 * No seed given, by the options or the file: a resume plays on with the seed
 * its output directory recorded; a new tournament keeps the random one
 * config drew, which its tournament.json records. A new shard cannot draw
 * one: every shard of the tournament must deal with the same seed. -1 to go
 * on, or the exit status after the message.
 */
static int seed_of_resume(struct config *cfg, int shard)
{
	struct records_tournament t = { 0 };
	char err[PATH_MAX + 128];
	int found;

	if (cfg->has_seed)
		return -1;
	/* an unreadable tournament.json is refused by the run itself, with its reason */
	if ((found = records_read_tournament(cfg->output, &t, err, sizeof(err)) == 0))
		cfg->seed = t.seed;
	records_tournament_release(&t);
	if (shard && !found) {
		warnx("run: --shard: the shards of a tournament deal with one seed: give it in the "
		      "file (\"seed\"), with --seed-file FILE or %s, the same for every shard",
		      OPTIONS_SEED_ENV);
		return 2;
	}
	return -1;
}

/* --fresh: the old output directory moved aside. -1 to go on, or the exit status. */
static int start_over(const char *dir)
{
	char moved[PATH_MAX];
	int ret = results_move_aside(dir, moved, sizeof(moved));

	if (ret == -ENOTEMPTY) {
		warnx("run: --fresh: \"%s\" is not a tournament's output directory (no "
		      "tournament.json): left as it is; choose another --output", dir);
		return 1;
	}
	if (ret < 0) {
		warnx("run: --fresh: cannot move \"%s\" aside: %s", dir, strerror(-ret));
		return 1;
	}
	if (ret == 1)
		printf("moved the old \"%s\" to \"%s\"\n", dir, moved);
	return -1;
}

/* What --rating-interval prints: the ranking of dir's games.jsonl, 80 columns or wide. */
struct interval_ranking {
	const char *dir;
	bool wide;
};

/* --rating-interval: the ranking of what games.jsonl holds so far. */
static void print_ranking(void *ctx, uint64_t played)
{
	const struct interval_ranking *ir = ctx;
	const char *dir = ir->dir;
	struct gamelog log;
	struct report r;
	char err[1024];

	gamelog_init(&log);
	if (report_load_opts(&r, &log, &dir, 1, &report_defaults, err, sizeof(err)) == 0) {
		printf("ranking after %llu games played:\n", (unsigned long long)played);
		report_print_table_wide(&r, stdout, ir->wide);
		report_release(&r);
	} else {
		warnx("run: ranking after %llu games played: %s", (unsigned long long)played, err);
	}
	gamelog_release(&log);
	fflush(stdout);
}

/* The command that resumes: this one, each word quoted for a POSIX shell where it needs it. */
static void print_resume_command(int argc, char **argv)
{
	fputs("resume with: skipbo-arena", stderr);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (*a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789_-./=:,+@%") == strlen(a)) {
			fprintf(stderr, " %s", a);
			continue;
		}
		fputs(" '", stderr);
		for (; *a; a++)
			if (*a == '\'')
				fputs("'\\''", stderr);
			else
				fputc(*a, stderr);
		fputc('\'', stderr);
	}
	fputc('\n', stderr);
}

/* A full disk: every record so far is whole (a torn last line is cut on resume). */
static void no_space(int argc, char **argv)
{
	warnx("run: no space left on device: free space and run the same command to resume");
	print_resume_command(argc, argv);
}

/*
 * After a stop: the report of the games played, marked partial, and how to
 * resume. A second signal stops the report. Returns the exit status, 1.
 */
static int stopped(const struct config *cfg, const struct run_overrides *o, int argc,
		   char **argv)
{
	struct report_options ropt = REPORT_OPTIONS_DEFAULT;
	const char *dirs[1] = { cfg->output };
	char err[1024];
	int ret = -ENODATA;

	ropt.partial = true;
	ropt.wide = o->wide;
	reporting = 1;
	if (!o->no_report)
		ret = report_generate_opts(dirs, 1, NULL, &ropt, o->quiet ? NULL : stdout, err,
					   sizeof(err));
	if (ret >= 0)
		warnx("run: stopped; the report of the games played so far is in %s, marked "
		      "partial", cfg->output);
	else if (ret == -EINTR)
		warnx("run: stopped, also during the report: \"%s report %s\" "
		      "writes it", options_program(), cfg->output);
	else if (!o->no_report && ret != -ENODATA)
		warnx("run: stopped; report: %s", err);
	else
		warnx("run: stopped");
	print_resume_command(argc, argv);
	return 1;
}

int cmd_run(int argc, char **argv)
{
	struct tournament_options topt = { 0 };
	struct interval_ranking interval;
	struct run_overrides o;
	struct config cfg;
	struct sigaction sa = { 0 };
	struct server *server = NULL;
	struct report_options ropt = REPORT_OPTIONS_DEFAULT;
	char err[CONFIG_ERR_MAX + 256];
	const char *dirs[1];
	int ret;

	if ((ret = parse_run_options(argc, argv, &o)) >= 0)
		return ret;
	if (load_tournament(argv[optind], &o, &cfg) < 0)
		return 1;
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
	topt.rating_interval = (uint64_t)o.rating_interval;
	topt.on_interval = print_ranking;
	interval.dir = cfg.output;
	interval.wide = o.wide;
	topt.interval_ctx = &interval;
	if (o.nshards) {
		topt.shard = (uint32_t)(o.shard - 1);
		topt.nshards = (uint32_t)o.nshards;
	}
	if (o.fresh && (ret = start_over(cfg.output)) >= 0)
		goto out;
	if ((ret = seed_of_resume(&cfg, o.nshards != 0)) >= 0)
		goto out;
	if ((ret = open_sandbox(&cfg, o.nshards && !o.output, &topt.sandbox)) >= 0)
		goto out;
	options_warn_seed(&o.common, topt.sandbox);
	if (o.serve && (ret = serve_run_output("run", cfg.output, o.serve, &server)) >= 0)
		goto out;
	ret = tournament_run(&cfg, &topt, err, sizeof(err));
	if (ret < 0) {
		warnx("run: %s", err);
		if (ret == -EEXIST || ret == -ESTALE)
			warnx("run: --fresh starts \"%s\" over (the old one is renamed, nothing is "
			      "deleted), or --output DIR chooses another directory", cfg.output);
		if (ret == -ENOSPC)
			no_space(argc, argv);
		ret = 1;
		goto out;
	}
	if (ret == 1) {
		ret = stopped(&cfg, &o, argc, argv);
		goto out;
	}
	reporting = 1;
	/* the summary: ranking table and report files, from games.jsonl */
	dirs[0] = cfg.output;
	ropt.wide = o.wide;
	if (!o.no_report && stop_signalled)
		report_request_stop();
	if (!o.no_report &&
	    (ret = report_generate_opts(dirs, 1, NULL, &ropt, o.quiet ? NULL : stdout, err,
					sizeof(err))) < 0) {
		if (ret == -EINTR) {
			warnx("run: stopped during the report; every game is recorded: "
			      "\"%s report %s\" writes it", options_program(), cfg.output);
			ret = 1;
			goto out;
		}
		warnx("run: report: %s", err);
		if (ret == -ENOSPC)
			no_space(argc, argv);
		else
			warnx("run: every game is recorded: \"%s report %s\" writes the report",
			      options_program(), cfg.output);
		ret = 1;
		goto out;
	}
	if (!o.quiet)
		printf("results in %s%s%s%s\n", cfg.output, o.nbots ? " (the tournament file: " : "",
		       o.nbots ? cfg.output : "", o.nbots ? "/tournament.json)" : "");
	if (ret > 0) {
		warnx("run: %d bot%s never started: every game of %s is a start fault (see the "
		      "warning above, logs/ and \"skipbo-arena check\")", ret, ret == 1 ? "" : "s",
		      ret == 1 ? "it" : "each");
		ret = RUN_EXIT_NEVER_STARTED;
		goto out;
	}
	ret = 0;
out:
	server_stop(server);
	sandbox_close(topt.sandbox);
	config_release(&cfg);
	return ret;
}
