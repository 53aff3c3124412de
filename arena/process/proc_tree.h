/*
 * proc_tree.h - a process and every process below it, seen through the
 * machine's /proc: the CPU time the tree has used, and its processes moved
 * out of SCHED_IDLE. For a build (arena/host/build.h), whose tree is bwrap,
 * the sandbox's init and what the build's shell starts.
 *
 * The tree is found through /proc/PID/task/TID/children (Linux 3.5 with
 * CONFIG_PROC_CHILDREN, which the sandbox's CPU clock needs too), read in
 * the /proc of the arena's PID namespace: a sandbox's processes are listed
 * by their pids there, not by those they see inside. In a PID namespace
 * an orphan goes to the namespace's init, so nothing leaves the tree;
 * unsandboxed, a process whose parent died before it is not found.
 *
 * Nothing here prints; every function returns 0 or a negative errno.
 */
#ifndef SKIPBO_PROC_TREE_H
#define SKIPBO_PROC_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A list of pids, grown as needed; free(v) when done. The reaper lists with it too. */
struct pid_list {
	pid_t *v;
	size_t n, cap;
};
/* Append pid: 0 or -ENOMEM. */
int pid_list_add(struct pid_list *p, pid_t pid);
/* Each number above 0 of a space-separated list (a children file) appended: 0 or -ENOMEM. */
int pid_list_add_numbers(struct pid_list *p, const char *text);

/*
 * The CPU time (user and system) the tree of root has used, in µs, into
 * *cpu_us: every live process's own (all its threads), and that of the
 * processes they have reaped (cutime and cstime), which holds everything
 * a reaped process had reaped in turn. A process reaped by none (its
 * parent ignores SIGCHLD) is not counted once gone. -ESRCH when root is
 * gone.
 */
int proc_tree_cpu_us(pid_t root, int64_t *cpu_us);

/*
 * Move every thread of every process in the tree of root that runs at
 * SCHED_IDLE to SCHED_OTHER at nice (setpriority first, then
 * sched_setscheduler, so the nice is right from its first moment out of
 * SCHED_IDLE). A process forked meanwhile inherits its parent's class:
 * each process is moved before its children are listed, and the walk is
 * repeated until a pass finds nothing at SCHED_IDLE (at most 8 passes).
 *
 * Returns the number of threads moved (0: none was at SCHED_IDLE), -ESRCH
 * when root is gone, or -EPERM when the kernel refuses: leaving SCHED_IDLE
 * needs CAP_SYS_NICE (root), or an RLIMIT_NICE of at least 20 - nice in
 * the process moved (`ulimit -e 1` in the arena's shell, for nice 19),
 * and the same owner. A thread that ends meanwhile is no error.
 */
int proc_tree_leave_idle(pid_t root, int nice);

#endif
