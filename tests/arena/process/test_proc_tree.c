/*
 * test_proc_tree.c - a process tree through /proc (proc_tree.h): real
 * trees at SCHED_IDLE moved to SCHED_OTHER at nice 19, each thread checking
 * its own class once moved (so a tree in a PID namespace needs no pid of
 * ours); the CPU time of live and reaped processes. Nothing waits on a
 * clock: every step is a pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "proc_tree.h"

/* The threads of a tree that report their class: the root, its child, a grandchild and
 * the grandchild's second thread. */
#define REPORTERS 4

struct report {
	int policy, nice;
};

static int ready[2], go[2], reports[2];

/* Say so, wait for the test's go (the end of its pipe), report the class, then sleep. */
static void *report_class(void *arg)
{
	struct report r;
	char c;

	(void)arg;
	if (write(ready[1], "r", 1) != 1)
		_exit(1);
	while (read(go[0], &c, 1) < 0 && errno == EINTR)
		;
	errno = 0;
	r.policy = sched_getscheduler(0);
	r.nice = getpriority(PRIO_PROCESS, 0);
	if (write(reports[1], &r, sizeof(r)) != sizeof(r))
		_exit(1);
	for (;;)
		pause();
	return NULL;
}

/* In a child: it dies with its parent, so a failed test leaves no tree behind. */
static void die_with_parent(void)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(1);
}

/* The tree below the root: a child, its child with a second thread. */
static void grow(void)
{
	pthread_t t;
	pid_t child = fork();

	if (child < 0)
		_exit(1);
	if (child > 0)
		report_class(NULL);
	die_with_parent();
	if ((child = fork()) < 0)
		_exit(1);
	if (child > 0)
		report_class(NULL);
	die_with_parent();
	if (pthread_create(&t, NULL, report_class, NULL) != 0)
		_exit(1);
	report_class(NULL);
}

/* A root at SCHED_IDLE in a group of its own, its tree grown (in a PID namespace of
 * its own with newpid); the root's pid once all report ready, or 0 and the test skipped. */
static pid_t start_tree(bool newpid)
{
	pid_t root;
	char c;

	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	assert_int_equal(pipe2(go, O_CLOEXEC), 0);
	assert_int_equal(pipe2(reports, O_CLOEXEC), 0);
	root = fork();
	assert_true(root >= 0);
	if (root == 0) {
		die_with_parent();
		setpgid(0, 0);
		if (sched_setscheduler(0, SCHED_IDLE, &(struct sched_param){ 0 }) < 0)
			_exit(1);
		if (newpid && unshare(CLONE_NEWPID) < 0) {
			if (write(ready[1], "u", 1) != 1)
				_exit(1);
			_exit(0);
		}
		close(go[1]);
		grow();
	}
	close(ready[1]);
	close(go[0]);
	close(reports[1]);
	for (int i = 0; i < REPORTERS; i++) {
		assert_int_equal(read(ready[0], &c, 1), 1);
		if (c == 'u') {
			waitpid(root, NULL, 0);
			return 0;
		}
	}
	return root;
}

static void end_tree(pid_t root)
{
	kill(-root, SIGKILL);
	assert_int_equal(waitpid(root, NULL, 0), root);
	close(ready[0]);
	close(go[1]);
	close(reports[0]);
}

/* Every thread of the tree reports SCHED_OTHER at nice 19 once moved. */
static void check_moved(bool newpid)
{
	pid_t root = start_tree(newpid);
	struct report r;

	if (!root) {
		close(ready[0]);
		close(go[1]);
		close(reports[0]);
		skip();
	}
	assert_int_equal(proc_tree_leave_idle(root, 19), REPORTERS);
	/* a second call finds nothing left at SCHED_IDLE */
	assert_int_equal(proc_tree_leave_idle(root, 19), 0);
	close(go[1]);
	go[1] = -1;
	for (int i = 0; i < REPORTERS; i++) {
		assert_int_equal(read(reports[0], &r, sizeof(r)), sizeof(r));
		assert_int_equal(r.policy, SCHED_OTHER);
		assert_int_equal(r.nice, 19);
	}
	end_tree(root);
}

static void test_tree_leaves_idle(void **state)
{
	(void)state;
	check_moved(false);
}

/* The walk reads the host's /proc: a sandbox's processes in a PID namespace are found. */
static void test_tree_in_pid_namespace_leaves_idle(void **state)
{
	(void)state;
	check_moved(true);
}

static void test_gone_root(void **state)
{
	pid_t gone = fork();
	int64_t us;

	(void)state;
	assert_true(gone >= 0);
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, NULL, 0), gone);
	assert_int_equal(proc_tree_cpu_us(gone, &us), -ESRCH);
	assert_int_equal(proc_tree_leave_idle(gone, 19), -ESRCH);
}

/* Spin until this process has used ms of CPU: the measure is its own clock, not the wall. */
static void spin(int ms)
{
	struct timespec ts;

	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < ms);
}

/* A grandchild that spun and was reaped, and a live one that spun: both counted. */
static void test_cpu_of_live_and_reaped(void **state)
{
	pid_t root;
	int64_t us;
	char c;

	(void)state;
	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	root = fork();
	assert_true(root >= 0);
	if (root == 0) {
		pid_t reaped, live;

		die_with_parent();
		setpgid(0, 0);
		if ((reaped = fork()) == 0) {
			spin(200);
			_exit(0);
		}
		if (reaped < 0 || waitpid(reaped, NULL, 0) != reaped || (live = fork()) < 0)
			_exit(1);
		if (live == 0) {
			die_with_parent();
			spin(200);
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
		}
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(proc_tree_cpu_us(root, &us), 0);
	/* 400 ms spun, counted in clock ticks: a tick or two of each may be missing */
	assert_true(us >= 300000);
	kill(-root, SIGKILL);
	kill(root, SIGKILL);
	assert_int_equal(waitpid(root, NULL, 0), root);
	close(ready[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_leaves_idle),
		cmocka_unit_test(test_tree_in_pid_namespace_leaves_idle),
		cmocka_unit_test(test_gone_root),
		cmocka_unit_test(test_cpu_of_live_and_reaped),
	};
	struct rlimit nice;

	/* Leaving SCHED_IDLE needs CAP_SYS_NICE, or an RLIMIT_NICE of 1 for nice 19. */
	if (geteuid() != 0) {
		if (getrlimit(RLIMIT_NICE, &nice) < 0 || nice.rlim_max < 1) {
			printf("skipped: leaving SCHED_IDLE needs root or a hard RLIMIT_NICE of at "
			       "least 1 (`ulimit -e`)\n");
			return 77;
		}
		nice.rlim_cur = 1;
		setrlimit(RLIMIT_NICE, &nice);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
