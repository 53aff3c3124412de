/*
 * league_fit.c - a league's sums and its refits in a background thread; the
 * contract is in league_fit.h.
 */
#include "league_fit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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

void league_standings_leader(const struct league_standings *st, const char *const *names,
			     char *buf, size_t size)
{
	size_t top;

	buf[0] = '\0';
	if (!st->nranked || !st->order || (top = st->order[0]) >= st->n || !isfinite(st->elo[top]))
		return;
	if (st->ci95[top] > 0)
		snprintf(buf, size, "; leader: %s at %.1f \u00b1 %.1f Elo", names[top],
			 st->elo[top], st->ci95[top]);
	else
		snprintf(buf, size, "; leader: %s at %.1f Elo, an anchor", names[top], st->elo[top]);
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

static void *duplicate(const void *src, size_t count, size_t size)
{
	void *dst = reallocarray(NULL, count ? count : 1, size);

	if (dst && count)
		memcpy(dst, src, count * size);
	return dst;
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

/* The standings of the sums (the thread's): rating_fit as report runs it, the anchors'
 * ratings fixed. The fit is left in *fit (zeroed when no entry has played). */
static int refit(const struct league_fit *f, struct league_standings *st, struct rating_fit *fit)
{
	struct rating_options opt = RATING_OPTIONS_DEFAULT;
	struct rating_pairs pairs;
	size_t n = f->n;
	int rc;

	memset(fit, 0, sizeof(*fit));
	if ((rc = standings_alloc(st, n)) < 0 || n == 0)
		return rc;
	/* the anchors' values, in st->elo until the fit overwrites it */
	for (size_t e = 0; e < n; e++) {
		const struct league_fit_anchor *a = anchor_of(f->anchors, f->nanchors, e);
		st->elo[e] = a ? a->elo : NAN;
	}
	opt.clusters = f->clusters;
	opt.fixed = st->elo;
	/* the sums hold cap_games entries: the fit is of the n seen */
	if ((rc = rating_pairs_copy(&pairs, &f->pairs, n)) == 0) {
		rc = rating_fit(&pairs, &opt, fit);
		rating_pairs_release(&pairs);
	}
	if (rc < 0) {
		league_standings_release(st);
		return rc;
	}
	for (size_t e = 0; e < n; e++) {
		bool played = f->games[e] > 0;
		st->games[e] = f->games[e];
		st->elo[e] = played ? fit->elo[e] : NAN;
		st->ci95[e] = !played ? NAN
			      : anchor_of(f->anchors, f->nanchors, e) ? 0 : rating_ci95(fit, e);
	}
	st->games_counted = f->games_counted;
	rank_standings(f, fit, st);
	return 0;
}

/* Keep the abilities of a finished fit (the thread's): the buffer is folded at them. */
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

/* Fold cluster.h's full buffer at the abilities of the last refit (before the first, of a
 * pilot fit of the sums, as report's), where report folds it at a pilot fit. -ENOMEM, or
 * rating_fit's error. */
static int fold_buffer(struct league_fit *f)
{
	size_t n = f->pairs.n;
	double *g;
	int rc;

	if (!cluster_sums_full(f->clusters))
		return 0;
	if (f->fold_n == 0) {
		struct rating_fit pilot;
		if ((rc = rating_fit(&f->pairs, NULL, &pilot)) < 0)
			return rc;
		rc = keep_abilities(f, &pilot);
		rating_fit_release(&pilot);
		if (rc < 0)
			return rc;
	}
	if (!(g = calloc(n, sizeof(*g))))
		return -ENOMEM;
	memcpy(g, f->fold_g, (f->fold_n < n ? f->fold_n : n) * sizeof(*g));
	rc = cluster_sums_fold(f->clusters, n, g, f->fold_scale);
	free(g);
	return rc;
}

/* Room in the sums for entries below n. -ENOMEM. */
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

/* One queued game into the sums. -ENOMEM. */
static int sum_game(struct league_fit *f, const struct league_fit_game *g)
{
	struct rating_result res[RATING_GAME_RESULTS_MAX];
	unsigned team[CLUSTER_BOTS_MAX] = { 0 };
	int placing[CLUSTER_BOTS_MAX] = { 0 };
	size_t top = 0, count;
	int rc;

	for (int k = 0; k < g->nseats; k++) {
		top = g->entry[k] + 1 > top ? g->entry[k] + 1 : top;
		team[k] = g->team[k];
		placing[k] = g->placing[k];
	}
	count = rating_game_results(g->nseats, g->entry, placing, team, res);
	if ((rc = reserve_entries(f, top)) < 0 ||
	    (rc = rating_pairs_add_results(&f->pairs, res, count)) < 0 ||
	    (rc = cluster_sums_add_results(f->clusters, g->deal, res, count)) < 0)
		return rc;
	f->clusters->results += (double)count;
	for (int k = 0; k < g->nseats; k++)
		f->games[g->entry[k]]++;
	f->games_counted++;
	f->n = top > f->n ? top : f->n;
	return fold_buffer(f);
}

/* Sum every game of the queue taken; the first error is kept, the rest still summed. */
static int sum_games(struct league_fit *f, const struct league_fit_game *q, size_t count)
{
	int rc = 0;

	for (size_t k = 0; k < count; k++) {
		int r = sum_game(f, &q[k]);
		rc = rc ? rc : r;
	}
	return rc;
}

/* Take the queue (under the lock): the spare buffer becomes the queue. */
static void take_queue(struct league_fit *f, struct league_fit_game **q, size_t *count,
		       size_t *cap)
{
	*q = f->queue;
	*count = f->nqueue;
	*cap = f->capqueue;
	f->queue = f->spare;
	f->capqueue = f->capspare;
	f->nqueue = 0;
	f->spare = NULL;
	f->capspare = 0;
	pthread_cond_broadcast(&f->drained);
}

/* Give a taken buffer back as the spare (under the lock; only the thread takes the spare,
 * so it is free). */
static void give_back(struct league_fit *f, struct league_fit_game *q, size_t cap)
{
	f->spare = q;
	f->capspare = cap;
}

/* A refit of the sums, published (under the lock on return, as on entry). */
static void refit_and_publish(struct league_fit *f, int rc)
{
	struct league_standings st = { 0 };
	struct rating_fit fit = { 0 };

	pthread_mutex_unlock(&f->lock);
	if (rc == 0)
		rc = refit(f, &st, &fit);
	if (rc == 0 && fit.n > 0 && (rc = keep_abilities(f, &fit)) == 0)
		rc = fold_buffer(f);
	rating_fit_release(&fit);
	pthread_mutex_lock(&f->lock);
	f->error = rc;
	if (rc == 0 && st.n > 0) {
		st.generation = f->latest.generation + 1;
		league_standings_release(&f->latest);
		f->latest = st;
	} else {
		league_standings_release(&st);
	}
}

/* Whether the thread has work: a refit asked for, or enough games waiting. */
static bool work_waiting(const struct league_fit *f)
{
	return f->finished != f->requested || f->nqueue >= LEAGUE_FIT_QUEUE_WAKE;
}

/* The background thread: sums what was queued, and fits when a refit was asked for. */
static void *refit_loop(void *arg)
{
	struct league_fit *f = arg;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->stopping && !work_waiting(f))
			pthread_cond_wait(&f->wake, &f->lock);
		if (f->stopping)
			break;
		uint64_t target = f->taken = f->requested;
		struct league_fit_game *q;
		size_t count, cap;
		take_queue(f, &q, &count, &cap);
		pthread_mutex_unlock(&f->lock);
		int rc = sum_games(f, q, count);
		bool fit = target != f->finished;
		pthread_mutex_lock(&f->lock);
		give_back(f, q, cap);
		if (fit)
			refit_and_publish(f, rc);
		else if (rc < 0)
			f->error = rc;
		f->finished = target;
		pthread_cond_broadcast(&f->done);
	}
	/* requests left when stopping are answered: nobody waits on them forever */
	f->finished = f->requested;
	pthread_cond_broadcast(&f->done);
	pthread_cond_broadcast(&f->drained);
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
	pthread_cond_init(&f->drained, NULL);
	if ((rc = pthread_create(&f->thread, NULL, refit_loop, f)) != 0) {
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
	pthread_cond_destroy(&f->drained);
	rating_pairs_release(&f->pairs);
	if (f->clusters)
		cluster_sums_release(f->clusters);
	free(f->clusters);
	free(f->games);
	free(f->anchors);
	free(f->fold_g);
	free(f->queue);
	free(f->spare);
	league_standings_release(&f->latest);
	memset(f, 0, sizeof(*f));
}

/* Room in the queue for one more game (under the lock). -ENOMEM. */
static int queue_reserve(struct league_fit *f)
{
	if (f->nqueue < f->capqueue)
		return 0;
	size_t cap = f->capqueue ? 2 * f->capqueue : 256;
	struct league_fit_game *q = reallocarray(f->queue, cap, sizeof(*q));
	if (!q)
		return -ENOMEM;
	f->queue = q;
	f->capqueue = cap;
	return 0;
}

int league_fit_add(struct league_fit *f, uint64_t deal, int nseats, const uint32_t *entry,
		   const int *placing, const uint32_t *team)
{
	struct league_fit_game g = { .deal = deal, .nseats = (uint8_t)nseats };
	int rc;

	if (nseats < 2 || nseats > CLUSTER_BOTS_MAX)
		return -EINVAL;
	for (int k = 0; k < nseats; k++) {
		if (entry[k] >= UINT32_MAX / 2 || placing[k] < INT8_MIN || placing[k] > INT8_MAX)
			return -EINVAL;
		g.entry[k] = entry[k];
		g.placing[k] = (int8_t)placing[k];
		/* a team is named by its first seat: the same partition of the seats */
		g.team[k] = (uint8_t)k;
		for (int t = 0; t < k; t++)
			if (team[t] == team[k]) {
				g.team[k] = g.team[t];
				break;
			}
	}
	pthread_mutex_lock(&f->lock);
	/* back-pressure: games far faster than the thread sums them wait for its next drain */
	while (f->nqueue >= LEAGUE_FIT_QUEUE_MAX && !f->stopping)
		pthread_cond_wait(&f->drained, &f->lock);
	if ((rc = queue_reserve(f)) == 0) {
		f->queue[f->nqueue++] = g;
		if (f->nqueue == LEAGUE_FIT_QUEUE_WAKE)
			pthread_cond_broadcast(&f->wake);
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

void league_fit_request(struct league_fit *f)
{
	pthread_mutex_lock(&f->lock);
	/* a refit already running summed the games before this request: one more comes after */
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
