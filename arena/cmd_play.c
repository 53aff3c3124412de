/*
 * cmd_play.c - `skipbo-arena play [options] BOT BOT [BOT...]`.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "echo.h"
#include "jsonw.h"
#include "options.h"
#include "pool.h"
#include "protocol.h"
#include "referee.h"
#include "render.h"
#include "replay.h"
#include "termsafe.h"
#include "transcript.h"

#define PLAY_NAME_MAX 64

static const char play_usage[] =
	"usage: skipbo-arena play [options] BOT BOT [BOT...]\n"
	"       skipbo-arena play [options] -- PROGRAM [ARG...] -- PROGRAM [ARG...] ...\n"
	"\n"
	"Play one game (or an R9 match) between 2 to 6 bots and print the result. Each BOT\n"
	"is a command string split on spaces (no shell, no quoting): \"./mybot --level 3\".\n"
	"After \"--\", the words up to the next \"--\" are one bot's exact argv instead.\n"
	"Bots are named after their program, with -2, -3, ... for repeats.\n"
	"\n"
	"options:\n"
	"  -r, --render          print the table turn by turn\n"
	"      --seed N          deal seed (default: from the clock; printed)\n"
	"      --stock N         stock size (default: R3 for the player count)\n"
	"      --partnership     R10 teams (4 or 6 players)\n"
	"      --match           a match to 500 points (R9) instead of one game\n"
	"      --game-id ID      the game id the bots are told (default \"play\"; bots may\n"
	"                        seed their choices with it, as the bundled ones do)\n"
	OPTIONS_TIME_HELP
	"      --no-timeout      no move or game time limits (debugging)\n"
	"      --pin CPU         run the arena and the bots on this CPU\n"
	"      --log-io          print every line to and from the bots on stderr\n"
	"      --replay FILE     also write the replay (results/README.md) to FILE, with\n"
	"                        each decision's stderr lines\n"
	OPTIONS_LIMITS_HELP
	OPTIONS_SANDBOX_HELP
	"                        (defaults as in a tournament file, arena/TOURNAMENT.md)\n"
	OPTIONS_BOT_STDERR_HELP
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 the game was played (bot faults are results), 1 it could not be,\n"
	"2 bad usage.\n";

enum {
	OPT_PARTNERSHIP = OPTIONS_OWN, OPT_MATCH, OPT_NO_TIMEOUT, OPT_PIN, OPT_LOG_IO, OPT_REPLAY,
	OPT_GAME_ID,
};

/* The options of play alone; options.h adds the seed, stock, time and limits. */
static const struct option play_options[] = {
	{ "render", no_argument, NULL, 'r' },
	{ "partnership", no_argument, NULL, OPT_PARTNERSHIP },
	{ "match", no_argument, NULL, OPT_MATCH },
	{ "no-timeout", no_argument, NULL, OPT_NO_TIMEOUT },
	{ "pin", required_argument, NULL, OPT_PIN },
	{ "log-io", no_argument, NULL, OPT_LOG_IO },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "game-id", required_argument, NULL, OPT_GAME_ID },
	{ NULL, 0, NULL, 0 },
};

struct play_opts {
	struct options_common common;
	int render, partnership, match, no_timeout, log_io;
	long long pin;
	const char *replay;
	const char *game_id;
};

/* Forwards every callback to the observers it has (render, transcript, stderr echo). */
#define TEE_MAX 3
struct tee {
	const struct referee_observer *to[TEE_MAX];
	struct referee_observer observer;
};

#define TEE_FORWARD(cb, ...) do { \
		for (int i_ = 0; i_ < TEE_MAX; i_++) \
			if (t->to[i_] && t->to[i_]->cb) \
				t->to[i_]->cb(t->to[i_]->ctx, __VA_ARGS__); \
	} while (0)

static void tee_line(void *ctx, const char *name, int seat, enum referee_dir dir,
		     const char *line, size_t len, int64_t at_us)
{
	struct tee *t = ctx;

	TEE_FORWARD(line, name, seat, dir, line, len, at_us);
}

static void tee_game_start(void *ctx, int game, const struct game *g)
{
	struct tee *t = ctx;

	TEE_FORWARD(game_start, game, g);
}

static void tee_move(void *ctx, int seat, const struct move *m, int64_t us, const struct game *g)
{
	struct tee *t = ctx;

	TEE_FORWARD(move, seat, m, us, g);
}

static void tee_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	struct tee *t = ctx;

	TEE_FORWARD(fault, f, g);
}

static void tee_game_end(void *ctx, int game, const struct game *g)
{
	struct tee *t = ctx;

	TEE_FORWARD(game_end, game, g);
}

static void tee_stderr_line(void *ctx, const char *name, int seat, const char *line, size_t len)
{
	struct tee *t = ctx;

	TEE_FORWARD(stderr_line, name, seat, line, len);
}

static int play_option(void *ctx, int c, const char *arg)
{
	struct play_opts *o = ctx;

	switch (c) {
	case 'r': o->render = 1; break;
	case OPT_PARTNERSHIP: o->partnership = 1; break;
	case OPT_MATCH: o->match = 1; break;
	case OPT_NO_TIMEOUT: o->no_timeout = 1; break;
	case OPT_LOG_IO: o->log_io = 1; break;
	case OPT_REPLAY: o->replay = arg; break;
	case OPT_GAME_ID:
		/* a match's games add "-g<k>" to it */
		if (!*arg || strlen(arg) > PROTOCOL_ID_MAX - 8 ||
		    strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") !=
		    strlen(arg)) {
			warnx("--game-id: expected 1 to %d letters, digits, '_', '.' or '-', got \"%s\"",
			      PROTOCOL_ID_MAX - 8, arg);
			return -1;
		}
		o->game_id = arg;
		break;
	case OPT_PIN: return options_number("--pin", arg, 0, CPU_SETSIZE - 1, &o->pin);
	}
	return 0;
}

static int parse_play_options(int argc, char **argv, struct play_opts *o)
{
	const struct options_command cmd = { play_usage, "r", play_options,
		OPTIONS_SEED | OPTIONS_STOCK | OPTIONS_TIME | OPTIONS_LIMITS | OPTIONS_SANDBOX |
		OPTIONS_BOT_STDERR, play_option, o };

	memset(o, 0, sizeof(*o));
	o->pin = -1;
	options_common_init(&o->common, 1);
	return options_parse(&cmd, argc, argv, &o->common);
}

/* The bots' argvs from the words after the options. Returns how many, or -1. */
static int collect_bots(int argc, char **argv, char **argvs[ENGINE_MAX_PLAYERS + 1])
{
	int n = 0, grouped = optind > 1 && strcmp(argv[optind - 1], "--") == 0;

	for (int i = optind; i < argc; i++) {
		if (n == ENGINE_MAX_PLAYERS + 1)
			break;
		if (!grouped) {
			if (!(argvs[n] = options_split(argv[i]))) {
				warnx("play: empty bot command \"%s\"", argv[i]);
				return -1;
			}
			n++;
			continue;
		}
		if (!strcmp(argv[i], "--"))
			continue;
		{
			int j = i, k = 0;

			while (j < argc && strcmp(argv[j], "--"))
				j++;
			if (!(argvs[n] = calloc((size_t)(j - i) + 1, sizeof(char *))))
				return -1;
			for (; i < j; i++)
				if (!(argvs[n][k++] = strdup(argv[i])))
					return -1;
			n++;
		}
	}
	return n;
}

static void print_outcome(const struct referee_outcome *o, const char *const *names)
{
	printf("result: %s after %" PRIu32 " turns, %" PRIu32 " moves\n",
	       o->reason ? end_reason_name(o->reason) : "none", o->turns, o->moves);
	if (o->match)
		printf("match: %d games\n", o->games);
	printf("winners:");
	for (int i = 0; i < o->nwinners; i++)
		printf(" %s (seat %d)", names[o->winners[i]], o->winners[i]);
	printf(o->nwinners ? "\n" : " none\n");
	for (int s = 0; s < o->players; s++) {
		const struct referee_time_stats *t = &o->time[s];

		printf("  seat %d %-16s placing %d  score %4d  stock left %2d  moves %5" PRIu32
		       "  mean %.1f us  median %" PRId64 " us  p99 %" PRId64 " us  max %" PRId64
		       " us\n", s, names[s], o->placings[s], o->scores[s], o->stock_left[s],
		       t->moves, t->mean_us, t->median_us, t->p99_us, t->max_us);
	}
	for (size_t i = 0; i < o->nfaults; i++) {
		const struct referee_fault *f = &o->faults[i];

		printf("fault: seat %d %s: %s at game %d, turn %" PRIu32 ", move %" PRIu32 ": ",
		       f->seat, names[f->seat], f->kind, f->game, f->turn, f->move);
		termsafe_puts(stdout, f->reason);
		if (f->line[0]) {
			fputs("\n       line: ", stdout);
			termsafe_puts(stdout, f->line);
		}
		putchar('\n');
	}
}

/* Resolve argv[0] like a tournament file does, and name the bot. */
static int prepare_bots(char **argvs[], int n, char names[][PLAY_NAME_MAX])
{
	char cwd[PATH_MAX], resolved[PATH_MAX], why[PATH_MAX + 64];
	char bases[ENGINE_MAX_PLAYERS][PLAY_NAME_MAX];

	if (!getcwd(cwd, sizeof(cwd))) {
		warn("play: current directory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *base = strrchr(argvs[i][0], '/');
		int repeats = 1;

		if (config_resolve_command(argvs[i][0], cwd, resolved, sizeof(resolved), why,
					   sizeof(why)) < 0) {
			warnx("play: bot %d: %s", i + 1, why);
			return -1;
		}
		/* the name is printed: a file name's control characters are escaped */
		termsafe_copy(bases[i], PLAY_NAME_MAX - 8, base ? base + 1 : argvs[i][0]);
		free(argvs[i][0]);
		if (!(argvs[i][0] = strdup(resolved)))
			return -1;
		for (int k = 0; k < i; k++)
			repeats += strcmp(bases[k], bases[i]) == 0;
		if (repeats > 1)
			snprintf(names[i], PLAY_NAME_MAX, "%.48s-%d", bases[i], repeats);
		else
			snprintf(names[i], PLAY_NAME_MAX, "%.48s", bases[i]);
	}
	return 0;
}

static int play_game(const struct play_opts *o, char **argvs[], int n,
		     char names[][PLAY_NAME_MAX])
{
	struct bot_spec specs[ENGINE_MAX_PLAYERS] = { 0 };
	struct referee_setup setup = { 0 };
	struct referee_outcome out = { 0 };
	struct pool_config pc = { 0 };
	struct pool *pool = NULL;
	struct sandbox *sb = NULL;
	struct transcript tr;
	struct render rd;
	struct echo echo;
	struct tee tee = { 0 };
	const char *namep[ENGINE_MAX_PLAYERS], *hide[2];
	char err[256], *log_paths[ENGINE_MAX_PLAYERS] = { 0 };
	size_t nhide = 0;
	int ret = 1;

	transcript_init(&tr);
	if (o->log_io)
		transcript_attach(&tr, stderr);
	for (int i = 0; i < n; i++) {
		namep[i] = names[i];
		specs[i].name = names[i];
		specs[i].argv = argvs[i];
		specs[i].cpu = -1;
		specs[i].limits = o->common.limits;
		specs[i].stderr_cap = CONFIG_DEFAULT_STDERR_CAP;
	}
	if (options_stderr_files(&o->common, specs, (size_t)n, log_paths) < 0)
		goto out;
	/* the replay and the logs are the arena's to write, not the bots' to read */
	if (o->replay)
		hide[nhide++] = o->replay;
	if (o->common.stderr_dir)
		hide[nhide++] = o->common.stderr_dir;
	if (options_open_sandbox(&o->common, specs, (size_t)n, hide, nhide, &sb) >= 0)
		goto out;
	render_init(&rd, stdout, namep, n);
	echo_init(&echo, stderr);
	tee.to[0] = o->render ? &rd.observer : NULL;
	tee.to[1] = o->log_io ? &tr.observer : NULL;
	tee.to[2] = OPTIONS_SHOW_BOTS(&o->common) ? &echo.observer : NULL;
	tee.observer = (struct referee_observer){ &tee, tee_line, tee_game_start, tee_move,
		tee_fault, tee_game_end, tee_stderr_line };
	pc.specs = specs;
	pc.nbots = (size_t)n;
	pc.cpu = (int)o->pin;
	pc.startup_ms = (int)o->common.startup_ms;
	pc.observer = &tee.observer;
	if (o->pin >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((int)o->pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			warn("play: --pin %lld", o->pin);
	}
	if (pool_new(&pc, &pool) < 0)
		goto out;
	setup.id = o->game_id ? o->game_id : "play";
	setup.rules.players = n;
	setup.rules.stock_size = (int)o->common.stock;
	setup.rules.partnership = o->partnership;
	setup.rules.dealer = n - 1;
	setup.rules.seed = o->common.seed;
	setup.match = o->match;
	setup.move_ms = o->no_timeout ? 0 : (int)o->common.move_ms;
	setup.game_ms = o->no_timeout ? 0 : (int)o->common.game_ms;
	setup.observer = &tee.observer;
	setup.keep_stderr = o->replay != NULL;
	for (int i = 0; i < n; i++)
		if (pool_acquire(pool, (size_t)i, &setup.seats[i]) < 0)
			goto out;
	printf("seed %" PRIu64 "\n", setup.rules.seed);
	if (referee_play(&setup, &out, err, sizeof(err)) < 0) {
		warnx("play: %s", err);
		goto out;
	}
	for (int i = 0; i < n; i++)
		pool_release(pool, (size_t)i, out.faulted[i]);
	print_outcome(&out, namep);
	if (o->replay) {
		struct replay_info info = { setup.id, namep, setup.move_ms, setup.game_ms, &out };
		struct jsonw w;

		jsonw_init(&w);
		if ((ret = replay_write(o->replay, &info, &w)) < 0)
			warnx("play: \"%s\": %s", o->replay, strerror(-ret));
		jsonw_release(&w);
		if (ret < 0) {
			ret = 1;
			goto out;
		}
	}
	ret = 0;
out:
	pool_free(pool);
	sandbox_close(sb);
	referee_outcome_release(&out);
	transcript_close(&tr);
	for (int i = 0; i < n; i++)
		free(log_paths[i]);
	return ret;
}

int cmd_play(int argc, char **argv)
{
	char **argvs[ENGINE_MAX_PLAYERS + 1] = { 0 };
	char names[ENGINE_MAX_PLAYERS][PLAY_NAME_MAX];
	struct game_rules rules = { 0 };
	struct play_opts o;
	char reason[200];
	int n, ret;

	if ((ret = parse_play_options(argc, argv, &o)) >= 0)
		return ret;
	n = collect_bots(argc, argv, argvs);
	ret = 2;
	if (n < 0)
		goto out;
	if (n < 2 || n > ENGINE_MAX_PLAYERS) {
		warnx("play: expected 2 to %d bots, got %d", ENGINE_MAX_PLAYERS, n);
		goto out;
	}
	rules.players = n;
	rules.stock_size = (int)o.common.stock;
	rules.partnership = o.partnership;
	if (game_rules_check(&rules, reason, sizeof(reason)) < 0) {
		warnx("play: impossible rules: %s", reason);
		goto out;
	}
	if (!o.common.has_seed)
		o.common.seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	ret = 1;
	if (prepare_bots(argvs, n, names) < 0)
		goto out;
	ret = play_game(&o, argvs, n, names);
out:
	for (int i = 0; i <= ENGINE_MAX_PLAYERS; i++)
		options_free_argv(argvs[i]);
	return ret;
}
