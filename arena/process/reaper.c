/*
 * reaper.c - reaping and killing what bots leave behind (contract in reaper.h).
 *
 * The arena's children are listed from /proc/self/task/<tid>/children (a
 * child belongs to the thread that forked it, an orphan to whichever thread
 * the kernel picked), or, on kernels built without that file, by reading
 * the parent pid of every process in /proc. Listing, reaping and killing
 * happen under the same lock as bot_start()'s fork and registration, so a
 * process that has just been forked is never mistaken for an orphan.
 */
#include "reaper.h"
#include "proc_tree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t *live;             /* bot processes between bot_start and bot_stop */
static size_t nlive, live_cap;
static bool started;

void reaper_hold(void)
{
	pthread_mutex_lock(&lock);
}

void reaper_release(void)
{
	pthread_mutex_unlock(&lock);
}

int reaper_track(pid_t pid)
{
	if (nlive == live_cap) {
		size_t cap = live_cap ? live_cap * 2 : 16;
		pid_t *grown = reallocarray(live, cap, sizeof *grown);

		if (!grown)
			return -ENOMEM;
		live = grown;
		live_cap = cap;
	}
	live[nlive++] = pid;
	return 0;
}

void reaper_forget(pid_t pid)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nlive; i++) {
		if (live[i] == pid) {
			live[i] = live[--nlive];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

static bool is_live(pid_t pid)
{
	for (size_t i = 0; i < nlive; i++)
		if (live[i] == pid)
			return true;
	return false;
}

/* ---- listing the arena's children ---- */

/* Read a small /proc file whole into buf (NUL-terminated). Bytes read, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -1;
	while (got + 1 < size) {
		ssize_t n = read(fd, buf + got, size - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

/* Children from /proc/self/task/<tid>/children: 0, -ENOENT without that file, -ENOMEM. */
static int children_by_task(struct pid_list *p)
{
	char path[64], buf[8192];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (access("/proc/thread-self/children", R_OK) < 0 || !(d = opendir("/proc/self/task")))
		return -ENOENT;
	while (ret == 0 && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%.20s/children", e->d_name);
		/* A thread that ended between readdir and open has no children to list. */
		if (read_small(path, buf, sizeof buf) >= 0)
			ret = pid_list_add_numbers(p, buf);
	}
	closedir(d);
	return ret;
}

/* Children found by the parent pid in /proc/<pid>/stat of every process. */
static int children_by_scan(struct pid_list *p)
{
	pid_t self = getpid();
	char path[64], buf[1024];
	struct dirent *e;
	DIR *d = opendir("/proc");
	int ret = 0;

	if (!d)
		return -errno;
	while (ret == 0 && (e = readdir(d))) {
		const char *close_paren;
		char state;
		int ppid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
		if (read_small(path, buf, sizeof buf) < 0)
			continue;
		/* The command name in parentheses may hold anything: skip past its last ')'. */
		close_paren = strrchr(buf, ')');
		if (close_paren && sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2 &&
		    ppid == self)
			ret = pid_list_add(p, (pid_t)atoi(e->d_name));
	}
	closedir(d);
	return ret;
}

static int list_children(struct pid_list *p)
{
	int ret = children_by_task(p);

	return ret == -ENOENT ? children_by_scan(p) : ret;
}

/* ---- reaping ---- */

/*
 * With the lock held: reap every child that has exited and is not a live
 * bot. The kernel names one exited child at a time (waitid with WNOWAIT): an
 * orphan is reaped at once; only when a bot's own zombie is in the way (the
 * bot exited and bot_stop() has not come yet) are the children listed.
 */
static void reap_orphans(void)
{
	struct pid_list p = { 0 };

	for (;;) {
		siginfo_t si;

		memset(&si, 0, sizeof si);
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0 || si.si_pid == 0)
			return;
		if (is_live(si.si_pid))
			break;
		while (waitpid(si.si_pid, NULL, WNOHANG | __WALL) < 0 && errno == EINTR)
			;
	}
	if (list_children(&p) == 0)
		for (size_t i = 0; i < p.n; i++)
			if (!is_live(p.v[i]))
				while (waitpid(p.v[i], NULL, WNOHANG | __WALL) < 0 && errno == EINTR)
					;
	free(p.v);
}

static void *reaper_main(void *arg)
{
	struct timespec second = { 1, 0 };
	sigset_t chld;

	(void)arg;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		sigtimedwait(&chld, NULL, &second);
		pthread_mutex_lock(&lock);
		reap_orphans();
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int reaper_start(void)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t chld, all, old;
	int ret;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return -errno;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if ((ret = pthread_sigmask(SIG_BLOCK, &chld, NULL)) != 0)
		return -ret;
	/* the thread takes no signal but its SIGCHLD (through sigtimedwait): a SIGTERM
	 * the program waits for with sigwait in another thread would otherwise be
	 * delivered here, to its default action, and kill the program */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ret = pthread_create(&thread, &attr, reaper_main, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0)
		return -ret;
	started = true;
	return 0;
}

void reaper_kill_orphans(int timeout_ms)
{
	struct timespec pause = { 0, 1000000 };
	struct timespec start, now;

	if (!started)
		return;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pid_list p = { 0 };
		size_t left = 0;
		int64_t elapsed_ms;

		pthread_mutex_lock(&lock);
		if (list_children(&p) == 0) {
			for (size_t i = 0; i < p.n; i++) {
				if (is_live(p.v[i]))
					continue;
				/* A zombie is reaped here; anything alive is killed now, reaped next round. */
				if (waitpid(p.v[i], NULL, WNOHANG | __WALL) == p.v[i])
					continue;
				kill(p.v[i], SIGKILL);
				left++;
			}
		}
		pthread_mutex_unlock(&lock);
		free(p.v);
		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed_ms = (int64_t)(now.tv_sec - start.tv_sec) * 1000 +
			     (now.tv_nsec - start.tv_nsec) / 1000000;
		if (left == 0 || elapsed_ms >= timeout_ms)
			return;
		nanosleep(&pause, NULL);
	}
}
