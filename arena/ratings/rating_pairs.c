/*
 * rating_pairs.c - results between sides and their sums; the rules are in
 * rating_pairs.h.
 */
#include "rating_pairs.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rating_score.h"

int rating_kind(int players, int partnership)
{
	return (players - 2) * 2 + (partnership != 0);
}

const char *rating_kind_name(int kind)
{
	static const char *const names[RATING_KINDS] = {
		"2-player", "2-player partnership", "3-player", "3-player partnership",
		"4-player", "4-player partnership", "5-player", "5-player partnership",
		"6-player", "6-player partnership",
	};

	return kind >= 0 && kind < RATING_KINDS ? names[kind] : "?";
}

int rating_pairs_init(struct rating_pairs *p, size_t n)
{
	memset(p, 0, sizeof(*p));
	if (n == 0 || n > 65536)
		return -EINVAL;
	p->score = calloc(n * n, sizeof(double));
	p->games = calloc(n * n, sizeof(double));
	if (!p->score || !p->games) {
		rating_pairs_release(p);
		return -ENOMEM;
	}
	p->n = n;
	return 0;
}

void rating_pairs_release(struct rating_pairs *p)
{
	free(p->score);
	free(p->games);
	free(p->groups);
	free(p->slots);
	for (int c = 0; c < RATING_KINDS; c++) {
		free(p->kind_score[c]);
		free(p->kind_games[c]);
	}
	memset(p, 0, sizeof(*p));
}

/* Double the hash of groups (at least 64 slots) and reinsert them. -ENOMEM. */
static int grow_slots(struct rating_pairs *p);

/* A copy of the n0 x n0 matrix from as n x n (cut, or padded with zeros); NULL without
 * memory. */
static double *copy_matrix(const double *from, size_t n0, size_t n)
{
	size_t m = n0 < n ? n0 : n;
	double *to = calloc(n * n, sizeof(double));

	for (size_t i = 0; to && i < m; i++)
		memcpy(&to[i * n], &from[i * n0], m * sizeof(double));
	return to;
}

int rating_pairs_copy(struct rating_pairs *dst, const struct rating_pairs *src, size_t n)
{
	size_t m = src->n < n ? src->n : n;
	int rc = rating_pairs_init(dst, n);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < m; i++) {
		memcpy(&dst->score[i * n], &src->score[i * src->n], m * sizeof(double));
		memcpy(&dst->games[i * n], &src->games[i * src->n], m * sizeof(double));
	}
	for (int c = 0; c < RATING_KINDS; c++) {
		if (!src->kind_score[c])
			continue;
		dst->kind_score[c] = copy_matrix(src->kind_score[c], src->n, n);
		dst->kind_games[c] = copy_matrix(src->kind_games[c], src->n, n);
		if (!dst->kind_score[c] || !dst->kind_games[c]) {
			rating_pairs_release(dst);
			return -ENOMEM;
		}
	}
	dst->results = src->results;
	dst->ties = src->ties;
	memcpy(dst->kind_results, src->kind_results, sizeof(dst->kind_results));
	if (src->ngroups) {
		dst->groups = reallocarray(NULL, src->ngroups, sizeof(*dst->groups));
		if (!dst->groups) {
			rating_pairs_release(dst);
			return -ENOMEM;
		}
		memcpy(dst->groups, src->groups, src->ngroups * sizeof(*dst->groups));
		dst->ngroups = dst->capgroups = src->ngroups;
		if (grow_slots(dst) < 0) {
			rating_pairs_release(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

static void add_cross(struct rating_pairs *p, size_t i, size_t j, double score_i, double count)
{
	p->score[i * p->n + j] += score_i;
	p->score[j * p->n + i] += count - score_i;
	p->games[i * p->n + j] += count;
	p->games[j * p->n + i] += count;
}

/* A team of one game: its bots and its best placing. */
struct side {
	unsigned label, bot[RATING_SIDE_MAX];
	int nbots, placing;
};

/* Whether the two sides share no bot and neither holds one twice. */
static bool distinct_bots(const struct side *x, const struct side *y)
{
	unsigned all[2 * RATING_SIDE_MAX];
	int n = 0;

	for (int k = 0; k < x->nbots; k++)
		all[n++] = x->bot[k];
	for (int k = 0; k < y->nbots; k++)
		all[n++] = y->bot[k];
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (all[a] == all[b])
				return false;
	return true;
}

size_t rating_game_results(int nseats, const unsigned *bot, const int *placing,
			   const unsigned *team, struct rating_result *out)
{
	struct side sides[6];
	int nsides = 0, kind;
	size_t count = 0;

	if (nseats < 2 || nseats > 6)
		return 0;
	for (int s = 0; s < nseats; s++) {
		int t = 0;
		while (t < nsides && sides[t].label != team[s])
			t++;
		if (t == nsides)
			sides[nsides++] = (struct side){ .label = team[s], .placing = placing[s] };
		if (sides[t].nbots == RATING_SIDE_MAX)
			return 0;
		sides[t].bot[sides[t].nbots++] = bot[s];
		if (placing[s] < sides[t].placing)
			sides[t].placing = placing[s];
	}
	kind = rating_kind(nseats, nsides < nseats);
	for (int x = 0; x < nsides; x++)
		for (int y = x + 1; y < nsides; y++) {
			struct rating_result *r = &out[count];
			if (!distinct_bots(&sides[x], &sides[y]))
				continue;
			r->na = sides[x].nbots;
			r->nb = sides[y].nbots;
			r->kind = kind;
			memcpy(r->a, sides[x].bot, sizeof(r->a));
			memcpy(r->b, sides[y].bot, sizeof(r->b));
			r->score_a = sides[x].placing < sides[y].placing ? 1.0 :
				     sides[x].placing > sides[y].placing ? 0.0 : 0.5;
			count++;
		}
	return count;
}

static void sort_side(uint32_t *bots, int n)
{
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && bots[b - 1] > bots[b]; b--) {
			uint32_t t = bots[b];
			bots[b] = bots[b - 1];
			bots[b - 1] = t;
		}
}

/* The canonical form of a result's group: sides sorted, the smaller side first (*flipped
 * when that swapped them). */
static struct rating_group group_key(const struct rating_result *r, bool *flipped)
{
	struct rating_group k = { .na = (uint8_t)r->na, .nb = (uint8_t)r->nb,
				  .kind = (uint8_t)r->kind };

	for (int i = 0; i < RATING_SIDE_MAX; i++) {
		k.a[i] = i < r->na ? r->a[i] : UINT32_MAX;
		k.b[i] = i < r->nb ? r->b[i] : UINT32_MAX;
	}
	sort_side(k.a, k.na);
	sort_side(k.b, k.nb);
	*flipped = k.nb < k.na || (k.nb == k.na && memcmp(k.b, k.a, sizeof(k.a)) < 0);
	if (*flipped) {
		struct rating_group t = k;
		memcpy(k.a, t.b, sizeof(k.a));
		memcpy(k.b, t.a, sizeof(k.b));
		k.na = t.nb;
		k.nb = t.na;
	}
	return k;
}

static size_t group_hash(const struct rating_group *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ k->kind;

	for (int i = 0; i < RATING_SIDE_MAX; i++) {
		h = (h ^ k->a[i]) * 0xff51afd7ed558ccdull;
		h = (h ^ k->b[i]) * 0xc4ceb9fe1a85ec53ull;
	}
	return (size_t)(h ^ h >> 29);
}

static bool same_group(const struct rating_group *x, const struct rating_group *y)
{
	return x->kind == y->kind && x->na == y->na && x->nb == y->nb &&
	       !memcmp(x->a, y->a, sizeof(x->a)) && !memcmp(x->b, y->b, sizeof(x->b));
}

/* The slot holding k's group, or the empty slot where it belongs. */
static size_t group_slot(const struct rating_pairs *p, const struct rating_group *k)
{
	size_t mask = p->nslots - 1, i = group_hash(k) & mask;

	while (p->slots[i] && !same_group(&p->groups[p->slots[i] - 1], k))
		i = (i + 1) & mask;
	return i;
}

static int grow_slots(struct rating_pairs *p)
{
	size_t nslots = p->nslots ? p->nslots * 2 : 64;

	while (nslots < 2 * p->ngroups + 2)
		nslots *= 2;
	uint32_t *slots = calloc(nslots, sizeof(*slots));
	if (!slots || p->ngroups >= UINT32_MAX / 2) {
		free(slots);
		return -ENOMEM;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = nslots;
	for (size_t t = 0; t < p->ngroups; t++)
		p->slots[group_slot(p, &p->groups[t])] = (uint32_t)(t + 1);
	return 0;
}

/* Add count results with r's sides and kind, side a scoring points, into their group.
 * -ENOMEM. */
static int add_group(struct rating_pairs *p, const struct rating_result *r, double points,
		     double count)
{
	bool flipped;
	struct rating_group k = group_key(r, &flipped);

	if (flipped)
		points = count - points;
	if ((p->ngroups + 1) * 2 > p->nslots && grow_slots(p) < 0)
		return -ENOMEM;
	size_t i = group_slot(p, &k);
	if (p->slots[i]) {
		p->groups[p->slots[i] - 1].s += points;
		p->groups[p->slots[i] - 1].n += count;
		return 0;
	}
	if (p->ngroups == p->capgroups) {
		size_t cap = p->capgroups ? p->capgroups * 2 : 64;
		struct rating_group *t = reallocarray(p->groups, cap, sizeof(*t));
		if (!t)
			return -ENOMEM;
		p->groups = t;
		p->capgroups = cap;
	}
	k.s = points;
	k.n = count;
	p->groups[p->ngroups] = k;
	p->slots[i] = (uint32_t)++p->ngroups;
	return 0;
}

/* Add count results of kind between single bots i and j, i scoring points. -ENOMEM. */
static int add_single(struct rating_pairs *p, int kind, size_t i, size_t j, double points,
		      double count)
{
	size_t n = p->n;

	if (!p->kind_score[kind]) {
		p->kind_score[kind] = calloc(n * n, sizeof(double));
		p->kind_games[kind] = calloc(n * n, sizeof(double));
		if (!p->kind_score[kind] || !p->kind_games[kind]) {
			free(p->kind_score[kind]);
			free(p->kind_games[kind]);
			p->kind_score[kind] = p->kind_games[kind] = NULL;
			return -ENOMEM;
		}
	}
	p->kind_score[kind][i * n + j] += points;
	p->kind_score[kind][j * n + i] += count - points;
	p->kind_games[kind][i * n + j] += count;
	p->kind_games[kind][j * n + i] += count;
	return 0;
}

int rating_pairs_add(struct rating_pairs *p, size_t i, size_t j, double score_i, double count)
{
	if (count <= 0)
		return 0;
	if (add_single(p, 0, i, j, score_i, count) < 0)
		return -ENOMEM;
	add_cross(p, i, j, score_i, count);
	p->results += count;
	p->kind_results[0] += count;
	return 0;
}

int rating_pairs_add_results(struct rating_pairs *p, const struct rating_result *res, size_t count)
{
	for (size_t k = 0; k < count; k++) {
		const struct rating_result *r = &res[k];
		if (r->kind < 0 || r->kind >= RATING_KINDS)
			return -EINVAL;
		if (r->na == 1 && r->nb == 1 ? add_single(p, r->kind, r->a[0], r->b[0], r->score_a, 1.0)
					     : add_group(p, r, r->score_a, 1.0) < 0)
			return -ENOMEM;
		for (int a = 0; a < r->na; a++)
			for (int b = 0; b < r->nb; b++)
				add_cross(p, r->a[a], r->b[b], r->score_a, 1.0);
		p->results += 1.0;
		p->ties += r->score_a == 0.5;
		p->kind_results[r->kind] += 1.0;
	}
	return 0;
}

size_t rating_pairs_add_placings(struct rating_pairs *p, int nseats, const unsigned *bot,
				 const int *placing, const unsigned *team)
{
	struct rating_result res[RATING_GAME_RESULTS_MAX];
	size_t count = rating_game_results(nseats, bot, placing, team, res);

	return rating_pairs_add_results(p, res, count) < 0 ? 0 : count;
}

/* Side a's Elo less side b's for a group, times its kind's discrimination. */
static double group_difference(const struct rating_group *gr, const double *elo,
			       const double *scale)
{
	double d = 0;

	for (int k = 0; k < gr->na; k++)
		d += elo[gr->a[k]];
	for (int k = 0; k < gr->nb; k++)
		d -= elo[gr->b[k]];
	return d * scale[gr->kind];
}

void rating_pairs_drop(struct rating_pairs *p, size_t i)
{
	size_t n = p->n;

	for (size_t j = 0; j < n; j++) {
		for (int c = 0; c < RATING_KINDS; c++)
			if (p->kind_games[c]) {
				p->kind_score[c][i * n + j] = p->kind_score[c][j * n + i] = 0;
				p->kind_games[c][i * n + j] = p->kind_games[c][j * n + i] = 0;
			}
	}
	for (size_t t = 0; t < p->ngroups; t++) {
		struct rating_group *g = &p->groups[t];
		bool in = false;

		for (int k = 0; k < g->na; k++)
			in = in || g->a[k] == i;
		for (int k = 0; k < g->nb; k++)
			in = in || g->b[k] == i;
		/* kept in the hash, empty: rating_pairs_each passes it over */
		if (in)
			g->s = g->n = 0;
	}
}

void rating_pairs_each(const struct rating_pairs *p,
		       void (*fn)(void *ctx, const struct rating_group *group), void *ctx)
{
	size_t n = p->n;

	for (int c = 0; c < RATING_KINDS; c++)
		for (size_t i = 0; p->kind_games[c] && i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				struct rating_group gr = {
					{ (uint32_t)i, UINT32_MAX, UINT32_MAX },
					{ (uint32_t)j, UINT32_MAX, UINT32_MAX }, 1, 1, (uint8_t)c,
					p->kind_score[c][i * n + j], p->kind_games[c][i * n + j]
				};
				if (gr.n > 0)
					fn(ctx, &gr);
			}
	for (size_t t = 0; t < p->ngroups; t++)
		if (p->groups[t].n > 0)
			fn(ctx, &p->groups[t]);
}

struct expectation {
	size_t n;
	const double *elo, *scale;
	double *expect, *var;
};

static void add_expectation(void *ctx, const struct rating_group *gr)
{
	struct expectation *x = ctx;
	size_t n = x->n;
	double e = rating_expected(group_difference(gr, x->elo, x->scale));

	for (int a = 0; a < gr->na; a++)
		for (int b = 0; b < gr->nb; b++) {
			size_t i = gr->a[a], j = gr->b[b];
			x->expect[i * n + j] += gr->n * e;
			x->expect[j * n + i] += gr->n * (1.0 - e);
			x->var[i * n + j] += gr->n * e * (1.0 - e);
			x->var[j * n + i] = x->var[i * n + j];
		}
}

void rating_cross_expected(const struct rating_pairs *p, const double *elo, const double *scale,
			   double *expect, double *var)
{
	struct expectation x = { p->n, elo, scale, expect, var };

	memset(expect, 0, p->n * p->n * sizeof(double));
	memset(var, 0, p->n * p->n * sizeof(double));
	rating_pairs_each(p, add_expectation, &x);
}

struct extreme {
	const double *elo, *scale;
	size_t i;
	double x, sum;
	int best;
};

static void add_extreme(void *ctx, const struct rating_group *gr)
{
	struct extreme *x = ctx;
	double side = 0;

	for (int k = 0; k < gr->na; k++)
		side += gr->a[k] == x->i;
	for (int k = 0; k < gr->nb; k++)
		side -= gr->b[k] == x->i;
	if (side == 0)
		return;
	double d = group_difference(gr, x->elo, x->scale) +
		   side * (x->x - x->elo[x->i]) * x->scale[gr->kind];
	double e = rating_expected(side * d); /* i's side's expectation */
	x->sum += gr->n * log(x->best ? e : 1.0 - e);
}

double rating_log_extreme(const struct rating_pairs *p, const double *elo, const double *scale,
			  size_t i, double x, int best)
{
	struct extreme ex = { elo, scale, i, x, 0, best };

	rating_pairs_each(p, add_extreme, &ex);
	return ex.sum;
}
