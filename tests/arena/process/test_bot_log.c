/*
 * test_bot_log.c - a bot's stderr log (bot.h, bot_io.c) against what a bot
 * could do to it: flood it over many starts, or put something else than a
 * plain file of its own where it is. badbot stderr-flood writes stderr for
 * ever while it plays. And the lines themselves: each to the handler and
 * into the log with its tag, long ones in pieces, a last one without a
 * newline at the stop; badbot chatty writes known lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"

#define GRACE_MS 100

static const char REQUEST[] =
	"{\"type\":\"request\",\"game\":\"g000001\",\"turn\":1,\"move\":1,"
	"\"legal\":[{\"action\":\"play\",\"from\":\"hand\",\"card\":1,\"to\":0}]}";
static const char HELLO[] = "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"skipbo-arena test\"}";

struct run {
	char *argv[4];
	struct bot_spec spec;
};

static int64_t in_ms(int ms)
{
	return clock_now_us() + (int64_t)ms * 1000;
}

/* badbot stderr-flood with its stderr logged to path. */
static void run_init(struct run *r, const char *path)
{
	memset(r, 0, sizeof *r);
	r->argv[0] = (char *)BADBOT_PATH;
	r->argv[1] = (char *)"stderr-flood";
	r->spec.name = "flood";
	r->spec.argv = r->argv;
	r->spec.cpu = -1;
	r->spec.stderr_path = path;
	r->spec.stderr_cap = 4096;
}

static struct bot *run_start(struct run *r)
{
	struct bot *b = NULL;
	char why[256];
	int rc = bot_start(&r->spec, &b, why, sizeof why);

	if (rc != 0)
		print_error("bot_start: %s\n", why);
	assert_int_equal(rc, 0);
	return b;
}

/* Send line, read one line back. */
static void exchange(struct bot *b, const char *line)
{
	const char *answer;
	size_t len;

	assert_int_equal(bot_write_line(b, line, strlen(line), in_ms(1000)), 0);
	assert_int_equal(bot_read_line(b, &answer, &len, in_ms(3000)), 0);
}

static void handshake_only(struct bot *b)
{
	exchange(b, HELLO);
}

static void play_one(struct bot *b)
{
	exchange(b, REQUEST);
}

/* The log grows past no total cap, over any number of starts flooding it. */
static void test_stderr_total_cap(void **state)
{
	char path[] = "/tmp/test_bot_log_XXXXXX";
	int fd = mkstemp(path);
	struct stat st;

	(void)state;
	assert_true(fd >= 0);
	for (int start = 0; start < 6; start++) {
		struct run r;
		struct bot *b;
		int64_t end = in_ms(3000);

		run_init(&r, path);
		r.spec.stderr_total_cap = 10000;
		b = run_start(&r);
		handshake_only(b);
		/* each start floods until its own cap, or the file's */
		do {
			play_one(b);
			assert_int_equal(fstat(fd, &st), 0);
		} while ((size_t)st.st_size < 4096 * (size_t)(start + 1) && st.st_size < 9900 &&
			 clock_now_us() < end);
		bot_stop(b, GRACE_MS);
	}
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	unlink(path);
	assert_true(st.st_size > 9000);
	assert_true(st.st_size <= 10000);
}

/*
 * A log that is not a regular file of its own is not written: a FIFO with no
 * reader (which would block the open for ever), a symbolic link (the arena
 * would write where it points), a hard link. The bot still runs, its stderr
 * read and dropped.
 */
static void test_log_not_a_plain_file(void **state)
{
	char dir[] = "/tmp/test_bot_logs_XXXXXX", fifo[64], sym[64], target[64], hard[64];
	const char *const paths[] = { fifo, sym, hard };
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	snprintf(sym, sizeof sym, "%s/link", dir);
	snprintf(target, sizeof target, "%s/target", dir);
	snprintf(hard, sizeof hard, "%s/hard", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink(target, sym), 0);
	close(open(target, O_WRONLY | O_CREAT, 0600));
	assert_int_equal(link(target, hard), 0);
	for (size_t i = 0; i < 3; i++) {
		struct run r;
		struct bot *b;
		int64_t start = clock_now_us();

		run_init(&r, paths[i]);
		b = run_start(&r);
		assert_true(clock_now_us() - start < 2000000);
		handshake_only(b);
		for (int k = 0; k < 5; k++)
			play_one(b);
		bot_stop(b, GRACE_MS);
	}
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(lstat(sym, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(fifo);
	unlink(sym);
	unlink(hard);
	unlink(target);
	rmdir(dir);
}

/* What a handler got: the lines joined with '|'. */
struct got {
	char text[8192];
	size_t len;
	int lines;
};

static void collect(void *ctx, const char *line, size_t len)
{
	struct got *g = ctx;

	if (g->len + len + 2 < sizeof g->text) {
		memcpy(g->text + g->len, line, len);
		g->len += len;
		g->text[g->len++] = '|';
		g->text[g->len] = '\0';
	}
	g->lines++;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 1 << 16);

	assert_non_null(f);
	assert_non_null(text);
	assert_true(fread(text, 1, (1 << 16) - 1, f) > 0);
	fclose(f);
	return text;
}

/* Every line to the handler as it is read; the log tags each with the tag set
 * at the time and the process; the crash's last lines arrive by bot_stop. */
static void test_lines_to_handler_and_tagged_log(void **state)
{
	char path[] = "/tmp/test_bot_log_XXXXXX", expect[256];
	int fd = mkstemp(path);
	struct got got = { .len = 0 };
	struct run r;
	struct bot *b;
	const char *line;
	size_t len;
	long pid;
	char *log;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	run_init(&r, path);
	r.argv[1] = (char *)"chatty";
	r.argv[2] = (char *)"1";
	r.spec.stderr_cap = 1 << 20;
	b = run_start(&r);
	pid = (long)bot_pid(b);
	bot_set_stderr_handler(b, (struct bot_stderr_handler){ collect, &got });
	handshake_only(b);
	bot_set_stderr_tag(b, "g000007");
	play_one(b);
	bot_poll_stderr(b);
	assert_non_null(strstr(got.text, "chatty: started|chatty: request 1 of turn 1|"
			       "chatty: esc \033[2J bell \a tab \t end|"));
	/* the second request: 15 lines of traceback, then exit 1 */
	assert_int_equal(bot_write_line(b, REQUEST, strlen(REQUEST), in_ms(1000)), 0);
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(3000)), -EPIPE);
	bot_stop(b, GRACE_MS);
	assert_int_equal(got.lines, 3 + 15);
	assert_non_null(strstr(got.text, "|traceback line 1|traceback line 2|"));
	assert_non_null(strstr(got.text, "|traceback line 15|"));
	log = read_all(path);
	unlink(path);
	snprintf(expect, sizeof expect, "[pid %ld] chatty: started\n[g000007 pid %ld] chatty: "
		 "request 1 of turn 1\n", pid, pid);
	if (strncmp(log, expect, strlen(expect)))
		fail_msg("log starts:\n%.300s\nexpected:\n%s", log, expect);
	snprintf(expect, sizeof expect, "\n[g000007 pid %ld] traceback line 15\n", pid);
	assert_non_null(strstr(log, expect));
	free(log);
}

/* A line longer than BOT_STDERR_LINE_MAX comes in pieces; one without a
 * newline comes when the bot is stopped. */
static void test_long_line_in_pieces(void **state)
{
	char *argv[] = { (char *)"/bin/sh", (char *)"-c",
		(char *)"head -c 2500 /dev/zero | tr '\\0' x >&2; printf tail >&2; "
		"printf '{}\\n'; exec sleep 5", NULL };
	struct bot_spec spec = { .name = "sh", .argv = argv, .cpu = -1 };
	struct got got = { .len = 0 };
	struct bot *b = NULL;
	const char *line;
	size_t len;
	char why[256];

	(void)state;
	assert_int_equal(bot_start(&spec, &b, why, sizeof why), 0);
	bot_set_stderr_handler(b, (struct bot_stderr_handler){ collect, &got });
	assert_int_equal(bot_read_line(b, &line, &len, in_ms(3000)), 0);
	bot_poll_stderr(b);
	assert_int_equal(got.lines, 2);
	bot_stop(b, GRACE_MS);
	assert_int_equal(got.lines, 3);
	assert_int_equal(got.len, 2504 + 3);
	assert_int_equal(got.text[BOT_STDERR_LINE_MAX], '|');
	assert_int_equal(got.text[2 * BOT_STDERR_LINE_MAX + 1], '|');
	assert_string_equal(got.text + 2500 + 2, "tail|");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_to_handler_and_tagged_log),
		cmocka_unit_test(test_long_line_in_pieces),
		cmocka_unit_test(test_stderr_total_cap),
		cmocka_unit_test(test_log_not_a_plain_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
