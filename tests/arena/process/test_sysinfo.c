/*
 * test_sysinfo.c - the launcher's answer to sysinfo (launcher.h,
 * sysinfo_view.h), without bwrap: this program, executed by the real
 * launcher as a bot would be, reports what sysinfo and sysconf tell it from
 * its main thread, another thread and a forked child; and what a bot meets
 * once the launcher is gone: ENOSYS at once, not a wait.
 * Where the launcher or its filter cannot run (a machine without one, a
 * kernel before 5.0), the program says why and exits 77 (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher.h"
#include "sandbox_start.h"
#include "sysinfo_view.h"

/* ---- the bot's side: one line per sysinfo call ---- */

#define THREADS 4
#define CALLS 200

static void report(const char *who)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0) {
		printf("%s error %d\n", who, errno);
		return;
	}
	printf("%s total %lu free %lu shared %lu buffer %lu swap %lu procs %u loads %lu %lu %lu "
	       "unit %u uptime %ld\n", who, si.totalram, si.freeram, si.sharedram, si.bufferram,
	       si.totalswap, (unsigned)si.procs, si.loads[0], si.loads[1], si.loads[2],
	       si.mem_unit, si.uptime);
	fflush(stdout);
}

static void *thread_report(void *arg)
{
	report(arg);
	return NULL;
}

/* CALLS sysinfo calls: how many were answered with the view's memory. */
static void *thread_many(void *arg)
{
	long *ok = arg;
	struct sysinfo si;

	for (int i = 0; i < CALLS; i++)
		*ok += sysinfo(&si) == 0 && si.totalram == SYSINFO_VIEW_RAM;
	return NULL;
}

static int probe(const char *mode)
{
	pthread_t t;
	pid_t child;

	if (strcmp(mode, "orphan") == 0) {
		/* the launcher gone: the kernel answers for a listener closed */
		pid_t launcher = getppid();

		kill(launcher, SIGKILL);
		while (getppid() == launcher)
			usleep(1000);
		report("orphan");
		return 0;
	}
	report("main");
	if (pthread_create(&t, NULL, thread_report, "thread") == 0)
		pthread_join(t, NULL);
	if ((child = fork()) == 0) {
		report("child");
		_exit(0);
	}
	waitpid(child, NULL, 0);
	/* calls at once from several threads, each answered; a pointer nowhere: EFAULT */
	{
		pthread_t many[THREADS];
		long ok[THREADS] = { 0 }, sum = 0;

		for (int i = 0; i < THREADS; i++)
			if (pthread_create(&many[i], NULL, thread_many, &ok[i]) != 0)
				ok[i] = -1;
		for (int i = 0; i < THREADS; i++)
			if (ok[i] >= 0)
				pthread_join(many[i], NULL);
		for (int i = 0; i < THREADS; i++)
			sum += ok[i];
		printf("many %ld\n", sum);
		printf("null %d\n", sysinfo(NULL) < 0 ? errno : 0);
	}
	printf("pages %ld avpages %ld pagesize %ld\n", sysconf(_SC_PHYS_PAGES),
	       sysconf(_SC_AVPHYS_PAGES), sysconf(_SC_PAGESIZE));
	return 0;
}

/* ---- the test's side ---- */

static char self[4096];

/*
 * This program run by the launcher as a bot in mode (its descriptors as
 * bwrap would leave them, no_new_privs set as bwrap does): its output, and
 * the launcher's wait status in *status.
 */
static char *run_launched(const char *mode, int *status)
{
	static char out[8192];
	int launcher = launcher_open(), pipefd[2];
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	assert_true(launcher >= 0);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { "/proc/self/fd/9", self, "probe", (char *)mode, NULL };
		/* above the launcher's numbers first, so that no dup2 closes another's */
		int null_fd = fcntl(open("/dev/null", O_RDONLY), F_DUPFD, SANDBOX_LAUNCHER_FD + 1);
		int out_fd = fcntl(pipefd[1], F_DUPFD, SANDBOX_LAUNCHER_FD + 1);
		int self_fd = fcntl(launcher, F_DUPFD, SANDBOX_LAUNCHER_FD + 1);

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || null_fd < 0 || out_fd < 0 ||
		    self_fd < 0 || dup2(self_fd, SANDBOX_LAUNCHER_FD) < 0 ||
		    dup2(null_fd, SANDBOX_STDIN_FD) < 0 || dup2(out_fd, SANDBOX_STDOUT_FD) < 0)
			_exit(99);
		execv(argv[0], argv);
		_exit(98);
	}
	close(pipefd[1]);
	close(launcher);
	while (got + 1 < sizeof out && (n = read(pipefd[0], out + got, sizeof out - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, status, 0), pid);
	return out;
}

/* The line of who in out, checked against the view. */
static void check_view(const char *out, const char *who)
{
	char want[256];
	const char *line;
	long uptime = -1;

	snprintf(want, sizeof want, "%s total", who);
	line = strstr(out, want);
	if (!line)
		fail_msg("no sysinfo from the %s in: %s", who, out);
	snprintf(want, sizeof want, "%s total %lu free %lu shared 0 buffer 0 swap 0 procs 1 "
		 "loads 0 0 0 unit 1 uptime ", who, SYSINFO_VIEW_RAM, SYSINFO_VIEW_RAM / 2);
	if (strncmp(line, want, strlen(want)) != 0)
		fail_msg("sysinfo from the %s: %.*s\n  wanted: %s...", who,
			 (int)strcspn(line, "\n"), line, want);
	uptime = strtol(line + strlen(want), NULL, 10);
	/* seconds since the launcher started: this test's own time, well below an hour */
	assert_true(uptime >= 0 && uptime < 3600);
}

static void view_everywhere(void **state)
{
	int status;
	const char *out = run_launched("all", &status);
	long pages = -1, avpages = -1, pagesize = -1;
	char want[64];
	const char *p;

	(void)state;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	check_view(out, "main");
	check_view(out, "thread");
	check_view(out, "child");
	p = strstr(out, "pages ");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "pages %ld avpages %ld pagesize %ld", &pages, &avpages,
				&pagesize), 3);
	assert_int_equal(pages * pagesize, (long)SYSINFO_VIEW_RAM);
	assert_int_equal(avpages * pagesize, (long)(SYSINFO_VIEW_RAM / 2));
	snprintf(want, sizeof want, "many %d\n", THREADS * CALLS);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof want, "null %d\n", EFAULT);
	assert_non_null(strstr(out, want));
}

static void launcher_gone(void **state)
{
	int status;
	char want[32];
	const char *out = run_launched("orphan", &status);

	(void)state;
	/* killed by the bot, the launcher says nothing more; the bot is not held */
	assert_true(WIFSIGNALED(status));
	snprintf(want, sizeof want, "orphan error %d\n", ENOSYS);
	assert_string_equal(out, want);
}

/* Whether this machine can run the launcher with its listener: a reason if not. */
static const char *unsupported(void)
{
	int fd = launcher_open();

	if (fd < 0)
		return "no launcher on this machine (launcher.h)";
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(view_everywhere),
		cmocka_unit_test(launcher_gone),
	};
	const char *why;
	ssize_t n;

	if (argc == 3 && strcmp(argv[1], "probe") == 0)
		return probe(argv[2]);
	if ((why = unsupported())) {
		printf("skipped: %s\n", why);
		return 77;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
