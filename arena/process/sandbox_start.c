/*
 * sandbox_start.c - one bot process start under bubblewrap (contract in
 * sandbox_start.h).
 *
 * The parent plans everything: the bot's own files and the mounts
 * (sandbox_view.h), bwrap's options written to a memfd, the filter to
 * another, the environment, a uid slot and a cgroup leaf. The child only
 * makes system calls (sandbox_start_enter).
 */
#include "sandbox_start.h"

#include <errno.h>
#include <linux/keyctl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bot.h"
#include "sandbox_internal.h"

/* an arena's slots are its block of uids */
_Static_assert(SANDBOX_MAX_SLOTS == SANDBOX_UID_BLOCK_SIZE, "SANDBOX_MAX_SLOTS");

#define SANDBOX_KEYRING "skipbo-arena-bots"
#define STR_(x) #x
#define STR(x) STR_(x)

static size_t key_len(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq ? (size_t)(eq - kv) : strlen(kv);
}

/* PATH, HOME, TMPDIR and LANG, unless the bot's own env gives them, then its env. */
static int build_env(const struct sandbox *sb, char *const *extra, char ***out)
{
	const char *fixed[] = { sb->view.path_env, "HOME=/tmp", "TMPDIR=/tmp", sb->lang_env };
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

static int take_slot(struct sandbox *sb)
{
	int slot = -1;

	pthread_mutex_lock(&sb->lock);
	for (int i = 0; i < SANDBOX_MAX_SLOTS && slot < 0; i++) {
		if (!sb->slots[i]) {
			sb->slots[i] = 1;
			slot = i;
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return slot;
}

/* A memfd holding data[0..len), read from its start: the fd, or -errno. */
static int memfd_with(const char *name, const void *data, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t w = write(fd, (const char *)data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -EIO;
		}
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* bwrap's options, NUL-separated, in a memfd (--args). */
static int options_fd(const struct strlist *opts)
{
	size_t len = 0, at = 0;
	char *data;
	int fd;

	for (size_t i = 0; i < opts->n; i++)
		len += strlen(opts->v[i]) + 1;
	if (!(data = malloc(len ? len : 1)))
		return -ENOMEM;
	for (size_t i = 0; i < opts->n; i++) {
		size_t k = strlen(opts->v[i]) + 1;

		memcpy(data + at, opts->v[i], k);
		at += k;
	}
	fd = memfd_with("skipbo-bwrap-args", data, len);
	free(data);
	return fd;
}

static void add2(struct strlist *l, const char *a, const char *b)
{
	strlist_add(l, a);
	strlist_add(l, b);
}

/* Everything but the command: the namespaces, the file system, the descriptors. */
static int plan_options(struct sandbox *sb, const struct bot_spec *spec, const char *path,
			bool host, struct strlist *opts, char **program)
{
	struct strlist own = { 0 };
	char *cwd = NULL;
	int ret = sandbox_view_own(&sb->view, spec, path, &own, &cwd, program);

	if (ret < 0)
		goto out;
	strlist_add(opts, "--unshare-all");
	strlist_add(opts, "--unshare-user");
	strlist_add(opts, "--disable-userns");
	strlist_add(opts, "--die-with-parent");
	add2(opts, "--cap-drop", "ALL");
	add2(opts, "--uid", SANDBOX_INNER_ID);
	add2(opts, "--gid", SANDBOX_INNER_ID);
	add2(opts, "--hostname", SANDBOX_HOSTNAME);
	/* a host makes each game's namespaces, and drops it for the bot (launcher.h) */
	if (host)
		add2(opts, "--cap-add", "CAP_SYS_ADMIN");
	sandbox_view_mounts(&sb->view, &own, cwd, spec->cwd_writable && !host, host, opts);
	if (cwd)
		add2(opts, "--chdir", cwd);
	add2(opts, "--info-fd", STR(SANDBOX_INFO_FD));
	/* a host installs the filter in each game's bot, after its own work */
	if (!host)
		add2(opts, "--seccomp", STR(SANDBOX_SECCOMP_FD));
	/* executed where it is bound: at its canonical path */
	if (!*program && !(*program = strdup(path)))
		ret = -ENOMEM;
	if (ret == 0)
		ret = opts->error;
out:
	strlist_free(&own);
	free(cwd);
	return ret;
}

/*
 * The sandbox's process limit (sandbox_start.h): limits.processes and one
 * for bwrap's init, one more for the launcher, which stays to answer the
 * bot's sysinfo (launcher.h) (three in a host: its init, the host, the
 * game's pid 1), never above the arena's own hard limit, which the sandbox
 * cannot raise; 0 without a limit.
 */
static unsigned long long process_limit(long processes, bool host)
{
	struct rlimit cur;
	rlim_t n = (rlim_t)processes + (host ? 3 : 2);

	if (processes <= 0)
		return 0;
	if (getrlimit(RLIMIT_NPROC, &cur) == 0 && cur.rlim_max != RLIM_INFINITY && n > cur.rlim_max)
		n = cur.rlim_max;
	return (unsigned long long)n;
}

/* bwrap's command line; *at: where the program is in it */
static int plan_command(struct sandbox *sb, const struct bot_spec *spec, const char *program,
			bool host, struct strlist *argv, size_t *at)
{
	unsigned long long nproc = process_limit(spec->limits.processes, host);
	char limit[96], script[256];

	strlist_add(argv, sb->bwrap);
	add2(argv, "--args", STR(SANDBOX_ARGS_FD));
	strlist_add(argv, "--");
	if (sb->launcher_fd >= 0) {
		strlist_add(argv, "/proc/self/fd/" STR(SANDBOX_LAUNCHER_FD));
		/* a host's -p always, ten digits: the options its games blank from their
		 * command line (launcher.h) are then always as long, and tell nothing */
		if (host)
			strlist_add(argv, "-H");
		if (nproc || host) {
			snprintf(limit, sizeof limit, "%010llu", nproc);
			add2(argv, "-p", limit);
		}
	} else {
		/* sandbox_start.h: the process limit (dash names it -p, bash -u), the pipes to
		 * 0 and 1, then the bot as $0 with its arguments, unquoted */
		add2(argv, "/bin/sh", "-c");
		if (nproc)
			snprintf(limit, sizeof limit, "ulimit -p %llu 2>/dev/null || ulimit -u %llu || "
				 "exit 126; ", nproc, nproc);
		snprintf(script, sizeof script, "%sexec 0<&" STR(SANDBOX_STDIN_FD) " 1>&"
			 STR(SANDBOX_STDOUT_FD) " " STR(SANDBOX_STDIN_FD) "<&- "
			 STR(SANDBOX_STDOUT_FD) ">&- && exec \"$0\" \"$@\"", nproc ? limit : "");
		strlist_add(argv, script);
	}
	*at = argv->n;
	strlist_add(argv, program);
	for (size_t i = 1; spec->argv[i]; i++)
		strlist_add(argv, spec->argv[i]);
	return argv->error;
}

static atomic_uint next_leaf;

static int take_leaf(struct sandbox *sb, const struct bot_spec *spec, struct sandbox_start *st)
{
	struct cgroup_limits l = { spec->limits.processes, spec->limits.memory_mb };
	unsigned id;

	/* bwrap's own two processes (its launcher and the namespace's init) are in the tree
	 * too, and the sandbox's launcher (launcher.h), and in a host the host and the
	 * game's pid 1 */
	if (l.processes > 0)
		l.processes += st->kind == SANDBOX_START_HOST ? 4 : 3;
	/* numbered in the process, not the sandbox: every sandbox of a process shares one
	 * cgroup directory (cgroup.h) */
	id = atomic_fetch_add(&next_leaf, 1);
	return cgroup_leaf_make(sb->cg, id, &l, &st->leaf);
}

int sandbox_start_prepare(struct sandbox *sb, const struct bot_spec *spec, const char *path,
			  enum sandbox_start_kind kind, struct sandbox_start *st, char *why,
			  size_t why_size)
{
	const char *name = spec->name ? spec->name : spec->argv[0];
	struct strlist opts = { 0 }, argv = { 0 };
	bool host = kind == SANDBOX_START_HOST;
	char *program = NULL;
	size_t at = 0;
	int ret;

	memset(st, 0, sizeof *st);
	st->kind = kind;
	st->slot = -1;
	st->args_fd = st->seccomp_fd = -1;
	st->launcher_fd = sb->launcher_fd;
	st->bwrap = sb->bwrap;
	st->guard = sb->guard;
	if ((ret = build_env(sb, spec->env, &st->envp)) < 0 ||
	    (ret = plan_options(sb, spec, path, host, &opts, &program)) < 0 ||
	    (ret = plan_command(sb, spec, program, host, &argv, &at)) < 0)
		goto out;
	if ((st->args_fd = options_fd(&opts)) < 0 ||
	    (st->seccomp_fd = memfd_with("skipbo-seccomp", sb->bpf, sb->bpf_len)) < 0) {
		ret = st->args_fd < 0 ? st->args_fd : st->seccomp_fd;
		snprintf(why, why_size, "bot \"%s\": cannot pass bwrap its options: %s", name,
			 strerror(-ret));
		goto out;
	}
	if (sb->root) {
		if ((st->slot = take_slot(sb)) < 0) {
			snprintf(why, why_size, "bot \"%s\": all %d sandbox uids are in use", name,
				 SANDBOX_MAX_SLOTS);
			ret = -EAGAIN;
			goto out;
		}
		st->drop = true;
		st->uid = sb->uid_base + (uid_t)st->slot;
		st->gid = (gid_t)st->uid;
	}
	if (sb->cg && (ret = take_leaf(sb, spec, st)) < 0) {
		snprintf(why, why_size, "bot \"%s\": cannot make its cgroup: %s", name, strerror(-ret));
		goto out;
	}
	st->argv = argv.v;
	st->program = argv.v[at];
	argv = (struct strlist){ 0 };
out:
	if (ret == -ENOMEM && why_size && !why[0])
		snprintf(why, why_size, "bot \"%s\": out of memory", name);
	strlist_free(&opts);
	strlist_free(&argv);
	free(program);
	if (ret < 0)
		sandbox_start_release(sb, st);
	return ret;
}

int sandbox_start_enter(const struct sandbox_start *st)
{
	int ret = cgroup_leaf_enter(&st->leaf);

	if (ret < 0)
		return ret;
	/* Raw system calls: glibc's wrappers would try to change every thread of
	 * the parent, which the child of a fork does not have. */
	if (st->drop && (syscall(SYS_setgroups, 0, NULL) < 0 ||
			 syscall(SYS_setresgid, st->gid, st->gid, st->gid) < 0 ||
			 syscall(SYS_setresuid, st->uid, st->uid, st->uid) < 0))
		return -errno;
	/*
	 * A keyring of its own, owned by its uid: the organiser's session keyring
	 * is out of reach even where the filter would not stop keyctl. Each
	 * counts against the uid's key quota (200 for a user) until the kernel
	 * collects it, which lags behind fast restarts: past the quota, the
	 * uid's one shared keyring, as empty, for no bot can use keyctl.
	 */
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 &&
	    (errno != EDQUOT ||
	     syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, SANDBOX_KEYRING) < 0))
		return -errno;
	return guard_register_self(st->guard);
}

void sandbox_start_killed(const struct sandbox_start *st, pid_t pgid)
{
	guard_forget(st->guard, pgid);
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
	if (st->args_fd >= 0)
		close(st->args_fd);
	if (st->seccomp_fd >= 0)
		close(st->seccomp_fd);
	st->args_fd = st->seccomp_fd = -1;
}
