/*
 * attack_zombies - a zombie farm: many double forks whose grandchildren
 * leave the bot's process group and session (setsid) and exit at once,
 * orphaned to whoever reaps for the bot (the arena, unsandboxed), and
 * children never reaped. Then 4 s of waiting (within the test's move limit),
 * so that zombies nobody reaps are there for the test to see, longer than a
 * loaded machine delays the arena's reaping.
 */
#include <unistd.h>

#include "attack.h"

#define ORPHANS 300
#define LINGER_MS 4000

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
			if (fork() == 0) {
				setsid();
				_exit(0);
			}
			_exit(0);
		}
		made++;
	}
	attack_report("zombies", false, "%d double forks left for someone else to reap", made);
	attack_sleep_ms(LINGER_MS);
}
