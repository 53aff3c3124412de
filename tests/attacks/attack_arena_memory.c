/*
 * attack_arena_memory - read the arena's memory (the shuffled deck is there)
 * through /proc/<arena>/mem, the arena found as its parent or by name.
 */
#include <string.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	pid_t arena = attack_find_arena();
	long got;

	(void)argc;
	(void)argv;
	if (!arena) {
		attack_report("arena-memory", false, "no skipbo-arena process in /proc");
		return;
	}
	got = attack_read_memory(arena);
	if (got > 0)
		attack_report("arena-memory", true, "read %ld bytes of pid %d", got, (int)arena);
	else
		attack_report("arena-memory", false, "pid %d: %s", (int)arena, strerror((int)-got));
}
