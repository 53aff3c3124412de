/*
 * attack_write_outside - leave files behind outside its scratch space: in
 * its working directory, the output directory, anywhere the test names.
 * attack_write_outside TOKEN PATH... (files to create). /tmp, its scratch,
 * is tried too and must work.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	char scratch[256];
	int made = 0, fd, last_err = 0;

	snprintf(scratch, sizeof scratch, "/tmp/%s", attack_token);
	fd = open(scratch, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	for (int i = 2; i < argc; i++) {
		if ((fd = open(argv[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) >= 0) {
			close(fd);
			attack_report("write-outside", true, "created %s", argv[i]);
			made++;
		} else {
			last_err = errno;
		}
	}
	if (!made)
		attack_report("write-outside", false, "%d path(s), none writable (%s); /tmp %s",
			      argc - 2, strerror(last_err), access(scratch, F_OK) == 0 ?
			      "writable" : "NOT writable");
}
