/*
 * journal.c - append-only JSON lines, durable (contract in journal.h).
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct journal {
	int fd;
	off_t end; /* where this journal's last line ended; -1: unknown */
};

/* The directory of path durable: a file created in it stays there after a power cut. */
static int sync_parent(const char *path)
{
	char copy[PATH_MAX];
	int fd, ret = 0;

	if (snprintf(copy, sizeof copy, "%s", path) >= (int)sizeof copy)
		return -ENAMETOOLONG;
	if ((fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -errno;
	close(fd);
	return ret;
}

/* Cut what follows the last newline of fd (a torn line); *end: the size kept. */
static int cut_torn_tail(int fd, off_t *end)
{
	char buf[4096];
	off_t size = lseek(fd, 0, SEEK_END), at = size;

	if (size < 0)
		return -errno;
	while (at > 0) {
		size_t want = at < (off_t)sizeof buf ? (size_t)at : sizeof buf;
		ssize_t got = pread(fd, buf, want, at - (off_t)want);

		if (got != (ssize_t)want)
			return got < 0 ? -errno : -EIO;
		for (size_t k = want; k-- > 0;) {
			if (buf[k] == '\n') {
				*end = at - (off_t)want + (off_t)k + 1;
				return *end == size || ftruncate(fd, *end) == 0 ? 0 : -errno;
			}
		}
		at -= (off_t)want;
	}
	*end = 0;
	return size == 0 || ftruncate(fd, 0) == 0 ? 0 : -errno;
}

int journal_open(const char *path, struct journal **out)
{
	return journal_open_mode(path, 0644, out);
}

int journal_open_mode(const char *path, mode_t mode, struct journal **out)
{
	struct journal *j = calloc(1, sizeof *j);
	bool created = false;
	int ret;

	*out = NULL;
	if (!j)
		return -ENOMEM;
	j->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (j->fd >= 0)
		created = true;
	else if (errno == EEXIST)
		j->fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (j->fd < 0) {
		ret = -errno;
		free(j);
		return ret;
	}
	if ((ret = flock(j->fd, LOCK_EX) < 0 ? -errno : 0) == 0) {
		ret = cut_torn_tail(j->fd, &j->end);
		flock(j->fd, LOCK_UN);
	}
	if (ret == 0 && created)
		ret = sync_parent(path);
	if (ret < 0) {
		journal_close(j);
		return ret;
	}
	*out = j;
	return 0;
}

/* Write all of buf at the end of fd (O_APPEND). */
static int write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

int journal_append(struct journal *j, const char *line, size_t len, bool sync)
{
	char *buf = malloc(len + 1);
	struct stat st;
	off_t start;
	int ret;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, line, len);
	buf[len] = '\n';
	if (flock(j->fd, LOCK_EX) < 0) {
		ret = -errno;
		goto out;
	}
	/* another process appended since (or cut): its tail checked again, under the lock */
	ret = fstat(j->fd, &st) < 0 ? -errno : 0;
	if (ret == 0 && st.st_size != j->end)
		ret = cut_torn_tail(j->fd, &j->end);
	if (ret == 0) {
		start = j->end;
		ret = write_all(j->fd, buf, len + 1);
		if (ret == 0 && sync && fsync(j->fd) < 0 && errno != EINVAL)
			ret = -errno;
		if (ret == 0)
			j->end = start + (off_t)len + 1;
		else /* nothing of a line the disk could not take stays (journal.h) */
			j->end = ftruncate(j->fd, start) == 0 ? start : -1;
	}
	flock(j->fd, LOCK_UN);
out:
	free(buf);
	return ret;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	close(j->fd);
	free(j);
}

int journal_append_once(const char *path, const char *line, size_t len)
{
	return journal_append_once_mode(path, 0644, line, len);
}

int journal_append_once_mode(const char *path, mode_t mode, const char *line, size_t len)
{
	struct journal *j;
	int ret = journal_open_mode(path, mode, &j);

	if (ret < 0)
		return ret;
	ret = journal_append(j, line, len, true);
	journal_close(j);
	return ret;
}

int journal_replace(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return -ENAMETOOLONG;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		return -errno;
	ret = write_all(fd, text, len);
	if (ret == 0 && fsync(fd) < 0 && errno != EINVAL)
		ret = -errno;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, path) < 0)
		ret = -errno;
	if (ret < 0) {
		unlink(tmp);
		return ret;
	}
	return sync_parent(path);
}
