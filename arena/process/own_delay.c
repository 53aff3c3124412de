/*
 * own_delay.c - counting the arena's stops (contract in own_delay.h).
 */
#include "own_delay.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

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

uint64_t own_delay_stops(void)
{
	return atomic_load_explicit(&continues, memory_order_relaxed);
}
