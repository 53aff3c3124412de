/*
 * check_driver.c - `check_driver [options] BOT...`: runs cmd_check() as a
 * program, as `skipbo-arena check` does, so that the tests of the command
 * exercise it whatever else the command table holds.
 */
#include <signal.h>

#include "commands.h"

int main(int argc, char **argv)
{
	/* bot.h: a dead bot must be an error code, not a SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	argv[0] = "check";
	return cmd_check(argc, argv);
}
