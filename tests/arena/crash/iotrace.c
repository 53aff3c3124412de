/*
 * iotrace.c - an LD_PRELOAD library for the crash and full-disk tests: it
 * records what the arena asks of the files under one directory, and can make
 * one of those writes fail as a full or broken disk would.
 *
 * Environment (read once, at load; LD_PRELOAD is then dropped so that the
 * bots the arena starts run without it):
 *   SKIPBO_IOTRACE_ROOT   the directory watched (an absolute path without links)
 *   SKIPBO_IOTRACE_LOG    the log, appended: one operation a line (below)
 *   SKIPBO_IOTRACE_FAIL   N: the Nth write (write, pwrite, a stream's flush)
 *                         under the root fails, and so does every later one
 *                         while SKIPBO_IOTRACE_STICKY is set (a disk that
 *                         stays full)
 *   SKIPBO_IOTRACE_ERRNO  ENOSPC (the default) or EIO
 *
 * Log lines, in the order the kernel saw them (one lock around each
 * operation and its line, across the threads of a process):
 *   open INO FLAGS PATH    a file opened for writing; FLAGS in hex (O_CREAT, O_TRUNC)
 *   write INO OFFSET HEX   bytes written at OFFSET
 *   trunc INO LENGTH       ftruncate
 *   fsync INO              fsync or fdatasync of a file
 *   dsync PATH             fsync of a directory
 *   rename FROM TO, unlink PATH, link FROM TO, mkdir PATH
 *   fault PATH ERRNO       a write made to fail
 * Files are told apart by inode number, so a write through a descriptor
 * lands in the right file after a rename. Writes through stdio streams are
 * seen because fopen and fdopen of a watched file give a stream whose
 * writes come through write() here (fopencookie).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FDS 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char root[PATH_MAX];
static size_t root_len;
static int log_fd = -1;
static long fail_at, writes_seen;
static int fail_errno = ENOSPC, sticky;
static unsigned char watched[MAX_FDS]; /* 1: a file, 2: a directory */
static ino_t inode_of[MAX_FDS];

#define REAL(ret, name, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	if (!real_##name) \
		real_##name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

__attribute__((constructor)) static void iotrace_init(void)
{
	const char *r = getenv("SKIPBO_IOTRACE_ROOT"), *l = getenv("SKIPBO_IOTRACE_LOG");
	const char *f = getenv("SKIPBO_IOTRACE_FAIL"), *e = getenv("SKIPBO_IOTRACE_ERRNO");

	unsetenv("LD_PRELOAD");
	if (!r || !l || strlen(r) >= sizeof(root))
		return;
	strcpy(root, r);
	root_len = strlen(root);
	log_fd = (int)syscall(SYS_open, l, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	fail_at = f ? atol(f) : 0;
	sticky = getenv("SKIPBO_IOTRACE_STICKY") != NULL;
	if (e && strcmp(e, "EIO") == 0)
		fail_errno = EIO;
}

/* A line into the log, with the kernel's write: never through this library. */
static void log_line(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && n < (int)sizeof(buf))
		syscall(SYS_write, log_fd, buf, (size_t)n);
}

static int under_root(const char *abs)
{
	return log_fd >= 0 && strncmp(abs, root, root_len) == 0 &&
	       (abs[root_len] == '/' || abs[root_len] == '\0');
}

/* path made absolute through its directory's real path (the file itself may not exist). */
static int canonical(int dirfd, const char *path, char *out)
{
	char copy[PATH_MAX], copy2[PATH_MAX], dir[PATH_MAX], at[64];
	const char *d, *b;

	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -1;
	strcpy(copy2, copy);
	d = dirname(copy);
	b = basename(copy2);
	if (d[0] != '/' && dirfd != AT_FDCWD) {
		ssize_t n;

		snprintf(at, sizeof(at), "/proc/self/fd/%d", dirfd);
		if ((n = readlink(at, dir, sizeof(dir) - 1)) < 0)
			return -1;
		dir[n] = '\0';
		if (strcmp(d, ".") != 0 &&
		    (strlen(dir) + strlen(d) + 2 > sizeof(dir) || !strcat(dir, "/") || !strcat(dir, d)))
			return -1;
		if (!realpath(dir, copy))
			return -1;
	} else if (!realpath(d, copy)) {
		return -1;
	}
	return snprintf(out, PATH_MAX, "%s/%s", copy, b) >= PATH_MAX ? -1 : 0;
}

static void hex_line(ino_t ino, off_t offset, const void *buf, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *line = malloc(2 * n + 64);
	int len;

	if (!line)
		return;
	len = snprintf(line, 64, "write %lu %lld ", (unsigned long)ino, (long long)offset);
	for (size_t i = 0; i < n; i++) {
		line[len++] = digits[((const unsigned char *)buf)[i] >> 4];
		line[len++] = digits[((const unsigned char *)buf)[i] & 15];
	}
	line[len++] = '\n';
	syscall(SYS_write, log_fd, line, (size_t)len);
	free(line);
}

/* After a successful open of fd: watch it when it is a file for writing or a directory. */
static void note_open(int fd, int dirfd, const char *path, int flags)
{
	char abs[PATH_MAX];
	struct stat st;

	if (fd < 0 || fd >= MAX_FDS || log_fd < 0 || canonical(dirfd, path, abs) < 0 ||
	    !under_root(abs) || fstat(fd, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		watched[fd] = 2;
		return;
	}
	if (!(flags & (O_WRONLY | O_RDWR)))
		return;
	watched[fd] = 1;
	inode_of[fd] = st.st_ino;
	log_line("open %lu %x %s\n", (unsigned long)st.st_ino, (unsigned)flags, abs);
}

static int do_open(int dirfd, const char *path, int flags, mode_t mode)
{
	int fd;

	pthread_mutex_lock(&lock);
	fd = (int)syscall(SYS_openat, dirfd, path, flags, mode);
	if (fd >= 0)
		note_open(fd, dirfd, path, flags);
	pthread_mutex_unlock(&lock);
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_open(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_open(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

int creat(const char *path, mode_t mode)
{
	return do_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

/* 1 when this write must fail (SKIPBO_IOTRACE_FAIL), with the fault logged. */
static int injected(int fd)
{
	char at[64], abs[PATH_MAX];
	ssize_t n;

	if (!fail_at || !(++writes_seen == fail_at || (sticky && writes_seen > fail_at)))
		return 0;
	snprintf(at, sizeof(at), "/proc/self/fd/%d", fd);
	n = readlink(at, abs, sizeof(abs) - 1);
	abs[n < 0 ? 0 : n] = '\0';
	log_line("fault %s %s\n", abs, fail_errno == EIO ? "EIO" : "ENOSPC");
	return 1;
}

static ssize_t do_write(int fd, const void *buf, size_t n, off_t offset, int positioned)
{
	ssize_t got;

	if (fd < 0 || fd >= MAX_FDS || watched[fd] != 1)
		return positioned ? syscall(SYS_pwrite64, fd, buf, n, offset)
				  : syscall(SYS_write, fd, buf, n);
	pthread_mutex_lock(&lock);
	if (injected(fd)) {
		pthread_mutex_unlock(&lock);
		errno = fail_errno;
		return -1;
	}
	got = positioned ? syscall(SYS_pwrite64, fd, buf, n, offset) : syscall(SYS_write, fd, buf, n);
	if (got > 0)
		hex_line(inode_of[fd], positioned ? offset : lseek(fd, 0, SEEK_CUR) - got, buf,
			 (size_t)got);
	pthread_mutex_unlock(&lock);
	return got;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	return do_write(fd, buf, n, 0, 0);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset)
{
	return do_write(fd, buf, n, offset, 1);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t offset) __attribute__((alias("pwrite")));

static int do_sync(int fd, int data_only)
{
	char at[64], abs[PATH_MAX];
	ssize_t n;
	int ret;

	pthread_mutex_lock(&lock);
	ret = (int)syscall(data_only ? SYS_fdatasync : SYS_fsync, fd);
	if (ret == 0 && fd >= 0 && fd < MAX_FDS && watched[fd] == 1)
		log_line("fsync %lu\n", (unsigned long)inode_of[fd]);
	if (ret == 0 && fd >= 0 && fd < MAX_FDS && watched[fd] == 2) {
		snprintf(at, sizeof(at), "/proc/self/fd/%d", fd);
		if ((n = readlink(at, abs, sizeof(abs) - 1)) > 0) {
			abs[n] = '\0';
			log_line("dsync %s\n", abs);
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

int fsync(int fd)
{
	return do_sync(fd, 0);
}

int fdatasync(int fd)
{
	return do_sync(fd, 1);
}

int ftruncate(int fd, off_t length)
{
	int ret;

	pthread_mutex_lock(&lock);
	ret = (int)syscall(SYS_ftruncate, fd, length);
	if (ret == 0 && fd >= 0 && fd < MAX_FDS && watched[fd] == 1)
		log_line("trunc %lu %lld\n", (unsigned long)inode_of[fd], (long long)length);
	pthread_mutex_unlock(&lock);
	return ret;
}

int ftruncate64(int fd, off_t length) __attribute__((alias("ftruncate")));

int close(int fd)
{
	if (fd >= 0 && fd < MAX_FDS)
		watched[fd] = 0;
	return (int)syscall(SYS_close, fd);
}

/* An operation on paths, logged with their canonical forms when the first is watched. */
static int path_op(const char *what, int ret, const char *a, const char *b)
{
	if (ret == 0)
		log_line(b ? "%s %s %s\n" : "%s %s\n", what, a, b);
	return ret;
}

#define PATH_OP2(name, what, call) \
	int name(const char *from, const char *to) \
	{ \
		char fa[PATH_MAX], ta[PATH_MAX]; \
		int ret, ok; \
		pthread_mutex_lock(&lock); \
		ok = canonical(AT_FDCWD, from, fa) == 0 && canonical(AT_FDCWD, to, ta) == 0 && \
		     (under_root(fa) || under_root(ta)); \
		ret = (int)(call); \
		if (ok) \
			path_op(what, ret, fa, ta); \
		pthread_mutex_unlock(&lock); \
		return ret; \
	}

PATH_OP2(rename, "rename", syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 0))
PATH_OP2(link, "link", syscall(SYS_linkat, AT_FDCWD, from, AT_FDCWD, to, 0))

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags)
{
	char fa[PATH_MAX], ta[PATH_MAX];
	int ret, ok;

	pthread_mutex_lock(&lock);
	ok = canonical(fromfd, from, fa) == 0 && canonical(tofd, to, ta) == 0 &&
	     (under_root(fa) || under_root(ta));
	ret = (int)syscall(SYS_renameat2, fromfd, from, tofd, to, flags);
	if (ok)
		path_op("rename", ret, fa, ta);
	pthread_mutex_unlock(&lock);
	return ret;
}

int renameat(int fromfd, const char *from, int tofd, const char *to)
{
	return renameat2(fromfd, from, tofd, to, 0);
}

int unlink(const char *path)
{
	char abs[PATH_MAX];
	int ret, ok;

	pthread_mutex_lock(&lock);
	ok = canonical(AT_FDCWD, path, abs) == 0 && under_root(abs);
	ret = (int)syscall(SYS_unlinkat, AT_FDCWD, path, 0);
	if (ok)
		path_op("unlink", ret, abs, NULL);
	pthread_mutex_unlock(&lock);
	return ret;
}

int mkdir(const char *path, mode_t mode)
{
	char abs[PATH_MAX];
	int ret, ok;

	pthread_mutex_lock(&lock);
	ok = canonical(AT_FDCWD, path, abs) == 0 && under_root(abs);
	ret = (int)syscall(SYS_mkdirat, AT_FDCWD, path, mode);
	if (ok)
		path_op("mkdir", ret, abs, NULL);
	pthread_mutex_unlock(&lock);
	return ret;
}

/* A stream over a watched descriptor: its writes come through write() above. */
static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
	ssize_t got = write((int)(intptr_t)c, buf, n);

	return got < 0 ? 0 : got;
}

static ssize_t cookie_read(void *c, char *buf, size_t n)
{
	return read((int)(intptr_t)c, buf, n);
}

static int cookie_seek(void *c, off64_t *at, int whence)
{
	off_t to = lseek((int)(intptr_t)c, *at, whence);

	if (to < 0)
		return -1;
	*at = to;
	return 0;
}

static int cookie_close(void *c)
{
	return close((int)(intptr_t)c);
}

static FILE *stream_of(int fd, const char *mode)
{
	cookie_io_functions_t io = { cookie_read, cookie_write, cookie_seek, cookie_close };

	return fopencookie((void *)(intptr_t)fd, mode, io);
}

FILE *fdopen(int fd, const char *mode)
{
	REAL(FILE *, fdopen, int, const char *);
	if (fd >= 0 && fd < MAX_FDS && watched[fd] == 1)
		return stream_of(fd, mode);
	return real_fdopen(fd, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	REAL(FILE *, fopen, const char *, const char *);
	int flags, fd;

	if (log_fd < 0 || !strpbrk(mode, "wa+"))
		return real_fopen(path, mode);
	flags = (strchr(mode, '+') ? O_RDWR : O_WRONLY) | O_CLOEXEC |
		(mode[0] == 'w' ? O_CREAT | O_TRUNC : mode[0] == 'a' ? O_CREAT | O_APPEND : 0);
	if ((fd = open(path, flags, 0666)) < 0)
		return NULL;
	if (fd >= MAX_FDS || watched[fd] != 1) {
		syscall(SYS_close, fd);
		return real_fopen(path, mode);
	}
	return stream_of(fd, mode);
}

FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));
