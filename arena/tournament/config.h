/*
 * config.h - the tournament file (arena/TOURNAMENT.md documents every key).
 *
 * The file is JSONC: JSON with line (//) and block (slash-star) comments and
 * trailing commas allowed (protocol/jsonc_strip.h; messages: jsonc.h). Everything is checked before anything
 * runs: syntax, unknown keys (with the nearest known one), types (with what
 * was found), ranges, the rules (the engine's game_rules_check), bot names (unique, safe
 * as file names) and bot commands (must exist and be executable). Relative
 * paths: a bot's cwd is relative to the tournament file's directory (default:
 * that directory); a command containing '/' is relative to the bot's cwd; a
 * bare command name is looked up in PATH, then among the bundled bots
 * (config_bundled_bot). The resolved command is stored as
 * an absolute path in argv[0].
 */
#ifndef SKIPBO_CONFIG_H
#define SKIPBO_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "bot.h"

#define CONFIG_ERR_MAX 16384
#define CONFIG_MAX_BOTS 255

struct config_bot {
	char *name;
	char **argv;          /* NULL-terminated; argv[0] resolved to an absolute path */
	char *cwd;            /* absolute */
	char **env;           /* "KEY=VALUE", NULL-terminated (possibly empty) */
	struct bot_limits limits;
};

struct config {
	char *name;
	struct config_bot *bots;
	size_t nbots;
	uint8_t *challenger;  /* a gauntlet's: non-zero for each challenger; NULL: round robin */
	int players;          /* 2..6 */
	uint32_t deals;       /* per table */
	int duplicate;        /* each deal once per seat rotation */
	int stock_size;       /* resolved (R3 default filled in) */
	int partnership;      /* R10 */
	int schedule;         /* schedule version (schedule.h); 2 pairs partnership tables every way */
	int match;            /* rules.mode "match" (R9) */
	int startup_ms, move_ms, game_ms;
	struct bot_limits limits; /* tournament defaults; each bot's limits are resolved */
	uint64_t seed;        /* the file's "seed", else drawn by config_random_seed() */
	int has_seed;         /* the file gave "seed" */
	int processes;        /* enum config_processes */
	int concurrency;      /* worker threads */
	int pin;              /* pin each worker and its bots to one CPU */
	char *output;         /* output directory */
	size_t stderr_cap;    /* bytes of stderr kept per bot process start */
	size_t stderr_total_cap; /* bytes of a bot's log at most, over the whole tournament */
	int sandbox;          /* enum sandbox_mode; once the sandbox is opened, the one in use */
	char **system;        /* the directories sandboxed bots see (sandbox_view.h); NULL: the usual */
	size_t nsystem;
	int replays;          /* enum config_replays: which games get a replay file */
	char *file;           /* absolute path of the tournament file; NULL from config_parse */
	char *base_dir;       /* absolute directory of the tournament file */
};

/* "replays": every game's, only those of games with a fault (R11), or none. */
enum config_replays { CONFIG_REPLAYS_ALL, CONFIG_REPLAYS_FAULTS, CONFIG_REPLAYS_NONE };
extern const char *const config_replays_names[]; /* "all", "faults", "none" */
/* The enum config_replays value of a word, or -1. */
int config_replays_parse(const char *word);

/*
 * "processes": a fresh process of each bot for every game (the default: no
 * bot remembers one game in the next, such as the hidden cards of a
 * duplicate deal's earlier rotation), or one process per bot and worker
 * reused game after game (for trusted bots with slow starts).
 */
enum config_processes { CONFIG_PROCESSES_FRESH, CONFIG_PROCESSES_REUSE };
extern const char *const config_processes_names[]; /* "fresh", "reuse" */
/* The enum config_processes value of a word, or -1. */
int config_processes_parse(const char *word);

/*
 * A random 64-bit seed from getrandom(2), for a tournament or a command that
 * deals when none is given: no fixed default, so no bot can rebuild a deal
 * from a seed it knows. 0, or -errno.
 */
int config_random_seed(uint64_t *out);

/* Defaults that the commands also use (options.c, cmd_play, cmd_check, cmd_sprt). */
#define CONFIG_DEFAULT_STARTUP_MS 10000
#define CONFIG_DEFAULT_MOVE_MS 1000
#define CONFIG_DEFAULT_GAME_MS 60000
#define CONFIG_DEFAULT_STDERR_CAP (1024 * 1024)
#define CONFIG_DEFAULT_STDERR_TOTAL_CAP (16 * 1024 * 1024)
/* The limits of a tournament file without them (TOURNAMENT.md); in builds with
 * SKIPBO_SANITIZED_BUILD (-DSKIPBO_SANITIZE=ON) without a memory limit. */
void config_default_limits(struct bot_limits *limits);

/*
 * Load and check the tournament file at path. Returns 0 and fills *cfg (free
 * with config_release), or a negative code with *cfg zeroed and in err (give
 * it CONFIG_ERR_MAX bytes) every error found, up to JSONC_ERRORS_MAX, each as
 *   PATH:LINE:COLUMN: KEY: message
 *     the offending line
 *     a caret under the place
 * (e.g. "t.json:4:5: time.move_ms: expected an integer from 0 to 3600000,
 * found the string \"ten\""), whatever is quoted from the file escaped
 * (termsafe.h); a syntax error stops the reading, so it comes alone. An
 * empty file, a directory and an unreadable file get a line of their own
 * (-EISDIR for a directory, -errno when unreadable).
 */
int config_load(const char *path, struct config *cfg, char *err, size_t err_size);

/*
 * A file of another kind built on the tournament file (a league's
 * league.jsonc, league_config.h): one more top-level key, and a check of the
 * whole object by the key's owner, which reports through jsonc_error() (jsonc.h)
 * so that its errors come with the others, each at its FILE:LINE:COLUMN.
 * With an extension "bots" may be empty or fewer than "players".
 * parse returns 0 or a negative errno (-EINVAL after errors).
 */
struct jsonc_errors;
struct config_extension {
	const char *key;
	int (*parse)(void *ctx, const cJSON *root, struct jsonc_errors *e);
	void *ctx;
};

/* config_load() of a file with ext's key too (ext NULL: config_load). */
int config_load_extended(const char *path, const struct config_extension *ext,
			 struct config *cfg, char *err, size_t err_size);

/* Same from text in memory; base_dir resolves relative paths. The errors are
 * the messages alone, one a line, without position or excerpt (a syntax
 * error: "line L, column C: message"). */
int config_parse(const char *text, size_t len, const char *base_dir, struct config *cfg,
		 char *err, size_t err_size);

/*
 * The resolved tournament as JSON text (every default filled in), owned by
 * the caller. With games_only, the keys that do not change any game
 * (concurrency, pin, output, stderr_cap, stderr_total_cap, sandbox) are left
 * out: two tournaments with equal games_only texts play the same games
 * ("processes" is kept: a resume plays on under the conditions of the
 * games already recorded). NULL
 * without memory.
 */
char *config_to_json(const struct config *cfg, int games_only);

/*
 * The bundled bot name (e.g. "skipbo-easy") built or installed with this
 * program: <build>/bots/NAME for <build>/arena/skipbo-arena, else NAME in the
 * program's own directory (an installed prefix's bin/). 0 with its absolute
 * path in out, or -errno. dir, when not NULL, receives where it looked (for
 * a message), found or not.
 */
int config_bundled_bot(const char *name, char *out, size_t out_size, char *dir, size_t dir_size);

/* Resolve a bot command (see above) into an absolute path in out: a bare name
 * is looked up in PATH, then among the bundled bots (config_bundled_bot). 0
 * or -errno with why, which says where it looked and what to do. */
int config_resolve_command(const char *command, const char *cwd, char *out, size_t out_size,
			   char *why, size_t why_size);

void config_release(struct config *cfg);

struct sandbox_setup;

/*
 * cfg's sandbox mode and "system" into *setup. The bots and hidden paths
 * are the caller's.
 */
void config_sandbox_setup(const struct config *cfg, struct sandbox_setup *setup);

#endif
