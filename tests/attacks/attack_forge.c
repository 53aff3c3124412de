/*
 * attack_forge - append forged records to games.jsonl: the first record
 * there again, twice, so that a reader counting records would count its
 * game three times. attack_forge TOKEN PATH, PATH the output directory's
 * games.jsonl. A fresh process plays every game, the first ones before any
 * record is written: it waits up to 2 s for one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"


/* The first complete record of path into *line: its length, or -1 if there is none yet. */
static ssize_t first_record(const char *path, char **line, size_t *cap)
{
	FILE *f = fopen(path, "re");
	ssize_t len = f ? getline(line, cap, f) : -1;

	if (f)
		fclose(f);
	return len > 0 && (*line)[len - 1] == '\n' ? len : -1;
}

static const char *target;

/* Append two copies of the first record of target, and say so; false if there is none yet. */
static bool forge(bool last_chance)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = first_record(target, &line, &cap);
	int fd, err;

	if (len < 0) {
		if (last_chance)
			attack_report("forge", false, "no complete record to copy in %s", target);
		free(line);
		return false;
	}
	fd = open(target, O_WRONLY | O_APPEND | O_CLOEXEC);
	err = errno;
	if (fd >= 0 && write(fd, line, (size_t)len) == len && write(fd, line, (size_t)len) == len)
		attack_report("forge", true, "appended two copies of a record to %s", target);
	else
		attack_report("forge", false, "cannot write %s: %s", target,
			      strerror(fd < 0 ? err : errno));
	if (fd >= 0)
		close(fd);
	free(line);
	return true;
}

static void forge_at_exit(void)
{
	forge(true);
}

/*
 * When the file is there: as soon as it holds a record (waiting up to 2 s,
 * on the move clock: the attacker's games may be among the first ones
 * played, all of a rotation phase before any record), else when the bot is
 * told to quit.
 */
void attack_main(int argc, char **argv)
{
	if (argc <= 2) {
		attack_report("forge", false, "no path given");
		return;
	}
	if (access(argv[2], R_OK | W_OK) < 0) {
		attack_report("forge", false, "cannot reach %s: %s", argv[2], strerror(errno));
		return;
	}
	target = argv[2];
	for (int waited_ms = 0; !forge(false); waited_ms += 10) {
		struct timespec pause = { 0, 10 * 1000000 };

		if (waited_ms >= 2000) {
			atexit(forge_at_exit);
			return;
		}
		nanosleep(&pause, NULL);
	}
}
