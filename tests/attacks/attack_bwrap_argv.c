/*
 * attack_bwrap_argv - read the sandbox's own command line (/proc/1/cmdline,
 * bwrap's init), which would name every path the sandbox hides.
 * attack_bwrap_argv TOKEN
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

void attack_main(int argc, char **argv)
{
	static const char *const tells[] = { "--tmpfs", "--ro-bind", "--remount-ro", "--chdir" };
	char cmd[65536];
	int fd = open("/proc/1/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : -1;

	(void)argc;
	(void)argv;
	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i < n; i++)
		if (cmd[i] == '\0')
			cmd[i] = ' ';
	if (n > 0)
		cmd[n] = '\0';
	for (size_t i = 0; n > 0 && i < sizeof tells / sizeof tells[0]; i++) {
		if (strstr(cmd, tells[i])) {
			attack_report("bwrap-argv", true, "/proc/1/cmdline names the mounts (%zd bytes)",
				      n);
			return;
		}
	}
	attack_report("bwrap-argv", false, "/proc/1/cmdline names no mount (%zd bytes)", n);
}
