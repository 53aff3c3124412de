/*
 * attack_read_output - read what the arena keeps from the bots: the output
 * directory (records, replays, other bots' logs) and the tournament file
 * (the seed, from which every deal follows). attack_read_output TOKEN PATH...
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	char buf[256];
	int got = 0, last_err = 0;

	for (int i = 2; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;

		if (n > 0) {
			attack_report("read-output", true, "read %zd bytes of %s", n, argv[i]);
			got++;
		} else {
			last_err = n < 0 ? errno : 0;
		}
		if (fd >= 0)
			close(fd);
	}
	if (!got)
		attack_report("read-output", false, "%d path(s), none readable (%s)", argc - 2,
			      last_err ? strerror(last_err) : "empty");
}
