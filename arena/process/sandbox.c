/*
 * sandbox.c - deciding whether bots run sandboxed, and checking before the
 * first game that each one can (contract in sandbox.h). Each process start
 * is sandbox_start.c's; what a bot sees, sandbox_view.c's.
 *
 * bwrap is a small, widely used program (the sandbox under Flatpak) that
 * does what a hand-written clone()/unshare() start would do, with years of
 * review behind its handling of mounts and user namespaces. The arena's
 * child drops to the sandbox's uid (as root), enters the cgroups, and
 * executes bwrap, which makes the namespaces and the mounts and runs the bot
 * under its own pid-1 init. bwrap writes the init's pid (in the arena's PID
 * namespace) to --info-fd: killing that init kills the whole namespace.
 *
 * The checks fail closed: a bot that cannot run in the sandbox is refused
 * with its name, the path and the fix; the tournament never goes on
 * without the sandbox because of one bot.
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "bot_internal.h"
#include "cache_drop.h"
#include "launcher.h"
#include "sandbox_host.h"
#include "sandbox_internal.h"
#include "seccomp_filter.h"
#include "system_needs.h"

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"
#define PROBE_MS 10000

int sandbox_mode_parse(const char *text, enum sandbox_mode *out)
{
	static const char *const names[] = { "auto", "on", "off", "sealed" };

	for (int i = 0; i < 4; i++) {
		if (strcmp(text, names[i]) == 0) {
			*out = (enum sandbox_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sandbox_mode_name(enum sandbox_mode mode)
{
	return mode == SANDBOX_ON ? "on" : mode == SANDBOX_OFF ? "off" :
	       mode == SANDBOX_SEALED ? "sealed" : "auto";
}

enum sandbox_mode sandbox_mode_of(const struct sandbox *sb)
{
	return sb->pin ? SANDBOX_SEALED : SANDBOX_ON;
}

const char *sandbox_cache_warning(const struct sandbox *sb)
{
	/* sealed, every file a bot sees is cached and its names served from tmpfs: nothing to drop */
	if (!sb || sb->drop_caches || sb->pin)
		return NULL;
	return "the kernel's page cache is not dropped between rotation phases (only root "
	       "can): a bot's process of one rotation of a deal can leave marks there that its "
	       "process of the next reads; for bots nobody trusts run as root, or with "
	       "\"duplicate\": false (SECURITY.md)";
}

const char *sandbox_describe(const struct sandbox *sb)
{
	return sb->desc;
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

/* ---- the checks of each bot ---- */

/* What a bot must reach as the sandbox's uid: its program, own files, working directory. */
struct reach {
	struct strlist paths;
	int modes[64];
};

static void reach_add(struct reach *r, const char *path, int mode)
{
	if (r->paths.n < sizeof r->modes / sizeof r->modes[0]) {
		r->modes[r->paths.n] = mode;
		strlist_add(&r->paths, path);
	}
}

/*
 * As root: can the sandbox's uid reach every path of r? Checked in a child
 * that drops to that uid. 0, or -EACCES with *bad the index that failed
 * (-1: the uid could not be taken) and *err its errno.
 */
static int check_reach(const struct reach *r, int *bad, int *err)
{
	struct { int bad, err; } fail = { -1, 0 };
	int fds[2];
	pid_t pid;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		uid_t uid = SANDBOX_UID_BASE;

		close(fds[0]);
		if (syscall(SYS_setgroups, 0, NULL) < 0 || syscall(SYS_setresgid, uid, uid, uid) < 0 ||
		    syscall(SYS_setresuid, uid, uid, uid) < 0)
			fail.err = errno;
		for (size_t i = 0; fail.err == 0 && i < r->paths.n; i++) {
			if (access(r->paths.v[i], r->modes[i]) < 0) {
				fail.bad = (int)i;
				fail.err = errno;
			}
		}
		n = fail.err ? write(fds[1], &fail, sizeof fail) : 0;
		_exit(n < 0);
	}
	close(fds[1]);
	n = pid < 0 ? -1 : read(fds[0], &fail, sizeof fail);
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, __WALL);
	*bad = fail.bad;
	*err = fail.err;
	return n == (ssize_t)sizeof fail ? -EACCES : 0;
}

/* Is name a program in one of the directories of a PATH= string? The path into out. */
static bool in_path(const char *path_env, const char *name, char *out, size_t size)
{
	const char *p = path_env + strlen("PATH=");

	while (*p) {
		size_t len = strcspn(p, ":");

		if (len && snprintf(out, size, "%.*s/%s", (int)len, p, name) < (int)size &&
		    access(out, X_OK) == 0)
			return true;
		p += len + (p[len] == ':');
	}
	return false;
}

/* The NAME of a "#!/usr/bin/env NAME" line of program, into name; false if none. */
static bool env_interpreter(const char *program, char *name, size_t size)
{
	char line[PATH_MAX + 3], *p, *word;
	FILE *f = fopen(program, "re");
	bool found = false;

	if (f && fgets(line, sizeof line, f) && strncmp(line, "#!", 2) == 0) {
		p = line + 2 + strspn(line + 2, " \t");
		word = p + strcspn(p, " \t\r\n");
		if (word - p >= 4 && strncmp(word - 4, "/env", 4) == 0) {
			word += strspn(word, " \t");
			if (strncmp(word, "-S", 2) == 0)
				word += 2 + strspn(word + 2, " \t");
			word[strcspn(word, " \t\r\n")] = '\0';
			found = word[0] && !strchr(word, '/') &&
				snprintf(name, size, "%s", word) < (int)size;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* The program a bot names, and its interpreter: what a sandboxed bot can find. */
static int check_program(struct sandbox *sb, const struct bot_spec *spec, const char *name,
			 const char *path, char *why, size_t why_size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char found[PATH_MAX], interp[NAME_MAX + 1];

	if (!strchr(spec->argv[0], '/') && !sandbox_view_system(&sb->view, path)) {
		bool alt = in_path(sb->view.path_env, base, found, sizeof found);

		snprintf(why, why_size, "bot \"%.128s\": \"%.128s\" is \"%.256s\" in PATH, outside the "
			 "directories a sandboxed bot sees (/usr, /etc, /bin, /lib and its own "
			 "files); name %.256s%s in its command instead", name, spec->argv[0], path,
			 alt ? found : "a program under /usr", alt ? " (not a shim or a link under "
			 "a home directory)" : "");
		return -EACCES;
	}
	if (env_interpreter(path, interp, sizeof interp) &&
	    !in_path(sb->view.path_env, interp, found, sizeof found)) {
		snprintf(why, why_size, "bot \"%s\": \"%s\" starts with \"#!/usr/bin/env %s\", and "
			 "no %s is in the PATH a sandboxed bot sees (%s); install it under /usr, "
			 "or name its interpreter by its path in the bot's command", name, path,
			 interp, interp, sb->view.path_env + strlen("PATH="));
		return -EACCES;
	}
	return 0;
}

/* The sentence for a path the sandbox's uids cannot reach, with the fix. */
static void unreachable(const struct sandbox *sb, const char *name, const char *path, int err,
			char *why, size_t why_size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char alt[PATH_MAX], instead[PATH_MAX + 128] = "";

	if (in_path(sb->view.path_env, base, alt, sizeof alt))
		snprintf(instead, sizeof instead, ", name %.256s instead (not a shim under a home "
			 "directory)", alt);
	snprintf(why, why_size, "bot \"%.128s\": \"%.256s\" is out of reach of the sandbox's uids "
		 "(%u and up): %s; make it readable by every user (chmod o+rx on it and every "
		 "directory above it)%s, or run the arena as an ordinary user", name, path,
		 SANDBOX_UID_BASE, strerror(err), instead);
}

/*
 * Can spec run in the sandbox? Its own files go into the view's list of
 * files hidden from the other bots. 0, or -EACCES with the sentence in why.
 */
static int check_bot(struct sandbox *sb, const struct bot_spec *spec, char *why, size_t why_size)
{
	const char *name = spec->name ? spec->name : spec->argv[0];
	struct reach r = { 0 };
	struct strlist own = { 0 };
	char *path = NULL, *cwd = NULL, *prog = NULL;
	int ret, bad = -1, err = 0;

	/* a program that is not there is the bot's start fault, not the sandbox's */
	if (bot_resolve(spec, &path) < 0)
		return 0;
	if ((ret = sandbox_view_own(&sb->view, spec, path, &own, &cwd, &prog)) < 0 || !prog ||
	    (ret = check_program(sb, spec, name, prog, why, why_size)) < 0)
		goto out;
	for (size_t i = 0; i < own.n; i++)
		strlist_add_unique(&sb->view.others, own.v[i]);
	if ((ret = sb->view.others.error) < 0 || !sb->root)
		goto out;
	reach_add(&r, prog, X_OK);
	for (size_t i = 0; i < own.n; i++) {
		struct stat st;

		reach_add(&r, own.v[i], stat(own.v[i], &st) == 0 && S_ISDIR(st.st_mode) ?
			  R_OK | X_OK : R_OK);
	}
	if ((ret = r.paths.error) < 0 || (ret = check_reach(&r, &bad, &err)) == 0)
		goto out;
	if (bad < 0)
		snprintf(why, why_size, "cannot change to uid %u: %s", SANDBOX_UID_BASE,
			 strerror(err));
	else
		unreachable(sb, name, r.paths.v[bad], err, why, why_size);
out:
	strlist_free(&r.paths);
	strlist_free(&own);
	free(path);
	free(cwd);
	free(prog);
	return ret;
}

/* The sentence of each bot that cannot see files next to it, once every bot's own are known. */
static int note_unseen(struct sandbox *sb, const struct sandbox_setup *setup)
{
	for (size_t i = 0; i < setup->nbots; i++) {
		char *path = NULL, why[1024];
		int ret = 0;

		if (bot_resolve(&setup->bots[i], &path) == 0)
			ret = sandbox_view_unseen(&sb->view, &setup->bots[i], path, why, sizeof why);
		free(path);
		if (ret < 0)
			return ret;
		if (ret > 0)
			strlist_add(&sb->unseen, why);
	}
	return sb->unseen.error;
}

const char *sandbox_unseen(const struct sandbox *sb, size_t i)
{
	return sb && i < sb->unseen.n ? sb->unseen.v[i] : NULL;
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

/*
 * The probe with the launcher (launcher.h), and where it fails, with
 * /bin/sh instead: 0, or -ENOTSUP with bwrap's complaint in why.
 */
static int probe_launchers(struct sandbox *sb, char *why, size_t why_size)
{
	if ((sb->launcher_fd = launcher_open()) >= 0) {
		if (probe(sb, why, why_size) == 0)
			return 0;
		close(sb->launcher_fd);
		sb->launcher_fd = -1;
	}
	return probe(sb, why, why_size);
}

static const char *how_to_enable(int err)
{
	return err == ENOENT ? "install bubblewrap (apt-get install bubblewrap)" :
	       "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 "
	       "and user.max_user_namespaces > 0)";
}

/* The sandbox's parts that do not depend on bwrap working. */
static int prepare(struct sandbox *sb, const struct sandbox_setup *setup, const char **path)
{
	const char *lang = getenv("LANG");
	int ret;

	*path = getenv("PATH") && *getenv("PATH") ? getenv("PATH") : DEFAULT_PATH;
	sb->root = geteuid() == 0;
	sb->uid_base = (uid_t)(SANDBOX_UID_BASE +
			       (unsigned)getpid() % SANDBOX_UID_BLOCKS * SANDBOX_UID_BLOCK_SIZE);
	if (asprintf(&sb->lang_env, "LANG=%s", lang && *lang ? lang : "C.UTF-8") < 0)
		return -ENOMEM;
	if ((ret = sandbox_view_init(&sb->view, *path, setup->hide, setup->nhide,
					    setup->system, setup->nsystem)) < 0 ||
	    (ret = seccomp_filter_build(&sb->bpf, &sb->bpf_len)) < 0)
		return ret;
	return guard_start(&sb->guard);
}

/*
 * Sealed: the system directories, or without "system" only the files the
 * bots' programs need (system_needs.h), and the bots' own files copied to
 * memory (system_copy.h), which keeps no names looked up and not found, and
 * bound from there; every file of the copy kept cached and mapped. Between
 * phases only the names are dropped
 * (cache_drop_names): a whole drop would empty the directories' blocks the
 * walk cached, which a bot could then mark by listing one, and reading them
 * again takes seconds for a large /usr.
 */
static int seal(struct sandbox *sb, const struct sandbox_setup *setup, char *why,
		size_t why_size)
{
	struct strlist roots = { 0 };
	int64_t t0 = clock_now_us();
	int ret;

	/* auto seals only where that can be known: a shell script may run anything */
	for (size_t i = 0; setup->mode == SANDBOX_AUTO && !setup->system && i < setup->nbots; i++)
		if (!system_needs_known(&setup->bots[i], sb->view.path_env + strlen("PATH="), why,
					why_size))
			return -ENOTSUP;
	/* no "system": only what the bots' programs need (system_needs.h) */
	if (!setup->system && (ret = system_needs_derive(setup->bots, setup->nbots,
							  sb->view.path_env + strlen("PATH="),
							  &roots, why, why_size)) < 0) {
		strlist_free(&roots);
		return ret;
	}
	for (size_t i = 0; setup->system && i < sb->view.system.n; i++)
		strlist_add(&roots, sb->view.system.v[i]);
	/* the bots' own files too: a folder two entries share keeps no names either */
	for (size_t i = 0; i < sb->view.others.n; i++)
		strlist_add(&roots, sb->view.others.v[i]);
	ret = roots.error ? roots.error : system_copy_make(&roots, &sb->view.hide, !setup->system,
							    &sb->copy, why, why_size);
	strlist_free(&roots);
	if (ret < 0)
		return ret;
	sb->derived = !setup->system;
	sb->seal_s = (double)(clock_now_us() - t0) / 1e6;
	sb->view.copy = system_copy_dir(sb->copy);
	strlist_add(&roots, sb->view.copy);
	if ((ret = roots.error) == 0)
		ret = cache_pin_start(&roots, &sb->view.hide, &sb->pin, why, why_size);
	strlist_free(&roots);
	return ret;
}

/* What a seal() that failed left, gone: the sandbox is on. */
static void unseal(struct sandbox *sb)
{
	cache_pin_stop(sb->pin);
	sb->pin = NULL;
	system_copy_remove(sb->copy);
	sb->copy = NULL;
	sb->view.copy = NULL;
	sb->derived = false;
}

static void note_unsealed(const char *why, char *note, size_t note_size)
{
	snprintf(note, note_size, "sandbox on, not sealed (%s): the bots of one table can pass "
		 "each other cards through the kernel's caches within a game%s (SECURITY.md, "
		 "\"Sealed by default\")", why, cache_drop_available() ? "" :
		 ", and a bot's process of one rotation of a deal can leave marks there that its "
		 "process of the next reads");
}

/* What a phase's bots left in the kernel's caches, dropped (cache_drop.h). */
static int drop(const struct sandbox *sb)
{
	return sb->pin ? cache_drop_names() : cache_drop();
}

static void describe(struct sandbox *sb)
{
	char pinned[240] = "";

	if (sb->pin)
		snprintf(pinned, sizeof pinned, ", sealed: %zu files (%.1f MB: %s and the bots' "
			 "own) copied to memory in %.2f s, %zu files (%.1f GB) kept cached%s",
			 system_copy_stats(sb->copy)->files,
			 (double)system_copy_stats(sb->copy)->bytes / 1e6,
			 sb->derived ? "what the bots' programs need" : "the \"system\" directories",
			 sb->seal_s,
			 cache_pin_stats(sb->pin)->files,
			 (double)cache_pin_stats(sb->pin)->bytes / 1e9,
			 cache_pin_stats(sb->pin)->locked ? " and locked" : "");
	snprintf(sb->desc, sizeof sb->desc, "bwrap, seccomp%s%s%s%s", sb->cg ? ", " : ", no cgroups",
		 sb->cg ? cgroup_describe(sb->cg) : "",
		 !sb->drop_caches ? "" : sb->pin ? ", names dropped between phases" :
		 ", the page cache dropped between phases", pinned);
}

static void note_without_cgroups(const struct sandbox *sb, const char *cg_why, char *note,
				 size_t note_size)
{
	snprintf(note, note_size, "sandbox on without cgroups (%s): a bot's processes count "
		 "against RLIMIT_NPROC of its sandbox, its memory per process (RLIMIT_AS); to "
		 "limit each process tree's memory, %s", cg_why, sb->root ?
		 "make the cgroup hierarchies writable" : "run the arena as root, or alone in "
		 "a delegated cgroup v2 (systemd-run --user --scope -p Delegate=yes ...)");
}

int sandbox_open(const struct sandbox_setup *setup, struct sandbox **out, char *note,
		 size_t note_size)
{
	struct sandbox *sb = NULL;
	char why[2048] = "", cg_why[400] = "", unsealed[2600] = "";
	const char *path;
	int ret, missing = 0;
	bool sealing = false;

	*out = NULL;
	note[0] = '\0';
	if (setup->mode == SANDBOX_OFF)
		return 0;
	if (!(sb = calloc(1, sizeof *sb)) || !(sb->slots = calloc(SANDBOX_MAX_SLOTS, 1))) {
		free(sb);
		return -ENOMEM;
	}
	pthread_mutex_init(&sb->lock, NULL);
	sb->launcher_fd = -1;
	if ((ret = prepare(sb, setup, &path)) < 0)
		goto out;
	ret = -ENOTSUP;
	if (!(sb->bwrap = find_bwrap(path))) {
		snprintf(why, sizeof why, "bwrap not found in PATH");
		missing = ENOENT;
		goto out;
	}
	if (probe_launchers(sb, why, sizeof why) < 0) {
		missing = EPERM;
		goto out;
	}
	/* the sandbox works: from here on a bot it cannot run is refused, never run without it */
	for (size_t i = 0; i < setup->nbots; i++)
		if ((ret = sandbox_view_add_cwd(&sb->view, &setup->bots[i])) < 0)
			goto out;
	for (size_t i = 0; i < setup->nbots; i++)
		if ((ret = check_bot(sb, &setup->bots[i], why, sizeof why)) < 0)
			goto out;
	if ((ret = note_unseen(sb, setup)) < 0)
		goto out;
	if (setup->mode == SANDBOX_SEALED && (ret = seal(sb, setup, why, sizeof why)) < 0) {
		sealing = true;
		goto out;
	}
	/* auto seals every field: the processes of one table must never talk (SECURITY.md) */
	if (setup->mode == SANDBOX_AUTO && (ret = seal(sb, setup, why, sizeof why)) < 0) {
		if (ret != -E2BIG && ret != -ENOTSUP && ret != -ENOSPC) {
			sealing = true;
			goto out;
		}
		unseal(sb);
		note_unsealed(why, unsealed, sizeof unsealed);
	}
	ret = cgroup_open(&sb->cg, cg_why, sizeof cg_why);
	if (ret == -ENOMEM)
		goto out;
	if (ret < 0)
		note_without_cgroups(sb, cg_why, note, note_size);
	if (unsealed[0])
		snprintf(note + strlen(note), note_size - strlen(note), "%s%s", note[0] ? "; " : "",
			 unsealed);
	/* what an earlier run's bots left (a resumed game's rotations among them) goes too */
	sb->drop_caches = cache_drop_available() && drop(sb) == 0;
	describe(sb);
	*out = sb;
	sb = NULL;
	ret = 0;
out:
	if (ret == -ENOTSUP) {
		snprintf(note, note_size, "%s: %s%s%s", setup->mode != SANDBOX_AUTO ?
			 "no sandbox" : "sandbox off, bots run unsandboxed", why,
			 missing ? "; to enable it, " : "", missing ? how_to_enable(missing) : "");
		if (setup->mode == SANDBOX_AUTO)
			ret = 0;
	} else if (ret == -EACCES || (sealing && ret != -ENOMEM)) {
		snprintf(note, note_size, "sandbox: %s", why);
	} else if (ret < 0 && ret != -ENOMEM) {
		snprintf(note, note_size, "sandbox: cannot prepare it: %s", strerror(-ret));
	}
	sandbox_close(sb);
	return ret;
}

/* Stop every idle host (that served a game, with served_only). */
static void stop_idle_hosts(struct sandbox *sb, bool served_only)
{
	struct bot **hosts = NULL, *host;
	size_t n = 0, cap = 0;

	/* all killed first, then each waited for: their namespaces end side by side */
	while (sb && (host = sandbox_host_take_idle(sb, served_only))) {
		if (n == cap) {
			struct bot **more = realloc(hosts, (cap = cap ? 2 * cap : 16) * sizeof *more);

			if (!more) {
				bot_stop(host, 0);
				continue;
			}
			hosts = more;
		}
		bot_kill_sandbox(host);
		hosts[n++] = host;
	}
	for (size_t i = 0; i < n; i++)
		bot_stop(hosts[i], 0);
	free(hosts);
}

/* Hosts off: their starters closed (what they were starting done), then every host stopped. */
static void hosts_off(struct sandbox *sb)
{
	struct bot_hosts *starter = sb->starter;

	bot_hosts_close(starter);
	sb->starter = NULL;
	stop_idle_hosts(sb, false);
}

int sandbox_use_hosts(struct sandbox *sb, bool on)
{
	char why[512];
	int ret;

	if (!on || sb->launcher_fd < 0) {
		hosts_off(sb);
		return on ? -ENOTSUP : 0;
	}
	if (sb->starter)
		return 0;
	if ((ret = bot_hosts_open(&sb->starter)) < 0)
		return ret;
	if (probe(sb, why, sizeof why) < 0) {
		hosts_off(sb);
		return -ENOTSUP;
	}
	sandbox_stop_hosts(sb);
	return 0;
}

void sandbox_start_hosts_ahead(struct sandbox *sb)
{
	if (sb && sb->starter)
		bot_hosts_ahead(sb);
}

void sandbox_end_phase(struct sandbox *sb)
{
	stop_idle_hosts(sb, true);
	/* no bot runs: what this phase's left in the page cache and dentries goes */
	if (sb && sb->drop_caches)
		drop(sb);
}

void sandbox_stop_hosts(struct sandbox *sb)
{
	if (sb)
		bot_hosts_wait(sb->starter);
	stop_idle_hosts(sb, false);
}

void sandbox_close(struct sandbox *sb)
{
	if (!sb)
		return;
	hosts_off(sb);
	cache_pin_stop(sb->pin);
	system_copy_remove(sb->copy);
	free(sb->hosts);
	cgroup_close(sb->cg);
	guard_stop(sb->guard);
	if (sb->launcher_fd >= 0)
		close(sb->launcher_fd);
	free(sb->bwrap);
	sandbox_view_release(&sb->view);
	strlist_free(&sb->unseen);
	free(sb->bpf);
	free(sb->lang_env);
	free(sb->slots);
	pthread_mutex_destroy(&sb->lock);
	free(sb);
}
