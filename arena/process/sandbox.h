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
 * - sees an allowlist of the file system (sandbox_view.h): the system's
 *   read-only directories, its own files, a private /tmp and /dev/shm of at
 *   most SANDBOX_SCRATCH_MB each (HOME and TMPDIR are /tmp) that vanish with
 *   it (with its host, whose games share them: sandbox_use_hosts); nothing
 *   of the output directory, the tournament file, other
 *   tournaments, other bots or home directories; bwrap's options are not on
 *   its command line (sandbox_start.h);
 * - runs under a seccomp filter (seccomp_filter.h) that keeps it on its CPU
 *   and away from keyrings, tracing, mounts and namespaces, in a session
 *   keyring of its own;
 * - runs without capabilities, with no_new_privs, with an environment of
 *   PATH (the directories it sees), HOME, TMPDIR and LANG only, plus its own
 *   env;
 * - cannot reach the arena's terminal: /dev/tty is /dev/null, no descriptor
 *   it holds is a terminal, and the terminal's other names are outside its
 *   /dev (this is what bwrap's --new-session is for; a session of its own
 *   would also make the bot a scheduling group of its own under the
 *   kernel's autogroups, which costs about 2 µs of CPU per decision);
 * - when the arena runs as root, runs as a uid and gid of its own,
 *   the n-th uid of the arena's block (sandbox_start.h) for the n-th sandbox
 *   alive at once (reused once it stops), so that it owns no file of the
 *   arena's; as an ordinary user the arena's uid is mapped into bwrap's user
 *   namespace;
 * - has its RLIMIT_NPROC set inside its user namespace, where it counts the
 *   sandbox's processes alone, as root and as an ordinary user
 *   (sandbox_start.h);
 * - where cgroups can be made (cgroup.h), has its whole process tree counted
 *   against the bot's process and memory limits (not its CPU: cgroup.h);
 *   the per-process resource limits of bot.h apply in any case;
 * - dies with the arena, however the arena ends: a guard process kills
 *   every sandbox a dead arena left (guard.h).
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_SANDBOX_H
#define SKIPBO_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sandbox_start.h" /* SANDBOX_UID_BASE */



enum sandbox_mode {
	SANDBOX_AUTO, /* on where the machine allows it, else off with one line saying why;
		       * sealed where the field needs it (sandbox_setup) */
	SANDBOX_ON,   /* refuse to run bots without it */
	SANDBOX_OFF,
	/* on, and every file a bot sees kept cached and mapped for the whole run
	 * (cache_pin.h), so that no process can pass another anything through
	 * the page cache: within a game, and between rotation phases without
	 * the drop (cache_drop.h) */
	SANDBOX_SEALED,
};

/* "auto", "on", "off", "sealed" into *out: 0, or -EINVAL. */
int sandbox_mode_parse(const char *text, enum sandbox_mode *out);
const char *sandbox_mode_name(enum sandbox_mode mode);

struct bot_spec;
struct sandbox;

struct sandbox_setup {
	enum sandbox_mode mode;
	/* Every bot that will run. Each one's own files are hidden from the
	 * others; with the arena as root each must be readable by the sandbox's
	 * uids, which sandbox_open() checks. argv[0] may be a bare name. */
	const struct bot_spec *bots;
	size_t nbots;
	/* Paths no bot may see (the output directory, the tournament file); those
	 * that do not exist yet are hidden once they do, NULL ones skipped. */
	const char *const *hide;
	size_t nhide;
	/* The system directories bots see, canonical (sandbox_view.h); NULL:
	 * /usr, /etc, /bin, /sbin, /lib, /lib32, /lib64, /libx32, of which,
	 * sealed, only the files the bots' programs need are copied and shown
	 * (system_needs.h); given, sealed copies them whole. */
	const char *const *system;
	size_t nsystem;
};

/*
 * Decide whether bots run sandboxed, and prepare: find bwrap, compile the
 * filter, start the guard, run one sandboxed `true`, check that every bot
 * can run in the sandbox, make the cgroups (cgroup.h).
 * - off: 0 and *out NULL.
 * - auto seals (as sealed); where sealing fails for want of room (-E2BIG,
 *   -ENOSPC) or of a tmpfs (-ENOTSUP), or a bot's needs cannot be derived
 *   (system_needs_known), it stays on and note says why, what stays open
 *   and what to do.
 * - available: 0 and *out, to put in each bot_spec.sandbox. note gets one
 *   line when the sandbox lacks cgroups, else "".
 * - not available (no bwrap, no user namespaces): with auto, 0 and *out
 *   NULL, note saying what is missing and how to enable it; with on,
 *   -ENOTSUP and the same in note.
 * - available, but a bot cannot run in it (fails closed, in auto too):
 *   -EACCES, note naming the bot, the path and the fix: a program found in
 *   PATH outside the directories a bot sees, a "#!/usr/bin/env NAME" whose
 *   NAME is not in them, or (as root) a file the sandbox's uids cannot read.
 * - sealed, the copy cannot be made: its code (system_copy.h), or -ENOEXEC
 *   where a bot's program or its interpreter is a malformed ELF file
 *   (system_needs.h), note naming the bot, the file and what is wrong.
 * Other negative codes: -ENOMEM, or the filter's or the guard's error.
 */
int sandbox_open(const struct sandbox_setup *setup, struct sandbox **out, char *note,
		 size_t note_size);

/*
 * The i-th sentence, one per bot, naming files next to its program or
 * script that it cannot see (their folder is not of its own,
 * sandbox_view.h) and how to show them; NULL past the last, or for no
 * sandbox. For the command to print once, at the start.
 */
const char *sandbox_unseen(const struct sandbox *sb, size_t i);

/*
 * NULL when the kernel's caches are dropped between rotation phases
 * (sandbox_end_phase, cache_drop.h), or sealed (nothing to drop), else the sentence that says what stays
 * open without the drop, for a run with phases to print once.
 */
const char *sandbox_cache_warning(const struct sandbox *sb);

/* SANDBOX_SEALED or SANDBOX_ON: the mode of an open sandbox. */
enum sandbox_mode sandbox_mode_of(const struct sandbox *sb);

/* The sandbox in a few words for a report ("bwrap, cgroup v1 (pids, memory)"). */
const char *sandbox_describe(const struct sandbox *sb);

/*
 * Start bots from hosts kept between games from now on (on), or each in a
 * sandbox of its own (off, the default). A host (sandbox_host.h) is one
 * sandbox that starts a fresh process for each game, in fresh PID, mount
 * and IPC namespaces with a /proc of its own, under the same filter, limits
 * and view: a fork and an exec instead of a whole sandbox. Its games share
 * its /tmp, /dev/shm and network namespace. For bots that play one game
 * each ("processes": "fresh"), whose hosts the tournament stops between
 * rotation phases (sandbox_stop_hosts). A probe game checks that
 * hosts work here: 0, or -ENOTSUP with hosts left off (bots still run, each
 * in a sandbox of its own). Call it before any bot starts.
 */
int sandbox_use_hosts(struct sandbox *sb, bool on);

/*
 * Start, for the next rotation phase, as many hosts of each bot as served
 * games in this one, without waiting; they serve no game before
 * sandbox_end_phase. The tournament calls it once the last games of a phase
 * are handed out, so that the next phase's first games find their hosts.
 */
void sandbox_start_hosts_ahead(struct sandbox *sb);

/*
 * Stop every idle host that served a game: what a host keeps between games
 * (its /tmp, its network namespace with the sockets' lingering states) ends
 * with it. The tournament calls it between rotation phases, when no bot
 * runs. Hosts started ahead, which served none, stay.
 */
void sandbox_end_phase(struct sandbox *sb);

/* Stop every idle host, once those starting are there. NULL is fine. */
void sandbox_stop_hosts(struct sandbox *sb);

/* Stop the hosts, remove the cgroups and free. Every bot started with it must be
 * stopped. NULL is fine. */
void sandbox_close(struct sandbox *sb);

#endif
