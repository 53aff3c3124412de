/*
 * cache_drop.c - the kernel's caches dropped between rotation phases
 * (contract in cache_drop.h).
 */
#include "cache_drop.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define DROP_CACHES "/proc/sys/vm/drop_caches"

bool cache_drop_available(void)
{
	return access(DROP_CACHES, W_OK) == 0;
}

static int drop(const char *what)
{
	int fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, what, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

int cache_drop(void)
{
	/* 3: the page cache (1) and the reclaimable slab, dentries and inodes (2) */
	return drop("3");
}

int cache_drop_names(void)
{
	return drop("2");
}
