/*
 * test_config.c - the tournament file: every kind of mistake is refused and
 * the message names the key; defaults and resolution of commands.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "names.h"
#include "jsonc.h"
#include "jsonc_strip.h"
#include "sandbox.h"

static char dir[64];

static int setup_dir(void **state)
{
	char path[128];
	FILE *f;

	(void)state;
	strcpy(dir, "/tmp/test_config.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bot.sh", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/plain.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	return 0;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* Parse text; expect failure with every needle in the message. */
static void refused(const char *text, const char *needle, const char *needle2)
{
	struct config cfg;
	char err[CONFIG_ERR_MAX] = "";
	int ret = config_parse(text, strlen(text), dir, &cfg, err, sizeof(err));

	if (ret >= 0 || !strstr(err, needle) || (needle2 && !strstr(err, needle2)))
		fail_msg("expected a refusal naming \"%s\"%s%s, got %d: \"%s\"", needle,
			 needle2 ? " and " : "", needle2 ? needle2 : "", ret, err);
	assert_null(cfg.bots);
}

#define BOTS "\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"]},{\"name\":\"b\",\"command\":[\"/bin/sh\"]}]"

static void test_syntax_error_names_position(void **state)
{
	(void)state;
	refused("{\n  \"name\": \"t\",\n  \"players\": 2,,\n}", "line 3, column", NULL);
}

static void test_comments_are_blank(void **state)
{
	const char *text = "{ // the name\n \"name\": \"t\", /* block\n comment */ " BOTS ",\n"
			   " \"output\": \"http://not/a/comment\" }";
	struct config cfg;
	char err[CONFIG_ERR_MAX] = "";

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), dir, &cfg, err, sizeof(err)), 0);
	assert_string_equal(cfg.output, "http://not/a/comment");
	config_release(&cfg);
}

static void test_strip_keeps_offsets(void **state)
{
	char text[] = "a/*x\ny*/b//z\n\"//s\"";

	(void)state;
	jsonc_strip(text, strlen(text));
	assert_string_equal(text, "a   \n   b   \n\"//s\"");
}

static void test_unknown_keys(void **state)
{
	(void)state;
	refused("{\"name\":\"t\"," BOTS ",\"plyers\":2}", "plyers: unknown key", "players");
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"comand\":[\"/bin/sh\"]}]}",
		"bots[0].comand: unknown key", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"rules\":{\"stock\":5}}", "rules.stock: unknown key", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"time\":{\"move\":5}}", "time.move: unknown key", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"limits\":{\"memory\":5}}", "limits.memory: unknown", NULL);
}

static void test_wrong_types(void **state)
{
	(void)state;
	refused("[1]", "tournament file: expected an object", NULL);
	refused("{\"name\":5," BOTS "}", "name: expected", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"players\":\"2\"}", "players: expected an integer", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"duplicate\":1}", "duplicate: expected true or false", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"rules\":[]}", "rules: expected an object", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"pin\":\"yes\"}", "pin: expected true or false", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"deals\":2.5}", "deals: expected an integer", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"seed\":-1}", "seed: expected", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"seed\":\"12x\"}", "seed: expected", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"limits\":{\"memory_mb\":\"x\"}}",
		"limits.memory_mb: expected an integer", NULL);
	refused("{\"name\":\"t\",\"bots\":{}}", "bots: expected a non-empty array", NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":\"/bin/sh\"}]}",
		"bots[0].command: expected a non-empty array", NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\", 3]}]}",
		"bots[0].command[1]: expected a string, found the number 3", NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"],"
		"\"env\":{\"X\":1}}]}", "bots[0].env.X: expected a string", NULL);
}

static void test_out_of_range(void **state)
{
	(void)state;
	refused("{\"name\":\"t\"," BOTS ",\"players\":7}", "players: expected an integer from 2 to 6", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"players\":3}", "bots: expected at least 3 bots", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"deals\":0}", "deals: expected an integer from 1", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"rules\":{\"stock_size\":31}}",
		"rules.stock_size: expected an integer from 0 to 30", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"time\":{\"move_ms\":-1}}", "time.move_ms", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"time\":{\"move_ms\":0,\"game_ms\":10}}",
		"time: move_ms and game_ms", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"concurrency\":0}", "concurrency: expected", NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"],"
		"\"limits\":{\"cpu_seconds\":-5}}]}", "bots[0].limits.cpu_seconds", NULL);
}

/* Integers are read strictly: written as integers, in range, named with what was found. */
static void test_strict_numbers(void **state)
{
	(void)state;
	refused("{\"name\":\"t\"," BOTS ",\"players\":2.0}",
		"players: expected an integer from 2 to 6, found 2.0", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"deals\":1e3}", "deals: expected an integer", "found 1e3");
	refused("{\"name\":\"t\"," BOTS ",\"deals\":1e400}", "deals: expected an integer",
		"found 1e400");
	refused("{\"name\":\"t\"," BOTS ",\"time\":{\"move_ms\":7.0}}", "time.move_ms", "found 7.0");
	refused("{\"name\":\"t\"," BOTS ",\"stderr_cap\":1e300}", "stderr_cap: expected an integer",
		NULL);
	refused("{\"name\":\"t\"," BOTS ",\"concurrency\":9007199254740993}", "concurrency", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"concurrency\":-9223372036854775809}", "concurrency",
		NULL);
	refused("{\"name\":\"t\"," BOTS ",\"limits\":{\"memory_mb\":-1e400}}",
		"limits.memory_mb: expected an integer", NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"],"
		"\"limits\":{\"processes\":2147483648}}]}", "bots[0].limits.processes", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"seed\":7.0}", "seed: expected", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"seed\":1e400}", "seed: expected", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"seed\":9007199254740992}", "seed: expected", NULL);
}

/* A key given twice is refused wherever it is, with the key and where. */
static void test_duplicate_keys(void **state)
{
	(void)state;
	refused("{\"name\":\"t\",\"name\":\"u\"," BOTS "}", "duplicate key \"name\"", "line 1");
	refused("{\"name\":\"t\"," BOTS ",\"time\":{\"move_ms\":5,\"move_ms\":9}}",
		"duplicate key \"move_ms\"", "time");
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"],"
		"\"env\":{\"X\":\"1\",\"X\":\"2\"}}]}", "duplicate key \"X\"", "bots[0].env");
}

/* What a message quotes from the file (a key, a name, a path) is escaped: one line, no ESC. */
static void test_message_escapes_file_text(void **state)
{
	(void)state;
	refused("{\"name\":\"t\"," BOTS ",\"x\\n\\u001b[2J\":1}", "x\\012\\033[2J: unknown key",
		NULL);
	refused("{\"name\":\"t\"," BOTS ",\"rules\":{\"mode\":\"\\u001b]0;t\\u0007\"}}",
		"found \"\\033]0;t\\007\"", NULL);
}

/* An environment variable name of any length is recorded whole in tournament.json. */
static void test_long_env_name(void **state)
{
	char name[400], text[1024], *json;
	struct config a, b;
	char err[CONFIG_ERR_MAX] = "";

	(void)state;
	memset(name, 'N', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text), "{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":"
		 "[\"/bin/sh\"],\"env\":{\"%s\":\"v\"}},{\"name\":\"b\",\"command\":"
		 "[\"/bin/sh\"]}]}", name);
	assert_int_equal(config_parse(text, strlen(text), dir, &a, err, sizeof(err)), 0);
	json = config_to_json(&a, 0);
	assert_non_null(json);
	assert_int_equal(config_parse(json, strlen(json), dir, &b, err, sizeof(err)), 0);
	assert_string_equal(b.bots[0].env[0], a.bots[0].env[0]);
	assert_int_equal(strlen(b.bots[0].env[0]), strlen(name) + 2);
	free(json);
	config_release(&a);
	config_release(&b);
}

static void test_impossible_rules(void **state)
{
	const char *six = "\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"]},"
			  "{\"name\":\"b\",\"command\":[\"/bin/sh\"]},{\"name\":\"c\",\"command\":[\"/bin/sh\"]},"
			  "{\"name\":\"d\",\"command\":[\"/bin/sh\"]},{\"name\":\"e\",\"command\":[\"/bin/sh\"]},"
			  "{\"name\":\"f\",\"command\":[\"/bin/sh\"]}]";
	char text[1024];

	(void)state;
	/* R3: 6 x (30 + 5) > 162 */
	snprintf(text, sizeof(text), "{\"name\":\"t\",%s,\"players\":6,\"rules\":{\"stock_size\":30}}",
		 six);
	refused(text, "rules: impossible rules for 6 players", NULL);
	/* R2: partnership needs 4 or 6 players */
	snprintf(text, sizeof(text), "{\"name\":\"t\",%s,\"players\":3,\"rules\":{\"partnership\":true}}",
		 six);
	refused(text, "rules: impossible rules for 3 players", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"rules\":{\"mode\":\"tourney\"}}",
		"rules.mode: expected \"game\" or \"match\"", NULL);
}

static void test_bot_names(void **state)
{
	(void)state;
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"]},"
		"{\"name\":\"a\",\"command\":[\"/bin/sh\"]}]}", "bots[1].name: duplicate bot name \"a\"",
		NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a/b\",\"command\":[\"/bin/sh\"]}]}",
		"bots[0].name: expected a name", NULL);
	refused("{\"name\":\"../x\"," BOTS "}", "name: expected a tournament name", NULL);
	refused("{" BOTS "}", "no \"name\": the tournament needs one", NULL);
}

static void test_bot_commands(void **state)
{
	(void)state;
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/nonexistent/bot\"]}]}",
		"bots[0].command: no such file", "/nonexistent/bot");
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"./plain.txt\"]}]}",
		"bots[0].command", "is not executable");
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/tmp\"]}]}",
		"bots[0].command", "is not a regular file");
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"no-such-bot-xyz\"]}]}",
		"bots[0].command: command \"no-such-bot-xyz\" not found in PATH", NULL);
	refused("{\"name\":\"t\",\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"],"
		"\"cwd\":\"plain.txt\"}]}", "bots[0].cwd", "is not a directory");
}

static void test_defaults_and_resolution(void **state)
{
	const char *text = "{\"name\":\"demo\",\"bots\":[{\"name\":\"a\",\"command\":[\"./bot.sh\",\"x\"],"
			   "\"env\":{\"K\":\"V\"},\"limits\":{\"memory_mb\":64}},"
			   "{\"name\":\"b\",\"command\":[\"sh\"],\"cwd\":\"/\"}],"
			   "\"seed\":\"18446744073709551615\"}";
	struct config cfg;
	char err[CONFIG_ERR_MAX] = "", want[128];

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), dir, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cfg.players, 2);
	assert_int_equal(cfg.stock_size, 30); /* R3 default for 2 players */
	assert_int_equal(cfg.duplicate, 1);
	assert_int_equal(cfg.match, 0);
	assert_int_equal(cfg.pin, 1);
	assert_true(cfg.concurrency >= 1);
	assert_int_equal(cfg.move_ms, CONFIG_DEFAULT_MOVE_MS);
	assert_true(cfg.seed == UINT64_MAX);
	assert_string_equal(cfg.output, "results/demo");
	snprintf(want, sizeof(want), "%s/bot.sh", dir);
	assert_string_equal(cfg.bots[0].argv[0], want);
	assert_string_equal(cfg.bots[0].argv[1], "x");
	assert_null(cfg.bots[0].argv[2]);
	assert_string_equal(cfg.bots[0].env[0], "K=V");
	assert_int_equal(cfg.bots[0].limits.memory_mb, 64);
	assert_int_equal(cfg.bots[1].limits.memory_mb, cfg.limits.memory_mb);
	assert_string_equal(cfg.bots[1].cwd, "/");
	assert_true(cfg.bots[1].argv[0][0] == '/');
	config_release(&cfg);
}

static void test_resolved_json_round_trip(void **state)
{
	const char *text = "{\"name\":\"t\"," BOTS ",\"deals\":3,\"rules\":{\"stock_size\":7,"
			   "\"mode\":\"match\"},\"seed\":1234567890123}";
	struct config a, b;
	char err[CONFIG_ERR_MAX] = "", *ja, *jb, *ga, *gb;

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), dir, &a, err, sizeof(err)), 0);
	ja = config_to_json(&a, 0);
	assert_non_null(ja);
	if (config_parse(ja, strlen(ja), dir, &b, err, sizeof(err)) != 0)
		fail_msg("the resolved file does not load again: %s", err);
	jb = config_to_json(&b, 0);
	assert_string_equal(ja, jb);
	assert_true(b.seed == a.seed);
	assert_int_equal(b.match, 1);
	assert_int_equal(b.stock_size, 7);
	ga = config_to_json(&a, 1);
	b.concurrency = a.concurrency + 3; /* does not change the games */
	gb = config_to_json(&b, 1);
	assert_string_equal(ga, gb);
	assert_null(strstr(ga, "concurrency"));
	free(ja);
	free(jb);
	free(ga);
	free(gb);
	config_release(&a);
	config_release(&b);
}

/* "sandbox" and "stderr_total_cap": their defaults, values, refusals, and that they change no game. */
static void test_sandbox_and_total_cap(void **state)
{
	const char *text = "{\"name\":\"t\"," BOTS ",\"sandbox\":\"on\",\"stderr_total_cap\":4096,"
			   "\"seed\":5}";
	const char *plain = "{\"name\":\"t\"," BOTS ",\"seed\":5}";
	struct config a, b;
	char err[CONFIG_ERR_MAX] = "", *ja, *ga, *gb;

	(void)state;
	assert_int_equal(config_parse(plain, strlen(plain), dir, &b, err, sizeof(err)), 0);
	assert_int_equal(b.sandbox, SANDBOX_AUTO);
	assert_int_equal(b.stderr_total_cap, CONFIG_DEFAULT_STDERR_TOTAL_CAP);
	assert_int_equal(config_parse(text, strlen(text), dir, &a, err, sizeof(err)), 0);
	assert_int_equal(a.sandbox, SANDBOX_ON);
	assert_int_equal(a.stderr_total_cap, 4096);
	ja = config_to_json(&a, 0);
	assert_non_null(strstr(ja, "\"sandbox\":\t\"on\""));
	assert_non_null(strstr(ja, "\"stderr_total_cap\":\t4096"));
	ga = config_to_json(&a, 1);
	gb = config_to_json(&b, 1);
	assert_string_equal(ga, gb);
	free(ja);
	free(ga);
	free(gb);
	config_release(&a);
	config_release(&b);
	refused("{\"name\":\"t\"," BOTS ",\"sandbox\":\"yes\"}",
		"sandbox: expected \"auto\", \"on\", \"sealed\" or \"off\"", "\"yes\"");
	refused("{\"name\":\"t\"," BOTS ",\"sandbox\":true}", "sandbox: expected", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"stderr_total_cap\":-1}", "stderr_total_cap", NULL);
}

/* "sandbox": "sealed" and "system": kept, written back, each directory checked. */
static void test_sealed_and_system(void **state)
{
	const char *text = "{\"name\":\"t\"," BOTS ",\"sandbox\":\"sealed\","
			   "\"system\":[\"/usr/lib\",\"/etc\"]}";
	struct config c;
	char err[CONFIG_ERR_MAX] = "", *json;

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), dir, &c, err, sizeof(err)), 0);
	assert_int_equal(c.sandbox, SANDBOX_SEALED);
	assert_int_equal(c.nsystem, 2);
	assert_string_equal(c.system[0], "/usr/lib");
	assert_string_equal(c.system[1], "/etc");
	assert_null(c.system[2]);
	json = config_to_json(&c, 0);
	assert_non_null(strstr(json, "\"sandbox\":\t\"sealed\""));
	assert_non_null(strstr(json, "\"system\":\t[\"/usr/lib\", \"/etc\"]"));
	free(json);
	config_release(&c);
	refused("{\"name\":\"t\"," BOTS ",\"system\":\"/usr\"}",
		"system: expected a non-empty array of directories", "the string \"/usr\"");
	refused("{\"name\":\"t\"," BOTS ",\"system\":[]}",
		"system: expected a non-empty array of directories", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"system\":[\"/usr\",\"usr/lib\"]}",
		"system[1]: expected an absolute path", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"system\":[\"/nonexistent-skipbo\"]}",
		"system[0]: \"/nonexistent-skipbo\" is no directory on this machine", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"system\":[\"/etc/hostname\"]}",
		"is no directory on this machine", NULL);
	refused("{\"name\":\"t\"," BOTS ",\"system\":[\"/usr/../etc\"]}",
		"system[0]: \"/usr/../etc\" is not the directory's own path: name \"/etc\"", NULL);
}

#define BOTS3 "\"bots\":[{\"name\":\"a\",\"command\":[\"/bin/sh\"]},{\"name\":\"b\"," \
	"\"command\":[\"/bin/sh\"]},{\"name\":\"c\",\"command\":[\"/bin/sh\"]}]"

/* A gauntlet names its challengers among the bots; tournament.json keeps them. */
static void test_gauntlet(void **state)
{
	const char *text = "{\"name\":\"t\"," BOTS3 ",\"format\":\"gauntlet\","
			   "\"challengers\":[\"c\"]}";
	struct config cfg, again;
	char err[CONFIG_ERR_MAX] = "", *json;

	(void)state;
	assert_int_equal(config_parse(text, strlen(text), dir, &cfg, err, sizeof(err)), 0);
	assert_non_null(cfg.challenger);
	assert_int_equal(cfg.challenger[0] + cfg.challenger[1], 0);
	assert_int_equal(cfg.challenger[2], 1);
	json = config_to_json(&cfg, 1);
	assert_non_null(strstr(json, "\"gauntlet\""));
	assert_int_equal(config_parse(json, strlen(json), dir, &again, err, sizeof(err)), 0);
	assert_non_null(again.challenger);
	assert_int_equal(again.challenger[2], 1);
	free(json);
	config_release(&again);
	config_release(&cfg);
	/* a round robin's tournament.json has neither key, as before gauntlets existed */
	text = "{\"name\":\"t\"," BOTS3 "}";
	assert_int_equal(config_parse(text, strlen(text), dir, &cfg, err, sizeof(err)), 0);
	assert_null(cfg.challenger);
	json = config_to_json(&cfg, 0);
	assert_null(strstr(json, "challengers"));
	assert_null(strstr(json, "format"));
	free(json);
	config_release(&cfg);
	refused("{\"name\":\"t\"," BOTS3 ",\"format\":\"swiss\"}", "format",
		"expected \"round-robin\" or \"gauntlet\"");
	refused("{\"name\":\"t\"," BOTS3 ",\"format\":\"gauntlet\"}", "challengers",
		"non-empty array of bot names");
	refused("{\"name\":\"t\"," BOTS3 ",\"challengers\":[\"a\"]}", "challengers",
		"only for \"format\": \"gauntlet\"");
	refused("{\"name\":\"t\"," BOTS3 ",\"format\":\"gauntlet\",\"challengers\":[\"x\"]}",
		"challengers[0]", "the name of a bot");
	refused("{\"name\":\"t\"," BOTS3 ",\"format\":\"gauntlet\",\"challengers\":[\"a\",\"a\"]}",
		"challengers[1]", "named twice");
	refused("{\"name\":\"t\"," BOTS ",\"format\":\"gauntlet\",\"challengers\":[\"a\",\"b\"]}",
		"challengers", "every bot is a challenger");
}

/*
 * "seed": none given draws 64 random bits (two parses differ), never a fixed
 * default. "processes": fresh by default, "reuse" the opt-out, in the
 * games-only text (a resume must keep it), anything else refused.
 */
static void test_seed_and_processes(void **state)
{
	const char *plain = "{\"name\":\"t\"," BOTS "}";
	const char *reuse = "{\"name\":\"t\"," BOTS ",\"processes\":\"reuse\",\"seed\":1}";
	struct config a, b;
	char err[CONFIG_ERR_MAX] = "", *ja, *jb;

	(void)state;
	assert_int_equal(config_parse(plain, strlen(plain), dir, &a, err, sizeof(err)), 0);
	assert_int_equal(config_parse(plain, strlen(plain), dir, &b, err, sizeof(err)), 0);
	assert_false(a.has_seed);
	assert_true(a.seed != b.seed);
	assert_int_equal(a.processes, CONFIG_PROCESSES_FRESH);
	ja = config_to_json(&a, 1);
	assert_non_null(strstr(ja, "\"processes\":\t\"fresh\""));
	free(ja);
	config_release(&a);
	config_release(&b);
	assert_int_equal(config_parse(reuse, strlen(reuse), dir, &a, err, sizeof(err)), 0);
	assert_true(a.has_seed && a.seed == 1);
	assert_int_equal(a.processes, CONFIG_PROCESSES_REUSE);
	ja = config_to_json(&a, 1);
	assert_non_null(strstr(ja, "\"processes\":\t\"reuse\""));
	/* tournament.json read back as a tournament file: the same tournament */
	assert_int_equal(config_parse(ja, strlen(ja), dir, &b, err, sizeof(err)), 0);
	jb = config_to_json(&b, 1);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	config_release(&a);
	config_release(&b);
	refused("{\"name\":\"t\"," BOTS ",\"processes\":\"shared\"}", "processes",
		"expected \"fresh\" or \"reuse\"");
}

/* "replays": its default, its three values, refusals, and that it changes no game. */
static void test_replays(void **state)
{
	const char *plain = "{\"name\":\"t\"," BOTS ",\"seed\":5}";
	static const char *const words[] = { "all", "faults", "none" };
	struct config a, b;
	char err[CONFIG_ERR_MAX] = "", text[512], *ja, *ga, *gb;

	(void)state;
	assert_int_equal(config_parse(plain, strlen(plain), dir, &b, err, sizeof(err)), 0);
	assert_int_equal(b.replays, CONFIG_REPLAYS_ALL);
	gb = config_to_json(&b, 1);
	for (int k = 0; k < 3; k++) {
		snprintf(text, sizeof(text), "{\"name\":\"t\"," BOTS ",\"replays\":\"%s\",\"seed\":5}",
			 words[k]);
		assert_int_equal(config_parse(text, strlen(text), dir, &a, err, sizeof(err)), 0);
		assert_int_equal(a.replays, k);
		ja = config_to_json(&a, 0);
		snprintf(text, sizeof(text), "\"replays\":\t\"%s\"", words[k]);
		assert_non_null(strstr(ja, text));
		ga = config_to_json(&a, 1);
		assert_string_equal(ga, gb);
		free(ja);
		free(ga);
		config_release(&a);
	}
	free(gb);
	config_release(&b);
	refused("{\"name\":\"t\"," BOTS ",\"replays\":\"some\"}",
		"replays: expected \"all\", \"faults\" or \"none\"", "\"some\"");
	refused("{\"name\":\"t\"," BOTS ",\"replays\":false}", "replays: expected", NULL);
}

static void test_load_names_file(void **state)
{
	struct config cfg;
	char err[CONFIG_ERR_MAX] = "";

	(void)state;
	assert_true(config_load("/nonexistent/t.json", &cfg, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/nonexistent/t.json: cannot read the tournament file: "
				 "No such file or directory"));
}

/* config_load of text written to dir/name; the error text, or NULL when it loads. */
static char *load_text(const char *name, const char *text, char *err, size_t size)
{
	char path[128];
	struct config cfg;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chdir(dir), 0);
	if (config_load(name, &cfg, err, size) == 0) {
		config_release(&cfg);
		return NULL;
	}
	assert_null(cfg.bots);
	return err;
}

#define SH "\"command\": [\"/bin/sh\"]"

/* Every error of the file in one pass, each FILE:LINE:COLUMN, the line and a caret under the place. */
static void test_errors_with_positions(void **state)
{
	static char err[CONFIG_ERR_MAX];
	const char *text =
		"{\n"
		"  \"name\": \"t\",\n"
		"  \"bots\": [{\"name\": \"a\", " SH "}, {\"name\": \"b\", " SH "}],\n"
		"  \"time\": {\"move_ms\": \"ten\"},\n"
		"  \"duplicate\": \"yes\",\n"
		"  \"plyers\": 2\n"
		"}\n";

	(void)state;
	assert_non_null(load_text("t.json", text, err, sizeof(err)));
	assert_non_null(strstr(err, "t.json:4:23: time.move_ms: expected an integer from 0 to "
			       "3600000, found the string \"ten\"\n"
			       "    \"time\": {\"move_ms\": \"ten\"},\n"
			       "                        ^\n"));
	/* in the file's order */
	assert_true(strstr(err, "t.json:4:") < strstr(err, "t.json:5:"));
	assert_true(strstr(err, "t.json:5:") < strstr(err, "t.json:6:"));
	assert_non_null(strstr(err, "t.json:5:16: duplicate: expected true or false, found the "
			       "string \"yes\"\n"));
	assert_non_null(strstr(err, "t.json:6:3: plyers: unknown key; did you mean "
			       "\"players\"?"));
	assert_non_null(strstr(err, "    \"plyers\": 2\n    ^\n"));
}

/* An unknown key far from every known one gets the list without a guess. */
static void test_unknown_key_without_guess(void **state)
{
	(void)state;
	refused("{\"name\":\"t\"," BOTS ",\"zzzzzzzz\":2}", "zzzzzzzz: unknown key (expected one of:",
		NULL);
	refused("{\"name\":\"t\"," BOTS ",\"dels\":2}", "dels: unknown key; did you mean \"deals\"?",
		NULL);
}

/* Trailing commas are JSONC: the natural edit after commenting out the last bot. */
static void test_trailing_commas(void **state)
{
	static char err[CONFIG_ERR_MAX];
	const char *text =
		"{\n"
		"  \"name\": \"t\",\n"
		"  \"bots\": [\n"
		"    {\"name\": \"a\", " SH ",},\n"
		"    {\"name\": \"b\", " SH "},\n"
		"    // {\"name\": \"c\", " SH "}\n"
		"  ],\n"
		"}\n";

	(void)state;
	assert_null(load_text("t.json", text, err, sizeof(err)));
	/* two commas are still one too many, named at the second */
	assert_non_null(load_text("t.json", "{\"name\": \"t\",, " BOTS "}", err, sizeof(err)));
	assert_non_null(strstr(err, "t.json:1:14: "));
	assert_non_null(load_text("t.json", "{\"name\": \"t\", " BOTS ", \"seed\": [,]}", err,
				  sizeof(err)));
	assert_non_null(strstr(err, "t.json:1:"));
}

static void test_duplicate_key_position(void **state)
{
	static char err[CONFIG_ERR_MAX];

	(void)state;
	assert_non_null(load_text("t.json", "{\"name\": \"t\", " BOTS ",\n \"deals\": 3,\n"
				  " \"deals\": 4}", err, sizeof(err)));
	assert_non_null(strstr(err, "t.json:3:2: duplicate key \"deals\""));
	assert_non_null(strstr(err, "   \"deals\": 4}\n   ^\n"));
	/* the other mistakes of the file too, in its order */
	assert_non_null(load_text("t.json", "{\"name\": \"t\", " BOTS ",\n \"players\": 9,\n"
				  " \"deals\": 3,\n \"deals\": 4,\n \"plyers\": 2,\n"
				  " \"format\": \"gauntlet\"}", err, sizeof(err)));
	assert_non_null(strstr(err, "t.json:2:13: players: expected an integer from 2 to 6"));
	assert_non_null(strstr(err, "t.json:4:2: duplicate key \"deals\""));
	assert_non_null(strstr(err, "t.json:5:2: plyers: unknown key; did you mean"));
	assert_non_null(strstr(err, "t.json:6:12: format: challengers: expected a non-empty array"));
	assert_true(strstr(err, "t.json:2:") < strstr(err, "t.json:4:"));
	assert_true(strstr(err, "t.json:4:") < strstr(err, "t.json:5:"));
}

/* An empty file, comments alone, a directory and an unreadable file: each its own sentence. */
static void test_file_messages(void **state)
{
	static char err[CONFIG_ERR_MAX];
	struct config cfg;

	(void)state;
	assert_non_null(load_text("t.json", "", err, sizeof(err)));
	assert_non_null(strstr(err, "t.json:1:1: empty file: expected a JSON object"));
	assert_non_null(load_text("t.json", "// nothing yet\n", err, sizeof(err)));
	assert_non_null(strstr(err, "t.json:1:1: nothing but comments: expected a JSON object"));
	assert_int_equal(config_load(dir, &cfg, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, ": a directory, not a tournament file"));
	/* reading fails (EIO) whoever runs the test, root included */
	assert_true(config_load("/proc/self/mem", &cfg, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/proc/self/mem: cannot read the tournament file: "));
}

/* Past JSONC_ERRORS_MAX errors, the rest are counted. */
static void test_error_bound(void **state)
{
	static char err[CONFIG_ERR_MAX];
	char text[2048] = "{\"name\": \"t\", " BOTS;

	(void)state;
	for (int i = 0; i < JSONC_ERRORS_MAX + 5; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ",\n\"unknown%d\": 1", i);
	strlcat(text, "}", sizeof(text));
	assert_non_null(load_text("t.json", text, err, sizeof(err)));
	assert_non_null(strstr(err, "unknown19: unknown key"));
	assert_null(strstr(err, "unknown20: unknown key"));
	assert_non_null(strstr(err, "5 more errors not shown\n"));
}

/* Names: UTF-8 letters are letters; what could hide or reorder text is not. */
static void test_names_utf8(void **state)
{
	(void)state;
	assert_true(names_valid("j\xc3\xa4" "ger"));              /* jäger */
	assert_true(names_valid("\xd0\xb1\xd0\xbe\xd1\x82-2"));  /* бот-2 */
	assert_true(names_valid("alpha_1.5"));
	assert_false(names_valid("j\xc3"));                     /* cut short */
	assert_false(names_valid("j\xc1\xa4" "ger"));             /* overlong */
	assert_false(names_valid("a\xe2\x80\xae" "b"));           /* right-to-left override */
	assert_false(names_valid("a\xc2\xa0" "b"));               /* no-break space */
	assert_false(names_valid("a\xc3\x97" "b"));               /* multiplication sign */
	assert_false(names_valid("a b"));
	assert_false(names_valid(".hidden"));
	assert_false(names_valid("a/b"));
}

/* A misspelt command gets the nearest file of its folder, or of PATH, as "did you mean". */
static void test_command_did_you_mean(void **state)
{
	char top[] = "/tmp/test-config-near-XXXXXX", path[128], out[PATH_MAX], why[2 * PATH_MAX];
	char want[160], *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(path, sizeof(path), "%s/skipbo-mybot", top);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	snprintf(want, sizeof(want), "did you mean \"%s\"?", path);
	snprintf(path, sizeof(path), "%s/skipbo-mybto", top);
	assert_int_equal(config_resolve_command(path, "/", out, sizeof(out), why, sizeof(why)),
			 -ENOENT);
	if (!strstr(why, want))
		fail_msg("no \"%s\" in: %s", want, why);
	setenv("PATH", top, 1);
	assert_int_equal(config_resolve_command("skipbo-mybto", "/", out, sizeof(out), why,
						sizeof(why)), -ENOENT);
	if (!strstr(why, want))
		fail_msg("no \"%s\" in: %s", want, why);
	/* nothing near: no guess */
	assert_int_equal(config_resolve_command("zzzzqqqq", "/", out, sizeof(out), why,
						sizeof(why)), -ENOENT);
	assert_null(strstr(why, "did you mean"));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	snprintf(path, sizeof(path), "%s/skipbo-mybot", top);
	unlink(path);
	rmdir(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_error_names_position),
		cmocka_unit_test(test_comments_are_blank),
		cmocka_unit_test(test_strip_keeps_offsets),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_strict_numbers),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_sandbox_and_total_cap),
		cmocka_unit_test(test_sealed_and_system),
		cmocka_unit_test(test_replays),
		cmocka_unit_test(test_seed_and_processes),
		cmocka_unit_test(test_long_env_name),
		cmocka_unit_test(test_message_escapes_file_text),
		cmocka_unit_test(test_impossible_rules),
		cmocka_unit_test(test_bot_names),
		cmocka_unit_test(test_bot_commands),
		cmocka_unit_test(test_defaults_and_resolution),
		cmocka_unit_test(test_resolved_json_round_trip),
		cmocka_unit_test(test_load_names_file),
		cmocka_unit_test(test_gauntlet),
		cmocka_unit_test(test_errors_with_positions),
		cmocka_unit_test(test_unknown_key_without_guess),
		cmocka_unit_test(test_trailing_commas),
		cmocka_unit_test(test_duplicate_key_position),
		cmocka_unit_test(test_file_messages),
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_names_utf8),
		cmocka_unit_test(test_command_did_you_mean),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
