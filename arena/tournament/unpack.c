/*
 * unpack.c - a submitted archive unpacked safely (contract in unpack.h).
 *
 * Every path is split into its components and walked from the target
 * directory's fd one openat(O_NOFOLLOW) at a time, so no component can be
 * a symbolic link an earlier entry planted, whatever the kernel would make
 * of the whole path. Links are judged by their text: a target may climb
 * with leading ".." no higher than the link's own directory, then only
 * descend. Each link is then resolved from a real directory of the tree
 * and ends inside it, so a chain of links ends inside it too.
 */
#include "unpack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textesc.h"

#define DATA_CHUNK (64 * 1024)
#define NAME_SHOWN 160 /* bytes of an entry's name quoted in a reason */

struct unpacking {
	struct archive *ar;
	int root;                          /* the target directory */
	const struct unpack_limits *lim;
	struct unpack_stats st;
	const char *entry;                 /* the entry's name as the archive gives it */
	char *why;
	size_t why_size;
	char *data;                        /* DATA_CHUNK bytes */
};

/* A reason in why, "entry \"NAME\": ..." when an entry is at fault; code returned. */
static int refuse(struct unpacking *u, int code, const char *fmt, ...)
{
	char shown[NAME_SHOWN * TEXTESC_BYTE_MAX + 1];
	size_t at = 0;
	va_list ap;

	if (u->entry) {
		size_t n = strnlen(u->entry, NAME_SHOWN);

		textesc_escape(shown, u->entry, n, TEXTESC_ASCII);
		at = (size_t)snprintf(u->why, u->why_size, "entry \"%s%s\": ", shown,
				      u->entry[n] ? "..." : "");
		if (at >= u->why_size)
			return code;
	}
	va_start(ap, fmt);
	vsnprintf(u->why + at, u->why_size - at, fmt, ap);
	va_end(ap);
	return code;
}

/* A path's components, "." and empty ones dropped, checked: 0, or a refusal. */
struct components {
	char *copy;    /* the path, its '/' made NULs */
	char **c;
	uint32_t n;
};

static int split_path(struct unpacking *u, const char *path, struct components *cs)
{
	size_t len = strlen(path);

	if (path[0] == '/')
		return refuse(u, -EPERM, "an absolute path: archive the files by relative paths");
	if (len > u->lim->path_bytes)
		return refuse(u, -EFBIG, "a path of %zu bytes, over the limit of %" PRIu32, len,
			      u->lim->path_bytes);
	if (!(cs->copy = strdup(path)) || !(cs->c = calloc(len / 2 + 1, sizeof(*cs->c))))
		return refuse(u, -ENOMEM, "out of memory");
	for (char *save = NULL, *p = strtok_r(cs->copy, "/", &save); p;
	     p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, "..") == 0)
			return refuse(u, -EPERM, "a \"..\" component: every entry must stay in "
				      "the archive's own tree");
		if (strcmp(p, ".") != 0)
			cs->c[cs->n++] = p;
	}
	if (cs->n > u->lim->depth)
		return refuse(u, -EFBIG, "a path %" PRIu32 " deep, over the limit of %" PRIu32
			      " components", cs->n, u->lim->depth);
	return 0;
}

static void components_release(struct components *cs)
{
	free(cs->copy);
	free(cs->c);
}

/* One more entry (or directory made for one) counted against the limit. */
static int count_entry(struct unpacking *u)
{
	if (++u->st.entries > u->lim->entries)
		return refuse(u, -EFBIG, "more than %" PRIu32 " entries (files, directories and "
			      "links), the limit", u->lim->entries);
	return 0;
}

/* The directory at cs->c[0..n) opened (made when missing): its fd, or a refusal. */
static int open_parent(struct unpacking *u, const struct components *cs, uint32_t n)
{
	int dir = u->root, next, ret;

	for (uint32_t i = 0; i < n; i++) {
		if (mkdirat(dir, cs->c[i], 0755) == 0) {
			if ((ret = count_entry(u)) < 0)
				goto fail;
		} else if (errno != EEXIST) {
			ret = refuse(u, -errno, "cannot make directory \"%s\": %s", cs->c[i],
				     strerror(errno));
			goto fail;
		}
		next = openat(dir, cs->c[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			ret = errno == ELOOP || errno == ENOTDIR ?
				refuse(u, -EPERM, "a path through \"%s\", which is a symbolic link "
				       "or a file, not a directory", cs->c[i]) :
				refuse(u, -errno, "cannot open \"%s\": %s", cs->c[i], strerror(errno));
			goto fail;
		}
		if (dir != u->root)
			close(dir);
		dir = next;
	}
	return dir;
fail:
	if (dir != u->root)
		close(dir);
	return ret;
}

/* A link's target judged by its text from depth components down: NULL, or why not. */
static const char *link_fault(const char *target, uint32_t depth)
{
	bool named = false;
	long level = depth;

	if (!*target)
		return "a symbolic link with an empty target";
	if (target[0] == '/')
		return "a symbolic link to an absolute path, outside the tree";
	for (const char *p = target; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (named)
				return "a symbolic link with \"..\" after a name in its target "
				       "(only leading \"..\" are accepted)";
			if (--level < 0)
				return "a symbolic link whose target leaves the tree";
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			named = true;
		}
		p += n + (p[n] == '/');
	}
	return NULL;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The entry's data into fd, counted as it is read, never past a limit. */
static int copy_data(struct unpacking *u, int fd)
{
	uint64_t file = 0;
	la_ssize_t n;
	int ret;

	while ((n = archive_read_data(u->ar, u->data, DATA_CHUNK)) > 0) {
		file += (uint64_t)n;
		if (file > u->lim->file_bytes)
			return refuse(u, -EFBIG, "more than %" PRIu64 " bytes unpacked, the limit "
				      "of a file", u->lim->file_bytes);
		if (u->st.bytes + (uint64_t)n > u->lim->total_bytes)
			return refuse(u, -EFBIG, "more than %" PRIu64 " bytes unpacked in all, the "
				      "limit of an archive", u->lim->total_bytes);
		if ((ret = write_all(fd, u->data, (size_t)n)) < 0)
			return refuse(u, ret, "cannot write: %s", strerror(-ret));
		u->st.bytes += (uint64_t)n;
	}
	if (n < 0)
		return refuse(u, -EINVAL, "cannot read its data (damaged or encrypted): %s",
			      archive_error_string(u->ar));
	return 0;
}

static int make_file(struct unpacking *u, int parent, const char *name, mode_t perm)
{
	int fd = openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int ret;

	if (fd < 0)
		return errno == EEXIST ? refuse(u, -EPERM, "there already: an entry twice, or a "
						"file over a directory or link") :
			refuse(u, -errno, "cannot create: %s", strerror(errno));
	ret = copy_data(u, fd);
	/* the owner's execute bit decides; no set-ID, sticky or group/other write bit */
	if (ret == 0 && fchmod(fd, perm & S_IXUSR ? 0755 : 0644) < 0)
		ret = refuse(u, -errno, "cannot set its mode: %s", strerror(errno));
	if (close(fd) < 0 && ret == 0)
		ret = refuse(u, -errno, "cannot write: %s", strerror(errno));
	return ret;
}

static int make_dir(struct unpacking *u, int parent, const char *name)
{
	struct stat st;

	if (mkdirat(parent, name, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return refuse(u, -errno, "cannot make the directory: %s", strerror(errno));
	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
		return refuse(u, -EPERM, "there already, and not as a directory");
	return 0;
}

static int make_link(struct unpacking *u, int parent, const char *name, const char *target,
		     uint32_t depth)
{
	const char *fault;

	if (!target)
		return refuse(u, -EPERM, "a symbolic link without a target");
	if (strlen(target) > u->lim->path_bytes)
		return refuse(u, -EFBIG, "a symbolic link's target over the limit of %" PRIu32
			      " bytes", u->lim->path_bytes);
	if ((fault = link_fault(target, depth)))
		return refuse(u, -EPERM, "%s (\"%.200s\")", fault, target);
	if (symlinkat(target, parent, name) < 0)
		return errno == EEXIST ? refuse(u, -EPERM, "there already: an entry twice") :
			refuse(u, -errno, "cannot make the link: %s", strerror(errno));
	return 0;
}

/* The refusal of an entry of a kind never unpacked, or 0. */
static int refuse_kind(struct unpacking *u, struct archive_entry *e)
{
	if (archive_entry_hardlink(e))
		return refuse(u, -EPERM, "a hard link: archive a copy of the file instead");
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
	case AE_IFDIR:
	case AE_IFLNK:
		return 0;
	case AE_IFCHR:
	case AE_IFBLK:
		return refuse(u, -EPERM, "a device file");
	case AE_IFIFO:
		return refuse(u, -EPERM, "a fifo");
	case AE_IFSOCK:
		return refuse(u, -EPERM, "a socket");
	default:
		return refuse(u, -EPERM, "an entry of an unknown kind");
	}
}

static int unpack_entry(struct unpacking *u, struct archive_entry *e)
{
	struct components cs = { 0 };
	int parent = -1, ret;

	if (!(u->entry = archive_entry_pathname(e)))
		return refuse(u, -EPERM, "an entry whose name cannot be read");
	if ((ret = refuse_kind(u, e)) < 0 || (ret = split_path(u, u->entry, &cs)) < 0)
		goto out;
	if (cs.n == 0) /* "./": the target directory itself */
		goto out;
	if ((ret = count_entry(u)) < 0 || (ret = parent = open_parent(u, &cs, cs.n - 1)) < 0)
		goto out;
	ret = 0;
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
		ret = make_file(u, parent, cs.c[cs.n - 1], archive_entry_perm(e));
		break;
	case AE_IFDIR:
		ret = make_dir(u, parent, cs.c[cs.n - 1]);
		break;
	default:
		ret = make_link(u, parent, cs.c[cs.n - 1], archive_entry_symlink(e), cs.n - 1);
		break;
	}
out:
	if (parent >= 0 && parent != u->root)
		close(parent);
	components_release(&cs);
	return ret;
}

/* 0 when the directory at fd holds nothing. */
static int dir_is_empty(int fd)
{
	int copy = dup(fd), ret = 0;
	struct dirent *d;
	DIR *dp;

	if (copy < 0 || !(dp = fdopendir(copy))) {
		if (copy >= 0)
			close(copy);
		return -errno;
	}
	while ((d = readdir(dp)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			ret = -ENOTEMPTY;
	closedir(dp);
	return ret;
}

/* A reader of every accepted format into u->ar, or a refusal. */
static int new_reader(struct unpacking *u)
{
	if (!(u->ar = archive_read_new()))
		return refuse(u, -ENOMEM, "out of memory");
	if (archive_read_support_format_tar(u->ar) || archive_read_support_format_zip(u->ar) ||
	    archive_read_support_filter_gzip(u->ar) || archive_read_support_filter_xz(u->ar) ||
	    archive_read_support_filter_zstd(u->ar))
		return refuse(u, -EINVAL, "this libarchive cannot read an accepted format: %s",
			      archive_error_string(u->ar));
	return 0;
}

/* The archive at path opened for reading under the size limit. */
static int open_archive(struct unpacking *u, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return refuse(u, -errno, "\"%s\": %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		ret = refuse(u, -EINVAL, "\"%s\" is not a regular file", path);
	else if ((uint64_t)st.st_size > u->lim->archive_bytes)
		ret = refuse(u, -EFBIG, "\"%s\" is %jd bytes, over the limit of %" PRIu64
			     " bytes an archive", path, (intmax_t)st.st_size,
			     u->lim->archive_bytes);
	else if ((ret = new_reader(u)) == 0 &&
		 archive_read_open_fd(u->ar, fd, DATA_CHUNK) != ARCHIVE_OK)
		ret = refuse(u, -EINVAL, "\"%s\" is not a tar (plain, .gz, .xz, .zst) or zip "
			     "archive: %s", path, archive_error_string(u->ar));
	if (ret == 0)
		return fd;
	close(fd);
	return ret;
}

/* The target directory opened and checked empty, the data buffer made: 0, or a refusal. */
static int start(struct unpacking *u, const char *dir)
{
	int ret;

	u->why[0] = '\0';
	if ((u->root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return refuse(u, -errno, "\"%s\": %s", dir, strerror(errno));
	if ((ret = dir_is_empty(u->root)) < 0)
		return refuse(u, ret, "\"%s\": %s: unpack into an empty directory", dir,
			      strerror(-ret));
	if (!(u->data = malloc(DATA_CHUNK)))
		return refuse(u, -ENOMEM, "out of memory");
	return 0;
}

/* Every entry of the opened archive (name: how a damage names it) unpacked. */
static int unpack_entries(struct unpacking *u, const char *name)
{
	struct archive_entry *e;
	int ret = 0, r;

	while (ret == 0 && (r = archive_read_next_header(u->ar, &e)) != ARCHIVE_EOF) {
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
			ret = refuse(u, -EINVAL, "\"%s\": a damaged archive after %" PRIu32
				     " entries: %s", name, u->st.entries, archive_error_string(u->ar));
		else
			ret = unpack_entry(u, e);
		u->entry = NULL;
	}
	return ret;
}

/* What start() and the reader hold released, the stats given. */
static void finish(struct unpacking *u, int fd, struct unpack_stats *stats)
{
	if (u->ar)
		archive_read_free(u->ar);
	if (fd >= 0)
		close(fd);
	if (u->root >= 0)
		close(u->root);
	free(u->data);
	if (stats)
		*stats = u->st;
}

int unpack_archive(const char *path, const char *dir, const struct unpack_limits *limits,
		   struct unpack_stats *stats, char *why, size_t why_size)
{
	struct unpacking u = { .root = -1, .lim = limits, .why = why, .why_size = why_size };
	int fd = -1, ret;

	if ((ret = start(&u, dir)) == 0 && (ret = fd = open_archive(&u, path)) >= 0)
		ret = unpack_entries(&u, path);
	finish(&u, fd, stats);
	return ret;
}

int unpack_memory(const void *data, size_t len, const char *dir,
		  const struct unpack_limits *limits, struct unpack_stats *stats, char *why,
		  size_t why_size)
{
	struct unpacking u = { .root = -1, .lim = limits, .why = why, .why_size = why_size };
	int ret;

	if ((ret = start(&u, dir)) < 0)
		goto out;
	if ((uint64_t)len > limits->archive_bytes) {
		ret = refuse(&u, -EFBIG, "an archive of %zu bytes, over the limit of %" PRIu64
			     " bytes", len, limits->archive_bytes);
		goto out;
	}
	if ((ret = new_reader(&u)) < 0)
		goto out;
	if (archive_read_open_memory(u.ar, data, len) != ARCHIVE_OK) {
		ret = refuse(&u, -EINVAL, "not a tar (plain, .gz, .xz, .zst) or zip archive: %s",
			     archive_error_string(u.ar));
		goto out;
	}
	ret = unpack_entries(&u, "the archive");
out:
	finish(&u, -1, stats);
	return ret;
}
