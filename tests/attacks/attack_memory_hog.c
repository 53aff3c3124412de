/*
 * attack_memory_hog - take more memory than the bot may, split among
 * children that each stay under a per-process limit (RLIMIT_AS), so only a
 * limit on the whole process tree can stop it. attack_memory_hog TOKEN MB:
 * it succeeds if the tree held more than MB MiB at once.
 */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

#define CHILDREN 4
#define WAIT_MS 3000

/* Touch mb MiB, say so with one byte, then hold it. */
static void hog(int fd, long mb)
{
	for (long i = 0; i < mb; i++) {
		char *p = malloc(1 << 20);

		if (!p)
			_exit(1);
		memset(p, 1, 1 << 20);
	}
	if (write(fd, "d", 1) < 0)
		_exit(1);
	close(fd);
	attack_sleep_ms(WAIT_MS * 2);
	_exit(0);
}

void attack_main(int argc, char **argv)
{
	long limit = argc > 2 ? atol(argv[2]) : 64, share = limit * 3 / 4;
	pid_t kids[CHILDREN];
	int fds[2], done = 0, holding = 0;

	if (pipe(fds) < 0) {
		attack_report("memory-hog", false, "no pipe");
		return;
	}
	for (int i = 0; i < CHILDREN; i++)
		if ((kids[i] = fork()) == 0) {
			close(fds[0]);
			hog(fds[1], share);
		}
	close(fds[1]);
	/* Wait until every child has its share, or time is up. */
	while (done < CHILDREN) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		char buf[CHILDREN];
		ssize_t n;

		if (poll(&pfd, 1, WAIT_MS) <= 0 || (n = read(fds[0], buf, sizeof buf)) <= 0)
			break;
		done += (int)n;
	}
	close(fds[0]);
	/* What counts is what is held at once: a child killed for memory holds nothing. */
	for (int i = 0; i < CHILDREN; i++) {
		if (kids[i] > 0 && waitpid(kids[i], NULL, WNOHANG) == 0)
			holding++;
		if (kids[i] > 0)
			kill(kids[i], SIGKILL);
	}
	holding = holding < done ? holding : done;
	attack_report("memory-hog", holding * share > limit,
		      "%d of %d children got their %ld MiB, %d still hold it (limit %ld MiB)", done,
		      CHILDREN, share, holding, limit);
}
