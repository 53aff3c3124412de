/*
 * tree.c - a submission's tree handled as a whole (contract in tree.h).
 *
 * Each directory is opened relative to its parent's fd with O_NOFOLLOW, so
 * a build that swaps a directory for a link while the walk runs cannot
 * send it outside the tree.
 */
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than unpack's limit of 32 components, and a bound for a build's own trees. */
#define TREE_DEPTH_MAX 256

enum tree_op { TREE_REMOVE, TREE_MEASURE, TREE_CHMOD, TREE_CHOWN };

struct tree_walk {
	enum tree_op op;
	uint64_t bytes;
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

static int walk_dir(int dirfd, struct tree_walk *w, int depth);

/* One entry of the directory dirfd. */
static int walk_entry(int dirfd, const char *name, struct tree_walk *w, int depth)
{
	struct stat st;
	int fd, ret = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	w->bytes += (uint64_t)st.st_blocks * 512;
	if (w->op == TREE_CHOWN && fchownat(dirfd, name, w->uid, w->gid, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return w->op == TREE_REMOVE && unlinkat(dirfd, name, 0) < 0 && errno != ENOENT ?
			-errno : 0;
	if (depth >= TREE_DEPTH_MAX)
		return -ELOOP;
	/* a removal must be able to read and enter a directory a build left 0000 */
	if (w->op == TREE_REMOVE || w->op == TREE_CHMOD)
		fchmodat(dirfd, name, w->op == TREE_CHMOD ? w->mode : 0700, 0);
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	ret = walk_dir(fd, w, depth + 1);
	if (ret == 0 && w->op == TREE_REMOVE && unlinkat(dirfd, name, AT_REMOVEDIR) < 0 &&
	    errno != ENOENT)
		ret = -errno;
	return ret;
}

/* Every entry of the directory fd (closed here). */
static int walk_dir(int fd, struct tree_walk *w, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (ret == 0 && (errno = 0, de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = walk_entry(dirfd(d), de->d_name, w, depth);
	if (ret == 0 && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

/* path itself as an entry of its parent directory. */
static int walk(const char *path, struct tree_walk *w)
{
	return walk_entry(AT_FDCWD, path, w, 0);
}

int tree_remove(const char *path)
{
	struct tree_walk w = { .op = TREE_REMOVE };

	return walk(path, &w);
}

int tree_bytes(const char *path, uint64_t *bytes)
{
	struct tree_walk w = { .op = TREE_MEASURE };
	int ret = walk(path, &w);

	*bytes = w.bytes;
	return ret;
}

int tree_chmod_dirs(const char *path, mode_t dir_mode)
{
	struct tree_walk w = { .op = TREE_CHMOD, .mode = dir_mode };

	return walk(path, &w);
}

int tree_chown(const char *path, uid_t uid, gid_t gid)
{
	struct tree_walk w = { .op = TREE_CHOWN, .uid = uid, .gid = gid };

	return walk(path, &w);
}
