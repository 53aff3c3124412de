/*
 * attack_zombies - a zombie farm: many double forks whose grandchildren exit
 * at once, orphaned to whoever reaps for the bot (the arena, unsandboxed),
 * and children never reaped. Whether they pile up is for the test to see.
 */
#include <unistd.h>

#include "attack.h"

#define ORPHANS 300

void attack_main(int argc, char **argv)
{
	int made = 0;

	(void)argc;
	(void)argv;
	for (int i = 0; i < ORPHANS; i++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			if (fork() == 0)
				_exit(0);
			_exit(0);
		}
		made++;
	}
	attack_report("zombies", false, "%d double forks left for someone else to reap", made);
}
