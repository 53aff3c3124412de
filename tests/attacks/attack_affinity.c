/*
 * attack_affinity - widen the CPU affinity the arena pinned the bot to, to
 * think on the opponent's CPU too. attack_affinity TOKEN
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t before, all, after;
	int r, err;

	(void)argc;
	(void)argv;
	CPU_ZERO(&all);
	for (long i = 0; i < ncpu && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, &all);
	sched_getaffinity(0, sizeof before, &before);
	r = sched_setaffinity(0, sizeof all, &all);
	err = errno;
	sched_getaffinity(0, sizeof after, &after);
	if (CPU_COUNT(&after) > CPU_COUNT(&before))
		attack_report("affinity", true, "CPUs %d -> %d", CPU_COUNT(&before),
			      CPU_COUNT(&after));
	else
		attack_report("affinity", false, "still %d CPU(s) of %ld (%s)", CPU_COUNT(&after),
			      ncpu, r < 0 ? strerror(err) : "nothing gained");
}
