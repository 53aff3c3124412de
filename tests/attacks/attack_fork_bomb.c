/*
 * attack_fork_bomb - fork sleeping children until fork fails, to starve the
 * machine of processes. attack_fork_bomb TOKEN LIMIT: it succeeds if its
 * process tree grew past LIMIT (the bot's limits.processes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

#define MAX_FORKS 1000
#define CHILD_LIFE_S 60

void attack_main(int argc, char **argv)
{
	long limit = argc > 2 ? atol(argv[2]) : 0;
	int made = 0, err = 0;

	while (made < MAX_FORKS) {
		pid_t pid = fork();

		if (pid < 0) {
			err = errno;
			break;
		}
		if (pid == 0) {
			attack_sleep_ms(CHILD_LIFE_S * 1000L);
			_exit(0);
		}
		made++;
	}
	attack_report("fork-bomb", made + 1 > limit, "%d children, then %s (limit %ld)", made,
		      err ? strerror(err) : "stopped", limit);
}
