/*
 * hard.c - the hard reference bot's turn search (see hard.h): the walk of
 * turns.h over the turn's plays, every way to stop scored by turnscore.h.
 */
#include <stdlib.h>

#include "hard.h"
#include "rivals.h"
#include "table.h"
#include "turns.h"
#include "turnscore.h"

struct hard {
	struct hard_config cfg;
	struct turnscore_weights w;
	struct turns *walk;
};

/* The best end of turn found so far, and the first move of its line. */
struct best {
	const struct hard *h;
	struct rivals rv;
	double value;
	int found;
	struct move first;
};

void hard_config_default(struct hard_config *cfg)
{
	cfg->max_nodes = HARD_DEFAULT_MAX_NODES;
	cfg->net_move_share = HARD_DEFAULT_NET_MOVE_SHARE;
	cfg->net_bank_share = HARD_DEFAULT_NET_BANK_SHARE;
}

int64_t hard_net_us(const struct hard_config *cfg, int64_t move_ms, int64_t bank_ms)
{
	return turns_net_us(move_ms, bank_ms, cfg->net_move_share, cfg->net_bank_share);
}

struct hard *hard_new(const struct hard_config *cfg)
{
	struct hard *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->cfg = *cfg;
	turnscore_default(&h->w);
	h->walk = turns_new();
	if (!h->walk) {
		free(h);
		return NULL;
	}
	return h;
}

void hard_free(struct hard *h)
{
	if (!h)
		return;
	turns_free(h->walk);
	free(h);
}

static void consider(struct best *b, double value, const struct move *line, int n, const struct move *stop)
{
	if (b->found && value <= b->value)
		return;
	b->found = 1;
	b->value = value;
	b->first = n > 0 ? line[0] : *stop;
}

/* turns_visit: score the ways to stop at t. */
static int visit(void *ctx, const struct table *t, const struct move *line, int n)
{
	struct best *b = ctx;
	const struct turnscore_weights *w = &b->h->w;
	double base = turnscore_base(w, t, &b->rv);
	struct move stop = { .kind = MOVE_PASS };
	if (base >= w->win) {
		consider(b, base, line, n, &stop);
		return 1;
	}
	double value = t->refilled ? turnscore_refilled(w, t, base) : turnscore_stop(w, t, base, &stop);
	consider(b, value, line, n, &stop);
	return 0;
}

int hard_choose(struct hard *h, const struct seat_view *v, const struct move *legal, int n,
		int64_t move_ms, int64_t bank_ms, struct hard_stats *stats)
{
	if (n <= 0)
		return -1;
	int64_t start = turns_cpu_us();
	int64_t net = hard_net_us(&h->cfg, move_ms, bank_ms);
	struct best b = { .h = h };
	struct table t;
	struct turns_stats ts;

	rivals_from_view(&b.rv, v);
	table_from_view(&t, v);

	turns_search(h->walk, &t, h->cfg.max_nodes, net > 0 ? start + net : 0, visit, &b, &ts);
	int i = b.found ? table_find_legal(legal, n, &b.first) : -1;
	if (i < 0)
		i = table_fallback(legal, n);
	if (stats) {
		stats->nodes = ts.nodes;
		stats->elapsed_us = turns_cpu_us() - start;
		stats->net_us = net;
		stats->complete = ts.complete;
		stats->net_hit = ts.net_hit;
	}
	return i;
}
