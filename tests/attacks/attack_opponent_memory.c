/*
 * attack_opponent_memory - read an opponent's memory (its hand, its plans)
 * through /proc/<pid>/mem, the opponents found by name: attack_opponent_memory
 * TOKEN NAME, NAME a word of their command line.
 */
#include <errno.h>
#include <string.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	pid_t pids[64];
	size_t n = attack_find(argc > 2 ? argv[2] : "badbot", pids, 64);
	long got = -ENOENT;

	for (size_t i = 0; i < n; i++) {
		if ((got = attack_read_memory(pids[i])) > 0) {
			attack_report("opponent-memory", true, "read %ld bytes of pid %d", got,
				      (int)pids[i]);
			return;
		}
	}
	attack_report("opponent-memory", false, "%zu opponent process(es) in /proc%s%s", n,
		      n ? ", the last: " : "", n ? strerror((int)-got) : "");
}
