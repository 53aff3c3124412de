/*
 * cluster.c - per-deal sums for sandwich standard errors; the reasoning is in
 * cluster.h.
 */
#include "cluster.h"

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
#define DEAL_ENTRIES_MAX (1 + DEAL_BOT_ENTRIES + CLUSTER_BOTS_MAX * (CLUSTER_BOTS_MAX - 1) / 2)
/* The buffer's largest size between folds: full, plus the deal that filled it. */
#define BUFFER_ENTRIES_MAX (CLUSTER_BUFFER_MAX + DEAL_ENTRIES_MAX)

/*
 * Write deal o to out: the header {CLUSTER_HEADER, pairs, nbots}, the bots in
 * DEAL_BOT_ENTRIES entries (i, j), then one entry per two bots that met, by
 * their local numbers. Returns the entries written.
 */
static size_t write_deal(const struct cluster_open *o, struct cluster_pair *out)
{
	size_t k = 1 + DEAL_BOT_ENTRIES;

	for (int b = 0; b < DEAL_BOT_ENTRIES; b++)
		out[1 + b] = (struct cluster_pair){ o->bot[2 * b], o->bot[2 * b + 1], 0, 0 };
	for (int a = 0; a < o->nbots; a++)
		for (int b = a + 1; b < o->nbots; b++)
			if (o->n[a][b] > 0)
				out[k++] = (struct cluster_pair){ (uint32_t)a, (uint32_t)b, o->s[a][b],
								  o->n[a][b] };
	out[0] = (struct cluster_pair){ CLUSTER_HEADER, (uint32_t)(k - 1 - DEAL_BOT_ENTRIES),
					o->nbots, 0 };
	return k;
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
		for (int a = 0; a < o->nbots; a++)
			for (int b = 0; b < o->nbots; b++)
				o->s[a][b] = o->n[a][b] = 0;
	}
	o->used = 0;
	o->nbots = 0;
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

int cluster_sums_add_placings(struct cluster_sums *c, uint64_t key, int nseats,
			      const unsigned *bot, const int *placing, const unsigned *team)
{
	struct cluster_open *o = NULL;
	int local[CLUSTER_BOTS_MAX];

	for (int a = 0; a < nseats; a++) {
		for (int b = a + 1; b < nseats; b++) {
			if (team[a] == team[b] || bot[a] == bot[b])
				continue;
			if (!o) {
				/* The deal opens with the record's first result; its bots get numbers. */
				if (open_deal(c, key, &o) < 0)
					return -ENOMEM;
				for (int s = 0; s < nseats; s++) {
					local[s] = local_bot(o, bot[s]);
					if (local[s] < 0) {
						/* More bots than a table holds: the deal counts apart from here. */
						if (close_deal(c, o) < 0)
							return -ENOMEM;
						o->used = 1;
						c->clusters += 1.0;
						s = -1;
					}
				}
			}
			double sc = placing[a] < placing[b] ? 1.0 : placing[a] > placing[b] ? 0.0 : 0.5;
			int x = local[a], y = local[b];
			o->s[x][y] += sc;
			o->s[y][x] += 1.0 - sc;
			o->n[x][y] += 1.0;
			o->n[y][x] += 1.0;
		}
	}
	return 0;
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

/* Add U U' of the deal written at d (write_deal) into the matrix m (row length stride), e
 * (n x n) the expected scores at the ratings; bots >= n are skipped. */
static void add_deal(const struct cluster_pair *d, size_t n, size_t stride, const double *e,
		     double *m)
{
	uint32_t npairs = d[0].j, bot[2 * DEAL_BOT_ENTRIES];
	int nbots = (int)d[0].s;
	double u[CLUSTER_BOTS_MAX] = { 0 };

	for (int b = 0; b < DEAL_BOT_ENTRIES; b++) {
		bot[2 * b] = d[1 + b].i;
		bot[2 * b + 1] = d[1 + b].j;
	}
	for (uint32_t k = 0; k < npairs; k++) {
		const struct cluster_pair *p = &d[1 + DEAL_BOT_ENTRIES + k];
		uint32_t i = bot[p->i], j = bot[p->j];
		if (i >= n || j >= n)
			continue;
		double r = p->s - p->n * e[i * n + j];
		u[p->i] += r;
		u[p->j] -= r;
	}
	for (int a = 0; a < nbots; a++) {
		if (bot[a] >= n || u[a] == 0)
			continue;
		for (int b = 0; b < nbots; b++)
			if (bot[b] < n)
				m[bot[a] * stride + bot[b]] += u[a] * u[b];
	}
}

/* The n x n expected scores at abilities g; NULL without memory. */
static double *expected_scores(size_t n, const double *g)
{
	double *e = reallocarray(NULL, n * n, sizeof(double));

	if (!e)
		return NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			e[i * n + j] = 1.0 / (1.0 + exp(-(g[i] - g[j])));
	return e;
}

/* Add every buffered deal into m (row length stride >= n), e from expected_scores. */
static void add_buffer(const struct cluster_sums *c, size_t n, size_t stride, const double *e,
		       double *m)
{
	for (size_t k = 0; k < c->nbuf; k += 1 + DEAL_BOT_ENTRIES + c->buf[k].j)
		add_deal(&c->buf[k], n, stride, e, m);
}

int cluster_sums_fold(struct cluster_sums *c, size_t n, const double *g)
{
	double *e = expected_scores(n, g);

	if (!e)
		return -ENOMEM;
	if (n > c->meat_n) {
		double *meat = calloc(n * n, sizeof(double));
		if (!meat) {
			free(e);
			return -ENOMEM;
		}
		for (size_t i = 0; i < c->meat_n; i++)
			memcpy(&meat[i * n], &c->meat[i * c->meat_n], c->meat_n * sizeof(double));
		free(c->meat);
		c->meat = meat;
		c->meat_n = n;
	}
	add_buffer(c, n, c->meat_n, e, c->meat);
	c->nbuf = 0;
	free(e);
	return 0;
}

int cluster_sums_meat(const struct cluster_sums *c, size_t n, const double *g, double *meat)
{
	size_t m = c->meat_n < n ? c->meat_n : n;
	double *e = expected_scores(n, g);

	if (!e)
		return -ENOMEM;
	memset(meat, 0, n * n * sizeof(double));
	for (size_t i = 0; i < m; i++)
		memcpy(&meat[i * n], &c->meat[i * c->meat_n], m * sizeof(double));
	add_buffer(c, n, n, e, meat);
	for (int k = 0; k < CLUSTER_OPEN_MAX; k++) {
		struct cluster_pair deal[DEAL_ENTRIES_MAX];
		if (!c->open[k].used)
			continue;
		write_deal(&c->open[k], deal);
		add_deal(deal, n, n, e, meat);
	}
	free(e);
	return 0;
}
