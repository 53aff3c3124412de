/*
 * attack_shared_state - the kernel objects two sandboxes share through a
 * file both see, which one process sets and another reads: a channel
 * between a bot's processes alive at once (attack_twin_locks uses the
 * first). It tries each on its own program and reports those that worked:
 * a POSIX, open-file or flock lock that another process sees, a notice of
 * another process reading (inotify, dnotify), evicting the file's pages
 * (MADV_PAGEOUT, which the kernel allows on a file one owns: a bot's own
 * program, as an ordinary user's arena runs it), and asking whether a page
 * is cached without the time a read takes (RWF_NOWAIT, cachestat).
 * attack_shared_state TOKEN
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif

/*
 * Does a lock this process takes on path show to another process? A child
 * opens the file anew and asks (F_GETLK, or a conflicting flock): 1 if it
 * saw the lock, 0 if not.
 */
static int lock_seen(const char *path, int kind)
{
	struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 1L << 40,
			   .l_len = 1 };
	int fd = open(path, O_RDONLY), status = 0;
	pid_t pid;

	if (fd < 0)
		return 0;
	if (kind == 0)
		fcntl(fd, F_SETLK, &l);
	else if (kind == 1)
		fcntl(fd, F_OFD_SETLK, &l);
	else
		flock(fd, LOCK_EX | LOCK_NB);
	pid = fork();
	if (pid == 0) {
		int other = open(path, O_RDONLY);

		l.l_type = F_WRLCK;
		if (kind == 2)
			_exit(flock(other, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK);
		_exit(fcntl(other, kind ? F_OFD_GETLK : F_GETLK, &l) == 0 && l.l_type != F_UNLCK &&
		      l.l_type != F_WRLCK);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(fd);
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 1;
}

static int nowait_read(int fd)
{
	char byte;
	struct iovec iov = { &byte, 1 };

	/* EAGAIN would answer "not cached": an answer too */
	return preadv2(fd, &iov, 1, 0, RWF_NOWAIT) >= 0 || errno == EAGAIN ? 0 : -1;
}

static int cache_stat(int fd)
{
	struct { unsigned long long off, len; } range = { 0, 4096 };
	unsigned long long stat[8];

	return (int)syscall(SYS_cachestat, fd, &range, stat, 0);
}

/*
 * Does MADV_PAGEOUT evict a page of this program? Its last page, which no
 * segment maps, is touched through a mapping of its own, paged out, and
 * asked for with mincore, which tells an owner whether the page is cached
 * (anyone else: whether it is still mapped, which a refused page-out
 * leaves it).
 */
static int paged_out(int fd)
{
	struct stat st;
	unsigned char *m, in = 1;
	off_t at;

	if (fstat(fd, &st) < 0 || st.st_size < 8192)
		return 0;
	/* a program copied just before is dirty, and a dirty page is not paged out */
	fdatasync(fd);
	at = (st.st_size - 1) / 4096 * 4096;
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, at);
	if (m == MAP_FAILED)
		return 0;
	(void)*(volatile unsigned char *)m;
	madvise(m, 4096, MADV_PAGEOUT);
	if (mincore(m, 4096, &in) < 0)
		in = 1;
	munmap(m, 4096);
	return !(in & 1);
}

void attack_main(int argc, char **argv)
{
	int fd = open("/proc/self/exe", O_RDONLY), dir = open("/usr", O_RDONLY | O_DIRECTORY);
	char worked[256] = "";
	int ino;

	(void)argc;
	(void)argv;
	if (lock_seen("/proc/self/exe", 0))
		strcat(worked, " posix-lock");
	if (lock_seen("/proc/self/exe", 1))
		strcat(worked, " ofd-lock");
	if (lock_seen("/proc/self/exe", 2))
		strcat(worked, " flock");
	if ((ino = inotify_init1(IN_CLOEXEC)) >= 0) {
		if (inotify_add_watch(ino, "/proc/self/exe", IN_ACCESS | IN_OPEN) >= 0)
			strcat(worked, " inotify");
		close(ino);
	}
	if (dir >= 0 && fcntl(dir, F_NOTIFY, DN_ACCESS) == 0)
		strcat(worked, " dnotify");
	if (nowait_read(fd) == 0)
		strcat(worked, " nowait-read");
	if (cache_stat(fd) == 0)
		strcat(worked, " cachestat");
	if (paged_out(fd))
		strcat(worked, " pageout");
	if (worked[0])
		attack_report("shared-state", true, "worked on a shared file:%s", worked);
	else
		attack_report("shared-state", false, "locks, notices and page-cache probes refused");
}
