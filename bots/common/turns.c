/*
 * turns.c - the walk over one turn's plays (see turns.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "turns.h"

#define SEEN_BITS 15
#define SEEN_SIZE (1u << SEEN_BITS)
#define CLOCK_EVERY 64 /* positions between two looks at the deadline */

struct seen_entry {
	uint64_t key;
	uint32_t generation;
};

struct turns {
	uint32_t generation; /* a new one forgets every position without touching memory */
	struct seen_entry *seen;
};

struct walk {
	struct turns *s;
	turns_visit visit;
	void *ctx;
	long max_nodes;
	int64_t deadline_us;
	long nodes;
	int stopped, net_hit;
	struct move line[TURNS_LINE_MAX];
};

int64_t turns_cpu_us(void)
{
	struct timespec ts;
	/* The bot's own CPU time, not the wall clock: a loaded machine slows the
	 * search without moving the net, so the answers stay the same. */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t turns_net_us(int64_t move_ms, int64_t bank_ms, double move_share, double bank_share)
{
	int64_t net = 0;
	if (move_ms > 0)
		net = (int64_t)((double)move_ms * 1000.0 * move_share);
	if (bank_ms > 0) {
		int64_t b = (int64_t)((double)bank_ms * 1000.0 * bank_share);
		if (net == 0 || b < net)
			net = b;
	}
	/* A share that rounds to nothing still leaves a net, not none. */
	return (move_ms > 0 || bank_ms > 0) && net < 1 ? 1 : net;
}

struct turns *turns_new(void)
{
	struct turns *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->seen = calloc(SEEN_SIZE, sizeof(*s->seen));
	if (!s->seen) {
		free(s);
		return NULL;
	}
	return s;
}

void turns_free(struct turns *s)
{
	if (!s)
		return;
	free(s->seen);
	free(s);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* Positions that differ only in which pile holds which value are the same. */
static uint64_t position_key(const struct table *t)
{
	int b[ENGINE_BUILDING_PILES];
	memcpy(b, t->building, sizeof(b));
	for (int i = 1; i < ENGINE_BUILDING_PILES; i++)
		for (int j = i; j > 0 && b[j - 1] > b[j]; j--) {
			int x = b[j];
			b[j] = b[j - 1];
			b[j - 1] = x;
		}
	uint64_t h = 0;
	for (int i = 0; i < ENGINE_BUILDING_PILES; i++)
		h = mix(h, (uint64_t)b[i]);
	for (int c = 0; c < TABLE_CARD_VALUES; c++)
		h = mix(h, (uint64_t)t->hand[c]);
	for (int s = 0; s < t->sides; s++) {
		h = mix(h, (uint64_t)t->side[s].stock_played);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			h = mix(h, (uint64_t)t->side[s].discard_size[p]);
	}
	return mix(h, (uint64_t)t->refilled);
}

/* Order plays: stock tops, then discard tops, then hand numbers, hand wilds last. */
static int play_rank(const struct move *m)
{
	if (m->source == SOURCE_STOCK)
		return 0;
	if (m->source == SOURCE_DISCARD)
		return m->card == CARD_SKIPBO ? 2 : 1;
	return m->card == CARD_SKIPBO ? 4 : 3;
}

static int ordered_plays(const struct table *t, struct move *out)
{
	struct move all[TABLE_MAX_PLAYS];
	int n = table_plays(t, all), k = 0;
	for (int rank = 0; rank <= 4; rank++)
		for (int i = 0; i < n; i++)
			if (play_rank(&all[i]) == rank)
				out[k++] = all[i];
	return k;
}

static int out_of_budget(struct walk *w)
{
	if (w->stopped)
		return 1;
	if (w->max_nodes > 0 && w->nodes >= w->max_nodes)
		w->stopped = 1;
	else if (w->deadline_us > 0 && w->nodes % CLOCK_EVERY == 0 && turns_cpu_us() >= w->deadline_us)
		w->stopped = w->net_hit = 1;
	return w->stopped;
}

static void walk(struct walk *w, const struct table *t, int depth)
{
	w->nodes++;
	if (w->visit(w->ctx, t, w->line, depth) || out_of_budget(w) || depth == TURNS_LINE_MAX)
		return;
	struct move plays[TABLE_MAX_PLAYS];
	int n = ordered_plays(t, plays);
	for (int i = 0; i < n && !w->stopped; i++) {
		struct table child = *t;
		if (table_apply(&child, &plays[i]) < 0)
			continue;
		uint64_t key = position_key(&child);
		struct seen_entry *e = &w->s->seen[key & (SEEN_SIZE - 1)];
		if (e->generation == w->s->generation && e->key == key)
			continue;
		w->line[depth] = plays[i];
		walk(w, &child, depth + 1);
		if (!w->stopped) {
			e->key = key;
			e->generation = w->s->generation;
		}
	}
}

void turns_search(struct turns *s, const struct table *t, long max_nodes, int64_t deadline_us,
		  turns_visit visit, void *ctx, struct turns_stats *stats)
{
	struct walk w = { .s = s, .visit = visit, .ctx = ctx, .max_nodes = max_nodes, .deadline_us = deadline_us };
	if (++s->generation == 0) {
		memset(s->seen, 0, SEEN_SIZE * sizeof(*s->seen));
		s->generation = 1;
	}
	walk(&w, t, 0);
	if (stats) {
		stats->nodes = w.nodes;
		stats->complete = !w.stopped;
		stats->net_hit = w.net_hit;
	}
}
