/*
 * cmd_work.c - `skipbo-arena work [options] URL`: a worker of a league on
 * many machines (arena/WORKERS.md): asks the host at URL for leases, plays
 * them, sends the results back (arena/work/work.h).
 */
#include <curl/curl.h>
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accounts.h"
#include "commands.h"
#include "options.h"
#include "work.h"

static const char work_usage[] =
	"usage: skipbo-arena work [options] URL\n"
	"\n"
	"Play a hosted league's games on this machine (arena/WORKERS.md): ask the host\n"
	"at URL for a lease of games, fetch the bot bundles it lacks, play the games in\n"
	"sandboxes, send each game's record and replay back, and ask again, until\n"
	"SIGTERM or Ctrl-C (then the games in flight are finished and sent, and the\n"
	"lease is released).\n"
	"\n"
	"      --token-file FILE a worker account's token (host account add --worker;\n"
	"                        else the variable SKIPBO_TOKEN; never on the command line)\n"
	"  -j, --jobs N          games at once (default: the CPUs this process may use)\n"
	"      --cache DIR       the bot bundles fetched (default: as root\n"
	"                        /var/cache/skipbo-arena/bundles, else\n"
	"                        $XDG_CACHE_HOME/skipbo-arena/bundles, else\n"
	"                        ~/.cache/skipbo-arena/bundles); as root every\n"
	"                        directory above it must be open to all (o+rx)\n"
	"      --cacert FILE     the CA certificate(s) an https:// host's certificate is\n"
	"                        checked against (default: the system's)\n"
	"      --once            play one lease, then exit\n"
	OPTIONS_SANDBOX_HELP
	"                        (default: the league's setting)\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 stopped by a signal (or --once done), 1 the host refused this\n"
	"worker (unknown token, suspended, another version: the host's reason is\n"
	"printed) or the worker could not go on, 2 bad usage (a URL that is no http://\n"
	"or https:// one).\n";

enum { OPT_TOKEN_FILE = OPTIONS_OWN, OPT_CACHE, OPT_CACERT, OPT_ONCE };

static const struct option work_options[] = {
	{ "token-file", required_argument, NULL, OPT_TOKEN_FILE },
	{ "jobs", required_argument, NULL, 'j' },
	{ "concurrency", required_argument, NULL, 'j' },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "cacert", required_argument, NULL, OPT_CACERT },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ NULL, 0, NULL, 0 },
};

struct work_args {
	const char *token_file, *cache, *cacert;
	long long jobs;
	int once;
};

static int work_option(void *ctx, int c, const char *arg)
{
	struct work_args *a = ctx;

	switch (c) {
	case OPT_TOKEN_FILE:
		a->token_file = arg;
		return 0;
	case 'j':
		return options_number("-j", arg, 1, 4096, &a->jobs);
	case OPT_CACHE:
		a->cache = arg;
		return 0;
	case OPT_CACERT:
		a->cacert = arg;
		return 0;
	case OPT_ONCE:
		a->once = 1;
		return 0;
	default:
		return -1;
	}
}

static void on_stop_signal(int sig)
{
	(void)sig;
	work_request_stop();
}

/* The CPUs this process may run on (its affinity: a Slurm step's, a container's). */
static int cpus_here(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

#define WORK_ROOT_CACHE "/var/cache/skipbo-arena/bundles"

/* --cache, else (root) WORK_ROOT_CACHE, else the XDG cache directory's, into out: 0, or 2 after the message. */
static int cache_dir(const char *given, char *out, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (given)
		n = snprintf(out, size, "%s", given);
	else if (geteuid() == 0)
		/* root's home is out of reach of the sandbox's uids that run the bots */
		n = snprintf(out, size, "%s", WORK_ROOT_CACHE);
	else if (xdg && xdg[0] == '/')
		n = snprintf(out, size, "%s/skipbo-arena/bundles", xdg);
	else if (home && *home)
		n = snprintf(out, size, "%s/.cache/skipbo-arena/bundles", home);
	else {
		warnx("work: no cache directory: neither XDG_CACHE_HOME nor HOME is set; name "
		      "one with --cache DIR");
		return 2;
	}
	if (n < 0 || (size_t)n >= size) {
		warnx("work: --cache: the path is too long");
		return 2;
	}
	return options_make_dirs("work: --cache", out) < 0 ? 2 : 0;
}

int cmd_work(int argc, char **argv)
{
	struct work_args a = { 0 };
	struct options_command cmd = { work_usage, "j:", work_options, OPTIONS_SANDBOX,
				       work_option, &a };
	struct options_common common;
	struct work_settings set = { 0 };
	struct sigaction sa = { 0 };
	char token[ACCOUNTS_TOKEN_LEN + 64], cache[PATH_MAX], err[1024];
	int ret;

	options_common_init(&common, 0);
	if ((ret = options_parse(&cmd, argc, argv, &common)) >= 0)
		return ret;
	if (argc - optind != 1) {
		warnx("work: expected the host's URL (see \"skipbo-arena work --help\")");
		return 2;
	}
	if ((ret = options_read_token("work", a.token_file, token, sizeof(token))) ||
	    (ret = cache_dir(a.cache, cache, sizeof(cache))))
		return ret;
	if (a.cacert && access(a.cacert, R_OK) < 0) {
		warn("work: --cacert \"%s\"", a.cacert);
		return 2;
	}
	set.url = argv[optind];
	set.token = token;
	set.cacert = a.cacert;
	set.cache = cache;
	set.cpus = cpus_here();
	set.jobs = a.jobs ? (int)a.jobs : set.cpus;
	set.sandbox = common.sandbox;
	set.once = a.once;
	set.log = stderr;
	set.open_sandbox = options_open_config_sandbox;
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	ret = work_run(&set, err, sizeof(err));
	curl_global_cleanup();
	explicit_bzero(token, sizeof(token));
	if (ret < 0) {
		warnx("work: %s", err);
		/* a URL that is none is bad usage */
		return ret == -EINVAL ? 2 : 1;
	}
	return 0;
}
