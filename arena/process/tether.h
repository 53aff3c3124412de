/*
 * tether.h - a child process of the arena's that lives as long as a
 * socket to it stays open: it sees the socket close when the arena closes
 * it, and when the arena dies, by SIGKILL too. The pinners (cache_pin.h)
 * and the keeper of the system's copy (system_copy.h) are such children.
 *
 * Between fork and exit the child only makes system calls, as a child of a
 * threaded process must.
 */
#ifndef SKIPBO_TETHER_H
#define SKIPBO_TETHER_H

#include <sys/types.h>

/*
 * Fork a tethered child. In the parent: the child's pid, *sock its end of
 * the socket (close-on-exec; closing it tells the child to finish). In the
 * child: 0, *sock the child's end, every descriptor of the parent's but
 * that one closed, in a process group of its own (the terminal's ^C is for
 * the arena, which ends it) and named name (at most 15 bytes). A negative
 * errno-style code of socketpair or fork, *sock untouched.
 */
pid_t tether_fork(const char *name, int *sock);

/* In the child: wait until the arena closes the socket (or dies). */
void tether_wait(int sock);

#endif
