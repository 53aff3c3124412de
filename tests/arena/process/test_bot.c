/*
 * test_bot.c - arena/process (bot_spawn.c, bot_io.c) against the misbehaving bots of badbot.c.
 *
 * Every misbehaviour R11 names (no answer in time, exit or crash, closed
 * pipe, malformed line, protocol violation, illegal move) must come back as a
 * prompt result, never a hang; and after bot_stop nothing of the bot's
 * process group may be left.
 *
 * The test process is a child subreaper, as the arena is meant to be, so
 * members of a bot's group orphaned by its exit are reaped by bot_stop
 * rather than left as zombies under whatever init the machine has.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bot.h"

/* Slack over a deadline for the machine's scheduling (2 shared cores, ASan). */
#define SLACK_US 250000
#define GRACE_MS 100

static const char REQUEST[] =
	"{\"type\":\"request\",\"game\":\"g000001\",\"turn\":1,\"move\":1,"
	"\"legal\":[{\"action\":\"play\",\"from\":\"hand\",\"card\":1,\"to\":0},"
	"{\"action\":\"discard\",\"card\":7,\"pile\":0}]}";
static const char FIRST_LEGAL[] = "{\"action\":\"play\",\"from\":\"hand\",\"card\":1,\"to\":0}";
static const char HELLO[] = "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"skipbo-arena test\"}";

struct run {
	char *argv[6];
	struct bot_spec spec;
};

static void run_init(struct run *r, const char *mode, const char *arg1, const char *arg2)
{
	memset(r, 0, sizeof *r);
	r->argv[0] = (char *)BADBOT_PATH;
	r->argv[1] = (char *)mode;
	r->argv[2] = (char *)arg1;
	r->argv[3] = arg1 ? (char *)arg2 : NULL;
	r->spec.name = mode;
	r->spec.argv = r->argv;
	r->spec.cpu = -1;
}

static struct bot *run_start(struct run *r)
{
	struct bot *b = NULL;
	char why[256];
	int rc = bot_start(&r->spec, &b, why, sizeof why);

	if (rc != 0)
		print_error("bot_start: %s\n", why);
	assert_int_equal(rc, 0);
	assert_non_null(b);
	return b;
}

static struct bot *start_mode(const char *mode, const char *arg1, const char *arg2)
{
	struct run r;

	run_init(&r, mode, arg1, arg2);
	return run_start(&r);
}

static int64_t in_ms(int ms)
{
	return clock_now_us() + (int64_t)ms * 1000;
}

static void send_line(struct bot *b, const char *line)
{
	assert_int_equal(bot_write_line(b, line, strlen(line), in_ms(1000)), 0);
}

/* The next line, parsed; the caller deletes it. */
static cJSON *read_json(struct bot *b, int ms)
{
	const char *line;
	size_t len;
	cJSON *msg;

	assert_int_equal(bot_read_line(b, &line, &len, in_ms(ms)), 0);
	assert_int_equal(strlen(line), len);
	/* cJSON counts the NUL in the length when a NUL end is required. */
	msg = cJSON_ParseWithLengthOpts(line, len + 1, NULL, 1);
	assert_non_null(msg);
	return msg;
}

static const char *type_of(const cJSON *msg)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(msg, "type");

	assert_true(cJSON_IsString(t));
	return t->valuestring;
}

static cJSON *handshake(struct bot *b)
{
	cJSON *hello;

	send_line(b, HELLO);
	hello = read_json(b, 3000);
	assert_string_equal(type_of(hello), "hello");
	return hello;
}

static void handshake_only(struct bot *b)
{
	cJSON_Delete(handshake(b));
}

static void expect_first_legal(const cJSON *answer)
{
	cJSON *want = cJSON_Parse(FIRST_LEGAL);

	assert_string_equal(type_of(answer), "move");
	assert_true(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(answer, "move"), want, 1));
	cJSON_Delete(want);
}

static void play_one(struct bot *b)
{
	cJSON *answer;

	send_line(b, REQUEST);
	answer = read_json(b, 1000);
	expect_first_legal(answer);
	cJSON_Delete(answer);
}

/* A read that must fail with rc within [wait_ms, wait_ms + slack). */
static void expect_read_fails(struct bot *b, int rc, int wait_ms)
{
	const char *line;
	size_t len;
	int64_t t0 = clock_now_us();
	int64_t deadline = t0 + (int64_t)wait_ms * 1000;

	assert_int_equal(bot_read_line(b, &line, &len, deadline), rc);
	if (rc == -ETIMEDOUT)
		assert_true(clock_now_us() >= deadline);
	assert_true(clock_now_us() < deadline + SLACK_US);
}

static int wait_status(struct bot *b, int ms)
{
	int64_t end = in_ms(ms);
	int status;

	while (!bot_exited(b, &status)) {
		assert_true(clock_now_us() < end);
		usleep(2000);
	}
	return status;
}

/* bot_stop must leave no process of the group behind. */
static void stop_and_check(struct bot *b)
{
	pid_t group = bot_pid(b);

	bot_stop(b, GRACE_MS);
	errno = 0;
	assert_int_equal(kill(-group, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void test_good_plays_and_quits(void **state)
{
	struct bot *b = start_mode("good", NULL, NULL);
	cJSON *hello = handshake(b);
	cJSON *a1, *a2;
	const char *line;
	size_t len;

	(void)state;
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(hello, "name")->valuestring, "badbot-good");
	cJSON_Delete(hello);
	play_one(b);
	/* Two requests in flight: answers may arrive in one read and must split. */
	send_line(b, REQUEST);
	send_line(b, REQUEST);
	a1 = read_json(b, 1000);
	a2 = read_json(b, 1000);
	expect_first_legal(a1);
	expect_first_legal(a2);
	cJSON_Delete(a1);
	cJSON_Delete(a2);
	/* No deadline at all (--no-timeout) must wait, not fail. */
	send_line(b, REQUEST);
	assert_int_equal(bot_read_line(b, &line, &len, INT64_MAX), 0);
	assert_non_null(strstr(line, "\"move\""));
	send_line(b, "{\"type\":\"quit\"}");
	expect_read_fails(b, -EPIPE, 1000);
	assert_int_equal(wait_status(b, 1000), 0);
	stop_and_check(b);
}

static void test_exit_at_start(void **state)
{
	struct bot *b = start_mode("exit-at-start", "7", NULL);
	int status;

	(void)state;
	expect_read_fails(b, -EPIPE, 1000);
	status = wait_status(b, 1000);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
	/* Nobody reads the bot's stdin any more (R11 "closed pipe"). */
	assert_int_equal(bot_write_line(b, HELLO, strlen(HELLO), in_ms(200)), -EPIPE);
	stop_and_check(b);
}

static void expect_start_error(struct run *r, int rc, const char *in_why)
{
	struct bot *b = NULL;
	char why[256];

	assert_int_equal(bot_start(&r->spec, &b, why, sizeof why), rc);
	assert_null(b);
	assert_non_null(strstr(why, in_why));
}

static void test_missing_executable(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, "good", NULL, NULL);
	r.argv[0] = "/nonexistent/badbot";
	expect_start_error(&r, -ENOENT, "/nonexistent/badbot");
	r.argv[0] = "no-such-badbot-in-path";
	expect_start_error(&r, -ENOENT, "not found in PATH");
}

/*
 * The search of PATH (the bot's environment's): a directory the user cannot
 * search hides nothing (su without -l leaves root's in PATH), a file there
 * that cannot run is named as such.
 */
static void test_path_search(void **state)
{
	char dir[] = "/tmp/test_bot_path_XXXXXX", locked[64], plain[64], file[96], env[160];
	char *envv[] = { env, NULL };
	struct run r;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(locked, sizeof locked, "%s/locked", dir);
	snprintf(plain, sizeof plain, "%s/plain", dir);
	snprintf(file, sizeof file, "%s/not-a-program", plain);
	assert_int_equal(mkdir(locked, 0), 0);
	assert_int_equal(mkdir(plain, 0755), 0);
	assert_true((fd = open(file, O_WRONLY | O_CREAT, 0644)) >= 0);
	close(fd);
	snprintf(env, sizeof env, "PATH=%s:%s", locked, plain);
	run_init(&r, "good", NULL, NULL);
	r.spec.env = envv;
	r.argv[0] = "no-such-badbot-in-path";
	expect_start_error(&r, -ENOENT, "not found in PATH");
	r.argv[0] = "not-a-program";
	expect_start_error(&r, -EACCES, "found in PATH but not executable");
	unlink(file);
	rmdir(plain);
	rmdir(locked);
	rmdir(dir);
}

static void test_not_executable(void **state)
{
	char path[] = "/tmp/test_bot_noexec_XXXXXX";
	int fd = mkstemp(path);
	struct run r;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);
	assert_int_equal(chmod(path, 0644), 0);
	run_init(&r, "good", NULL, NULL);
	r.argv[0] = path;
	/* The exec fails in the child and comes back over the report pipe. */
	expect_start_error(&r, -EACCES, path);
	unlink(path);
	r.argv[0] = "/tmp";
	expect_start_error(&r, -EACCES, "cannot execute");
}

static void test_bad_cwd(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, "good", NULL, NULL);
	r.spec.cwd = "/nonexistent-dir";
	expect_start_error(&r, -ENOENT, "/nonexistent-dir");
}

static void test_no_hello_times_out(void **state)
{
	struct bot *b = start_mode("no-hello", NULL, NULL);

	(void)state;
	send_line(b, HELLO);
	expect_read_fails(b, -ETIMEDOUT, 150);
	stop_and_check(b);
}

static void test_never_answer_times_out(void **state)
{
	struct bot *b = start_mode("never-answer", NULL, NULL);

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	expect_read_fails(b, -ETIMEDOUT, 150);
	expect_read_fails(b, -ETIMEDOUT, 100);
	stop_and_check(b);
}

static void test_late_answer(void **state)
{
	struct bot *b = start_mode("late", "300", NULL);
	cJSON *answer;

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	expect_read_fails(b, -ETIMEDOUT, 100);
	/* The late answer still arrives whole for a caller that waits longer. */
	answer = read_json(b, 2000);
	expect_first_legal(answer);
	cJSON_Delete(answer);
	stop_and_check(b);
}

static void test_garbage_line(void **state)
{
	struct bot *b = start_mode("garbage", NULL, NULL);
	const char *line;
	size_t len;

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(1000)), 0);
	assert_string_equal(line, "this is {not json");
	assert_null(cJSON_ParseWithLengthOpts(line, len + 1, NULL, 1));
	stop_and_check(b);
}

static void test_huge_line_refused_promptly(void **state)
{
	struct bot *b = start_mode("huge-line", NULL, NULL);
	const char *line;
	size_t len;
	int64_t t0;

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	t0 = clock_now_us();
	/* Refused as soon as BOT_LINE_MAX bytes came without a newline, not after 10 MB. */
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(5000)), -EMSGSIZE);
	assert_true(clock_now_us() - t0 < SLACK_US);
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(100)), -EMSGSIZE);
	stop_and_check(b);
}

static void test_line_length_limit(void **state)
{
	char max[16], over[16];
	struct bot *b;
	const char *line;
	size_t len;

	(void)state;
	snprintf(max, sizeof max, "%d", BOT_LINE_MAX);
	snprintf(over, sizeof over, "%d", BOT_LINE_MAX + 1);
	b = start_mode("huge-line", max, NULL);
	handshake_only(b);
	send_line(b, REQUEST);
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(2000)), 0);
	assert_int_equal(len, BOT_LINE_MAX);
	assert_int_equal(strspn(line, "x"), BOT_LINE_MAX);
	stop_and_check(b);

	b = start_mode("huge-line", over, NULL);
	handshake_only(b);
	send_line(b, REQUEST);
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(2000)), -EMSGSIZE);
	stop_and_check(b);
}

static void test_close_stdout(void **state)
{
	struct bot *b = start_mode("close-stdout", NULL, NULL);

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	expect_read_fails(b, -EPIPE, 1000);
	/* Closed its stdout but still alive: only the group kill ends it. */
	usleep(20000);
	assert_int_equal(bot_exited(b, NULL), 0);
	stop_and_check(b);
}

static void test_no_read_write_times_out(void **state)
{
	struct bot *b = start_mode("no-read", NULL, NULL);
	size_t big = 1 << 20;
	char *line = malloc(big);
	int64_t t0, deadline;

	(void)state;
	assert_non_null(line);
	memset(line, 'x', big);
	t0 = clock_now_us();
	deadline = t0 + 150000;
	/* More than a pipe holds: the write must give up at the deadline. */
	assert_int_equal(bot_write_line(b, line, big, deadline), -ETIMEDOUT);
	assert_true(clock_now_us() >= deadline);
	assert_true(clock_now_us() < deadline + SLACK_US);
	free(line);
	stop_and_check(b);
}

static void test_die_midgame_exit_code(void **state)
{
	struct bot *b = start_mode("die-midgame", "2", "5");
	int status;

	(void)state;
	handshake_only(b);
	play_one(b);
	play_one(b);
	send_line(b, REQUEST);
	expect_read_fails(b, -EPIPE, 1000);
	status = wait_status(b, 1000);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 5);
	stop_and_check(b);
}

static void test_die_midgame_signal(void **state)
{
	struct bot *b = start_mode("die-midgame", "1", "sig11");
	int status;

	(void)state;
	handshake_only(b);
	play_one(b);
	send_line(b, REQUEST);
	expect_read_fails(b, -EPIPE, 1000);
	status = wait_status(b, 1000);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	/* Still the status after asking again. */
	assert_int_equal(bot_exited(b, &status), 1);
	assert_int_equal(WTERMSIG(status), SIGSEGV);
	stop_and_check(b);
}

static void test_fork_holder(void **state)
{
	struct bot *b = start_mode("fork-holder", NULL, NULL);

	(void)state;
	handshake_only(b);
	assert_int_equal(WEXITSTATUS(wait_status(b, 1000)), 0);
	/* Its child holds the pipes: no EOF ever comes, the deadline must end the read. */
	send_line(b, REQUEST);
	expect_read_fails(b, -ETIMEDOUT, 150);
	stop_and_check(b);
}

static void test_stderr_flood_capped(void **state)
{
	char path[] = "/tmp/test_bot_log_XXXXXX";
	int fd = mkstemp(path);
	char *log = malloc(1 << 16);
	struct run r;
	struct bot *b;
	struct stat st;
	int64_t end;
	ssize_t n;
	char tag[64];

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(log);
	run_init(&r, "stderr-flood", NULL, NULL);
	r.spec.stderr_path = path;
	r.spec.stderr_cap = 4096;
	b = run_start(&r);
	handshake_only(b);
	/* The flood never blocks the bot's moves, nor our reads; play on until
	 * the log is full (the flooding thread may start late). */
	end = in_ms(3000);
	do {
		play_one(b);
		assert_int_equal(fstat(fd, &st), 0);
		assert_true(clock_now_us() < end);
	} while ((size_t)st.st_size < 4096 + strlen("[log truncated]\n"));
	/* each line tagged with its process (bot.h) */
	snprintf(tag, sizeof tag, "[pid %ld] badbot-stderr-flood:", (long)bot_pid(b));
	stop_and_check(b);

	n = read(fd, log, (1 << 16) - 1);
	close(fd);
	unlink(path);
	assert_true(n > 4096);
	log[n] = '\0';
	assert_true((size_t)n <= 4096 + 1 + strlen("[log truncated]\n"));
	assert_int_equal(strncmp(log, tag, strlen(tag)), 0);
	assert_string_equal(log + n - strlen("[log truncated]\n"), "[log truncated]\n");
	assert_ptr_equal(strstr(log, "[log truncated]"), log + n - strlen("[log truncated]\n"));
	free(log);
}

static void test_stderr_discarded(void **state)
{
	struct bot *b = start_mode("stderr-flood", NULL, NULL);

	(void)state;
	handshake_only(b);
	for (int i = 0; i < 5; i++)
		play_one(b);
	stop_and_check(b);
}

static void test_stderr_flood_cannot_hold_the_deadline(void **state)
{
	struct bot *b = start_mode("stderr-flood", "mute", NULL);

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	/* stderr is always readable; the read must still end at its deadline. */
	expect_read_fails(b, -ETIMEDOUT, 150);
	stop_and_check(b);
}

static void test_illegal_move(void **state)
{
	struct bot *b = start_mode("illegal", NULL, NULL);
	cJSON *req = cJSON_Parse(REQUEST), *answer;
	const cJSON *legal = cJSON_GetObjectItemCaseSensitive(req, "legal"), *l;
	const cJSON *move;

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	answer = read_json(b, 1000);
	assert_string_equal(type_of(answer), "move");
	move = cJSON_GetObjectItemCaseSensitive(answer, "move");
	assert_true(cJSON_IsObject(move));
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(move, "action")));
	cJSON_ArrayForEach(l, legal)
		assert_false(cJSON_Compare(move, l, 1));
	cJSON_Delete(answer);
	cJSON_Delete(req);
	stop_and_check(b);
}

static void test_wrong_type(void **state)
{
	struct bot *b = start_mode("wrong-type", NULL, NULL);
	cJSON *answer;

	(void)state;
	handshake_only(b);
	send_line(b, REQUEST);
	answer = read_json(b, 1000);
	assert_string_equal(type_of(answer), "moove");
	cJSON_Delete(answer);
	stop_and_check(b);
}

static void test_fork_bomb_contained(void **state)
{
	struct run r;
	struct bot *b;
	cJSON *hello;
	double forked;

	(void)state;
	run_init(&r, "fork-bomb", "100", NULL);
	r.spec.limits.processes = 30;
	b = run_start(&r);
	hello = handshake(b);
	forked = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(hello, "forked"));
	/* Unsandboxed, RLIMIT_NPROC binds nobody as root, and counts every process
	 * of an ordinary user: those of the tests beside this one too (bot.h). */
	if (geteuid() == 0)
		assert_true(forked == 100);
	else
		assert_true(forked >= 0 && forked < 30);
	cJSON_Delete(hello);
	play_one(b);
	stop_and_check(b);
}

static void test_memory_hog_contained(void **state)
{
	struct run r;
	struct bot *b;
	cJSON *hello;
	double mb;

	(void)state;
	run_init(&r, "memory-hog", NULL, NULL);
	r.spec.limits.memory_mb = 64;
	b = run_start(&r);
	hello = handshake(b);
	mb = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(hello, "allocated_mb"));
	assert_true(mb >= 1 && mb < 64);
	cJSON_Delete(hello);
	play_one(b);
	stop_and_check(b);
}

static int last_allowed_cpu(void)
{
	cpu_set_t set;
	int last = -1;

	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			last = c;
	return last;
}

static double num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static void test_spec_applied(void **state)
{
	char *env[] = { "BADBOT_PROBE=from-spec", NULL };
	char dir[] = "/tmp/test_bot_cwd_XXXXXX";
	sigset_t usr1, old;
	struct run r;
	struct bot *b;
	cJSON *hello, *rl, *cpus, *fds;
	int cpu = last_allowed_cpu();
	int leak;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* The spec's value must replace the inherited one, and the mask must not leak. */
	setenv("BADBOT_PROBE", "inherited", 1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	run_init(&r, "report", NULL, NULL);
	r.spec.cwd = dir;
	r.spec.env = env;
	r.spec.cpu = cpu;
	r.spec.limits = (struct bot_limits){ .cpu_seconds = 5, .memory_mb = 512, .open_files = 32,
					     .processes = 50 };
	r.spec.idle = true;
	/* A descriptor without close-on-exec, as careless library code leaves them. */
	leak = open("/dev/null", O_RDONLY);
	assert_true(leak >= 0);
	b = run_start(&r);
	close(leak);
	sigprocmask(SIG_SETMASK, &old, NULL);
	unsetenv("BADBOT_PROBE");
	hello = handshake(b);

	/* idle: the lowest priority, set before the exec */
	assert_int_equal(sched_getscheduler(bot_pid(b)), SCHED_IDLE);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(hello, "cwd")->valuestring, dir);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(hello, "env")->valuestring, "from-spec");
	rl = cJSON_GetObjectItemCaseSensitive(hello, "rlimits");
	assert_true(num(rl, "cpu") == 5);
	assert_true(num(rl, "as") == 512.0 * 1024 * 1024);
	assert_true(num(rl, "nofile") == 32);
	assert_true(num(rl, "nproc") == 50);
	cpus = cJSON_GetObjectItemCaseSensitive(hello, "cpus");
	assert_int_equal(cJSON_GetArraySize(cpus), 1);
	assert_true(cJSON_GetArrayItem(cpus, 0)->valuedouble == cpu);
	/* Only stdin, stdout and stderr cross the exec. */
	fds = cJSON_GetObjectItemCaseSensitive(hello, "fds");
	assert_int_equal(cJSON_GetArraySize(fds), 3);
	for (int i = 0; i < 3; i++)
		assert_true(cJSON_GetArrayItem(fds, i)->valuedouble == i);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(hello, "own_group")));
	/* We ignore SIGPIPE (as the arena must); the bot gets the default back. */
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(hello, "sigpipe")->valuestring, "default");
	assert_true(num(hello, "blocked") == 0);
	cJSON_Delete(hello);
	play_one(b);
	stop_and_check(b);
	rmdir(dir);
}

static void test_term_ignored_then_killed(void **state)
{
	struct bot *b = start_mode("ignore-term", NULL, NULL);
	pid_t group = bot_pid(b);
	int64_t t0;

	(void)state;
	handshake_only(b);
	play_one(b);
	t0 = clock_now_us();
	bot_stop(b, GRACE_MS);
	/* The whole grace went by before SIGKILL, and not much more. */
	assert_true(clock_now_us() - t0 >= GRACE_MS * 1000);
	assert_true(clock_now_us() - t0 < GRACE_MS * 1000 + SLACK_US);
	assert_int_equal(kill(-group, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void test_close_lets_bot_exit(void **state)
{
	struct bot *b = start_mode("good", NULL, NULL);
	pid_t group = bot_pid(b);
	int64_t t0;

	(void)state;
	handshake_only(b);
	t0 = clock_now_us();
	/* EOF on stdin makes the bot exit at once: no grace period spent. */
	bot_close(b, 1000);
	assert_true(clock_now_us() - t0 < SLACK_US);
	assert_int_equal(kill(-group, 0), -1);
	assert_int_equal(errno, ESRCH);
	bot_stop(NULL, 0);
}

static void test_parent_death_kills_bot(void **state)
{
	int pfd[2];
	pid_t helper, bot = 0;
	int64_t end;

	(void)state;
	assert_int_equal(pipe(pfd), 0);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		struct bot *b = NULL;
		struct run r;
		char why[256];
		pid_t pid;

		/* no-read: a bot reading stdin could exit at its EOF before the signal. */
		run_init(&r, "no-read", NULL, NULL);
		if (bot_start(&r.spec, &b, why, sizeof why) != 0)
			_exit(1);
		pid = bot_pid(b);
		if (write(pfd[1], &pid, sizeof pid) != sizeof pid)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], &bot, sizeof bot), sizeof bot);
	close(pfd[0]);
	assert_int_equal(waitpid(helper, NULL, 0), helper);
	/* Orphaned, the bot comes to us (subreaper) - dead by its death signal. */
	end = in_ms(2000);
	for (;;) {
		int status;
		pid_t got = waitpid(bot, &status, WNOHANG);

		if (got == bot) {
			assert_true(WIFSIGNALED(status));
			assert_int_equal(WTERMSIG(status), SIGKILL);
			break;
		}
		if (clock_now_us() > end) {
			kill(-bot, SIGKILL);
			fail_msg("bot outlived its parent");
		}
		usleep(2000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_plays_and_quits),
		cmocka_unit_test(test_exit_at_start),
		cmocka_unit_test(test_missing_executable),
		cmocka_unit_test(test_path_search),
		cmocka_unit_test(test_not_executable),
		cmocka_unit_test(test_bad_cwd),
		cmocka_unit_test(test_no_hello_times_out),
		cmocka_unit_test(test_never_answer_times_out),
		cmocka_unit_test(test_late_answer),
		cmocka_unit_test(test_garbage_line),
		cmocka_unit_test(test_huge_line_refused_promptly),
		cmocka_unit_test(test_line_length_limit),
		cmocka_unit_test(test_close_stdout),
		cmocka_unit_test(test_no_read_write_times_out),
		cmocka_unit_test(test_die_midgame_exit_code),
		cmocka_unit_test(test_die_midgame_signal),
		cmocka_unit_test(test_fork_holder),
		cmocka_unit_test(test_stderr_flood_capped),
		cmocka_unit_test(test_stderr_discarded),
		cmocka_unit_test(test_stderr_flood_cannot_hold_the_deadline),
		cmocka_unit_test(test_illegal_move),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_fork_bomb_contained),
		cmocka_unit_test(test_memory_hog_contained),
		cmocka_unit_test(test_spec_applied),
		cmocka_unit_test(test_term_ignored_then_killed),
		cmocka_unit_test(test_close_lets_bot_exit),
		cmocka_unit_test(test_parent_death_kills_bot),
	};

	signal(SIGPIPE, SIG_IGN);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
