/*
 * sandbox.h - each bot process in a sandbox of its own, made with bubblewrap
 * (bwrap), so that it can reach nothing but its own two pipes (SECURITY.md).
 *
 * Inside, a bot process:
 * - is in its own PID namespace: it sees and can signal or trace no other
 *   process (bwrap's init is its pid 1; when that init dies the kernel kills
 *   everything in the namespace, setsid() and double forks included);
 * - has its own network namespace with only loopback, and its own IPC, UTS
 *   and cgroup namespaces; it may not make further user namespaces;
 * - sees the file system read-only, with /tmp and /dev/shm private tmpfs of
 *   at most SANDBOX_SCRATCH_MB each (HOME and TMPDIR are /tmp) that vanish
 *   with it; /run and /var/tmp are empty; the paths the arena hides (the
 *   output directory, the tournament file) and the other bots' directories
 *   (their working directories, and the directories of programs named by a
 *   path, unless one is "/", right under it, or holds a directory of PATH)
 *   are empty, its own working directory and program directory shown;
 * - runs without capabilities, with no_new_privs, with an environment of
 *   PATH, HOME, TMPDIR and LANG only, plus its own env;
 * - cannot reach the arena's terminal: /dev/tty is /dev/null, no descriptor
 *   it holds is a terminal, and the terminal's other names are outside its
 *   /dev (this is what bwrap's --new-session is for; a session of its own
 *   would also make the bot a scheduling group of its own under the
 *   kernel's autogroups, which costs about 2 µs of CPU per decision);
 * - when the arena runs as root, runs as a uid and gid of its own,
 *   SANDBOX_UID_BASE + n for the n-th sandbox alive at once (reused once it
 *   stops), so that RLIMIT_NPROC counts its processes alone and it owns no
 *   file of the arena's; as an ordinary user the arena's uid is mapped into
 *   bwrap's user namespace;
 * - where cgroups can be made (cgroup.h), has its whole process tree counted
 *   against the bot's process and memory limits (not its CPU: cgroup.h);
 *   the per-process resource limits of bot.h apply in any case.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_SANDBOX_H
#define SKIPBO_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgroup.h"

#define SANDBOX_UID_BASE 2000000000u
#define SANDBOX_SCRATCH_MB 128

enum sandbox_mode {
	SANDBOX_AUTO, /* on where the machine allows it, else off with one line saying why */
	SANDBOX_ON,   /* refuse to run bots without it */
	SANDBOX_OFF,
};

/* "auto", "on", "off" into *out: 0, or -EINVAL. */
int sandbox_mode_parse(const char *text, enum sandbox_mode *out);
const char *sandbox_mode_name(enum sandbox_mode mode);

struct bot_spec;
struct sandbox;

struct sandbox_setup {
	enum sandbox_mode mode;
	/* Every bot that will run. Each one's directories are hidden from the
	 * others; with the arena as root each must be readable by the sandbox's
	 * uids, which sandbox_open() checks. argv[0] may be a bare name. */
	const struct bot_spec *bots;
	size_t nbots;
	/* Paths no bot may see (the output directory, the tournament file); those
	 * that do not exist yet are hidden once they do, NULL ones skipped. */
	const char *const *hide;
	size_t nhide;
};

/*
 * Decide whether bots run sandboxed, and prepare: find bwrap, check the bots'
 * files (as root), run one sandboxed `true`, make the cgroups (cgroup.h).
 * - off: 0 and *out NULL.
 * - available: 0 and *out, to put in each bot_spec.sandbox. note gets one
 *   line when the sandbox lacks cgroups, else "".
 * - not available: with auto, 0 and *out NULL, note saying what is missing
 *   and how to enable it; with on, -ENOTSUP and the same in note.
 * Other negative codes: -ENOMEM.
 */
int sandbox_open(const struct sandbox_setup *setup, struct sandbox **out, char *note,
		 size_t note_size);

/* The sandbox in a few words for a report ("bwrap, cgroup v1 (pids, memory)"). */
const char *sandbox_describe(const struct sandbox *sb);

/* Remove the cgroups and free. Every bot started with it must be stopped. NULL is fine. */
void sandbox_close(struct sandbox *sb);

/* ---- for bot_spawn.c: one process start ---- */

struct sandbox_start {
	const char *bwrap;      /* the program to execute */
	char **argv;            /* bwrap's options, then the bot's program and arguments */
	char **envp;            /* the bot's environment */
	bool drop;              /* change to uid/gid first (the arena is root) */
	uid_t uid;
	gid_t gid;
	int slot;               /* -1: none taken */
	struct cgroup_leaf leaf;
	int info_fd;            /* the child's end of bwrap's --info-fd pipe; fd 4 in the child */
};

/*
 * The child's descriptors: bwrap's own stdin and stdout are /dev/null, so
 * that its launcher and init, which live as long as the sandbox, hold none
 * of the bot's pipes (the arena sees the bot close its stdout, or exit); the
 * pipes go on fds 5 and 6, which bwrap passes on but closes in its own
 * processes, and /bin/sh moves them to 0 and 1 before executing the bot.
 * bwrap's --info-fd is fd 4.
 */
#define SANDBOX_INFO_FD 4
#define SANDBOX_STDIN_FD 5
#define SANDBOX_STDOUT_FD 6

/*
 * Prepare a start of spec (its program resolved to path) in st; info_fd is
 * the write end of a pipe for bwrap's --info-fd. On failure a sentence in why.
 */
int sandbox_start_prepare(struct sandbox *sb, const struct bot_spec *spec, const char *path,
			  int info_fd, struct sandbox_start *st, char *why, size_t why_size);

/*
 * In the child between fork and exec, async-signal-safe: enter the cgroups,
 * drop to the sandbox's uid and gid. 0 or -errno.
 */
int sandbox_start_enter(const struct sandbox_start *st);

/* After the process is gone (or never started): remove its cgroup, free what st holds. */
void sandbox_start_release(struct sandbox *sb, struct sandbox_start *st);

#endif
