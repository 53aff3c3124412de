/*
 * cluster.c - per-deal sums for sandwich standard errors; the reasoning is in
 * cluster.h.
 */
#include "cluster.h"

#include "rating.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cluster_sums_init(struct cluster_sums *c)
{
	memset(c, 0, sizeof(*c));
}

void cluster_sums_release(struct cluster_sums *c)
{
	free(c->buf);
	free(c->meat);
	free(c->pilot);
	memset(c, 0, sizeof(*c));
}

/* Entries one deal takes in the buffer: a header, its bots two by two, its pairs. */
#define DEAL_BOT_ENTRIES (CLUSTER_BOTS_MAX / 2)
#define DEAL_ENTRIES_MAX (1 + DEAL_BOT_ENTRIES + CLUSTER_RESULTS_MAX)
/* The buffer's largest size between folds: full, plus the deal that filled it. */
#define BUFFER_ENTRIES_MAX (CLUSTER_BUFFER_MAX + DEAL_ENTRIES_MAX)

/*
 * Write deal o to out: the header {CLUSTER_HEADER, pairs, nbots}, the bots in
 * DEAL_BOT_ENTRIES entries (i, j), then its pairs of sides. Returns the
 * entries written.
 */
static size_t write_deal(const struct cluster_open *o, struct cluster_pair *out)
{
	for (int b = 0; b < DEAL_BOT_ENTRIES; b++)
		out[1 + b] = (struct cluster_pair){ o->bot[2 * b], o->bot[2 * b + 1], 0, 0 };
	memcpy(&out[1 + DEAL_BOT_ENTRIES], o->pair, (size_t)o->npairs * sizeof(*o->pair));
	out[0] = (struct cluster_pair){ CLUSTER_HEADER, (uint32_t)o->npairs, o->nbots, o->kind };
	return 1 + DEAL_BOT_ENTRIES + (size_t)o->npairs;
}

/* Move the open deal o into the buffer and empty it. -ENOMEM. */
static int close_deal(struct cluster_sums *c, struct cluster_open *o)
{
	size_t need = c->nbuf + DEAL_ENTRIES_MAX;

	if (o->used) {
		if (need > c->capbuf) {
			size_t cap = c->capbuf ? c->capbuf * 2 : 1024;
			while (cap < need)
				cap *= 2;
			/* never more than a full buffer holds: it is folded at CLUSTER_BUFFER_MAX */
			if (need <= BUFFER_ENTRIES_MAX && cap > BUFFER_ENTRIES_MAX)
				cap = BUFFER_ENTRIES_MAX;
			struct cluster_pair *buf = reallocarray(c->buf, cap, sizeof(*buf));
			if (!buf)
				return -ENOMEM;
			c->buf = buf;
			c->capbuf = cap;
		}
		c->nbuf += write_deal(o, &c->buf[c->nbuf]);
	}
	o->used = 0;
	o->nbots = 0;
	o->npairs = 0;
	return 0;
}

static size_t slot_of(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key % CLUSTER_OPEN_MAX;
}

/* Local number of bot in the open deal, added when missing; -1 when the deal is full. */
static int local_bot(struct cluster_open *o, uint32_t bot)
{
	for (int k = 0; k < o->nbots; k++)
		if (o->bot[k] == bot)
			return k;
	if (o->nbots == CLUSTER_BOTS_MAX)
		return -1;
	o->bot[o->nbots] = bot;
	return o->nbots++;
}

/* The open deal of key, closing whichever deal held its slot. -ENOMEM. */
static int open_deal(struct cluster_sums *c, uint64_t key, struct cluster_open **deal)
{
	struct cluster_open *o = &c->open[slot_of(key)];

	if (!o->used || o->key != key) {
		if (close_deal(c, o) < 0)
			return -ENOMEM;
		o->key = key;
		o->used = 1;
		c->clusters += 1.0;
	}
	*deal = o;
	return 0;
}

/* The set of local numbers of a side's bots; 0 when the deal has no room for one. */
static uint32_t local_side(struct cluster_open *o, const unsigned *bots, int n)
{
	uint32_t set = 0;

	for (int k = 0; k < n; k++) {
		int l = local_bot(o, bots[k]);
		if (l < 0)
			return 0;
		set |= 1u << l;
	}
	return set;
}

/* Add result r to the open deal o; -1 when o has no room for it (its bots or its pairs)
 * or is of another kind. */
static int deal_add(struct cluster_open *o, const struct rating_result *r)
{
	uint32_t a, b;
	int k;

	if (o->npairs == 0)
		o->kind = r->kind;
	if (o->kind != r->kind)
		return -1;
	a = local_side(o, r->a, r->na);
	b = local_side(o, r->b, r->nb);
	if (!a || !b)
		return -1;
	for (k = 0; k < o->npairs; k++)
		if ((o->pair[k].i == a && o->pair[k].j == b) || (o->pair[k].i == b && o->pair[k].j == a))
			break;
	if (k == o->npairs) {
		if (k == CLUSTER_RESULTS_MAX)
			return -1;
		o->pair[o->npairs++] = (struct cluster_pair){ a, b, 0, 0 };
	}
	o->pair[k].s += o->pair[k].i == a ? r->score_a : 1.0 - r->score_a;
	o->pair[k].n += 1.0;
	return 0;
}

int cluster_sums_add_results(struct cluster_sums *c, uint64_t key,
			     const struct rating_result *res, size_t count)
{
	struct cluster_open *o = NULL;

	for (size_t k = 0; k < count; k++) {
		if (!o && open_deal(c, key, &o) < 0)
			return -ENOMEM;
		if (deal_add(o, &res[k]) == 0)
			continue;
		/* More bots or sides than a table holds, or another kind: the deal counts apart
		 * from here. */
		if (close_deal(c, o) < 0)
			return -ENOMEM;
		o->key = key;
		o->used = 1;
		c->clusters += 1.0;
		deal_add(o, &res[k]);
	}
	return 0;
}

int cluster_sums_add_placings(struct cluster_sums *c, uint64_t key, int nseats,
			      const unsigned *bot, const int *placing, const unsigned *team)
{
	struct rating_result res[RATING_GAME_RESULTS_MAX];

	return cluster_sums_add_results(c, key, res,
					rating_game_results(nseats, bot, placing, team, res));
}

int cluster_sums_close_all(struct cluster_sums *c)
{
	for (int k = 0; k < CLUSTER_OPEN_MAX; k++)
		if (close_deal(c, &c->open[k]) < 0)
			return -ENOMEM;
	return 0;
}

int cluster_sums_full(const struct cluster_sums *c)
{
	return c->nbuf >= CLUSTER_BUFFER_MAX;
}

/* Side set's strength at abilities g; -1 (no strength) when one of its bots is >= n. */
static int side_strength(uint32_t set, const uint32_t *bot, size_t n, const double *g,
			 double *sum)
{
	*sum = 0;
	for (; set; set &= set - 1) {
		uint32_t b = bot[__builtin_ctz(set)];
		if (b >= n)
			return -1;
		*sum += g[b];
	}
	return 0;
}

/* Add U U' of the deal written at d (write_deal) into the matrix m of `layout` >= n bots
 * (cluster.h's layout) at abilities g[0..n-1] and discriminations scale; results with a
 * bot >= n are skipped. */
static void add_deal(const struct cluster_pair *d, size_t n, size_t layout, const double *g,
		     const double *scale, double *m)
{
	uint32_t npairs = d[0].j, bot[2 * DEAL_BOT_ENTRIES];
	int nbots = (int)d[0].s, kind = (int)d[0].n;
	size_t dim = layout + RATING_KINDS, at[CLUSTER_BOTS_MAX + 1];
	double u[CLUSTER_BOTS_MAX + 1] = { 0 }, beta = scale[kind];

	for (int b = 0; b < DEAL_BOT_ENTRIES; b++) {
		bot[2 * b] = d[1 + b].i;
		bot[2 * b + 1] = d[1 + b].j;
	}
	for (uint32_t k = 0; k < npairs; k++) {
		const struct cluster_pair *p = &d[1 + DEAL_BOT_ENTRIES + k];
		double ga, gb;
		if (side_strength(p->i, bot, n, g, &ga) < 0 || side_strength(p->j, bot, n, g, &gb) < 0)
			continue;
		double eta = beta * (ga - gb), r = p->s - p->n / (1.0 + exp(-eta));
		for (uint32_t set = p->i; set; set &= set - 1)
			u[__builtin_ctz(set)] += r * beta;
		for (uint32_t set = p->j; set; set &= set - 1)
			u[__builtin_ctz(set)] -= r * beta;
		u[nbots] += r * eta; /* the kind's b */
	}
	for (int a = 0; a < nbots; a++)
		at[a] = bot[a] < n ? bot[a] : SIZE_MAX;
	at[nbots] = layout + (size_t)kind;
	for (int a = 0; a <= nbots; a++) {
		if (at[a] == SIZE_MAX || u[a] == 0)
			continue;
		for (int b = 0; b <= nbots; b++)
			if (at[b] != SIZE_MAX)
				m[at[a] * dim + at[b]] += u[a] * u[b];
	}
}

/* Add every buffered deal into m (layout bots, cluster.h's layout; g of n). */
static void add_buffer(const struct cluster_sums *c, size_t n, size_t layout, const double *g,
		       const double *scale, double *m)
{
	for (size_t k = 0; k < c->nbuf; k += 1 + DEAL_BOT_ENTRIES + c->buf[k].j)
		add_deal(&c->buf[k], n, layout, g, scale, m);
}

/* Copy the folded sum into to, a matrix of n bots in cluster.h's layout (zeroed); bots of
 * the sum >= n are left out. */
static void copy_meat(const struct cluster_sums *c, size_t n, double *to)
{
	size_t from = c->meat_n + RATING_KINDS, dim = n + RATING_KINDS;

	for (size_t i = 0; i < from; i++) {
		size_t ti = i < c->meat_n ? i : i - c->meat_n + n;
		if (i < c->meat_n && i >= n)
			continue;
		for (size_t j = 0; j < from; j++) {
			size_t tj = j < c->meat_n ? j : j - c->meat_n + n;
			if (j < c->meat_n && j >= n)
				continue;
			to[ti * dim + tj] = c->meat[i * from + j];
		}
	}
}

int cluster_sums_fold(struct cluster_sums *c, size_t n, const double *g, const double *scale)
{
	if (n > c->meat_n || !c->meat) {
		size_t dim = n + RATING_KINDS;
		double *meat = calloc(dim * dim, sizeof(double));
		if (!meat)
			return -ENOMEM;
		if (c->meat)
			copy_meat(c, n, meat);
		free(c->meat);
		c->meat = meat;
		c->meat_n = n;
	}
	add_buffer(c, n, c->meat_n, g, scale, c->meat);
	c->nbuf = 0;
	return 0;
}

int cluster_sums_meat(const struct cluster_sums *c, size_t n, const double *g,
		      const double *scale, double *meat)
{
	size_t dim = n + RATING_KINDS;

	memset(meat, 0, dim * dim * sizeof(double));
	if (c->meat)
		copy_meat(c, n, meat);
	add_buffer(c, n, n, g, scale, meat);
	for (int k = 0; k < CLUSTER_OPEN_MAX; k++) {
		struct cluster_pair deal[DEAL_ENTRIES_MAX];
		if (!c->open[k].used)
			continue;
		write_deal(&c->open[k], deal);
		add_deal(deal, n, n, g, scale, meat);
	}
	return 0;
}
