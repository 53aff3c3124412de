/*
 * test_durable.c - durable_write(): the whole text under the name, an old
 * file replaced, no temporary file left behind, errors reported without a
 * partial file. (That the data reaches the disk before rename is fsync's
 * job; what can be checked here is the protocol around it.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "durable.h"

static char dir[] = "/tmp/test_durable.XXXXXX";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 4096);

	assert_non_null(f);
	assert_non_null(text);
	assert_true(fread(text, 1, 4095, f) < 4095);
	fclose(f);
	return text;
}

static void test_write_and_replace(void **state)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	char *text;

	(void)state;
	snprintf(path, sizeof(path), "%s/file.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(durable_write(path, "first text\n", 11), 0);
	text = slurp(path);
	assert_string_equal(text, "first text\n");
	free(text);
	assert_int_equal(durable_write(path, "second\n", 7), 0);
	text = slurp(path);
	assert_string_equal(text, "second\n");
	free(text);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(durable_sync_dir(dir), 0);
	assert_int_equal(durable_sync_parent(path), 0);
	unlink(path);
}

static void test_errors(void **state)
{
	char path[PATH_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s/no/such/dir/file.json", dir);
	assert_int_equal(durable_write(path, "x", 1), -ENOENT);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(durable_sync_dir("/no/such/directory"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_and_replace),
		cmocka_unit_test(test_errors),
	};
	int failed;

	if (!mkdtemp(dir))
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return failed;
}
