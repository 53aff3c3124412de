/*
 * cmd_host.c - `skipbo-arena host DIR`: one process hosting a competition,
 * its league (league_run.h) in a thread, the pipeline of its submissions
 * (pipeline.h), the challenges authors ask (challenge_play.h), and the
 * server of `serve` with the intake's routes, and the lease desk that hands
 * its deals to workers on other machines (desk_serve.h); and `skipbo-arena host account`: its accounts
 * (accounts.h). All of its state is files in DIR, so a stop or a kill -9
 * loses nothing acknowledged and the same command resumes (arena/HOSTING.md).
 * A token is printed once, on stdout alone, so `... > token-file` keeps it
 * and nothing else.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "accounts.h"
#include "challenge_play.h"
#include "commands.h"
#include "desk_serve.h"
#include "host_config.h"
#include "league_config.h"
#include "league_run.h"
#include "names.h"
#include "options.h"
#include "pipeline.h"
#include "server.h"

static const char host_usage[] =
	"usage: skipbo-arena host [--listen ADDR:PORT] [--cert FILE --key FILE] [-j N] DIR\n"
	"       skipbo-arena host account add [--worker [--trusted] | --organiser] DIR NAME\n"
	"       skipbo-arena host account revoke DIR NAME\n"
	"       skipbo-arena host account list DIR\n"
	"\n"
	"Host the competition in DIR (arena/HOSTING.md): its league (DIR/league.jsonc,\n"
	"arena/LEAGUE.md), the submissions of its authors taken over HTTP, built,\n"
	"checked and entered, the dashboard and API of serve, and each author's page\n"
	"(/author). Settings in DIR/host.jsonc. Prints the URL, then runs until\n"
	"interrupted (Ctrl-C or SIGTERM: exit status 0); the same command resumes.\n"
	"\n"
	"  --listen ADDR:PORT    the address (default " SERVE_DEFAULT_LISTEN "; port 0: any\n"
	"                        free port; [ADDR6]:PORT for IPv6)\n"
	"  --cert FILE, --key FILE   HTTPS with this certificate and key (PEM)\n"
	"  -j, --jobs N          the league's games at once on this machine (default:\n"
	"                        its concurrency; 0: none, only workers play)\n"
	"\n"
	"The accounts, kept in DIR/accounts.jsonl (mode 0600):\n"
	"\n"
	"  account add     make an account and print its token on stdout, once: only\n"
	"                  its SHA-256 is stored, so a lost token is replaced by a\n"
	"                  revoke and a new add\n"
	"  account revoke  refuse the account's token from now on\n"
	"  account list    the accounts: name, role, state and times (never a hash)\n"
	"\n"
	"options:\n"
	"      --worker          the account of a machine that works for the host,\n"
	"                        not of an author (account add)\n"
	"      --trusted         a worker given private bots, its games re-played\n"
	"                        by the host only in a sample (account add --worker)\n"
	"      --organiser       an organiser's account: sees every submission and\n"
	"                        its logs, and disables them (account add)\n"
	"  -h, --help            this text\n"
	"\n"
	"Names are " NAMES_RULE ".\n"
	"Exit status: 0 on success (host: after an interrupt), 1 when refused or on\n"
	"an error, 2 on bad usage.\n";

static const struct option host_options[] = {
	{ "worker", no_argument, NULL, 'w' },
	{ "organiser", no_argument, NULL, 'o' },
	{ "trusted", no_argument, NULL, 't' },
	{ "listen", required_argument, NULL, 'l' },
	{ "cert", required_argument, NULL, 'c' },
	{ "key", required_argument, NULL, 'k' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	OPTIONS_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 },
};

struct host_args {
	enum account_role role;   /* of account add */
	bool role_given, trusted;
	const char *listen, *cert, *key;
	long long jobs;           /* -1: not given */
};

static int account_add(const char *dir, const char *name, enum account_role role,
		       bool trusted)
{
	char err[1024], token[ACCOUNTS_TOKEN_LEN + 1];
	struct accounts as;

	if (accounts_open(&as, dir, err, sizeof(err)) < 0) {
		warnx("host account add: %s", err);
		return 1;
	}
	if (accounts_add(&as, name, role, trusted, token, err, sizeof(err)) < 0) {
		warnx("host account add: %s", err);
		accounts_release(&as);
		return 1;
	}
	printf("%s\n", token);
	fflush(stdout);
	explicit_bzero(token, sizeof(token));
	fprintf(stderr, "skipbo-arena: host account add: %s%s \"%s\" added; the token above is "
		"shown only this once: hand it to its owner, who keeps it in a file only they "
		"can read (chmod 600), never on a command line\n", trusted ? "trusted " : "",
		account_role_name(role), name);
	accounts_release(&as);
	return 0;
}

static int account_revoke(const char *dir, const char *name)
{
	struct accounts as;
	char err[1024];
	int ret = 1;

	if (accounts_open(&as, dir, err, sizeof(err)) < 0) {
		warnx("host account revoke: %s", err);
		return 1;
	}
	if (accounts_revoke(&as, name, err, sizeof(err)) < 0)
		warnx("host account revoke: %s", err);
	else {
		printf("revoked \"%s\": its token is refused from now on\n", name);
		ret = 0;
	}
	accounts_release(&as);
	return ret;
}

static int account_list(const char *dir)
{
	struct accounts as;
	char err[1024];

	if (accounts_open(&as, dir, err, sizeof(err)) < 0) {
		warnx("host account list: %s", err);
		return 1;
	}
	if (as.n == 0)
		printf("no accounts in %s (skipbo-arena host account add %s NAME adds one)\n", dir,
		       dir);
	else
		printf("%-24s %-9s %-8s %-21s %s\n", "name", "role", "state", "added", "revoked");
	for (size_t i = 0; i < as.n; i++) {
		const struct account *a = &as.a[i];

		char role[16];

		snprintf(role, sizeof(role), "%s%s", account_role_name(a->role),
			 a->trusted ? "+" : "");
		printf("%-24s %-9s %-8s %-21s %s\n", a->name, role, a->revoked ? "revoked" : "live",
		       a->added, a->revoked ? a->revoked : "-");
	}
	accounts_release(&as);
	return 0;
}

/* `host account VERB ...` with argv after "account". */
static int host_account(int argc, char **argv, const struct host_args *a)
{
	const char *verb = argc > 0 ? argv[0] : "";
	int want = strcmp(verb, "list") == 0 ? 2 : 3;

	if (strcmp(verb, "add") && strcmp(verb, "revoke") && strcmp(verb, "list")) {
		warnx("host account: expected add, revoke or list (see \"skipbo-arena host "
		      "--help\")");
		return 2;
	}
	if (argc != want) {
		warnx("host account %s: expected DIR%s", verb, want == 3 ? " NAME" : "");
		return 2;
	}
	if (a->role_given && strcmp(verb, "add")) {
		warnx("host account %s: --%s is an option of \"account add\" only", verb,
		      account_role_name(a->role));
		return 2;
	}
	if (a->trusted && (strcmp(verb, "add") || a->role != ACCOUNT_WORKER)) {
		warnx("host account %s: --trusted goes with \"account add --worker\" only", verb);
		return 2;
	}
	if (a->listen || a->cert || a->key || a->jobs >= 0) {
		warnx("host account %s: --listen, --cert, --key and -j are options of \"host "
		      "DIR\"", verb);
		return 2;
	}
	if (strcmp(verb, "add") == 0)
		return account_add(argv[1], argv[2], a->role, a->trusted);
	if (strcmp(verb, "revoke") == 0)
		return account_revoke(argv[1], argv[2]);
	return account_list(argv[1]);
}

/* The league's thread: league_run until a stop is asked or the league ends. */
static void *league_thread(void *arg)
{
	static char err[CONFIG_ERR_MAX];
	const struct league_run_options *opt = arg;
	enum league_stop why;

	if (league_run(opt, &why, err, sizeof(err)) < 0)
		fprintf(stderr, "skipbo-arena: host: the league stopped: %s%s", err,
			err[0] && err[strlen(err) - 1] == '\n' ? "" : "\n");
	else if (why != LEAGUE_STOP_REQUEST)
		printf("host: the league has stopped (%s); submissions and pages go on\n",
		       why == LEAGUE_STOP_SEPARATED ? "every adjacent pair is apart at 95%" :
		       why == LEAGUE_STOP_GAMES ? "max_games reached" : "max_minutes reached");
	fflush(stdout);
	return NULL;
}

/* DIR's settings and its league's sandbox, read before anything starts: 0, or 1 after
 * saying why. */
static int host_check(const char *dir, struct pipeline_setup *setup)
{
	static char err[CONFIG_ERR_MAX];
	struct league_config lc;

	if (host_config_read(dir, &setup->config, err, sizeof(err)) < 0) {
		warnx("host: %s", err);
		return 1;
	}
	if (league_config_load(dir, &lc, err, sizeof(err)) < 0) {
		fprintf(stderr, "skipbo-arena: host: %s%s(a hosted competition is a league: "
			"arena/LEAGUE.md has its league.jsonc)\n", err,
			err[0] && err[strlen(err) - 1] == '\n' ? "" : "\n");
		return 1;
	}
	setup->sandbox = (enum sandbox_mode)lc.base.sandbox;
	league_config_release(&lc);
	return 0;
}

static int host_run(const char *dir, const struct host_args *a)
{
	/* -1 with a desk: the league plays nothing here, only on workers */
	struct league_run_options opt = { dir, a->jobs < 0 ? 0 : a->jobs == 0 ? -1 :
					  (int)a->jobs, stdout, NULL };
	struct pipeline_setup setup = { .dir = dir, .arena = "/proc/self/exe" };
	struct desk_serve_setup serve = { .cmd = "host", .dir = dir, .listen = a->listen,
					  .cert = a->cert, .key = a->key,
					  .config = &setup.config };
	struct desk_serve ds = { 0 };
	struct challenge_play *challenges = NULL;
	char err[4096];
	pthread_t league;
	sigset_t stop;
	int ret = 1, sig;

	if (host_check(dir, &setup))
		return 1;
	/* blocked before any thread starts, so that only sigwait takes them */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	if (pipeline_start(&setup, &serve.pipeline, err, sizeof(err)) < 0 ||
	    challenge_play_start(dir, setup.arena, &challenges, err, sizeof(err)) < 0 ||
	    desk_serve_start(&serve, &ds, err, sizeof(err)) < 0) {
		warnx("host: %s", err);
		goto out;
	}
	opt.desk = ds.desk;
	if ((errno = pthread_create(&league, NULL, league_thread, &opt))) {
		warn("host: the league's thread");
		goto out;
	}
	printf("hosting %s at %s (authors: %sauthor; Ctrl-C stops)\n", dir,
	       server_url(ds.server), server_url(ds.server));
	fflush(stdout);
	sigwait(&stop, &sig);
	printf("host: stopping: the games in progress finish, builds in flight are redone at "
	       "the next start\n");
	fflush(stdout);
	/* asked again until it ends: a league (or its segment) that was just starting
	 * clears the request it had not seen yet */
	for (;;) {
		struct timespec until;

		league_request_stop();
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pthread_timedjoin_np(league, NULL, &until) != ETIMEDOUT)
			break;
	}
	ret = 0;
out:
	/* after the league's thread: nothing reaches the desk now */
	desk_serve_stop(&ds);
	challenge_play_stop(challenges);
	pipeline_stop(serve.pipeline);
	return ret;
}

int cmd_host(int argc, char **argv)
{
	struct host_args a = { .role = ACCOUNT_AUTHOR, .jobs = -1 };
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "hj:", host_options, NULL)) != -1) {
		switch (c) {
		case 'w':
		case 'o':
			if (a.role_given) {
				warnx("host account add: --worker or --organiser, not both");
				return 2;
			}
			a.role = c == 'w' ? ACCOUNT_WORKER : ACCOUNT_ORGANISER;
			a.role_given = true;
			break;
		case 't':
			a.trusted = true;
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
		case 'j':
			if (options_number("-j", optarg, 0, 1024, &a.jobs) < 0)
				return 2;
			break;
		case 'h':
			fputs(host_usage, stdout);
			return 0;
		case OPTIONS_VERSION:
			return options_print_version();
		default:
			return options_bad_usage(host_usage, host_options, argv);
		}
	}
	if (optind < argc && strcmp(argv[optind], "account") == 0)
		return host_account(argc - optind - 1, argv + optind + 1, &a);
	if (optind + 1 != argc) {
		warnx("host: expected DIR, the competition's directory, or \"account\" (see "
		      "\"skipbo-arena host --help\")");
		return 2;
	}
	if (a.role_given || a.trusted) {
		warnx("host: --%s is an option of \"account add\"", a.role_given ?
		      account_role_name(a.role) : "trusted");
		return 2;
	}
	if (!a.cert != !a.key) {
		warnx("host: --cert and --key go together: name both files for HTTPS, or neither");
		return 2;
	}
	return host_run(argv[optind], &a);
}
