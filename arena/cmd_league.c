/*
 * cmd_league.c - `skipbo-arena league`: run a league (league_run.h), with
 * --listen its deals served to workers as `host` serves them (desk_serve.h),
 * enter and retire its entries (league_entries.h), and play unrated
 * challenges between two of them (arena/LEAGUE.md).
 *
 * A challenge is an ordinary two-bot duplicate tournament of the two
 * entries in DIR/challenges/A-vs-B-N (N deals), seeded from the league's
 * seed and the two names, so it is reproducible and resumable like `run`,
 * and the league's games.jsonl, and so its ranking, never holds it.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "desk_serve.h"
#include "host_config.h"
#include "league_config.h"
#include "league_entries.h"
#include "league_run.h"
#include "options.h"
#include "schedule.h"
#include "server.h"
#include "tournament.h"

static const char league_usage[] =
	"usage: skipbo-arena league [-j N] [--serve ADDR:PORT] DIR\n"
	"       skipbo-arena league --listen ADDR:PORT [--cert FILE --key FILE] [-j N] DIR\n"
	"       skipbo-arena league add DIR NAME=CMD [NAME=CMD...]\n"
	"       skipbo-arena league retire DIR NAME\n"
	"       skipbo-arena league return DIR NAME\n"
	"       skipbo-arena league challenge [--deals N] [-j N] DIR A B\n"
	"\n"
	"Run the league described by DIR/league.jsonc (arena/LEAGUE.md) until it is\n"
	"stopped (Ctrl-C, SIGTERM), a budget of games or minutes is spent, or every two\n"
	"entries next to each other in the ranking are apart at 95%. Every game is a\n"
	"duplicate deal, all its seat rotations played, from seeds derived from the\n"
	"league's seed. The same command resumes; no finished game is lost. Records,\n"
	"replays and tournament.json are those of `run`: `report DIR`, `status DIR` and\n"
	"the viewer read the directory, and the report adds the league's history.\n"
	"\n"
	"  add        enter bots while the league runs (each CMD split on spaces, quotes as sh); a NAME\n"
	"             entered before becomes a new version NAME@2, NAME@3, ..., and the\n"
	"             version before it is retired (it stays on the board)\n"
	"  retire     take an entry (NAME, or NAME@K) out of play; it stays on the board\n"
	"  return     bring a retired entry back into play (a retire undone)\n"
	"             (add, retire and return run again, after a crash say, find their work\n"
	"             done, say so and exit 0)\n"
	"  challenge  unrated duplicate games between entries A and B, recorded in\n"
	"             DIR/challenges/A-vs-B-N, never in the ranking\n"
	"\n"
	"options:\n"
	"  -j, --jobs N          games at once (default: the file's concurrency); also\n"
	"                        --concurrency N; 0 with --listen: none here, only workers\n"
	"      --serve ADDR:PORT serve the league's page live over HTTP while it runs\n"
	"                        (skipbo-arena serve DIR; port 0: any free port)\n"
	"      --listen ADDR:PORT  serve the league's page as --serve does, and its deals\n"
	"                        to workers (skipbo-arena work URL, arena/WORKERS.md) with\n"
	"                        the tokens of skipbo-arena host account add --worker DIR\n"
	"                        NAME; lease settings from DIR/host.jsonc when it exists\n"
	"      --cert FILE, --key FILE   HTTPS with this certificate and key (PEM)\n"
	"      --deals N         a challenge's deals (default 10), each played twice\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 when the league stopped (by a signal, a budget or the stop\n"
	"rule), 1 on an arena error, 2 on bad usage.\n";

static const struct option league_options[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "concurrency", required_argument, NULL, 'j' },
	{ "deals", required_argument, NULL, 'd' },
	{ "serve", required_argument, NULL, 's' },
	{ "listen", required_argument, NULL, 'l' },
	{ "cert", required_argument, NULL, 'c' },
	{ "key", required_argument, NULL, 'k' },
	{ "help", no_argument, NULL, 'h' },
	OPTIONS_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 },
};

struct league_args {
	long long jobs, deals;  /* jobs -1: not given */
	const char *serve;  /* --serve ADDR:PORT, or NULL */
	const char *listen, *cert, *key;  /* --listen ADDR:PORT and its TLS, or NULL */
};

static void on_stop_signal(int sig)
{
	(void)sig;
	league_request_stop();
}

static void catch_stops(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* --listen: the league's desk served to workers (desk_serve.h) into *ds. 0, or 1 said. */
static int listen_start(const char *dir, const struct league_args *a, struct desk_serve *ds)
{
	static char err[CONFIG_ERR_MAX];
	struct desk_serve_setup setup = { .cmd = "league", .dir = dir, .listen = a->listen,
					  .cert = a->cert, .key = a->key };
	struct host_config hc;
	sigset_t stops, was;
	int ret;

	if (host_config_read(dir, &hc, err, sizeof(err)) < 0) {
		warnx("league: %s", err);
		return 1;
	}
	setup.config = &hc;
	/* the server's and the desk's threads leave the stop signals to this one */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stops, &was);
	ret = desk_serve_start(&setup, ds, err, sizeof(err));
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (ret < 0) {
		warnx("league: %s", err);
		return 1;
	}
	printf("league: serving %s at %s: its pages, and its deals to workers "
	       "(arena/WORKERS.md)\n", dir, server_url(ds->server));
	fflush(stdout);
	return 0;
}

static int league_play(const char *dir, const struct league_args *a)
{
	/* -1 with a desk: the league plays nothing here, only on workers */
	struct league_run_options opt = { dir, a->jobs < 0 ? 0 : a->jobs == 0 ? -1 :
					  (int)a->jobs, stdout, NULL };
	static char err[CONFIG_ERR_MAX];
	static const char *const said[] = {
		[LEAGUE_STOP_REQUEST] = "stopped; run the same command to resume",
		[LEAGUE_STOP_SEPARATED] = "every adjacent pair is apart at 95%",
		[LEAGUE_STOP_GAMES] = "max_games reached",
		[LEAGUE_STOP_TIME] = "max_minutes reached",
	};
	enum league_stop why;
	struct server *server = NULL;
	struct desk_serve ds = { 0 };
	int ret = 0;

	catch_stops();
	if (a->serve && (ret = serve_run_output("league", dir, a->serve, &server)) >= 0)
		return ret;
	if (a->listen && listen_start(dir, a, &ds))
		return 1;
	opt.desk = ds.desk;
	if (league_run(&opt, &why, err, sizeof(err)) < 0) {
		fprintf(stderr, "skipbo-arena: league: %s%s", err,
			err[0] && err[strlen(err) - 1] == '\n' ? "" : "\n");
		ret = 1;
	} else {
		printf("league: %s\n", said[why]);
		ret = 0;
	}
	server_stop(server);
	desk_serve_stop(&ds);
	return ret;
}

/* The league's entries, read, with its settings when they load (NULL cfg: not needed). */
static int open_league(const char *dir, struct league_config *cfg, struct league_entries *es)
{
	static char err[CONFIG_ERR_MAX];

	if (cfg && league_config_load(dir, cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "skipbo-arena: league: %s", err);
		return -1;
	}
	if (league_entries_open(es, dir, err, sizeof(err)) < 0) {
		warnx("league: %s", err);
		if (cfg)
			league_config_release(cfg);
		return -1;
	}
	return 0;
}

/* NAME=CMD entered with the league's limits, its command found from here. */
static int add_one(struct league_entries *es, const struct league_config *cfg, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char cwd[PATH_MAX], path[PATH_MAX], why[1024], name[LEAGUE_ENTRY_NAME_MAX];
	char *env[1] = { NULL }, **argv = NULL, *bot_name = NULL;
	struct config_bot bot = { 0 };
	int ret = 2, added;

	if (!eq || eq == arg || !eq[1]) {
		warnx("league add: \"%s\": expected NAME=COMMAND", arg);
		return 2;
	}
	if (!getcwd(cwd, sizeof(cwd)) || !(bot_name = strndup(arg, (size_t)(eq - arg))) ||
	    !(argv = options_split(eq + 1))) {
		warnx("league add: \"%s\": an empty command or an unclosed quote", arg);
		goto out;
	}
	if (config_resolve_command(argv[0], cwd, path, sizeof(path), why, sizeof(why)) < 0) {
		warnx("league add: %s: %s", bot_name, why);
		goto out;
	}
	free(argv[0]);
	argv[0] = strdup(path);
	bot = (struct config_bot){ bot_name, argv, cwd, env, cfg->base.limits };
	ret = 1;
	if (!argv[0] || (added = league_entries_add(es, &bot, 0, name, why, sizeof(why))) < 0) {
		warnx("league add: %s", argv[0] ? why : "out of memory");
		goto out;
	}
	ret = 0;
	if (added == 1) {
		/* the same command again, after a crash say: its work is done */
		printf("\"%s\" is entered already, with these files and this command: nothing to "
		       "do\n", name);
		goto out;
	}
	printf("entered \"%s\"", name);
	if (strchr(name, '@'))
		printf(" (a new version of \"%s\", which is retired)", bot_name);
	printf("\n");
out:
	free(bot_name);
	if (argv)
		options_free_argv(argv);
	return ret;
}

/* The length of NAME in "NAME=COMMAND" (the whole argument without '='). */
static size_t name_length(const char *arg)
{
	return strcspn(arg, "=");
}

/*
 * Slips that would destroy something, refused before anything is entered, each with the
 * way to do it on purpose: a name twice in one command (entered, then retired at once by
 * its second version), and a new version of an anchor (its old version, which fixes the
 * league's scale, retired, or a program of the author's taking the anchor's place).
 */
static int refuse_slips(const struct league_config *cfg, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t n = name_length(argv[i]);

		for (int k = 1; k < i; k++) {
			if (name_length(argv[k]) == n && strncmp(argv[k], argv[i], n) == 0) {
				warnx("league add: \"%.*s\" is named twice in one command: the second "
				      "would enter at once as a new version and retire the first; enter "
				      "it once (a later `league add` with new files makes a new version)",
				      (int)n, argv[i]);
				return 2;
			}
		}
		for (size_t a = 0; a < cfg->nanchors; a++) {
			if (strlen(cfg->anchors[a]) == n && strncmp(cfg->anchors[a], argv[i], n) == 0) {
				warnx("league add: \"%s\" is an anchor of the league (league.jsonc's "
				      "\"anchors\" fix its rating, and so the league's scale): a new "
				      "version would retire it; enter the bot under another name (say "
				      "\"%s-2=...\"), or take \"%s\" out of \"anchors\" first to replace "
				      "it on purpose", cfg->anchors[a], cfg->anchors[a], cfg->anchors[a]);
				return 2;
			}
		}
	}
	return 0;
}

static int league_add(int argc, char **argv)
{
	struct league_config cfg;
	struct league_entries es;
	int ret = 0;

	if (argc < 2) {
		warnx("league add: expected DIR NAME=COMMAND [NAME=COMMAND...]");
		return 2;
	}
	if (open_league(argv[0], &cfg, &es) < 0)
		return 1;
	ret = refuse_slips(&cfg, argc, argv);
	for (int i = 1; i < argc && !ret; i++)
		ret = add_one(&es, &cfg, argv[i]);
	league_entries_release(&es);
	league_config_release(&cfg);
	return ret;
}

/* `league retire DIR NAME` (retire set) or `league return DIR NAME`: one entry's state. */
static int league_retire(int argc, char **argv, bool retire)
{
	const char *verb = retire ? "retire" : "return";
	struct league_entries es;
	char err[512];
	int i, done, ret = 1;

	if (argc != 2) {
		warnx("league %s: expected DIR NAME", verb);
		return 2;
	}
	if (open_league(argv[0], NULL, &es) < 0)
		return 1;
	if ((i = league_entries_find(&es, argv[1])) < 0)
		warnx("league %s: no entry \"%s\" in %s", verb, argv[1], argv[0]);
	else if ((done = retire ? league_entries_retire(&es, (size_t)i, "retired by `league retire`",
							err, sizeof(err)) :
			  league_entries_return(&es, (size_t)i, err, sizeof(err))) == -EALREADY &&
		 (retire || !es.e[i].suspended)) {
		/* the same command again, after a crash say: its work is done */
		if (retire)
			printf("\"%s\" is retired already (%s): nothing to do\n", es.e[i].name,
			       es.e[i].why ? es.e[i].why : "no reason given");
		else
			printf("\"%s\" is in play already: nothing to do\n", es.e[i].name);
		ret = 0;
	} else if (done < 0) {
		warnx("league %s: %s", verb, err);
	} else {
		printf(retire ? "retired \"%s\"\n" : "\"%s\" is back in play\n", es.e[i].name);
		ret = 0;
	}
	league_entries_release(&es);
	return ret;
}

/* A challenge's tally: games won by A and by B (placings), per tournament_options.on_game. */
struct tally {
	long won[2], games;
};

static void on_challenge_game(void *ctx, const struct schedule_game *g, const int *placings,
			      int faults)
{
	struct tally *t = ctx;

	(void)faults;
	t->games++;
	for (int s = 0; s < 2; s++)
		if (placings[s] == 1 && placings[1 - s] > 1)
			t->won[g->bots[s]]++;
}

/* The challenge's seed: the league's, mixed with the two names (FNV-1a). */
static uint64_t challenge_seed(uint64_t league, const char *a, const char *b)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (const char *p = a; *p; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
	h *= UINT64_C(0x100000001b3);
	for (const char *p = b; *p; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
	return schedule_splitmix64(league ^ h);
}

static int play_challenge(const struct league_config *lc, const struct league_entries *es,
			  const int ab[2], const struct league_args *a)
{
	struct config cfg = lc->base;
	struct config_bot bots[2] = { es->e[ab[0]].bot, es->e[ab[1]].bot };
	struct tally t = { { 0, 0 }, 0 };
	struct tournament_options topt = { .on_game = on_challenge_game, .game_ctx = &t };
	struct sandbox *sb = NULL;
	char out[PATH_MAX], err[PATH_MAX + 512];
	const char *hide[] = { lc->base.output };
	int ret;

	if (league_challenge_dir(out, sizeof(out), lc->base.output, bots[0].name, bots[1].name,
				 a->deals) < 0) {
		warnx("league challenge: \"%s\": path too long", lc->base.output);
		return 1;
	}
	cfg.bots = bots;
	cfg.nbots = 2;
	cfg.players = 2;
	cfg.deals = (uint32_t)a->deals;
	cfg.duplicate = 1;
	cfg.challenger = NULL;
	cfg.output = out;
	cfg.name = "challenge"; /* its directory names the two; a name has no '@' */
	cfg.seed = challenge_seed(lc->base.seed, bots[0].name, bots[1].name);
	if (a->jobs > 0)
		cfg.concurrency = (int)a->jobs;
	if (options_open_config_sandbox(&cfg, hide, 1, &sb) >= 0)
		return 1;
	topt.sandbox = sb;
	catch_stops();
	printf("challenge %s vs %s: %lld deals, unrated, in %s\n", bots[0].name, bots[1].name,
	       a->deals, out);
	ret = tournament_run(&cfg, &topt, err, sizeof(err));
	sandbox_close(sb);
	if (ret < 0) {
		warnx("league challenge: %s", err);
		return 1;
	}
	printf("%s %ld, %s %ld, other %ld of %ld games%s\n", bots[0].name, t.won[0],
	       bots[1].name, t.won[1], t.games - t.won[0] - t.won[1], t.games,
	       ret == 1 ? " (stopped: run the same command to resume)" : "");
	return 0;
}

static int league_challenge(int argc, char **argv, const struct league_args *a)
{
	struct league_config cfg;
	struct league_entries es;
	int ab[2], ret = 1;

	if (argc != 3) {
		warnx("league challenge: expected DIR A B");
		return 2;
	}
	if (open_league(argv[0], &cfg, &es) < 0)
		return 1;
	league_seed(cfg.base.output, cfg.base.has_seed, &cfg.base.seed);
	for (int k = 0; k < 2; k++)
		if ((ab[k] = league_entries_find(&es, argv[1 + k])) < 0) {
			warnx("league challenge: no entry \"%s\" in %s", argv[1 + k], argv[0]);
			goto out;
		}
	if (ab[0] == ab[1]) {
		warnx("league challenge: \"%s\" against itself", es.e[ab[0]].name);
		ret = 2;
		goto out;
	}
	ret = play_challenge(&cfg, &es, ab, a);
out:
	league_entries_release(&es);
	league_config_release(&cfg);
	return ret;
}

int cmd_league(int argc, char **argv)
{
	struct league_args a = { -1, 10, NULL, NULL, NULL, NULL };
	const char *verb = NULL;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "j:h", league_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (options_number("--jobs", optarg, 0, 1024, &a.jobs) < 0)
				return 2;
			break;
		case 'd':
			if (options_number("--deals", optarg, 1, 10000000, &a.deals) < 0)
				return 2;
			break;
		case 's':
			a.serve = optarg;
			break;
		case 'l':
			a.listen = optarg;
			break;
		case 'c':
			a.cert = optarg;
			break;
		case 'k':
			a.key = optarg;
			break;
		case 'h':
			fputs(league_usage, stdout);
			return 0;
		case OPTIONS_VERSION:
			return options_print_version();
		default:
			return options_bad_usage(league_usage, league_options, argv);
		}
	}
	if (optind < argc && (strcmp(argv[optind], "add") == 0 ||
			      strcmp(argv[optind], "retire") == 0 ||
			      strcmp(argv[optind], "return") == 0 ||
			      strcmp(argv[optind], "challenge") == 0))
		verb = argv[optind++];
	argc -= optind;
	argv += optind;
	if (!verb && argc != 1) {
		warnx("league: expected DIR (see \"skipbo-arena league --help\")");
		return 2;
	}
	if ((a.listen || a.cert || a.key || a.serve) && verb) {
		warnx("league %s: --listen, --cert, --key and --serve are options of \"league DIR\"",
		      verb);
		return 2;
	}
	if (a.jobs == 0 && (verb || !a.listen)) {
		warnx("league: -j 0 plays no game here: it goes with --listen, whose workers play");
		return 2;
	}
	if (a.serve && a.listen) {
		warnx("league: --serve and --listen both serve the league's pages: give --listen "
		      "alone, which shows what --serve shows and serves workers too");
		return 2;
	}
	if ((a.cert || a.key) && (!a.listen || !a.cert != !a.key)) {
		warnx("league: --cert and --key go together, with --listen: name both files for "
		      "HTTPS, or neither");
		return 2;
	}
	if (!verb)
		return league_play(argv[0], &a);
	if (strcmp(verb, "add") == 0)
		return league_add(argc, argv);
	if (strcmp(verb, "retire") == 0 || strcmp(verb, "return") == 0)
		return league_retire(argc, argv, strcmp(verb, "retire") == 0);
	return league_challenge(argc, argv, &a);
}
