/*
 * attack_daemon - a daemon that outlives its game: setsid() and a double
 * fork, then sleeping with the token in its command line. It tells nothing
 * itself: the test looks for it once the tournament is over.
 */
#include <unistd.h>

#include "attack.h"

#define DAEMON_LIFE_S 120 /* a broken test run does not litter the machine for long */

void attack_main(int argc, char **argv)
{
	pid_t pid;

	(void)argc;
	(void)argv;
	if ((pid = fork()) == 0) {
		setsid();
		if (fork() == 0) {
			close(0);
			close(1);
			for (int i = 0; i < DAEMON_LIFE_S; i++)
				attack_sleep_ms(1000);
		}
		_exit(0);
	}
	attack_report("daemon", false, "started a daemon (intermediate %d); the test looks for it",
		      (int)pid);
}
