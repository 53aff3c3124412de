/*
 * sandbox_view.c - the file system a sandboxed bot sees (contract in
 * sandbox_view.h).
 *
 * bwrap applies its mount options in order. The root is its own tmpfs; the
 * system directories, /proc, /dev and the scratch tmpfs come first, then the
 * bot's own files and the paths hidden again inside them, by depth, so that
 * a deeper path always lands on what a shallower one made; the root is made
 * read-only last, once every mount point in it exists.
 */
#include "sandbox_view.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "sandbox_start.h"

const char *const sandbox_view_system_dirs[] = {
	"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL,
};

/* Files of /proc emptied (sandbox_start.h). */
static const char *const proc_masked[] = SANDBOX_PROC_MASKED;

/* ---- paths ---- */

static size_t depth(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == '/' && path[1];
	return d;
}

bool sandbox_view_covers(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (strcmp(a, "/") == 0)
		return true;
	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/');
}

static bool covered_by_any(const struct strlist *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (sandbox_view_covers(l->v[i], path))
			return true;
	return false;
}

static bool holds_any(const char *dir, const struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (sandbox_view_covers(dir, l->v[i]))
			return true;
	return false;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The canonical form of path (relative to cwd when not absolute); NULL if it does not exist. */
static char *canonical(const char *path, const char *cwd)
{
	char joined[PATH_MAX];

	if (path[0] != '/' && cwd) {
		if (snprintf(joined, sizeof joined, "%s/%s", cwd, path) >= (int)sizeof joined)
			return NULL;
		path = joined;
	}
	return realpath(path, NULL);
}

/*
 * The canonical form of a path that may not exist yet (an output directory
 * made after the sandbox is opened): its deepest existing ancestor made
 * canonical, with the rest appended. NULL without memory or such ancestor.
 */
static char *canonical_to_be(const char *path)
{
	char *real = canonical(path, NULL), *parent, *slash, *out = NULL;

	if (real || errno != ENOENT)
		return real;
	if (!(parent = strdup(path)))
		return NULL;
	slash = strrchr(parent, '/');
	if (slash && slash != parent && slash[1]) {
		*slash = '\0';
		if ((real = canonical_to_be(parent)) &&
		    asprintf(&out, "%s/%s", strcmp(real, "/") ? real : "", slash + 1) < 0)
			out = NULL;
		free(real);
	} else if (!slash) {
		char *cwd = getcwd(NULL, 0);

		if (cwd && asprintf(&out, "%s/%s", cwd, path) < 0)
			out = NULL;
		free(cwd);
	}
	free(parent);
	return out;
}

/* ---- the view ---- */

bool sandbox_view_system(const struct sandbox_view *v, const char *path)
{
	return covered_by_any(&v->system, path) || covered_by_any(&v->links, path) ||
	       covered_by_any(&v->targets, path);
}

/* Does a system directory lie under path? */
static bool holds_system(const struct sandbox_view *v, const char *path)
{
	for (size_t i = 0; i < v->system.n; i++)
		if (sandbox_view_covers(path, v->system.v[i]))
			return true;
	return false;
}

static void find_system(struct sandbox_view *v, const char *const *system, size_t nsystem)
{
	for (size_t i = 0; system && i < nsystem; i++)
		strlist_add(&v->system, system[i]);
	for (size_t i = 0; sandbox_view_system_dirs[i]; i++) {
		char target[PATH_MAX];
		ssize_t n = readlink(sandbox_view_system_dirs[i], target, sizeof target - 1);
		char *real;

		if (n > 0) {
			target[n] = '\0';
			if ((real = realpath(sandbox_view_system_dirs[i], NULL)) &&
			    (covered_by_any(&v->system, real) || holds_system(v, real))) {
				strlist_add(&v->links, sandbox_view_system_dirs[i]);
				strlist_add(&v->targets, target);
			}
			free(real);
		} else if (!system && is_dir(sandbox_view_system_dirs[i])) {
			strlist_add(&v->system, sandbox_view_system_dirs[i]);
		}
	}
}

static void find_homes(struct sandbox_view *v)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	strlist_add(&v->homes, "/root");
	strlist_add(&v->homes, "/home");
	if (home && home[0] == '/' && depth(home) > 0)
		strlist_add_unique(&v->homes, home);
	setpwent();
	while ((pw = getpwent()))
		if (pw->pw_uid >= 1000 && pw->pw_dir[0] == '/' && depth(pw->pw_dir) > 0 &&
		    !sandbox_view_system(v, pw->pw_dir))
			strlist_add_unique(&v->homes, pw->pw_dir);
	endpwent();
}

/* The arena's PATH, less the directories a bot does not see. */
static int filter_path(struct sandbox_view *v, const char *path)
{
	size_t len = strlen("PATH="), cap = len + strlen(path) + 1;
	char *out = malloc(cap);

	if (!out)
		return -ENOMEM;
	memcpy(out, "PATH=", len + 1);
	while (*path) {
		size_t n = strcspn(path, ":");
		char dir[PATH_MAX];

		snprintf(dir, sizeof dir, "%.*s", (int)n, path);
		if (n && dir[0] == '/' && sandbox_view_system(v, dir)) {
			len += (size_t)snprintf(out + len, cap - len, "%s%s", out[5] ? ":" : "", dir);
		}
		path += n + (path[n] == ':');
	}
	if (!out[5])
		snprintf(out + 5, cap - 5, "%s", "/usr/bin");
	v->path_env = out;
	return 0;
}

int sandbox_view_init(struct sandbox_view *v, const char *path, const char *const *hide,
		      size_t nhide, const char *const *system, size_t nsystem)
{
	int ret;

	memset(v, 0, sizeof *v);
	find_system(v, system, nsystem);
	find_homes(v);
	for (size_t i = 0; i < nhide; i++) {
		char *real = hide[i] ? canonical_to_be(hide[i]) : NULL;

		if (real)
			strlist_add_unique(&v->hide, real);
		free(real);
	}
	if ((ret = filter_path(v, path)) < 0)
		return ret;
	return v->system.error ? v->system.error : v->links.error ? v->links.error :
	       v->targets.error ? v->targets.error : v->homes.error ? v->homes.error :
	       v->hide.error;
}

void sandbox_view_release(struct sandbox_view *v)
{
	strlist_free(&v->system);
	strlist_free(&v->links);
	strlist_free(&v->targets);
	strlist_free(&v->hide);
	strlist_free(&v->homes);
	strlist_free(&v->others);
	strlist_free(&v->cwds);
	free(v->path_env);
	v->path_env = NULL;
}

int sandbox_view_add_cwd(struct sandbox_view *v, const struct bot_spec *spec)
{
	char *cwd = spec->cwd ? canonical(spec->cwd, NULL) : NULL;

	if (cwd)
		strlist_add(&v->cwds, cwd);
	free(cwd);
	return v->cwds.error;
}

/* How many bots' working directories dir holds (its own among them). */
static size_t cwds_in(const struct sandbox_view *v, const char *dir)
{
	size_t n = 0;

	for (size_t i = 0; i < v->cwds.n; i++)
		n += sandbox_view_covers(dir, v->cwds.v[i]);
	return n;
}

/* A directory a bot whose working directory is cwd may see whole: sandbox_view.h. */
static bool own_dir(const struct sandbox_view *v, const char *dir, const char *cwd)
{
	size_t others = cwds_in(v, dir);

	if (others && cwd && sandbox_view_covers(dir, cwd))
		others--;
	return depth(dir) >= 2 && !sandbox_view_system(v, dir) && !holds_any(dir, &v->hide) &&
	       !holds_any(dir, &v->homes) && !covered_by_any(&v->hide, dir) && others == 0;
}

/* Add path (canonical) to own unless every bot sees it anyway or it is hidden. */
static void add_own(const struct sandbox_view *v, struct strlist *own, const char *path)
{
	if (!sandbox_view_system(v, path) && !covered_by_any(&v->hide, path))
		strlist_add_unique(own, path);
}

/* The interpreter on program's #! line, if it names one by an absolute path. */
static char *interpreter(const char *program)
{
	char line[PATH_MAX + 3];
	FILE *f = fopen(program, "re");
	char *out = NULL;

	if (f && fgets(line, sizeof line, f) && line[0] == '#' && line[1] == '!') {
		char *p = line + 2 + strspn(line + 2, " \t");

		p[strcspn(p, " \t\r\n")] = '\0';
		if (p[0] == '/')
			out = realpath(p, NULL);
	}
	if (f)
		fclose(f);
	return out;
}

/*
 * The folder of each file in files (canonical) that is not under a system
 * directory: the folders of the program and of its scripts, into folders.
 */
static void bot_folders(const struct sandbox_view *v, const struct strlist *files,
			struct strlist *folders)
{
	for (size_t i = 0; i < files->n; i++) {
		char dir[PATH_MAX], *slash;

		if (is_dir(files->v[i]) || sandbox_view_system(v, files->v[i]) ||
		    snprintf(dir, sizeof dir, "%s", files->v[i]) >= (int)sizeof dir ||
		    !(slash = strrchr(dir, '/')) || slash == dir)
			continue;
		*slash = '\0';
		strlist_add_unique(folders, dir);
	}
}

/*
 * The files of spec that are its code: its program and its script, the first
 * argument that names a file (a later one is data, maybe another bot's).
 */
static void bot_files(const struct bot_spec *spec, const char *prog, const char *cwd,
		      struct strlist *files)
{
	bool script = false;

	if (prog)
		strlist_add(files, prog);
	for (size_t i = 1; spec->argv[i] && !script; i++) {
		char *p = canonical(spec->argv[i], cwd);

		if ((script = p && !is_dir(p)))
			strlist_add(files, p);
		free(p);
	}
}

/* The extension of path's last component ("py" of "bots/a/bot.py"), or "". */
static const char *extension(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot && dot != base ? dot + 1 : "";
}

/*
 * The name of a file in dir, other than the bot's code (files, canonical) and
 * the other bots' own files (hidden from it anyway), that is a program too: a
 * regular file with an execute bit, or one with the extension of one of files
 * ("py", "js"). A folder where an organiser put every entrant is no bot's own
 * when some of them are out of the tournament. Into name[size]; false when
 * there is none.
 */
static bool other_program(const struct sandbox_view *v, const char *dir,
			  const struct strlist *files, char *name, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
		    lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || strlist_has(files, path) ||
		    strlist_has(&v->others, path))
			continue;
		found = (st.st_mode & 0111) != 0;
		for (size_t i = 0; i < files->n && !found; i++)
			found = extension(path)[0] && strcmp(extension(path), extension(files->v[i])) == 0;
		if (found)
			snprintf(name, size, "%s", e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* The folders of spec's program and scripts that are of its own, into own. */
static void add_folders(const struct sandbox_view *v, const struct bot_spec *spec,
			const char *prog, const char *cwd, struct strlist *own)
{
	struct strlist files = { 0 }, folders = { 0 };

	bot_files(spec, prog, cwd, &files);
	bot_folders(v, &files, &folders);
	for (size_t i = 0; i < folders.n; i++) {
		char other[256];

		if (own_dir(v, folders.v[i], spec->cwd ? cwd : NULL) &&
		    !other_program(v, folders.v[i], &files, other, sizeof other))
			add_own(v, own, folders.v[i]);
	}
	if (files.error || folders.error)
		own->error = files.error ? files.error : folders.error;
	strlist_free(&files);
	strlist_free(&folders);
}

int sandbox_view_own(const struct sandbox_view *v, const struct bot_spec *spec,
		     const char *program, struct strlist *own, char **cwd_out, char **prog_out)
{
	char *cwd = spec->cwd ? canonical(spec->cwd, NULL) : getcwd(NULL, 0);
	char *prog = canonical(program, cwd), *interp = prog ? interpreter(prog) : NULL;

	if (prog)
		add_own(v, own, prog);
	if (interp)
		add_own(v, own, interp);
	for (size_t i = 1; spec->argv[i]; i++) {
		char *p = canonical(spec->argv[i], cwd);

		if (p && (!is_dir(p) || own_dir(v, p, spec->cwd ? cwd : NULL)))
			add_own(v, own, p);
		free(p);
	}
	/* an inherited working directory (play, check) is never the bot's own */
	if (spec->cwd && cwd && own_dir(v, cwd, cwd))
		add_own(v, own, cwd);
	add_folders(v, spec, prog, cwd, own);
	free(interp);
	*cwd_out = cwd;
	if (prog_out)
		*prog_out = prog;
	else
		free(prog);
	return own->error;
}

/* ---- files a bot cannot see ---- */

/* Why dir, a folder of a bot's program or script (files: its code), is not shown
 * (own_dir's rules, other_program), in buf[size]; NULL when it is. */
static const char *not_own_because(const struct sandbox_view *v, const char *dir,
				   const char *cwd, const struct strlist *files, char *buf,
				   size_t size)
{
	size_t others = cwds_in(v, dir);
	char other[256];

	if (others && cwd && sandbox_view_covers(dir, cwd))
		others--;
	if (depth(dir) < 2)
		return "it is less than two levels deep";
	if (holds_any(dir, &v->hide) || covered_by_any(&v->hide, dir))
		return "it holds the arena's output or tournament file";
	if (holds_any(dir, &v->homes))
		return "it is or holds a home directory";
	if (others)
		return "it holds another bot's working directory";
	if (!other_program(v, dir, files, other, sizeof other))
		return NULL;
	snprintf(buf, size, "it holds other programs, such as %.200s", other);
	return buf;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir a bot with these own files does not see, and would were dir its own. */
static void unseen_names(const struct sandbox_view *v, const char *dir, const struct strlist *own,
			 struct strlist *names)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
			continue;
		if (!covered_by_any(own, path) && !covered_by_any(&v->hide, path) &&
		    !holds_any(path, &v->hide) && !holds_any(path, &v->others) &&
		    !holds_any(path, &v->cwds) && !holds_any(path, &v->homes))
			strlist_add(names, e->d_name);
	}
	if (d)
		closedir(d);
	if (names->n > 1)
		qsort(names->v, names->n, sizeof *names->v, compare_names);
}

/* "a, b, c and 4 more" into buf. */
static void list_names(const struct strlist *names, char *buf, size_t size)
{
	size_t at = 0, shown = names->n < 4 ? names->n : 3;

	buf[0] = '\0';
	for (size_t i = 0; i < shown && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s\"%.80s\"", i ? ", " : "",
				       names->v[i]);
	if (names->n > shown && at < size)
		snprintf(buf + at, size - at, " and %zu more", names->n - shown);
}

int sandbox_view_unseen(const struct sandbox_view *v, const struct bot_spec *spec,
			const char *program, char *why, size_t why_size)
{
	const char *name = spec->name ? spec->name : spec->argv[0];
	struct strlist own = { 0 }, files = { 0 }, folders = { 0 };
	char *cwd = NULL, *prog = NULL;
	int ret = sandbox_view_own(v, spec, program, &own, &cwd, &prog);

	why[0] = '\0';
	if (ret < 0)
		goto out;
	bot_files(spec, prog, cwd, &files);
	bot_folders(v, &files, &folders);
	for (size_t i = 0; i < folders.n && !why[0]; i++) {
		char reason[300];
		const char *because = not_own_because(v, folders.v[i], spec->cwd ? cwd : NULL, &files,
						      reason, sizeof reason);
		struct strlist names = { 0 };
		char list[400];

		if (!because || !is_dir(folders.v[i]))
			continue;
		unseen_names(v, folders.v[i], &own, &names);
		if (names.n) {
			list_names(&names, list, sizeof list);
			snprintf(why, why_size, "bot \"%.128s\": sandboxed, it cannot see %s next "
				 "to its program in %.256s (%s); put the bot and the files it reads "
				 "in a folder of their own, such as bots/%.64s/, or name each file it "
				 "reads as an argument of its command", name, list, folders.v[i],
				 because, name);
		}
		ret = names.error;
		strlist_free(&names);
	}
	if (ret == 0)
		ret = files.error ? files.error : folders.error;
out:
	strlist_free(&own);
	strlist_free(&files);
	strlist_free(&folders);
	free(cwd);
	free(prog);
	return ret < 0 ? ret : why[0] != '\0';
}

/* ---- the mounts ---- */

struct mount_op {
	const char *path;
	bool hide;          /* else shown: the bot's own */
	size_t order;
};

static int compare_ops(const void *a, const void *b)
{
	const struct mount_op *x = a, *y = b;
	size_t dx = depth(x->path), dy = depth(y->path);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Is path strictly inside a directory of own? */
static bool inside_own_dir(const struct strlist *own, const char *path)
{
	for (size_t i = 0; i < own->n; i++)
		if (strcmp(own->v[i], path) != 0 && sandbox_view_covers(own->v[i], path) && is_dir(own->v[i]))
			return true;
	return false;
}

static void add_mask(const struct strlist *own, const char *path, struct mount_op *ops,
		     size_t *n)
{
	if (!strlist_has(own, path) && inside_own_dir(own, path) && access(path, F_OK) == 0) {
		ops[*n] = (struct mount_op){ path, true, *n };
		++*n;
	}
}

static void own_mounts(const struct sandbox_view *v, const struct strlist *own, const char *cwd,
		       bool cwd_writable, struct strlist *argv)
{
	size_t cap = own->n + v->hide.n + v->others.n + 1, n = 0;
	struct mount_op *ops = calloc(cap ? cap : 1, sizeof *ops);

	if (!ops) {
		argv->error = -ENOMEM;
		return;
	}
	for (; n < own->n; n++)
		ops[n] = (struct mount_op){ own->v[n], false, n };
	for (size_t i = 0; i < v->hide.n; i++)
		add_mask(own, v->hide.v[i], ops, &n);
	for (size_t i = 0; i < v->others.n; i++)
		add_mask(own, v->others.v[i], ops, &n);
	/* a working directory not its own: an empty read-only tmpfs, its own files bound into it */
	if (cwd && depth(cwd) > 0 && strcmp(cwd, "/tmp") && strcmp(cwd, "/dev/shm") &&
	    !sandbox_view_covers("/proc", cwd) && !sandbox_view_covers("/dev", cwd) &&
	    !sandbox_view_system(v, cwd) && !covered_by_any(own, cwd) && is_dir(cwd)) {
		ops[n] = (struct mount_op){ cwd, true, n };
		n++;
	}
	qsort(ops, n, sizeof *ops, compare_ops);
	for (size_t i = 0; i < n; i++) {
		const char *p = ops[i].path;

		if (!ops[i].hide) {
			bool writable = cwd_writable && cwd && strcmp(p, cwd) == 0;
			char copy[PATH_MAX];

			strlist_add(argv, writable ? "--bind" : "--ro-bind");
			/* sealed: from the copy in memory, which keeps no names not found */
			if (!writable && v->copy && (size_t)snprintf(copy, sizeof copy, "%s%s",
								    v->copy, p) < sizeof copy &&
			    access(copy, F_OK) == 0)
				strlist_add(argv, copy);
			else
				strlist_add(argv, p);
		} else if (is_dir(p)) {
			strlist_add(argv, "--tmpfs");
		} else {
			strlist_add(argv, "--ro-bind");
			strlist_add(argv, "/dev/null");
		}
		strlist_add(argv, p);
	}
	for (size_t i = 0; i < n; i++) {
		if (ops[i].hide && is_dir(ops[i].path)) {
			strlist_add(argv, "--remount-ro");
			strlist_add(argv, ops[i].path);
		}
	}
	free(ops);
}

void sandbox_view_mounts(const struct sandbox_view *v, const struct strlist *own,
			 const char *cwd, bool cwd_writable, bool host, struct strlist *argv)
{
	char size[32];

	snprintf(size, sizeof size, "%llu", (unsigned long long)SANDBOX_SCRATCH_MB << 20);
	for (size_t i = 0; i < v->system.n; i++) {
		char copy[PATH_MAX];

		/* a copy of what the bots need may hold no /sbin, say: no mount point then */
		strlist_add(argv, v->copy ? "--ro-bind-try" : "--ro-bind");
		if (v->copy && (size_t)snprintf(copy, sizeof copy, "%s%s", v->copy,
						v->system.v[i]) < sizeof copy)
			strlist_add(argv, copy);
		else
			strlist_add(argv, v->system.v[i]);
		strlist_add(argv, v->system.v[i]);
	}
	for (size_t i = 0; i < v->links.n; i++) {
		strlist_add(argv, "--symlink");
		strlist_add(argv, v->targets.v[i]);
		strlist_add(argv, v->links.v[i]);
	}
	strlist_add(argv, "--proc");
	strlist_add(argv, "/proc");
	for (size_t i = 0; !host && i < sizeof proc_masked / sizeof proc_masked[0]; i++) {
		if (access(proc_masked[i], F_OK) == 0) {
			strlist_add(argv, "--ro-bind");
			strlist_add(argv, "/dev/null");
			strlist_add(argv, proc_masked[i]);
		}
	}
	strlist_add(argv, "--dev");
	strlist_add(argv, "/dev");
	strlist_add(argv, "--size");
	strlist_add(argv, size);
	strlist_add(argv, "--tmpfs");
	strlist_add(argv, "/dev/shm");
	strlist_add(argv, "--ro-bind");
	strlist_add(argv, "/dev/null");
	strlist_add(argv, "/dev/tty");
	/* /dev itself is a tmpfs of bwrap's without a size: no files there */
	strlist_add(argv, "--remount-ro");
	strlist_add(argv, "/dev");
	strlist_add(argv, "--size");
	strlist_add(argv, size);
	strlist_add(argv, "--tmpfs");
	strlist_add(argv, "/tmp");
	own_mounts(v, own, cwd, cwd_writable, argv);
	strlist_add(argv, "--remount-ro");
	strlist_add(argv, "/");
}
