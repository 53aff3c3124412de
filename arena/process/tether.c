/*
 * tether.c - a child that lives as long as a socket to the arena (contract
 * in tether.h).
 */
#include "tether.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

pid_t tether_fork(const char *name, int *sock)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	if ((pid = fork()) < 0) {
		int e = errno;

		close(sv[0]);
		close(sv[1]);
		return -e;
	}
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_NAME, name);
		close_range(3, (unsigned)sv[1] - 1, 0);
		close_range((unsigned)sv[1] + 1, ~0u, 0);
		*sock = sv[1];
		return 0;
	}
	close(sv[1]);
	*sock = sv[0];
	return pid;
}

void tether_wait(int sock)
{
	char c;

	for (;;) {
		ssize_t r = read(sock, &c, 1);

		if (r == 0 || (r < 0 && errno != EINTR))
			return;
	}
}
