/*
 * system_needs.c - the system files bots need, from their commands
 * (contract in system_needs.h).
 *
 * Paths are walked a name at a time, as the kernel resolves them, so that
 * every symbolic link met on the way is kept: the copy must show a bot the
 * names it opens, not only the files they end at. ELF files go through one
 * work list, read once each; the first ones (a bot's program and its
 * interpreter) must be valid, the others (libraries, a runtime tree's
 * files) are skipped when not, as the loader skips a library it cannot use.
 */
#include "system_needs.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "elf_info.h"
#include "sandbox_view.h"

#define LD_SO_CACHE "/etc/ld.so.cache"
#define MAX_LINKS 40       /* the kernel's own limit on links in one path */
#define MAX_SCRIPTS 4      /* scripts run by scripts, before an ELF file */
#define MAX_TREE_DEPTH 32

/* A JDK's files that only development tools read; in any runtime tree, not followed. */
static const char *const dev_only[] = {
	"jmods", "include", "man", "docs", "legal", "demo", "sample", "src.zip", NULL,
};

struct needs {
	const char *path;        /* the PATH a sandboxed bot has */
	struct strlist *out;
	struct strlist elves;    /* ELF files met, canonical: read from index done on */
	size_t done;
	struct elf_cache cache;  /* empty where there is none */
	char *why;
	size_t why_size;
};

/* ---- paths ---- */

static bool under_system(const char *path)
{
	for (size_t i = 0; sandbox_view_system_dirs[i]; i++)
		if (sandbox_view_covers(sandbox_view_system_dirs[i], path))
			return true;
	return false;
}

/* Is path one of the system directories' names that is a link (/lib -> usr/lib)? */
static bool top_link(const char *path)
{
	struct stat st;

	for (size_t i = 0; sandbox_view_system_dirs[i]; i++)
		if (strcmp(sandbox_view_system_dirs[i], path) == 0)
			return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
	return false;
}

/* path is needed, when it lies in a system directory (the links to them the view makes). */
static void keep(struct needs *n, const char *path)
{
	if (under_system(path) && !top_link(path))
		strlist_add_unique(n->out, path);
}

/*
 * Resolve the absolute path a name at a time, keeping each symbolic link
 * met: 0 and the canonical path in real (PATH_MAX), or -errno.
 */
static int follow(struct needs *n, const char *path, char *real)
{
	char todo[2 * PATH_MAX], cur[PATH_MAX] = "", next[PATH_MAX], target[PATH_MAX];
	const char *p = todo;
	int links = 0;

	if (path[0] != '/')
		return -EINVAL;
	if (snprintf(todo, sizeof todo, "%s", path) >= (int)sizeof todo)
		return -ENAMETOOLONG;
	while (*(p += strspn(p, "/"))) {
		size_t len = strcspn(p, "/");
		struct stat st;
		ssize_t k;

		if (len == 1 && p[0] == '.') {
			p += len;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			*(strrchr(cur, '/') ? strrchr(cur, '/') : cur) = '\0';
			p += len;
			continue;
		}
		if (snprintf(next, sizeof next, "%s/%.*s", cur, (int)len, p) >= (int)sizeof next)
			return -ENAMETOOLONG;
		if (lstat(next, &st) < 0)
			return -errno;
		p += len;
		if (!S_ISLNK(st.st_mode)) {
			if (*p && !S_ISDIR(st.st_mode))
				return -ENOTDIR;
			memcpy(cur, next, sizeof cur);
			continue;
		}
		if (++links > MAX_LINKS)
			return -ELOOP;
		if ((k = readlink(next, target, sizeof target - 1)) < 0)
			return -errno;
		target[k] = '\0';
		keep(n, next);
		if (target[0] == '/')
			cur[0] = '\0';
		/* the rest of the path after the link's target, moved into todo's start */
		if (snprintf(next, sizeof next, "%s%s", target, p) >= (int)sizeof next)
			return -ENAMETOOLONG;
		memcpy(todo, next, sizeof next);
		p = todo;
	}
	snprintf(real, PATH_MAX, "%s", cur[0] ? cur : "/");
	return 0;
}

/* path and the links to it needed: 0 and its canonical path in real, or -errno. */
static int need(struct needs *n, const char *path, char *real)
{
	int ret = follow(n, path, real);

	if (ret == 0)
		keep(n, real);
	return ret;
}

/* ---- ELF files ---- */

static bool is_elf(const char *path)
{
	unsigned char magic[SELFMAG];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	bool elf = fd >= 0 && read(fd, magic, sizeof magic) == SELFMAG &&
		   memcmp(magic, ELFMAG, SELFMAG) == 0;

	if (fd >= 0)
		close(fd);
	return elf;
}

/* Can a process of e's kind load path? */
static bool loadable(const char *path, const struct elf_info *e)
{
	struct elf_info lib;
	char why[256];
	bool ok = elf_info_read(path, &lib, why, sizeof why) == 1 &&
		  lib.elf_class == e->elf_class && lib.machine == e->machine;

	elf_info_release(&lib);
	return ok;
}

/* A search directory of file with $ORIGIN put in: false when it holds another $ token. */
static bool expand_origin(const char *dir, const char *file, char *out, size_t size)
{
	const char *slash = strrchr(file, '/');
	int origin = slash ? (int)(slash - file) : 0;
	size_t used = 0;

	while (*dir && used < size) {
		if (strncmp(dir, "$ORIGIN", 7) == 0 || strncmp(dir, "${ORIGIN}", 9) == 0) {
			used += (size_t)snprintf(out + used, size - used, "%.*s", origin, file);
			dir += dir[1] == '{' ? 9 : 7;
		} else if (*dir == '$') {
			return false;
		} else {
			out[used++] = *dir++;
		}
	}
	if (used >= size)
		return false;
	out[used] = '\0';
	return true;
}

/* The loader's default directories for e's kind, NULL-terminated into dirs (8). */
static void default_dirs(const struct elf_info *e, char dirs[][32])
{
	const char *tuple = e->machine == EM_X86_64 ? "x86_64-linux-gnu" :
			    e->machine == EM_386 ? "i386-linux-gnu" :
			    e->machine == EM_AARCH64 ? "aarch64-linux-gnu" :
			    e->machine == EM_ARM ? "arm-linux-gnueabihf" : NULL;
	const char *bits = e->elf_class == ELFCLASS64 ? "64" : "32";
	size_t k = 0;

	if (tuple) {
		snprintf(dirs[k++], 32, "/lib/%s", tuple);
		snprintf(dirs[k++], 32, "/usr/lib/%s", tuple);
	}
	snprintf(dirs[k++], 32, "/lib%s", bits);
	snprintf(dirs[k++], 32, "/usr/lib%s", bits);
	snprintf(dirs[k++], 32, "/lib");
	snprintf(dirs[k++], 32, "/usr/lib");
	dirs[k][0] = '\0';
}

/* Try dir/name: true with it in out when e can load it. */
static bool try_dir(const char *dir, const char *name, const struct elf_info *e, char *out)
{
	return snprintf(out, PATH_MAX, "%s/%s", dir, name) < PATH_MAX && loadable(out, e);
}

/* Where the loader finds library name for file (read into e): true and the path in out. */
static bool find_library(struct needs *n, const char *file, const struct elf_info *e,
			 const char *name, char *out)
{
	char dir[PATH_MAX], dirs[8][32];

	if (strchr(name, '/'))
		return name[0] == '/' && snprintf(out, PATH_MAX, "%s", name) < PATH_MAX;
	/* DT_RPATH counts only without a DT_RUNPATH; LD_LIBRARY_PATH would come between */
	for (size_t i = 0; !e->runpath.n && i < e->rpath.n; i++)
		if (expand_origin(e->rpath.v[i], file, dir, sizeof dir) &&
		    try_dir(dir, name, e, out))
			return true;
	for (size_t i = 0; i < e->runpath.n; i++)
		if (expand_origin(e->runpath.v[i], file, dir, sizeof dir) &&
		    try_dir(dir, name, e, out))
			return true;
	for (size_t i = 0; i < n->cache.names.n; i++)
		if (strcmp(n->cache.names.v[i], name) == 0 &&
		    snprintf(out, PATH_MAX, "%s", n->cache.paths.v[i]) < PATH_MAX &&
		    loadable(out, e))
			return true;
	default_dirs(e, dirs);
	for (size_t i = 0; dirs[i][0]; i++)
		if (try_dir(dirs[i], name, e, out))
			return true;
	return false;
}

/* An ELF file to read, its links and itself needed. */
static void queue_elf(struct needs *n, const char *path)
{
	char real[PATH_MAX];

	if (need(n, path, real) == 0)
		strlist_add_unique(&n->elves, real);
}

/* file's interpreter and libraries, needed and queued: 0, or its fault. */
static int read_elf(struct needs *n, const char *file)
{
	struct elf_info e;
	char lib[PATH_MAX];
	int ret = elf_info_read(file, &e, n->why, n->why_size);

	if (ret == 1) {
		if (e.interp && e.interp[0] == '/')
			queue_elf(n, e.interp);
		for (size_t i = 0; i < e.needed.n; i++)
			if (find_library(n, file, &e, e.needed.v[i], lib))
				queue_elf(n, lib);
		ret = 0;
	}
	elf_info_release(&e);
	return ret;
}

/*
 * Read every queued ELF file. A fault of the one at index strict (SIZE_MAX:
 * none) is returned; the others' are skipped.
 */
static int drain(struct needs *n, size_t strict)
{
	for (; n->done < n->elves.n; n->done++) {
		int ret = read_elf(n, n->elves.v[n->done]);

		if (ret == -ENOMEM || (ret < 0 && n->done == strict))
			return ret;
	}
	return n->elves.error;
}

/* The ELF closure of file (canonical), a fault in file itself returned. */
static int closure(struct needs *n, const char *file)
{
	if (strlist_has(&n->elves, file))
		return 0;
	strlist_add(&n->elves, file);
	return drain(n, n->elves.n - 1);
}

/* ---- runtime trees ---- */

static bool dev_file(const char *name)
{
	for (size_t i = 0; dev_only[i]; i++)
		if (strcmp(name, dev_only[i]) == 0)
			return true;
	return false;
}

/* The ELF files of dir's tree queued; links leading out of it to files followed. */
static void scan_tree(struct needs *n, const char *dir, const char *top, int depth)
{
	DIR *d = depth < MAX_TREE_DEPTH ? opendir(dir) : NULL;
	struct dirent *ent;

	while (d && (ent = readdir(d))) {
		char path[PATH_MAX], real[PATH_MAX];
		struct stat st;

		if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0 ||
		    dev_file(ent->d_name) ||
		    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name) >= (int)sizeof path ||
		    lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			scan_tree(n, path, top, depth + 1);
		else if (S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(Elf32_Ehdr) &&
			 is_elf(path))
			strlist_add_unique(&n->elves, path);
		else if (S_ISLNK(st.st_mode) && follow(n, path, real) == 0 &&
			 !sandbox_view_covers(top, real) && stat(real, &st) == 0 &&
			 S_ISREG(st.st_mode))
			keep(n, real);
	}
	if (d)
		closedir(d);
}

/* A runtime directory, where present: needed whole, its ELF files' closure too. */
static void tree(struct needs *n, const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || need(n, dir, real) < 0)
		return;
	scan_tree(n, real, real, 0);
}

/* Is s "python3.N"? */
static bool is_python(const char *s)
{
	if (strncmp(s, "python3.", 8) != 0 || !s[8])
		return false;
	return strspn(s + 8, "0123456789") == strlen(s + 8);
}

/* The JDK above bin/java: every entry needed but what only development tools read. */
static void jdk(struct needs *n, const char *home)
{
	struct dirent *ent;
	DIR *d = opendir(home);

	while (d && (ent = readdir(d))) {
		char path[PATH_MAX], real[PATH_MAX];
		struct stat st;

		if (ent->d_name[0] == '.' || dev_file(ent->d_name) || snprintf(path, sizeof path, "%s/%s", home, ent->d_name) >= (int)sizeof path)
			continue;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			tree(n, path);
		else
			need(n, path, real);
	}
	if (d)
		closedir(d);
}

/* Is program (canonical) the JDK's or JRE's java under /usr/lib/jvm? */
static bool is_java(const char *program)
{
	size_t len = strlen(program);

	return strncmp(program, "/usr/lib/jvm/", 13) == 0 && len > 9 &&
	       strcmp(program + len - 9, "/bin/java") == 0;
}

static bool is_node(const char *base)
{
	return strcmp(base, "node") == 0 || strcmp(base, "nodejs") == 0;
}

/* The runtime trees of program (canonical), when it is an interpreter of the table. */
static int runtimes(struct needs *n, const char *program)
{
	const char *base = strrchr(program, '/') + 1;
	size_t len = strlen(program);
	char dir[PATH_MAX];

	if (is_python(base)) {
		snprintf(dir, sizeof dir, "/usr/lib/%s", base);
		tree(n, dir);
		tree(n, "/usr/lib/python3/dist-packages");
		snprintf(dir, sizeof dir, "/usr/local/lib/%s", base);
		tree(n, dir);
	} else if (is_java(program)) {
		snprintf(dir, sizeof dir, "%.*s", (int)(len - 9), program);
		jdk(n, dir);
	} else if (is_node(base)) {
		tree(n, "/usr/share/nodejs");
		tree(n, "/usr/lib/nodejs");
	}
	return drain(n, SIZE_MAX);
}

/* ---- programs ---- */

/* Is name a program in one of the directories of path? The first into out. */
static bool in_path(const char *path, const char *name, char *out)
{
	while (*path) {
		size_t len = strcspn(path, ":");

		if (len && path[0] == '/' &&
		    snprintf(out, PATH_MAX, "%.*s/%s", (int)len, path, name) < PATH_MAX &&
		    access(out, X_OK) == 0)
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

/*
 * The interpreter of a script's #! line into interp (PATH_MAX), and for
 * "/usr/bin/env [-S] NAME" the NAME into name (else ""): true; false when
 * file is no script.
 */
static bool script_interpreter(const char *file, char *interp, char *name)
{
	char line[PATH_MAX + 3], *p, *end;
	FILE *f = fopen(file, "re");
	bool found = false;

	name[0] = '\0';
	if (f && fgets(line, sizeof line, f) && strncmp(line, "#!", 2) == 0) {
		p = line + 2 + strspn(line + 2, " \t");
		end = p + strcspn(p, " \t\r\n");
		found = end > p && *p == '/';
		snprintf(interp, PATH_MAX, "%.*s", (int)(end - p), p);
		if (found && end - p >= 4 && strncmp(end - 4, "/env", 4) == 0) {
			p = end + strspn(end, " \t");
			if (strncmp(p, "-S", 2) == 0)
				p += 2 + strspn(p + 2, " \t");
			end = p + strcspn(p, " \t\r\n");
			snprintf(name, NAME_MAX + 1, "%.*s", (int)(end - p), p);
		}
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * A program the bot runs (absolute): its links and itself, for a script its
 * interpreter's, for an ELF file its closure, and its runtime trees. A
 * program that is not there is no need (its start fails); a fault of its
 * ELF file is returned.
 */
static int program(struct needs *n, const char *path, int level)
{
	char real[PATH_MAX], interp[PATH_MAX], name[NAME_MAX + 1], found[PATH_MAX];
	int ret;

	if (level > MAX_SCRIPTS || need(n, path, real) < 0)
		return 0;
	if (script_interpreter(real, interp, name)) {
		if (!name[0])
			return program(n, interp, level + 1);
		if ((ret = program(n, interp, level + 1)) < 0)
			return ret;
		return name[0] != '/' && in_path(n->path, name, found) ?
		       program(n, found, level + 1) : 0;
	}
	if ((ret = closure(n, real)) < 0)
		return ret;
	return runtimes(n, real);
}

bool system_needs_known(const struct bot_spec *spec, const char *path, char *why,
			size_t why_size)
{
	char *resolved = NULL, real[PATH_MAX], interp[PATH_MAX], name[NAME_MAX + 1];
	char found[PATH_MAX];
	const char *base;
	bool known = true;

	/* a program that cannot be found, or is relative, is its own (its start says the rest) */
	if (bot_resolve(spec, &resolved) < 0 || resolved[0] != '/' || !realpath(resolved, real)) {
		free(resolved);
		return true;
	}
	free(resolved);
	for (int level = 0; level < MAX_SCRIPTS && script_interpreter(real, interp, name); level++)
		if (!realpath(name[0] && in_path(path, name, found) ? found : interp, real))
			return true;
	base = strrchr(real, '/') + 1;
	if (under_system(real) && !is_python(base) && !is_java(real) && !is_node(base)) {
		known = false;
		snprintf(why, why_size, "bot \"%s\" runs %s, which may run any program: what it "
			 "needs cannot be derived; name it in \"system\"",
			 spec->name ? spec->name : spec->argv[0], real);
	}
	return known;
}

/* One bot's needs: its program, and the arguments that name system files. */
static int bot(struct needs *n, const struct bot_spec *spec)
{
	char *resolved = NULL, *abs = NULL, *dir, real[PATH_MAX];
	int ret;

	if (bot_resolve(spec, &resolved) < 0)
		return 0;
	if (resolved[0] == '/') {
		abs = resolved;
	} else {
		/* relative to its working directory, as after its chdir */
		dir = realpath(spec->cwd ? spec->cwd : ".", NULL);
		ret = dir ? asprintf(&abs, "%s/%s", dir, resolved) : -1;
		free(dir);
		if (ret < 0) {
			free(resolved);
			return 0;
		}
	}
	ret = program(n, abs, 0);
	if (ret < 0) {
		char fault[512];

		snprintf(fault, sizeof fault, "%s", n->why);
		snprintf(n->why, n->why_size, "bot \"%s\": %s (rebuild it, or fix its command)",
			 spec->name ? spec->name : spec->argv[0], fault);
	}
	for (size_t i = 1; ret == 0 && spec->argv[i]; i++)
		if (spec->argv[i][0] == '/' && access(spec->argv[i], F_OK) == 0)
			need(n, spec->argv[i], real);
	if (abs != resolved)
		free(abs);
	free(resolved);
	return ret;
}

/* Beside a libc, the index of iconv's modules, which glibc opens at a locale's start. */
static void gconv(struct needs *n, const char *libc)
{
	static const char *const names[] = { "gconv-modules", "gconv-modules.cache",
					     "gconv-modules.d", NULL };
	size_t len = strlen(libc);
	char path[PATH_MAX], real[PATH_MAX];

	if (len < 10 || strcmp(libc + len - 10, "/libc.so.6") != 0)
		return;
	for (size_t i = 0; names[i]; i++)
		if (snprintf(path, sizeof path, "%.*s/gconv/%s", (int)(len - 10), libc, names[i]) <
			    (int)sizeof path && access(path, F_OK) == 0)
			need(n, path, real);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, every path under another one dropped: a directory comes before what it holds. */
static void tidy(struct strlist *out)
{
	size_t kept = 0;

	if (!out->n)
		return;
	qsort(out->v, out->n, sizeof *out->v, by_name);
	for (size_t i = 0; i < out->n; i++) {
		if (kept && sandbox_view_covers(out->v[kept - 1], out->v[i])) {
			free(out->v[i]);
			continue;
		}
		out->v[kept++] = out->v[i];
	}
	out->n = kept;
	out->v[kept] = NULL;
}

int system_needs_derive(const struct bot_spec *bots, size_t nbots, const char *path,
			struct strlist *out, char *why, size_t why_size)
{
	struct needs n = { .path = path, .out = out, .why = why, .why_size = why_size };
	char real[PATH_MAX];
	int ret = 0;

	why[0] = '\0';
	elf_cache_read(LD_SO_CACHE, &n.cache);
	/* every bot's: the system's settings, the launcher's stand-in, the C.UTF-8 locale */
	need(&n, "/etc", real);
	need(&n, "/etc/localtime", real);
	if (access("/usr/lib/locale/C.utf8", F_OK) == 0)
		need(&n, "/usr/lib/locale/C.utf8", real);
	ret = program(&n, "/bin/sh", 0);
	/* the sandbox's probe, also before each use of hosts (sandbox.c) */
	if (ret == 0 && in_path(path, "true", real))
		ret = program(&n, real, 0);
	for (size_t i = 0; ret == 0 && i < nbots; i++)
		ret = bot(&n, &bots[i]);
	for (size_t i = 0; ret == 0 && i < out->n; i++)
		gconv(&n, out->v[i]);
	if (ret == 0 && (ret = out->error) == 0)
		tidy(out);
	elf_cache_release(&n.cache);
	strlist_free(&n.elves);
	return ret;
}
