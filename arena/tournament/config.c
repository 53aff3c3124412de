/*
 * config.c - reading and checking the tournament file.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config_get.h"
#include "engine.h"
#include "json_strict.h"
#include "jsonc.h"
#include "jsonc_strip.h"
#include "names.h"
#include "referee.h"
#include "termsafe.h"
#include "sandbox.h"
#include "schedule.h"

#define CONFIG_FILE_MAX (16 * 1024 * 1024)

struct key_spec {
	const char *const *keys;
	const char *where; /* "" for the top level, else "rules", "bots[1]", ... */
};

/* "programs" and "started" are what a run records in tournament.json (programs.h,
 * results.h); read back from there they are ignored: each run hashes the programs
 * again, and a directory keeps the start it recorded first. */
static const char *const top_keys[] = { "name", "bots", "players", "deals", "duplicate",
	"rules", "time", "limits", "seed", "concurrency", "pin", "output", "stderr_cap",
	"stderr_total_cap", "sandbox", "$schema", "format", "challengers", "programs", "replays",
	"started", "processes", "schedule", "system", NULL };
static const char *const bot_keys[] = { "name", "command", "cwd", "env", "limits", NULL };
static const char *const rules_keys[] = { "stock_size", "partnership", "mode", NULL };
static const char *const time_keys[] = { "startup_ms", "move_ms", "game_ms", NULL };
static const char *const limits_keys[] = { "cpu_seconds", "memory_mb", "open_files",
	"processes", NULL };

/* The first of ret and next that is a failure; -ENOMEM wins, as nothing more can be read. */
static int worst(int ret, int next)
{
	return ret == -ENOMEM || next == -ENOMEM ? -ENOMEM : ret < 0 ? ret : next;
}

void config_default_limits(struct bot_limits *limits)
{
	limits->cpu_seconds = 3600;
#ifdef SKIPBO_SANITIZED_BUILD
	limits->memory_mb = 0; /* ASan reserves terabytes of address space: no RLIMIT_AS fits it */
#else
	limits->memory_mb = 2048;
#endif
	limits->open_files = 256;
	limits->processes = 256;
}

static int get_limits(const cJSON *obj, const char *where, struct bot_limits *limits,
		      struct jsonc_errors *e)
{
	long long v[4] = { limits->cpu_seconds, limits->memory_mb, limits->open_files,
			   limits->processes };
	int ret;

	if (!obj)
		return 0;
	ret = config_get_keys(obj, where, limits_keys, e);
	if (!cJSON_IsObject(obj))
		return ret;
	ret = worst(ret, config_get_int(obj, where, "cpu_seconds", 0, 1000000, &v[0], e));
	ret = worst(ret, config_get_int(obj, where, "memory_mb", 0, 1 << 24, &v[1], e));
	ret = worst(ret, config_get_int(obj, where, "open_files", 0, 1 << 20, &v[2], e));
	ret = worst(ret, config_get_int(obj, where, "processes", 0, 1 << 20, &v[3], e));
	limits->cpu_seconds = (long)v[0];
	limits->memory_mb = (long)v[1];
	limits->open_files = (long)v[2];
	limits->processes = (long)v[3];
	return ret;
}

static char **string_array_new(size_t n)
{
	return calloc(n + 1, sizeof(char *));
}

static void string_array_free(char **a)
{
	if (!a)
		return;
	for (size_t i = 0; a[i]; i++)
		free(a[i]);
	free(a);
}

/* An absolute, normalised-enough directory: base/rel unless rel is absolute. */
static char *join_dir(const char *base, const char *rel)
{
	char *out = NULL;

	if (rel[0] == '/')
		return strdup(rel);
	if (strcmp(rel, ".") == 0)
		return strdup(base);
	if (asprintf(&out, "%s/%s", base, rel) < 0)
		return NULL;
	return out;
}

/* bots[index].command: the program resolved (config_resolve_command) and its arguments. */
static int parse_command(const cJSON *obj, const char *where, struct config_bot *bot,
			 struct jsonc_errors *e)
{
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(obj, "command"), *item;
	char path[64], resolved[PATH_MAX], why[PATH_MAX + 64], what[64];
	size_t argc = (size_t)cJSON_GetArraySize(command), i = 0;
	int ret;

	config_get_path(path, sizeof(path), where, "command");
	if (!cJSON_IsArray(command) || argc == 0)
		return jsonc_error(e, path, "expected a non-empty array of strings (the program and "
				   "its arguments), found %s", !command ? "nothing" :
				   cJSON_IsArray(command) ? "an empty array" :
				   config_get_found(command, what, sizeof(what)));
	cJSON_ArrayForEach(item, command) {
		if (!cJSON_IsString(item)) {
			snprintf(path, sizeof(path), "%s.command[%zu]", where, i);
			return jsonc_error(e, path, "expected a string, found %s",
					   config_get_found(item, what, sizeof(what)));
		}
		i++;
	}
	if (!(bot->argv = string_array_new(argc)))
		return -ENOMEM;
	i = 0;
	cJSON_ArrayForEach(item, command) {
		const char *arg = item->valuestring;

		if (i == 0) {
			ret = config_resolve_command(arg, bot->cwd, resolved, sizeof(resolved), why,
						     sizeof(why));
			if (ret == -ENOMEM)
				return ret;
			if (ret < 0)
				return jsonc_error(e, path, "%s", why);
			arg = resolved;
		}
		if (!(bot->argv[i++] = strdup(arg)))
			return -ENOMEM;
	}
	return 0;
}

static int parse_env(const cJSON *obj, const char *where, struct config_bot *bot,
		     struct jsonc_errors *e)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(obj, "env"), *item;
	char path[128], what[64];
	size_t i = 0;

	if (env && !cJSON_IsObject(env))
		return jsonc_error(e, config_get_path(path, sizeof(path), where, "env"),
				   "expected an object of strings, found %s",
				   config_get_found(env, what, sizeof(what)));
	if (!(bot->env = string_array_new((size_t)cJSON_GetArraySize(env))))
		return -ENOMEM;
	cJSON_ArrayForEach(item, env) {
		if (!cJSON_IsString(item) || !*item->string || strchr(item->string, '=')) {
			snprintf(path, sizeof(path), "%s.env.%s", where, item->string);
			return jsonc_error(e, path, "expected a string value and a name without '='");
		}
		if (asprintf(&bot->env[i], "%s=%s", item->string, item->valuestring) < 0) {
			bot->env[i] = NULL;
			return -ENOMEM;
		}
		i++;
	}
	return 0;
}

static int parse_bot(const cJSON *obj, size_t index, const struct config *cfg,
		     struct config_bot *bot, struct jsonc_errors *e)
{
	const char *name = NULL, *cwd = NULL;
	char where[32], path[64];
	struct stat st;
	int ret;

	snprintf(where, sizeof(where), "bots[%zu]", index);
	ret = config_get_keys(obj, where, bot_keys, e);
	if (!cJSON_IsObject(obj))
		return ret;
	ret = worst(ret, config_get_string(obj, where, "name", &name, e));
	if (name && !names_valid(name))
		ret = jsonc_error(e, config_get_path(path, sizeof(path), where, "name"),
				  "expected a name of " NAMES_RULE ", found \"%.80s\"", name);
	else if (!name && !cJSON_GetObjectItemCaseSensitive(obj, "name"))
		ret = jsonc_error(e, where, "no \"name\": every bot needs one");
	ret = worst(ret, config_get_string(obj, where, "cwd", &cwd, e));
	bot->name = strdup(name ? name : "");
	bot->cwd = join_dir(cfg->base_dir, cwd ? cwd : ".");
	if (!bot->name || !bot->cwd)
		return -ENOMEM;
	if (stat(bot->cwd, &st) < 0 || !S_ISDIR(st.st_mode))
		ret = jsonc_error(e, config_get_path(path, sizeof(path), where, cwd ? "cwd" : ""),
				  "\"%s\" is not a directory", bot->cwd);
	else
		ret = worst(ret, parse_command(obj, where, bot, e));
	ret = worst(ret, parse_env(obj, where, bot, e));
	bot->limits = cfg->limits;
	snprintf(path, sizeof(path), "%s.limits", where);
	return worst(ret, get_limits(cJSON_GetObjectItemCaseSensitive(obj, "limits"), path,
				     &bot->limits, e));
}

static int parse_rules(const cJSON *root, struct config *cfg, struct jsonc_errors *e)
{
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
	struct game_rules gr = { 0 };
	const char *mode = "game";
	char reason[200];
	long long v = 0;
	int ret = 0;

	if (rules) {
		ret = config_get_keys(rules, "rules", rules_keys, e);
		if (!cJSON_IsObject(rules))
			return ret;
		ret = worst(ret, config_get_int(rules, "rules", "stock_size", 0, 30, &v, e));
		ret = worst(ret, config_get_bool(rules, "rules", "partnership", &cfg->partnership, e));
		ret = worst(ret, config_get_string(rules, "rules", "mode", &mode, e));
	}
	if (strcmp(mode, "game") && strcmp(mode, "match"))
		return jsonc_error(e, "rules.mode", "expected \"game\" or \"match\", found \"%.80s\"",
				   mode);
	cfg->match = strcmp(mode, "match") == 0;
	if (ret < 0)
		return ret;
	gr.players = cfg->players;
	gr.stock_size = (int)v;
	gr.partnership = cfg->partnership;
	gr.dealer = referee_dealer(cfg->players);
	if (game_rules_check(&gr, reason, sizeof(reason)) < 0)
		return jsonc_error(e, "rules", "impossible rules for %d players: %s", cfg->players,
				   reason);
	cfg->stock_size = gr.stock_size;
	return 0;
}

static int parse_time(const cJSON *root, struct config *cfg, struct jsonc_errors *e)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "time");
	long long v[3] = { cfg->startup_ms, cfg->move_ms, cfg->game_ms };
	int ret;

	if (!t)
		return 0;
	ret = config_get_keys(t, "time", time_keys, e);
	if (!cJSON_IsObject(t))
		return ret;
	ret = worst(ret, config_get_int(t, "time", "startup_ms", 1, 600000, &v[0], e));
	ret = worst(ret, config_get_int(t, "time", "move_ms", 0, 3600000, &v[1], e));
	ret = worst(ret, config_get_int(t, "time", "game_ms", 0, 86400000, &v[2], e));
	cfg->startup_ms = (int)v[0];
	cfg->move_ms = (int)v[1];
	cfg->game_ms = (int)v[2];
	if (ret == 0 && (cfg->move_ms == 0) != (cfg->game_ms == 0))
		return jsonc_error(e, "time", "move_ms and game_ms are 0 together (no limits) or "
				   "both positive");
	return ret;
}

/* seed: an integer JSON number up to 2^53 - 1, or a decimal string for all 64 bits. */
static int parse_seed(const cJSON *root, struct config *cfg, struct jsonc_errors *e)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "seed");
	char what[64];
	int64_t v;
	char *end;

	if (!s)
		return 0;
	if (cJSON_IsNumber(s) &&
	    json_strict_int(s, NULL, "seed", 0, JSON_STRICT_INT_MAX, 0, &v, NULL) == 0) {
		cfg->seed = (uint64_t)v;
		cfg->has_seed = 1;
		return 0;
	}
	if (cJSON_IsString(s) && isdigit((unsigned char)s->valuestring[0])) {
		errno = 0;
		cfg->seed = strtoull(s->valuestring, &end, 10);
		cfg->has_seed = 1;
		if (!*end && errno == 0)
			return 0;
	}
	return jsonc_error(e, "seed", "expected an integer from 0 to 2^53 - 1, or a decimal string "
			   "up to 18446744073709551615, found %s", config_get_found(s, what, sizeof(what)));
}

/* "format": "round-robin" (default) or "gauntlet" with "challengers": bot names. */
static int parse_format(const cJSON *root, struct config *cfg, struct jsonc_errors *e)
{
	const cJSON *names = cJSON_GetObjectItemCaseSensitive(root, "challengers"), *item;
	const char *format = "round-robin";
	char path[48], what[64];
	size_t index = 0;
	int ret;

	if ((ret = config_get_string(root, "", "format", &format, e)) < 0)
		return ret;
	if (strcmp(format, "round-robin") && strcmp(format, "gauntlet"))
		return jsonc_error(e, "format", "expected \"round-robin\" or \"gauntlet\", found "
				   "\"%.80s\"", format);
	if (strcmp(format, "gauntlet") != 0) {
		if (names)
			return jsonc_error(e, "challengers", "only for \"format\": \"gauntlet\"");
		return 0;
	}
	if (!cJSON_IsArray(names) || cJSON_GetArraySize(names) < 1)
		return jsonc_error(e, names ? "challengers" : "format", "%sexpected a non-empty "
				   "array of bot names (a gauntlet plays its challengers against the "
				   "field)", names ? "" : "challengers: ");
	if (!(cfg->challenger = calloc(cfg->nbots, 1)))
		return -ENOMEM;
	cJSON_ArrayForEach(item, names) {
		size_t b = 0;

		/* a bot refused above has no name */
		while (cJSON_IsString(item) && b < cfg->nbots &&
		       !(cfg->bots[b].name && strcmp(cfg->bots[b].name, item->valuestring) == 0))
			b++;
		snprintf(path, sizeof(path), "challengers[%zu]", index);
		if (!cJSON_IsString(item) || b == cfg->nbots)
			return jsonc_error(e, path, "expected the name of a bot in \"bots\", found %s",
					   config_get_found(item, what, sizeof(what)));
		if (cfg->challenger[b])
			return jsonc_error(e, path, "\"%s\" named twice", item->valuestring);
		cfg->challenger[b] = 1;
		index++;
	}
	if (index == cfg->nbots)
		return jsonc_error(e, "challengers", "every bot is a challenger, so there is no field "
				   "(a round robin plays every bot against every other)");
	return 0;
}

/* "system": the directories a sandboxed bot sees instead of /usr, /etc, /bin, ...
 * (sandbox_view.h), each a directory named by its canonical path. */
static int parse_system(const cJSON *root, struct config *cfg, struct jsonc_errors *e)
{
	const cJSON *sys = cJSON_GetObjectItemCaseSensitive(root, "system"), *item;
	char path[64], what[64], real[PATH_MAX];
	struct stat st;

	if (!sys)
		return 0;
	if (!cJSON_IsArray(sys) || cJSON_GetArraySize(sys) == 0)
		return jsonc_error(e, "system", "expected a non-empty array of directories, "
				   "found %s", config_get_found(sys, what, sizeof(what)));
	if (!(cfg->system = string_array_new((size_t)cJSON_GetArraySize(sys))))
		return -ENOMEM;
	cJSON_ArrayForEach(item, sys) {
		snprintf(path, sizeof(path), "system[%zu]", cfg->nsystem);
		if (!cJSON_IsString(item) || item->valuestring[0] != '/')
			return jsonc_error(e, path, "expected an absolute path, found %s",
					   config_get_found(item, what, sizeof(what)));
		if (!realpath(item->valuestring, real) || stat(real, &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			return jsonc_error(e, path, "\"%.200s\" is no directory on this machine",
					   item->valuestring);
		if (strcmp(real, item->valuestring) != 0)
			return jsonc_error(e, path, "\"%.200s\" is not the directory's own path: "
					   "name \"%.200s\"", item->valuestring, real);
		if (!(cfg->system[cfg->nsystem++] = strdup(real)))
			return -ENOMEM;
	}
	return 0;
}

/* The top-level keys but the bots and the format. */
static int parse_settings(const cJSON *root, struct config *cfg, struct jsonc_errors *e)
{
	const char *name = NULL, *output = NULL, *sandbox = NULL, *replays = NULL;
	const char *processes = NULL;
	enum sandbox_mode mode = SANDBOX_AUTO;
	long long v[6] = { cfg->players, cfg->deals, cfg->concurrency, (long long)cfg->stderr_cap,
			   (long long)cfg->stderr_total_cap, cfg->schedule };
	int ret;

	ret = config_get_string(root, "", "name", &name, e);
	if (name && !names_valid(name))
		ret = jsonc_error(e, "name", "expected a tournament name of letters, digits, '-', "
				  "'_' or '.', found \"%.80s\"", name);
	else if (!name && !cJSON_GetObjectItemCaseSensitive(root, "name"))
		ret = jsonc_error(e, "", "no \"name\": the tournament needs one (it names the "
				  "output directory)");
	if (!(cfg->name = strdup(name ? name : "")))
		return -ENOMEM;
	ret = worst(ret, config_get_int(root, "", "players", 2, ENGINE_MAX_PLAYERS, &v[0], e));
	ret = worst(ret, config_get_int(root, "", "deals", 1, 100000000, &v[1], e));
	ret = worst(ret, config_get_int(root, "", "concurrency", 1, 1024, &v[2], e));
	ret = worst(ret, config_get_int(root, "", "stderr_cap", 0, 1LL << 40, &v[3], e));
	ret = worst(ret, config_get_int(root, "", "stderr_total_cap", 0, 1LL << 40, &v[4], e));
	cfg->players = (int)v[0];
	cfg->deals = (uint32_t)v[1];
	cfg->concurrency = (int)v[2];
	cfg->stderr_cap = (size_t)v[3];
	cfg->stderr_total_cap = (size_t)v[4];
	ret = worst(ret, config_get_int(root, "", "schedule", 1, SCHEDULE_VERSION, &v[5], e));
	cfg->schedule = (int)v[5];
	ret = worst(ret, config_get_bool(root, "", "duplicate", &cfg->duplicate, e));
	ret = worst(ret, config_get_bool(root, "", "pin", &cfg->pin, e));
	ret = worst(ret, parse_rules(root, cfg, e));
	ret = worst(ret, parse_time(root, cfg, e));
	ret = worst(ret, get_limits(cJSON_GetObjectItemCaseSensitive(root, "limits"), "limits",
				    &cfg->limits, e));
	ret = worst(ret, parse_seed(root, cfg, e));
	ret = worst(ret, config_get_string(root, "", "sandbox", &sandbox, e));
	if (sandbox && sandbox_mode_parse(sandbox, &mode) < 0)
		ret = jsonc_error(e, "sandbox", "expected \"auto\", \"on\", \"sealed\" or \"off\", found "
				  "\"%.80s\"", sandbox);
	cfg->sandbox = sandbox ? (int)mode : SANDBOX_AUTO;
	ret = worst(ret, parse_system(root, cfg, e));
	ret = worst(ret, config_get_string(root, "", "processes", &processes, e));
	cfg->processes = processes ? config_processes_parse(processes) : CONFIG_PROCESSES_FRESH;
	if (cfg->processes < 0)
		ret = jsonc_error(e, "processes", "expected \"fresh\" or \"reuse\", found "
				  "\"%.80s\"", processes);
	ret = worst(ret, config_get_string(root, "", "replays", &replays, e));
	cfg->replays = replays ? config_replays_parse(replays) : CONFIG_REPLAYS_ALL;
	if (cfg->replays < 0)
		ret = jsonc_error(e, "replays", "expected \"all\", \"faults\" or \"none\", "
				  "found \"%.80s\"", replays);
	ret = worst(ret, config_get_string(root, "", "output", &output, e));
	if (output)
		cfg->output = strdup(output);
	else if (asprintf(&cfg->output, "results/%s", cfg->name) < 0)
		cfg->output = NULL;
	return cfg->output ? ret : -ENOMEM;
}

static int parse_top(const cJSON *root, const struct config_extension *ext, struct config *cfg,
		     struct jsonc_errors *e)
{
	enum { NTOP = sizeof(top_keys) / sizeof(top_keys[0]) };
	const char *keys[NTOP + 1];
	const cJSON *bots, *item;
	char what[64], path[32];
	size_t i = 0;
	int ret;

	memcpy(keys, top_keys, sizeof(top_keys));
	keys[NTOP - 1] = ext ? ext->key : NULL;
	keys[NTOP] = NULL;
	ret = config_get_keys(root, "", keys, e);
	if (!cJSON_IsObject(root))
		return ret;
	if (ext)
		ret = worst(ret, ext->parse(ext->ctx, root, e));
	ret = worst(ret, parse_settings(root, cfg, e));
	if (ret == -ENOMEM)
		return ret;
	bots = cJSON_GetObjectItemCaseSensitive(root, "bots");
	/* a league's bots may come later, and its anchors play too */
	if (!cJSON_IsArray(bots) || (cJSON_GetArraySize(bots) < 1 && !ext))
		return jsonc_error(e, bots ? "bots" : "", "%sexpected a non-empty array of bot "
				   "objects, found %s", bots ? "" : "bots: ", !bots ? "nothing" :
				   cJSON_IsArray(bots) ? "an empty array" :
				   config_get_found(bots, what, sizeof(what)));
	cfg->nbots = (size_t)cJSON_GetArraySize(bots);
	if (cfg->nbots > CONFIG_MAX_BOTS)
		return jsonc_error(e, "bots", "expected at most %d bots", CONFIG_MAX_BOTS);
	if (!(cfg->bots = calloc(cfg->nbots + 1, sizeof(*cfg->bots))))
		return -ENOMEM;
	cJSON_ArrayForEach(item, bots) {
		int one = parse_bot(item, i, cfg, &cfg->bots[i], e);

		if (one == -ENOMEM)
			return one;
		for (size_t k = 0; one == 0 && k < i; k++)
			if (cfg->bots[k].name && strcmp(cfg->bots[k].name, cfg->bots[i].name) == 0) {
				snprintf(path, sizeof(path), "bots[%zu].name", i);
				one = jsonc_error(e, path, "duplicate bot name \"%s\" (also bots[%zu])",
						  cfg->bots[i].name, k);
			}
		ret = worst(ret, one);
		i++;
	}
	if (!ext && cfg->nbots < (size_t)cfg->players)
		ret = jsonc_error(e, "bots", "expected at least %d bots for %d players per game, "
				  "found %zu", cfg->players, cfg->players, cfg->nbots);
	return worst(ret, parse_format(root, cfg, e));
}

static void set_defaults(struct config *cfg, const char *base_dir)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(cfg, 0, sizeof(*cfg));
	cfg->players = 2;
	cfg->deals = 10;
	cfg->duplicate = 1;
	cfg->schedule = SCHEDULE_VERSION;
	cfg->startup_ms = CONFIG_DEFAULT_STARTUP_MS;
	cfg->move_ms = CONFIG_DEFAULT_MOVE_MS;
	cfg->game_ms = CONFIG_DEFAULT_GAME_MS;
	config_default_limits(&cfg->limits);
	cfg->concurrency = cpus > 0 ? (int)cpus : 1;
	cfg->pin = 1;
	cfg->stderr_cap = CONFIG_DEFAULT_STDERR_CAP;
	cfg->stderr_total_cap = CONFIG_DEFAULT_STDERR_TOTAL_CAP;
	cfg->sandbox = SANDBOX_AUTO;
	cfg->base_dir = strdup(base_dir);
}

/* A syntax error at the parser's offset (not at a key path): one, as nothing after it can be read. */
static void syntax_error(const char *text, size_t len, const char *file,
			 const struct json_strict_error *why, char *err, size_t err_size)
{
	unsigned long line, column;

	jsonc_line_column(text, len, why->offset, &line, &column);
	if (file)
		snprintf(err, err_size, "%s:%lu:%lu: ", file, line, column);
	else
		snprintf(err, err_size, "line %lu, column %lu: ", line, column);
	termsafe_copy(err + strlen(err), err_size - strlen(err), why->message);
	if (file) {
		strlcat(err, "\n", err_size);
		jsonc_excerpt(text, len, why->offset, err, err_size);
	}
}

/*
 * Parse and check text; errors are formatted for file (NULL: messages alone)
 * into err. The contract is config_parse's.
 */
static int parse_named(const char *text, size_t len, const char *base_dir, const char *file,
		       const struct config_extension *ext, struct config *cfg, char *err,
		       size_t err_size)
{
	struct json_strict_error why;
	struct jsonc_errors *e = calloc(1, sizeof(*e));
	char *copy = NULL;
	cJSON *root = NULL;
	int ret = -ENOMEM;

	set_defaults(cfg, base_dir);
	if (!cfg->base_dir || !e || !(copy = malloc(len + 1)))
		goto out;
	memcpy(copy, text, len);
	copy[len] = '\0';
	jsonc_strip(copy, len);
	if (strspn(copy, " \t\r\n") == len) {
		ret = jsonc_error(e, "", "%s: expected a JSON object ({ ... }) describing the "
				  "tournament (arena/TOURNAMENT.md)", len ? "nothing but comments" :
				  "empty file");
		goto out;
	}
	/* strict: a key given twice is refused, not silently resolved to one of them */
	ret = json_strict_parse(copy, len, &root, &why);
	if (ret == JSON_STRICT_EDUPKEY &&
	    (root = cJSON_ParseWithLengthOpts(copy, len + 1, NULL, 1)) != NULL) {
		char message[JSONC_MESSAGE_MAX];

		/* well-formed but for that: the rest is checked too, with the first of the two */
		if (file)
			snprintf(message, sizeof(message), "%s", why.message);
		else
			snprintf(message, sizeof(message), "line %lu, column %lu: %s", why.line,
				 why.column, why.message);
		jsonc_error_at(e, why.offset, message);
		ret = worst(parse_top(root, ext, cfg, e), -EINVAL);
		goto out;
	}
	if (ret < 0) {
		ret = ret == JSON_STRICT_ENOMEM ? -ENOMEM : -EINVAL;
		if (ret == -EINVAL)
			syntax_error(text, len, file, &why, err, err_size);
		goto out;
	}
	ret = parse_top(root, ext, cfg, e);
	/* no fixed default: a seed nobody gave is one nobody knows */
	if (ret == 0 && !cfg->has_seed && (ret = config_random_seed(&cfg->seed)) < 0)
		snprintf(err, err_size, "cannot draw a random seed: %s", strerror(-ret));
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	else if (ret < 0 && e->n)
		jsonc_errors_format(e, text, len, file, err, err_size);
	if (ret < 0)
		config_release(cfg);
	cJSON_Delete(root);
	free(copy);
	free(e);
	return ret;
}

int config_parse(const char *text, size_t len, const char *base_dir, struct config *cfg,
		 char *err, size_t err_size)
{
	return parse_named(text, len, base_dir, NULL, NULL, cfg, err, err_size);
}

int config_load(const char *path, struct config *cfg, char *err, size_t err_size)
{
	return config_load_extended(path, NULL, cfg, err, err_size);
}

int config_load_extended(const char *path, const struct config_extension *ext,
			 struct config *cfg, char *err, size_t err_size)
{
	char real[PATH_MAX], *slash;
	char *text = NULL;
	struct stat st;
	size_t len = 0;
	FILE *f = NULL;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "%s: a directory, not a tournament file (a JSON object "
			 "described in arena/TOURNAMENT.md)", path);
		return -EISDIR;
	}
	if (!realpath(path, real) || !(f = fopen(real, "r"))) {
		ret = -errno;
		snprintf(err, err_size, "%s: cannot read the tournament file: %s", path,
			 strerror(errno));
		goto out;
	}
	ret = -ENOMEM;
	if (!(text = malloc(CONFIG_FILE_MAX)))
		goto out;
	len = fread(text, 1, CONFIG_FILE_MAX, f);
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, err_size, "%s: cannot read the tournament file: %s", path,
			 strerror(errno));
		goto out;
	}
	ret = -EFBIG;
	if (len == CONFIG_FILE_MAX) {
		snprintf(err, err_size, "%s: larger than %d bytes", path, CONFIG_FILE_MAX);
		goto out;
	}
	slash = strrchr(real, '/');
	*slash = '\0';
	ret = parse_named(text, len, slash == real ? "/" : real, path, ext, cfg, err, err_size);
	*slash = '/';
	if (ret == 0 && !(cfg->file = strdup(real))) {
		config_release(cfg);
		snprintf(err, err_size, "out of memory");
		ret = -ENOMEM;
	}
out:
	if (f)
		fclose(f);
	free(text);
	return ret;
}

void config_release(struct config *cfg)
{
	for (size_t i = 0; cfg->bots && i < cfg->nbots; i++) {
		free(cfg->bots[i].name);
		string_array_free(cfg->bots[i].argv);
		free(cfg->bots[i].cwd);
		string_array_free(cfg->bots[i].env);
	}
	free(cfg->bots);
	free(cfg->challenger);
	string_array_free(cfg->system);
	free(cfg->name);
	free(cfg->output);
	free(cfg->base_dir);
	free(cfg->file);
	memset(cfg, 0, sizeof(*cfg));
}

void config_sandbox_setup(const struct config *cfg, struct sandbox_setup *setup)
{
	setup->mode = (enum sandbox_mode)cfg->sandbox;
	setup->system = (const char *const *)cfg->system;
	setup->nsystem = cfg->nsystem;
}
