/*
 * cgroup.h - one cgroup for each sandboxed bot process tree, so that its
 * processes and memory are counted and limited as a whole, whatever it
 * forks.
 *
 * cgroup_open() finds where the arena may make cgroups, and makes there one
 * directory of its own, "skipbo-arena.<pid>", under the cgroup it runs in:
 * - cgroup v2, when the arena's cgroup offers the pids and memory
 *   controllers and the arena may write it. v2 lets a cgroup hand
 *   controllers to its children only when it holds no process itself, so an
 *   arena alone in its cgroup (systemd-run --scope -p Delegate=yes, say)
 *   first moves itself into a child "skipbo-arena.<pid>.self"; an arena that
 *   shares its cgroup with other processes cannot use v2.
 * - otherwise cgroup v1, the pids and memory hierarchies, when the arena may
 *   write them (as root on a machine with v1 mounted).
 * Each bot process tree then gets a leaf "<n>" under it, with pids.max
 * (processes) and the memory limit (swap included where the file exists).
 *
 * Not the cpu controller: a cgroup of its own makes the bot a scheduling
 * group of its own, and a request and its answer then cost about 2 µs more
 * CPU, and much more latency on a loaded machine, where a woken bot no longer
 * preempts the other groups' tasks (decisions/s fell to 50-70% in
 * tests/arena/process/bench_sandbox). A bot's CPU time is bounded by
 * RLIMIT_CPU, and its CPU by the worker's pinning.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_CGROUP_H
#define SKIPBO_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CGROUP_MAX_DIRS 2 /* pids and memory (v1); one directory (v2) */

struct cgroups;

/* A leaf: one process tree's directories, one per hierarchy. */
struct cgroup_leaf {
	char *dirs[CGROUP_MAX_DIRS];
	int procs_fd[CGROUP_MAX_DIRS]; /* each dir's cgroup.procs, open for writing */
	int n;
};

struct cgroup_limits {
	long processes;   /* pids.max, 0 = none */
	long memory_mb;   /* memory limit in MiB, 0 = none */
};

/*
 * Find the cgroups and make the arena's directory; every later call of the
 * same process, until the last cgroup_close(), shares the same one (leaf
 * ids must then be unique within the process). 0 and *out, or -ENOTSUP
 * with a sentence in why saying what is missing (or another negative code:
 * -ENOMEM).
 */
int cgroup_open(struct cgroups **out, char *why, size_t why_size);

/*
 * As cgroup_open, reading mountinfo and proc_cgroup (the formats of
 * /proc/self/mountinfo and /proc/self/cgroup) instead of the arena's own, as
 * process self: for tests on a directory tree made to look like a cgroup
 * file system.
 */
int cgroup_open_from(const char *mountinfo, const char *proc_cgroup, pid_t self,
		     struct cgroups **out, char *why, size_t why_size);

/* "cgroup v2 (pids, memory)" or "cgroup v1 (pids, memory)". */
const char *cgroup_describe(const struct cgroups *cg);

/* Remove the arena's directories (empty leaves first) and free cg. NULL is fine. */
void cgroup_close(struct cgroups *cg);

/* Make leaf number id with limits l. On failure nothing is left behind. */
int cgroup_leaf_make(struct cgroups *cg, unsigned id, const struct cgroup_limits *l,
		     struct cgroup_leaf *leaf);

/*
 * Move the calling process into every directory of the leaf. Only
 * async-signal-safe calls and no writes to memory: meant for the child
 * between clone and exec, which shares the arena's memory. 0 or -errno.
 */
int cgroup_leaf_enter(const struct cgroup_leaf *leaf);

/* Does the leaf still hold a process? */
bool cgroup_leaf_busy(const struct cgroup_leaf *leaf);

/*
 * Wait up to timeout_ms for the leaf to hold no process, remove its
 * directories, close its descriptors. A directory still busy then is left
 * for cgroup_close().
 */
void cgroup_leaf_remove(struct cgroup_leaf *leaf, int timeout_ms);

#endif
