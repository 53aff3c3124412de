/*
 * system_copy.c - the system directories copied to tmpfs for a run
 * (contract in system_copy.h).
 *
 * The same walk runs twice: once to size the copy, so that a copy too large
 * is refused before it fills memory, then to make it. The keeper is forked
 * before the copy starts, so that an arena killed while copying leaves
 * nothing either; it only makes system calls, as a child of a threaded
 * process must.
 */
#include "system_copy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox_view.h"
#include "tether.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/* what a bot could use to gain rights: never copied */
#define MODE_KEPT (07777 & ~(mode_t)(S_ISUID | S_ISGID))

struct system_copy {
	char dir[sizeof SYSTEM_COPY_PARENT "/skipbo-system.XXXXXX"];
	pid_t keeper;
	int sock;
	struct system_copy_stats stats;
};

/* One walk: sizing (dry) or copying. */
struct copy_walk {
	const struct strlist *skip;
	const char *own;  /* the copy itself, never copied into itself; NULL while dry */
	bool dry;
	bool exact;       /* a root that is a link copied as one */
	struct system_copy_stats stats;
	int error;        /* the first, negative errno */
	char failed[PATH_MAX]; /* the path it names */
};

static uint64_t page_round(uint64_t size)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) / page * page;
}

static bool skipped(const struct strlist *skip, const char *path)
{
	for (size_t i = 0; skip && i < skip->n; i++)
		if (sandbox_view_covers(skip->v[i], path))
			return true;
	return false;
}

static void walk_fail(struct copy_walk *w, int err, const char *path)
{
	if (w->error)
		return;
	w->error = -err;
	snprintf(w->failed, sizeof w->failed, "%s", path);
}

/* ---- the keeper ---- */

/* Remove everything below the directory dfd: system calls only. */
static void remove_below(int dfd)
{
	char buf[8192] __attribute__((aligned(8)));
	bool removed;

	/* entries removed while listing may shift the listing: again until nothing goes */
	do {
		long n;

		removed = false;
		lseek(dfd, 0, SEEK_SET);
		while ((n = getdents64(dfd, buf, sizeof buf)) > 0) {
			for (long at = 0; at < n;) {
				struct dirent64 *e = (struct dirent64 *)(buf + at);
				const char *name = e->d_name;
				int sub;

				at += e->d_reclen;
				if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
					continue;
				if (unlinkat(dfd, name, 0) == 0) {
					removed = true;
					continue;
				}
				sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					continue;
				/* a copied mode may forbid its owner to write */
				fchmod(sub, 0700);
				remove_below(sub);
				close(sub);
				if (unlinkat(dfd, name, AT_REMOVEDIR) == 0)
					removed = true;
			}
		}
	} while (removed);
}

/* The child: waits for the socket to close, then removes dir. */
static void keeper_run(int sock, const char *dir)
{
	int fd;

	tether_wait(sock);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		fchmod(fd, 0700);
		remove_below(fd);
		close(fd);
	}
	rmdir(dir);
	_exit(0);
}

static int keeper_start(struct system_copy *c)
{
	pid_t pid = tether_fork("skipbo-copy", &c->sock);

	if (pid < 0)
		return (int)pid;
	if (pid == 0)
		keeper_run(c->sock, c->dir);
	c->keeper = pid;
	return 0;
}

/* ---- the walk ---- */

static void copy_file(struct copy_walk *w, int src, const struct stat *st, int dst_at,
		      const char *name, const char *path)
{
	struct timespec times[2] = { st->st_atim, st->st_mtim };
	off_t left = st->st_size;
	int out;

	if ((out = openat(dst_at, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0) {
		walk_fail(w, errno, path);
		return;
	}
	while (left > 0) {
		ssize_t n = sendfile(out, src, NULL, (size_t)(left < (1 << 30) ? left : 1 << 30));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* a file that shrank: copied as it was */
			if (n < 0)
				walk_fail(w, errno, path);
			break;
		}
		left -= n;
	}
	if (fchmod(out, st->st_mode & MODE_KEPT) < 0 || futimens(out, times) < 0)
		walk_fail(w, errno, path);
	if (close(out) < 0)
		walk_fail(w, errno, path);
}

static void walk(struct copy_walk *w, int at, const char *name, int dst_at,
		 const char *dst_name, const char *path, bool root);

/* The entries of directory fd (path), into dst_at. Takes fd. */
static void walk_dir(struct copy_walk *w, int fd, int dst_at, const char *path)
{
	struct dirent *e;
	DIR *dir = fdopendir(fd);

	if (!dir) {
		close(fd);
		walk_fail(w, ENOMEM, path);
		return;
	}
	while (!w->error && (e = readdir(dir))) {
		char sub[PATH_MAX];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", path, strcmp(path, "/") ? "/" : "",
				     e->d_name) >= sizeof sub)
			continue;
		walk(w, dirfd(dir), e->d_name, dst_at, e->d_name, sub, false);
	}
	closedir(dir);
}

/* name in directory at (path on the host) into dst_at as dst_name. */
static void walk(struct copy_walk *w, int at, const char *name, int dst_at,
		 const char *dst_name, const char *path, bool root)
{
	struct stat st;
	int fd, dst;

	if (w->error || skipped(w->skip, path) ||
	    (w->own && sandbox_view_covers(w->own, path)) ||
	    fstatat(at, name, &st, root && !w->exact ? 0 : AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(at, name, target, sizeof target - 1);

		if (n < 0 || w->dry)
			return;
		target[n] = '\0';
		if (symlinkat(target, dst_at, dst_name) < 0)
			walk_fail(w, errno, path);
		return;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return;
	fd = openat(at, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		    (root && !w->exact ? 0 : O_NOFOLLOW) | (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
	if (fd < 0) {
		w->stats.left_out++;
		return;
	}
	if (S_ISREG(st.st_mode)) {
		w->stats.files++;
		w->stats.bytes += page_round((uint64_t)st.st_size);
		if (!w->dry)
			copy_file(w, fd, &st, dst_at, dst_name, path);
		close(fd);
		return;
	}
	if (w->dry) {
		walk_dir(w, fd, -1, path);
		return;
	}
	/* the owner writes into it while copying; its own mode once full */
	if (mkdirat(dst_at, dst_name, 0700) < 0 ||
	    (dst = openat(dst_at, dst_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		close(fd);
		walk_fail(w, errno, path);
		return;
	}
	walk_dir(w, fd, dst, path);
	if (!w->error) {
		struct timespec times[2] = { st.st_atim, st.st_mtim };

		if (fchmod(dst, st.st_mode & MODE_KEPT) < 0 || futimens(dst, times) < 0)
			walk_fail(w, errno, path);
	}
	close(dst);
}

/*
 * Walk root into the copy at dst (-1 when dry): the directories above it are
 * made (mode 0755, never seen by a bot), then it is copied under its own
 * last name.
 */
static void walk_root(struct copy_walk *w, int dst, const char *root)
{
	char parent[PATH_MAX];
	const char *last = strrchr(root, '/');
	int at = dst;

	if (root[0] != '/' || !last[1] || strlen(root) >= sizeof parent)
		return;
	if (w->dry) {
		walk(w, AT_FDCWD, root, -1, last + 1, root, true);
		return;
	}
	memcpy(parent, root, (size_t)(last - root));
	parent[last - root] = '\0';
	for (char *p = parent[0] ? parent + 1 : parent, *slash; *p && !w->error; p = slash + 1) {
		int next;

		slash = strchr(p, '/');
		if (slash)
			*slash = '\0';
		if ((mkdirat(at, p, 0755) < 0 && errno != EEXIST) ||
		    (next = openat(at, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			walk_fail(w, errno, root);
		else {
			if (at != dst)
				close(at);
			at = next;
		}
		if (!slash)
			break;
		*slash = '/';
	}
	if (!w->error)
		walk(w, AT_FDCWD, root, at, last + 1, root, true);
	if (at != dst)
		close(at);
}

/* Walk every root once, and none under another (a bot's program and its folder). */
static void walk_roots(struct copy_walk *w, int dst, const struct strlist *roots)
{
	for (size_t i = 0; i < roots->n && !w->error; i++) {
		bool again = false;

		for (size_t j = 0; j < roots->n; j++)
			again = again || (j != i && sandbox_view_covers(roots->v[j], roots->v[i]) &&
					  (j < i || strcmp(roots->v[j], roots->v[i]) != 0));
		if (!again)
			walk_root(w, dst, roots->v[i]);
	}
}

static void list_roots(const struct strlist *roots, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < roots->n && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s\"%s\"", i ? ", " : "",
					 roots->v[i]);
}

/* Refuse a copy of bytes that memory or SYSTEM_COPY_PARENT cannot hold: -E2BIG, or 0. */
static int check_room(const struct strlist *roots, uint64_t bytes, char *why, size_t why_size)
{
	uint64_t memory = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	char names[512];
	struct statvfs vfs;

	list_roots(roots, names, sizeof names);
	if (bytes > memory / 2) {
		snprintf(why, why_size, "the system directories the bots see (\"system\": [%s]) "
			 "take %.1f GB, more than half of this machine's %.1f GB of memory, too "
			 "much to copy to memory; name only what the bots need in the tournament's "
			 "\"system\" (arena/TOURNAMENT.md), or run with --sandbox on", names,
			 (double)bytes / 1e9, (double)memory / 1e9);
		return -E2BIG;
	}
	if (statvfs(SYSTEM_COPY_PARENT, &vfs) == 0 &&
	    bytes > (uint64_t)vfs.f_bavail * vfs.f_frsize) {
		snprintf(why, why_size, "the system directories the bots see (\"system\": [%s]) "
			 "take %.1f GB, more than the %.1f GB free in %s; free some there, or name "
			 "only what the bots need in the tournament's \"system\" "
			 "(arena/TOURNAMENT.md)", names, (double)bytes / 1e9,
			 (double)vfs.f_bavail * vfs.f_frsize / 1e9, SYSTEM_COPY_PARENT);
		return -E2BIG;
	}
	return 0;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int system_copy_make(const struct strlist *roots, const struct strlist *skip, bool exact,
		     struct system_copy **out, char *why, size_t why_size)
{
	struct copy_walk w = { .skip = skip, .dry = true, .exact = exact };
	struct system_copy *c;
	struct timespec t0;
	struct statfs fs;
	int ret, dst;

	*out = NULL;
	why[0] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (statfs(SYSTEM_COPY_PARENT, &fs) < 0 || fs.f_type != TMPFS_MAGIC) {
		snprintf(why, why_size, "%s is not a tmpfs, where --sandbox sealed copies the "
			 "system directories; mount one there (mount -t tmpfs tmpfs %s)",
			 SYSTEM_COPY_PARENT, SYSTEM_COPY_PARENT);
		return -ENOTSUP;
	}
	walk_roots(&w, -1, roots);
	if ((ret = check_room(roots, w.stats.bytes, why, why_size)) < 0)
		return ret;
	if (!(c = calloc(1, sizeof *c)))
		return -ENOMEM;
	memcpy(c->dir, SYSTEM_COPY_PARENT "/skipbo-system.XXXXXX", sizeof c->dir);
	c->sock = -1;
	/* as root each sandbox's bwrap runs as the bot's uid, which must reach the copy; the
	 * copy holds nothing another user could not read where it came from */
	if (!mkdtemp(c->dir) || chmod(c->dir, 0711) < 0) {
		ret = -errno;
		snprintf(why, why_size, "cannot make a directory in %s for the system directories' "
			 "copy: %s", SYSTEM_COPY_PARENT, strerror(-ret));
		rmdir(c->dir);
		free(c);
		return ret;
	}
	if ((ret = keeper_start(c)) < 0) {
		snprintf(why, why_size, "cannot start a process to remove the system directories' "
			 "copy: %s", strerror(-ret));
		rmdir(c->dir);
		free(c);
		return ret;
	}
	memset(&w, 0, sizeof w);
	w.skip = skip;
	w.exact = exact;
	w.own = c->dir;
	if ((dst = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		walk_fail(&w, errno, c->dir);
	else {
		walk_roots(&w, dst, roots);
		close(dst);
	}
	if (w.error) {
		snprintf(why, why_size, "cannot copy %s into %s: %s", w.failed, c->dir,
			 strerror(-w.error));
		system_copy_remove(c);
		return w.error;
	}
	c->stats = w.stats;
	c->stats.seconds = since(&t0);
	*out = c;
	return 0;
}

const char *system_copy_dir(const struct system_copy *c)
{
	return c->dir;
}

const struct system_copy_stats *system_copy_stats(const struct system_copy *c)
{
	return &c->stats;
}

void system_copy_remove(struct system_copy *c)
{
	if (!c)
		return;
	close(c->sock);
	while (waitpid(c->keeper, NULL, 0) < 0 && errno == EINTR)
		;
	free(c);
}
