/*
 * attack_signal - stop an opponent (SIGSTOP: it times out, and again after
 * each resume) and kill the arena (every unfinished game lost), the targets
 * found by name: attack_signal TOKEN NAME, NAME a word of the opponents'
 * command line.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	pid_t pids[64], arena = attack_find_arena();
	size_t n = attack_find(argc > 2 ? argv[2] : "badbot", pids, 64), hit = 0;

	for (size_t i = 0; i < n; i++)
		hit += kill(pids[i], SIGSTOP) == 0;
	if (arena && kill(arena, SIGKILL) == 0)
		hit++;
	if (hit)
		attack_report("signal", true, "signalled %zu of %zu opponent(s) and the arena %d", hit,
			      n, (int)arena);
	else
		attack_report("signal", false, "%zu opponent(s) and %s in /proc%s%s", n,
			      arena ? "the arena" : "no arena", n || arena ? ": " : "",
			      n || arena ? strerror(errno) : "");
}
