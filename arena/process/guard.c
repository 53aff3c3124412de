/*
 * guard.c - the process that kills what a dead arena left (contract in
 * guard.h).
 *
 * The guard is forked, not executed: it needs no program of its own on
 * disk. The arena may have threads, so between fork and _exit the guard
 * makes only async-signal-safe calls, with its table in static memory.
 * Messages are one pid_t each, a positive group to keep, a negative one to
 * forget; writes of that size to a pipe are atomic, whoever writes them.
 */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reaper.h"

#define GUARD_MAX 65536

struct guard {
	pid_t pid;
	int fd;           /* the arena's end: write only, close-on-exec */
};

static pid_t table[GUARD_MAX];

static void table_add(size_t *n, pid_t pgid)
{
	if (*n < GUARD_MAX)
		table[(*n)++] = pgid;
}

static void table_remove(size_t *n, pid_t pgid)
{
	for (size_t i = 0; i < *n; i++) {
		if (table[i] == pgid) {
			table[i] = table[--*n];
			return;
		}
	}
}

static __attribute__((noreturn)) void guard_run(int fd)
{
	struct sigaction ign;
	size_t n = 0;
	pid_t msg;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGTERM, &ign, NULL);
	sigaction(SIGHUP, &ign, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	setsid();
	for (;;) {
		ssize_t got = read(fd, &msg, sizeof msg);

		if (got < 0 && errno == EINTR)
			continue;
		if (got != (ssize_t)sizeof msg)
			break;
		if (msg > 0)
			table_add(&n, msg);
		else if (msg < 0)
			table_remove(&n, -msg);
	}
	for (size_t i = 0; i < n; i++)
		kill(-table[i], SIGKILL);
	_exit(0);
}

int guard_start(struct guard **out)
{
	struct guard *g = calloc(1, sizeof *g);
	sigset_t all, old;
	int fds[2], r = 0;

	if (!g)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(g);
		return -errno;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* the reaper must not take the guard for an orphan */
	reaper_hold();
	g->pid = fork();
	if (g->pid == 0) {
		close(fds[1]);
		/* below its pipe too: another guard's write end (a league's segment and a
		 * host's builds each have one) kept here would hold that guard, and its
		 * owner's guard_stop(), until this one ends */
		if (fds[0] > 3 && close_range(3, (unsigned)fds[0] - 1, 0) < 0)
			for (int fd = 3; fd < fds[0]; fd++)
				close(fd);
		if (close_range(fds[0] + 1, ~0U, 0) < 0)
			closefrom(fds[0] + 1);
		sigprocmask(SIG_SETMASK, &old, NULL);
		guard_run(fds[0]);
	}
	if (g->pid < 0)
		r = -errno;
	else if (reaper_track(g->pid) < 0)
		r = -ENOMEM;
	reaper_release();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fds[0]);
	g->fd = fds[1];
	if (r < 0) {
		guard_stop(g);
		return r;
	}
	*out = g;
	return 0;
}

/* Async-signal-safe. 0 or -EIO. */
static int send_msg(int fd, pid_t msg)
{
	ssize_t n;

	do
		n = write(fd, &msg, sizeof msg);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof msg ? 0 : -EIO;
}

int guard_register_self(const struct guard *g)
{
	return send_msg(g->fd, getpid());
}

void guard_forget(const struct guard *g, pid_t pgid)
{
	if (g && pgid > 0)
		send_msg(g->fd, -pgid);
}

void guard_stop(struct guard *g)
{
	if (!g)
		return;
	if (g->fd >= 0)
		close(g->fd);
	if (g->pid > 0) {
		while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
			;
		reaper_forget(g->pid);
	}
	free(g);
}
