/*
 * own_delay.h - the arena's own stops, so that a bot's clock is not charged
 * for them (protocol/PROTOCOL.md, "Time").
 *
 * When the arena's process is stopped (SIGSTOP, SIGTSTP, a debugger) and
 * continued, it cannot tell when a bot's answer arrived meanwhile. The
 * referee compares own_delay_stops() before and after a decision and, if
 * they differ, judges the answer by the bot's CPU time instead.
 */
#ifndef SKIPBO_OWN_DELAY_H
#define SKIPBO_OWN_DELAY_H

#include <stdint.h>

/* Count SIGCONTs from now on (main, once, before any thread starts). 0 or -errno. */
int own_delay_install(void);

/* How many times the process has been continued since own_delay_install(). */
uint64_t own_delay_stops(void);

#endif
