/*
 * movetimes.c - per-move times for --stats (see movetimes.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movetimes.h"

static int64_t clock_us(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void movetimes_init(struct movetimes *m)
{
	memset(m, 0, sizeof(*m));
}

void movetimes_release(struct movetimes *m)
{
	free(m->wall_us);
	free(m->cpu_us);
	movetimes_init(m);
}

void movetimes_start(struct movetimes *m)
{
	m->start_wall = clock_us(CLOCK_MONOTONIC);
	m->start_cpu = clock_us(CLOCK_THREAD_CPUTIME_ID);
}

void movetimes_stop(struct movetimes *m)
{
	int64_t wall = clock_us(CLOCK_MONOTONIC) - m->start_wall;
	int64_t cpu = clock_us(CLOCK_THREAD_CPUTIME_ID) - m->start_cpu;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		int64_t *w = reallocarray(m->wall_us, cap, sizeof(*w));
		if (!w)
			return;
		m->wall_us = w;
		int64_t *c = reallocarray(m->cpu_us, cap, sizeof(*c));
		if (!c)
			return;
		m->cpu_us = c;
		m->cap = cap;
	}
	m->wall_us[m->n] = wall;
	m->cpu_us[m->n++] = cpu;
}

static int compare_us(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts v. */
static void summary(int64_t *v, size_t n, FILE *f, const char *what)
{
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	qsort(v, n, sizeof(*v), compare_us);
	size_t rank = (n * 99 + 99) / 100; /* nearest rank: ceil(0.99 n) */
	fprintf(f, "%s mean/p99/max %lld/%lld/%lld us", what, (long long)(sum / (int64_t)n),
		(long long)v[rank - 1], (long long)v[n - 1]);
}

void movetimes_report(struct movetimes *m, FILE *f)
{
	if (m->n == 0)
		return;
	fprintf(f, "%zu moves, ", m->n);
	summary(m->wall_us, m->n, f, "wall");
	fprintf(f, ", ");
	summary(m->cpu_us, m->n, f, "cpu");
	m->n = 0;
}
