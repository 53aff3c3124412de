/*
 * launcher.c - the sandbox's launcher in a memfd (contract in launcher.h).
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U /* Linux 6.3: executable, whatever vm.memfd_noexec says for the default */
#endif

/* The program's bytes (launcher_elf.c, made at build time; empty where it cannot be built). */
extern const char launcher_elf[];
extern const unsigned long launcher_elf_size;

static int fill(int fd)
{
	size_t done = 0;

	while (done < launcher_elf_size) {
		ssize_t w = write(fd, launcher_elf + done, launcher_elf_size - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
}

int launcher_open(void)
{
	char path[64];
	int fd, ro;

	if (!launcher_elf_size)
		return -1;
	fd = memfd_create("skipbo-launcher", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	/* before Linux 6.3 the flag is unknown, and a memfd executable anyway */
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create("skipbo-launcher", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	/*
	 * Read-only from here on: a kernel refuses to execute a file that a
	 * descriptor holds open for writing (ETXTBSY), which the seals alone do
	 * not change.
	 */
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ro = fill(fd) < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	close(fd);
	return ro;
}
