/*
 * build.c - a submission's build in the sandbox (contract in build.h).
 */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bot.h"
#include "clock.h"
#include "proc_tree.h"
#include "sandbox.h"
#include "tree.h"

#define TICK_US 250000
#define GRACE_MS 0

/* ---- the toolchain ---- */

/* The first line of cmd's output (trailing newline cut) into out, when it exits 0. */
static bool command_line(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "re");
	bool ok;

	if (!p)
		return false;
	ok = fgets(out, (int)size, p) != NULL;
	ok = pclose(p) == 0 && ok;
	out[strcspn(out, "\n")] = '\0';
	return ok && out[0];
}

/* Each -I and -L directory of flags shown to the build. */
static void show_dirs(struct build_toolchain *tc, const char *flags)
{
	char copy[1024], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", flags);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if ((strncmp(w, "-I", 2) == 0 || strncmp(w, "-L", 2) == 0) && w[2] == '/')
			strlist_add_unique(&tc->visible, w + 2);
}

/* The value of key in build/CMakeCache.txt ("KEY:TYPE=value") into out. */
static bool cache_value(const char *build, const char *key, char *out, size_t size)
{
	char path[PATH_MAX], line[PATH_MAX + 128];
	size_t n = strlen(key);
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/CMakeCache.txt", build);
	if (!(fp = fopen(path, "re")))
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		char *eq = strchr(line, '=');

		if (strncmp(line, key, n) == 0 && line[n] == ':' && eq) {
			eq[1 + strcspn(eq + 1, "\n")] = '\0';
			found = snprintf(out, size, "%s", eq + 1) < (int)size;
		}
	}
	fclose(fp);
	return found;
}

/* The libraries of the build tree that holds arena: 0 when found. */
static int from_build_tree(const char *arena, struct build_toolchain *tc)
{
	char real[PATH_MAX], build[PATH_MAX], src[PATH_MAX], lib[2][PATH_MAX], value[16];
	char flags[4 * PATH_MAX + 128];

	if (!realpath(arena, real))
		return -ENOENT;
	/* <build>/arena/skipbo-arena */
	snprintf(build, sizeof(build), "%s", dirname(dirname(real)));
	snprintf(lib[0], sizeof(lib[0]), "%.4000s/protocol/libskipbo_protocol.a", build);
	snprintf(lib[1], sizeof(lib[1]), "%.4000s/engine/libskipbo_engine.a", build);
	if (access(lib[0], R_OK) || access(lib[1], R_OK) ||
	    !cache_value(build, "CMAKE_HOME_DIRECTORY", src, sizeof(src)))
		return -ENOENT;
	snprintf(flags, sizeof(flags), "CFLAGS=-I%.2000s/engine -I%.2000s/protocol", src, src);
	strlist_add(&tc->env, flags);
	/* a sanitized arena's libraries need the sanitizers' runtime in the bot too */
	snprintf(flags, sizeof(flags), "LDLIBS=%s %s -lcjson -lbsd%s", lib[0], lib[1],
		 cache_value(build, "SKIPBO_SANITIZE", value, sizeof(value)) &&
		 strcmp(value, "ON") == 0 ? " -fsanitize=address,undefined" : "");
	strlist_add(&tc->env, flags);
	for (int i = 0; i < 2; i++)
		strlist_add(&tc->visible, lib[i]);
	snprintf(flags, sizeof(flags), "%.2000s/engine", src);
	strlist_add(&tc->visible, flags);
	snprintf(flags, sizeof(flags), "%.2000s/protocol", src);
	strlist_add(&tc->visible, flags);
	return 0;
}

int build_toolchain_find(const char *arena, struct build_toolchain *tc)
{
	static const char *const fixed[] = {
		"PATH=" BUILD_PATH,
		/* Go and Cargo offline, their caches in the build's private /tmp */
		"GOCACHE=/tmp/go-cache", "GOPATH=/tmp/go", "GOFLAGS=-mod=mod", "GOPROXY=off",
		"GOTOOLCHAIN=local", "CARGO_HOME=/tmp/cargo", "CARGO_NET_OFFLINE=true",
		/* javac's JVM inside build_memory_mb's address space (bots/starter/java) */
		"JAVA_TOOL_OPTIONS=-Xmx512m -XX:CompressedClassSpaceSize=64m "
		"-XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC",
	};
	char cflags[1024], libs[1024], var[1100];

	memset(tc, 0, sizeof(*tc));
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		strlist_add(&tc->env, fixed[i]);
	if (command_line("pkg-config --cflags skipbo 2>/dev/null", cflags, sizeof(cflags)) &&
	    command_line("pkg-config --libs skipbo 2>/dev/null", libs, sizeof(libs))) {
		snprintf(var, sizeof(var), "CFLAGS=%s", cflags);
		strlist_add(&tc->env, var);
		snprintf(var, sizeof(var), "LDLIBS=%s", libs);
		strlist_add(&tc->env, var);
		show_dirs(tc, cflags);
		show_dirs(tc, libs);
	} else if (from_build_tree(arena, tc) < 0) {
		snprintf(tc->note, sizeof(tc->note), "the C kit cannot build here: no `pkg-config "
			 "skipbo` (install the project: README.md, \"Installing\") and no build "
			 "tree next to %s", arena);
	}
	return tc->env.error ? tc->env.error : tc->visible.error;
}

void build_toolchain_release(struct build_toolchain *tc)
{
	strlist_free(&tc->env);
	strlist_free(&tc->visible);
}

/* ---- the run ---- */

struct build_log {
	int fd;
	size_t written;
	bool truncated;
};

/* Room kept at the end of the log for the line that says it was cut and the reason. */
#define LOG_RESERVE 2048

/* The build's output, up to BUILD_LOG_MAX - LOG_RESERVE bytes; past it a line saying so. */
static void log_write(struct build_log *lg, const char *text, size_t len)
{
	static const char cut[] = "[build.log truncated: the build wrote more than 1 MiB]\n";

	if (lg->truncated)
		return;
	if (lg->written + len > BUILD_LOG_MAX - LOG_RESERVE) {
		lg->truncated = true;
		text = cut;
		len = sizeof(cut) - 1;
	}
	if (write(lg->fd, text, len) == (ssize_t)len)
		lg->written += len;
}

/* The reason of a failure, the log's last line, in the room kept for it. */
static void log_reason(struct build_log *lg, const char *why)
{
	size_t len = strnlen(why, LOG_RESERVE - 256);

	if (write(lg->fd, why, len) == (ssize_t)len && write(lg->fd, "\n", 1) == 1)
		lg->written += len + 1;
}

static void log_line(struct build_log *lg, const char *line, size_t len)
{
	log_write(lg, line, len);
	log_write(lg, "\n", 1);
}

/* A sentence for an exit status of the build's shell. */
static void exit_why(int status, const struct host_config *c, char *why, size_t size)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	int sig = code > 128 && code < 128 + 65 ? code - 128 : 0;
	const char *hint = sig == SIGXCPU ? ": CPU time past build_cpu_seconds in host.jsonc" :
			   sig == SIGXFSZ ? ": a file past build_disk_mb in host.jsonc" :
			   sig == SIGKILL ? ": killed, at a limit of memory or CPU time" : "";
	char limit[48] = "";

	if (sig == SIGXCPU)
		snprintf(limit, sizeof(limit), " (%d s)", c->build_cpu_seconds);
	if (sig)
		snprintf(why, size, "the build exited with status %d (signal %d, %s%s%s): see "
			 "build.log", code, sig, strsignal(sig), hint, limit);
	else
		snprintf(why, size, "the build exited with status %d: see build.log", code);
}

/* The spec's argv: the shell, the line under the file size limit, the visible files as
 * the shell's own arguments (the sandbox shows what a command names). */
static char **build_argv(const char *line, const struct host_config *c,
			 const struct build_toolchain *tc)
{
	char **argv = calloc(tc->visible.n + 5, sizeof(*argv));
	char *script = NULL;

	if (!argv || asprintf(&script, "ulimit -f %llu; exec 2>&1 </dev/null\n%s",
			      (unsigned long long)c->build_disk_mb * 2048, line) < 0) {
		free(argv);
		return NULL;
	}
	argv[0] = "/bin/sh";
	argv[1] = "-c";
	argv[2] = script;
	argv[3] = "build";
	for (size_t i = 0; i < tc->visible.n; i++)
		argv[4 + i] = tc->visible.v[i];
	return argv;
}

/* The machine's idle and total CPU time so far, in jiffies: 0, or -1 without /proc/stat. */
static int cpu_times(unsigned long long *idle, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return -1;
	*idle = v[3] + v[4];
	*total = 0;
	for (int i = 0; i < n; i++)
		*total += v[i];
	return 0;
}

/* Whether the machine had at least 2% of its CPU time idle (or its figures are unknown):
 * a SCHED_IDLE build could run then. */
static bool machine_had_idle(unsigned long long idle, unsigned long long total)
{
	return total == 0 || idle * 50 >= total;
}

void build_clock_start(struct build_clock *bc)
{
	bc->start_us = bc->last_us = clock_now_us();
	bc->counted_us = 0;
	if (cpu_times(&bc->idle, &bc->total) < 0)
		bc->idle = bc->total = 0;
}

bool build_clock_over(struct build_clock *bc, int limit_s)
{
	int64_t now = clock_now_us(), limit = (int64_t)limit_s * 1000000;
	unsigned long long idle, total;

	/* an interval counts unless the machine had next to no idle CPU in it */
	if (cpu_times(&idle, &total) < 0 || total <= bc->total ||
	    machine_had_idle(idle - bc->idle, total - bc->total))
		bc->counted_us += now - bc->last_us;
	if (total > bc->total) {
		bc->idle = idle;
		bc->total = total;
	}
	bc->last_us = now;
	return bc->counted_us >= limit || now - bc->start_us >= limit * BUILD_CLOCK_WALL_TIMES;
}

enum build_floor_verdict build_floor_judge(int64_t wall_us, int64_t cpu_us,
					   unsigned long long idle, unsigned long long total)
{
	if (wall_us < (int64_t)BUILD_FLOOR_SPELL_S * 1000000 || cpu_us * 100 >= wall_us ||
	    machine_had_idle(idle, total))
		return BUILD_FLOOR_KEEP;
	return BUILD_FLOOR_RAISE;
}

/* A new spell from now; false when the build's tree is gone. */
static bool floor_spell(struct build_floor *bf)
{
	bf->start_us = clock_now_us();
	if (cpu_times(&bf->idle, &bf->total) < 0)
		bf->idle = bf->total = 0;
	return proc_tree_cpu_us(bf->root, &bf->cpu_us) == 0;
}

void build_floor_start(struct build_floor *bf, pid_t root)
{
	bf->root = root;
	bf->done = !floor_spell(bf);
}

int build_floor_check(struct build_floor *bf, char *note, size_t note_size)
{
	struct build_floor then = *bf;
	int ret;

	if (bf->done || clock_now_us() - bf->start_us < (int64_t)BUILD_FLOOR_SPELL_S * 1000000)
		return 0;
	if (!floor_spell(bf)) {
		bf->done = true;
		return 0;
	}
	if (build_floor_judge(bf->start_us - then.start_us, bf->cpu_us - then.cpu_us,
			      then.total ? bf->idle - then.idle : 0,
			      then.total ? bf->total - then.total : 0) == BUILD_FLOOR_KEEP)
		return 0;
	bf->done = true;
	if ((ret = proc_tree_leave_idle(bf->root, BUILD_FLOOR_NICE)) >= 0) {
		snprintf(note, note_size, "[the build had no CPU for %d s at the lowest priority: "
			 "it runs at nice %d from now]", BUILD_FLOOR_SPELL_S, BUILD_FLOOR_NICE);
		return 1;
	}
	snprintf(note, note_size, "[the build had no CPU for %d s at the lowest priority, and "
		 "the host may not raise it to nice %d (%s): run the host as root, or with "
		 "`ulimit -e %d`]", BUILD_FLOOR_SPELL_S, BUILD_FLOOR_NICE, strerror(-ret),
		 20 - BUILD_FLOOR_NICE);
	return ret;
}

/* Read the build's output until it ends, a limit is passed or stop; the result. */
static int watch(struct bot *b, const char *tree, const struct host_config *c,
		 const atomic_bool *stop, struct build_log *lg, char *why, size_t why_size)
{
	uint64_t limit = (uint64_t)c->build_disk_mb << 20, bytes;
	struct build_floor bf;
	struct build_clock bc;
	char note[512];
	bool open = true;
	int status;

	build_clock_start(&bc);
	build_floor_start(&bf, bot_pid(b));
	for (;;) {
		int64_t now = clock_now_us(), until = now + TICK_US;
		const char *line;
		size_t len;
		int r = -ETIMEDOUT;

		if (atomic_load(stop))
			return -EINTR;
		if (build_clock_over(&bc, c->build_seconds)) {
			snprintf(why, why_size, "the build ran past %d s (build_seconds in host.jsonc)",
				 c->build_seconds);
			return -ETIMEDOUT;
		}
		if (build_floor_check(&bf, note, sizeof(note)) != 0)
			log_line(lg, note, strlen(note));
		if (tree_bytes(tree, &bytes) == 0 && bytes > limit) {
			snprintf(why, why_size, "the build's folder grew past %d MB (build_disk_mb in "
				 "host.jsonc)", c->build_disk_mb);
			return -EFBIG;
		}
		if (open) {
			r = bot_read_line_live(b, &line, &len, until);
			while (r == 0) {
				log_line(lg, line, len);
				r = bot_read_line_live(b, &line, &len, clock_now_us());
			}
			/* its output ended, or a line too long to take: only its exit is left */
			open = r == -ETIMEDOUT;
		} else {
			usleep(20000);
		}
		if (bot_exited(b, &status)) {
			while (open && bot_read_line_live(b, &line, &len, clock_now_us()) == 0)
				log_line(lg, line, len);
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
				return 0;
			exit_why(status, c, why, why_size);
			return -ECHILD;
		}
	}
}

/* The tree opened to the sandbox's uid (as root), or closed and given back. */
static int open_tree(const char *tree, bool open)
{
	int ret;

	if (geteuid() != 0)
		return 0;
	if (open)
		return tree_chmod_dirs(tree, 0777);
	ret = tree_chmod_dirs(tree, 0755);
	return ret < 0 ? ret : tree_chown(tree, geteuid(), getegid());
}

int build_sandbox_start(struct bot_spec *spec, enum sandbox_mode mode, struct sandbox **sb,
			struct bot **b, char *why, size_t why_size)
{
	struct sandbox_setup setup = { 0 };
	char note[1024] = "";
	int ret;

	*sb = NULL;
	*b = NULL;
	if ((ret = open_tree(spec->cwd, true)) < 0) {
		snprintf(why, why_size, "the host cannot open the folder to the %s: %s", spec->name,
			 strerror(-ret));
		return ret;
	}
	/* alone in its sandbox, nothing to keep apart: never sealed (a copy of the tree and the
	 * upload would only cost memory), and auto is on where a sandbox can be made */
	setup.mode = mode == SANDBOX_AUTO ? SANDBOX_ON : mode;
	setup.bots = spec;
	setup.nbots = 1;
	ret = sandbox_open(&setup, sb, note, sizeof(note));
	if (ret == -ENOTSUP && mode == SANDBOX_AUTO)
		ret = 0; /* no sandbox here: unsandboxed, as auto runs */
	if (ret < 0) {
		snprintf(why, why_size, "the host cannot make the %s's sandbox: %s", spec->name,
			 note);
		return ret;
	}
	spec->sandbox = *sb;
	spec->cwd_writable = true;
	/* the games come first: it gets a CPU only when no game wants one */
	spec->idle = true;
	return bot_start(spec, b, why, why_size);
}

int build_sandbox_end(const char *tree, struct bot *b, struct sandbox *sb)
{
	bot_stop(b, GRACE_MS);
	sandbox_close(sb);
	return open_tree(tree, false);
}

int build_run(const char *tree, const char *line, const char *log,
	      const struct host_config *config, const struct build_toolchain *tc,
	      const atomic_bool *stop, char *why, size_t why_size)
{
	struct build_log lg = { -1, 0, false };
	struct bot_spec spec = { 0 };
	struct sandbox *sb = NULL;
	struct bot *b = NULL;
	char **argv = build_argv(line, config, tc);
	int ret;

	if (!argv) {
		snprintf(why, why_size, "out of memory");
		return -ENOMEM;
	}
	spec.name = "build";
	spec.argv = argv;
	spec.cwd = tree;
	spec.env = tc->env.v;
	spec.cpu = -1;
	spec.limits = (struct bot_limits){ config->build_cpu_seconds, config->build_memory_mb, 0,
					   config->build_processes };
	if ((lg.fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0) {
		ret = -errno;
		snprintf(why, why_size, "the host cannot write build.log: %s", strerror(errno));
		free(argv[2]);
		free(argv);
		return ret;
	}
	log_write(&lg, "$ ", 2);
	log_line(&lg, line, strlen(line));
	if ((ret = build_sandbox_start(&spec, SANDBOX_ON, &sb, &b, why, why_size)) == 0)
		ret = watch(b, tree, config, stop, &lg, why, why_size);
	if (ret < 0 && ret != -EINTR)
		log_reason(&lg, why);
	fsync(lg.fd);
	close(lg.fd);
	if (build_sandbox_end(tree, b, sb) < 0 && ret == 0) {
		snprintf(why, why_size, "the host cannot take the built folder back");
		ret = -EPERM;
	}
	free(argv[2]);
	free(argv);
	return ret;
}
