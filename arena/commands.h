/*
 * commands.h - the subcommands of skipbo-arena.
 *
 * Each subcommand is `int cmd_NAME(int argc, char **argv)` with argv[0] the
 * subcommand's own name ("run", "play", ...), so it parses its options with
 * getopt_long like a program of its own. It returns the process exit status
 * (0 success, 1 a failed check or game error, 2 bad usage); main() exits with
 * it. Subcommands may print errors with warnx(3)-style messages; they never
 * call exit() themselves so that resources are released on every path.
 * Every subcommand answers --help on stdout with status 0.
 */
#ifndef SKIPBO_COMMANDS_H
#define SKIPBO_COMMANDS_H

#include <stdint.h>

/* One line of main.c's subcommand table. */
struct command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary; /* one line for `skipbo-arena --help` */
};

/* run TOURNAMENT.json [overrides]: run or resume a tournament (cmd_run.c). */
int cmd_run(int argc, char **argv);

/* play BOT BOT [BOT...]: one game or match between bot commands (cmd_play.c). */
int cmd_play(int argc, char **argv);

/* replay FILE: re-check a replay with the engine and print it (cmd_replay.c). */
int cmd_replay(int argc, char **argv);

/* report DIR...: ratings and report files (cmd_report.c). */
int cmd_report(int argc, char **argv);

/* merge OUT DIR...: the shards of a tournament made into one directory (cmd_merge.c). */
int cmd_merge(int argc, char **argv);

/* status DIR...: how far each tournament or shard directory is (cmd_status.c). */
int cmd_status(int argc, char **argv);

/* league DIR, league add|retire|challenge: a league that runs until stopped (cmd_league.c). */
int cmd_league(int argc, char **argv);

/* host DIR, host account add|revoke|list DIR ...: a hosted competition (cmd_host.c). */
int cmd_host(int argc, char **argv);

/* submit URL NAME PATH: a bot sent to a hosted competition (cmd_submit.c). */
int cmd_submit(int argc, char **argv);

/* work URL: a worker playing a hosted league's games on this machine (cmd_work.c). */
int cmd_work(int argc, char **argv);

/* serve [--listen ADDR:PORT] DIR...: the tournaments under DIR live over HTTP (cmd_serve.c). */
int cmd_serve(int argc, char **argv);

struct server;
/*
 * `run --serve ADDR:PORT` and `league --serve ADDR:PORT` (cmd names which):
 * serve the output directory dir (which may not exist yet) and print its
 * URL. -1 to go on with *out (server_stop() it), or the exit status after a
 * message.
 */
int serve_run_output(const char *cmd, const char *dir, const char *listen, struct server **out);
/* How far a tournament output directory is (status_progress(), cmd_status.c). */
struct status_progress {
	uint64_t recorded, total;  /* distinct games recorded of those its share must play */
	uint32_t shard, nshards;   /* nshards 0: the whole tournament */
	int league;                /* a league's directory: total is what is recorded */
	long eta_s;                /* seconds left at the mean rate since "started"; -1 unknown */
	long age_s;                /* since games.jsonl last grew; -1 none yet */
	char *same;                /* results_tournament.same, the caller's to free */
};

/* Read dir's tournament.json and games.jsonl into *p, as status prints it, for
 * report too. 0, or -1 with a sentence in err. */
int status_progress(const char *dir, struct status_progress *p, char *err, size_t err_size);

/* sprt BOT_A BOT_B: sequential test between two bots (cmd_sprt.c). */
int cmd_sprt(int argc, char **argv);

/* check BOT: protocol conformance check of one bot (cmd_check.c). */
int cmd_check(int argc, char **argv);

#endif
