/*
 * cmd_check.c - `skipbo-arena check [options] BOT_COMMAND...`: plays a bot
 * against the easy bot under the real time rules and reports every fault
 * (check.h does the diagnosis).
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "commands.h"
#include "config.h"
#include "options.h"
#include "pool.h"
#include "jsonw.h"
#include "referee.h"
#include "replay.h"
#include "termsafe.h"

#define CHECK_NAME_MAX POOL_NAME_MAX
#define CHECK_DEFAULT_GAMES 10
#define CHECK_OPPONENT "skipbo-easy"
#define CHECK_START_TRIES 3

static const char check_usage[] =
	"usage: skipbo-arena check [options] [--] PROGRAM [ARG...]\n"
	"       skipbo-arena check [options] \"PROGRAM ARG...\"\n"
	"\n"
	"Check a bot against the protocol: start it, do the handshake, play games against\n"
	"the easy bot under the real time rules, and report the first error of each game\n"
	"with the offending line and what was expected, every illegal move with the\n"
	"position and the legal alternatives, and the time per move (median, p99, max)\n"
	"against the limits. After a fault the bot is restarted for the next game.\n"
	"The bot sits in each seat in turn. A single argument is a command string split\n"
	"on spaces (no shell, no quoting); after \"--\" the words are the exact argv.\n"
	"\n"
	"options:\n"
	"      --games N         games to play (default 10)\n"
	"      --players N       players per game, 2 to 6 (default 2); the others are\n"
	"                        opponent processes\n"
	"      --partnership     R10 teams (4 or 6 players): exercises partner moves\n"
	"      --stock N         stock size (default: R3 for the player count)\n"
	"      --seed N          seed of the first deal (default: random, printed)\n"
	"      --seed-file FILE  the seed from FILE (or SKIPBO_SEED in the environment)\n"
	OPTIONS_TIME_HELP
	OPTIONS_LIMITS_HELP
	OPTIONS_SANDBOX_HELP
	"                        for the bot under check (defaults as in a tournament\n"
	"                        file, arena/TOURNAMENT.md); the opponents have no\n"
	"                        memory limit\n"
	"      --opponent CMD    the opponent's command, split on spaces (default: the\n"
	"                        skipbo-easy built with this program)\n"
	"      --replays DIR     keep each game's replay as DIR/check-K.json (default: a\n"
	"                        new directory under $TMPDIR or /tmp, named at the end)\n"
	OPTIONS_BOT_STDERR_HELP
	OPTIONS_ENV_HELP("the bot's")
	"                        (the bot's last stderr lines are quoted with each fault\n"
	"                        whichever is given)\n"
	"  -v, --verbose         print every line to and from the bots\n"
	"  -h, --help            this text\n"
	"\n"
	"After a game in which the bot faulted, a \"reproduce:\" line gives the play\n"
	"command that deals that game again with the same bots in the same seats.\n"
	"A fault like an earlier one (numbers aside) takes one line; the summary counts\n"
	"each kind. The bot's slowest decisions are named, each with the play --from\n"
	"command that asks it that decision again.\n"
	"The last line is \"PASS\" or \"FAIL: N problems\". Exit status: 0 the bot is\n"
	"clean, 1 it (or the opponent) faulted or the check could not run, 2 bad usage.\n";

enum { OPT_GAMES = OPTIONS_OWN, OPT_PLAYERS, OPT_PARTNERSHIP, OPT_OPPONENT, OPT_REPLAYS };

/* The options of check alone; options.h adds the seed, stock, time and limits. */
static const struct option check_options[] = {
	{ "games", required_argument, NULL, OPT_GAMES },
	{ "players", required_argument, NULL, OPT_PLAYERS },
	{ "partnership", no_argument, NULL, OPT_PARTNERSHIP },
	{ "opponent", required_argument, NULL, OPT_OPPONENT },
	{ "replays", required_argument, NULL, OPT_REPLAYS },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};

struct check_opts {
	struct options_common common;  /* the limits: the bot's */
	long long games, players;
	int partnership, verbose;
	const char *opponent;
	const char *replays;        /* --replays DIR, NULL: a new one in $TMPDIR */
};

static int check_option(void *ctx, int c, const char *arg)
{
	struct check_opts *o = ctx;

	switch (c) {
	case OPT_PARTNERSHIP: o->partnership = 1; break;
	case OPT_OPPONENT: o->opponent = arg; break;
	case OPT_REPLAYS: o->replays = arg; break;
	case 'v': o->verbose = 1; break;
	case OPT_GAMES: return options_number("--games", arg, 1, 1000000, &o->games);
	case OPT_PLAYERS: return options_number("--players", arg, 2, ENGINE_MAX_PLAYERS, &o->players);
	}
	return 0;
}

/* Returns -1 to go on, or the exit status (0 after --help, 2 for bad usage). */
static int parse_check_options(int argc, char **argv, struct check_opts *o)
{
	const struct options_command cmd = { check_usage, "v", check_options,
		OPTIONS_SEED | OPTIONS_STOCK | OPTIONS_TIME | OPTIONS_LIMITS | OPTIONS_SANDBOX |
		OPTIONS_BOT_STDERR | OPTIONS_ENV, check_option, o };

	memset(o, 0, sizeof(*o));
	o->games = CHECK_DEFAULT_GAMES;
	o->players = 2;
	int ret;

	options_common_init(&o->common, 1);
	if ((ret = options_parse(&cmd, argc, argv, &o->common)) >= 0)
		return ret;
	return options_resolve_seed(&o->common) < 0 ? 1 : -1;
}

/* The bot's argv from the words after the options, owned by the caller: a
 * single word is a command string to split, unless "--" came before it. */
static char **bot_argv(int argc, char **argv)
{
	int n = argc - optind, exact = optind > 1 && !strcmp(argv[optind - 1], "--");
	char **out;

	if (n == 1 && !exact)
		return options_split(argv[optind]);
	if (!(out = calloc((size_t)n + 1, sizeof(*out))))
		return NULL;
	for (int i = 0; i < n; i++)
		if (!(out[i] = strdup(argv[optind + i]))) {
			options_free_argv(out);
			return NULL;
		}
	return out;
}

static char **opponent_argv(const struct check_opts *o)
{
	char path[PATH_MAX], where[2 * PATH_MAX + 8];
	char **argv;

	if (o->opponent) {
		if (!(argv = options_split(o->opponent)))
			warnx("check: empty --opponent command or unclosed quote");
		return argv;
	}
	if (config_bundled_bot(CHECK_OPPONENT, path, sizeof(path), where, sizeof(where)) < 0) {
		warnx("check: no " CHECK_OPPONENT " in %s; build it (cmake --build build --target "
		      CHECK_OPPONENT ") or name an opponent with --opponent", where);
		return NULL;
	}
	if (!(argv = calloc(2, sizeof(*argv))) || !(argv[0] = strdup(path))) {
		free(argv);
		warnx("check: out of memory");
		return NULL;
	}
	return argv;
}

/*
 * argv[0] resolved like a tournament's bot command, and the bot named after
 * it. When that fails: -1 with the reason in why, and argv as it is, so that
 * starting it gives the diagnosis.
 */
static int resolve_program(char **argv, char *name, size_t name_size, char *why,
			   size_t why_size)
{
	char cwd[PATH_MAX], resolved[PATH_MAX], reason[PATH_MAX + 64];
	const char *base = strrchr(argv[0], '/');
	char *copy;

	/* the name is printed: a file name's control characters are escaped */
	termsafe_copy(name, name_size < 49 ? name_size : 49, base ? base + 1 : argv[0]);
	if (!getcwd(cwd, sizeof(cwd)) || config_resolve_command(argv[0], cwd, resolved,
		sizeof(resolved), reason, sizeof(reason)) < 0) {
		snprintf(why, why_size, "%s", reason);
		return -1;
	}
	if (!(copy = strdup(resolved))) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	free(argv[0]);
	argv[0] = copy;
	return 0;
}

static void print_command(const char *label, const char *name, char *const *argv)
{
	printf("%s \"%s\":", label, name);
	for (int i = 0; argv[i]; i++) {
		putchar(' ');
		termsafe_puts(stdout, argv[i]);
	}
	putchar('\n');
}

struct check_run {
	const struct check_opts *o;
	struct game_rules rules;          /* resolved */
	char names[ENGINE_MAX_PLAYERS][CHECK_NAME_MAX]; /* [0] the bot, then the opponents */
	struct bot_spec specs[ENGINE_MAX_PLAYERS];
	char *log_paths[ENGINE_MAX_PLAYERS]; /* --stderr DIR */
	struct pool *pool;
	struct sandbox *sandbox;          /* every bot's, NULL when off */
	struct check check;
	char replays[PATH_MAX];           /* where each game's replay goes */
};

/* A word of a command, quoted for a POSIX shell when it needs it, escaped for the terminal. */
static void print_shell_word(const char *w)
{
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			 "_./=:,+-@%") == strlen(w)) {
		termsafe_puts(stdout, w);
		return;
	}
	putchar('\'');
	for (; *w; w++) {
		if (*w == '\'')
			fputs("'\\''", stdout);
		else
			termsafe_write(stdout, w, 1);
	}
	putchar('\'');
}

/* Game k (0-based): the bot in seat k mod players, the opponents in the
 * others; index[s] is the spec of seat s. Returns the bot's seat. */
static int seat_order(const struct check_run *run, int k, int *index)
{
	int seat = k % run->rules.players;

	for (int s = 0, next = 1; s < run->rules.players; s++)
		index[s] = s == seat ? 0 : next++;
	return seat;
}

/* A word that names a file by a relative path, as an absolute one: a reproduce:
 * line names every file one way, and runs from any directory. */
static void print_path_word(const char *w)
{
	char real[PATH_MAX];

	if (w[0] != '/' && w[0] != '-' && strchr(w, '/') == NULL && access(w, F_OK) != 0)
		print_shell_word(w);
	else if (w[0] != '/' && w[0] != '-' && realpath(w, real))
		print_shell_word(real);
	else
		print_shell_word(w);
}

/* " -- ARGV" for each seat, in seat order. */
static void print_seats(const struct check_run *run, const int *index)
{
	for (int s = 0; s < run->rules.players; s++) {
		fputs(" --", stdout);
		for (char *const *w = run->specs[index[s]].argv; *w; w++) {
			putchar(' ');
			print_path_word(*w);
		}
	}
	putchar('\n');
}

/* The play command that deals the game again with the bots in these seats:
 * the same id too, since bots may seed their choices with it. */
static void print_reproduce(const struct check_run *run, const char *id, uint64_t seed,
			    const int *index)
{
	const struct options_common *c = &run->o->common;

	fputs("  reproduce: ", stdout);
	if (strchr(options_program(), '/'))
		print_path_word(options_program());
	else
		print_shell_word(options_program());
	printf(" play --game-id %s --seed %" PRIu64 " --stock %d%s "
	       "--move-ms %lld --game-ms %lld --startup-ms %lld", id, seed, run->rules.stock_size,
	       run->rules.partnership ? " --partnership" : "", c->move_ms, c->game_ms,
	       c->startup_ms);
	print_seats(run, index);
}

/* The replay of game id, kept for play --from: path into out. */
static void replay_path(const struct check_run *run, const char *id, char *out, size_t size)
{
	snprintf(out, size, "%s/%s.json", run->replays, id);
}

/* The bot's slowest decisions, each with the play --from command that asks it again. */
static void print_slowest(const struct check_run *run)
{
	const struct check_slow *slow;
	int n = check_slowest(&run->check, &slow), index[ENGINE_MAX_PLAYERS];
	char id[32], path[PATH_MAX + 40];

	if (n)
		printf("slowest decisions (replays in %s):\n", run->replays);
	for (int i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "check-%d", slow[i].game);
		replay_path(run, id, path, sizeof(path));
		printf("  %.3f ms, game %d, decision %" PRIu32 ": ", (double)slow[i].us / 1000.0,
		       slow[i].game, slow[i].move);
		print_shell_word(options_program());
		fputs(" play --from ", stdout);
		print_shell_word(path);
		printf(" --move %" PRIu32 " --no-timeout", slow[i].move);
		seat_order(run, slow[i].game - 1, index);
		print_seats(run, index);
	}
}

/* Game k's replay, for play --from. 0, or -1 after the message. */
static int keep_replay(const struct check_run *run, const char *id, const char *const *names,
		       const struct referee_setup *setup, const struct referee_outcome *out)
{
	struct replay_info info = { id, names, setup->move_ms, setup->game_ms, out };
	char path[PATH_MAX + 40];
	struct jsonw w;
	int ret;

	replay_path(run, id, path, sizeof(path));
	jsonw_init(&w);
	ret = replay_write(path, &info, &w);
	jsonw_release(&w);
	if (ret < 0)
		warnx("check: \"%s\": %s", path, strerror(-ret));
	return ret < 0 ? -1 : 0;
}

/* Game k (0-based): the bot in seat k mod players, the opponents in the others. */
static int play_one(struct check_run *run, int k)
{
	const struct check_opts *o = run->o;
	int players = run->rules.players, index[ENGINE_MAX_PLAYERS];
	int seat = seat_order(run, k, index);
	const char *names[ENGINE_MAX_PLAYERS];
	struct referee_setup setup = { 0 };
	struct game_rules rules;
	struct referee_outcome out = { 0 };
	char id[32], err[256];
	int ret;

	for (int s = 0; s < players; s++)
		names[s] = run->names[index[s]];
	snprintf(id, sizeof(id), "check-%d", k + 1);
	rules = run->rules;
	rules.seed = match_game_seed(o->common.seed, k);
	referee_setup_init(&setup, id, &rules, (int)o->common.move_ms, (int)o->common.game_ms);
	setup.observer = &run->check.observer;
	/* the replay kept shows each decision's stderr, as play --replay's does */
	setup.keep_stderr = 1;
	setup.fault_stderr_ms = CHECK_STDERR_WAIT_MS;
	printf("game %d/%lld: seat %d of %d, seed %" PRIu64 "\n", k + 1, o->games, seat, players,
	       setup.rules.seed);
	fflush(stdout);
	check_begin_game(&run->check, k + 1, seat);
	for (int s = 0; s < players; s++)
		if ((ret = pool_acquire(run->pool, (size_t)index[s], &setup.seats[s])) < 0) {
			warnx("check: out of memory");
			return ret;
		}
	/* the next game's processes start during this one */
	for (int s = 0; s < players && k + 1 < o->games; s++)
		if ((ret = pool_prepare(run->pool, (size_t)s)) < 0) {
			warnx("check: out of memory");
			return ret;
		}
	ret = referee_play(&setup, &out, err, sizeof(err));
	for (int s = 0; s < players; s++)
		/* after a failed game every process is suspect */
		pool_release(run->pool, (size_t)index[s], ret < 0 || out.faulted[s]);
	if (ret < 0) {
		warnx("check: %s", err);
		return ret;
	}
	check_end_game(&run->check, &out, names);
	if (out.faulted[seat])
		print_reproduce(run, id, setup.rules.seed, index);
	ret = keep_replay(run, id, names, &setup, &out);
	referee_outcome_release(&out);
	fflush(stdout);
	return ret;
}

/* --replays DIR made if missing, or a new directory under $TMPDIR: run->replays. 0 or -1. */
static int replays_dir(struct check_run *run)
{
	const char *tmp = getenv("TMPDIR");

	if (run->o->replays) {
		strlcpy(run->replays, run->o->replays, sizeof(run->replays));
		return options_make_dirs("check: --replays", run->replays);
	}
	snprintf(run->replays, sizeof(run->replays), "%s/skipbo-check-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(run->replays)) {
		warn("check: cannot create \"%s\" for the replays", run->replays);
		return -1;
	}
	return 0;
}

static int run_check(struct check_run *run, char **bot, char **opponent)
{
	const char *hide[2];
	size_t nhide = 0;
	const struct check_opts *o = run->o;
	const struct options_common *c = &o->common;
	struct check_limits limits = { (int)c->startup_ms, (int)c->move_ms, (int)c->game_ms };
	struct pool_config pc = { 0 };
	const char *base = strrchr(opponent[0], '/');
	char opponent_name[49], *writable[ENGINE_MAX_PLAYERS];
	int players = run->rules.players, ret = 1;

	termsafe_copy(opponent_name, sizeof(opponent_name), base ? base + 1 : opponent[0]);
	for (int i = 1; i < players; i++)
		snprintf(run->names[i], CHECK_NAME_MAX, "%s-%d", opponent_name, i);
	for (int i = 0; i < players; i++) {
		struct bot_spec *spec = &run->specs[i];

		writable[i] = run->names[i];
		spec->name = run->names[i];
		spec->argv = i ? opponent : bot;
		spec->cpu = -1;
		spec->stderr_cap = CONFIG_DEFAULT_STDERR_CAP;
		if (i) {
			config_default_limits(&spec->limits);
			/* the opponent is trusted, and may be a sanitizer build that needs address space */
			spec->limits.memory_mb = 0;
		} else {
			spec->limits = c->limits;
			spec->env = c->env;
		}
	}
	if (options_stderr_files(c, run->specs, (size_t)players, run->log_paths) < 0)
		return 1;
	/* the logs are the arena's to write, not the bots' to read */
	if (replays_dir(run) < 0)
		return 1;
	hide[nhide++] = run->replays;
	if (c->stderr_dir)
		hide[nhide++] = c->stderr_dir;
	if (options_open_sandbox(c, run->specs, (size_t)players, hide, nhide, &run->sandbox) >= 0)
		return 1;
	print_command("checking", run->names[0], bot);
	print_command("opponent", run->names[1], opponent);
	printf("%lld games, %d players%s, stock %d, seed %llu; limits: startup %lld ms, "
	       "move %lld ms, game %lld ms\n", o->games, players,
	       run->rules.partnership ? " in partnership" : "", run->rules.stock_size, c->seed,
	       c->startup_ms, c->move_ms, c->game_ms);
	check_init(&run->check, stdout, run->names[0], &limits, o->verbose);
	if (OPTIONS_SHOW_BOTS(c))
		check_show_stderr(&run->check, stderr);
	pc.specs = run->specs;
	pc.nbots = (size_t)players;
	pc.cpu = -1;
	pc.startup_ms = (int)c->startup_ms;
	pc.observer = &run->check.observer;
	/* a bot is called by its hello once it has said it */
	pc.hello_names = writable;
	pc.fresh = 1; /* as in a tournament; and "reproduce" deals a game to fresh processes too */
	if (pool_new(&pc, &run->pool) < 0) {
		warnx("check: out of memory");
		goto out;
	}
	for (int k = 0; k < o->games; k++) {
		if (play_one(run, k) < 0)
			goto out;
		/* a bot that never starts would only repeat the diagnosis, slowly */
		if (run->check.failed_starts == CHECK_START_TRIES && k + 1 < o->games) {
			printf("stopping: the bot could not start %d times in a row; %lld games not "
			       "played\n", CHECK_START_TRIES, o->games - k - 1);
			break;
		}
	}
	pool_free(run->pool);
	run->pool = NULL;
	print_slowest(run);
	ret = check_summary(&run->check);
out:
	pool_free(run->pool);
	sandbox_close(run->sandbox);
	check_release(&run->check);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct check_run run = { 0 };
	struct check_opts o;
	char reason[200], why[PATH_MAX + 64];
	char **bot = NULL, **opponent = NULL;
	int ret;

	if ((ret = parse_check_options(argc, argv, &o)) >= 0)
		return ret;
	ret = 2;
	if (optind >= argc) {
		warnx("check: expected the bot's command");
		options_bad_usage(check_usage, NULL, argv);
		goto out;
	}
	run.o = &o;
	run.rules.players = (int)o.players;
	run.rules.stock_size = (int)o.common.stock;
	run.rules.partnership = o.partnership;
	if (game_rules_check(&run.rules, reason, sizeof(reason)) < 0) {
		warnx("check: --players %lld%s%s: impossible rules: %s", o.players,
		      o.partnership ? " with --partnership" : "", o.common.stock ?
		      " and the --stock given" : "", reason);
		goto out;
	}
	if (!(bot = bot_argv(argc, argv))) {
		warnx("check: empty bot command");
		goto out;
	}
	ret = 1;
	if (!(opponent = opponent_argv(&o)))
		goto out;
	if (resolve_program(bot, run.names[0], sizeof(run.names[0]), why, sizeof(why)) < 0)
		/* the start fault of each game then says the rest */
		warnx("check: %s", why);
	if (resolve_program(opponent, run.names[1], sizeof(run.names[1]), why, sizeof(why)) < 0) {
		warnx("check: opponent: %s", why);
		goto out;
	}
	ret = run_check(&run, bot, opponent);
out:
	options_free_argv(bot);
	options_free_argv(opponent);
	for (int i = 0; i < ENGINE_MAX_PLAYERS; i++)
		free(run.log_paths[i]);
	return ret;
}
