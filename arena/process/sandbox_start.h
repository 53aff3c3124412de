/*
 * sandbox_start.h - one process start in the sandbox (sandbox.h): bwrap's
 * arguments, the seccomp filter, the uid, the cgroup and the guard's
 * registration. For bot_spawn.c; not the arena's API.
 *
 * bwrap's own command line holds no more than "--args 7 -- /proc/self/fd/9
 * [-p N] PROGRAM ARGS" (the launcher, launcher.h; where there is none,
 * "/bin/sh -c SCRIPT PROGRAM ARGS", the script doing the launcher's work):
 * its options (the mounts, which name the paths it hides) are read from a
 * memfd on descriptor 7, which bwrap closes, so the sandbox's /proc/1/cmdline
 * names nothing but the bot's own command. The filter comes the same way on
 * descriptor 8.
 *
 * The launcher (or the script) sets the bot's process limit (RLIMIT_NPROC,
 * bot.h) before it executes the bot, to limits.processes + 2: bwrap's init
 * counts too, and the launcher, which stays the bot's parent to answer its
 * sysinfo (launcher.h). The kernel (Linux 5.14 and later) counts RLIMIT_NPROC per user
 * namespace, and the launcher runs in the sandbox's own, so the limit counts
 * the sandbox's processes alone, as root and as an ordinary user. Set before
 * bwrap, it would count every process of the uid on the machine (as an
 * ordinary user the arena's, its other bots', anything else the user runs),
 * and bwrap could not even make the namespace once they were that many.
 */
#ifndef SKIPBO_SANDBOX_START_H
#define SKIPBO_SANDBOX_START_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgroup.h"

struct bot_spec;
struct sandbox;

/* As root, the n-th sandbox alive at once runs as uid and gid SANDBOX_UID_BASE +
 * block * SANDBOX_UID_BLOCK_SIZE + n, block the arena's pid modulo
 * SANDBOX_UID_BLOCKS (sandbox.h): two arenas on one machine rarely share a uid. */
#define SANDBOX_UID_BASE 2000000000u
#define SANDBOX_UID_BLOCK_SIZE 65536u
#define SANDBOX_UID_BLOCKS 2048u /* the last uid 2,134,217,727: bwrap could not map uids near 4e9 */

/*
 * What a start makes (sandbox_host.h):
 * - ALONE: a sandbox of its own for the bot, as above;
 * - HOST: a sandbox whose launcher is a host ("-H"): bwrap gives it
 *   CAP_SYS_ADMIN in the sandbox's user namespace, to make each game's
 *   namespaces and mounts, and no filter, which it reads from descriptor 8
 *   and installs in each bot process after dropping every capability; its
 *   control socket is on 5 (bot_spawn.c makes it), nothing on 6. In a host,
 *   RLIMIT_NPROC and the cgroup count bwrap's init, the host and the game's
 *   pid 1 as well.
 * A game in a host needs no start here: the arena sends the host its
 * descriptors (bot_host.c).
 */
enum sandbox_start_kind {
	SANDBOX_START_ALONE,
	SANDBOX_START_HOST,
};

struct sandbox_start {
	enum sandbox_start_kind kind;
	const char *bwrap;      /* the program to execute */
	char **argv;            /* bwrap --args 7 -- LAUNCHER [-p N] (or /bin/sh -c SCRIPT), then the
				 * bot's program and arguments */
	const char *program;    /* the bot's program in argv: canonical, where the sandbox binds it */
	char **envp;            /* the bot's environment */
	bool drop;              /* change to uid/gid first (the arena is root) */
	uid_t uid;
	gid_t gid;
	int slot;               /* -1: none taken */
	struct cgroup_leaf leaf;
	const struct guard *guard;
	int args_fd;            /* memfds, the arena's: bwrap's options and the filter; -1 = none */
	int seccomp_fd;
	int launcher_fd;        /* the sandbox's (launcher.h), borrowed; -1: /bin/sh launches */
};

/*
 * The child's descriptors: bwrap's own stdin and stdout are /dev/null, so
 * that its launcher and init, which live as long as the sandbox, hold none
 * of the bot's pipes (the arena sees the bot close its stdout, or exit); the
 * pipes go on fds 5 and 6, which bwrap passes on but closes in its own
 * processes, and the launcher (or /bin/sh) moves them to 0 and 1 before
 * executing the bot. bwrap's --info-fd is fd 4, --args 7, --seccomp 8; the
 * launcher is on 9, and closes it.
 */
#define SANDBOX_INFO_FD 4
#define SANDBOX_STDIN_FD 5
#define SANDBOX_STDOUT_FD 6
#define SANDBOX_ARGS_FD 7
#define SANDBOX_SECCOMP_FD 8
#define SANDBOX_LAUNCHER_FD 9

/*
 * Files of /proc and /proc/sys that count the whole machine (its processes,
 * memory, open files, dentries, I/O, interrupts, idle time, locks, keys),
 * which any bot can move and any other read: a channel between processes
 * alive at once, partners among them. /dev/null is bound over each that
 * exists. Each costs a bind mount per start. A game of a host mounts its
 * own /proc with only its processes in it (subset=pid, Linux 5.8), which
 * has none of them, and covers them one by one only on an older kernel
 * (launcher.h).
 */
#define SANDBOX_PROC_MASKED { "/proc/loadavg", "/proc/stat", "/proc/meminfo", "/proc/vmstat", \
	"/proc/uptime", "/proc/diskstats", "/proc/zoneinfo", "/proc/buddyinfo", \
	"/proc/pagetypeinfo", "/proc/interrupts", "/proc/softirqs", "/proc/schedstat", \
	"/proc/locks", "/proc/key-users", "/proc/keys", "/proc/swaps", "/proc/partitions", \
	"/proc/vmallocinfo", "/proc/pressure/cpu", "/proc/pressure/io", "/proc/pressure/memory", \
	"/proc/pressure/irq", "/proc/sys/fs/dentry-state", "/proc/sys/fs/file-nr", \
	"/proc/sys/fs/inode-nr", "/proc/sys/fs/inode-state", "/proc/sys/fs/aio-nr", \
	"/proc/sys/kernel/random/entropy_avail", "/proc/sys/kernel/random/boot_id" }

/*
 * Inside every sandbox the bot's uid and gid are SANDBOX_INNER_ID and the
 * host name SANDBOX_HOSTNAME, whoever runs the arena: the uid outside (as
 * root, from the arena's block, which tells its pid modulo 2,048) and the
 * machine's name stay out of sight.
 */
#define SANDBOX_INNER_ID "1000"
#define SANDBOX_HOSTNAME "skipbo"


/*
 * Prepare a start of spec (its program resolved to path) in st, of kind. On
 * failure a sentence in why.
 */
int sandbox_start_prepare(struct sandbox *sb, const struct bot_spec *spec, const char *path,
			  enum sandbox_start_kind kind, struct sandbox_start *st, char *why,
			  size_t why_size);

/*
 * In the child between clone and exec, async-signal-safe, writing no memory
 * (it shares the arena's): enter the cgroups, drop to the sandbox's uid and
 * gid, join a fresh session keyring, register with the guard. 0 or -errno.
 */
int sandbox_start_enter(const struct sandbox_start *st);

/*
 * The process group pgid of start st is killed, or its child failed before
 * exec: the guard may forget it (its number may be reused once reaped).
 */
void sandbox_start_killed(const struct sandbox_start *st, pid_t pgid);

/* After the process is gone (or never started): remove its cgroup, free what st holds. */
void sandbox_start_release(struct sandbox *sb, struct sandbox_start *st);

#endif
