/*
 * own_delay.h - how long the arena itself was kept from running, so that a
 * bot's clock is not charged for it (protocol/PROTOCOL.md, "Time").
 *
 * Two delays are the arena's own, not the bot's:
 * - a stop: the arena's process was stopped (SIGSTOP, SIGTSTP, a debugger)
 *   and continued. own_delay_install() counts every SIGCONT; a stop during a
 *   decision leaves the arena unable to tell when the answer arrived.
 * - a run-queue wait: the arena's thread was ready to run (the answer had
 *   arrived) but waited for a CPU. Linux counts it per thread in
 *   /proc/thread-self/schedstat (run_delay); where that file is missing the
 *   wait counts as 0, so the clock is only as strict as before.
 *
 * A mark is taken on the thread that waits; own_delay_since() must be
 * called on the same thread. A mark holds an open descriptor: release it.
 */
#ifndef SKIPBO_OWN_DELAY_H
#define SKIPBO_OWN_DELAY_H

#include <stdint.h>

struct own_delay_clock {
	int schedstat_fd;       /* /proc/thread-self/schedstat of the opening thread, or -1 */
};

struct own_delay_mark {
	uint64_t continues;     /* SIGCONTs seen so far */
	uint64_t run_delay_ns;  /* the thread's run-queue wait so far (0 without schedstat) */
};

/* Count SIGCONTs from now on (main, once, before any thread starts). 0 or -errno. */
int own_delay_install(void);

/* Open the calling thread's clock. Never fails: without schedstat it counts stops only. */
void own_delay_open(struct own_delay_clock *c);
void own_delay_close(struct own_delay_clock *c);

/* Where the calling thread's delays stand now. */
void own_delay_mark(const struct own_delay_clock *c, struct own_delay_mark *m);

/*
 * The arena's own delay since m, in µs: the run-queue wait of the thread. Sets
 * *stopped to 1 if the process was stopped and continued since m (the length
 * of a stop is not known), else 0.
 */
int64_t own_delay_since(const struct own_delay_clock *c, const struct own_delay_mark *m,
			int *stopped);

#endif
