/*
 * options.c - command-line value parsing (contract in options.h).
 */
#include "options.h"

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "jsonc.h"
#include "referee.h"
#include "termsafe.h"

int options_print_version(void)
{
	printf("%s\n", REFEREE_ARENA_NAME);
	return 0;
}

const char *options_program(void)
{
	return program_invocation_name && *program_invocation_name ? program_invocation_name :
		"skipbo-arena";
}

int options_number(const char *option, const char *arg, long long min, long long max,
		   long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(arg, &end, 10);
	if (!*arg || *end || errno || *out < min || *out > max) {
		warnx("%s: expected an integer from %lld to %lld, got \"%s\"", option, min, max,
		      arg);
		return -1;
	}
	return 0;
}

int options_seed(const char *option, const char *arg, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (!*arg || *arg == '-' || *end || errno) {
		warnx("%s: expected an unsigned 64-bit integer, got \"%s\"", option, arg);
		return -1;
	}
	return 0;
}

/*
 * The next word of *p into word (as long as the rest of the command), quotes
 * and backslashes taken as sh takes them; *p moved past it. 1 for a word, 0
 * at the end, -1 for an unclosed quote.
 */
static int next_word(const char **p, char *word)
{
	const char *s = *p + strspn(*p, " \t");
	char quote = 0;
	size_t n = 0;

	if (!*s)
		return 0;
	for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
		if (quote == '\'' ? *s == '\'' : quote == '"' ? *s == '"' : 0) {
			quote = 0;
		} else if (!quote && (*s == '\'' || *s == '"')) {
			quote = *s;
		} else if (*s == '\\' && quote != '\'' && s[1] &&
			   (!quote || s[1] == '"' || s[1] == '\\')) {
			word[n++] = *++s;
		} else {
			word[n++] = *s;
		}
	}
	word[n] = '\0';
	*p = s;
	return quote ? -1 : 1;
}

char **options_split(const char *command)
{
	char **argv = NULL, *word = malloc(strlen(command) + 1);
	size_t n = 0;
	int got;

	if (!word)
		return NULL;
	while ((got = next_word(&command, word)) > 0) {
		char **grown = reallocarray(argv, n + 2, sizeof(*argv));

		if (!grown || !(grown[n] = strdup(word))) {
			got = -1;
			argv = grown ? grown : argv;
			break;
		}
		argv = grown;
		argv[++n] = NULL;
	}
	if (got < 0 && argv) {
		argv[n] = NULL;
		options_free_argv(argv);
		argv = NULL;
	}
	free(word);
	return argv;
}

void options_free_argv(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int options_make_dirs(const char *option, const char *path)
{
	char *copy = strdup(path);
	int ret = 0;

	if (!copy) {
		warnx("out of memory");
		return -1;
	}
	/* each directory above first, then path itself */
	for (char *slash = strchr(copy + 1, '/'); ret == 0; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (copy[0] && mkdir(copy, 0777) < 0 && errno != EEXIST) {
			warn("%s \"%s\": cannot create \"%s\"", option, path, copy);
			ret = -1;
		}
		if (!slash)
			break;
		*slash = '/';
	}
	free(copy);
	return ret;
}

/* The shared options, in the order of options.h's groups. */
enum shared_id {
	SHARED_SEED, SHARED_SEED_FILE, SHARED_STOCK, SHARED_MOVE_MS, SHARED_GAME_MS, SHARED_STARTUP_MS,
	SHARED_CPU, SHARED_MEMORY, SHARED_FILES, SHARED_PROCESSES, SHARED_SANDBOX,
	SHARED_QUIET_BOTS, SHARED_STDERR, SHARED_ENV, NSHARED
};

/* getopt_long's value for shared option id: below OPTIONS_OWN, above any character. */
#define SHARED_VALUE(id) (0x100 + (id))
/* getopt_long's value for --concurrency in a command without -j */
#define ONE_AT_A_TIME (OPTIONS_VERSION - 1)

static const struct shared_option {
	const char *name;   /* the long option, without "--" */
	unsigned group;
	long long min, max; /* numbers only */
	int flag;           /* 1: takes no argument */
} shared[NSHARED] = {
	[SHARED_SEED] = { "seed", OPTIONS_SEED, 0, 0 },
	[SHARED_SEED_FILE] = { "seed-file", OPTIONS_SEED, 0, 0 },
	[SHARED_STOCK] = { "stock", OPTIONS_STOCK, 1, 30 },
	[SHARED_MOVE_MS] = { "move-ms", OPTIONS_TIME, 1, 3600000 },
	[SHARED_GAME_MS] = { "game-ms", OPTIONS_TIME, 1, 86400000 },
	[SHARED_STARTUP_MS] = { "startup-ms", OPTIONS_TIME, 1, 600000 },
	[SHARED_CPU] = { "cpu-seconds", OPTIONS_LIMITS, 0, 1 << 24 },
	[SHARED_MEMORY] = { "memory-mb", OPTIONS_LIMITS, 0, 1 << 24 },
	[SHARED_FILES] = { "open-files", OPTIONS_LIMITS, 0, 1 << 24 },
	[SHARED_PROCESSES] = { "processes", OPTIONS_LIMITS, 0, 1 << 24 },
	[SHARED_SANDBOX] = { "sandbox", OPTIONS_SANDBOX, 0, 0 },
	[SHARED_QUIET_BOTS] = { "quiet-bots", OPTIONS_BOT_STDERR, 0, 0, 1 },
	[SHARED_STDERR] = { "stderr", OPTIONS_BOT_STDERR, 0, 0 },
	[SHARED_ENV] = { "env", OPTIONS_ENV, 0, 0 },
};

void options_common_init(struct options_common *common, int defaults)
{
	memset(common, 0, sizeof(*common));
	common->sandbox = -1;
	if (defaults) {
		common->startup_ms = CONFIG_DEFAULT_STARTUP_MS;
		common->move_ms = CONFIG_DEFAULT_MOVE_MS;
		common->game_ms = CONFIG_DEFAULT_GAME_MS;
		config_default_limits(&common->limits);
		return;
	}
	common->startup_ms = common->move_ms = common->game_ms = -1;
	common->limits = (struct bot_limits){ -1, -1, -1, -1 };
}

int options_resolve_seed(struct options_common *common)
{
	uint64_t seed;
	int ret;

	if (common->has_seed)
		return 0;
	if ((ret = config_random_seed(&seed)) < 0) {
		warnx("cannot draw a random seed: %s", strerror(-ret));
		return -1;
	}
	common->seed = seed;
	return 0;
}

void options_warn_seed(const struct options_common *common, const struct sandbox *sandbox)
{
	if (sandbox && common->seed_source == OPTIONS_SEED_OPTION)
		warnx("warning: --seed on the command line: a bot can read it in the arena's "
		      "/proc/PID/cmdline; give it with --seed-file FILE or %s instead",
		      OPTIONS_SEED_ENV);
}

/* --seed-file FILE: the seed on its first line (decimal or 0x hex). 0, or -1 after the message. */
static int seed_from_file(const char *path, unsigned long long *out)
{
	char text[64], option[PATH_MAX + 32];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f) {
		warn("--seed-file \"%s\"", path);
		return -1;
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
		text[--n] = '\0';
	snprintf(option, sizeof(option), "--seed-file \"%s\"", path);
	return options_seed(option, text, out);
}

/* SKIPBO_SEED when no option gave a seed; removed from the environment either way, so
 * that no bot inherits it. 0, or -1 after the message. */
static int seed_from_environment(struct options_common *common)
{
	const char *value = getenv(OPTIONS_SEED_ENV);
	int ret = 0;

	if (!value)
		return 0;
	if (!common->has_seed) {
		ret = options_seed(OPTIONS_SEED_ENV, value, &common->seed);
		common->has_seed = ret == 0;
		common->seed_source = ret == 0 ? OPTIONS_SEED_ENVIRONMENT : OPTIONS_SEED_NONE;
	}
	unsetenv(OPTIONS_SEED_ENV);
	return ret;
}

void options_apply_limits(const struct options_common *common, struct bot_limits *limits)
{
	const struct bot_limits *given = &common->limits;

	if (given->cpu_seconds >= 0)
		limits->cpu_seconds = given->cpu_seconds;
	if (given->memory_mb >= 0)
		limits->memory_mb = given->memory_mb;
	if (given->open_files >= 0)
		limits->open_files = given->open_files;
	if (given->processes >= 0)
		limits->processes = given->processes;
}

/* setup's sandbox opened, its note and the bots' unseen files said: as options_open_sandbox(). */
static int open_setup(const struct options_common *common, struct sandbox_setup *setup,
		      struct bot_spec *specs, size_t nspecs, struct sandbox **out)
{
	char note[4096], safe[8192];
	int ret;

	setup->bots = specs;
	setup->nbots = nspecs;
	ret = sandbox_open(setup, out, note, sizeof(note));

	/* it may name a bot's files, whose names may hold anything */
	if (note[0])
		warnx("%s", termsafe_copy(safe, sizeof(safe), note));
	if (ret == 0)
		options_warn_seed(common, *out);
	/* what a sealed run copied, and how long it took: its cost at each start */
	if (ret == 0 && setup->mode == SANDBOX_SEALED)
		warnx("sandbox: %s", sandbox_describe(*out));
	for (size_t i = 0; ret == 0 && sandbox_unseen(*out, i); i++)
		warnx("%s", termsafe_copy(safe, sizeof(safe), sandbox_unseen(*out, i)));
	if (ret == -ENOMEM)
		warnx("out of memory");
	if (ret < 0)
		return 1;
	for (size_t i = 0; i < nspecs; i++)
		specs[i].sandbox = *out;
	return -1;
}

int options_open_sandbox(const struct options_common *common, struct bot_spec *specs,
			 size_t nspecs, const char *const *hide, size_t nhide,
			 struct sandbox **out)
{
	struct sandbox_setup setup = { common->sandbox < 0 ? SANDBOX_AUTO :
				       (enum sandbox_mode)common->sandbox, NULL, 0, hide, nhide,
				       common->system, common->nsystem };

	return open_setup(common, &setup, specs, nspecs, out);
}

void options_apply_to_config(const struct options_common *common, struct config *cfg)
{
	if (common->sandbox >= 0)
		cfg->sandbox = common->sandbox;
	options_apply_limits(common, &cfg->limits);
	for (size_t i = 0; i < cfg->nbots; i++)
		options_apply_limits(common, &cfg->bots[i].limits);
}

int options_open_config_sandbox(struct config *cfg, const char *const *hide, size_t nhide,
				struct sandbox **out)
{
	struct bot_spec *specs = calloc(cfg->nbots, sizeof(*specs));
	struct sandbox_setup setup = { 0 };
	struct options_common common;
	int ret;

	if (!specs) {
		warnx("out of memory");
		return 1;
	}
	for (size_t i = 0; i < cfg->nbots; i++) {
		specs[i].name = cfg->bots[i].name;
		specs[i].argv = cfg->bots[i].argv;
		specs[i].cwd = cfg->bots[i].cwd;
	}
	options_common_init(&common, 0);
	config_sandbox_setup(cfg, &setup);
	setup.hide = hide;
	setup.nhide = nhide;
	ret = open_setup(&common, &setup, specs, cfg->nbots, out);
	cfg->sandbox = *out ? (int)sandbox_mode_of(*out) : SANDBOX_OFF;
	free(specs);
	return ret;
}

int options_check_no_timeout(const char *command, int no_timeout,
			     const struct options_common *common)
{
	if (!no_timeout || !common->time_limit_given)
		return 0;
	warnx("%s: --no-timeout and %s contradict each other: give one of them", command,
	      common->time_limit_given);
	return -1;
}

int options_stderr_files(const struct options_common *common, struct bot_spec *specs,
			 size_t nspecs, char **paths)
{
	const char *dir = common->stderr_dir;

	if (!dir)
		return 0;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		warn("--stderr: cannot create \"%s\"", dir);
		return -1;
	}
	for (size_t i = 0; i < nspecs; i++) {
		if (asprintf(&paths[i], "%s/%s.stderr", dir, specs[i].name) < 0) {
			paths[i] = NULL;
			warnx("out of memory");
			return -1;
		}
		specs[i].stderr_path = paths[i];
	}
	return 0;
}

/* --env NAME=VALUE: the string itself goes to the bots. 0, or -1 after the message. */
static int env_add(struct options_common *common, const char *arg)
{
	size_t name = strcspn(arg, "=");

	if (!name || !arg[name]) {
		warnx("--env: expected NAME=VALUE, got \"%s\"", arg);
		return -1;
	}
	if (common->nenv == OPTIONS_ENV_MAX) {
		warnx("--env: at most %d variables", OPTIONS_ENV_MAX);
		return -1;
	}
	common->env[common->nenv++] = (char *)arg;
	return 0;
}

/* The long option getopt_long refused last: argv[optind - 1] without "--" and "=VALUE". */
static void refused_option(char *const *argv, char *out, size_t size)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;

	out[0] = '\0';
	if (arg && !strncmp(arg, "--", 2) && arg[2])
		snprintf(out, size, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
}

int options_bad_usage(const char *usage, const struct option *table, char *const *argv)
{
	const char *names[NSHARED + 64], *end = strstr(usage, "\n\n");
	char word[64];
	int n = 0, near;

	refused_option(argv, word, sizeof(word));
	for (; table && table[n].name && n < (int)(sizeof(names) / sizeof(*names)) - 1; n++)
		names[n] = table[n].name;
	names[n] = NULL;
	/* a known option refused for its missing value is no misspelling */
	if (word[0] && (near = jsonc_nearest(word, names)) >= 0 && strcmp(names[near], word))
		fprintf(stderr, "did you mean --%s?\n", names[near]);
	fprintf(stderr, "%.*s\n(\"skipbo-arena %s --help\" lists every option)\n",
		end ? (int)(end - usage) : (int)strlen(usage), usage, argv[0]);
	return 2;
}

/* Shared option id with its argument into *common. 0, or -1 after the message. */
static int shared_set(int id, const char *arg, struct options_common *common)
{
	char option[32];
	long long v;

	snprintf(option, sizeof(option), "--%s", shared[id].name);
	if (id == SHARED_QUIET_BOTS) {
		common->quiet_bots = 1;
		return 0;
	}
	if (id == SHARED_STDERR) {
		if (!*arg) {
			warnx("%s: expected a directory, got \"\"", option);
			return -1;
		}
		common->stderr_dir = arg;
		return 0;
	}
	if (id == SHARED_ENV)
		return env_add(common, arg);
	if (id == SHARED_SEED || id == SHARED_SEED_FILE) {
		if (common->has_seed) {
			warnx("--seed and --seed-file: give one seed");
			return -1;
		}
		if ((id == SHARED_SEED ? options_seed(option, arg, &common->seed) :
		     seed_from_file(arg, &common->seed)) < 0)
			return -1;
		common->has_seed = 1;
		common->seed_source = id == SHARED_SEED ? OPTIONS_SEED_OPTION : OPTIONS_SEED_FILE;
		return 0;
	}
	if (id == SHARED_SANDBOX) {
		enum sandbox_mode mode;

		if (sandbox_mode_parse(arg, &mode) < 0) {
			warnx("%s: expected auto, on, sealed or off, got \"%s\"", option, arg);
			return -1;
		}
		common->sandbox = (int)mode;
		return 0;
	}
	if (options_number(option, arg, shared[id].min, shared[id].max, &v) < 0)
		return -1;
	switch (id) {
	case SHARED_STOCK: common->stock = v; break;
	case SHARED_MOVE_MS: common->move_ms = v; common->time_limit_given = "--move-ms"; break;
	case SHARED_GAME_MS: common->game_ms = v; common->time_limit_given = "--game-ms"; break;
	case SHARED_STARTUP_MS: common->startup_ms = v; break;
	case SHARED_CPU: common->limits.cpu_seconds = (long)v; break;
	case SHARED_MEMORY: common->limits.memory_mb = (long)v; break;
	case SHARED_FILES: common->limits.open_files = (long)v; break;
	case SHARED_PROCESSES: common->limits.processes = (long)v; break;
	}
	return 0;
}

int options_parse(const struct options_command *cmd, int argc, char **argv,
		  struct options_common *common)
{
	static char concurrency[] = "--concurrency";
	struct option *table = NULL;
	char *shortopts = NULL;
	size_t nown = 0, n = 0;
	int c, ret = 1, jobs = cmd->shortopts && strchr(cmd->shortopts, 'j');

	while (cmd->own && cmd->own[nown].name)
		nown++;
	/* cutechess-cli and fastchess spell it with one dash */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-concurrency") == 0)
			argv[i] = concurrency;
	/* the command's own, the shared ones it takes, --help, --version, --concurrency and the
	 * terminator */
	table = calloc(nown + NSHARED + 4, sizeof(*table));
	/* -j and --concurrency in a command without them get their reason, not a usage dump */
	if (!table || asprintf(&shortopts, "+%sh%s", cmd->shortopts ? cmd->shortopts : "",
			       jobs ? "" : "j:") < 0) {
		shortopts = NULL;
		warnx("out of memory");
		goto out;
	}
	for (size_t i = 0; i < nown; i++)
		table[n++] = cmd->own[i];
	for (int id = 0; id < NSHARED; id++)
		if (cmd->groups & shared[id].group)
			table[n++] = (struct option){ shared[id].name, shared[id].flag ?
						      no_argument : required_argument, NULL,
						      SHARED_VALUE(id) };
	table[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	table[n++] = (struct option)OPTIONS_VERSION_ENTRY;
	if (!jobs)
		table[n] = (struct option){ "concurrency", required_argument, NULL, ONE_AT_A_TIME };
	/* 0, not 1: glibc then also forgets state left by an earlier getopt run in the process. */
	optind = 0;
	ret = -1;
	while (ret < 0 && (c = getopt_long(argc, argv, shortopts, table, NULL)) != -1) {
		if (c == 'h') {
			fputs(cmd->usage, stdout);
			ret = 0;
		} else if (c == OPTIONS_VERSION) {
			ret = options_print_version();
		} else if (c == ONE_AT_A_TIME || (c == 'j' && !jobs)) {
			warnx("%s: %s: %s plays its games one at a time; only run plays several at "
			      "once (run -j N)", argv[0], c == 'j' ? "-j" : "--concurrency", argv[0]);
			ret = 2;
		} else if (c >= SHARED_VALUE(0) && c < SHARED_VALUE(NSHARED)) {
			if (shared_set(c - SHARED_VALUE(0), optarg, common) < 0)
				ret = 2;
		} else if (c == '?' || c == ':') {
			/* getopt_long has named the unknown option or the missing value */
			ret = options_bad_usage(cmd->usage, table, argv);
		} else if (cmd->own_option(cmd->ctx, c, optarg) < 0) {
			ret = 2;
		}
	}
	if (ret < 0 && (cmd->groups & OPTIONS_SEED) && seed_from_environment(common) < 0)
		ret = 2;
out:
	free(table);
	free(shortopts);
	return ret;
}

int options_read_token(const char *cmd, const char *file, char *token, size_t size)
{
	const char *env = getenv("SKIPBO_TOKEN");
	FILE *f;
	size_t len;

	if (!file && !env) {
		warnx("%s: no token: name the file that holds it with --token-file FILE, or "
		      "set SKIPBO_TOKEN", cmd);
		return 2;
	}
	if (file) {
		if (!(f = fopen(file, "re"))) {
			warn("%s: --token-file \"%s\"", cmd, file);
			return 2;
		}
		if (!fgets(token, (int)size, f))
			token[0] = '\0';
		fclose(f);
	} else if (strlcpy(token, env, size) >= size) {
		token[0] = '\0';
	}
	len = strcspn(token, "\r\n");
	token[len] = '\0';
	if (len == 0) {
		warnx("%s: %s is empty: it should hold the token that \"host account add\" "
		      "printed", cmd, file ? file : "SKIPBO_TOKEN");
		return 2;
	}
	return 0;
}
