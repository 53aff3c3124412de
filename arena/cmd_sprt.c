/*
 * cmd_sprt.c - `skipbo-arena sprt [options] BOT_A BOT_B`: play duplicate game
 * pairs between two bots until the GSPRT of sprt.h decides whether A is
 * stronger by at least elo1 (H1) or by at most elo0 (H0), printing the
 * log-likelihood ratio and its bounds after every pair.
 *
 * The games are a two-bot duplicate tournament (tournament.h) of
 * --max-pairs deals, A its first bot: -j workers, games.jsonl, replays and
 * a resume like `run`. Its tournament.json says "sprt" (results.h), so
 * `report` and `serve` can tell. The test folds each game as it is counted
 * (sprt_fold.h: pairs in deal order), and stops the tournament once it
 * decides; the records found by a resume are folded first.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "config.h"
#include "echo.h"
#include "options.h"
#include "rating.h"
#include "results.h"
#include "tournament_file.h"
#include "sprt_fold.h"
#include "tournament.h"

struct sprt_run {
	struct options_common common;
	double elo0, elo1, alpha, beta;
	long long max_pairs;
	long long jobs;         /* -j; 1 by default */
	const char *output;     /* -o; NULL: results/sprt-A-B */
	const char *name[2];
	int quiet;
	char *argv_cmd[2];
};

/* The test as the tournament counts games. */
struct sprt_watch {
	struct sprt_fold fold;
	long faults;
	int quiet;
	int error;              /* a game the fold could not take (no memory) */
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
	"  -j, --jobs N          games at once (default 1); also --concurrency N\n"
	"  -o, --output DIR      output directory: games.jsonl, replays/, logs/ (default:\n"
	"                        results/sprt-NAME_A-NAME_B); run the same command again to\n"
	"                        resume: the pairs recorded there count\n"
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
	"A resume must use the same bots, seed and game-changing options; without\n"
	"--seed it plays on with the seed the output directory recorded.\n"
	"Ctrl-C or SIGTERM: the games in flight are finished and recorded.\n"
	"Exit status: 0 when the test finished (decided or at --max-pairs), 1 on an\n"
	"arena error or a stop, 2 on bad usage.\n";

enum { OPT_ELO0 = OPTIONS_OWN, OPT_ELO1, OPT_ALPHA, OPT_BETA, OPT_MAX_PAIRS, OPT_NAME_A,
	OPT_NAME_B };

/* The options of sprt alone; options.h adds the seed, stock, time and limits. */
static const struct option sprt_options[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "concurrency", required_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
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
	case 'j': return options_number("--jobs", arg, 1, 1024, &run->jobs);
	case 'o': run->output = arg; break;
	}
	return 0;
}

/* Returns -1 to go on, or the exit status (0 after --help, 2 for bad usage). */
static int sprt_parse(int argc, char **argv, struct sprt_run *run)
{
	const struct options_command cmd = { sprt_usage, "j:o:q", sprt_options,
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

/* tournament_options.on_game: fold the game; print each pair counted; stop at a decision. */
static void on_game(void *ctx, const struct schedule_game *g, const int *placings, int faults)
{
	struct sprt_watch *w = ctx;
	/* rotation r puts bot A in seat r (schedule.h) */
	int a = placings[g->rotation], b = placings[1 - g->rotation];

	w->faults += faults;
	if (sprt_fold_add(&w->fold, g->deal, (int)g->rotation, a < b ? 2 : a > b ? 0 : 1) < 0) {
		w->error = 1;
		tournament_request_stop();
		return;
	}
	while (sprt_fold_next(&w->fold))
		if (!w->quiet) {
			print_status(&w->fold.test, "pair ");
			fflush(stdout);
		}
	if (sprt_status(&w->fold.test) != SPRT_CONTINUE)
		tournament_request_stop();
}

static void on_stop_signal(int sig)
{
	(void)sig;
	tournament_request_stop();
}

/*
 * The two-bot duplicate tournament of the options as the text of a
 * tournament file (TOURNAMENT.md); config_parse checks it like any file.
 * NULL without memory.
 */
static char *tournament_text(const struct sprt_run *run, char **const argv[2],
			     char *const names[2])
{
	cJSON *root = cJSON_CreateObject(), *bots, *time;
	char name[512], *text = NULL;

	if (!root)
		return NULL;
	snprintf(name, sizeof(name), "sprt-%s-%s", names[0], names[1]);
	cJSON_AddStringToObject(root, "name", name);
	bots = cJSON_AddArrayToObject(root, "bots");
	for (int i = 0; i < 2; i++) {
		cJSON *bot = cJSON_CreateObject(), *command, *env;

		cJSON_AddItemToArray(bots, bot);
		cJSON_AddStringToObject(bot, "name", names[i]);
		command = cJSON_AddArrayToObject(bot, "command");
		for (size_t k = 0; argv[i][k]; k++)
			cJSON_AddItemToArray(command, cJSON_CreateString(argv[i][k]));
		env = cJSON_AddObjectToObject(bot, "env");
		for (int k = 0; k < run->common.nenv; k++) {
			const char *eq = strchr(run->common.env[k], '=');
			char *key = strndup(run->common.env[k], (size_t)(eq - run->common.env[k]));

			if (key)
				cJSON_AddStringToObject(env, key, eq + 1);
			free(key);
		}
	}
	cJSON_AddNumberToObject(root, "players", 2);
	cJSON_AddNumberToObject(root, "deals", (double)run->max_pairs);
	cJSON_AddBoolToObject(root, "duplicate", 1);
	if (run->common.stock)
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(root, "rules"), "stock_size",
					(double)run->common.stock);
	time = cJSON_AddObjectToObject(root, "time");
	cJSON_AddNumberToObject(time, "startup_ms", (double)run->common.startup_ms);
	cJSON_AddNumberToObject(time, "move_ms", (double)run->common.move_ms);
	cJSON_AddNumberToObject(time, "game_ms", (double)run->common.game_ms);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

/* The tournament of the options into *cfg: 0, or the exit status after the message. */
static int sprt_config(const struct sprt_run *run, char **const argv[2], char *const names[2],
		       const char *cwd, struct config *cfg)
{
	static char err[CONFIG_ERR_MAX];
	struct records_tournament t = { 0 };
	char *text = tournament_text(run, argv, names);
	int ret;

	if (!text) {
		warnx("sprt: out of memory");
		return 1;
	}
	ret = config_parse(text, strlen(text), cwd, cfg, err, sizeof(err));
	free(text);
	if (ret < 0) {
		fprintf(stderr, "skipbo-arena: sprt: the bots:\n%s", err);
		return 2;
	}
	cfg->concurrency = (int)run->jobs;
	cfg->pin = 0;
	options_apply_to_config(&run->common, cfg);
	if (run->output) {
		free(cfg->output);
		if (!(cfg->output = strdup(run->output))) {
			warnx("sprt: out of memory");
			return 1;
		}
	}
	/* no seed given: a resume plays on with the one recorded */
	cfg->seed = run->common.seed;
	cfg->has_seed = 1;
	if (!run->common.has_seed) {
		if (records_read_tournament(cfg->output, &t, err, sizeof(err)) == 0)
			cfg->seed = t.seed;
		records_tournament_release(&t);
	}
	return 0;
}

static const char *verdict(const struct sprt *t)
{
	switch (sprt_status(t)) {
	case SPRT_ACCEPT_H1: return "H1 accepted (A is stronger by elo1 or more)";
	case SPRT_ACCEPT_H0: return "H0 accepted (A is not stronger by more than elo0)";
	default: return "undecided at --max-pairs";
	}
}

/* Run the tournament of cfg with the test watching: the exit status. */
static int sprt_play(struct sprt_run *run, struct config *cfg, struct sandbox *sb)
{
	struct records_sprt params = { 1, run->elo0, run->elo1, run->alpha, run->beta };
	struct tournament_options topt = { .quiet = 1, .on_game = on_game, .sandbox = sb,
					   .stderr_dir = run->common.stderr_dir, .sprt = &params };
	struct sigaction sa = { 0 };
	struct sprt_watch w = { .quiet = run->quiet };
	char err[CONFIG_ERR_MAX + 256];
	struct echo echo;
	int ret;

	echo_init(&echo, stderr);
	if (OPTIONS_SHOW_BOTS(&run->common))
		topt.observer = &echo.observer;
	topt.game_ctx = &w;
	/* the options' ranges are checked as they are read; what is left is their order */
	if (sprt_fold_init(&w.fold, run->elo0, run->elo1, run->alpha, run->beta) < 0) {
		warnx("sprt: --elo0 %g and --elo1 %g: --elo0 must be below --elo1", run->elo0,
		      run->elo1);
		return 2;
	}
	printf("SPRT %s vs %s: H0 elo <= %g, H1 elo >= %g, alpha %g, beta %g, "
	       "bounds [%.3f, %.3f], seed %llu\n", cfg->bots[0].name, cfg->bots[1].name, run->elo0,
	       run->elo1, run->alpha, run->beta, w.fold.test.lower, w.fold.test.upper,
	       (unsigned long long)cfg->seed);
	fflush(stdout);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = tournament_run(cfg, &topt, err, sizeof(err));
	if (ret < 0) {
		warnx("sprt: %s", err);
		if (ret == -EEXIST || ret == -ESTALE)
			warnx("sprt: -o DIR chooses another output directory");
	} else if (w.error) {
		warnx("sprt: out of memory");
	} else if (ret == 1 && sprt_status(&w.fold.test) == SPRT_CONTINUE) {
		warnx("sprt: stopped; the games played are in %s: run the same command to resume",
		      cfg->output);
	} else {
		print_status(&w.fold.test, "final ");
		printf("faults: %ld\nresult: %s\nresults in %s\n", w.faults, verdict(&w.fold.test),
		       cfg->output);
		ret = 0;
	}
	sprt_fold_release(&w.fold);
	return ret == 0 ? 0 : 1;
}

int cmd_sprt(int argc, char **argv)
{
	struct sprt_run run = { .elo0 = 0, .elo1 = 20, .alpha = 0.05, .beta = 0.05,
				.max_pairs = 20000, .jobs = 1 };
	struct bot_spec specs[2] = { 0 };
	char *bot_argv[2] = { NULL, NULL }, *log_path[2] = { NULL, NULL }, *names[2] = { NULL, NULL };
	char **split[2] = { NULL, NULL };
	char cwd[4096], resolved[4096], why[512];
	struct config cfg;
	struct sandbox *sb = NULL;
	int ret = sprt_parse(argc, argv, &run), have_cfg = 0;

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
	}
	if ((ret = sprt_config(&run, split, names, cwd, &cfg)) != 0)
		goto out;
	have_cfg = 1;
	ret = 1;
	/* creates the --stderr directory; the tournament names the files alike */
	if (options_stderr_files(&run.common, specs, 2, log_path) < 0)
		goto out;
	{
		/* the bots' logs and records are the arena's to write, not theirs to read */
		const char *hide[] = { cfg.output, run.common.stderr_dir };

		if (options_open_config_sandbox(&cfg, hide, run.common.stderr_dir ? 2 : 1, &sb) >= 0)
			goto out;
	}
	options_warn_seed(&run.common, sb);
	ret = sprt_play(&run, &cfg, sb);
out:
	sandbox_close(sb);
	if (have_cfg)
		config_release(&cfg);
	for (int i = 0; i < 2; i++) {
		free(bot_argv[i]);
		free(log_path[i]);
		free(names[i]);
		if (split[i])
			options_free_argv(split[i]);
	}
	return ret;
}
