/*
 * test_options.c - command-line values: numbers in range, 64-bit seeds, bot
 * command strings split without a shell; options_parse() with the shared
 * options of run, play, check and sprt; and `play` giving its resource
 * limits to the bots (badbot report describes its own).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "options.h"
#include "../stream_text.h"

static void test_numbers(void **state)
{
	long long v = 0;

	(void)state;
	assert_int_equal(options_number("--deals", "12", 1, 100, &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(options_number("--deals", "0", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "101", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "1x", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "", 1, 100, &v), -1);
	assert_int_equal(options_number("--deals", "99999999999999999999", 1, 100, &v), -1);
}

static void test_seeds(void **state)
{
	unsigned long long s = 0;

	(void)state;
	assert_int_equal(options_seed("--seed", "18446744073709551615", &s), 0);
	assert_true(s == UINT64_MAX);
	assert_int_equal(options_seed("--seed", "0x10", &s), 0);
	assert_true(s == 16);
	assert_int_equal(options_seed("--seed", "-1", &s), -1);
	assert_int_equal(options_seed("--seed", "18446744073709551616", &s), -1);
	assert_int_equal(options_seed("--seed", "seven", &s), -1);
}

static void test_split(void **state)
{
	char **argv;

	(void)state;
	argv = options_split("  ./bot  --level 3\t-v ");
	assert_non_null(argv);
	assert_string_equal(argv[0], "./bot");
	assert_string_equal(argv[1], "--level");
	assert_string_equal(argv[2], "3");
	assert_string_equal(argv[3], "-v");
	assert_null(argv[4]);
	options_free_argv(argv);
	assert_null(options_split("   "));
	assert_null(options_split(""));
}

/* A path with spaces, as league add and run --bot take it: quotes and backslashes as sh. */
static void test_split_quotes(void **state)
{
	char **argv;

	(void)state;
	argv = options_split("'my bots/bot one.py' \"a \\\"b\\\"\" my\\ dir/x '' --k='v w'");
	assert_non_null(argv);
	assert_string_equal(argv[0], "my bots/bot one.py");
	assert_string_equal(argv[1], "a \"b\"");
	assert_string_equal(argv[2], "my dir/x");
	assert_string_equal(argv[3], "");
	assert_string_equal(argv[4], "--k=v w");
	assert_null(argv[5]);
	options_free_argv(argv);
	assert_null(options_split("'my bots/bot.py"));
	assert_null(options_split("\"unclosed"));
}

enum { OWN_FLAG = OPTIONS_OWN, OWN_VALUE };

static const struct option own_options[] = {
	{ "flag", no_argument, NULL, OWN_FLAG },
	{ "value", required_argument, NULL, OWN_VALUE },
	{ "x-ray", no_argument, NULL, 'x' },
	{ NULL, 0, NULL, 0 },
};

/* What a command's own handler saw. */
struct own_seen {
	int flag, x;
	long long value;
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct own_seen *seen = ctx;

	switch (c) {
	case OWN_FLAG: seen->flag = 1; break;
	case 'x': seen->x++; break;
	case OWN_VALUE: return options_number("--value", arg, 1, 9, &seen->value);
	default: fail_msg("unexpected option value %d", c);
	}
	return 0;
}

/* options_parse() on a NULL-terminated argv, for a command taking groups. */
static int parse(unsigned groups, char **argv, struct options_common *common,
		 struct own_seen *seen)
{
	const struct options_command cmd = { "usage: test\n", "x", own_options, groups,
		own_option, seen };
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(seen, 0, sizeof(*seen));
	return options_parse(&cmd, argc, argv, common);
}

#define ALL (OPTIONS_SEED | OPTIONS_STOCK | OPTIONS_TIME | OPTIONS_LIMITS)

static void test_parse_shared_and_own(void **state)
{
	char *argv[] = { "play", "--seed", "0x10", "--stock", "5", "--move-ms", "20",
		"--game-ms", "300", "--startup-ms", "400", "--cpu-seconds", "7", "--memory-mb", "0",
		"--open-files", "64", "--processes", "1000", "-xx", "--flag", "--value", "3",
		"--", "./bot", "--seed", NULL };
	struct options_common c;
	struct own_seen seen;

	(void)state;
	options_common_init(&c, 0);
	assert_int_equal(parse(ALL, argv, &c, &seen), -1);
	assert_true(c.has_seed && c.seed == 16);
	assert_int_equal(c.stock, 5);
	assert_int_equal(c.move_ms, 20);
	assert_int_equal(c.game_ms, 300);
	assert_int_equal(c.startup_ms, 400);
	assert_int_equal(c.limits.cpu_seconds, 7);
	assert_int_equal(c.limits.memory_mb, 0);
	assert_int_equal(c.limits.open_files, 64);
	assert_int_equal(c.limits.processes, 1000);
	assert_int_equal(seen.x, 2);
	assert_int_equal(seen.flag, 1);
	assert_int_equal(seen.value, 3);
	/* stops at "--": what follows is the operands' */
	assert_string_equal(argv[optind - 1], "--");
	assert_string_equal(argv[optind], "./bot");
}

/* A second parse in the same process starts afresh (cmd_* may run more than once). */
static void test_parse_twice(void **state)
{
	char *first[] = { "check", "-x", "--move-ms", "bad", NULL };
	char *second[] = { "check", "--move-ms", "7", "bot", NULL };
	struct options_common c;
	struct own_seen seen;

	(void)state;
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, first, &c, &seen), 2);
	assert_int_equal(parse(ALL, second, &c, &seen), -1);
	assert_int_equal(c.move_ms, 7);
	assert_int_equal(optind, 3);
}

/* Each shared option's range, the same for every command. */
static void test_parse_ranges(void **state)
{
	static const struct { const char *option, *good, *bad; } cases[] = {
		{ "--stock", "30", "31" }, { "--stock", "1", "0" },
		{ "--move-ms", "3600000", "3600001" }, { "--move-ms", "1", "0" },
		{ "--game-ms", "86400000", "86400001" }, { "--game-ms", "1", "0" },
		{ "--startup-ms", "600000", "600001" }, { "--startup-ms", "1", "0" },
		{ "--cpu-seconds", "16777216", "16777217" }, { "--cpu-seconds", "0", "-1" },
		{ "--memory-mb", "16777216", "16777217" }, { "--memory-mb", "0", "-1" },
		{ "--open-files", "16777216", "16777217" }, { "--open-files", "0", "x" },
		{ "--processes", "16777216", "16777217" }, { "--processes", "0", "" },
		{ "--seed", "18446744073709551615", "-1" },
	};
	struct options_common c;
	struct own_seen seen;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *good[] = { "cmd", (char *)cases[i].option, (char *)cases[i].good, NULL };
		char *bad[] = { "cmd", (char *)cases[i].option, (char *)cases[i].bad, NULL };

		options_common_init(&c, 1);
		if (parse(ALL, good, &c, &seen) != -1)
			fail_msg("%s %s refused", cases[i].option, cases[i].good);
		if (parse(ALL, bad, &c, &seen) != 2)
			fail_msg("%s \"%s\" accepted", cases[i].option, cases[i].bad);
	}
}

/* A command without a group does not know its options; unknown options and --help. */
static void test_parse_groups_and_usage(void **state)
{
	char *stock[] = { "run", "--stock", "5", "t.json", NULL };
	char *memory[] = { "cmd", "--memory-mb", "5", NULL };
	char *unknown[] = { "cmd", "--bogus", NULL };
	char *missing[] = { "cmd", "--value", NULL };
	char *own_bad[] = { "cmd", "--value", "10", NULL };
	char *help[] = { "cmd", "--flag", "-h", "--bogus", NULL };
	struct options_common c;
	struct own_seen seen;

	(void)state;
	options_common_init(&c, 0);
	assert_int_equal(parse(OPTIONS_SEED | OPTIONS_TIME | OPTIONS_LIMITS, stock, &c, &seen), 2);
	assert_int_equal(parse(ALL & ~OPTIONS_LIMITS, memory, &c, &seen), 2);
	assert_int_equal(c.limits.memory_mb, -1);
	assert_int_equal(parse(ALL, memory, &c, &seen), -1);
	assert_int_equal(c.limits.memory_mb, 5);
	assert_int_equal(parse(ALL, unknown, &c, &seen), 2);
	assert_int_equal(parse(ALL, missing, &c, &seen), 2);
	assert_int_equal(parse(ALL, own_bad, &c, &seen), 2);
	assert_int_equal(parse(0, help, &c, &seen), 0);
	assert_int_equal(seen.flag, 1);
}

/* What fn writes on stderr, in a buffer the caller frees. */
static char *stderr_of(int (*fn)(void *), void *arg, int *ret)
{
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	char *text;

	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), STDERR_FILENO);
	*ret = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	text = stream_text(f);
	fclose(f);
	return text;
}

static int parse_mistyped(void *argv)
{
	const struct options_command cmd = { "usage: skipbo-arena test [options] BOT\n\n"
		"The whole help, many lines of it.\n", NULL, own_options,
		OPTIONS_SEED | OPTIONS_ENV, own_option, &(struct own_seen){ 0 } };
	struct options_common c;
	int argc = 0;

	options_common_init(&c, 1);
	while (((char **)argv)[argc])
		argc++;
	return options_parse(&cmd, argc, argv, &c);
}

/* A mistyped option: the nearest option's name and the synopsis, not the whole help. */
static void test_mistyped_option(void **state)
{
	char *sed[] = { "test", "--sed", "3", "bot", NULL };
	char *eq[] = { "test", "--vlue=3", "bot", NULL };
	char *far[] = { "test", "--zzzzzzzz", "bot", NULL };
	char *missing[] = { "test", "--seed", NULL };
	char *text;
	int ret;

	(void)state;
	text = stderr_of(parse_mistyped, sed, &ret);
	assert_int_equal(ret, 2);
	if (!strstr(text, "did you mean --seed?\nusage: skipbo-arena test [options] BOT\n"
		    "(\"skipbo-arena test --help\" lists every option)\n") ||
	    strstr(text, "The whole help"))
		fail_msg("--sed gave:\n%s", text);
	free(text);
	text = stderr_of(parse_mistyped, eq, &ret);
	assert_int_equal(ret, 2);
	if (!strstr(text, "did you mean --value?\n"))
		fail_msg("--vlue=3 gave:\n%s", text);
	free(text);
	text = stderr_of(parse_mistyped, missing, &ret);
	assert_int_equal(ret, 2);
	if (strstr(text, "did you mean") || !strstr(text, "usage: skipbo-arena test"))
		fail_msg("--seed without its value gave:\n%s", text);
	free(text);
	text = stderr_of(parse_mistyped, far, &ret);
	assert_int_equal(ret, 2);
	if (strstr(text, "did you mean") || !strstr(text, "usage: skipbo-arena test"))
		fail_msg("--zzzzzzzz gave:\n%s", text);
	free(text);
}

/* --sandbox: auto, on or off for the commands that take it; not given is -1 (auto). */
static void test_parse_sandbox(void **state)
{
	char *on[] = { "run", "--sandbox", "on", "t.json", NULL };
	char *off[] = { "play", "--sandbox=off", "./a", NULL };
	char *bad[] = { "check", "--sandbox", "yes", "./a", NULL };
	struct options_common c;
	struct own_seen seen;

	(void)state;
	options_common_init(&c, 1);
	assert_int_equal(c.sandbox, -1);
	assert_int_equal(parse(ALL | OPTIONS_SANDBOX, on, &c, &seen), -1);
	assert_int_equal(c.sandbox, SANDBOX_ON);
	assert_int_equal(parse(ALL | OPTIONS_SANDBOX, off, &c, &seen), -1);
	assert_int_equal(c.sandbox, SANDBOX_OFF);
	assert_int_equal(parse(ALL | OPTIONS_SANDBOX, bad, &c, &seen), 2);
	assert_int_equal(parse(ALL, on, &c, &seen), 2);
}

/* With defaults: a tournament file's; without: -1, and only given limits replace. */
/*
 * A seed from --seed, --seed-file FILE or SKIPBO_SEED (which is then gone
 * from the environment, so that no bot inherits it); none given: 64 random
 * bits, never a fixed default.
 */
static void test_seed_sources(void **state)
{
	char file[] = "/tmp/skipbo-seed.XXXXXX", *argv_file[] = { "play", "--seed-file", file,
		NULL }, *argv_none[] = { "play", NULL }, *argv_both[] = { "play", "--seed", "3",
		"--seed-file", file, NULL }, *argv_seed[] = { "play", "--seed", "3", NULL };
	struct options_common c;
	struct own_seen seen;
	unsigned long long first;
	int fd = mkstemp(file);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0x2a\n", 5), 5);
	close(fd);
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, argv_file, &c, &seen), -1);
	assert_true(c.has_seed && c.seed == 42 && c.seed_source == OPTIONS_SEED_FILE);
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, argv_both, &c, &seen), 2);
	/* the environment, when no option gives one; an option wins over it */
	setenv(OPTIONS_SEED_ENV, "77", 1);
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, argv_none, &c, &seen), -1);
	assert_true(c.has_seed && c.seed == 77 && c.seed_source == OPTIONS_SEED_ENVIRONMENT);
	assert_null(getenv(OPTIONS_SEED_ENV));
	setenv(OPTIONS_SEED_ENV, "77", 1);
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, argv_seed, &c, &seen), -1);
	assert_true(c.seed == 3 && c.seed_source == OPTIONS_SEED_OPTION);
	assert_null(getenv(OPTIONS_SEED_ENV));
	setenv(OPTIONS_SEED_ENV, "seven", 1);
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, argv_none, &c, &seen), 2);
	/* none: random, and two draws differ (a chance of 2^-64 that they do not) */
	options_common_init(&c, 1);
	assert_int_equal(parse(ALL, argv_none, &c, &seen), -1);
	assert_int_equal(options_resolve_seed(&c), 0);
	assert_false(c.has_seed);
	first = c.seed;
	options_common_init(&c, 1);
	assert_int_equal(options_resolve_seed(&c), 0);
	assert_true(c.seed != first);
	unlink(file);
	assert_int_equal(parse(ALL, argv_file, &c, &seen), 2);
}

static void test_common_defaults(void **state)
{
	struct bot_limits file = { 10, 20, 30, 40 }, defaults;
	struct options_common c;

	(void)state;
	options_common_init(&c, 1);
	config_default_limits(&defaults);
	assert_true(c.seed == 0 && !c.has_seed && c.stock == 0);
	assert_int_equal(c.startup_ms, CONFIG_DEFAULT_STARTUP_MS);
	assert_int_equal(c.move_ms, CONFIG_DEFAULT_MOVE_MS);
	assert_int_equal(c.game_ms, CONFIG_DEFAULT_GAME_MS);
	assert_memory_equal(&c.limits, &defaults, sizeof(defaults));
#ifdef SKIPBO_SANITIZED_BUILD
	assert_int_equal(defaults.memory_mb, 0);
#else
	assert_int_equal(defaults.memory_mb, 2048);
#endif
	options_common_init(&c, 0);
	assert_true(c.move_ms == -1 && c.game_ms == -1 && c.startup_ms == -1);
	options_apply_limits(&c, &file);
	assert_int_equal(file.cpu_seconds, 10);
	assert_int_equal(file.processes, 40);
	c.limits.memory_mb = 0;
	c.limits.open_files = 64;
	options_apply_limits(&c, &file);
	assert_int_equal(file.cpu_seconds, 10);
	assert_int_equal(file.memory_mb, 0);
	assert_int_equal(file.open_files, 64);
	assert_int_equal(file.processes, 40);
}

/* cmd_play() with argv, in a child with stdout and stderr to one file; that file's text. */
static char *run_play(char **argv, int *status)
{
	char path[] = "/tmp/test_options.XXXXXX";
	int fd = mkstemp(path), argc = 0;
	char *out;
	off_t size;
	pid_t pid;

	assert_true(fd >= 0);
	unlink(path);
	while (argv[argc])
		argc++;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		signal(SIGPIPE, SIG_IGN);
		*status = cmd_play(argc, argv);
		fflush(NULL);
		_exit(*status);
	}
	assert_int_equal(waitpid(pid, status, 0), pid);
	size = lseek(fd, 0, SEEK_END);
	assert_true(size >= 0);
	out = calloc(1, (size_t)size + 1);
	assert_non_null(out);
	assert_int_equal(pread(fd, out, (size_t)size, 0), size);
	close(fd);
	return out;
}

/* The bot's hello (--log-io) must show rlimits; stderr of the run on failure. */
static void expect_rlimits(char **argv, const char *rlimits)
{
	int status;
	char *out = run_play(argv, &status);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !strstr(out, rlimits))
		fail_msg("status %d, no %s in:\n%s", status, rlimits, out);
	free(out);
}

/*
 * play --cpu-seconds ...: the limits reach every bot process, as RLIMIT_* soft
 * limits. In a sandbox RLIMIT_NPROC counts bwrap's init and the launcher,
 * which stays to answer sysinfo: two more (sandbox_start.h); checked where
 * the machine has the sandbox.
 */
static void test_play_limits_reach_the_bot(void **state)
{
	char *given[] = { "play", "--log-io", "--stock", "2", "--sandbox", "off", "--cpu-seconds",
		"7", "--memory-mb", "64", "--open-files", "64", "--processes", "1000",
		BADBOT_PATH " report", BADBOT_PATH " good", NULL };
	char *sandboxed[] = { "play", "--log-io", "--stock", "2", "--sandbox", "on",
		"--processes", "1000", BADBOT_PATH " report", BADBOT_PATH " good", NULL };
	char *unlimited[] = { "play", "--log-io", "--stock", "2", "--cpu-seconds", "0",
		"--memory-mb", "0", "--sandbox", "off", BADBOT_PATH " good", BADBOT_PATH " report",
		NULL };
	char *defaults[] = { "play", "--log-io", "--stock", "2", "--sandbox", "off",
		BADBOT_PATH " report", BADBOT_PATH " good", NULL };
	int status;
	char *out = run_play(sandboxed, &status);

	(void)state;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && strstr(out, "no sandbox: "))
		printf("no sandbox on this machine: its process limit not checked\n");
	else
		expect_rlimits(sandboxed, "\"nproc\":1002}");
	free(out);
	expect_rlimits(given, "\"rlimits\":{\"cpu\":7,\"as\":67108864,\"nofile\":64,"
		       "\"nproc\":1000}");
	/* 0: no limit at all (the arena has none) */
	expect_rlimits(unlimited, "\"rlimits\":{\"cpu\":-1,\"as\":-1,\"nofile\":256,"
		       "\"nproc\":256}");
#ifdef SKIPBO_SANITIZED_BUILD
	expect_rlimits(defaults, "\"rlimits\":{\"cpu\":3600,\"as\":-1,\"nofile\":256,"
		       "\"nproc\":256}");
#else
	expect_rlimits(defaults, "\"rlimits\":{\"cpu\":3600,\"as\":2147483648,"
		       "\"nofile\":256,\"nproc\":256}");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_quotes),
		cmocka_unit_test(test_parse_shared_and_own),
		cmocka_unit_test(test_parse_twice),
		cmocka_unit_test(test_parse_ranges),
		cmocka_unit_test(test_parse_groups_and_usage),
		cmocka_unit_test(test_mistyped_option),
		cmocka_unit_test(test_seed_sources),
		cmocka_unit_test(test_common_defaults),
		cmocka_unit_test(test_parse_sandbox),
		cmocka_unit_test(test_play_limits_reach_the_bot),
	};

	/* the refusals print their warnx lines; keep the test output clean */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
