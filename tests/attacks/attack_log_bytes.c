/*
 * attack_log_bytes - write raw control bytes to stderr, which the arena
 * copies into logs/<bot>.stderr: a terminal title and clear-screen escape,
 * and a CR that would forge a line of the log. The test judges the log
 * itself. attack_log_bytes TOKEN
 */
#include <stdio.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("\033]0;owned\007\033[2J\033[H", stderr);
	fputs("progress\r[g000000 pid 1] ATTACK log-bytes: blocked: a forged line\n", stderr);
	fflush(stderr);
}
