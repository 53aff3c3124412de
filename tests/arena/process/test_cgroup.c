/*
 * test_cgroup.c - arena/process/cgroup.h: finding where cgroups may be made,
 * on directory trees made to look like cgroup v1 and v2 file systems (so
 * both are tested whichever the machine has), and, where the machine lets
 * the test make cgroups, a real leaf with a process in it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"

static char root[256];

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[2048];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

static char *read_file(const char *dir, const char *name)
{
	char path[2048], *text = calloc(1, 4096);
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (text && (f = fopen(path, "r"))) {
		size_t n = fread(text, 1, 4095, f);

		text[n] = '\0';
		fclose(f);
	}
	return text;
}

static void make_dirs(const char *path)
{
	char cmd[2048];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
	if (system(cmd) != 0)
		abort();
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/test-cgroup.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* v1: pids, memory and cpu in hierarchies of their own; the arena somewhere in memory's. The
 * cpu controller is not used (cgroup.h says why). */
static void test_v1(void **state)
{
	char info[2048], dir[512], why[512];
	struct cgroups *cg;
	pid_t self = getpid();

	(void)state;
	snprintf(info, sizeof info,
		 "31 23 0:28 / %s rw - tmpfs tmpfs rw\n"
		 "32 31 0:29 / %s/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		 "35 31 0:32 / %s/memory rw,relatime - cgroup cgroup rw,memory\n"
		 "39 31 0:36 / %s/pids rw,relatime - cgroup cgroup rw,pids\n"
		 "41 31 0:38 / %s/unified rw,relatime - cgroup2 cgroup2 rw\n",
		 root, root, root, root, root);
	write_file(root, "mountinfo", info);
	write_file(root, "cgroup", "8:pids:/\n4:memory:/box/7\n1:cpu:/\n0::/\n");
	snprintf(dir, sizeof dir, "%s/memory/box/7", root);
	make_dirs(dir);
	snprintf(dir, sizeof dir, "%s/pids", root);
	make_dirs(dir);
	snprintf(dir, sizeof dir, "%s/cpu", root);
	make_dirs(dir);
	snprintf(dir, sizeof dir, "%s/unified", root);
	make_dirs(dir);
	write_file(dir, "cgroup.controllers", "");
	snprintf(info, sizeof info, "%s/mountinfo", root);
	snprintf(dir, sizeof dir, "%s/cgroup", root);
	assert_int_equal(cgroup_open_from(info, dir, self, &cg, why, sizeof why), 0);
	assert_string_equal(cgroup_describe(cg), "cgroup v1 (pids, memory)");
	snprintf(dir, sizeof dir, "%s/memory/box/7/skipbo-arena.%d", root, (int)self);
	assert_true(is_dir(dir));
	snprintf(dir, sizeof dir, "%s/pids/skipbo-arena.%d", root, (int)self);
	assert_true(is_dir(dir));
	cgroup_close(cg);
	assert_false(is_dir(dir));
}

/* v2: the arena alone in its cgroup moves into a child, then hands out the controllers. */
static void test_v2_alone(void **state)
{
	char info[1024], scope[512], base[600], path[700], why[512];
	char pid_line[32], *text;
	struct cgroups *cg;
	pid_t self = getpid();

	(void)state;
	snprintf(info, sizeof info, "41 31 0:38 / %s/v2 rw,relatime - cgroup2 cgroup2 rw\n", root);
	write_file(root, "mountinfo", info);
	write_file(root, "cgroup", "0::/user.slice/run-1.scope\n");
	snprintf(scope, sizeof scope, "%s/v2/user.slice/run-1.scope", root);
	make_dirs(scope);
	snprintf(pid_line, sizeof pid_line, "%d\n", (int)self);
	write_file(scope, "cgroup.controllers", "cpuset cpu io memory pids\n");
	write_file(scope, "cgroup.subtree_control", "\n");
	write_file(scope, "cgroup.procs", pid_line);
	/* what the kernel would make in a new cgroup: the files the arena writes */
	snprintf(base, sizeof base, "%s/skipbo-arena.%d", scope, (int)self);
	make_dirs(base);
	write_file(base, "cgroup.subtree_control", "");
	snprintf(path, sizeof path, "%s.self", base);
	make_dirs(path);
	write_file(path, "cgroup.procs", "");
	snprintf(info, sizeof info, "%s/mountinfo", root);
	snprintf(path, sizeof path, "%s/cgroup", root);
	assert_int_equal(cgroup_open_from(info, path, self, &cg, why, sizeof why), 0);
	assert_string_equal(cgroup_describe(cg), "cgroup v2 (pids, memory)");
	snprintf(path, sizeof path, "%s.self", base);
	text = read_file(path, "cgroup.procs");
	assert_int_equal(strtol(text, NULL, 10), self);
	free(text);
	text = read_file(base, "cgroup.subtree_control");
	assert_string_equal(text, "+pids +memory");
	free(text);
	text = read_file(scope, "cgroup.subtree_control");
	assert_non_null(strstr(text, "+"));
	free(text);
	cgroup_close(cg);
}

/* v2 shared with other processes is left alone; with no v1 either, nothing is usable. */
static void test_v2_shared(void **state)
{
	char info[1024], scope[512], path[700], why[512], procs[64];
	struct cgroups *cg = (struct cgroups *)1;
	pid_t self = getpid();

	(void)state;
	snprintf(info, sizeof info, "41 31 0:38 / %s/v2 rw,relatime - cgroup2 cgroup2 rw\n", root);
	write_file(root, "mountinfo", info);
	write_file(root, "cgroup", "0::/session\n");
	snprintf(scope, sizeof scope, "%s/v2/session", root);
	make_dirs(scope);
	snprintf(procs, sizeof procs, "1\n%d\n", (int)self);
	write_file(scope, "cgroup.controllers", "memory pids\n");
	write_file(scope, "cgroup.subtree_control", "\n");
	write_file(scope, "cgroup.procs", procs);
	snprintf(info, sizeof info, "%s/mountinfo", root);
	snprintf(path, sizeof path, "%s/cgroup", root);
	assert_int_equal(cgroup_open_from(info, path, self, &cg, why, sizeof why), -ENOTSUP);
	assert_null(cg);
	assert_non_null(strstr(why, "holds other processes"));
	assert_non_null(strstr(why, "Delegate=yes"));
	assert_non_null(strstr(why, "no cgroup v1"));
	/* the arena did not move */
	snprintf(path, sizeof path, "%s/skipbo-arena.%d.self", scope, (int)self);
	assert_false(is_dir(path));
}

/* A real leaf where the machine allows it: a process in it, limits, removal. */
static void test_real_leaf(void **state)
{
	struct cgroup_limits limits = { 10, 64 };
	struct cgroup_leaf leaf;
	struct cgroups *cg;
	char why[512], path[1024], *text;
	int fds[2];
	pid_t pid;

	(void)state;
	if (cgroup_open(&cg, why, sizeof why) < 0) {
		printf("no cgroups here (%s): the real leaf is not tested\n", why);
		skip();
	}
	assert_int_equal(cgroup_leaf_make(cg, 1, &limits, &leaf), 0);
	assert_false(cgroup_leaf_busy(&leaf));
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		char c;

		if (cgroup_leaf_enter(&leaf) < 0)
			_exit(1);
		close(fds[1]);
		if (read(fds[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(fds[0]);
	for (int i = 0; i < 1000 && !cgroup_leaf_busy(&leaf); i++)
		usleep(1000);
	assert_true(cgroup_leaf_busy(&leaf));
	snprintf(path, sizeof path, "%s", leaf.dirs[0]);
	text = read_file(path, "pids.max");
	if (text[0])
		assert_int_equal(strtol(text, NULL, 10), 10);
	free(text);
	close(fds[1]);
	waitpid(pid, NULL, 0);
	cgroup_leaf_remove(&leaf, 1000);
	assert_false(is_dir(path));
	cgroup_close(cg);
}

/*
 * An arena that died left a leaf with a process in it: the next arena kills
 * the process and removes the leaf and its directory.
 */
static void test_stale_leaf_killed(void **state)
{
	struct cgroup_limits limits = { 0, 0 };
	struct cgroup_leaf leaf;
	struct cgroups *cg;
	char why[512], stale[CGROUP_MAX_DIRS][1024], pid_text[32];
	pid_t dead, sleeper;
	int n;

	(void)state;
	if (cgroup_open(&cg, why, sizeof why) < 0) {
		printf("no cgroups here (%s): stale leaves are not tested\n", why);
		skip();
	}
	/* a pid that no process has: a child that is gone */
	if ((dead = fork()) == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	assert_int_equal(cgroup_leaf_make(cg, 1, &limits, &leaf), 0);
	n = leaf.n;
	if ((sleeper = fork()) == 0) {
		pause();
		_exit(0);
	}
	snprintf(pid_text, sizeof pid_text, "%d", (int)sleeper);
	for (int i = 0; i < n; i++) {
		/* <parent>/skipbo-arena.<self>/1 -> <parent>/skipbo-arena.<dead>/7 */
		char *base_end = strrchr(leaf.dirs[i], '/');

		*base_end = '\0';
		*strrchr(leaf.dirs[i], '/') = '\0';
		snprintf(stale[i], sizeof stale[i], "%s/skipbo-arena.%d", leaf.dirs[i], (int)dead);
		assert_int_equal(mkdir(stale[i], 0755), 0);
		strcat(stale[i], "/7");
		assert_int_equal(mkdir(stale[i], 0755), 0);
		write_file(stale[i], "cgroup.procs", pid_text);
		leaf.dirs[i][strlen(leaf.dirs[i])] = '/';
		*base_end = '/';
	}
	cgroup_leaf_remove(&leaf, 0);
	cgroup_close(cg);
	assert_int_equal(kill(sleeper, 0), 0);
	assert_int_equal(cgroup_open(&cg, why, sizeof why), 0);
	assert_int_equal(waitpid(sleeper, NULL, 0), sleeper);
	for (int i = 0; i < n; i++)
		assert_false(is_dir(stale[i]));
	cgroup_close(cg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2_shared, setup, teardown),
		cmocka_unit_test(test_real_leaf),
		cmocka_unit_test(test_stale_leaf_killed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
