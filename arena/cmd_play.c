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
#include "replay_find.h"
#include "termsafe.h"
#include "transcript.h"

#define PLAY_NAME_MAX POOL_NAME_MAX

static const char play_usage[] =
	"usage: skipbo-arena play [options] BOT BOT [BOT...]\n"
	"       skipbo-arena play [options] -- PROGRAM [ARG...] -- PROGRAM [ARG...] ...\n"
	"\n"
	"Play one game (or an R9 match) between 2 to 6 bots and print the result. Each BOT\n"
	"is a command string split on spaces (no shell; quotes as sh): \"./mybot --level 3\".\n"
	"After \"--\", the words up to the next \"--\" are one bot's exact argv instead.\n"
	"Bots are named after their program, with -2, -3, ... for repeats.\n"
	"\n"
	"options:\n"
	"  -r, --render          print the table turn by turn\n"
	"      --stats           the bots' move times (mean, median, p99, max) in the result;\n"
	"                        the default, unless a seat is the human player (skipbo-human)\n"
	"      --seed N          deal seed (default: random; printed)\n"
	"      --seed-file FILE  the seed from FILE (or SKIPBO_SEED in the environment)\n"
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
	"      --from REPLAY     start from a recorded position: deal REPLAY's game again\n"
	"                        (same seed, dealer, stock, seats), apply its first N-1\n"
	"                        decisions, then ask the bots from decision N on; REPLAY\n"
	"                        is a replay file, a tournament's pack or its directory\n"
	"      --id ID           with --from a pack or a directory: its game ID\n"
	"      --move N          with --from: the position before decision N (default 1)\n"
	"      --game K          with --from: game K of a recorded match (default 1)\n"
	OPTIONS_LIMITS_HELP
	OPTIONS_SANDBOX_HELP
	"                        (defaults as in a tournament file, arena/TOURNAMENT.md)\n"
	OPTIONS_BOT_STDERR_HELP
	OPTIONS_ENV_HELP("every bot's")
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 the game was played (bot faults are results), 1 it could not be,\n"
	"2 bad usage.\n";

enum {
	OPT_PARTNERSHIP = OPTIONS_OWN, OPT_MATCH, OPT_NO_TIMEOUT, OPT_PIN, OPT_LOG_IO, OPT_REPLAY,
	OPT_FROM, OPT_MOVE, OPT_GAME, OPT_STATS, OPT_GAME_ID, OPT_ID,
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
	{ "from", required_argument, NULL, OPT_FROM },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "move", required_argument, NULL, OPT_MOVE },
	{ "game", required_argument, NULL, OPT_GAME },
	{ "game-id", required_argument, NULL, OPT_GAME_ID },
	{ "id", required_argument, NULL, OPT_ID },
	{ NULL, 0, NULL, 0 },
};

struct play_opts {
	struct options_common common;
	int render, partnership, match, no_timeout, log_io;
	int stats;                  /* move times in the result: --stats, or no human seat */
	long long pin;
	const char *replay;
	const char *game_id;
	const char *from;           /* --from REPLAY */
	const char *from_id;        /* --id ID: the game of a pack or directory */
	long long from_move, from_game;
};

/* The position --from asks for, as the re-check of the replay reaches it (replay_walk). */
struct from {
	long long game, move;       /* game K, decision N */
	int current;                /* the game being re-checked */
	struct game_rules rules;    /* game K's, as dealt */
	struct referee_step *steps; /* its first N-1 decisions, and the removals among them */
	size_t n, cap;
	long long decisions;        /* in steps */
	int reached;                /* the position exists: game K still running after N-1 */
	int nomem;
	struct referee_observer observer;
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
	case OPT_FROM: o->from = arg; break;
	case OPT_ID: o->from_id = arg; break;
	case OPT_STATS: o->stats = 1; break;
	case OPT_MOVE: return options_number("--move", arg, 1, INT32_MAX, &o->from_move);
	case OPT_GAME: return options_number("--game", arg, 1, INT32_MAX, &o->from_game);
	}
	return 0;
}

static void from_game_start(void *ctx, int game, const struct game *g)
{
	struct from *f = ctx;

	f->current = game;
	if (game != f->game)
		return;
	f->rules = *game_rules(g);
	f->reached = f->move == 1 && game_to_move(g) >= 0;
}

static void add_step(struct from *f, const struct referee_step *step)
{
	struct referee_step *grown;

	if (f->n == f->cap) {
		if (!(grown = reallocarray(f->steps, f->cap ? f->cap * 2 : 64, sizeof(*grown)))) {
			f->nomem = 1;
			return;
		}
		f->steps = grown;
		f->cap = f->cap ? f->cap * 2 : 64;
	}
	f->steps[f->n++] = *step;
}

static void from_move(void *ctx, int seat, const struct move *m, int64_t us, const struct game *g)
{
	struct from *f = ctx;
	struct referee_step step = { .move = *m, .removed = -1 };

	(void)seat;
	(void)us;
	if (f->current != f->game || f->decisions >= f->move - 1 || f->nomem)
		return;
	add_step(f, &step);
	if (++f->decisions == f->move - 1)
		f->reached = game_to_move(g) >= 0;
}

/*
 * A seat out of game K before the position (since an earlier game of a
 * match, or removed on the way) is removed there too. A removal where
 * decision N was due is not: that seat is asked for decision N again.
 */
static void from_fault(void *ctx, const struct referee_fault *fault, const struct game *g)
{
	struct from *f = ctx;
	struct referee_step step = { .removed = fault->seat, .kind = fault->kind };

	if (f->current == f->game && (fault->game < f->game || f->decisions < f->move - 1)) {
		add_step(f, &step);
		f->reached = f->decisions == f->move - 1 && game_to_move(g) >= 0;
	}
}

/*
 * Re-check the --from replay and find the position: game K's rules and its
 * first N-1 decisions in *f. 0, or the exit status after the message.
 */
static int load_position(const struct play_opts *o, struct from *f)
{
	char msg[PATH_MAX + 512];
	size_t len;
	char *text = replay_select(o->from, o->from_id, &len, msg, sizeof(msg));
	int ret;

	if (!text) {
		warnx("play: --from: %s", msg);
		return 1;
	}
	f->game = o->from_game ? o->from_game : 1;
	f->move = o->from_move ? o->from_move : 1;
	f->observer = (struct referee_observer){ f, NULL, from_game_start, from_move, from_fault,
		NULL };
	ret = replay_walk(text, len, NULL, &f->observer, NULL, msg, sizeof(msg));
	free(text);
	if (ret != 0 || f->nomem) {
		warnx("play: --from \"%s\": %s", o->from, f->nomem ? "out of memory" : msg);
		return 1;
	}
	if (f->current < f->game) {
		warnx("play: --from \"%s\": no game %lld: the replay holds %d", o->from, f->game,
		      f->current);
		return 1;
	}
	if (!f->reached) {
		warnx("play: --from \"%s\": game %lld has no decision %lld: it is over after %lld",
		      o->from, f->game, f->move, f->decisions);
		return 1;
	}
	return 0;
}

static int parse_play_options(int argc, char **argv, struct play_opts *o)
{
	const struct options_command cmd = { play_usage, "r", play_options,
		OPTIONS_SEED | OPTIONS_STOCK | OPTIONS_TIME | OPTIONS_LIMITS | OPTIONS_SANDBOX |
		OPTIONS_BOT_STDERR | OPTIONS_ENV, play_option, o };
	int ret;

	memset(o, 0, sizeof(*o));
	o->pin = -1;
	o->from_move = o->from_game = 0;
	options_common_init(&o->common, 1);
	ret = options_parse(&cmd, argc, argv, &o->common);
	if (ret < 0 && options_check_no_timeout("play", o->no_timeout, &o->common) < 0)
		return 2;
	return ret;
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
				warnx("play: empty bot command or unclosed quote \"%s\"", argv[i]);
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

/* Every seat a start fault: no game was played, so nobody won it. */
static int none_started(const struct referee_outcome *o)
{
	int started = o->players;

	for (size_t i = 0; i < o->nfaults; i++)
		started -= o->faults[i].kind == PROTOCOL_FAULT_START;
	return started <= 0;
}


/* stats: each seat's move times too (a person at the table has no use for microseconds). */
static void print_outcome(const struct referee_outcome *o, const char *const *names, int stats)
{
	int played = !none_started(o);

	if (played)
		printf("result: %s after %" PRIu32 " turns, %" PRIu32 " moves\n",
		       o->reason ? end_reason_name(o->reason) : "none", o->turns, o->moves);
	else
		printf("result: no game: no bot could start\n");
	if (o->match && played)
		printf("match: %d games\n", o->games);
	printf("winners:");
	for (int i = 0; played && i < o->nwinners; i++)
		printf(" %s (seat %d)", names[o->winners[i]], o->winners[i]);
	printf(played && o->nwinners ? "\n" : " none\n");
	for (int s = 0; played && s < o->players; s++) {
		const struct referee_time_stats *t = &o->time[s];

		printf("  seat %d %-16s placing %d  score %4d  stock left %2d  moves %5" PRIu32, s,
		       names[s], o->placings[s], o->scores[s], o->stock_left[s], t->moves);
		if (stats)
			printf("  mean %.1f us  median %" PRId64 " us  p99 %" PRId64 " us  max %"
			       PRId64 " us", t->mean_us, t->median_us, t->p99_us, t->max_us);
		putchar('\n');
	}
	for (size_t i = 0; i < o->nfaults; i++) {
		const struct referee_fault *f = &o->faults[i];

		printf("fault: seat %d %s: %s at game %d", f->seat, names[f->seat],
		       protocol_fault_kind_names[f->kind], f->game);
		/* a reason placed by the referee says where itself */
		if (!referee_fault_placed(f->kind))
			printf(", turn %" PRIu32 ", move %" PRIu32, f->turn, f->move);
		fputs(": ", stdout);
		termsafe_puts(stdout, f->reason);
		if (f->line[0]) {
			fputs("\n       line: ", stdout);
			termsafe_puts(stdout, f->line);
		}
		putchar('\n');
	}
}

/* Whether a seat is the human player (bots/human), by the name of its program as given. */
static int human_seat(char **argvs[], int n)
{
	for (int i = 0; i < n; i++) {
		const char *base = strrchr(argvs[i][0], '/');

		if (!strcmp(base ? base + 1 : argvs[i][0], "skipbo-human"))
			return 1;
	}
	return 0;
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

/* from: the position to start from, or NULL for a new deal. */
static int play_game(const struct play_opts *o, char **argvs[], int n,
		     char names[][PLAY_NAME_MAX], const struct from *from)
{
	struct bot_spec specs[ENGINE_MAX_PLAYERS] = { 0 };
	struct referee_setup setup = { 0 };
	struct game_rules rules;
	struct referee_outcome out = { 0 };
	struct pool_config pc = { 0 };
	struct pool *pool = NULL;
	struct sandbox *sb = NULL;
	struct transcript tr;
	struct render rd;
	struct echo echo;
	struct tee tee = { 0 };
	const char *namep[ENGINE_MAX_PLAYERS], *hide[2];
	char *writable[ENGINE_MAX_PLAYERS];
	char err[256], *log_paths[ENGINE_MAX_PLAYERS] = { 0 };
	size_t nhide = 0;
	int ret = 1;

	transcript_init(&tr);
	if (o->log_io)
		transcript_attach(&tr, stderr);
	for (int i = 0; i < n; i++) {
		namep[i] = names[i];
		writable[i] = names[i];
		specs[i].name = names[i];
		specs[i].argv = argvs[i];
		specs[i].cpu = -1;
		specs[i].limits = o->common.limits;
		specs[i].env = o->common.env;
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
	/* a bot is called by its hello once it has said it */
	pc.hello_names = writable;
	if (o->pin >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((int)o->pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			warn("play: --pin %lld: not a CPU this process may use", o->pin);
	}
	pc.fresh = 1;
	if (pool_new(&pc, &pool) < 0)
		goto out;
	rules = (struct game_rules){ .players = n, .stock_size = (int)o->common.stock,
				     .partnership = o->partnership, .seed = o->common.seed };
	referee_setup_init(&setup, o->game_id ? o->game_id : "play", &rules,
			   o->no_timeout ? 0 : (int)o->common.move_ms,
			   o->no_timeout ? 0 : (int)o->common.game_ms);
	setup.match = o->match;
	setup.observer = &tee.observer;
	if (from) {
		setup.rules = from->rules;
		setup.start = from->steps;
		setup.nstart = from->n;
	}
	setup.keep_stderr = o->replay != NULL;
	for (int i = 0; i < n; i++)
		if (pool_acquire(pool, (size_t)i, &setup.seats[i]) < 0)
			goto out;
	if (from)
		printf("from %s, game %lld: seed %" PRIu64 ", dealer %d, stock %d; %lld decisions "
		       "replayed, the bots play from decision %lld\n", o->from, from->game,
		       setup.rules.seed, setup.rules.dealer, setup.rules.stock_size,
		       from->decisions, from->move);
	else
		printf("seed %" PRIu64 "\n", setup.rules.seed);
	if (referee_play(&setup, &out, err, sizeof(err)) < 0) {
		warnx("play: %s", err);
		goto out;
	}
	for (int i = 0; i < n; i++)
		pool_release(pool, (size_t)i, out.faulted[i]);
	print_outcome(&out, namep, o->stats);
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
	if (none_started(&out)) {
		warnx("play: no bot could start, so no game was played (the faults above say why)");
		ret = 1;
	}
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
	struct from from = { 0 };
	struct play_opts o;
	char reason[200];
	int n, ret;

	if ((ret = parse_play_options(argc, argv, &o)) >= 0)
		return ret;
	n = collect_bots(argc, argv, argvs);
	ret = 2;
	if (n < 0)
		goto out;
	if (!o.from && (o.from_move || o.from_game || o.from_id)) {
		warnx("play: --%s: a position of a replay, named with --from", o.from_move ? "move" :
		      o.from_game ? "game" : "id");
		goto out;
	}
	/* SKIPBO_SEED may be set for other commands: only an option conflicts */
	if (o.from && ((o.common.has_seed && o.common.seed_source != OPTIONS_SEED_ENVIRONMENT) ||
		       o.common.stock || o.partnership || o.match)) {
		warnx("play: --from: the replay gives the seed, stock size, partnership and dealer; "
		      "--seed, --stock, --partnership and --match do not go with it");
		goto out;
	}
	if (o.from) {
		if ((ret = load_position(&o, &from)) != 0)
			goto out;
		ret = 2;
		if (n != from.rules.players) {
			warnx("play: --from \"%s\": the recorded game has %d seats, got %d bots",
			      o.from, from.rules.players, n);
			goto out;
		}
		o.common.stock = from.rules.stock_size;
		o.partnership = from.rules.partnership;
	}
	if (n < 2 || n > ENGINE_MAX_PLAYERS) {
		warnx("play: expected 2 to %d bots, got %d", ENGINE_MAX_PLAYERS, n);
		goto out;
	}
	rules.players = n;
	rules.stock_size = (int)o.common.stock;
	rules.partnership = o.partnership;
	if (game_rules_check(&rules, reason, sizeof(reason)) < 0) {
		warnx("play: %d bots%s%s: impossible rules: %s", n,
		      o.partnership ? " with --partnership" : "", o.common.stock ?
		      " and the --stock given" : "", reason);
		goto out;
	}
	ret = 1;
	if (options_resolve_seed(&o.common) < 0)
		goto out;
	o.stats = o.stats || !human_seat(argvs, n);
	if (prepare_bots(argvs, n, names) < 0)
		goto out;
	ret = play_game(&o, argvs, n, names, o.from ? &from : NULL);
out:
	free(from.steps);
	for (int i = 0; i <= ENGINE_MAX_PLAYERS; i++)
		options_free_argv(argvs[i]);
	return ret;
}
