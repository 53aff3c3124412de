/*
 * own_delay.c - the arena's stops and run-queue waits (contract in own_delay.h).
 */
#include "own_delay.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_uint_fast64_t continues;

static void on_sigcont(int sig)
{
	(void)sig;
	atomic_fetch_add_explicit(&continues, 1, memory_order_relaxed);
}

int own_delay_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigcont;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGCONT, &sa, NULL) < 0 ? -errno : 0;
}

void own_delay_open(struct own_delay_clock *c)
{
	c->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

void own_delay_close(struct own_delay_clock *c)
{
	if (c->schedstat_fd >= 0)
		close(c->schedstat_fd);
	c->schedstat_fd = -1;
}

/* schedstat is "time-on-cpu run-delay timeslices", in ns. */
static uint64_t run_delay_ns(const struct own_delay_clock *c)
{
	char buf[96], *end;
	ssize_t n;

	if (c->schedstat_fd < 0)
		return 0;
	n = pread(c->schedstat_fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	strtoull(buf, &end, 10); /* time on a CPU */
	return strtoull(end, NULL, 10);
}

void own_delay_mark(const struct own_delay_clock *c, struct own_delay_mark *m)
{
	m->continues = atomic_load_explicit(&continues, memory_order_relaxed);
	m->run_delay_ns = run_delay_ns(c);
}

int64_t own_delay_since(const struct own_delay_clock *c, const struct own_delay_mark *m,
			int *stopped)
{
	uint64_t now_ns = run_delay_ns(c);

	*stopped = atomic_load_explicit(&continues, memory_order_relaxed) != m->continues;
	return now_ns > m->run_delay_ns ? (int64_t)((now_ns - m->run_delay_ns) / 1000) : 0;
}
