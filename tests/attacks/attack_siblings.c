/*
 * attack_siblings - read the results of other tournaments on the machine:
 * the <output>.old-K that --fresh leaves, another shard's -o directory and
 * another tournament's tournament.json (its seed), in the tournament file's
 * folder DIR and beside it (DIR-shard2, DIR-other). attack_siblings TOKEN DIR;
 * the paths are found, not named (a path named in a bot's command is its own
 * file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	static const char *const rel[] = { "/out.old-1/games.jsonl", "/shard2/games.jsonl",
					   "/other/tournament.json", "/out.old-1/replays/r.json",
					   "-shard2/games.jsonl", "-other/tournament.json" };
	long bytes = 0;
	int last_err = 0;

	for (size_t i = 0; argc > 2 && i < sizeof rel / sizeof rel[0]; i++) {
		char path[4096], buf[256];
		int fd;
		ssize_t n;

		snprintf(path, sizeof path, "%s%s", argv[2], rel[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
		if (n > 0)
			bytes += n;
		else
			last_err = errno;
		if (fd >= 0)
			close(fd);
	}
	if (bytes)
		attack_report("siblings", true, "read %ld bytes of other tournaments' results", bytes);
	else
		attack_report("siblings", false, "no other tournament's file readable (%s)",
			      strerror(last_err));
}
