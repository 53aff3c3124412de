/*
 * bundle.c - a bot's files as one archive named by its content (contract in
 * bundle.h).
 *
 * A bundle is made in two passes: the files are listed first (and the
 * archive's size estimated from their sizes, so a tree too big is refused
 * before a byte is read), then sorted by their path in the archive and
 * written. Paths are lexical: "a/../b" is "b" without asking the file
 * system, so the same command names the same paths on the host and, moved,
 * on a worker. The tar is pax (ustar headers, a pax header only for a long
 * name) with every field that could differ between two machines or two
 * runs set to a constant.
 */
#include "bundle.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sha2.h>

#include "durable.h"
#include "sandbox_view.h"
#include "unpack.h"

#define CHUNK (64 * 1024)
#define TAR_BLOCK 512

/* One entry of a bundle: path is its name in the archive, source the file it is read from. */
struct item {
	char *path;
	char *source;
	mode_t type;   /* S_IFREG, S_IFDIR or S_IFLNK */
	mode_t perm;   /* 0755 or 0644 */
	char *target;  /* a link's target, relative to the link's directory */
};

struct making {
	const struct config_bot *bot;
	const char *const *system;
	char exclude[PATH_MAX];  /* lexical, "" for none */
	char tree[PATH_MAX];     /* the cwd shipped whole, "" when it is not */
	struct item *items;
	size_t n, cap;
	uint64_t estimate;       /* bytes of the archive, from the files' sizes */
	char *buf;               /* CHUNK bytes, for copying files */
	char *err;
	size_t err_size;
};

static int fail(char *err, size_t size, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return code;
}

/* ---- paths ---- */

/*
 * The absolute path of path (relative to base when not absolute) in out,
 * with ".", ".." and repeated '/' taken out by their text; "/" for the
 * root. 0, or -ENAMETOOLONG.
 */
static int normalise(const char *base, const char *path, char *out, size_t size)
{
	char joined[PATH_MAX * 2];
	size_t len = 0;

	if (snprintf(joined, sizeof(joined), "%s/%s", path[0] == '/' ? "" : base, path) >=
	    (int)sizeof(joined))
		return -ENAMETOOLONG;
	for (const char *p = joined; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (len > 0 && out[--len] != '/')
				;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (len + 1 + n + 1 > size)
				return -ENAMETOOLONG;
			out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
		}
		p += n + (p[n] == '/');
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return 0;
}

static bool in_system(const struct making *m, const char *path)
{
	for (size_t i = 0; m->system[i]; i++)
		if (sandbox_view_covers(m->system[i], path))
			return true;
	return false;
}

static bool holds_system(const struct making *m, const char *dir)
{
	for (size_t i = 0; m->system[i]; i++)
		if (sandbox_view_covers(dir, m->system[i]))
			return true;
	return false;
}

static size_t depth(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == '/' && path[1];
	return d;
}

/*
 * Whether the cwd is shipped whole: two levels deep at least, no system
 * directory nor above one, not the excluded directory nor above or in it,
 * and no home directory ($HOME, /root, /home/NAME) nor above one: a home
 * holds keys no worker should get.
 */
static bool cwd_shipped(const struct making *m, const char *cwd)
{
	const char *home = getenv("HOME");
	char h[PATH_MAX];

	if (depth(cwd) < 2 || in_system(m, cwd) || holds_system(m, cwd) ||
	    sandbox_view_covers(cwd, "/root") ||
	    (sandbox_view_covers("/home", cwd) && depth(cwd) == 2))
		return false;
	if (m->exclude[0] &&
	    (sandbox_view_covers(m->exclude, cwd) || sandbox_view_covers(cwd, m->exclude)))
		return false;
	return !(home && home[0] == '/' && normalise("/", home, h, sizeof(h)) == 0 &&
		 sandbox_view_covers(cwd, h));
}

/* ---- the list ---- */

static int add_item(struct making *m, const char *path, mode_t type, mode_t perm,
		    const char *target, uint64_t size)
{
	struct item *it;

	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct item *v = reallocarray(m->items, cap, sizeof(*v));

		if (!v)
			return fail(m->err, m->err_size, -ENOMEM, "out of memory");
		m->items = v;
		m->cap = cap;
	}
	it = &m->items[m->n];
	*it = (struct item){ .type = type, .perm = perm };
	if (!(it->source = strdup(path)) || !(it->path = strdup(path + 1)) ||
	    (target && !(it->target = strdup(target)))) {
		free(it->source);
		free(it->path);
		return fail(m->err, m->err_size, -ENOMEM, "out of memory");
	}
	m->n++;
	/* a header, the data in whole blocks, and a pax header for a long name */
	m->estimate += TAR_BLOCK + (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK +
		       (strlen(path) > 100 ? 2 * TAR_BLOCK : 0);
	if (m->estimate > BUNDLE_MAX_BYTES)
		return fail(m->err, m->err_size, -EFBIG, "bot \"%s\": its files make a bundle of "
			    "%" PRIu64 " bytes at least, over the limit of %llu MiB: ship less (a "
			    "working directory of its own with only what it runs)",
			    m->bot->name, m->estimate, BUNDLE_MAX_BYTES >> 20);
	return 0;
}

static mode_t perm_of(const struct stat *st)
{
	return S_ISDIR(st->st_mode) || (st->st_mode & S_IXUSR) ? 0755 : 0644;
}

/* The directory holding path (lexical) into dir: "/" for the root's files. */
static void parent_of(const char *path, char *dir, size_t size)
{
	snprintf(dir, size, "%s", path);
	*strrchr(dir, '/') = '\0';
	if (!dir[0])
		snprintf(dir, size, "/");
}

/*
 * The text a link at path (lexical) gets in the bundle, for the text it has:
 * the path it names, relative to the link's directory ("../b/c"), which is
 * what unpack.h accepts.
 */
static int link_target(struct making *m, const char *path, const char *text, char *target,
		       size_t size)
{
	char dir[PATH_MAX], to[PATH_MAX];
	size_t common = 0, len = 0;

	parent_of(path, dir, sizeof(dir));
	if (normalise(dir, text, to, sizeof(to)) < 0)
		return fail(m->err, m->err_size, -ENAMETOOLONG, "\"%s\": a link's target too long",
			    path);
	/* the longest run of whole components the two share */
	for (size_t i = 0;; i++) {
		bool end_d = dir[i] == '\0' || dir[i] == '/', end_t = to[i] == '\0' || to[i] == '/';

		if (end_d && end_t)
			common = i;
		if ((end_d && end_t && (!dir[i] || !to[i])) || dir[i] != to[i])
			break;
	}
	target[0] = '\0';
	for (const char *p = dir + common; *p; p++)
		if (*p == '/' && p[1])
			len = strlcat(target, len ? "/.." : "..", size);
	if (to[common] == '/')
		len = strlcat(target, len ? to + common : to + common + 1, size);
	if (!target[0])
		len = strlcpy(target, ".", size);
	return len < size ? 0 : fail(m->err, m->err_size, -ENAMETOOLONG, "\"%s\": a link's "
				     "target too long", path);
}

static int add_tree(struct making *m, const char *path);

/* One thing found in the tree (path lexical, st its lstat) listed. */
static int add_found(struct making *m, const char *path, const struct stat *st)
{
	char text[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	int ret;

	if (S_ISDIR(st->st_mode))
		return (ret = add_item(m, path, S_IFDIR, 0755, NULL, 0)) < 0 ? ret :
			add_tree(m, path);
	if (S_ISREG(st->st_mode))
		return add_item(m, path, S_IFREG, perm_of(st), NULL, (uint64_t)st->st_size);
	if (!S_ISLNK(st->st_mode))
		return fail(m->err, m->err_size, -EPERM, "bot \"%s\": \"%s\" is a device, fifo "
			    "or socket, which a bundle cannot hold: move it out of \"%s\"",
			    m->bot->name, path, m->tree);
	if ((n = readlink(path, text, sizeof(text) - 1)) < 0)
		return fail(m->err, m->err_size, -errno, "\"%s\": %s", path, strerror(errno));
	text[n] = '\0';
	if ((ret = link_target(m, path, text, target, sizeof(target))) < 0)
		return ret;
	return add_item(m, path, S_IFLNK, 0777, target, 0);
}

/* The directory path (lexical, real) and all it holds listed. */
static int add_tree(struct making *m, const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *d;
	int ret = 0;

	if (!dp)
		return fail(m->err, m->err_size, -errno, "bot \"%s\": \"%s\": %s", m->bot->name,
			    path, strerror(errno));
	while (ret == 0 && (errno = 0, d = readdir(dp))) {
		char child[PATH_MAX];
		struct stat st;

		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", path, d->d_name) >= (int)sizeof(child))
			ret = fail(m->err, m->err_size, -ENAMETOOLONG, "\"%s/%s\": path too long",
				   path, d->d_name);
		else if (lstat(child, &st) < 0)
			ret = fail(m->err, m->err_size, -errno, "\"%s\": %s", child, strerror(errno));
		else
			ret = add_found(m, child, &st);
	}
	if (ret == 0 && errno)
		ret = fail(m->err, m->err_size, -errno, "\"%s\": %s", path, strerror(errno));
	closedir(dp);
	return ret;
}

/* A file the command names (path lexical), unless a system file or shipped otherwise. */
static int add_named(struct making *m, const char *path, bool program)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || in_system(m, path) ||
	    (m->tree[0] && sandbox_view_covers(m->tree, path)))
		return 0;
	if (m->exclude[0] && sandbox_view_covers(m->exclude, path))
		return program ? fail(m->err, m->err_size, -EPERM, "bot \"%s\": its program \"%s\" "
				      "lies in \"%s\", which is never shipped to workers: move it "
				      "out", m->bot->name, path, m->exclude) : 0;
	return add_item(m, path, S_IFREG, perm_of(&st), NULL, (uint64_t)st.st_size);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->path, ((const struct item *)b)->path);
}

static const struct item *find(const struct making *m, const char *path)
{
	struct item key = { .path = (char *)path };

	return bsearch(&key, m->items, m->n, sizeof(key), by_path);
}

/* Whether path (no leading '/') is an entry, or lies in a directory that is one. */
static bool in_bundle(const struct making *m, const char *path)
{
	char up[PATH_MAX];
	const struct item *it;

	if (find(m, path))
		return true;
	snprintf(up, sizeof(up), "%s", path);
	for (char *slash; (slash = strrchr(up, '/'));) {
		*slash = '\0';
		if ((it = find(m, up)))
			return it->type == S_IFDIR;
	}
	return false;
}

/* Sorted, each path once, each link checked to end in the bundle. */
static int settle(struct making *m)
{
	size_t k = 0;

	qsort(m->items, m->n, sizeof(*m->items), by_path);
	for (size_t i = 0; i < m->n; i++) {
		if (k > 0 && strcmp(m->items[k - 1].path, m->items[i].path) == 0) {
			free(m->items[i].path);
			free(m->items[i].source);
			free(m->items[i].target);
			continue;
		}
		m->items[k++] = m->items[i];
	}
	m->n = k;
	for (size_t i = 0; i < m->n; i++) {
		const struct item *it = &m->items[i];
		char to[PATH_MAX], dir[PATH_MAX];

		if (it->type != S_IFLNK)
			continue;
		parent_of(it->source, dir, sizeof(dir));
		if (normalise(dir, it->target, to, sizeof(to)) < 0 ||
		    !in_bundle(m, to + 1))
			return fail(m->err, m->err_size, -EPERM, "bot \"%s\": \"%s\" is a symbolic "
				    "link to a file outside its bundle: put a copy of what it names "
				    "in \"%s\" instead", m->bot->name, it->source, m->tree);
	}
	return 0;
}

static void items_release(struct making *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->items[i].path);
		free(m->items[i].source);
		free(m->items[i].target);
	}
	free(m->items);
}

/* ---- the archive ---- */

struct sink {
	int fd;
	SHA2_CTX sha;
	uint64_t bytes;
	const char *bot;
};

static la_ssize_t sink_write(struct archive *a, void *data, const void *buf, size_t len)
{
	struct sink *s = data;
	const char *p = buf;

	if (s->bytes + len > BUNDLE_MAX_BYTES) {
		archive_set_error(a, EFBIG, "bot \"%s\": its bundle is more than %llu bytes, the "
				  "limit", s->bot, BUNDLE_MAX_BYTES);
		return -1;
	}
	SHA256Update(&s->sha, buf, len);
	s->bytes += len;
	for (size_t left = len; left > 0;) {
		ssize_t n = write(s->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			archive_set_error(a, n < 0 ? errno : EIO, "writing the bundle: %s",
					  strerror(n < 0 ? errno : EIO));
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	return (la_ssize_t)len;
}

/* The error libarchive's writer holds (the sink's own among them), as m's. */
static int archive_fail(struct making *m, struct archive *a)
{
	return fail(m->err, m->err_size, -(archive_errno(a) > 0 ? archive_errno(a) : EIO), "%s",
		    archive_error_string(a));
}

/* A file's data written as the header said: size bytes, no more, no fewer. */
static int write_data(struct making *m, struct archive *a, int fd, uint64_t size,
		      const char *source)
{
	char *buf = m->buf;
	ssize_t n = 0;

	while (size > 0) {
		n = read(fd, buf, size < CHUNK ? (size_t)size : CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (archive_write_data(a, buf, (size_t)n) != n)
			return archive_fail(m, a);
		size -= (uint64_t)n;
	}
	if (n < 0 || size > 0 || read(fd, buf, 1) != 0)
		return fail(m->err, m->err_size, -EAGAIN, "bot \"%s\": \"%s\" changed while it "
			    "was bundled: make the bundle again", m->bot->name, source);
	return 0;
}

static int write_item(struct making *m, struct archive *a, struct archive_entry *e,
		      const struct item *it)
{
	int fd = -1, ret = 0;
	struct stat st = { 0 };

	archive_entry_clear(e);
	archive_entry_set_pathname(e, it->path);
	archive_entry_set_filetype(e, it->type);
	archive_entry_set_perm(e, it->perm);
	archive_entry_set_mtime(e, 0, 0);
	if (it->type == S_IFLNK)
		archive_entry_set_symlink(e, it->target);
	if (it->type == S_IFREG) {
		/* a file of the tree is never followed; one the command names is */
		fd = open(it->source, O_RDONLY | O_CLOEXEC |
			  (m->tree[0] && sandbox_view_covers(m->tree, it->source) ? O_NOFOLLOW : 0));
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			ret = fail(m->err, m->err_size, fd < 0 ? -errno : -EAGAIN, "bot \"%s\": "
				   "\"%s\": %s", m->bot->name, it->source, fd < 0 ?
				   strerror(errno) : "changed while it was bundled");
			goto out;
		}
		archive_entry_set_size(e, st.st_size);
	}
	if (archive_write_header(a, e) != ARCHIVE_OK) {
		ret = archive_fail(m, a);
		goto out;
	}
	if (fd >= 0)
		ret = write_data(m, a, fd, (uint64_t)st.st_size, it->source);
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The archive of m's items into the open file fd; its hash into sha256. */
static int write_archive(struct making *m, int fd, char sha256[BUNDLE_HASH_LEN + 1])
{
	struct sink s = { .fd = fd, .bot = m->bot->name };
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	int ret = 0;

	SHA256Init(&s.sha);
	if (!a || !e || !(m->buf = malloc(CHUNK))) {
		ret = fail(m->err, m->err_size, -ENOMEM, "out of memory");
		goto out;
	}
	if (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_open(a, &s, NULL, sink_write, NULL) != ARCHIVE_OK) {
		ret = archive_fail(m, a);
		goto out;
	}
	for (size_t i = 0; ret == 0 && i < m->n; i++)
		ret = write_item(m, a, e, &m->items[i]);
	if (ret == 0 && archive_write_close(a) != ARCHIVE_OK)
		ret = archive_fail(m, a);
	if (ret == 0)
		SHA256End(&s.sha, sha256);
out:
	free(m->buf);
	m->buf = NULL;
	archive_entry_free(e);
	if (a)
		archive_write_free(a);
	return ret;
}

/* The listed bundle written to cache_dir/SHA256.tar: a temporary file, fsync, rename. */
static int store(struct making *m, const char *cache_dir, char sha256[BUNDLE_HASH_LEN + 1])
{
	char tmp[PATH_MAX], final[PATH_MAX];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s/.bundle-XXXXXX", cache_dir) >= (int)sizeof(tmp))
		return fail(m->err, m->err_size, -ENAMETOOLONG, "\"%s\": path too long", cache_dir);
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return fail(m->err, m->err_size, -errno, "\"%s\": %s: a bundle cannot be written "
			    "there", cache_dir, strerror(errno));
	ret = write_archive(m, fd, sha256);
	if (ret == 0 && (fsync(fd) < 0 || fchmod(fd, 0644) < 0))
		ret = fail(m->err, m->err_size, -errno, "\"%s\": %s", tmp, strerror(errno));
	close(fd);
	if (ret == 0 && snprintf(final, sizeof(final), "%s/%s.tar", cache_dir, sha256) >=
	    (int)sizeof(final))
		ret = fail(m->err, m->err_size, -ENAMETOOLONG, "\"%s\": path too long", cache_dir);
	/* the same content made before: its file is this one's equal */
	if (ret == 0 && access(final, F_OK) < 0 && rename(tmp, final) < 0)
		ret = fail(m->err, m->err_size, -errno, "\"%s\": %s", final, strerror(errno));
	unlink(tmp);
	if (ret == 0 && (ret = durable_sync_dir(cache_dir)) < 0)
		fail(m->err, m->err_size, ret, "\"%s\": %s", cache_dir, strerror(-ret));
	return ret;
}

int bundle_make(const struct config_bot *b, const char *const *system, const char *exclude,
		const char *cache_dir, char sha256[BUNDLE_HASH_LEN + 1], char *err,
		size_t err_size)
{
	struct making m = { .bot = b, .system = system ? system : sandbox_view_system_dirs,
			    .err = err, .err_size = err_size };
	char cwd[PATH_MAX], path[PATH_MAX];
	struct stat st;
	int ret;

	err[0] = '\0';
	sha256[0] = '\0';
	if (normalise("/", b->cwd, cwd, sizeof(cwd)) < 0 ||
	    (exclude && normalise(b->cwd, exclude, m.exclude, sizeof(m.exclude)) < 0))
		return fail(err, err_size, -ENAMETOOLONG, "bot \"%s\": path too long", b->name);
	if (cwd_shipped(&m, cwd) && stat(cwd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(m.tree, sizeof(m.tree), "%s", cwd);
		if ((ret = add_item(&m, cwd, S_IFDIR, 0755, NULL, 0)) < 0 ||
		    (ret = add_tree(&m, cwd)) < 0)
			goto out;
	}
	for (size_t k = 0; b->argv[k]; k++) {
		if (normalise(cwd, b->argv[k], path, sizeof(path)) == 0 &&
		    (ret = add_named(&m, path, k == 0)) < 0)
			goto out;
	}
	ret = m.n == 0 ? 1 : settle(&m);
	if (ret == 0)
		ret = store(&m, cache_dir, sha256);
out:
	items_release(&m);
	return ret;
}

/* ---- on a worker ---- */

/* Whether sha256 is 64 lower-case hex digits: it becomes a file name. */
static bool hash_ok(const char *sha256)
{
	size_t n = strspn(sha256, "0123456789abcdef");

	return n == BUNDLE_HASH_LEN && sha256[n] == '\0';
}

bool bundle_present(const char *cache_dir, const char *sha256)
{
	char path[PATH_MAX];
	struct stat st;

	return hash_ok(sha256) &&
	       snprintf(path, sizeof(path), "%s/%s", cache_dir, sha256) < (int)sizeof(path) &&
	       stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int bundle_unpack(const char *cache_dir, const char *sha256, const void *data, size_t len,
		  char *err, size_t err_size)
{
	struct unpack_limits lim = { BUNDLE_MAX_BYTES, BUNDLE_MAX_BYTES, BUNDLE_MAX_BYTES,
				     BUNDLE_MAX_BYTES / TAR_BLOCK, PATH_MAX - 1, PATH_MAX / 2 };
	char tmp[PATH_MAX], final[PATH_MAX], got[SHA256_DIGEST_STRING_LENGTH], why[512];
	int ret, fd;

	err[0] = '\0';
	if (!hash_ok(sha256))
		return fail(err, err_size, -EINVAL, "\"%.80s\" is not a bundle's name (64 "
			    "lower-case hex digits)", sha256);
	if (len > BUNDLE_MAX_BYTES)
		return fail(err, err_size, -EFBIG, "bundle %.12s...: %zu bytes, over the limit of "
			    "%llu", sha256, len, BUNDLE_MAX_BYTES);
	SHA256Data(data, len, got);
	if (strcmp(got, sha256) != 0)
		return fail(err, err_size, -EBADMSG, "bundle %.12s...: the archive received has "
			    "SHA-256 %.12s...: damaged or changed on its way; fetch it again",
			    sha256, got);
	if (bundle_present(cache_dir, sha256))
		return 0;
	if (snprintf(tmp, sizeof(tmp), "%s/.unpack-XXXXXX", cache_dir) >= (int)sizeof(tmp) ||
	    snprintf(final, sizeof(final), "%s/%s", cache_dir, sha256) >= (int)sizeof(final))
		return fail(err, err_size, -ENAMETOOLONG, "\"%s\": path too long", cache_dir);
	if (!mkdtemp(tmp))
		return fail(err, err_size, -errno, "\"%s\": %s", cache_dir, strerror(errno));
	/* mkdtemp's 0700 would keep a sandbox's uid (SECURITY.md) from the bot */
	if (chmod(tmp, 0755) < 0) {
		ret = fail(err, err_size, -errno, "\"%s\": %s", tmp, strerror(errno));
		goto out;
	}
	if ((ret = unpack_memory(data, len, tmp, &lim, NULL, why, sizeof(why))) < 0) {
		fail(err, err_size, ret, "bundle %.12s... refused: %s", sha256, why);
		goto out;
	}
	/* every file on the disk before the directory has its final name */
	if ((fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || syncfs(fd) < 0)
		ret = fail(err, err_size, -errno, "\"%s\": %s", tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (ret == 0 && rename(tmp, final) < 0 && !bundle_present(cache_dir, sha256))
		ret = fail(err, err_size, -errno, "\"%s\": %s", final, strerror(errno));
	if (ret == 0 && (ret = durable_sync_dir(cache_dir)) < 0)
		fail(err, err_size, ret, "\"%s\": %s", cache_dir, strerror(-ret));
out:
	nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}

/* path (lexical) moved to under root when it is in the bundle: a new string in *out. */
static int moved(const char *root, const char *path, char **out)
{
	char in[PATH_MAX * 2];
	struct stat st;

	*out = NULL;
	if (strcmp(path, "/") == 0 || snprintf(in, sizeof(in), "%s%s", root, path) >=
	    (int)sizeof(in) || lstat(in, &st) < 0)
		return 0;
	return (*out = strdup(in)) ? 1 : -ENOMEM;
}

int bundle_place(struct config_bot *b, const char *cache_dir, const char *sha256, char *err,
		 size_t err_size)
{
	char root[PATH_MAX], path[PATH_MAX], *cwd = NULL, **argv;
	size_t n = 0;
	int ret = 0, in_cwd;

	err[0] = '\0';
	if (!bundle_present(cache_dir, sha256))
		return fail(err, err_size, -ENOENT, "bundle %.12s... is not in \"%s\": fetch it",
			    sha256, cache_dir);
	if (normalise("/", cache_dir, path, sizeof(path)) < 0 ||
	    snprintf(root, sizeof(root), "%s/%s", strcmp(path, "/") ? path : "", sha256) >=
	    (int)sizeof(root) || normalise("/", b->cwd, path, sizeof(path)) < 0)
		return fail(err, err_size, -ENAMETOOLONG, "bot \"%s\": path too long", b->name);
	if ((in_cwd = moved(root, path, &cwd)) < 0)
		return fail(err, err_size, -ENOMEM, "out of memory");
	while (b->argv[n])
		n++;
	if (!(argv = calloc(n + 1, sizeof(*argv)))) {
		free(cwd);
		return fail(err, err_size, -ENOMEM, "out of memory");
	}
	/* a relative path keeps its text when the cwd moved with it */
	for (size_t k = 0; ret >= 0 && k < n; k++)
		if ((b->argv[k][0] == '/' || !in_cwd) &&
		    normalise(b->cwd, b->argv[k], path, sizeof(path)) == 0)
			ret = moved(root, path, &argv[k]);
	if (ret < 0) {
		for (size_t k = 0; k < n; k++)
			free(argv[k]);
		free(argv);
		free(cwd);
		return fail(err, err_size, -ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < n; k++)
		if (argv[k]) {
			free(b->argv[k]);
			b->argv[k] = argv[k];
		}
	if (cwd) {
		free(b->cwd);
		b->cwd = cwd;
	}
	free(argv);
	return 0;
}
