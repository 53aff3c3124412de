/*
 * test_journal.c - append-only JSON lines (journal.h): a torn last line cut
 * at the open and before the next line, another appender's lines kept, a
 * line the disk cannot take whole undone with nothing before it lost, and
 * two processes appending at once never interleaving.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/test-journal-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/j.jsonl", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	rmdir(dir);
	return 0;
}

static void write_text(const char *mode, const char *text)
{
	FILE *f = fopen(path, mode);

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The file's whole text (static storage). */
static const char *text_of(void)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void append(struct journal *j, const char *line)
{
	assert_int_equal(journal_append(j, line, strlen(line), true), 0);
}

static void torn_tail_cut(void **state)
{
	struct journal *j;

	(void)state;
	/* created: empty, then a line */
	assert_int_equal(journal_open(path, &j), 0);
	append(j, "{\"a\":1}");
	journal_close(j);
	/* a crash in the middle of a line: cut at the open, the next line on its own */
	write_text("a", "{\"b\":");
	assert_int_equal(journal_open(path, &j), 0);
	assert_string_equal(text_of(), "{\"a\":1}\n");
	append(j, "{\"c\":3}");
	/* another process's torn line while this journal is open: cut before the next */
	write_text("a", "{\"d\"");
	append(j, "{\"e\":5}");
	assert_string_equal(text_of(), "{\"a\":1}\n{\"c\":3}\n{\"e\":5}\n");
	/* another process's whole line: kept */
	write_text("a", "{\"f\":6}\n");
	append(j, "{\"g\":7}");
	assert_string_equal(text_of(), "{\"a\":1}\n{\"c\":3}\n{\"e\":5}\n{\"f\":6}\n{\"g\":7}\n");
	journal_close(j);
	/* a file that is all one torn line */
	write_text("w", "{\"h\"");
	assert_int_equal(journal_append_once(path, "{\"i\":9}", 7), 0);
	assert_string_equal(text_of(), "{\"i\":9}\n");
}

/* A full disk, made by RLIMIT_FSIZE in a child: the line that does not fit is undone, the
 * lines before it stay, and an error comes back; once there is room again, lines go in. */
static void full_disk_loses_nothing(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	write_text("w", "{\"a\":1}\n");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit small = { 20, RLIM_INFINITY }, room = { RLIM_INFINITY, RLIM_INFINITY };
		struct journal *j;
		int ret;

		signal(SIGXFSZ, SIG_IGN);
		if (journal_open(path, &j) < 0 || setrlimit(RLIMIT_FSIZE, &small) < 0)
			_exit(10);
		/* 8 + 31 bytes: past 20 */
		ret = journal_append(j, "{\"b\":\"a line longer than room\"}", 30, true);
		if (ret != -EFBIG)
			_exit(11);
		if (strcmp(text_of(), "{\"a\":1}\n") != 0)
			_exit(12);
		if (setrlimit(RLIMIT_FSIZE, &room) < 0 || journal_append(j, "{\"c\":3}", 7, true) < 0)
			_exit(13);
		journal_close(j);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(text_of(), "{\"a\":1}\n{\"c\":3}\n");
}

/* Two processes, 2,000 lines each of 600 bytes: every line whole, none lost. */
static void two_appenders(void **state)
{
	char line[601];
	pid_t pid[2];
	const char *at;
	int count[2] = { 0, 0 };

	(void)state;
	unlink(path);
	for (int p = 0; p < 2; p++) {
		pid[p] = fork();
		assert_true(pid[p] >= 0);
		if (pid[p] == 0) {
			struct journal *j;

			if (journal_open(path, &j) < 0)
				_exit(10);
			memset(line, 'a' + p, sizeof line - 1);
			line[sizeof line - 1] = '\0';
			for (int i = 0; i < 2000; i++)
				if (journal_append(j, line, sizeof line - 1, false) < 0)
					_exit(11);
			journal_close(j);
			_exit(0);
		}
	}
	for (int p = 0; p < 2; p++) {
		int status;

		assert_int_equal(waitpid(pid[p], &status, 0), pid[p]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	{
		FILE *f = fopen(path, "r");
		char buf[2048];

		assert_non_null(f);
		while (fgets(buf, sizeof buf, f)) {
			size_t n = strlen(buf);

			assert_int_equal(n, 601);
			at = buf;
			assert_true(*at == 'a' || *at == 'b');
			for (size_t k = 0; k < 600; k++)
				assert_int_equal(buf[k], *at);
			count[*at - 'a']++;
		}
		fclose(f);
	}
	assert_int_equal(count[0], 2000);
	assert_int_equal(count[1], 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(torn_tail_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(full_disk_loses_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(two_appenders, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
