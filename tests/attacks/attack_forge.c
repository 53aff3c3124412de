/*
 * attack_forge - append forged records to games.jsonl: the first record
 * there again, twice, so that a reader counting records would count its
 * game three times. attack_forge TOKEN PATH, PATH the output directory's
 * games.jsonl. A fresh process plays every game, the first ones before any
 * record is written: it waits up to 2 s for one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = -1;
	FILE *f = NULL;
	int fd, err;

	for (int tries = 0; tries < 200 && len <= 0; tries++) {
		if (tries)
			attack_sleep_ms(10);
		if (!(f = argc > 2 ? fopen(argv[2], "re") : NULL)) {
			attack_report("forge", false, "cannot read %s: %s",
				      argc > 2 ? argv[2] : "?", strerror(errno));
			free(line);
			return;
		}
		len = getline(&line, &cap, f);
		fclose(f);
	}
	if (len <= 0 || line[len - 1] != '\n') {
		attack_report("forge", false, "no complete record to copy yet");
		free(line);
		return;
	}
	fd = open(argv[2], O_WRONLY | O_APPEND | O_CLOEXEC);
	err = errno;
	if (fd >= 0 && write(fd, line, (size_t)len) == len && write(fd, line, (size_t)len) == len)
		attack_report("forge", true, "appended two copies of a record to %s", argv[2]);
	else
		attack_report("forge", false, "cannot write %s: %s", argv[2],
			      strerror(fd < 0 ? err : errno));
	if (fd >= 0)
		close(fd);
	free(line);
}
