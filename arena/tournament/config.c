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

#include "engine.h"
#include "json_strict.h"
#include "termsafe.h"
#include "sandbox.h"

#define CONFIG_FILE_MAX (16 * 1024 * 1024)

struct key_spec {
	const char *const *keys;
	const char *where; /* "" for the top level, else "rules", "bots[1]", ... */
};

static const char *const top_keys[] = { "name", "bots", "players", "deals", "duplicate",
	"rules", "time", "limits", "seed", "concurrency", "pin", "output", "stderr_cap",
	"stderr_total_cap", "sandbox", "replays", NULL };
static const char *const bot_keys[] = { "name", "command", "cwd", "env", "limits", NULL };
static const char *const rules_keys[] = { "stock_size", "partnership", "mode", NULL };
static const char *const time_keys[] = { "startup_ms", "move_ms", "game_ms", NULL };
static const char *const limits_keys[] = { "cpu_seconds", "memory_mb", "open_files",
	"processes", NULL };

static int fail(char *err, size_t err_size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
	return -EINVAL;
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

void config_strip_comments(char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (text[i] == '"') {
			for (i++; i < len && text[i] != '"'; i++)
				if (text[i] == '\\' && i + 1 < len)
					i++;
			i++;
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				text[i++] = ' ';
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') {
			text[i++] = ' ';
			text[i++] = ' ';
			while (i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/')) {
				if (text[i] != '\n')
					text[i] = ' ';
				i++;
			}
			for (int k = 0; k < 2 && i < len; k++)
				text[i++] = ' ';
		} else {
			i++;
		}
	}
}

/* "key" or "where.key" into buf. */
static const char *key_path(char *buf, size_t size, const char *where, const char *key)
{
	if (*where)
		snprintf(buf, size, "%s.%s", where, key);
	else
		snprintf(buf, size, "%s", key);
	return buf;
}

static int check_keys(const cJSON *obj, const char *where, const char *const *keys, char *err,
		      size_t err_size)
{
	char path[128], expected[256] = "";
	const cJSON *item;

	if (!cJSON_IsObject(obj))
		return fail(err, err_size, "%s: expected an object", *where ? where : "tournament file");
	cJSON_ArrayForEach(item, obj) {
		int known = 0;

		for (size_t i = 0; keys[i]; i++)
			known |= strcmp(item->string, keys[i]) == 0;
		if (known)
			continue;
		for (size_t i = 0; keys[i]; i++) {
			if (i)
				strlcat(expected, ", ", sizeof(expected));
			strlcat(expected, keys[i], sizeof(expected));
		}
		return fail(err, err_size, "%s: unknown key (expected one of: %s)",
			    key_path(path, sizeof(path), where, item->string), expected);
	}
	return 0;
}

/* An integer in [min, max] at obj.key, if present, written as one (7, not 7.0 or 7e0). */
static int get_int(const cJSON *obj, const char *where, const char *key, long long min,
		   long long max, long long *out, char *err, size_t err_size)
{
	struct json_strict_error e;
	char prefix[64];
	int64_t v;

	int ret;

	snprintf(prefix, sizeof(prefix), "%s%s", where, *where ? "." : "");
	ret = json_strict_int(cJSON_GetObjectItemCaseSensitive(obj, key), prefix, key, min, max,
			      JSON_STRICT_OPTIONAL, &v, &e);
	if (ret < 0)
		return fail(err, err_size, "%s", e.message);
	if (ret == 0)
		*out = v;
	return 0;
}

static int get_bool(const cJSON *obj, const char *where, const char *key, int *out, char *err,
		    size_t err_size)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	char path[128];

	if (!item)
		return 0;
	if (!cJSON_IsBool(item))
		return fail(err, err_size, "%s: expected true or false",
			    key_path(path, sizeof(path), where, key));
	*out = cJSON_IsTrue(item);
	return 0;
}

static int get_string(const cJSON *obj, const char *where, const char *key, const char **out,
		      char *err, size_t err_size)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	char path[128];

	if (!item)
		return 0;
	if (!cJSON_IsString(item) || !item->valuestring[0])
		return fail(err, err_size, "%s: expected a non-empty string",
			    key_path(path, sizeof(path), where, key));
	*out = item->valuestring;
	return 0;
}

/* Names become file names (logs/<bot>.stderr, results/<name>/). */
static int valid_name(const char *s)
{
	if (!*s || strlen(s) > 64 || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return 0;
	return 1;
}

static int get_limits(const cJSON *obj, const char *where, struct bot_limits *limits, char *err,
		      size_t err_size)
{
	long long v;
	int ret;

	if (!obj)
		return 0;
	if ((ret = check_keys(obj, where, limits_keys, err, err_size)) < 0)
		return ret;
	v = limits->cpu_seconds;
	if ((ret = get_int(obj, where, "cpu_seconds", 0, 1000000, &v, err, err_size)) < 0)
		return ret;
	limits->cpu_seconds = (long)v;
	v = limits->memory_mb;
	if ((ret = get_int(obj, where, "memory_mb", 0, 1 << 24, &v, err, err_size)) < 0)
		return ret;
	limits->memory_mb = (long)v;
	v = limits->open_files;
	if ((ret = get_int(obj, where, "open_files", 0, 1 << 20, &v, err, err_size)) < 0)
		return ret;
	limits->open_files = (long)v;
	v = limits->processes;
	if ((ret = get_int(obj, where, "processes", 0, 1 << 20, &v, err, err_size)) < 0)
		return ret;
	limits->processes = (long)v;
	return 0;
}

int config_resolve_command(const char *command, const char *cwd, char *out, size_t out_size,
			   char *why, size_t why_size)
{
	struct stat st;
	char *path = NULL, *dir, *save = NULL;
	int ret = -ENOENT;

	if (strchr(command, '/')) {
		while (command[0] == '.' && command[1] == '/')
			command += 2;
		if (command[0] == '/')
			ret = strlcpy(out, command, out_size) >= out_size ? -ENAMETOOLONG : 0;
		else
			ret = snprintf(out, out_size, "%s/%s", cwd, command) >= (int)out_size ?
				-ENAMETOOLONG : 0;
		if (ret < 0)
			goto out;
		ret = -ENOENT;
		if (stat(out, &st) < 0) {
			snprintf(why, why_size, "no such file: \"%s\"", out);
			goto out;
		}
		goto found;
	}
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin");
	ret = -ENOMEM;
	if (!path)
		goto out;
	ret = -ENOENT;
	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		if (snprintf(out, out_size, "%s/%s", *dir ? dir : ".", command) >= (int)out_size)
			continue;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			goto found;
	}
	snprintf(why, why_size, "command \"%s\" not found in PATH", command);
	goto out;
found:
	ret = -EACCES;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "\"%s\" is not a regular file", out);
		goto out;
	}
	if (access(out, X_OK) < 0) {
		snprintf(why, why_size, "\"%s\" is not executable", out);
		goto out;
	}
	ret = 0;
out:
	free(path);
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

static int parse_bot(const cJSON *obj, size_t index, const struct config *cfg,
		     struct config_bot *bot, char *err, size_t err_size)
{
	const cJSON *command, *env, *item;
	const char *name = NULL, *cwd = NULL;
	char where[32], resolved[PATH_MAX], why[PATH_MAX + 64];
	struct stat st;
	size_t argc, i;
	int ret;

	snprintf(where, sizeof(where), "bots[%zu]", index);
	if ((ret = check_keys(obj, where, bot_keys, err, err_size)) < 0)
		return ret;
	if ((ret = get_string(obj, where, "name", &name, err, err_size)) < 0)
		return ret;
	if (!name || !valid_name(name))
		return fail(err, err_size, "%s.name: expected a name of letters, digits, '-', '_' "
			    "or '.' (at most 64, not starting with '.')", where);
	command = cJSON_GetObjectItemCaseSensitive(obj, "command");
	argc = (size_t)cJSON_GetArraySize(command);
	if (!cJSON_IsArray(command) || argc == 0)
		return fail(err, err_size, "%s.command: expected a non-empty array of strings "
			    "(the program and its arguments)", where);
	cJSON_ArrayForEach(item, command)
		if (!cJSON_IsString(item))
			return fail(err, err_size, "%s.command: expected an array of strings", where);
	if ((ret = get_string(obj, where, "cwd", &cwd, err, err_size)) < 0)
		return ret;
	bot->name = strdup(name);
	bot->cwd = join_dir(cfg->base_dir, cwd ? cwd : ".");
	bot->argv = string_array_new(argc);
	if (!bot->name || !bot->cwd || !bot->argv)
		return -ENOMEM;
	if (stat(bot->cwd, &st) < 0 || !S_ISDIR(st.st_mode))
		return fail(err, err_size, "%s.cwd: \"%s\" is not a directory", where, bot->cwd);
	i = 0;
	cJSON_ArrayForEach(item, command) {
		const char *arg = item->valuestring;

		if (i == 0) {
			ret = config_resolve_command(arg, bot->cwd, resolved, sizeof(resolved), why,
						     sizeof(why));
			if (ret < 0)
				return fail(err, err_size, "%s.command: %s", where, why);
			arg = resolved;
		}
		if (!(bot->argv[i++] = strdup(arg)))
			return -ENOMEM;
	}
	env = cJSON_GetObjectItemCaseSensitive(obj, "env");
	if (env && !cJSON_IsObject(env))
		return fail(err, err_size, "%s.env: expected an object of strings", where);
	bot->env = string_array_new((size_t)cJSON_GetArraySize(env));
	if (!bot->env)
		return -ENOMEM;
	i = 0;
	cJSON_ArrayForEach(item, env) {
		if (!cJSON_IsString(item) || !*item->string || strchr(item->string, '='))
			return fail(err, err_size, "%s.env.%s: expected a string value and a name "
				    "without '='", where, item->string);
		if (asprintf(&bot->env[i], "%s=%s", item->string, item->valuestring) < 0) {
			bot->env[i] = NULL;
			return -ENOMEM;
		}
		i++;
	}
	bot->limits = cfg->limits;
	snprintf(where, sizeof(where), "bots[%zu].limits", index);
	return get_limits(cJSON_GetObjectItemCaseSensitive(obj, "limits"), where, &bot->limits,
			  err, err_size);
}

static int parse_rules(const cJSON *root, struct config *cfg, char *err, size_t err_size)
{
	const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
	struct game_rules gr = { 0 };
	const char *mode = "game";
	char reason[200];
	long long v = 0;
	int ret;

	if (rules) {
		if ((ret = check_keys(rules, "rules", rules_keys, err, err_size)) < 0)
			return ret;
		if ((ret = get_int(rules, "rules", "stock_size", 0, 30, &v, err, err_size)) < 0)
			return ret;
		if ((ret = get_bool(rules, "rules", "partnership", &cfg->partnership, err,
				    err_size)) < 0)
			return ret;
		if ((ret = get_string(rules, "rules", "mode", &mode, err, err_size)) < 0)
			return ret;
	}
	if (strcmp(mode, "game") && strcmp(mode, "match"))
		return fail(err, err_size, "rules.mode: expected \"game\" or \"match\", got \"%s\"",
			    mode);
	cfg->match = strcmp(mode, "match") == 0;
	gr.players = cfg->players;
	gr.stock_size = (int)v;
	gr.partnership = cfg->partnership;
	gr.dealer = cfg->players - 1;
	if (game_rules_check(&gr, reason, sizeof(reason)) < 0)
		return fail(err, err_size, "rules: impossible rules for %d players: %s",
			    cfg->players, reason);
	cfg->stock_size = gr.stock_size;
	return 0;
}

static int parse_time(const cJSON *root, struct config *cfg, char *err, size_t err_size)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "time");
	long long v;
	int ret;

	if (!t)
		return 0;
	if ((ret = check_keys(t, "time", time_keys, err, err_size)) < 0)
		return ret;
	v = cfg->startup_ms;
	if ((ret = get_int(t, "time", "startup_ms", 1, 600000, &v, err, err_size)) < 0)
		return ret;
	cfg->startup_ms = (int)v;
	v = cfg->move_ms;
	if ((ret = get_int(t, "time", "move_ms", 0, 3600000, &v, err, err_size)) < 0)
		return ret;
	cfg->move_ms = (int)v;
	v = cfg->game_ms;
	if ((ret = get_int(t, "time", "game_ms", 0, 86400000, &v, err, err_size)) < 0)
		return ret;
	cfg->game_ms = (int)v;
	if ((cfg->move_ms == 0) != (cfg->game_ms == 0))
		return fail(err, err_size, "time: move_ms and game_ms are 0 together (no limits) "
			    "or both positive");
	return 0;
}

/* seed: an integer JSON number up to 2^53 - 1, or a decimal string for all 64 bits. */
static int parse_seed(const cJSON *root, struct config *cfg, char *err, size_t err_size)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "seed");
	int64_t v;
	char *end;

	if (!s)
		return 0;
	if (cJSON_IsNumber(s) &&
	    json_strict_int(s, NULL, "seed", 0, JSON_STRICT_INT_MAX, 0, &v, NULL) == 0) {
		cfg->seed = (uint64_t)v;
		return 0;
	}
	if (cJSON_IsString(s) && isdigit((unsigned char)s->valuestring[0])) {
		errno = 0;
		cfg->seed = strtoull(s->valuestring, &end, 10);
		if (!*end && errno == 0)
			return 0;
	}
	return fail(err, err_size, "seed: expected an integer from 0 to 2^53 - 1, or a decimal "
		    "string up to 18446744073709551615");
}

static int parse_top(const cJSON *root, struct config *cfg, char *err, size_t err_size)
{
	const cJSON *bots, *item;
	const char *name = NULL, *output = NULL, *sandbox = NULL, *replays = NULL;
	enum sandbox_mode mode = SANDBOX_AUTO;
	long long v;
	int ret;

	if ((ret = check_keys(root, "", top_keys, err, err_size)) < 0)
		return ret;
	if ((ret = get_string(root, "", "name", &name, err, err_size)) < 0)
		return ret;
	if (!name || !valid_name(name))
		return fail(err, err_size, "name: expected a tournament name of letters, digits, "
			    "'-', '_' or '.'");
	if (!(cfg->name = strdup(name)))
		return -ENOMEM;
	v = cfg->players;
	if ((ret = get_int(root, "", "players", 2, ENGINE_MAX_PLAYERS, &v, err, err_size)) < 0)
		return ret;
	cfg->players = (int)v;
	v = cfg->deals;
	if ((ret = get_int(root, "", "deals", 1, 100000000, &v, err, err_size)) < 0)
		return ret;
	cfg->deals = (uint32_t)v;
	if ((ret = get_bool(root, "", "duplicate", &cfg->duplicate, err, err_size)) < 0)
		return ret;
	if ((ret = parse_rules(root, cfg, err, err_size)) < 0 ||
	    (ret = parse_time(root, cfg, err, err_size)) < 0 ||
	    (ret = get_limits(cJSON_GetObjectItemCaseSensitive(root, "limits"), "limits",
			      &cfg->limits, err, err_size)) < 0 ||
	    (ret = parse_seed(root, cfg, err, err_size)) < 0)
		return ret;
	v = cfg->concurrency;
	if ((ret = get_int(root, "", "concurrency", 1, 1024, &v, err, err_size)) < 0)
		return ret;
	cfg->concurrency = (int)v;
	if ((ret = get_bool(root, "", "pin", &cfg->pin, err, err_size)) < 0)
		return ret;
	v = (long long)cfg->stderr_cap;
	if ((ret = get_int(root, "", "stderr_cap", 0, 1LL << 40, &v, err, err_size)) < 0)
		return ret;
	cfg->stderr_cap = (size_t)v;
	v = (long long)cfg->stderr_total_cap;
	if ((ret = get_int(root, "", "stderr_total_cap", 0, 1LL << 40, &v, err, err_size)) < 0)
		return ret;
	cfg->stderr_total_cap = (size_t)v;
	if ((ret = get_string(root, "", "sandbox", &sandbox, err, err_size)) < 0)
		return ret;
	if (sandbox && sandbox_mode_parse(sandbox, &mode) < 0)
		return fail(err, err_size, "sandbox: expected \"auto\", \"on\" or \"off\", got \"%s\"",
			    sandbox);
	cfg->sandbox = sandbox ? (int)mode : SANDBOX_AUTO;
	if ((ret = get_string(root, "", "replays", &replays, err, err_size)) < 0)
		return ret;
	cfg->replays = replays ? config_replays_parse(replays) : CONFIG_REPLAYS_ALL;
	if ((int)cfg->replays < 0)
		return fail(err, err_size, "replays: expected \"all\", \"faults\" or \"none\", got \"%s\"",
			    replays);
	if ((ret = get_string(root, "", "output", &output, err, err_size)) < 0)
		return ret;
	if (output)
		cfg->output = strdup(output);
	else if (asprintf(&cfg->output, "results/%s", cfg->name) < 0)
		cfg->output = NULL;
	if (!cfg->output)
		return -ENOMEM;

	bots = cJSON_GetObjectItemCaseSensitive(root, "bots");
	if (!cJSON_IsArray(bots) || cJSON_GetArraySize(bots) < 1)
		return fail(err, err_size, "bots: expected a non-empty array of bot objects");
	cfg->nbots = (size_t)cJSON_GetArraySize(bots);
	if (cfg->nbots > CONFIG_MAX_BOTS)
		return fail(err, err_size, "bots: expected at most %d bots", CONFIG_MAX_BOTS);
	if (!(cfg->bots = calloc(cfg->nbots, sizeof(*cfg->bots))))
		return -ENOMEM;
	v = 0;
	cJSON_ArrayForEach(item, bots) {
		if ((ret = parse_bot(item, (size_t)v, cfg, &cfg->bots[v], err, err_size)) < 0)
			return ret;
		for (long long k = 0; k < v; k++)
			if (strcmp(cfg->bots[k].name, cfg->bots[v].name) == 0)
				return fail(err, err_size, "bots[%lld].name: duplicate bot name "
					    "\"%s\" (also bots[%lld])", v, cfg->bots[v].name, k);
		v++;
	}
	if (cfg->nbots < (size_t)cfg->players)
		return fail(err, err_size, "bots: expected at least %d bots for %d players per "
			    "game, got %zu", cfg->players, cfg->players, cfg->nbots);
	return 0;
}

static void set_defaults(struct config *cfg, const char *base_dir)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(cfg, 0, sizeof(*cfg));
	cfg->players = 2;
	cfg->deals = 10;
	cfg->duplicate = 1;
	cfg->startup_ms = CONFIG_DEFAULT_STARTUP_MS;
	cfg->move_ms = CONFIG_DEFAULT_MOVE_MS;
	cfg->game_ms = CONFIG_DEFAULT_GAME_MS;
	config_default_limits(&cfg->limits);
	cfg->seed = 1;
	cfg->concurrency = cpus > 0 ? (int)cpus : 1;
	cfg->pin = 1;
	cfg->stderr_cap = CONFIG_DEFAULT_STDERR_CAP;
	cfg->stderr_total_cap = CONFIG_DEFAULT_STDERR_TOTAL_CAP;
	cfg->sandbox = SANDBOX_AUTO;
	cfg->base_dir = strdup(base_dir);
}

int config_parse(const char *text, size_t len, const char *base_dir, struct config *cfg,
		 char *err, size_t err_size)
{
	struct json_strict_error e;
	char *copy = NULL;
	cJSON *root = NULL;
	int ret = -ENOMEM;

	set_defaults(cfg, base_dir);
	if (!cfg->base_dir)
		goto out;
	if (!(copy = malloc(len + 1)))
		goto out;
	memcpy(copy, text, len);
	copy[len] = '\0';
	config_strip_comments(copy, len);
	/* strict: a key given twice is refused, not silently resolved to one of them */
	if ((ret = json_strict_parse(copy, len, &root, &e)) < 0) {
		ret = ret == JSON_STRICT_ENOMEM ? -ENOMEM :
			fail(err, err_size, "line %lu, column %lu: %s", e.line, e.column, e.message);
		goto out;
	}
	ret = parse_top(root, cfg, err, err_size);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	if (ret < 0) {
		/* keys, names and paths quoted from the file: one line, no control characters */
		char *raw = strdup(err);

		if (raw)
			termsafe_copy(err, err_size, raw);
		free(raw);
		config_release(cfg);
	}
	cJSON_Delete(root);
	free(copy);
	return ret;
}

int config_load(const char *path, struct config *cfg, char *err, size_t err_size)
{
	char real[PATH_MAX], *slash, msg[CONFIG_ERR_MAX];
	char *text = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (!realpath(path, real) || !(f = fopen(real, "r"))) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		goto out;
	}
	ret = -ENOMEM;
	if (!(text = malloc(CONFIG_FILE_MAX)))
		goto out;
	len = fread(text, 1, CONFIG_FILE_MAX, f);
	ret = -EFBIG;
	if (len == CONFIG_FILE_MAX) {
		snprintf(err, err_size, "\"%s\": larger than %d bytes", path, CONFIG_FILE_MAX);
		goto out;
	}
	slash = strrchr(real, '/');
	*slash = '\0';
	ret = config_parse(text, len, slash == real ? "/" : real, cfg, msg, sizeof(msg));
	if (ret < 0)
		snprintf(err, err_size, "\"%s\": %s", path, msg);
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

static cJSON *limits_json(const struct bot_limits *l)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "cpu_seconds", (double)l->cpu_seconds);
	cJSON_AddNumberToObject(o, "memory_mb", (double)l->memory_mb);
	cJSON_AddNumberToObject(o, "open_files", (double)l->open_files);
	cJSON_AddNumberToObject(o, "processes", (double)l->processes);
	return o;
}

char *config_to_json(const struct config *cfg, int games_only)
{
	cJSON *root = cJSON_CreateObject(), *bots, *o;
	char seed[32], *text = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "name", cfg->name);
	bots = cJSON_AddArrayToObject(root, "bots");
	for (size_t i = 0; i < cfg->nbots; i++) {
		const struct config_bot *b = &cfg->bots[i];
		cJSON *bot = cJSON_CreateObject(), *argv, *env;

		cJSON_AddItemToArray(bots, bot);
		cJSON_AddStringToObject(bot, "name", b->name);
		argv = cJSON_AddArrayToObject(bot, "command");
		for (size_t k = 0; b->argv[k]; k++)
			cJSON_AddItemToArray(argv, cJSON_CreateString(b->argv[k]));
		cJSON_AddStringToObject(bot, "cwd", b->cwd);
		env = cJSON_AddObjectToObject(bot, "env");
		for (size_t k = 0; b->env[k]; k++) {
			const char *eq = strchr(b->env[k], '=');
			/* the whole name, however long */
			char *key = strndup(b->env[k], (size_t)(eq - b->env[k]));

			if (!key || !cJSON_AddStringToObject(env, key, eq + 1)) {
				free(key);
				cJSON_Delete(root);
				return NULL;
			}
			free(key);
		}
		cJSON_AddItemToObject(bot, "limits", limits_json(&b->limits));
	}
	cJSON_AddNumberToObject(root, "players", cfg->players);
	cJSON_AddNumberToObject(root, "deals", cfg->deals);
	cJSON_AddBoolToObject(root, "duplicate", cfg->duplicate);
	o = cJSON_AddObjectToObject(root, "rules");
	cJSON_AddNumberToObject(o, "stock_size", cfg->stock_size);
	cJSON_AddBoolToObject(o, "partnership", cfg->partnership);
	cJSON_AddStringToObject(o, "mode", cfg->match ? "match" : "game");
	o = cJSON_AddObjectToObject(root, "time");
	cJSON_AddNumberToObject(o, "startup_ms", cfg->startup_ms);
	cJSON_AddNumberToObject(o, "move_ms", cfg->move_ms);
	cJSON_AddNumberToObject(o, "game_ms", cfg->game_ms);
	cJSON_AddItemToObject(root, "limits", limits_json(&cfg->limits));
	/* a string keeps all 64 bits exactly */
	snprintf(seed, sizeof(seed), "%" PRIu64, cfg->seed);
	cJSON_AddStringToObject(root, "seed", seed);
	if (!games_only) {
		cJSON_AddNumberToObject(root, "concurrency", cfg->concurrency);
		cJSON_AddBoolToObject(root, "pin", cfg->pin);
		cJSON_AddStringToObject(root, "output", cfg->output);
		cJSON_AddNumberToObject(root, "stderr_cap", (double)cfg->stderr_cap);
		cJSON_AddNumberToObject(root, "stderr_total_cap", (double)cfg->stderr_total_cap);
		cJSON_AddStringToObject(root, "sandbox", sandbox_mode_name(cfg->sandbox));
		cJSON_AddStringToObject(root, "replays", config_replays_names[cfg->replays]);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

const char *const config_replays_names[] = {
	[CONFIG_REPLAYS_ALL] = "all", [CONFIG_REPLAYS_FAULTS] = "faults", [CONFIG_REPLAYS_NONE] = "none",
};

int config_replays_parse(const char *word)
{
	for (int k = CONFIG_REPLAYS_ALL; k <= CONFIG_REPLAYS_NONE; k++)
		if (strcmp(word, config_replays_names[k]) == 0)
			return k;
	return -1;
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
	free(cfg->name);
	free(cfg->output);
	free(cfg->base_dir);
	free(cfg->file);
	memset(cfg, 0, sizeof(*cfg));
}
