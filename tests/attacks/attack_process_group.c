/*
 * attack_process_group - join the arena's process group, to be signalled
 * with it and to signal it (kill(0, ...) then reaches the arena).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	pid_t arena = attack_find_arena(), group;

	(void)argc;
	(void)argv;
	if (!arena) {
		attack_report("process-group", false, "no skipbo-arena process in /proc");
		return;
	}
	group = getpgid(arena);
	if (group > 0 && setpgid(0, group) == 0)
		attack_report("process-group", true, "joined group %d of the arena %d", (int)group,
			      (int)arena);
	else
		attack_report("process-group", false, "group of %d: %s", (int)arena, strerror(errno));
}
