/*
 * options.h - command-line parsing shared by the subcommands: value parsers,
 * and options_parse(), the getopt_long loop of every command that plays
 * games (run, play, check, sprt). The shared options (seed, stock, time
 * control, resource limits) are parsed here, with one name, range and
 * message each; a command lists only its own.
 *
 * Every refusal prints a warnx(3)-style message naming the option and what
 * was expected.
 */
#ifndef SKIPBO_OPTIONS_H
#define SKIPBO_OPTIONS_H

#include <getopt.h>
#include <stddef.h>

#include "bot.h"
#include "sandbox.h"

/* A decimal integer in [min, max]. 0, or -1 after the message. */
int options_number(const char *option, const char *arg, long long min, long long max,
		   long long *out);

/* A 64-bit seed: decimal, or 0x-prefixed hexadecimal. 0, or -1 after the message. */
int options_seed(const char *option, const char *arg, unsigned long long *out);

/* The environment variable that gives a seed off the command line. */
#define OPTIONS_SEED_ENV "SKIPBO_SEED"

/*
 * Split a command string on spaces and tabs into a NULL-terminated argv
 * owned by the caller (free each and the array). No shell: no variables, no
 * globs; quotes as in sh, for a path with spaces: '...' keeps everything
 * inside, "..." too but for \" and \\, and a backslash outside quotes keeps
 * the next character ("'my bots/bot.py' --level 3", "my\ bots/bot.py"). NULL
 * if the string is empty or has an unclosed quote, or without memory.
 */
char **options_split(const char *command);
void options_free_argv(char **argv);

/*
 * Create directory path and any missing directory above it (mkdir -p), for
 * an output directory a command was asked to write. 0, or -1 after a
 * warnx(3) message naming option (e.g. "report: -o") and the directory.
 */
int options_make_dirs(const char *option, const char *path);

/*
 * The token of a hosted competition's account (submit, work): the first line
 * of file, or the variable SKIPBO_TOKEN when file is NULL; never the command
 * line, which every user of the machine can read. 0, or the exit status 2
 * after a message naming cmd and what to do.
 */
int options_read_token(const char *cmd, const char *file, char *token, size_t size);

/*
 * --version, which every command takes among its options (cutechess-cli and
 * fastchess users add it anywhere): the getopt_long value of its entry, and
 * what it does: "skipbo-arena VERSION" on stdout, returning the exit status 0.
 */
#define OPTIONS_VERSION 0x1ff
#define OPTIONS_VERSION_ENTRY { "version", no_argument, NULL, OPTIONS_VERSION }
int options_print_version(void);

/*
 * The program as it was run (main's argv[0]: "skipbo-arena" from PATH, or a
 * path such as "./build/arena/skipbo-arena"), for the commands printed to be
 * run again: they then work where this one did.
 */
const char *options_program(void);

/* Groups of shared options; a command takes those it names in options_command.groups. */
enum options_group {
	OPTIONS_SEED = 1 << 0,    /* --seed N (decimal or 0x hex, 64 bits), --seed-file FILE,
	                             and SKIPBO_SEED in the environment */
	OPTIONS_STOCK = 1 << 1,   /* --stock N, 1 to 30 */
	OPTIONS_TIME = 1 << 2,    /* --move-ms, --game-ms, --startup-ms */
	OPTIONS_LIMITS = 1 << 3,  /* --cpu-seconds, --memory-mb, --open-files, --processes */
	OPTIONS_SANDBOX = 1 << 4, /* --sandbox auto|on|sealed|off */
	OPTIONS_BOT_STDERR = 1 << 5, /* --quiet-bots, --stderr DIR */
	OPTIONS_ENV = 1 << 6,     /* --env NAME=VALUE, repeatable */
};

/* The first getopt_long value free for a command's own long-only options. */
#define OPTIONS_OWN 0x200

/* The shared options' help lines, for the commands' usage texts. */
#define OPTIONS_TIME_HELP \
	"      --move-ms N       per-move limit (default 1000)\n" \
	"      --game-ms N       per-game time bank (default 60000)\n" \
	"      --startup-ms N    hello deadline after a bot starts (default 10000)\n"
#define OPTIONS_LIMITS_HELP \
	"      --cpu-seconds N   per-bot CPU time limit in seconds (0 = none)\n" \
	"      --memory-mb N     per-bot address-space limit in MiB (0 = none)\n" \
	"      --open-files N    per-bot open-files limit (0 = unchanged)\n" \
	"      --processes N     per-bot process limit (0 = unchanged)\n"
#define OPTIONS_SANDBOX_HELP \
	"      --sandbox MODE    auto (default: sealed where the machine allows it, else\n" \
	"                        on, saying why, else off, saying what is missing), on\n" \
	"                        (refuse to run without it), sealed (on, and what a bot\n" \
	"                        sees copied to memory and kept cached: no bot can mark the\n" \
	"                        kernel's caches for another) or off (SECURITY.md)\n"

#define OPTIONS_BOT_STDERR_HELP \
	"      --quiet-bots      do not show the bots' stderr (shown by default, each line\n" \
	"                        as [NAME seat N], control characters escaped)\n" \
	"      --stderr DIR      keep each bot's stderr in DIR/NAME.stderr instead of\n" \
	"                        showing it, each line tagged [GAME pid PID]\n"
#define OPTIONS_ENV_HELP(whose) \
	"      --env NAME=VALUE  add NAME to " whose " environment (repeatable). In a\n" \
	"                        sandbox a bot's environment is PATH, HOME=/tmp,\n" \
	"                        TMPDIR=/tmp and LANG only, plus these; with --sandbox\n" \
	"                        off it is the arena's, plus these\n"

/* The most --env options a command takes. */
#define OPTIONS_ENV_MAX 64

/* Where a seed came from. */
enum options_seed_source {
	OPTIONS_SEED_NONE,        /* not given: the command draws one (options_resolve_seed) */
	OPTIONS_SEED_OPTION,      /* --seed N: on the command line, in /proc/PID/cmdline */
	OPTIONS_SEED_FILE,        /* --seed-file FILE */
	OPTIONS_SEED_ENVIRONMENT, /* SKIPBO_SEED */
};

/* The values of the shared options. */
struct options_common {
	unsigned long long seed;
	int has_seed;                         /* given: by --seed, --seed-file or SKIPBO_SEED */
	enum options_seed_source seed_source;
	long long stock;                      /* 0: not given (the R3 default) */
	long long startup_ms, move_ms, game_ms;
	struct bot_limits limits;
	int sandbox;                          /* enum sandbox_mode, -1: not given */
	const char *const *system;            /* the tournament's "system" (not owned), or NULL */
	size_t nsystem;
	const char *time_limit_given;         /* "--move-ms" or "--game-ms" when given, else NULL */
	int quiet_bots;                       /* --quiet-bots */
	const char *stderr_dir;               /* --stderr DIR, NULL: not given */
	char *env[OPTIONS_ENV_MAX + 1];       /* --env NAME=VALUE in order, NULL-ended: argv's
					       * strings, for bot_spec.env */
	int nenv;
};

/* Show the bots' stderr on the terminal: neither --quiet-bots nor --stderr. */
#define OPTIONS_SHOW_BOTS(common) (!(common)->quiet_bots && !(common)->stderr_dir)

/*
 * With --stderr DIR: create DIR if need be and point each spec's stderr_path
 * at DIR/NAME.stderr, the strings in paths[i] (the caller frees each, NULL
 * or not). Without it, nothing. 0, or -1 after the message.
 */
int options_stderr_files(const struct options_common *common, struct bot_spec *specs,
			 size_t nspecs, char **paths);

/*
 * --no-timeout (a command's own option) with a time limit given is a
 * contradiction: 0, or -1 after a message naming both options.
 */
int options_check_no_timeout(const char *command, int no_timeout,
			     const struct options_common *common);

/*
 * A seed for a command that deals, when none was given: drawn with
 * getrandom(2) (all 64 bits; no fixed default, so no bot can rebuild a deal
 * from a known seed), has_seed stays 0. 0, or -1 after the message.
 */
int options_resolve_seed(struct options_common *common);

/*
 * The warning for a seed given with --seed to a run whose bots are
 * sandboxed: a bot may read the arena's command line (/proc/PID/cmdline).
 * Nothing otherwise.
 */
void options_warn_seed(const struct options_common *common, const struct sandbox *sandbox);

/*
 * Start values. With defaults: time CONFIG_DEFAULT_* and limits
 * config_default_limits() (config.h), the values of a tournament file
 * without those keys. Without: -1 in every time and limit field, meaning
 * "not given" (run keeps the tournament file's). stock 0 and has_seed 0 in
 * both: a seed comes from --seed, --seed-file or SKIPBO_SEED (read, then
 * removed from the environment so that no bot inherits it, by
 * options_parse() of a command that takes OPTIONS_SEED), else
 * options_resolve_seed().
 */
void options_common_init(struct options_common *common, int defaults);

/* Each limit of common that is not -1 replaces the one in *limits. */
void options_apply_limits(const struct options_common *common, struct bot_limits *limits);

/*
 * Put the bots in sandboxes as common.sandbox says (not given: auto), for
 * the bot commands: opens *out (sandbox.h), prints its note with warnx(3)
 * (and options_warn_seed()'s), and sets each spec's sandbox (NULL when off). hide: paths no bot may see.
 * Returns -1 to go on, or the exit status 1 when the sandbox is on but not
 * available (the message printed). Close *out after the bots are stopped.
 */
int options_open_sandbox(const struct options_common *common, struct bot_spec *specs,
			 size_t nspecs, const char *const *hide, size_t nhide,
			 struct sandbox **out);

struct config;

/* common's --sandbox (when given) and limits (each that is not -1) onto tournament cfg and
 * each of its bots. */
void options_apply_to_config(const struct options_common *common, struct config *cfg);

/*
 * options_open_sandbox() for the bots of tournament cfg (struct config,
 * config.h) in the mode cfg->sandbox names, without options_warn_seed();
 * cfg->sandbox becomes the mode in use, which tournament.json records.
 * Returns -1 to go on, or the exit status 1 after the message.
 */
int options_open_config_sandbox(struct config *cfg, const char *const *hide, size_t nhide,
				struct sandbox **out);

/*
 * After getopt_long refused an option of argv (it has printed why): "did you
 * mean --X?" when the refused long option is near one of table's names
 * (NULL-ended), then usage's first paragraph (the synopsis lines) and where
 * the whole help is, on stderr. Returns 2, the exit status of bad usage.
 */
int options_bad_usage(const char *usage, const struct option *table, char *const *argv);

/* A command's options, for options_parse(). */
struct options_command {
	const char *usage;             /* --help on stdout; on stderr after bad usage */
	const char *shortopts;         /* its own short options ("j:o:q"); -h is added */
	const struct option *own;      /* its own long options, { NULL } ended; may be NULL */
	unsigned groups;               /* the enum options_group it takes */
	/* One of its own options: getopt_long's value and optarg. 0, or -1 for
	 * bad usage after a warnx(3) message. */
	int (*own_option)(void *ctx, int c, const char *arg);
	void *ctx;
};

/*
 * Parse argv (argv[0] the command's name) with getopt_long, stopping at the
 * first operand or "--": shared options into *common (start it with
 * options_common_init()), the command's own through own_option, -h,
 * --help and --version. Returns -1 to go on, with optind at the first operand, or the exit
 * status: 0 after --help or --version, 1 without memory, 2 for bad usage (the message
 * printed).
 */
int options_parse(const struct options_command *cmd, int argc, char **argv,
		  struct options_common *common);

#endif
