/*
 * cluster.c - per-deal sums for sandwich standard errors; the reasoning is in
 * cluster.h.
 */
#include "cluster.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Sums over clusters of the products of pair p's and pair q's sums (p, q ordered). */
struct cluster_entry {
	uint64_t key; /* p << 32 | q, p = i << 16 | j */
	bool used;
	double ss, sn, ns, nn;
};

void cluster_sums_init(struct cluster_sums *c)
{
	memset(c, 0, sizeof(*c));
}

void cluster_sums_release(struct cluster_sums *c)
{
	free(c->map);
	memset(c, 0, sizeof(*c));
}

static size_t entry_hash(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key;
}

static struct cluster_entry *entry_find(struct cluster_entry *map, size_t nmap, uint64_t key)
{
	size_t mask = nmap - 1, i = entry_hash(key) & mask;

	while (map[i].used && map[i].key != key)
		i = (i + 1) & mask;
	return &map[i];
}

static int map_grow(struct cluster_sums *c)
{
	size_t nmap = c->nmap ? c->nmap * 2 : 256;
	struct cluster_entry *map = calloc(nmap, sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (size_t k = 0; k < c->nmap; k++)
		if (c->map[k].used)
			*entry_find(map, nmap, c->map[k].key) = c->map[k];
	free(c->map);
	c->map = map;
	c->nmap = nmap;
	return 0;
}

static uint64_t pair_key(const struct cluster_pair *p)
{
	return (uint64_t)p->i << 16 | p->j;
}

/* Add a_p (x) b_q to the entry (p, q). */
static int add_product(struct cluster_sums *c, const struct cluster_pair *a,
		       const struct cluster_pair *b)
{
	if ((c->used + 1) * 2 > c->nmap) {
		int rc = map_grow(c);
		if (rc < 0)
			return rc;
	}
	struct cluster_entry *e = entry_find(c->map, c->nmap, pair_key(a) << 32 | pair_key(b));
	if (!e->used) {
		*e = (struct cluster_entry){ .key = pair_key(a) << 32 | pair_key(b), .used = true };
		c->used++;
	}
	e->ss += a->s * b->s;
	e->sn += a->s * b->n;
	e->ns += a->n * b->s;
	e->nn += a->n * b->n;
	return 0;
}

/* The open slot of key, or an empty or least recently used one, reset for it. */
static struct cluster_open *open_slot(struct cluster_sums *c, uint64_t key)
{
	struct cluster_open *oldest = &c->open[0];

	for (int k = 0; k < CLUSTER_OPEN_MAX; k++) {
		struct cluster_open *o = &c->open[k];
		if (o->used && o->key == key)
			return o;
		if (o->used < oldest->used)
			oldest = o;
	}
	oldest->key = key;
	oldest->used = 0;
	oldest->npairs = 0;
	return oldest;
}

/* Index of pair (i, j) in list, appended with zero sums when missing; -1 when full. */
static int pair_index(struct cluster_pair *list, int *count, uint32_t i, uint32_t j)
{
	for (int k = 0; k < *count; k++)
		if (list[k].i == i && list[k].j == j)
			return k;
	if (*count == CLUSTER_PAIRS_MAX)
		return -1;
	list[*count] = (struct cluster_pair){ i, j, 0, 0 };
	return (*count)++;
}

int cluster_sums_add_placings(struct cluster_sums *c, uint64_t key, int nseats,
			      const unsigned *bot, const int *placing, const unsigned *team)
{
	struct cluster_pair x[CLUSTER_PAIRS_MAX], old[CLUSTER_PAIRS_MAX];
	int nx = 0, nold;

	for (int a = 0; a < nseats; a++) {
		for (int b = a + 1; b < nseats; b++) {
			if (team[a] == team[b] || bot[a] == bot[b])
				continue;
			double s = placing[a] < placing[b] ? 1.0 : placing[a] > placing[b] ? 0.0 : 0.5;
			uint32_t i = bot[a], j = bot[b];
			if (i > j) {
				i = bot[b];
				j = bot[a];
				s = 1.0 - s;
			}
			int k = pair_index(x, &nx, i, j);
			if (k < 0)
				return -EINVAL;
			x[k].s += s;
			x[k].n += 1.0;
		}
	}
	if (nx == 0)
		return 0;
	c->records++;
	struct cluster_open *o = open_slot(c, key);
	if (o->used == 0)
		c->clusters += 1.0;
	nold = o->npairs;
	memcpy(old, o->pair, (size_t)nold * sizeof(*old));
	for (int k = 0; k < nx; k++) {
		int t = pair_index(o->pair, &o->npairs, x[k].i, x[k].j);
		if (t < 0) {
			/* More bots than a table holds: start the deal afresh. */
			o->npairs = 0;
			nold = 0;
			c->clusters += 1.0;
			k = -1;
			continue;
		}
		o->pair[t].s += x[k].s;
		o->pair[t].n += x[k].n;
	}
	o->used = c->records;
	/* T = X + x: sum T_p T_q - X_p X_q = x_p T_q + X_p x_q. */
	for (int p = 0; p < nx; p++)
		for (int q = 0; q < o->npairs; q++)
			if (add_product(c, &x[p], &o->pair[q]) < 0)
				return -ENOMEM;
	for (int p = 0; p < nold; p++)
		for (int q = 0; q < nx; q++)
			if (add_product(c, &old[p], &x[q]) < 0)
				return -ENOMEM;
	return 0;
}

void cluster_sums_close_all(struct cluster_sums *c)
{
	memset(c->open, 0, sizeof(c->open));
}

static double expected(const double *g, size_t i, size_t j)
{
	return 1.0 / (1.0 + exp(-(g[i] - g[j])));
}

void cluster_sums_meat(const struct cluster_sums *c, size_t n, const double *g, double *meat)
{
	memset(meat, 0, n * n * sizeof(double));
	for (size_t k = 0; k < c->nmap; k++) {
		const struct cluster_entry *e = &c->map[k];
		if (!e->used)
			continue;
		size_t i = (size_t)(e->key >> 48), j = (size_t)(e->key >> 32) & 0xffff;
		size_t u = (size_t)(e->key >> 16) & 0xffff, v = (size_t)e->key & 0xffff;
		if (i >= n || j >= n || u >= n || v >= n)
			continue;
		double ep = expected(g, i, j), eq = expected(g, u, v);
		/* sum over clusters of (S_p - N_p E_p)(S_q - N_q E_q) */
		double w = e->ss - eq * e->sn - ep * e->ns + ep * eq * e->nn;
		meat[i * n + u] += w;
		meat[i * n + v] -= w;
		meat[j * n + u] -= w;
		meat[j * n + v] += w;
	}
}
