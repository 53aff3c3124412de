/*
 * durable.c - written, fsync'ed, renamed, directory fsync'ed (contract in durable.h).
 */
#include "durable.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* fsync fd; a file system without fsync for it (EINVAL, e.g. a pipe or some FUSE) is not an error. */
static int sync_fd(int fd)
{
	return fsync(fd) < 0 && errno != EINVAL ? -errno : 0;
}

int durable_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = sync_fd(fd);
	close(fd);
	return ret;
}

int durable_sync_parent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return durable_sync_dir(".");
	if (slash == path)
		return durable_sync_dir("/");
	if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return durable_sync_dir(dir);
}

static int write_all(int fd, const char *text, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

int durable_write(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, text, len);
	if (!ret)
		ret = sync_fd(fd);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret < 0) {
		unlink(tmp);
		return ret;
	}
	return durable_sync_parent(path);
}

int durable_write_unsynced(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, text, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int durable_sync_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = sync_fd(fd);
	close(fd);
	return ret;
}
