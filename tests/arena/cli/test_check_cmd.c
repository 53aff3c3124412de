/*
 * test_check_cmd.c - `skipbo-arena check` against every misbehaving mode of
 * badbot (tests/badbots/badbot.c): each must get its diagnosis and exit 1,
 * and a well-behaved bot must pass with exit 0; the resource-limit options
 * reach the bot under check (badbot report shows its limits); the bots'
 * stderr is shown live (badbot chatty), hidden, or kept in files, and its
 * last lines quoted with a fault; a faulty game's "reproduce:" command plays
 * it again; play shows, hides or keeps the stderr the same way.
 *
 * The command runs through check_driver (cmd_check() as a program) with
 * small time limits and the opponent given with --opponent; one test runs
 * the real skipbo-arena with its default opponent, skipbo-easy, when the
 * build has it.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define RUN_TIMEOUT_MS 20000
#define ARGS_MAX 32

struct run {
	int status;   /* exit status, or 128 + signal */
	char *out;    /* stdout and stderr together; valid until the next run */
};

static char opponent[512];
static char *last_out; /* a failed assertion jumps out of the test: freed by the next run */

/* Run argv (NULL-terminated) with stdout and stderr to one file; read it back. */
static struct run run_argv(char *const *argv)
{
	char path[] = "/tmp/test_check_cmd.XXXXXX";
	struct timespec pause = { 0, 5 * 1000 * 1000 };
	struct run r = { -1, NULL };
	int fd = mkstemp(path), status = 0, waited = 0;
	pid_t pid, done;
	FILE *f;
	long size;

	assert_true(fd >= 0);
	unlink(path);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	while ((done = waitpid(pid, &status, WNOHANG)) == 0 && waited < RUN_TIMEOUT_MS) {
		nanosleep(&pause, NULL);
		waited += 5;
	}
	if (done == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		fail_msg("%s %s: still running after %d ms", argv[0], argv[1], RUN_TIMEOUT_MS);
	}
	r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	f = fdopen(fd, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	rewind(f);
	r.out = calloc(1, (size_t)size + 1);
	assert_non_null(r.out);
	assert_int_equal(fread(r.out, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	free(last_out);
	last_out = r.out;
	return r;
}

/*
 * check_driver with quick limits and badbot good as the opponent, then the
 * extra options and the bot's argv, each list NULL-terminated.
 */
static struct run run_check(const char *const *options, const char *const *bot)
{
	char *argv[ARGS_MAX];
	int n = 0;
	static const char *const quick[] = { "--games", "2", "--stock", "5", "--move-ms", "200",
		"--startup-ms", "1500", "--opponent", opponent, NULL };

	argv[n++] = (char *)CHECK_DRIVER_PATH;
	for (int i = 0; quick[i]; i++)
		argv[n++] = (char *)quick[i];
	for (int i = 0; options && options[i]; i++)
		argv[n++] = (char *)options[i];
	argv[n++] = (char *)"--";
	for (int i = 0; bot[i] && n < ARGS_MAX - 1; i++)
		argv[n++] = (char *)bot[i];
	argv[n] = NULL;
	return run_argv(argv);
}

/* Generous limits wherever the fault looked for is not one of time, so that a busy
 * machine adds no problem of its own to those counted. */
static const char *const relaxed[] = { "--move-ms", "30000", "--startup-ms", "60000", NULL };

/* The modes whose faults are the quick limits' (run_check's): a start or a move too late. */
static bool timed(const char *mode)
{
	static const char *const modes[] = { "no-hello", "never-answer", "late", "no-read",
					     "no-newline" };

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(mode, modes[i]) == 0)
			return true;
	return false;
}

/* badbot MODE [ARG]: exit status and every expected part of the report. */
static void expect_badbot(const char *mode, const char *arg, int status, ...)
{
	const char *bot[] = { BADBOT_PATH, mode, arg, NULL };
	struct run r = run_check(timed(mode) ? NULL : relaxed, bot);
	const char *part;
	va_list ap;

	if (r.status != status)
		fail_msg("badbot %s: exit %d, expected %d; output:\n%s", mode, r.status, status,
			 r.out);
	va_start(ap, status);
	while ((part = va_arg(ap, const char *)))
		if (!strstr(r.out, part))
			fail_msg("badbot %s: \"%s\" missing from:\n%s", mode, part, r.out);
	va_end(ap);
}

static void test_good_passes(void **state)
{
	(void)state;
	/* the bot is named by its hello in each game's result, not by its program (badbot) */
	expect_badbot("good", NULL, 0, "hello: {\"type\":\"hello\",\"protocol\":1,",
		      "result: stock_emptied", "; badbot-good placed ", "time per move (", "median",
		      "p99", "max",
		      "limit 30000 ms per move", "\nPASS\n", NULL);
}

static void test_exit_at_start(void **state)
{
	(void)state;
	expect_badbot("exit-at-start", "3", 1, "PROBLEM 1: start fault",
		      "exited with status 3 before its hello", "expected: a first line",
		      "PROBLEM 2: start fault", "FAIL: 2 problems\n", NULL);
}

/* The same start failure three games in a row ends the check early. */
static void test_start_failures_stop_early(void **state)
{
	const char *options[] = { "--games", "6", NULL };
	const char *bot[] = { BADBOT_PATH, "exit-at-start", NULL };
	struct run r = run_check(options, bot);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "game 3/6") || strstr(r.out, "game 4/6") ||
	    !strstr(r.out, "stopping: the bot could not start 3 times in a row; 3 games not played") ||
	    !strstr(r.out, "FAIL: 3 problems\n"))
		fail_msg("did not stop after three failed starts:\n%s", r.out);
}

static void test_no_hello(void **state)
{
	(void)state;
	expect_badbot("no-hello", NULL, 1, "start fault: no hello within 1500 ms of its start",
		      "expected: a first line {\"type\":\"hello\",\"protocol\":1,", "FAIL: 2 problems",
		      NULL);
}

static void test_never_answer(void **state)
{
	(void)state;
	expect_badbot("never-answer", NULL, 1, "timeout fault at turn 1, decision 1",
		      "no answer within 200 ms", "expected: an answer within 200 ms per move",
		      "position:", "hand:", "FAIL: 2 problems", NULL);
}

static void test_late(void **state)
{
	(void)state;
	expect_badbot("late", "400", 1, "timeout fault", "no answer within 200 ms",
		      "FAIL: 2 problems", NULL);
}

/* A slow but legal bot passes, and its measured times show the delay. */
static void test_late_within_limit(void **state)
{
	const char *options[] = { "--games", "1", "--move-ms", "2000", NULL };
	const char *bot[] = { BADBOT_PATH, "late", "20", NULL };
	struct run r = run_check(options, bot);
	const char *median;
	double ms;

	(void)state;
	assert_int_equal(r.status, 0);
	median = strstr(r.out, "median ");
	if (!median || sscanf(median, "median %lf ms", &ms) != 1)
		fail_msg("no median in:\n%s", r.out);
	if (ms < 20.0 || ms >= 2000.0)
		fail_msg("median %.3f ms for a bot that sleeps 20 ms per move:\n%s", ms, r.out);
	assert_non_null(strstr(r.out, "limit 2000 ms per move"));
	assert_non_null(strstr(r.out, "\nPASS\n"));
}

static void test_garbage(void **state)
{
	(void)state;
	/* a fault in what the bot wrote: its reason says where, once */
	expect_badbot("garbage", NULL, 1, "PROBLEM 1: malformed fault: ", "not JSON",
		      " (at turn 1, move 1)\n",
		      "line:     this is {not json\n", "expected: one line holding one JSON object",
		      "such as:  {\"type\":\"move\",\"move\":{\"action\":", "FAIL: 2 problems", NULL);
}

static void test_huge_line(void **state)
{
	(void)state;
	expect_badbot("huge-line", "100000", 1, "malformed fault",
		      "line longer than 65536 bytes", "at most 65536 bytes", "FAIL: 2 problems",
		      NULL);
}

static void test_close_stdout(void **state)
{
	(void)state;
	expect_badbot("close-stdout", NULL, 1, "closed fault",
		      "closed its standard output while still running", "FAIL: 2 problems", NULL);
}

static void test_no_read(void **state)
{
	(void)state;
	expect_badbot("no-read", NULL, 1, "start fault: no hello within 1500 ms",
		      "FAIL: 2 problems", NULL);
}

static void test_die_midgame(void **state)
{
	(void)state;
	expect_badbot("die-midgame", "3", 1, "exit fault at turn", "exited with status 3",
		      "time per move (", "FAIL: 2 problems", NULL);
}

static void test_die_by_signal(void **state)
{
	const char *bot[] = { BADBOT_PATH, "die-midgame", "2", "sig11", NULL };
	struct run r = run_check(NULL, bot);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "exit fault") || !strstr(r.out, "killed by signal 11"))
		fail_msg("no signal diagnosis in:\n%s", r.out);
}

/*
 * Unsandboxed, a process the bot left behind can hold its output open; in a
 * sandbox it dies with the bot, which is then simply seen to exit.
 */
static void test_fork_holder(void **state)
{
	static const char *const off[] = { "--sandbox", "off", NULL };
	const char *bot[] = { BADBOT_PATH, "fork-holder", NULL };
	struct run r = run_check(off, bot);

	(void)state;
	if (r.status != 1 || !strstr(r.out, "exit fault") || !strstr(r.out, "FAIL: 2 problems") ||
	    !strstr(r.out, "a process it left behind holds its output open"))
		fail_msg("unsandboxed fork-holder: exit %d, output:\n%s", r.status, r.out);
	expect_badbot("fork-holder", NULL, 1, "exit fault", "FAIL: 2 problems", NULL);
}

static void test_stderr_flood_passes(void **state)
{
	(void)state;
	/* the terminal gets a bounded share of the flood, and is told so; its lines are tagged
	 * by the program's name until the hello is read, then by the hello's, whenever that is */
	expect_badbot("stderr-flood", NULL, 0,
		      "] badbot-stderr-flood: a line of noise to fill the log\n",
		      "[badbot", " bytes of stderr not shown: more than 65536 in one game",
		      "\nPASS\n", NULL);
}

static void test_illegal(void **state)
{
	(void)state;
	expect_badbot("illegal", NULL, 1, "illegal fault: ", " (at turn ",
		      "sent:     {\"type\":\"move\"", "expected: one of the request's \"legal\" moves",
		      "position:", "hand:", "building piles:", "(you): stock top", "discard tops",
		      "legal alternatives (", "      {\"action\":\"discard\",", "FAIL: 2 problems",
		      NULL);
}

static void test_wrong_type(void **state)
{
	(void)state;
	expect_badbot("wrong-type", NULL, 1, "protocol fault: ",
		      "expected \"type\":\"move\", got \"moove\"", " (at turn 1, move 1)\n",
		      "line:     {\"type\":\"moove\"", "expected: one line holding one JSON object", "FAIL: 2 problems", NULL);
}

static void test_bad_hello(void **state)
{
	const char *bot[] = { "/bin/sh", "-c",
		"echo '{\"type\":\"hello\",\"protocol\":2,\"name\":\"future\"}'; cat >/dev/null", NULL };
	struct run r = run_check(NULL, bot);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "bad hello") || !strstr(r.out, "protocol 2") ||
	    !strstr(r.out, "line:     {\"type\":\"hello\",\"protocol\":2,\"name\":\"future\"}") ||
	    !strstr(r.out, "expected: a first line"))
		fail_msg("no bad-hello diagnosis in:\n%s", r.out);
}

static void test_no_such_file(void **state)
{
	const char *bot[] = { "/nonexistent/bot", NULL };
	struct run r = run_check(NULL, bot);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "could not start") || !strstr(r.out, "No such file or directory"))
		fail_msg("no start diagnosis in:\n%s", r.out);
}

/* A bot whose error comes after its deadline (a file it could not open): the error is quoted. */
static void test_late_stderr_quoted(void **state)
{
	const char *bot[] = { "/bin/sh", "-c",
		"echo '{\"type\":\"hello\",\"protocol\":1,\"name\":\"late-words\"}'; "
		"while read line; do case \"$line\" in *'\"type\":\"request\"'*) sleep 0.4; "
		"echo 'bot.sh: choose.jq: No such file or directory' >&2; exit 3;; esac; done",
		NULL };
	const char *options[] = { "--games", "1", "--quiet-bots", NULL };
	struct run r = run_check(options, bot);

	(void)state;
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, "timeout") ||
	    !strstr(r.out, "stderr:\n      bot.sh: choose.jq: No such file or directory"))
		fail_msg("the bot's last stderr not quoted with its timeout in:\n%s", r.out);
}

/* A script named by a relative path: the reproduce: line names it, as the arena, absolutely. */
static void test_reproduce_paths_absolute(void **state)
{
	char name[] = "reproduce-XXXXXX", cwd[4096], want[4200];
	const char *bot[] = { "/bin/sh", name, NULL };
	const char *options[] = { "--games", "1", "--quiet-bots", "--sandbox", "off", NULL };
	int fd = mkstemp(name);
	struct run r;

	(void)state;
	assert_true(fd >= 0);
	assert_true(write(fd, "exit 3\n", 7) == 7);
	close(fd);
	r = run_check(options, bot);
	unlink(name);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), " -- /bin/sh %s/%s", cwd, name);
	if (!strstr(r.out, "reproduce: /") || !strstr(r.out, want))
		fail_msg("no \"%s\" on an absolute reproduce: line in:\n%s", want, r.out);
}

static void test_partnership_passes(void **state)
{
	const char *options[] = { "--players", "4", "--partnership", "--games", "4", "--move-ms",
		"2000", NULL };
	const char *bot[] = { BADBOT_PATH, "good", NULL };
	struct run r = run_check(options, bot);

	(void)state;
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, "4 players in partnership") || !strstr(r.out, "game 4/4: seat 3 of 4") ||
	    !strstr(r.out, "\nPASS\n"))
		fail_msg("partnership check did not pass:\n%s", r.out);
}

static void test_verbose_prints_the_transcript(void **state)
{
	const char *options[] = { "--verbose", "--games", "1", "--move-ms", "2000", NULL };
	const char *bot[] = { BADBOT_PATH, "good", NULL };
	struct run r = run_check(options, bot);

	(void)state;
	assert_int_equal(r.status, 0);
	/* named by its program until its hello, by its hello from then on */
	if (!strstr(r.out, " badbot <- {\"type\":\"hello\"") ||
	    !strstr(r.out, " badbot -> {\"type\":\"hello\"") ||
	    !strstr(r.out, " badbot-good -> {\"type\":\"move\"") ||
	    !strstr(r.out, " badbot-good <- {\"type\":\"request\"") ||
	    strstr(r.out, " badbot <- {\"type\":\"request\""))
		fail_msg("no transcript in:\n%s", r.out);
}

/* The start of badbot report's hello in the --verbose transcript. */
#define HELLO "-> {\"type\":\"hello\",\"protocol\":1,\"name\":\"badbot-report\",\"version\":\"1\","

/* The resource limits apply to the bot under check; the opponents keep the
 * defaults, without a memory limit. badbot report shows its own in its hello.
 * Unsandboxed, so that RLIMIT_NPROC is the number given (a sandbox sets one
 * more, for bwrap's init: test_arena_options). */
static void test_limits_reach_the_bot(void **state)
{
	char report[512];
	char *argv[] = { (char *)CHECK_DRIVER_PATH, (char *)"--verbose", (char *)"--games",
		(char *)"1", (char *)"--stock", (char *)"2", (char *)"--move-ms", (char *)"2000",
		(char *)"--sandbox", (char *)"off",
		(char *)"--cpu-seconds", (char *)"7", (char *)"--memory-mb", (char *)"64",
		(char *)"--open-files", (char *)"64", (char *)"--processes", (char *)"1000",
		(char *)"--opponent", report, (char *)BADBOT_PATH, (char *)"report", NULL };
	struct run r;

	(void)state;
	snprintf(report, sizeof(report), "%s report", BADBOT_PATH);
	r = run_argv(argv);
	if (r.status != 0 || !strstr(r.out, " badbot " HELLO "\"rlimits\":{\"cpu\":7,\"as\":67108864,"
				     "\"nofile\":64,\"nproc\":1000}") ||
	    !strstr(r.out, " badbot-1 " HELLO "\"rlimits\":{\"cpu\":3600,\"as\":-1,"
		    "\"nofile\":256,\"nproc\":256}") || !strstr(r.out, "\nPASS\n"))
		fail_msg("exit %d; limits not as given:\n%s", r.status, r.out);
}

static void test_usage_errors(void **state)
{
	char *no_bot[] = { (char *)CHECK_DRIVER_PATH, (char *)"--games", (char *)"1", NULL };
	char *bad_games[] = { (char *)CHECK_DRIVER_PATH, (char *)"--games", (char *)"0",
		(char *)BADBOT_PATH, NULL };
	char *bad_rules[] = { (char *)CHECK_DRIVER_PATH, (char *)"--players", (char *)"3",
		(char *)"--partnership", (char *)BADBOT_PATH, NULL };
	char *no_opponent[] = { (char *)CHECK_DRIVER_PATH, (char *)"--opponent",
		(char *)"/nonexistent/opponent", (char *)BADBOT_PATH, NULL };
	char *help[] = { (char *)CHECK_DRIVER_PATH, (char *)"--help", NULL };
	struct run r;

	(void)state;
	r = run_argv(no_bot);
	assert_int_equal(r.status, 2);
	r = run_argv(bad_games);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "--games"));
	r = run_argv(bad_rules);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "partnership"));
	r = run_argv(no_opponent);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "check: opponent: "));
	assert_non_null(strstr(r.out, "/nonexistent/opponent"));
	r = run_argv(help);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: skipbo-arena check"));
}

/* Every bot's stderr, live, each line labelled with the bot and its seat, escaped. */
static void test_stderr_shown_live(void **state)
{
	const char *bot[] = { BADBOT_PATH, "chatty", NULL };
	struct run r = run_check(relaxed, bot);

	(void)state;
	if (r.status != 0 || !strstr(r.out, "[badbot] chatty: started\n") ||
	    !strstr(r.out, "[badbot-chatty seat 0] chatty: request 1 of turn 1\n") ||
	    !strstr(r.out, "[badbot-chatty seat 1] chatty: request ") ||
	    !strstr(r.out, "[badbot-chatty seat 0] chatty: esc \\033[2J bell \\007 tab \\011 "
		    "end\n") ||
	    strchr(r.out, '\033') || strchr(r.out, '\a'))
		fail_msg("exit %d; stderr not shown as expected:\n%s", r.status, r.out);
}

/* The first 64 KiB of a --stderr file, NUL-terminated; never empty. */
static char *read_log(const char *path)
{
	char *log = calloc(1, 1 << 16);
	FILE *f = fopen(path, "r");

	assert_non_null(log);
	assert_non_null(f);
	assert_true(fread(log, 1, (1 << 16) - 1, f) > 0);
	fclose(f);
	return log;
}

/* --quiet-bots hides it; --stderr DIR keeps it in files instead, tagged. */
static void test_quiet_bots_and_stderr_dir(void **state)
{
	const char *quiet[] = { "--move-ms", "2000", "--quiet-bots", NULL };
	const char *bot[] = { BADBOT_PATH, "chatty", NULL };
	char dir[] = "/tmp/test_check_stderr_XXXXXX", path[128], *log;
	const char *to_dir[] = { "--move-ms", "2000", "--stderr", dir, NULL };
	struct run r = run_check(quiet, bot);

	(void)state;
	if (r.status != 0 || strstr(r.out, "chatty:") || !strstr(r.out, "\nPASS\n"))
		fail_msg("--quiet-bots: exit %d:\n%s", r.status, r.out);
	assert_non_null(mkdtemp(dir));
	r = run_check(to_dir, bot);
	if (r.status != 0 || strstr(r.out, "chatty:"))
		fail_msg("--stderr: exit %d:\n%s", r.status, r.out);
	snprintf(path, sizeof(path), "%s/badbot.stderr", dir);
	log = read_log(path);
	if (strncmp(log, "[pid ", 5) || !strstr(log, "] chatty: started\n") ||
	    !strstr(log, "\n[check-1 pid ") || !strstr(log, "\n[check-2 pid ") ||
	    !strstr(log, "] chatty: request 1 of turn 1\n"))
		fail_msg("%s:\n%.2000s", path, log);
	free(log);
	unlink(path);
	snprintf(path, sizeof(path), "%s/badbot-1.stderr", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* A crash quotes the bot's last ten stderr lines: the traceback at once. */
static void test_fault_quotes_last_stderr_lines(void **state)
{
	(void)state;
	expect_badbot("chatty", "3", 1, "exit fault at turn",
		      "    stderr, last 10 of 22 lines:\n      traceback line 6\n",
		      "      traceback line 15\n  result:", NULL);
	/* and a fault without any stderr says so */
	expect_badbot("garbage", NULL, 1, "malformed fault", "    stderr:   nothing\n", NULL);
}

/* A bot that dies before its hello: what it wrote while starting comes with the start fault. */
static void test_start_fault_quotes_stderr(void **state)
{
	const char *bot[] = { "/bin/sh", "-c", "echo 'Traceback (most recent call last):' >&2; "
		"echo 'SyntaxError: invalid syntax' >&2; exit 1", NULL };
	struct run r = run_check(NULL, bot);

	(void)state;
	if (r.status != 1 || !strstr(r.out, "start fault: exited with status 1 before its hello") ||
	    !strstr(r.out, "    stderr:\n      Traceback (most recent call last):\n"
		    "      SyntaxError: invalid syntax\n"))
		fail_msg("exit %d; the start fault without the traceback:\n%s", r.status, r.out);
}

/* A bot that never flushes: every place it can be stuck asks about it. */
static void test_flush_hints(void **state)
{
	(void)state;
	expect_badbot("no-newline", NULL, 1, "start fault: no hello within 1500 ms of its start; "
		      "it wrote ", " without a newline: end each line with \\n and flush stdout",
		      NULL);
	expect_badbot("no-hello", NULL, 1, "it wrote nothing on stdout: did it flush stdout "
		      "after its hello?", NULL);
	expect_badbot("never-answer", NULL, 1, "    hint:     it answered nothing in this game: "
		      "did it flush stdout after each line?\n", NULL);
}

#ifdef EASY_PATH
/* Each faulty game's "reproduce:" command deals it again in play, against the
 * easy bot (which seeds its choices with the game id): the same fault at the
 * same turn and decision. */
static void test_reproduce_with_play(void **state)
{
	char *argv[] = { (char *)ARENA_PATH, (char *)"check", (char *)"--games", (char *)"2",
		(char *)"--stock", (char *)"5", (char *)"--quiet-bots", (char *)BADBOT_PATH,
		(char *)"chatty", (char *)"3", NULL };
	char *play[ARGS_MAX], *copy, *at, *word, want[128];
	struct run r = run_argv(argv);
	unsigned turn, decision;
	int n = 0;

	(void)state;
	at = strstr(r.out, "PROBLEM 2: exit fault at turn ");
	if (r.status != 1 || !at || sscanf(at, "PROBLEM 2: exit fault at turn %u, decision %u",
					   &turn, &decision) != 2)
		fail_msg("exit %d:\n%s", r.status, r.out);
	/* the program as this check was run, so that the line runs as printed */
	at = strstr(at, "  reproduce: " ARENA_PATH " play ");
	assert_non_null(at);
	copy = strndup(at + strlen("  reproduce: " ARENA_PATH " "), strcspn(at, "\n") -
		       strlen("  reproduce: " ARENA_PATH " "));
	assert_non_null(copy);
	assert_non_null(strstr(copy, "--game-id check-2 "));
	play[n++] = (char *)ARENA_PATH;
	for (word = strtok(copy, " "); word && n < ARGS_MAX - 2; word = strtok(NULL, " ")) {
		play[n++] = word;
		if (n == 2)
			play[n++] = (char *)"--quiet-bots";
	}
	play[n] = NULL;
	r = run_argv(play);
	snprintf(want, sizeof(want), "badbot-chatty: exit at game 1, turn %u, move %u: exited with "
		 "status 1", turn, decision);
	if (r.status != 0 || !strstr(r.out, want))
		fail_msg("play exit %d, \"%s\" missing:\n%s", r.status, want, r.out);
	free(copy);
}

/* play shows the stderr of every seat live too, hides it, or keeps it in files. */
static void test_play_stderr(void **state)
{
	char dir[] = "/tmp/test_play_stderr_XXXXXX", path[128], chatty[512], *log;
	char *shown[] = { (char *)ARENA_PATH, (char *)"play", (char *)"--seed", (char *)"5",
		(char *)"--stock", (char *)"3", chatty, opponent, NULL };
	char *quiet[] = { (char *)ARENA_PATH, (char *)"play", (char *)"--quiet-bots",
		(char *)"--seed", (char *)"5", (char *)"--stock", (char *)"3", chatty, opponent, NULL };
	char *to_dir[] = { (char *)ARENA_PATH, (char *)"play", (char *)"--stderr", dir,
		(char *)"--seed", (char *)"5", (char *)"--stock", (char *)"3", chatty, opponent, NULL };
	struct run r;

	(void)state;
	snprintf(chatty, sizeof(chatty), "%s chatty", BADBOT_PATH);
	r = run_argv(shown);
	/* named by its program until its hello, by its hello from then on; the opponent, badbot
	 * good with another hello, keeps its own name */
	if (r.status != 0 || !strstr(r.out, "[badbot] chatty: started\n") ||
	    !strstr(r.out, "[badbot-chatty seat 0] chatty: request 1 of turn 1\n") ||
	    !strstr(r.out, "[badbot-chatty seat 0] chatty: esc \\033[2J bell \\007 tab \\011 "
		    "end\n") ||
	    !strstr(r.out, "seat 0 badbot-chatty ") || !strstr(r.out, "seat 1 badbot-good ") ||
	    strchr(r.out, '\033'))
		fail_msg("play: exit %d; stderr not shown as expected:\n%s", r.status, r.out);
	r = run_argv(quiet);
	if (r.status != 0 || strstr(r.out, "chatty:") || !strstr(r.out, "result: "))
		fail_msg("play --quiet-bots: exit %d:\n%s", r.status, r.out);
	assert_non_null(mkdtemp(dir));
	r = run_argv(to_dir);
	if (r.status != 0 || strstr(r.out, "chatty:"))
		fail_msg("play --stderr: exit %d:\n%s", r.status, r.out);
	snprintf(path, sizeof(path), "%s/badbot.stderr", dir);
	log = read_log(path);
	unlink(path);
	if (strncmp(log, "[pid ", 5) || !strstr(log, "] chatty: started\n[play pid ") ||
	    !strstr(log, "] chatty: request 1 of turn 1\n"))
		fail_msg("%s:\n%.2000s", path, log);
	free(log);
	snprintf(path, sizeof(path), "%s/badbot-2.stderr", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* play names each bot by its hello; two with the same hello apart by a number, and one
 * that never said hello by its program. */
static void test_play_names_by_hello(void **state)
{
	char *twins[] = { (char *)ARENA_PATH, (char *)"play", (char *)"--quiet-bots",
		(char *)"--stock", (char *)"3", opponent, opponent, NULL };
	char *silent[] = { (char *)ARENA_PATH, (char *)"play", (char *)"--quiet-bots",
		(char *)"--startup-ms", (char *)"300", (char *)BADBOT_PATH " no-hello", opponent,
		NULL };
	struct run r;

	(void)state;
	r = run_argv(twins);
	if (r.status != 0 || !strstr(r.out, "seat 0 badbot-good ") ||
	    !strstr(r.out, "seat 1 badbot-good-2 "))
		fail_msg("play: exit %d; not named by their hellos:\n%s", r.status, r.out);
	r = run_argv(silent);
	if (!strstr(r.out, "fault: seat 0 badbot: start") || !strstr(r.out, "badbot-good"))
		fail_msg("play: exit %d; a bot without a hello not named by its program:\n%s",
			 r.status, r.out);
}

/* The real program, with the opponent found next to it: <build>/bots/skipbo-easy. */
static void test_default_opponent(void **state)
{
	char *argv[] = { (char *)ARENA_PATH, (char *)"check", (char *)"--games", (char *)"2",
		(char *)"--stock", (char *)"5", (char *)BADBOT_PATH, (char *)"good", NULL };
	struct run r = run_argv(argv);

	(void)state;
	if (r.status != 0 || !strstr(r.out, "opponent \"skipbo-easy-1\": ") ||
	    !strstr(r.out, "\nPASS\n"))
		fail_msg("exit %d, expected 0 against %s:\n%s", r.status, EASY_PATH, r.out);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_passes),
		cmocka_unit_test(test_exit_at_start),
		cmocka_unit_test(test_start_failures_stop_early),
		cmocka_unit_test(test_no_hello),
		cmocka_unit_test(test_never_answer),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_late_within_limit),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_close_stdout),
		cmocka_unit_test(test_no_read),
		cmocka_unit_test(test_die_midgame),
		cmocka_unit_test(test_die_by_signal),
		cmocka_unit_test(test_fork_holder),
		cmocka_unit_test(test_stderr_flood_passes),
		cmocka_unit_test(test_illegal),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_bad_hello),
		cmocka_unit_test(test_no_such_file),
		cmocka_unit_test(test_late_stderr_quoted),
		cmocka_unit_test(test_reproduce_paths_absolute),
		cmocka_unit_test(test_partnership_passes),
		cmocka_unit_test(test_verbose_prints_the_transcript),
		cmocka_unit_test(test_limits_reach_the_bot),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_stderr_shown_live),
		cmocka_unit_test(test_quiet_bots_and_stderr_dir),
		cmocka_unit_test(test_fault_quotes_last_stderr_lines),
		cmocka_unit_test(test_start_fault_quotes_stderr),
		cmocka_unit_test(test_flush_hints),
#ifdef EASY_PATH
		cmocka_unit_test(test_reproduce_with_play),
		cmocka_unit_test(test_play_stderr),
		cmocka_unit_test(test_play_names_by_hello),
		cmocka_unit_test(test_default_opponent),
#endif
	};

	char tmp[] = "/tmp/test_check_cmd_replays_XXXXXX", rm[64];
	int failed;

	/* check keeps each game's replay in a new directory under $TMPDIR: this one */
	if (!mkdtemp(tmp) || setenv("TMPDIR", tmp, 1) < 0)
		return 1;
	snprintf(opponent, sizeof(opponent), "%s good", BADBOT_PATH);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	free(last_out);
	snprintf(rm, sizeof(rm), "rm -rf '%s'", tmp);
	if (system(rm) != 0)
		return 1;
	return failed;
}
