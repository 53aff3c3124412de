/*
 * test_host_config.c - a hosted competition's settings (host_config.h): the
 * defaults without a file, each key read, comments and trailing commas, an
 * unknown key, a wrong type, a value out of range, each error naming the
 * file, the line and the key.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "remove_tree.h"

#include "host_config.h"

struct fixture {
	char dir[64];
	char path[PATH_MAX];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_host_config.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, HOST_CONFIG_FILE);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->dir);
	free(f);
	return 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_defaults(void **state)
{
	struct fixture *f = *state;
	struct host_config c, d;
	char err[512] = "";

	assert_int_equal(host_config_read(f->dir, &c, err, sizeof(err)), 0);
	host_config_defaults(&d);
	assert_memory_equal(&c, &d, sizeof(c));
	assert_int_equal(c.per_day, 10);
	assert_int_equal(c.builds, 1);
	assert_int_equal(c.build_seconds, 300);
	assert_int_equal(c.build_cpu_seconds, 300);
	assert_int_equal(c.build_memory_mb, 2048);
	assert_int_equal(c.build_processes, 64);
	assert_int_equal(c.build_disk_mb, 512);
	assert_int_equal(c.check_games, 4);
	assert_int_equal(c.upload_mb, 64);
	assert_int_equal(c.login_failures, 10);
	assert_false(c.frozen);
	assert_true(c.public_games);
	assert_int_equal(c.lease_seconds, 90);
	assert_int_equal(c.expire_seconds, 120);
	assert_true(c.replay_sample == 0.1);
	/* an empty object: the defaults too */
	write_file(f->path, "{}\n");
	assert_int_equal(host_config_read(f->dir, &c, err, sizeof(err)), 0);
	assert_memory_equal(&c, &d, sizeof(c));
}

static void test_each_key(void **state)
{
	struct fixture *f = *state;
	struct host_config c;
	char err[512] = "";

	write_file(f->path, "{\n"
		   "  // finals week\n"
		   "  \"per_day\": 3, \"builds\": 2, \"build_seconds\": 60,\n"
		   "  \"build_cpu_seconds\": 50, \"build_memory_mb\": 512,\n"
		   "  \"build_processes\": 32, \"build_disk_mb\": 100, \"check_games\": 2,\n"
		   "  \"upload_mb\": 8, \"login_failures\": 5, /* for the finals */\n"
		   "  \"frozen\": true, \"public_games\": false,\n"
		   "  \"lease_seconds\": 30, \"expire_seconds\": 45, \"replay_sample\": 1,\n"
		   "}\n");
	if (host_config_read(f->dir, &c, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(c.per_day, 3);
	assert_int_equal(c.builds, 2);
	assert_int_equal(c.build_seconds, 60);
	assert_int_equal(c.build_cpu_seconds, 50);
	assert_int_equal(c.build_memory_mb, 512);
	assert_int_equal(c.build_processes, 32);
	assert_int_equal(c.build_disk_mb, 100);
	assert_int_equal(c.check_games, 2);
	assert_int_equal(c.upload_mb, 8);
	assert_int_equal(c.login_failures, 5);
	assert_true(c.frozen);
	assert_false(c.public_games);
	assert_int_equal(c.lease_seconds, 30);
	assert_int_equal(c.expire_seconds, 45);
	assert_true(c.replay_sample == 1.0);
}

/* The file holding text is refused with an error holding each of the words. */
static void refused(struct fixture *f, const char *text, const char *w1, const char *w2)
{
	struct host_config c;
	char err[512] = "";

	write_file(f->path, text);
	assert_int_equal(host_config_read(f->dir, &c, err, sizeof(err)), -EINVAL);
	if (!strstr(err, f->path) || !strstr(err, w1) || !strstr(err, w2))
		fail_msg("%s: %s", text, err);
	/* nothing half read: the defaults */
	assert_int_equal(c.per_day, 10);
}

static void test_refusals(void **state)
{
	struct fixture *f = *state;

	refused(f, "{\n  \"per_dya\": 3\n}\n", ":2:3: per_dya: unknown key", "did you mean \"per_day\"");
	refused(f, "{\"colour\": 3}", "colour: unknown key", "HOSTING.md");
	refused(f, "{\"per_day\": 3,\n \"builds\": \"two\"}", ":2:12: builds:", "expected an integer");
	refused(f, "{\"builds\": 0}", "builds:", "from 1");
	refused(f, "{\"build_seconds\": 1.5}", "build_seconds:", "1.5");
	refused(f, "{\"replay_sample\": 1.5}", "replay_sample:", "from 0");
	refused(f, "{\"replay_sampel\": 0}", "unknown key", "did you mean \"replay_sample\"");
	refused(f, "{\"lease_seconds\": 0}", "lease_seconds:", "from 5");
	refused(f, "{\"frozen\": 1}", "frozen:", "expected true or false");
	refused(f, "[1, 2]", "expected an object", ":1:1:");
	refused(f, "{\"per_day\": 3", ":1:", "");
	refused(f, "{\"per_day\": 3, \"per_day\": 4}", "duplicate key", "per_day");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_each_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
