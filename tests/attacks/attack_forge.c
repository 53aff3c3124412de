/*
 * attack_forge - append forged records to games.jsonl: the first record
 * there again, twice, so that a reader counting records would count its
 * game three times. attack_forge TOKEN PATH, PATH the output directory's
 * games.jsonl.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

#define WAIT_MS 5000

/* The first complete record of path into *line: its length, or -1 if there is none yet. */
static ssize_t first_record(const char *path, char **line, size_t *cap)
{
	FILE *f = fopen(path, "re");
	ssize_t len = f ? getline(line, cap, f) : -1;

	if (f)
		fclose(f);
	return len > 0 && (*line)[len - 1] == '\n' ? len : -1;
}

/*
 * When the file is there: in a child, so that the bot plays on meanwhile,
 * wait up to WAIT_MS for a record (the attacker's own first games may be the
 * first ones played), then append two copies of it.
 */
void attack_main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = -1;
	int fd, err;

	if (argc <= 2) {
		attack_report("forge", false, "no path given");
		return;
	}
	if (access(argv[2], R_OK | W_OK) < 0) {
		attack_report("forge", false, "cannot reach %s: %s", argv[2], strerror(errno));
		return;
	}
	if (fork() != 0)
		return;
	for (int waited = 0; waited < WAIT_MS && (len = first_record(argv[2], &line, &cap)) < 0;
	     waited += 20)
		attack_sleep_ms(20);
	if (len < 0) {
		attack_report("forge", false, "no complete record to copy in %s: %s", argv[2],
			      strerror(errno));
		_exit(0);
	}
	fd = open(argv[2], O_WRONLY | O_APPEND | O_CLOEXEC);
	err = errno;
	if (fd >= 0 && write(fd, line, (size_t)len) == len && write(fd, line, (size_t)len) == len)
		attack_report("forge", true, "appended two copies of a record to %s", argv[2]);
	else
		attack_report("forge", false, "cannot write %s: %s", argv[2],
			      strerror(fd < 0 ? err : errno));
	_exit(0);
}
