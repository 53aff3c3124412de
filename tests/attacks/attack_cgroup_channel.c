/*
 * attack_cgroup_channel - the counters partners can share without a word:
 * pids.current of the cgroups above the bot (its partner's processes count
 * there too) and the machine's task count in /proc/loadavg. A bot that reads
 * either can learn what its partner signals by forking. attack_cgroup_channel TOKEN
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

/* A number read from path, or -1. */
static long read_number(const char *path)
{
	char buf[128];
	long v = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;

	if (n > 0) {
		buf[n] = '\0';
		if (sscanf(buf, "%ld", &v) != 1)
			v = -1;
	}
	if (fd >= 0)
		close(fd);
	return v;
}

void attack_main(int argc, char **argv)
{
	static const char *const paths[] = {
		"/sys/fs/cgroup/pids.current", "/sys/fs/cgroup/../pids.current",
		"/sys/fs/cgroup/pids/pids.current", "/sys/fs/cgroup/unified/pids.current",
	};
	char load[128] = "";
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, load, sizeof load - 1) : -1;

	(void)argc;
	(void)argv;
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		long v = read_number(paths[i]);

		if (v >= 0) {
			attack_report("cgroup-channel", true, "%s reads %ld", paths[i], v);
			return;
		}
	}
	if (n > 0 && strchr(load, '/')) {
		attack_report("cgroup-channel", true, "/proc/loadavg counts the machine's tasks: %s",
			      load);
		return;
	}
	attack_report("cgroup-channel", false, "no shared process counter readable");
}
