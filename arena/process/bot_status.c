/*
 * bot_status.c - what state a bot process is in: its pid, whether it has
 * exited and how, its CPU time (contract in bot.h). A leaf of the process
 * room below line I/O (bot_io.c) and starting and stopping (bot_spawn.c),
 * which both ask it.
 */
#include "bot_internal.h"
#include "sandbox_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pid_t bot_pid(const struct bot *b)
{
	return b->pid;
}

/* The first child of process pid (what it orphans comes later in the list), or -1. */
static long first_child(long pid)
{
	char path[64], buf[64];
	ssize_t n;
	long child;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", pid, pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	child = strtol(buf, NULL, 10);
	return child > 0 && isdigit((unsigned char)buf[0]) ? child : -1;
}

void bot_find_cpu_clock(struct bot *b)
{
	long child;

	if (b->init_pid <= 0 || b->exited)
		return;
	/* The init's first child is the bot (a game of a host, or /bin/sh's exec); in a
	 * sandbox of its own the launcher, which stays, and the bot is its child
	 * (launcher.h). */
	child = first_child(b->init_pid);
	if (child > 0 && !b->host && b->sandbox && b->sandbox->launcher_fd >= 0)
		child = first_child(child);
	if (child > 0)
		b->have_cpu_clock = clock_getcpuclockid((pid_t)child, &b->cpu_clock) == 0;
}

/* A game of a host: its pid 1 sends the bot's wait status, or the socket closes. */
static bool game_peek_exited(struct bot *b)
{
	char msg[8];
	ssize_t n = recv(b->game_fd, msg, sizeof msg, MSG_DONTWAIT);
	int status;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return false;
	b->exited = true;
	if (n == 5 && msg[0] == 'S') {
		memcpy(&status, msg + 1, sizeof status);
		b->status = status;
	} else {
		b->status = W_EXITCODE(0, SIGKILL); /* the game was ended */
	}
	return true;
}

/*
 * Peek with WNOWAIT: the zombie stays until bot_stop, so its pid - which is
 * the process group id - cannot be reused by another process before the
 * group is killed.
 */
bool bot_peek_exited(struct bot *b)
{
	siginfo_t si;

	if (b->exited)
		return true;
	if (b->game_fd >= 0)
		return game_peek_exited(b);
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)b->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == 0)
		return false;
	b->exited = true;
	if (si.si_code == CLD_EXITED && b->sandbox && si.si_status > 128 &&
	    si.si_status < 128 + NSIG)
		b->status = W_EXITCODE(0, si.si_status - 128); /* bwrap's report of a signal */
	else if (si.si_code == CLD_EXITED)
		b->status = W_EXITCODE(si.si_status & 0xff, 0);
	else
		b->status = W_EXITCODE(0, si.si_status) | (si.si_code == CLD_DUMPED ? WCOREFLAG : 0);
	return true;
}

int bot_exited(struct bot *b, int *status)
{
	if (!bot_peek_exited(b))
		return 0;
	if (status)
		*status = b->status;
	return 1;
}

int64_t bot_cpu_us(const struct bot *b)
{
	struct timespec ts;

	/* A sandboxed bot's clock is found once it runs; b is not const underneath. */
	if (!b->have_cpu_clock && b->sandbox)
		bot_find_cpu_clock((struct bot *)b);
	if (!b->have_cpu_clock || clock_gettime(b->cpu_clock, &ts) < 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

const char *bot_exit_hint(struct bot *b)
{
	int status;

	if (!b->sandbox || !bot_exited(b, &status) || !WIFEXITED(status))
		return "";
	/* sealed with a derived copy, any exit at the start may be a file it lacks */
	if (b->sandbox->derived && WEXITSTATUS(status) != 0)
		return " (it ran sealed, where a bot sees of the system only the files its "
		       "program needs, derived from its command: name what else it needs in the "
		       "tournament's \"system\", arena/TOURNAMENT.md)";
	if (WEXITSTATUS(status) != 126 && WEXITSTATUS(status) != 127)
		return "";
	return " (it ran in the sandbox, which shows a bot only /usr, /etc, /bin, /lib, its "
	       "own program and the files its arguments name: SECURITY.md)";
}
