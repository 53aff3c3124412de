/*
 * test_system_copy.c - the system directories copied to tmpfs for a sealed
 * run (arena/process/system_copy.h): content, modes and times kept, setuid
 * and setgid dropped, symbolic links as they are, fifos, skipped paths and
 * what the arena cannot read left out, a root under another copied once,
 * a root that is a link copied as one when exact;
 * the copy removed when it stops, and when the process that made it is
 * killed with SIGKILL; more than half the machine's memory refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "system_copy.h"

/* on the build's disk, as /usr is */
static char root[] = TEST_DIR "/copy.XXXXXX";

static void make(const char *name, mode_t mode, const char *text)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof path, "%s/%s", root, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0 ||
	    write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd) < 0 ||
	    chmod(path, mode) < 0)
		abort();
}

static void make_dir(const char *name, mode_t mode)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", root, name);
	if (mkdir(path, 0700) < 0 || chmod(path, mode) < 0)
		abort();
}

/* The copy of root's name in c, or NULL when it has none. */
static const char *copied(const struct system_copy *c, const char *name, struct stat *st)
{
	static char path[PATH_MAX * 2];

	snprintf(path, sizeof path, "%s%s/%s", system_copy_dir(c), root, name);
	return lstat(path, st) == 0 ? path : NULL;
}

static void one_root(struct strlist *roots)
{
	memset(roots, 0, sizeof *roots);
	strlist_add(roots, root);
}

static bool gone(const char *dir)
{
	struct stat st;

	return lstat(dir, &st) < 0 && errno == ENOENT;
}

static void test_copies_what_bots_see(void **state)
{
	struct strlist roots, skip = { 0 };
	struct system_copy *c;
	char why[1024], dir[PATH_MAX], path[PATH_MAX], target[64];
	struct stat st;
	ssize_t n;

	(void)state;
	make("plain", 0640, "plain text");
	make("setuid", 04755, "#!/bin/sh\n");
	make_dir("setgid", 02755);
	make("setgid/inside", 02711, "x");
	make_dir("readonly", 0555 | 0200);
	make("readonly/kept", 0444, "kept");
	snprintf(path, sizeof path, "%s/readonly", root);
	chmod(path, 0555);
	make_dir("hidden", 0755);
	make("hidden/secret", 0644, "secret");
	snprintf(path, sizeof path, "%s/link", root);
	assert_int_equal(symlink("plain", path), 0);
	snprintf(path, sizeof path, "%s/absolute", root);
	assert_int_equal(symlink("/usr/bin/nothing-here", path), 0);
	snprintf(path, sizeof path, "%s/fifo", root);
	assert_int_equal(mkfifo(path, 0644), 0);
	snprintf(path, sizeof path, "%s/plain", root);
	assert_int_equal(utimensat(AT_FDCWD, path, (struct timespec[2]){ { 1000000000, 0 },
									{ 1000000000, 0 } }, 0), 0);

	one_root(&roots);
	/* a root under one already copied is copied once */
	snprintf(path, sizeof path, "%s/setgid", root);
	strlist_add(&roots, path);
	snprintf(path, sizeof path, "%s/hidden", root);
	strlist_add(&skip, path);
	assert_int_equal(system_copy_make(&roots, &skip, false, &c, why, sizeof why), 0);
	snprintf(dir, sizeof dir, "%s", system_copy_dir(c));
	assert_int_equal(strncmp(dir, SYSTEM_COPY_PARENT "/", strlen(SYSTEM_COPY_PARENT "/")), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0711);

	assert_non_null(copied(c, "plain", &st));
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(st.st_size, strlen("plain text"));
	assert_int_equal(st.st_mtim.tv_sec, 1000000000);
	assert_non_null(copied(c, "setuid", &st));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_non_null(copied(c, "setgid", &st));
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_non_null(copied(c, "setgid/inside", &st));
	assert_int_equal(st.st_mode & 07777, 0711);
	assert_non_null(copied(c, "readonly", &st));
	assert_int_equal(st.st_mode & 07777, 0555);
	assert_non_null(copied(c, "readonly/kept", &st));
	assert_non_null(copied(c, "link", &st));
	assert_true(S_ISLNK(st.st_mode));
	n = readlink(copied(c, "link", &st), target, sizeof target - 1);
	assert_int_equal(n, strlen("plain"));
	assert_non_null(copied(c, "absolute", &st));
	n = readlink(copied(c, "absolute", &st), target, sizeof target - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "/usr/bin/nothing-here");
	assert_null(copied(c, "fifo", &st));
	assert_null(copied(c, "hidden", &st));
	assert_int_equal(system_copy_stats(c)->files, 4);

	system_copy_remove(c);
	assert_true(gone(dir));
	strlist_free(&roots);
	strlist_free(&skip);
}

/* exact: a root that is a link is copied as the link, beside the file it names. */
static void test_exact_roots(void **state)
{
	struct strlist roots = { 0 };
	struct system_copy *c;
	char why[1024], path[PATH_MAX], target[64];
	struct stat st;
	ssize_t n;

	(void)state;
	make_dir("exact", 0755);
	make("exact/lib.so.1.0", 0644, "library");
	snprintf(path, sizeof path, "%s/exact/lib.so.1", root);
	assert_int_equal(symlink("lib.so.1.0", path), 0);
	strlist_add(&roots, path);
	snprintf(path, sizeof path, "%s/exact/lib.so.1.0", root);
	strlist_add(&roots, path);
	assert_int_equal(system_copy_make(&roots, NULL, true, &c, why, sizeof why), 0);
	assert_non_null(copied(c, "exact/lib.so.1", &st));
	assert_true(S_ISLNK(st.st_mode));
	n = readlink(copied(c, "exact/lib.so.1", &st), target, sizeof target - 1);
	assert_int_equal(n, strlen("lib.so.1.0"));
	assert_non_null(copied(c, "exact/lib.so.1.0", &st));
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(system_copy_stats(c)->files, 1);
	system_copy_remove(c);
	strlist_free(&roots);
}

/* What the arena cannot read is left out; as root, the arena runs as nobody to see it. */
static void test_unreadable_left_out(void **state)
{
	struct strlist roots = { 0 };
	struct system_copy *c;
	char why[1024], path[PATH_MAX];
	struct stat st;
	pid_t pid;
	int status;

	(void)state;
	make_dir("unreadable", 0755);
	make("unreadable/locked", 0000, "no");
	make("unreadable/open", 0644, "yes");
	make_dir("unreadable/closed", 0000);
	snprintf(path, sizeof path, "%s/unreadable", root);
	strlist_add(&roots, path);
	if ((pid = fork()) == 0) {
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(2);
		if (system_copy_make(&roots, NULL, false, &c, why, sizeof why) < 0)
			_exit(3);
		_exit(copied(c, "unreadable/locked", &st) || copied(c, "unreadable/closed", &st) ||
		      !copied(c, "unreadable/open", &st) || system_copy_stats(c)->left_out != 2 ?
		      4 : 0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	strlist_free(&roots);
}

/* The arena killed with SIGKILL: its keeper removes the copy. */
static void test_removed_after_sigkill(void **state)
{
	struct strlist roots;
	struct system_copy *c;
	char why[1024], dir[PATH_MAX] = "";
	int pipefd[2], status;
	pid_t pid;

	(void)state;
	one_root(&roots);
	assert_int_equal(pipe(pipefd), 0);
	if ((pid = fork()) == 0) {
		close(pipefd[0]);
		if (system_copy_make(&roots, NULL, false, &c, why, sizeof why) < 0)
			_exit(3);
		if (write(pipefd[1], system_copy_dir(c), strlen(system_copy_dir(c))) < 0)
			_exit(4);
		close(pipefd[1]);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	assert_true(read(pipefd[0], dir, sizeof dir - 1) > 0);
	close(pipefd[0]);
	assert_false(gone(dir));
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* the keeper, now an orphan, removes it soon; a minute is far above idle time */
	for (int i = 0; i < 6000 && !gone(dir); i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	if (!gone(dir))
		fail_msg("%s outlived the process that made it", dir);
	strlist_free(&roots);
}

static void test_too_much_refused(void **state)
{
	uint64_t memory = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	struct strlist roots;
	struct system_copy *c;
	char why[1024], path[PATH_MAX];
	int fd;

	(void)state;
	/* sparse: its size counts, not its blocks */
	snprintf(path, sizeof path, "%s/huge", root);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0 ||
	    ftruncate(fd, (off_t)memory) < 0 || close(fd) < 0)
		abort();
	one_root(&roots);
	assert_int_equal(system_copy_make(&roots, NULL, false, &c, why, sizeof why), -E2BIG);
	assert_null(c);
	assert_non_null(strstr(why, "\"system\""));
	assert_non_null(strstr(why, root));
	assert_non_null(strstr(why, "more than half"));
	unlink(path);
	strlist_free(&roots);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copies_what_bots_see),
		cmocka_unit_test(test_exact_roots),
		cmocka_unit_test(test_unreadable_left_out),
		cmocka_unit_test(test_removed_after_sigkill),
		cmocka_unit_test(test_too_much_refused),
	};
	char cmd[PATH_MAX + 32];
	int failed;

	if (!mkdtemp(root) || chmod(root, 0755) < 0)
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", root, root);
	if (system(cmd) != 0)
		return 1;
	return failed;
}
