/*
 * clock.h - the monotonic clock every deadline of the process room is
 * measured on. A leaf: it uses nothing else of the arena.
 */
#ifndef SKIPBO_CLOCK_H
#define SKIPBO_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in microseconds. */
int64_t clock_now_us(void);

#endif
