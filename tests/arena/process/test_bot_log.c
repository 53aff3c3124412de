/*
 * test_bot_log.c - a bot's stderr log (bot.h, bot_io.c) against what a bot
 * could do to it: flood it over many starts, or put something else than a
 * plain file of its own where it is. badbot stderr-flood writes stderr for
 * ever while it plays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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
	char *argv[3];
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stderr_total_cap),
		cmocka_unit_test(test_log_not_a_plain_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
