/*
 * guard.h - a process that outlives the arena by a moment, to kill every
 * sandbox the arena leaves behind, however the arena ends (kill -9 too).
 *
 * Why: bwrap clones the sandbox's init, and the init arms its death signal
 * only once bwrap's launcher has let it go on. An arena killed in between
 * (its death signal kills the launcher) would leave that init waiting for
 * ever, and one killed just after leaves the init, and the bot under it,
 * running with no parent to die with. Every sandboxed process start
 * registers its process group here before it executes bwrap (the launcher
 * and the init are in that group, and everything in the sandbox dies with
 * the init); bot_stop() forgets it once it is killed. When the arena is
 * gone the guard reads EOF on its pipe, kills every group still registered
 * (SIGKILL) and exits.
 *
 * The guard is a child of the arena in a session of its own, so that a
 * Ctrl-C or a kill of the arena's process group does not take it first; it
 * ignores SIGINT, SIGTERM and SIGHUP. Bots in their PID namespaces cannot
 * see it.
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_GUARD_H
#define SKIPBO_GUARD_H

#include <sys/types.h>

struct guard;

/* Start the guard process. 0 and *out, or -errno. */
int guard_start(struct guard **out);

/*
 * In the child of a bot start, between clone and exec (async-signal-safe,
 * no writes to the memory it shares with the arena):
 * register the child's own process group. The guard's pipe end is
 * close-on-exec, so the program the child executes does not hold it.
 * 0 or -errno.
 */
int guard_register_self(const struct guard *g);

/* The group pgid is gone (killed, about to be reaped): no longer the guard's. */
void guard_forget(const struct guard *g, pid_t pgid);

/* Let the guard go (it kills what is still registered) and wait for it. NULL is fine. */
void guard_stop(struct guard *g);

#endif
