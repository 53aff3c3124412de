/*
 * sandbox.c - bot processes under bubblewrap (contract in sandbox.h).
 *
 * bwrap is a small, widely used program (the sandbox under Flatpak) that
 * does what a hand-written clone()/unshare() start would do, with years of
 * review behind its handling of mounts and user namespaces. The arena's
 * child drops to the sandbox's uid (as root), enters the cgroups, and
 * executes bwrap, which makes the namespaces and the mounts and runs the bot
 * under its own pid-1 init. bwrap writes the init's pid (in the arena's PID
 * namespace) to --info-fd: killing that init kills the whole namespace.
 *
 * The file system is built from mounts applied in order of depth: a
 * directory hidden by a tmpfs can still show a deeper directory of the bot's
 * own (bound back read-only), and a directory the arena hides inside the
 * bot's own (the output directory inside its working directory) is hidden
 * again after that.
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bot.h"

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"
#define STR_(x) #x
#define STR(x) STR_(x)
#define MAX_SLOTS 65536
#define PROBE_MS 10000

struct sandbox {
	char *bwrap;
	char **hide;            /* canonical paths hidden from every bot */
	size_t nhide;
	char **bot_dirs;        /* canonical directories of every bot, hidden from the others */
	size_t nbot_dirs;
	char **path_dirs;       /* canonical PATH directories: never hidden */
	size_t npath_dirs;
	char *path_env, *lang_env;
	bool root;
	bool has_run, has_var_tmp;
	struct cgroups *cg;
	pthread_mutex_t lock;   /* slots, next_leaf */
	unsigned char *slots;   /* 1: the uid SANDBOX_UID_BASE + index is in use */
	unsigned next_leaf;
	char desc[192];
};

int sandbox_mode_parse(const char *text, enum sandbox_mode *out)
{
	static const char *const names[] = { "auto", "on", "off" };

	for (int i = 0; i < 3; i++) {
		if (strcmp(text, names[i]) == 0) {
			*out = (enum sandbox_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sandbox_mode_name(enum sandbox_mode mode)
{
	return mode == SANDBOX_ON ? "on" : mode == SANDBOX_OFF ? "off" : "auto";
}

const char *sandbox_describe(const struct sandbox *sb)
{
	return sb->desc;
}

/* ---- paths ---- */

static size_t depth(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == '/' && path[1];
	return d;
}

/* Is a equal to b, or a directory above it? */
static bool covers(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (strcmp(a, "/") == 0)
		return true;
	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/');
}

static int list_add(char ***list, size_t *n, const char *path)
{
	char **grown;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], path) == 0)
			return 0;
	grown = reallocarray(*list, *n + 1, sizeof **list);
	if (!grown)
		return -ENOMEM;
	*list = grown;
	if (!(grown[*n] = strdup(path)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void list_free(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
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

/* A bot's directories: its working directory, and its program's if named by a path. */
static int bot_dirs(const struct bot_spec *spec, char ***list, size_t *n)
{
	char *cwd = spec->cwd ? canonical(spec->cwd, NULL) : getcwd(NULL, 0);
	char *prog = strchr(spec->argv[0], '/') ? canonical(spec->argv[0], cwd) : NULL;
	int ret = 0;

	if (cwd)
		ret = list_add(list, n, cwd);
	if (ret == 0 && prog) {
		*strrchr(prog, '/') = '\0';
		ret = list_add(list, n, prog[0] ? prog : "/");
	}
	free(cwd);
	free(prog);
	return ret;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* ---- the mounts of one start ---- */

enum mount_kind {
	MOUNT_SCRATCH,      /* a private writable tmpfs */
	MOUNT_HIDE_OTHER,   /* another bot's directory: an empty read-only tmpfs */
	MOUNT_SHOW,         /* the bot's own directory, bound back read-only */
	MOUNT_HIDE,         /* hidden from every bot: empty tmpfs, or /dev/null over a file */
};

struct mount_op {
	const char *path;
	enum mount_kind kind;
	size_t depth, order;
};

static int compare_ops(const void *a, const void *b)
{
	const struct mount_op *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct argv_builder {
	char **v;
	size_t n, cap;
	int error;
};

static void arg(struct argv_builder *a, const char *text)
{
	if (a->error)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		char **grown = reallocarray(a->v, cap, sizeof *grown);

		if (!grown) {
			a->error = -ENOMEM;
			return;
		}
		a->v = grown;
		a->cap = cap;
	}
	if (!(a->v[a->n] = strdup(text))) {
		a->error = -ENOMEM;
		return;
	}
	a->v[++a->n] = NULL;
}

static void args2(struct argv_builder *a, const char *x, const char *y)
{
	arg(a, x);
	arg(a, y);
}

/*
 * Another bot's directory is hidden unless that would hide the system from
 * this one: "/" and the directories right under it (/etc, /usr, ...), and any
 * directory holding a directory of PATH.
 */
static bool hideable(const struct sandbox *sb, const char *dir)
{
	if (depth(dir) < 2)
		return false;
	for (size_t i = 0; i < sb->npath_dirs; i++)
		if (covers(dir, sb->path_dirs[i]))
			return false;
	return true;
}

static bool is_scratch(const char *path)
{
	return strcmp(path, "/tmp") == 0 || strcmp(path, "/dev") == 0 ||
	       strcmp(path, "/dev/shm") == 0 || strcmp(path, "/proc") == 0;
}

/* The mounts for a bot whose own directories are own[0..nown), sorted. */
static int plan_mounts(const struct sandbox *sb, char **own, size_t nown, struct mount_op **out,
		       size_t *nout)
{
	size_t cap = 3 + sb->nhide + sb->nbot_dirs + nown, n = 0;
	struct mount_op *ops = calloc(cap, sizeof *ops);

	if (!ops)
		return -ENOMEM;
	ops[n++] = (struct mount_op){ "/tmp", MOUNT_SCRATCH, 0, 0 };
	if (sb->has_run)
		ops[n++] = (struct mount_op){ "/run", MOUNT_HIDE, 0, 0 };
	if (sb->has_var_tmp)
		ops[n++] = (struct mount_op){ "/var/tmp", MOUNT_HIDE, 0, 0 };
	for (size_t i = 0; i < sb->nhide; i++)
		if (exists(sb->hide[i]))
			ops[n++] = (struct mount_op){ sb->hide[i], MOUNT_HIDE, 0, 0 };
	for (size_t i = 0; i < sb->nbot_dirs; i++) {
		bool mine = false;

		for (size_t j = 0; j < nown && !mine; j++)
			mine = strcmp(sb->bot_dirs[i], own[j]) == 0;
		if (!mine && hideable(sb, sb->bot_dirs[i]))
			ops[n++] = (struct mount_op){ sb->bot_dirs[i], MOUNT_HIDE_OTHER, 0, 0 };
	}
	/* Its own directories are bound back only where a shallower mount hides them. */
	for (size_t j = 0; j < nown; j++) {
		bool hidden = false;

		if (is_scratch(own[j]))
			continue;
		for (size_t i = 0; i < n && !hidden; i++)
			hidden = ops[i].kind != MOUNT_SHOW && depth(ops[i].path) < depth(own[j]) &&
				 covers(ops[i].path, own[j]);
		if (hidden)
			ops[n++] = (struct mount_op){ own[j], MOUNT_SHOW, 0, 0 };
	}
	for (size_t i = 0; i < n; i++) {
		ops[i].depth = depth(ops[i].path);
		ops[i].order = i;
	}
	qsort(ops, n, sizeof *ops, compare_ops);
	*out = ops;
	*nout = n;
	return 0;
}

static void mount_args(struct argv_builder *a, const struct mount_op *ops, size_t n)
{
	char size[32];

	snprintf(size, sizeof size, "%llu", (unsigned long long)SANDBOX_SCRATCH_MB << 20);
	for (size_t i = 0; i < n; i++) {
		const char *p = ops[i].path;

		switch (ops[i].kind) {
		case MOUNT_SCRATCH:
			args2(a, "--size", size);
			args2(a, "--tmpfs", p);
			break;
		case MOUNT_SHOW:
			args2(a, "--ro-bind", p);
			arg(a, p);
			break;
		case MOUNT_HIDE_OTHER:
		case MOUNT_HIDE:
			if (is_dir(p)) {
				args2(a, "--tmpfs", p);
			} else {
				args2(a, "--ro-bind", "/dev/null");
				arg(a, p);
			}
			break;
		}
	}
	/* Read-only once every mount point inside them has been made. */
	for (size_t i = 0; i < n; i++)
		if (ops[i].kind == MOUNT_HIDE_OTHER || (ops[i].kind == MOUNT_HIDE && is_dir(ops[i].path)))
			args2(a, "--remount-ro", ops[i].path);
}

/* ---- environment ---- */

static size_t key_len(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static int build_env(const struct sandbox *sb, char *const *extra, char ***out)
{
	const char *fixed[] = { sb->path_env, "HOME=/tmp", "TMPDIR=/tmp", sb->lang_env };
	size_t nextra = 0, n = 0;
	char **envp;

	while (extra && extra[nextra])
		nextra++;
	if (!(envp = calloc(4 + nextra + 1, sizeof *envp)))
		return -ENOMEM;
	for (size_t i = 0; i < 4; i++) {
		bool replaced = false;

		for (size_t j = 0; j < nextra && !replaced; j++)
			replaced = key_len(extra[j]) == key_len(fixed[i]) &&
				   strncmp(extra[j], fixed[i], key_len(fixed[i])) == 0;
		if (!replaced)
			envp[n++] = (char *)fixed[i];
	}
	for (size_t j = 0; j < nextra; j++)
		envp[n++] = extra[j];
	*out = envp;
	return 0;
}

/* ---- one start ---- */

static int take_slot(struct sandbox *sb)
{
	int slot = -1;

	pthread_mutex_lock(&sb->lock);
	for (int i = 0; i < MAX_SLOTS && slot < 0; i++) {
		if (!sb->slots[i]) {
			sb->slots[i] = 1;
			slot = i;
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return slot;
}

int sandbox_start_prepare(struct sandbox *sb, const struct bot_spec *spec, const char *path,
			  int info_fd, struct sandbox_start *st, char *why, size_t why_size)
{
	const char *name = spec->name ? spec->name : spec->argv[0];
	struct argv_builder a = { 0 };
	struct mount_op *ops = NULL;
	char **own = NULL, *cwd = NULL, fd_text[16];
	size_t nown = 0, nops = 0;
	int ret;

	memset(st, 0, sizeof *st);
	st->slot = -1;
	st->info_fd = info_fd;
	st->bwrap = sb->bwrap;
	if ((ret = bot_dirs(spec, &own, &nown)) < 0 || (ret = plan_mounts(sb, own, nown, &ops, &nops)) < 0 ||
	    (ret = build_env(sb, spec->env, &st->envp)) < 0)
		goto out;
	if (sb->root) {
		if ((st->slot = take_slot(sb)) < 0) {
			snprintf(why, why_size, "bot \"%s\": all %d sandbox uids are in use", name,
				 MAX_SLOTS);
			ret = -EAGAIN;
			goto out;
		}
		st->drop = true;
		st->uid = (uid_t)(SANDBOX_UID_BASE + (unsigned)st->slot);
		st->gid = (gid_t)st->uid;
	}
	if (sb->cg) {
		struct cgroup_limits l = { spec->limits.processes, spec->limits.memory_mb };
		unsigned id;

		/* bwrap's own two processes (its launcher and the namespace's init) are in the tree too */
		if (l.processes > 0)
			l.processes += 2;
		pthread_mutex_lock(&sb->lock);
		id = sb->next_leaf++;
		pthread_mutex_unlock(&sb->lock);
		if ((ret = cgroup_leaf_make(sb->cg, id, &l, &st->leaf)) < 0) {
			snprintf(why, why_size, "bot \"%s\": cannot make its cgroup: %s", name,
				 strerror(-ret));
			goto out;
		}
	}
	cwd = spec->cwd ? canonical(spec->cwd, NULL) : getcwd(NULL, 0);
	arg(&a, sb->bwrap);
	arg(&a, "--unshare-all");
	arg(&a, "--unshare-user");
	arg(&a, "--disable-userns");
	arg(&a, "--die-with-parent");
	args2(&a, "--cap-drop", "ALL");
	args2(&a, "--ro-bind", "/");
	arg(&a, "/");
	args2(&a, "--proc", "/proc");
	args2(&a, "--dev", "/dev");
	mount_args(&a, ops, nops);
	{
		char size[32];

		snprintf(size, sizeof size, "%llu", (unsigned long long)SANDBOX_SCRATCH_MB << 20);
		args2(&a, "--size", size);
		args2(&a, "--tmpfs", "/dev/shm");
		args2(&a, "--ro-bind", "/dev/null");
		arg(&a, "/dev/tty");
		/* /dev itself is a tmpfs of bwrap's without a size: no files there */
		args2(&a, "--remount-ro", "/dev");
	}
	if (cwd)
		args2(&a, "--chdir", cwd);
	snprintf(fd_text, sizeof fd_text, "%d", SANDBOX_INFO_FD);
	args2(&a, "--info-fd", fd_text);
	arg(&a, "--");
	/* sandbox.h: the pipes to 0 and 1, then the bot as $0 with its arguments, unquoted */
	args2(&a, "/bin/sh", "-c");
	arg(&a, "exec 0<&" STR(SANDBOX_STDIN_FD) " 1>&" STR(SANDBOX_STDOUT_FD) " "
	    STR(SANDBOX_STDIN_FD) "<&- " STR(SANDBOX_STDOUT_FD) ">&- && exec \"$0\" \"$@\"");
	arg(&a, path);
	for (size_t i = 1; spec->argv[i]; i++)
		arg(&a, spec->argv[i]);
	if ((ret = a.error) < 0)
		goto out;
	st->argv = a.v;
	a.v = NULL;
out:
	if (ret == -ENOMEM && why_size && !why[0])
		snprintf(why, why_size, "bot \"%s\": out of memory", name);
	if (a.v) {
		for (size_t i = 0; i < a.n; i++)
			free(a.v[i]);
		free(a.v);
	}
	list_free(own, nown);
	free(ops);
	free(cwd);
	if (ret < 0)
		sandbox_start_release(sb, st);
	return ret;
}

int sandbox_start_enter(const struct sandbox_start *st)
{
	int ret = cgroup_leaf_enter(&st->leaf);

	if (ret < 0 || !st->drop)
		return ret;
	/* Raw system calls: glibc's wrappers would try to change every thread of
	 * the parent, which the child of a fork does not have. */
	if (syscall(SYS_setgroups, 0, NULL) < 0 ||
	    syscall(SYS_setresgid, st->gid, st->gid, st->gid) < 0 ||
	    syscall(SYS_setresuid, st->uid, st->uid, st->uid) < 0)
		return -errno;
	return 0;
}

void sandbox_start_release(struct sandbox *sb, struct sandbox_start *st)
{
	if (st->leaf.n)
		cgroup_leaf_remove(&st->leaf, 1000);
	if (st->slot >= 0) {
		pthread_mutex_lock(&sb->lock);
		sb->slots[st->slot] = 0;
		pthread_mutex_unlock(&sb->lock);
		st->slot = -1;
	}
	for (size_t i = 0; st->argv && st->argv[i]; i++)
		free(st->argv[i]);
	free(st->argv);
	free(st->envp);
	st->argv = NULL;
	st->envp = NULL;
}

/* ---- opening ---- */

/* bwrap from PATH; NULL if there is none. */
static char *find_bwrap(const char *path)
{
	while (*path) {
		size_t len = strcspn(path, ":");
		char *cand;

		if (len && asprintf(&cand, "%.*s/bwrap", (int)len, path) >= 0) {
			if (access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
		path += len + (path[len] == ':');
	}
	return NULL;
}

/*
 * As root: can the sandbox's uid reach every bot's program and working
 * directory? Checked in a child that drops to that uid. 0, or -EACCES with
 * the sentence in why.
 */
static int check_access(const struct sandbox_setup *setup, char *why, size_t why_size)
{
	struct { int bot, what, err; } fail = { -1, 0, 0 };
	char **paths = calloc(setup->nbots * 2 + 1, sizeof *paths);
	int fds[2];
	pid_t pid;
	ssize_t n;

	if (!paths || pipe2(fds, O_CLOEXEC) < 0) {
		free(paths);
		return -errno;
	}
	for (size_t i = 0; i < setup->nbots; i++) {
		const struct bot_spec *b = &setup->bots[i];

		paths[2 * i] = strchr(b->argv[0], '/') ? canonical(b->argv[0], b->cwd) : NULL;
		paths[2 * i + 1] = b->cwd ? strdup(b->cwd) : NULL;
	}
	pid = fork();
	if (pid == 0) {
		uid_t uid = SANDBOX_UID_BASE;

		close(fds[0]);
		if (syscall(SYS_setgroups, 0, NULL) < 0 || syscall(SYS_setresgid, uid, uid, uid) < 0 ||
		    syscall(SYS_setresuid, uid, uid, uid) < 0) {
			fail.err = errno;
			n = write(fds[1], &fail, sizeof fail);
			_exit(1);
		}
		for (size_t i = 0; i < setup->nbots * 2; i++) {
			if (paths[i] && access(paths[i], X_OK) < 0) {
				fail.bot = (int)(i / 2);
				fail.what = (int)(i % 2);
				fail.err = errno;
				n = write(fds[1], &fail, sizeof fail);
				_exit(1);
			}
		}
		_exit(0);
	}
	close(fds[1]);
	n = pid < 0 ? -1 : read(fds[0], &fail, sizeof fail);
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, __WALL);
	if (n == (ssize_t)sizeof fail) {
		if (fail.bot < 0)
			snprintf(why, why_size, "cannot change to uid %u: %s", SANDBOX_UID_BASE,
				 strerror(fail.err));
		else
			snprintf(why, why_size, "bot \"%s\": its %s \"%s\" is out of reach of the "
				 "sandbox's uids (%u and up): %s; make the bots' files readable by "
				 "every user, or run the arena as an ordinary user",
				 setup->bots[fail.bot].name ? setup->bots[fail.bot].name :
				 setup->bots[fail.bot].argv[0],
				 fail.what ? "working directory" : "program",
				 paths[2 * fail.bot + fail.what], SANDBOX_UID_BASE, strerror(fail.err));
	}
	for (size_t i = 0; i < setup->nbots * 2; i++)
		free(paths[i]);
	free(paths);
	return n == (ssize_t)sizeof fail ? -EACCES : 0;
}

/* Run `true` in the sandbox: 0, or -ENOTSUP with bwrap's complaint in why. */
static int probe(struct sandbox *sb, char *why, size_t why_size)
{
	char log[] = "/tmp/skipbo-arena-probe.XXXXXX", start_why[512] = "", *argv[] = { "true", NULL };
	struct bot_spec spec = { 0 };
	struct bot *b = NULL;
	int fd = mkstemp(log), status = -1, ret;

	if (fd < 0) {
		snprintf(why, why_size, "cannot make a file in /tmp: %s", strerror(errno));
		return -ENOTSUP;
	}
	close(fd);
	spec.name = "sandbox check";
	spec.argv = argv;
	spec.cwd = "/";
	spec.stderr_path = log;
	spec.stderr_cap = 4096;
	spec.cpu = -1;
	spec.sandbox = sb;
	ret = bot_start(&spec, &b, start_why, sizeof start_why);
	if (ret == 0) {
		int64_t end = clock_now_us() + (int64_t)PROBE_MS * 1000;
		struct timespec pause = { 0, 1000000 };

		while (!bot_exited(b, &status) && clock_now_us() < end)
			nanosleep(&pause, NULL);
		bot_stop(b, 0);
	}
	if (ret < 0 || status != 0) {
		char *text = NULL;
		FILE *f = fopen(log, "re");
		size_t cap = 0;
		ssize_t n = f ? getline(&text, &cap, f) : -1;

		if (n > 0 && text[n - 1] == '\n')
			text[n - 1] = '\0';
		snprintf(why, why_size, "%s", ret < 0 ? start_why : n > 0 ? text :
			 "bwrap failed without a word");
		free(text);
		if (f)
			fclose(f);
		ret = -ENOTSUP;
	}
	unlink(log);
	return ret;
}

static int collect_paths(struct sandbox *sb, const struct sandbox_setup *setup)
{
	const char *path = getenv("PATH"), *lang = getenv("LANG");
	int ret = 0;

	if (!path || !*path)
		path = DEFAULT_PATH;
	if (asprintf(&sb->path_env, "PATH=%s", path) < 0 ||
	    asprintf(&sb->lang_env, "LANG=%s", lang && *lang ? lang : "C.UTF-8") < 0)
		return -ENOMEM;
	while (*path && ret == 0) {
		size_t len = strcspn(path, ":");
		char dir[PATH_MAX], *real;

		snprintf(dir, sizeof dir, "%.*s", (int)len, path);
		if (len && (real = realpath(dir, NULL))) {
			ret = list_add(&sb->path_dirs, &sb->npath_dirs, real);
			free(real);
		}
		path += len + (path[len] == ':');
	}
	for (size_t i = 0; i < setup->nhide && ret == 0; i++) {
		char *real = setup->hide[i] ? canonical_to_be(setup->hide[i]) : NULL;

		if (real)
			ret = list_add(&sb->hide, &sb->nhide, real);
		free(real);
	}
	for (size_t i = 0; i < setup->nbots && ret == 0; i++)
		ret = bot_dirs(&setup->bots[i], &sb->bot_dirs, &sb->nbot_dirs);
	sb->has_run = is_dir("/run");
	sb->has_var_tmp = is_dir("/var/tmp");
	return ret;
}

static const char *how_to_enable(int err)
{
	return err == ENOENT ? "install bubblewrap (apt-get install bubblewrap)" :
	       "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 "
	       "and user.max_user_namespaces > 0)";
}

int sandbox_open(const struct sandbox_setup *setup, struct sandbox **out, char *note,
		 size_t note_size)
{
	struct sandbox *sb = NULL;
	char why[600] = "", cg_why[400] = "";
	int ret, missing = 0;

	*out = NULL;
	note[0] = '\0';
	if (setup->mode == SANDBOX_OFF)
		return 0;
	if (!(sb = calloc(1, sizeof *sb)) || !(sb->slots = calloc(MAX_SLOTS, 1))) {
		free(sb);
		return -ENOMEM;
	}
	pthread_mutex_init(&sb->lock, NULL);
	sb->root = geteuid() == 0;
	if ((ret = collect_paths(sb, setup)) < 0)
		goto out;
	ret = -ENOTSUP;
	if (!(sb->bwrap = find_bwrap(sb->path_env + strlen("PATH=")))) {
		snprintf(why, sizeof why, "bwrap not found in PATH");
		missing = ENOENT;
		goto out;
	}
	if (sb->root && check_access(setup, why, sizeof why) < 0)
		goto out;
	if (probe(sb, why, sizeof why) < 0) {
		missing = EPERM;
		goto out;
	}
	ret = cgroup_open(&sb->cg, cg_why, sizeof cg_why);
	if (ret == -ENOMEM)
		goto out;
	if (ret < 0)
		snprintf(note, note_size, "sandbox on without cgroups (%s): a bot's processes "
			 "count against RLIMIT_NPROC %s, its memory per process (RLIMIT_AS); to "
			 "limit each process tree, %s", cg_why, sb->root ? "of its sandbox's uid" :
			 "of the user, with every other bot's", sb->root ?
			 "make the cgroup hierarchies writable" : "run the arena as root, or alone in "
			 "a delegated cgroup v2 (systemd-run --user --scope -p Delegate=yes ...)");
	snprintf(sb->desc, sizeof sb->desc, "bwrap%s%s", sb->cg ? ", " : ", no cgroups",
		 sb->cg ? cgroup_describe(sb->cg) : "");
	*out = sb;
	sb = NULL;
	ret = 0;
out:
	if (ret == -ENOTSUP) {
		snprintf(note, note_size, "%s: %s%s%s", setup->mode == SANDBOX_ON ?
			 "no sandbox" : "sandbox off, bots run unsandboxed", why,
			 missing ? "; to enable it, " : "", missing ? how_to_enable(missing) : "");
		if (setup->mode == SANDBOX_AUTO)
			ret = 0;
	}
	sandbox_close(sb);
	return ret;
}

void sandbox_close(struct sandbox *sb)
{
	if (!sb)
		return;
	cgroup_close(sb->cg);
	free(sb->bwrap);
	list_free(sb->hide, sb->nhide);
	list_free(sb->bot_dirs, sb->nbot_dirs);
	list_free(sb->path_dirs, sb->npath_dirs);
	free(sb->path_env);
	free(sb->lang_env);
	free(sb->slots);
	pthread_mutex_destroy(&sb->lock);
	free(sb);
}
