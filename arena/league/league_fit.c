/*
 * league_fit.c - a league's sums and its refits in a background thread; the
 * contract is in league_fit.h.
 */
#include "league_fit.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ENTRIES_MIN 16
#define ELO_PER_NAT (400.0 / M_LN10)

void league_standings_release(struct league_standings *st)
{
	free(st->elo);
	free(st->ci95);
	free(st->games);
	free(st->order);
	memset(st, 0, sizeof(*st));
}

bool league_standings_all_separated(const struct league_standings *st)
{
	return st->generation > 0 && st->separated == st->adjacent;
}

/* Empty standings of n entries (arrays allocated). -ENOMEM. */
static int standings_alloc(struct league_standings *st, size_t n)
{
	size_t cells = n ? n : 1;

	memset(st, 0, sizeof(*st));
	st->n = n;
	st->elo = calloc(cells, sizeof(*st->elo));
	st->ci95 = calloc(cells, sizeof(*st->ci95));
	st->games = calloc(cells, sizeof(*st->games));
	st->order = calloc(cells, sizeof(*st->order));
	if (!st->elo || !st->ci95 || !st->games || !st->order) {
		league_standings_release(st);
		return -ENOMEM;
	}
	return 0;
}

static int standings_copy(struct league_standings *dst, const struct league_standings *src)
{
	int rc = standings_alloc(dst, src->n);

	if (rc < 0 || src->n == 0) /* no fit yet: nothing to copy (and src's arrays are NULL) */
		return rc;
	memcpy(dst->elo, src->elo, src->n * sizeof(*dst->elo));
	memcpy(dst->ci95, src->ci95, src->n * sizeof(*dst->ci95));
	memcpy(dst->games, src->games, src->n * sizeof(*dst->games));
	memcpy(dst->order, src->order, src->n * sizeof(*dst->order));
	dst->games_counted = src->games_counted;
	dst->generation = src->generation;
	dst->adjacent = src->adjacent;
	dst->separated = src->separated;
	dst->nranked = src->nranked;
	return 0;
}

/* The anchor of entry e, or NULL. */
static const struct league_fit_anchor *anchor_of(const struct league_fit_anchor *anchors,
						 size_t nanchors, size_t e)
{
	for (size_t k = 0; k < nanchors; k++)
		if (anchors[k].entry == e)
			return &anchors[k];
	return NULL;
}

/* What a refit reads, copied under the lock. */
struct snapshot {
	struct rating_pairs pairs;
	struct cluster_sums *clusters;
	uint64_t *games;
	uint64_t games_counted;
	size_t n;
};

static void snapshot_release(struct snapshot *s)
{
	if (s->n)
		rating_pairs_release(&s->pairs);
	if (s->clusters)
		cluster_sums_release(s->clusters);
	free(s->clusters);
	free(s->games);
	memset(s, 0, sizeof(*s));
}

static void *duplicate(const void *src, size_t count, size_t size)
{
	void *dst = reallocarray(NULL, count ? count : 1, size);

	if (dst && count)
		memcpy(dst, src, count * size);
	return dst;
}

/* dst = a copy of src that rating_fit can read (its buffer, folded sum and pilot duplicated).
 * dst is released with cluster_sums_release either way. -ENOMEM. */
static int clusters_copy(struct cluster_sums *dst, const struct cluster_sums *src)
{
	size_t dim = src->meat_n + RATING_KINDS;

	*dst = *src;
	dst->buf = src->buf ? duplicate(src->buf, src->nbuf, sizeof(*src->buf)) : NULL;
	dst->capbuf = src->nbuf;
	dst->meat = src->meat ? duplicate(src->meat, dim * dim, sizeof(*src->meat)) : NULL;
	dst->pilot = src->pilot ? duplicate(src->pilot, src->pilot_n, sizeof(*src->pilot)) : NULL;
	if ((src->buf && !dst->buf) || (src->meat && !dst->meat) || (src->pilot && !dst->pilot))
		return -ENOMEM;
	return 0;
}

/* The sums of f (under its lock) into s. -ENOMEM. */
static int snapshot_take(struct league_fit *f, struct snapshot *s)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if (f->n == 0)
		return 0;
	if ((rc = rating_pairs_copy(&s->pairs, &f->pairs, f->n)) < 0)
		return rc;
	s->n = f->n;
	s->clusters = calloc(1, sizeof(*s->clusters));
	s->games = duplicate(f->games, f->n, sizeof(*f->games));
	if (!s->clusters || !s->games)
		return -ENOMEM;
	s->games_counted = f->games_counted;
	return clusters_copy(s->clusters, f->clusters);
}

/* Whether entry a ranks above b: pool, then Elo descending, then number. */
static bool ranks_above(const struct rating_fit *fit, uint32_t a, uint32_t b)
{
	if (fit->pool[a] != fit->pool[b])
		return fit->pool[a] < fit->pool[b];
	if (fit->elo[a] != fit->elo[b])
		return fit->elo[a] > fit->elo[b];
	return a < b;
}

/* st->order and the adjacent pairs separated at 95%. */
static void rank_standings(const struct league_fit *f, const struct rating_fit *fit,
			   struct league_standings *st)
{
	st->nranked = 0;
	for (uint32_t e = 0; e < st->n; e++) {
		if (st->games[e] == 0)
			continue;
		size_t k = st->nranked++;
		while (k > 0 && ranks_above(fit, e, st->order[k - 1])) {
			st->order[k] = st->order[k - 1];
			k--;
		}
		st->order[k] = e;
	}
	st->adjacent = st->separated = 0;
	for (size_t k = 0; k + 1 < st->nranked; k++) {
		uint32_t a = st->order[k], b = st->order[k + 1];
		if (anchor_of(f->anchors, f->nanchors, a) && anchor_of(f->anchors, f->nanchors, b))
			continue;
		st->adjacent++;
		st->separated += rating_los(fit, a, b) >= LEAGUE_FIT_SEPARATED;
	}
}

/* The standings of the snapshot s: rating_fit as report runs it, the anchors' ratings
 * fixed. The fit is left in *fit (zeroed when s has no entry) for fold_buffer. */
static int refit(const struct league_fit *f, const struct snapshot *s,
		 struct league_standings *st, struct rating_fit *fit)
{
	struct rating_options opt = RATING_OPTIONS_DEFAULT;
	int rc;

	memset(fit, 0, sizeof(*fit));
	if ((rc = standings_alloc(st, s->n)) < 0 || s->n == 0)
		return rc;
	/* the anchors' values, in st->elo until the fit overwrites it */
	for (size_t e = 0; e < s->n; e++) {
		const struct league_fit_anchor *a = anchor_of(f->anchors, f->nanchors, e);
		st->elo[e] = a ? a->elo : NAN;
	}
	opt.clusters = s->clusters;
	opt.fixed = st->elo;
	if ((rc = rating_fit(&s->pairs, &opt, fit)) < 0) {
		league_standings_release(st);
		return rc;
	}
	for (size_t e = 0; e < s->n; e++) {
		bool played = s->games[e] > 0;
		st->games[e] = s->games[e];
		st->elo[e] = played ? fit->elo[e] : NAN;
		st->ci95[e] = !played ? NAN
			      : anchor_of(f->anchors, f->nanchors, e) ? 0 : rating_ci95(fit, e);
	}
	st->games_counted = s->games_counted;
	rank_standings(f, fit, st);
	return 0;
}

/* Keep the abilities of a finished refit (under the lock): the buffer is folded at them. */
static int keep_abilities(struct league_fit *f, const struct rating_fit *fit)
{
	double *g = reallocarray(f->fold_g, fit->n ? fit->n : 1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	for (size_t e = 0; e < fit->n; e++)
		g[e] = fit->elo[e] / ELO_PER_NAT;
	f->fold_g = g;
	f->fold_n = fit->n;
	memcpy(f->fold_scale, fit->scale, sizeof(f->fold_scale));
	return 0;
}

/*
 * Fold cluster.h's buffer (under the lock) once it holds `fulls` full buffers, at the
 * abilities of the last refit, where report folds it at a pilot fit: so that
 * league_fit_add never fits. -ENOMEM.
 */
static int fold_buffer(struct league_fit *f, size_t fulls)
{
	size_t n = f->pairs.n;
	double *g;
	int rc;

	if (f->clusters->nbuf < fulls * CLUSTER_BUFFER_MAX || f->fold_n == 0)
		return 0;
	if (!(g = calloc(n, sizeof(*g))))
		return -ENOMEM;
	memcpy(g, f->fold_g, (f->fold_n < n ? f->fold_n : n) * sizeof(*g));
	rc = cluster_sums_fold(f->clusters, n, g, f->fold_scale);
	free(g);
	return rc;
}

/* The background thread: one refit per wake, over the sums as they are when it starts. */
static void *refit_loop(void *arg)
{
	struct league_fit *f = arg;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->stopping && f->finished == f->requested)
			pthread_cond_wait(&f->wake, &f->lock);
		if (f->stopping)
			break;
		uint64_t target = f->taken = f->requested;
		struct snapshot snap;
		struct league_standings st = { 0 };
		struct rating_fit fit = { 0 };
		int rc = snapshot_take(f, &snap);
		pthread_mutex_unlock(&f->lock);
		if (rc == 0)
			rc = refit(f, &snap, &st, &fit);
		snapshot_release(&snap);
		pthread_mutex_lock(&f->lock);
		if (rc == 0 && fit.n > 0 && (rc = keep_abilities(f, &fit)) == 0)
			rc = fold_buffer(f, 1);
		rating_fit_release(&fit);
		f->error = rc;
		if (rc == 0 && st.n > 0) {
			st.generation = f->latest.generation + 1;
			league_standings_release(&f->latest);
			f->latest = st;
		} else {
			league_standings_release(&st);
		}
		f->finished = target;
		pthread_cond_broadcast(&f->done);
	}
	/* requests left when stopping are answered: nobody waits on them forever */
	f->finished = f->requested;
	pthread_cond_broadcast(&f->done);
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

/* Whether the options name no entry twice and only finite Elo values. */
static bool anchors_valid(const struct league_fit_options *opt)
{
	for (size_t k = 0; k < opt->nanchors; k++) {
		if (!isfinite(opt->anchors[k].elo))
			return false;
		if (anchor_of(opt->anchors, k, opt->anchors[k].entry))
			return false;
	}
	return true;
}

int league_fit_init(struct league_fit *f, const struct league_fit_options *opt)
{
	static const struct league_fit_options none = { NULL, 0 };
	int rc;

	memset(f, 0, sizeof(*f));
	if (!opt)
		opt = &none;
	if (!anchors_valid(opt))
		return -EINVAL;
	f->nanchors = opt->nanchors;
	f->anchors = duplicate(opt->anchors, opt->nanchors, sizeof(*f->anchors));
	f->clusters = calloc(1, sizeof(*f->clusters));
	f->games = calloc(ENTRIES_MIN, sizeof(*f->games));
	if (!f->anchors || !f->clusters || !f->games ||
	    rating_pairs_init(&f->pairs, ENTRIES_MIN) < 0) {
		free(f->anchors);
		free(f->clusters);
		free(f->games);
		return -ENOMEM;
	}
	f->cap_games = ENTRIES_MIN;
	cluster_sums_init(f->clusters);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->wake, NULL);
	pthread_cond_init(&f->done, NULL);
	if ((rc = pthread_create(&f->thread, NULL, refit_loop, f)) != 0) {
		f->started = false;
		league_fit_release(f);
		return -rc;
	}
	f->started = true;
	return 0;
}

void league_fit_release(struct league_fit *f)
{
	if (f->started) {
		pthread_mutex_lock(&f->lock);
		f->stopping = true;
		pthread_cond_broadcast(&f->wake);
		pthread_mutex_unlock(&f->lock);
		pthread_join(f->thread, NULL);
	}
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->wake);
	pthread_cond_destroy(&f->done);
	rating_pairs_release(&f->pairs);
	if (f->clusters)
		cluster_sums_release(f->clusters);
	free(f->clusters);
	free(f->games);
	free(f->anchors);
	free(f->fold_g);
	league_standings_release(&f->latest);
	memset(f, 0, sizeof(*f));
}

/* Room in the sums for entries below n (under the lock). -ENOMEM. */
static int reserve_entries(struct league_fit *f, size_t n)
{
	size_t cap = f->cap_games;
	struct rating_pairs bigger;

	if (n <= cap)
		return 0;
	while (cap < n)
		cap *= 2;
	uint64_t *games = reallocarray(f->games, cap, sizeof(*games));
	if (!games)
		return -ENOMEM;
	f->games = games;
	memset(&games[f->cap_games], 0, (cap - f->cap_games) * sizeof(*games));
	if (rating_pairs_copy(&bigger, &f->pairs, cap) < 0)
		return -ENOMEM;
	rating_pairs_release(&f->pairs);
	f->pairs = bigger;
	f->cap_games = cap;
	return 0;
}

int league_fit_add(struct league_fit *f, uint64_t deal, int nseats, const uint32_t *entry,
		   const int *placing, const uint32_t *team)
{
	struct rating_result res[RATING_GAME_RESULTS_MAX];
	size_t top = 0, count;
	int rc;

	if (nseats < 2 || nseats > CLUSTER_BOTS_MAX)
		return -EINVAL;
	for (int k = 0; k < nseats; k++) {
		if (entry[k] >= UINT32_MAX / 2)
			return -EINVAL;
		top = entry[k] + 1 > top ? entry[k] + 1 : top;
	}
	count = rating_game_results(nseats, entry, placing, team, res);
	pthread_mutex_lock(&f->lock);
	rc = reserve_entries(f, top);
	if (rc == 0)
		rc = rating_pairs_add_results(&f->pairs, res, count);
	if (rc == 0)
		rc = cluster_sums_add_results(f->clusters, deal, res, count);
	if (rc == 0) {
		f->clusters->results += (double)count;
		for (int k = 0; k < nseats; k++)
			f->games[entry[k]]++;
		f->games_counted++;
		f->n = top > f->n ? top : f->n;
		/* a full buffer is folded when a refit ends: start one if none runs */
		if (cluster_sums_full(f->clusters) && f->requested == f->finished) {
			f->requested = f->taken + 1;
			pthread_cond_broadcast(&f->wake);
		}
		/* games faster than refits: fold at the last refit's abilities (no fit here) */
		rc = fold_buffer(f, LEAGUE_FIT_BUFFERS_MAX);
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

void league_fit_request(struct league_fit *f)
{
	pthread_mutex_lock(&f->lock);
	/* a refit already running read the sums before this request: one more comes after it */
	f->requested = f->taken + 1 > f->requested ? f->taken + 1 : f->requested;
	pthread_cond_broadcast(&f->wake);
	pthread_mutex_unlock(&f->lock);
}

int league_fit_wait(struct league_fit *f)
{
	pthread_mutex_lock(&f->lock);
	uint64_t target = f->requested;
	while (f->finished < target)
		pthread_cond_wait(&f->done, &f->lock);
	int rc = f->error;
	pthread_mutex_unlock(&f->lock);
	return rc;
}

int league_fit_latest(struct league_fit *f, struct league_standings *out)
{
	pthread_mutex_lock(&f->lock);
	int rc = standings_copy(out, &f->latest);
	pthread_mutex_unlock(&f->lock);
	return rc;
}
