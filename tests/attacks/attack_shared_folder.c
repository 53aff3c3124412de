/*
 * attack_shared_folder - read the other programs in the folder the bot's
 * own program lies in, where an organiser put every entrant.
 * attack_shared_folder TOKEN
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	char self[PATH_MAX], *slash;
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	long bytes = 0, files = 0;
	DIR *d;
	struct dirent *e;

	(void)argc;
	(void)argv;
	if (len <= 0 || !(slash = strrchr((self[len] = '\0', self), '/'))) {
		attack_report("shared-folder", false, "cannot find its own program");
		return;
	}
	*slash = '\0';
	d = opendir(self[0] ? self : "/");
	while (d && (e = readdir(d))) {
		char path[PATH_MAX + 256], buf[4096];
		int fd;
		ssize_t n;

		if (e->d_name[0] == '.' || strcmp(e->d_name, slash + 1) == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", self, e->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		if ((n = read(fd, buf, sizeof buf)) > 0) {
			bytes += n;
			files++;
		}
		close(fd);
	}
	if (d)
		closedir(d);
	if (bytes)
		attack_report("shared-folder", true, "read %ld bytes of %ld other program(s) in %s",
			      bytes, files, self);
	else
		attack_report("shared-folder", false, "no other program readable in %s", self);
}
