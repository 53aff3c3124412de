/*
 * cmd_driver.c - `rating_cmd_driver report|sprt ARGS...`: runs cmd_report()
 * or cmd_sprt() as a program, for script tests that need the commands exactly
 * as skipbo-arena runs them.
 */
#include <signal.h>
#include <string.h>

#include "commands.h"

int main(int argc, char **argv)
{
	/* bot.h: the program ignores SIGPIPE so a dead bot is an error code, not a crash. */
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2 && strcmp(argv[1], "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "sprt") == 0)
		return cmd_sprt(argc - 1, argv + 1);
	return 2;
}
