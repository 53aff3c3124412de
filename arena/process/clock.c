/*
 * clock.c - the monotonic clock (contract in clock.h).
 */
#include "clock.h"

#include <time.h>

int64_t clock_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
