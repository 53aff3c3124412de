/*
 * cmd_serve.c - `skipbo-arena serve [--listen ADDR:PORT] DIR...`: every
 * tournament and shard set under the directories, finished or running,
 * shown live over HTTP, read only (serve/server.h).
 */
#include <err.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "server.h"

static const char serve_usage[] =
	"usage: skipbo-arena serve [--listen ADDR:PORT] DIR...\n"
	"\n"
	"Serve every tournament, shard set and league under the directories (each found\n"
	"by its tournament.json), finished or still running, over HTTP, read only: an\n"
	"index, a live page per tournament and per bot, every game in the replay viewer,\n"
	"and a JSON API (arena/README.md, \"serve\"). A league's page shows its entries'\n"
	"states, refused edits, ranking with its anchors and rating history\n"
	"(arena/LEAGUE.md, \"Watching it live\"). Prints the URL, then serves until\n"
	"interrupted (Ctrl-C or SIGTERM).\n"
	"\n"
	"  --listen ADDR:PORT   the address to listen on (default " SERVE_DEFAULT_LISTEN ";\n"
	"                       port 0: any free port; [ADDR6]:PORT for IPv6)\n"
	"\n"
	"Exit status: 0 after an interrupt, 1 when it cannot serve, 2 bad usage.\n";

int serve_run_output(const char *cmd, const char *dir, const char *listen, struct server **out)
{
	char errbuf[4096];

	if (server_start(&dir, 1, listen, true, out, errbuf, sizeof(errbuf)) < 0) {
		warnx("%s: --serve: %s", cmd, errbuf);
		return 1;
	}
	printf("serving %s at %s\n", dir, server_url(*out));
	fflush(stdout);
	return -1;
}

int cmd_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		OPTIONS_VERSION_ENTRY,
		{ NULL, 0, NULL, 0 },
	};
	const char *listen = NULL;
	struct server *s;
	char errbuf[4096];
	sigset_t stop;
	int c, sig;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+hl:", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(serve_usage, stdout);
			return 0;
		}
		if (c == OPTIONS_VERSION)
			return options_print_version();
		if (c == 'l') {
			listen = optarg;
			continue;
		}
		fputs(serve_usage, stderr);
		return 2;
	}
	if (optind >= argc) {
		warnx("serve: expected at least one DIR (see \"skipbo-arena serve --help\")");
		return 2;
	}
	/* blocked before the server's threads start, so that only sigwait takes them */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	if (server_start((const char *const *)argv + optind, (size_t)(argc - optind), listen, false,
			 &s, errbuf, sizeof(errbuf)) < 0) {
		warnx("serve: %s", errbuf);
		return 1;
	}
	printf("serving %s at %s (Ctrl-C stops)\n", argc - optind > 1 ? "the directories" :
	       argv[optind], server_url(s));
	fflush(stdout);
	sigwait(&stop, &sig);
	server_stop(s);
	return 0;
}
