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

#include "rating.h"

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
	free(p->teams);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

/* Double the hash of team results (at least 64 slots) and reinsert them. -ENOMEM. */
static int grow_team_slots(struct rating_pairs *p);

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
	dst->results = src->results;
	dst->ties = src->ties;
	if (src->nteams) {
		dst->teams = reallocarray(NULL, src->nteams, sizeof(*dst->teams));
		if (!dst->teams) {
			rating_pairs_release(dst);
			return -ENOMEM;
		}
		memcpy(dst->teams, src->teams, src->nteams * sizeof(*dst->teams));
		dst->nteams = dst->capteams = src->nteams;
		if (grow_team_slots(dst) < 0) {
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

void rating_pairs_add(struct rating_pairs *p, size_t i, size_t j, double score_i, double count)
{
	add_cross(p, i, j, score_i, count);
	p->results += count;
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
	int nsides = 0;
	size_t count = 0;

	if (nseats > 6)
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
	for (int x = 0; x < nsides; x++)
		for (int y = x + 1; y < nsides; y++) {
			struct rating_result *r = &out[count];
			if (!distinct_bots(&sides[x], &sides[y]))
				continue;
			r->na = sides[x].nbots;
			r->nb = sides[y].nbots;
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

/* The canonical form of a team result: sides sorted, the smaller side first. */
static struct rating_team team_key(const struct rating_result *r)
{
	struct rating_team k = { .na = (uint8_t)r->na, .nb = (uint8_t)r->nb, .s = r->score_a, .n = 1 };

	for (int i = 0; i < RATING_SIDE_MAX; i++) {
		k.a[i] = i < r->na ? r->a[i] : UINT32_MAX;
		k.b[i] = i < r->nb ? r->b[i] : UINT32_MAX;
	}
	sort_side(k.a, k.na);
	sort_side(k.b, k.nb);
	if (k.nb < k.na || (k.nb == k.na && memcmp(k.b, k.a, sizeof(k.a)) < 0)) {
		struct rating_team t = k;
		memcpy(k.a, t.b, sizeof(k.a));
		memcpy(k.b, t.a, sizeof(k.b));
		k.na = t.nb;
		k.nb = t.na;
		k.s = 1.0 - t.s;
	}
	return k;
}

static size_t team_hash(const struct rating_team *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < RATING_SIDE_MAX; i++) {
		h = (h ^ k->a[i]) * 0xff51afd7ed558ccdull;
		h = (h ^ k->b[i]) * 0xc4ceb9fe1a85ec53ull;
	}
	return (size_t)(h ^ h >> 29);
}

static bool same_sides(const struct rating_team *x, const struct rating_team *y)
{
	return x->na == y->na && x->nb == y->nb && !memcmp(x->a, y->a, sizeof(x->a)) &&
	       !memcmp(x->b, y->b, sizeof(x->b));
}

/* The slot holding k's sides, or the empty slot where they belong. */
static size_t team_slot(const struct rating_pairs *p, const struct rating_team *k)
{
	size_t mask = p->nslots - 1, i = team_hash(k) & mask;

	while (p->slots[i] && !same_sides(&p->teams[p->slots[i] - 1], k))
		i = (i + 1) & mask;
	return i;
}

static int grow_team_slots(struct rating_pairs *p)
{
	size_t nslots = p->nslots ? p->nslots * 2 : 64;

	while (nslots < 2 * p->nteams + 2)
		nslots *= 2;
	uint32_t *slots = calloc(nslots, sizeof(*slots));
	if (!slots || p->nteams >= UINT32_MAX / 2) {
		free(slots);
		return -ENOMEM;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = nslots;
	for (size_t t = 0; t < p->nteams; t++)
		p->slots[team_slot(p, &p->teams[t])] = (uint32_t)(t + 1);
	return 0;
}

/* Add one team result into the list of team results. -ENOMEM. */
static int add_team(struct rating_pairs *p, const struct rating_result *r)
{
	struct rating_team k = team_key(r);

	if ((p->nteams + 1) * 2 > p->nslots && grow_team_slots(p) < 0)
		return -ENOMEM;
	size_t i = team_slot(p, &k);
	if (p->slots[i]) {
		p->teams[p->slots[i] - 1].s += k.s;
		p->teams[p->slots[i] - 1].n += 1.0;
		return 0;
	}
	if (p->nteams == p->capteams) {
		size_t cap = p->capteams ? p->capteams * 2 : 64;
		struct rating_team *t = reallocarray(p->teams, cap, sizeof(*t));
		if (!t)
			return -ENOMEM;
		p->teams = t;
		p->capteams = cap;
	}
	p->teams[p->nteams] = k;
	p->slots[i] = (uint32_t)++p->nteams;
	return 0;
}

int rating_pairs_add_results(struct rating_pairs *p, const struct rating_result *res, size_t count)
{
	for (size_t k = 0; k < count; k++) {
		const struct rating_result *r = &res[k];
		if ((r->na > 1 || r->nb > 1) && add_team(p, r) < 0)
			return -ENOMEM;
		for (int a = 0; a < r->na; a++)
			for (int b = 0; b < r->nb; b++)
				add_cross(p, r->a[a], r->b[b], r->score_a, 1.0);
		p->results += 1.0;
		p->ties += r->score_a == 0.5;
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

/* Side a's Elo less side b's for a team result. */
static double team_difference(const struct rating_team *tm, const double *elo)
{
	double d = 0;

	for (int k = 0; k < tm->na; k++)
		d += elo[tm->a[k]];
	for (int k = 0; k < tm->nb; k++)
		d -= elo[tm->b[k]];
	return d;
}

void rating_cross_expected(const struct rating_pairs *p, const double *elo, double *expect,
			   double *var)
{
	size_t n = p->n;

	/* Single bots first: the whole cross table as if every result were theirs... */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double e = rating_expected(elo[i] - elo[j]), games = p->games[i * n + j];
			expect[i * n + j] = games * e;
			var[i * n + j] = games * e * (1.0 - e);
		}
	/* ...then each team result moved from the pairwise expectation to its team's. */
	for (size_t t = 0; t < p->nteams; t++) {
		const struct rating_team *tm = &p->teams[t];
		double e = rating_expected(team_difference(tm, elo));
		for (int a = 0; a < tm->na; a++)
			for (int b = 0; b < tm->nb; b++) {
				size_t i = tm->a[a], j = tm->b[b];
				double ep = rating_expected(elo[i] - elo[j]);
				expect[i * n + j] += tm->n * (e - ep);
				expect[j * n + i] += tm->n * (ep - e);
				var[i * n + j] += tm->n * (e * (1.0 - e) - ep * (1.0 - ep));
				var[j * n + i] = var[i * n + j];
			}
	}
}

double rating_log_extreme(const struct rating_pairs *p, const double *elo, size_t i, double x,
			  int best)
{
	size_t n = p->n;
	double sum = 0;

	/* Every result of i as if between single bots, then the team results corrected. */
	for (size_t j = 0; j < n; j++) {
		double games = p->games[i * n + j];
		if (j == i || games <= 0)
			continue;
		double e = rating_expected(x - elo[j]);
		sum += games * log(best ? e : 1.0 - e);
	}
	for (size_t t = 0; t < p->nteams; t++) {
		const struct rating_team *tm = &p->teams[t];
		double side = 0, d = team_difference(tm, elo);
		for (int k = 0; k < tm->na; k++)
			side += tm->a[k] == i;
		for (int k = 0; k < tm->nb; k++)
			side -= tm->b[k] == i;
		if (side == 0)
			continue;
		d += side * (x - elo[i]);
		double e = rating_expected(side * d); /* i's side's expectation */
		sum += tm->n * log(best ? e : 1.0 - e);
		/* the cross table counted this result once per opponent of i */
		const uint32_t *opp = side > 0 ? tm->b : tm->a;
		int nopp = side > 0 ? tm->nb : tm->na;
		for (int k = 0; k < nopp; k++) {
			double ep = rating_expected(x - elo[opp[k]]);
			sum -= tm->n * log(best ? ep : 1.0 - ep);
		}
	}
	return sum;
}
