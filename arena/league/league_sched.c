/*
 * league_sched.c - the league's choice of the next deal; the rule is in
 * league_sched.h and LEAGUE.md.
 */
#include "league_sched.h"

#include "schedule.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959963984540054
#define ELO_PER_NAT (400.0 / M_LN10)
/* bounds of the fit's variance over the model's: the model is off by a factor, not more */
#define SCALE2_MIN (1.0 / 64)
#define SCALE2_MAX 64.0

int league_sched_init(struct league_sched *s, int players, uint64_t floor_deals, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	if (players < 2 || players > LEAGUE_SCHED_PLAYERS_MAX)
		return -EINVAL;
	s->players = players;
	s->floor_deals = floor_deals;
	s->seed = seed;
	s->scale2 = 1.0;
	league_info_init(&s->info);
	return 0;
}

void league_sched_release(struct league_sched *s)
{
	free(s->entry);
	free(s->deals);
	free(s->g);
	free(s->anchor);
	league_info_release(&s->info);
	free(s->met);
	free(s->pending);
	free(s->order);
	memset(s, 0, sizeof(*s));
}

/* Room for n entries: the arrays grown, the pair counts copied into a larger square. */
static int reserve(struct league_sched *s, size_t n)
{
	size_t cap = s->cap ? s->cap : 16;

	if (n <= s->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	struct league_sched_entry *entry = reallocarray(s->entry, cap, sizeof(*entry));
	if (entry)
		s->entry = entry;
	uint64_t *deals = reallocarray(s->deals, cap, sizeof(*deals));
	if (deals)
		s->deals = deals;
	double *g = reallocarray(s->g, cap, sizeof(*g));
	if (g)
		s->g = g;
	bool *anchor = reallocarray(s->anchor, cap, sizeof(*anchor));
	if (anchor)
		s->anchor = anchor;
	uint32_t *order = reallocarray(s->order, cap, sizeof(*order));
	if (order)
		s->order = order;
	uint32_t *met = calloc(cap * cap, sizeof(*met));
	if (!entry || !deals || !g || !anchor || !order || !met) {
		free(met);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		memcpy(&met[i * cap], &s->met[i * s->cap], s->n * sizeof(*met));
	for (size_t i = s->n; i < cap; i++)
		s->deals[i] = 0;
	free(s->met);
	s->met = met;
	s->cap = cap;
	return 0;
}

/* Whether entry a ranks above b: rated entries by Elo descending, then unrated ones, ties
 * by number. */
static bool ranks_above(const struct league_sched_entry *e, uint32_t a, uint32_t b)
{
	double ea = e[a].elo, eb = e[b].elo;

	if (isnan(ea) != isnan(eb))
		return !isnan(ea);
	if (!isnan(ea) && ea != eb)
		return ea > eb;
	return a < b;
}

/* s->order: the active entries in ranking order (an insertion sort: it runs once per update,
 * over a few hundred entries at most, on an order that changes little). */
static void rank_entries(struct league_sched *s)
{
	s->nactive = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		if (!s->entry[i].active)
			continue;
		size_t k = s->nactive++;
		while (k > 0 && ranks_above(s->entry, i, s->order[k - 1])) {
			s->order[k] = s->order[k - 1];
			k--;
		}
		s->order[k] = i;
	}
}

/* The model built anew from the deals counted, at the last update's ratings. */
static int rebuild(struct league_sched *s)
{
	int rc = league_info_rebuild(&s->info, s->n, s->met, s->cap, s->players, s->g, s->anchor);

	if (rc == 0)
		s->rebuilt_at = s->total;
	return rc;
}

/* s->scale2: the fit's variances (ci95) over the model's, summed over the rated entries that
 * are not anchors, so that the model's differences are on the fit's scale. -ENOMEM. */
static int calibrate(struct league_sched *s)
{
	double fit = 0, model = 0, *var = calloc(s->n ? s->n : 1, sizeof(*var));
	bool anchored = false;

	if (!var)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		anchored |= s->anchor[i] && !isnan(s->g[i]);
	league_info_variances(&s->info, anchored, var);
	for (size_t i = 0; i < s->n; i++) {
		double sd = s->entry[i].ci95 / Z95 / ELO_PER_NAT;
		if (s->anchor[i] || isnan(s->g[i]) || !isfinite(sd) || !(sd > 0))
			continue;
		fit += sd * sd;
		model += var[i];
	}
	free(var);
	s->scale2 = fit > 0 && model > 0 ? fmin(fmax(fit / model, SCALE2_MIN), SCALE2_MAX) : 1.0;
	return 0;
}

int league_sched_update(struct league_sched *s, const struct league_sched_entry *entries,
			size_t n)
{
	int rc;

	if (n < s->n || n > UINT32_MAX)
		return -EINVAL;
	if ((rc = reserve(s, n)) < 0)
		return rc;
	memcpy(s->entry, entries, n * sizeof(*entries));
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		s->g[i] = entries[i].elo / ELO_PER_NAT;
		s->anchor[i] = entries[i].anchor;
	}
	rank_entries(s);
	if ((rc = rebuild(s)) < 0)
		return rc;
	return calibrate(s);
}

uint64_t league_sched_met(const struct league_sched *s, uint32_t a, uint32_t b)
{
	return a < s->n && b < s->n && a != b ? s->met[(size_t)a * s->cap + b] : 0;
}

/* A pseudo-random number from the seed, the deals counted and a salt. */
static uint64_t draw(const struct league_sched *s, uint64_t salt)
{
	return schedule_splitmix64(schedule_splitmix64(s->seed ^ s->total) ^ salt);
}

static bool seated(const uint32_t *table, int k, uint32_t e)
{
	for (int t = 0; t < k; t++)
		if (table[t] == e)
			return true;
	return false;
}

/* The new entry with the fewest deals below the floor (lowest number on a tie), or -1. */
static long new_entry(const struct league_sched *s)
{
	long best = -1;

	for (size_t k = 0; k < s->nactive; k++) {
		uint32_t e = s->order[k];
		if (s->entry[e].anchor || s->deals[e] >= s->floor_deals)
			continue;
		if (best < 0 || s->deals[e] < s->deals[best] ||
		    (s->deals[e] == s->deals[best] && e < (uint32_t)best))
			best = e;
	}
	return best;
}

/* Seat k..players-1 with the active entries that have met table[0] least (ties at random). */
static void seat_least_met(const struct league_sched *s, uint32_t *table, int k)
{
	for (; k < s->players; k++) {
		uint32_t best = UINT32_MAX;
		uint64_t best_met = 0, best_tie = 0;
		for (size_t o = 0; o < s->nactive; o++) {
			uint32_t e = s->order[o];
			if (seated(table, k, e))
				continue;
			uint64_t m = league_sched_met(s, table[0], e), tie = draw(s, e);
			if (best == UINT32_MAX || m < best_met || (m == best_met && tie < best_tie)) {
				best = e;
				best_met = m;
				best_tie = tie;
			}
		}
		table[k] = best;
	}
}

/* Which entries seat_random draws from. */
enum draw_from { ANYONE, ANCHORS, NOT_ANCHORS };

static bool drawn_from(const struct league_sched *s, uint32_t e, enum draw_from from)
{
	return from == ANYONE || s->entry[e].anchor == (from == ANCHORS);
}

/* Seat k..end-1 at random among the active entries of `from`, or among all of them when
 * none of `from` is left. */
static void seat_random(const struct league_sched *s, uint32_t *table, int k, int end,
			enum draw_from from, uint64_t salt)
{
	for (; k < end; k++, salt++) {
		size_t count = 0, pick;
		for (size_t o = 0; o < s->nactive; o++) {
			uint32_t e = s->order[o];
			count += !seated(table, k, e) && drawn_from(s, e, from);
		}
		if (count == 0) {
			seat_random(s, table, k, end, ANYONE, salt);
			return;
		}
		pick = draw(s, salt) % count;
		for (size_t o = 0; o < s->nactive; o++) {
			uint32_t e = s->order[o];
			if (seated(table, k, e) || !drawn_from(s, e, from))
				continue;
			if (pick-- == 0) {
				table[k] = e;
				break;
			}
		}
	}
}

/* How much one more deal between the adjacent entries a and b is worth, in tiers (higher
 * first): 2 with an unrated entry; 1 while unresolved, by how far it raises z towards Z95;
 * 0 once resolved, by -z; -1 for two anchors (never chosen). */
static void pair_value(const struct league_sched *s, uint32_t a, uint32_t b, int *tier,
		       double *value)
{
	double d = fabs(s->g[a] - s->g[b]);

	*value = 0;
	if (s->anchor[a] && s->anchor[b]) {
		*tier = -1;
		return;
	}
	if (isnan(d)) {
		*tier = 2;
		return;
	}
	double w = league_info_weight(s->g, a, b, s->players);
	double z = d / sqrt(s->scale2 * league_info_resistance(&s->info, a, b));
	double after = d / sqrt(s->scale2 * league_info_resistance_after(&s->info, a, b, w));

	*tier = z < Z95;
	*value = z < Z95 ? fmin(after, Z95) - z : -z;
}

/* The rank of the adjacent pair (k, k + 1) worth most (pair_value; then fewest deals between
 * them, then at random on a tie), or -1 when every pair is of two anchors. */
static long least_resolved(const struct league_sched *s)
{
	long best = -1;
	int best_tier = -1;
	double best_value = 0;
	uint64_t best_met = 0, best_tie = 0;

	for (size_t k = 0; k + 1 < s->nactive; k++) {
		uint32_t a = s->order[k], b = s->order[k + 1];
		int tier;
		double value;
		pair_value(s, a, b, &tier, &value);
		uint64_t m = league_sched_met(s, a, b), tie = draw(s, k);
		if (tier < 0)
			continue;
		if (best < 0 || tier > best_tier || (tier == best_tier && value > best_value) ||
		    (tier == best_tier && value == best_value &&
		     (m < best_met || (m == best_met && tie < best_tie)))) {
			best = (long)k;
			best_tier = tier;
			best_value = value;
			best_met = m;
			best_tie = tie;
		}
	}
	return best;
}

/* The pair at ranks k and k + 1, then its neighbours alternately below and above. */
static void seat_around(const struct league_sched *s, uint32_t *table, size_t k)
{
	size_t below = k + 2, above = k;
	int t = 0;

	table[t++] = s->order[k];
	table[t++] = s->order[k + 1];
	while (t < s->players) {
		if (below < s->nactive && (t % 2 == 0 || above == 0))
			table[t++] = s->order[below++];
		else
			table[t++] = s->order[--above];
	}
}

/* Count a deal of table: per entry, per pair, in all, and into the model; or uncount it
 * (sign -1). */
static void count_deal(struct league_sched *s, const uint32_t *table, int sign)
{
	for (int a = 0; a < s->players; a++) {
		s->deals[table[a]] += (uint64_t)(int64_t)sign;
		for (int b = 0; b < s->players; b++) {
			if (a == b)
				continue;
			s->met[(size_t)table[a] * s->cap + table[b]] += (uint32_t)sign;
			if (a < b)
				league_info_add(&s->info, table[a], table[b],
						sign * league_info_weight(s->g, table[a], table[b],
									  s->players));
		}
	}
	s->total += (uint64_t)(int64_t)sign;
	if (s->total - s->rebuilt_at >= LEAGUE_SCHED_REBUILD_EVERY)
		rebuild(s); /* on failure the updated model stays: only rounding is lost */
}

int league_sched_next(struct league_sched *s, uint32_t *table)
{
	long fresh = new_entry(s), pair = -1;

	if (s->nactive < (size_t)s->players)
		return -EAGAIN;
	if (s->npending == s->cappending) {
		size_t cap = s->cappending ? s->cappending * 2 : 8;
		uint32_t *p = reallocarray(s->pending, cap * (size_t)s->players, sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->pending = p;
		s->cappending = cap;
	}
	if (fresh < 0 && s->total % LEAGUE_SCHED_SPREAD_EVERY != LEAGUE_SCHED_SPREAD_EVERY - 1)
		pair = least_resolved(s);
	if (fresh >= 0) {
		table[0] = (uint32_t)fresh;
		seat_least_met(s, table, 1);
	} else if (pair >= 0) {
		seat_around(s, table, (size_t)pair);
	} else {
		seat_random(s, table, 0, 1, NOT_ANCHORS, 0);
		seat_random(s, table, 1, s->players, ANCHORS, 1);
	}
	memcpy(&s->pending[s->npending++ * (size_t)s->players], table,
	       (size_t)s->players * sizeof(*table));
	count_deal(s, table, 1);
	return 0;
}

/* Whether tables a and b seat the same entries (each seats distinct ones). */
static bool same_table(const uint32_t *a, const uint32_t *b, int players)
{
	for (int k = 0; k < players; k++)
		if (!seated(b, players, a[k]))
			return false;
	return true;
}

/* Remove the pending deal of table; -ENOENT when there is none. */
static int end_pending(struct league_sched *s, const uint32_t *table)
{
	size_t w = (size_t)s->players;

	for (size_t k = 0; k < s->npending; k++)
		if (same_table(&s->pending[k * w], table, s->players)) {
			memmove(&s->pending[k * w], &s->pending[(k + 1) * w],
				(s->npending - k - 1) * w * sizeof(*s->pending));
			s->npending--;
			return 0;
		}
	return -ENOENT;
}

/* Whether table seats players distinct entries below n. */
static bool valid_table(const struct league_sched *s, const uint32_t *table, int players)
{
	if (players != s->players)
		return false;
	for (int k = 0; k < players; k++)
		if (table[k] >= s->n || seated(table, k, table[k]))
			return false;
	return true;
}

int league_sched_played(struct league_sched *s, const uint32_t *table, int players)
{
	if (!valid_table(s, table, players))
		return -EINVAL;
	if (end_pending(s, table) < 0)
		count_deal(s, table, 1);
	return 0;
}

int league_sched_abandon(struct league_sched *s, const uint32_t *table, int players)
{
	if (!valid_table(s, table, players))
		return -EINVAL;
	if (end_pending(s, table) < 0)
		return -ENOENT;
	count_deal(s, table, -1);
	return 0;
}
