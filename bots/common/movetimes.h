/*
 * movetimes.h - the time a bot spends per move, summed up per game for its
 * --stats line: mean, 99th percentile and maximum, in wall-clock and CPU time.
 */
#ifndef SKIPBO_BOTS_MOVETIMES_H
#define SKIPBO_BOTS_MOVETIMES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct movetimes {
	int64_t *wall_us; /* one per move of the game so far */
	int64_t *cpu_us;
	size_t n, cap;
	int64_t start_wall, start_cpu; /* of the move in progress */
};

void movetimes_init(struct movetimes *m);
void movetimes_release(struct movetimes *m);

/* A move begins / ends: the end records its wall-clock and CPU (thread) time.
 * A move that cannot be recorded (no memory) is left out of the figures. */
void movetimes_start(struct movetimes *m);
void movetimes_stop(struct movetimes *m);

/*
 * Write "moves N, wall mean/p99/max A/B/C us, cpu mean/p99/max D/E/F us" for
 * the moves recorded (p99: nearest rank) to f, without a newline, and forget
 * them. Nothing when there were none.
 */
void movetimes_report(struct movetimes *m, FILE *f);

#endif
