/*
 * main.c - skipbo-arena: the subcommand table, global options, and the only
 * place that exits.
 */
#include <err.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "own_delay.h"
#include "options.h"
#include "reaper.h"

static const struct command commands[] = {
	{ "run", cmd_run, "run or resume a round-robin tournament" },
	{ "play", cmd_play, "play one game or match between bot commands" },
	{ "replay", cmd_replay, "re-check a replay file and print it turn by turn" },
	{ "report", cmd_report, "rank the bots of one or more tournament directories" },
	{ "merge", cmd_merge, "merge the shards of a tournament into one directory" },
	{ "status", cmd_status, "how far each tournament or shard directory is" },
	{ "serve", cmd_serve, "show the tournaments under directories live over HTTP" },
	{ "sprt", cmd_sprt, "play game pairs between two bots until an SPRT decides" },
	{ "league", cmd_league, "run a league that takes new bots while it plays" },
	{ "host", cmd_host, "host a competition: its league, submissions, pages and accounts" },
	{ "submit", cmd_submit, "send a bot to a hosted competition" },
	{ "work", cmd_work, "play a hosted league's games on this machine" },
	{ "check", cmd_check, "check a bot against the protocol and the time rules" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: skipbo-arena [--help] [--version] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n\"skipbo-arena COMMAND --help\" describes each command; "
		"\"skipbo-arena COMMAND --version\"\nprints the version, as --version does.\n");
}

int main(int argc, char **argv)
{
	/* a bot that closes its pipe must give EPIPE, not kill the arena */
	signal(SIGPIPE, SIG_IGN);
	/* no process of the same user may read our memory (the deck) through /proc or ptrace */
	prctl(PR_SET_DUMPABLE, 0);
	/* orphans a bot leaves behind are re-parented to us and reaped at once (reaper.h);
	 * before any thread starts, as it blocks SIGCHLD for all of them */
	if (reaper_start() < 0)
		warn("cannot reap what bots leave behind");
	/* a stop of the arena must not be charged to the bot that was thinking */
	own_delay_install();
	if (argc < 2) {
		usage(stderr);
		exit(2);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		exit(0);
	}
	if (!strcmp(argv[1], "--version"))
		exit(options_print_version());
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		exit(commands[i].main(argc - 1, argv + 1));
	}
	warnx("unknown command \"%s\" (see \"skipbo-arena --help\")", argv[1]);
	exit(2);
}
