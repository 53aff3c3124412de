/*
 * desk.c - the lease book: leases handed out, heard from, ended; games
 * re-handed; deals parked; workers.jsonl (contract in desk.h). The results
 * of a lease are checked in desk_results.c.
 */
#include "desk_book.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A worker without a lease to ask for asks again after this long. */
#define DESK_RETRY_SECONDS 5
/* The most games one lease holds. */
#define DESK_LEASE_MAX 1024

double desk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int journal_event(struct desk *d, cJSON *event, bool sync)
{
	char *text;
	int ret = -ENOMEM;

	/* a book read by another process (desk_read_state) writes nothing */
	if (!d->journal) {
		cJSON_Delete(event);
		return 0;
	}
	cJSON_AddNumberToObject(event, "at", (double)time(NULL));
	if ((text = cJSON_PrintUnformatted(event)))
		ret = journal_append(d->journal, text, strlen(text), sync);
	free(text);
	cJSON_Delete(event);
	return ret;
}

int desk_journal(struct desk *d, cJSON *event)
{
	return journal_event(d, event, true);
}

int desk_journal_count(struct desk *d, cJSON *event)
{
	return journal_event(d, event, false);
}

/* An event of name about worker (and lease, when not NULL). */
cJSON *desk_event(const char *name, const char *worker, const struct desk_lease_rec *l)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "event", name);
	cJSON_AddStringToObject(e, "worker", worker);
	if (l)
		cJSON_AddStringToObject(e, "lease", l->id);
	return e;
}

struct desk_worker *desk_worker_of(struct desk *d, const char *name, bool add)
{
	struct desk_worker *w;

	for (size_t i = 0; i < d->nworkers; i++)
		if (strcmp(d->workers[i].name, name) == 0)
			return &d->workers[i];
	if (!add)
		return NULL;
	if (!(w = reallocarray(d->workers, d->nworkers + 1, sizeof(*w))))
		return NULL;
	d->workers = w;
	w = &d->workers[d->nworkers];
	memset(w, 0, sizeof(*w));
	if (!(w->name = strdup(name)))
		return NULL;
	d->nworkers++;
	return w;
}

/* Games of one deal group: every pairing and rotation (schedule.h). */
static int group_games(const struct config *cfg)
{
	int n = cfg->duplicate ? cfg->players : 1;

	if (cfg->partnership && cfg->schedule > 1)
		n *= schedule_pairings(cfg->players);
	return n;
}

static struct desk_deal *deal_of(struct desk *d, uint32_t table, uint32_t deal, bool add)
{
	struct desk_deal *p;

	for (size_t i = 0; i < d->ndeals; i++)
		if (d->deals[i].table == table && d->deals[i].deal == deal)
			return &d->deals[i];
	if (!add || !(p = reallocarray(d->deals, d->ndeals + 1, sizeof(*p))))
		return NULL;
	d->deals = p;
	p = &d->deals[d->ndeals++];
	memset(p, 0, sizeof(*p));
	p->table = table;
	p->deal = deal;
	snprintf(p->name, sizeof(p->name), "t%04" PRIu32 "-d%04" PRIu32, table, deal);
	return p;
}

bool desk_parked(struct desk *d, const struct schedule_game *g)
{
	const struct desk_deal *p = deal_of(d, g->table, g->deal, false);

	return p && p->parked;
}

void desk_fail_deal(struct desk *d, const struct schedule_game *g, const char *why)
{
	struct desk_deal *p = deal_of(d, g->table, g->deal, true);
	char **r;
	cJSON *e;

	if (!p || p->parked)
		return;
	if ((r = reallocarray(p->reasons, p->nreasons + 1, sizeof(*r))) &&
	    (r[p->nreasons] = strdup(why))) {
		p->reasons = r;
		p->nreasons++;
	} else if (r) {
		p->reasons = r;
	}
	if (d->ops.cfg)
		p->games = group_games(d->ops.cfg);
	if (++p->failures < DESK_FAILURES_PARK)
		return;
	p->parked = true;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "event", "parked");
	cJSON_AddStringToObject(e, "deal", p->name);
	cJSON_AddNumberToObject(e, "games", p->games);
	cJSON_AddItemToObject(e, "reasons", cJSON_CreateStringArray((const char *const *)p->reasons,
								      (int)p->nreasons));
	desk_journal(d, e);
}

void desk_rehand(struct desk *d, const struct schedule_game *g)
{
	struct schedule_game *r;

	if (desk_parked(d, g))
		return;
	if (d->nrehand == d->rehand_cap) {
		size_t cap = d->rehand_cap ? 2 * d->rehand_cap : 64;

		/* without memory the game waits for the source to hand it again */
		if (!(r = reallocarray(d->rehand, cap, sizeof(*r))))
			return;
		d->rehand = r;
		d->rehand_cap = cap;
	}
	d->rehand[d->nrehand++] = *g;
}

/* The games of a lease not taken go back on the re-hand list. */
static void rehand(struct desk *d, const struct desk_lease_rec *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->games[i].state == DESK_GAME_OPEN)
			desk_rehand(d, &l->games[i].g);
}

/* Each deal of the lease's untaken games failed once, for why. */
static void fail_deals(struct desk *d, const struct desk_lease_rec *l, const char *why)
{
	for (int i = 0; i < l->n; i++) {
		bool first = l->games[i].state == DESK_GAME_OPEN;

		for (int k = 0; k < i && first; k++)
			if (l->games[k].state == DESK_GAME_OPEN &&
			    l->games[k].g.table == l->games[i].g.table &&
			    l->games[k].g.deal == l->games[i].g.deal)
				first = false;
		if (first)
			desk_fail_deal(d, &l->games[i].g, why);
	}
}

void desk_end_lease(struct desk *d, struct desk_lease_rec *l, enum desk_lease_state state,
		    const char *why, bool failure)
{
	struct desk_worker *w = desk_worker_of(d, l->worker, false);

	if (l->state != DESK_LEASE_LIVE)
		return;
	l->state = state;
	if (w) {
		w->held += desk_now() - l->began;
		w->timed_games += l->taken;
		w->leases--;
	}
	if (failure)
		fail_deals(d, l, why);
	rehand(d, l);
	/* the other ends are written by their callers, with their reasons */
	if (state == DESK_LEASE_DONE)
		desk_journal_count(d, desk_event("done", l->worker, l));
	pthread_cond_broadcast(&d->cond);
}

void desk_expire_due(struct desk *d)
{
	double now = desk_now();

	for (size_t i = 0; i < d->nleases; i++) {
		struct desk_lease_rec *l = d->leases[i];
		char why[160];
		cJSON *e;

		if (l->state != DESK_LEASE_LIVE || now - l->heard <= d->set.expire_seconds)
			continue;
		snprintf(why, sizeof(why), "lease %s of \"%.40s\" expired: no word for %u s", l->id,
			 l->worker, d->set.expire_seconds);
		desk_end_lease(d, l, DESK_LEASE_EXPIRED, why, true);
		e = desk_event("expired", l->worker, l);
		cJSON_AddNumberToObject(e, "games", l->n - l->taken);
		desk_journal(d, e);
	}
}

struct desk_lease_rec *desk_lease_of(struct desk *d, const char *id)
{
	for (size_t i = 0; i < d->nleases; i++)
		if (strcmp(d->leases[i]->id, id) == 0)
			return d->leases[i];
	return NULL;
}

int desk_book_new(const char *dir, const struct desk_settings *set, struct desk **out,
		  char *err, size_t err_size)
{
	struct desk *d = calloc(1, sizeof(*d));
	char path[PATH_MAX];

	*out = NULL;
	if (snprintf(path, sizeof(path), "%s/%s", dir, DESK_FILE) >= (int)sizeof(path)) {
		free(d);
		snprintf(err, err_size, "\"%s\": the path is too long", dir);
		return -ENAMETOOLONG;
	}
	if (!d || !(d->dir = strdup(dir)) || !(d->path = strdup(path))) {
		if (d)
			free(d->dir);
		free(d);
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	d->set = *set;
	d->next_lease = 1;
	d->rand = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)d;
	*out = d;
	return 0;
}

int desk_open(const char *dir, const struct desk_settings *set, struct desk **out, char *err,
	      size_t err_size)
{
	struct desk *d;
	int ret;

	*out = NULL;
	if ((ret = desk_book_new(dir, set, &d, err, err_size)) < 0)
		return ret;
	ret = desk_read_events(d, false, err, err_size);
	if (ret < 0 && ret != -ENOENT)
		goto fail;
	if ((ret = journal_open(d->path, &d->journal)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", d->path, strerror(-ret));
		goto fail;
	}
	if ((ret = desk_verifier_start(d)) < 0) {
		snprintf(err, err_size, "the desk's verifier thread: %s", strerror(-ret));
		goto fail;
	}
	*out = d;
	return 0;
fail:
	desk_close(d);
	return ret;
}

void desk_close(struct desk *d)
{
	if (!d)
		return;
	desk_verifier_stop(d);
	desk_drop_held(d, NULL);
	for (size_t i = 0; i < d->nleases; i++) {
		free(d->leases[i]->games);
		free(d->leases[i]->worker);
		free(d->leases[i]);
	}
	free(d->leases);
	for (size_t i = 0; i < d->nworkers; i++) {
		free(d->workers[i].name);
		free(d->workers[i].why);
		free(d->workers[i].lacks);
	}
	free(d->workers);
	for (size_t i = 0; i < d->ndeals; i++) {
		for (size_t k = 0; k < d->deals[i].nreasons; k++)
			free(d->deals[i].reasons[k]);
		free(d->deals[i].reasons);
	}
	free(d->deals);
	free(d->rehand);
	free(d->bundles);
	free(d->private_bots);
	desk_done_release(d);
	journal_close(d->journal);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d->dir);
	free(d->path);
	free(d);
}

void desk_attach(struct desk *d, const struct desk_run_ops *ops)
{
	bool *private_bots = NULL;

	/* asked before the lock is taken: the answers come from the competition's files */
	if (d->set.private_entry && (private_bots = calloc(ops->cfg->nbots + 1,
							   sizeof(*private_bots))))
		for (size_t i = 0; i < ops->cfg->nbots; i++)
			private_bots[i] = d->set.private_entry(d->set.private_ctx,
							       ops->cfg->bots[i].name);
	pthread_mutex_lock(&d->lock);
	free(d->private_bots);
	d->private_bots = private_bots;
	d->ops = *ops;
	free(d->bundles);
	/* without memory every bot goes without a bundle */
	d->bundles = calloc(ops->cfg->nbots + 1, sizeof(*d->bundles));
	d->attached = true;
	d->detaching = false;
	pthread_mutex_unlock(&d->lock);
}

static bool live_leases(const struct desk *d)
{
	for (size_t i = 0; i < d->nleases; i++)
		if (d->leases[i]->state == DESK_LEASE_LIVE)
			return true;
	return false;
}

void desk_detach(struct desk *d)
{
	pthread_mutex_lock(&d->lock);
	if (!d->attached) {
		pthread_mutex_unlock(&d->lock);
		return;
	}
	d->detaching = true;
	/* every live lease ends within expire_seconds of its last word */
	for (;;) {
		struct timespec at;

		desk_expire_due(d);
		if (!d->calls && !live_leases(d))
			break;
		clock_gettime(CLOCK_REALTIME, &at);
		at.tv_sec += 1;
		pthread_cond_timedwait(&d->cond, &d->lock, &at);
	}
	/* what is left is the run's source's to hand again, the held games too */
	desk_drop_held(d, NULL);
	for (size_t i = 0; i < d->nleases; i++) {
		struct desk_lease_rec *l = d->leases[i];

		l->state = DESK_LEASE_VOID;
		free(l->games);
		l->games = NULL;
		l->n = 0;
	}
	d->nrehand = 0;
	d->attached = false;
	d->detaching = false;
	memset(&d->ops, 0, sizeof(d->ops));
	pthread_mutex_unlock(&d->lock);
}

/* Is bot (of ops.cfg) private to trusted workers? */
static bool bot_private(const struct desk *d, size_t bot)
{
	if (!d->set.private_entry)
		return false;
	/* without the answers (no memory) every bot is kept from untrusted workers */
	return !d->private_bots || d->private_bots[bot];
}

/* Does game g seat a bot worker w lacks, or one private to trusted workers w may not have? */
static bool refused_bot(const struct desk *d, const struct desk_worker *w,
			const struct schedule_game *g, int players)
{
	for (int s = 0; s < players; s++) {
		if (!w->trusted && bot_private(d, (size_t)g->bots[s]))
			return true;
		for (size_t k = 0; k < w->nlacks; k++)
			if (g->bots[s] == w->lacks[k])
				return true;
	}
	return false;
}

/* From the re-hand list into games, whole deals only, up to max: their number. */
static int take_rehanded(struct desk *d, const struct desk_worker *w, struct schedule_game *games,
			 int max, int players)
{
	int n = 0;

	for (size_t i = 0; i < d->nrehand;) {
		struct schedule_game first = d->rehand[i];
		int deal = 0;

		for (size_t k = i; k < d->nrehand; k++)
			deal += d->rehand[k].table == first.table && d->rehand[k].deal == first.deal;
		if (n + deal > max || refused_bot(d, w, &first, players)) {
			i++;
			continue;
		}
		for (size_t k = i; k < d->nrehand;) {
			if (d->rehand[k].table == first.table && d->rehand[k].deal == first.deal) {
				games[n++] = d->rehand[k];
				d->rehand[k] = d->rehand[--d->nrehand];
			} else {
				k++;
			}
		}
	}
	return n;
}

/* Deals seating a bot w lacks or may not have go to the re-hand list for another worker. */
static int keep_playable(struct desk *d, const struct desk_worker *w, struct schedule_game *games,
			 int n, int players)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		if (refused_bot(d, w, &games[i], players))
			desk_rehand(d, &games[i]);
		else
			games[kept++] = games[i];
	}
	return kept;
}

/* The games a lease for w holds: one group per job at first, then lease_seconds of its speed. */
static int lease_size(const struct desk *d, const struct desk_worker *w, int jobs, int group)
{
	double games;

	if (!w->timed_games || w->held <= 0)
		games = (double)(jobs > 0 ? jobs : 1) * group;
	else
		games = (double)w->timed_games / w->held * d->set.lease_seconds;
	games = games < group ? group : games > DESK_LEASE_MAX ? DESK_LEASE_MAX : games;
	return (int)games / group * group;
}

static int add_lease(struct desk *d, const struct desk_ask *ask, struct schedule_game *games,
		     int n, struct desk_lease_rec **out)
{
	struct desk_lease_rec *l = calloc(1, sizeof(*l)), **ls;
	cJSON *e;

	if (!l || !(l->worker = strdup(ask->worker)) ||
	    !(l->games = calloc((size_t)n, sizeof(*l->games))) ||
	    !(ls = reallocarray(d->leases, d->nleases + 1, sizeof(*ls)))) {
		if (l)
			free(l->worker), free(l->games);
		free(l);
		return -ENOMEM;
	}
	d->leases = ls;
	d->leases[d->nleases++] = l;
	snprintf(l->id, sizeof(l->id), "L%" PRIu64, d->next_lease++);
	l->trusted = ask->trusted;
	l->n = n;
	for (int i = 0; i < n; i++)
		l->games[i].g = games[i];
	l->began = l->heard = desk_now();
	e = desk_event("lease", ask->worker, l);
	cJSON_AddNumberToObject(e, "games", n);
	cJSON_AddBoolToObject(e, "trusted", ask->trusted);
	desk_journal(d, e);
	*out = l;
	return 0;
}

int desk_lease(struct desk *d, const struct desk_ask *ask, char **lease, unsigned *retry_after,
	       char *err, size_t err_size)
{
	struct schedule_game *games = NULL;
	struct desk_worker *w;
	struct desk_lease_rec *l;
	int ret = 0, n = 0, max, players;

	*lease = NULL;
	*retry_after = DESK_RETRY_SECONDS;
	if (strcmp(ask->version, SKIPBO_VERSION) != 0) {
		snprintf(err, err_size, "the worker runs skipbo-arena %.40s, the host %s: install "
			 "version %s on the worker", ask->version, SKIPBO_VERSION, SKIPBO_VERSION);
		return -EPROTO;
	}
	pthread_mutex_lock(&d->lock);
	desk_expire_due(d);
	if (!(w = desk_worker_of(d, ask->worker, true))) {
		ret = -ENOMEM;
		goto out;
	}
	w->trusted = ask->trusted;
	w->last_heard = time(NULL);
	if (w->suspended) {
		snprintf(err, err_size, "worker \"%s\" is suspended: %s", w->name, w->why);
		ret = -EPERM;
		goto out;
	}
	if (!d->attached || d->detaching)
		goto out;
	players = d->ops.cfg->players;
	max = lease_size(d, w, ask->jobs, group_games(d->ops.cfg));
	if (!(games = calloc((size_t)max, sizeof(*games)))) {
		ret = -ENOMEM;
		goto out;
	}
	if (!(n = take_rehanded(d, w, games, max, players))) {
		struct desk_run_ops ops = d->ops;

		/* the run's lock is taken in there: never under the desk's */
		d->calls++;
		pthread_mutex_unlock(&d->lock);
		n = ops.take_groups(ops.run, games, max);
		pthread_mutex_lock(&d->lock);
		d->calls--;
		pthread_cond_broadcast(&d->cond);
		n = n > 0 ? keep_playable(d, w, games, n, players) : 0;
	}
	if (n <= 0)
		goto out;
	if ((ret = add_lease(d, ask, games, n, &l)) < 0)
		goto out;
	w->leases++;
	if (!(*lease = desk_lease_document(d, l))) {
		desk_end_lease(d, l, DESK_LEASE_RELEASED, "no memory", false);
		ret = -ENOMEM;
		goto out;
	}
	ret = 1;
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	pthread_mutex_unlock(&d->lock);
	free(games);
	return ret;
}

int desk_release(struct desk *d, const char *worker, const char *id, const char *why,
		 char *err, size_t err_size)
{
	struct desk_lease_rec *l;
	struct desk_worker *w;
	cJSON *e;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	desk_expire_due(d);
	if (!(l = desk_lease_of(d, id)) || strcmp(l->worker, worker) != 0) {
		snprintf(err, err_size, "worker \"%s\" holds no lease \"%s\"", worker, id);
		ret = -ENOENT;
		goto out;
	}
	if (l->state != DESK_LEASE_LIVE)
		goto out;
	w = desk_worker_of(d, worker, false);
	w->last_heard = time(NULL);
	/* a worker that lacks what these bots need is leased no deal seating them again */
	if (strncmp(why, "lacks ", 6) == 0) {
		for (int i = 0; i < l->n; i++)
			for (int s = 0; s < d->ops.cfg->players; s++) {
				bool known = false;
				int *lk;

				for (size_t k = 0; k < w->nlacks; k++)
					known |= w->lacks[k] == l->games[i].g.bots[s];
				if (known || !(lk = reallocarray(w->lacks, w->nlacks + 1, sizeof(*lk))))
					continue;
				w->lacks = lk;
				w->lacks[w->nlacks++] = l->games[i].g.bots[s];
			}
	}
	desk_end_lease(d, l, DESK_LEASE_RELEASED, why,
		       strcmp(why, "stopping") != 0 && strncmp(why, "lacks ", 6) != 0);
	e = desk_event("released", worker, l);
	cJSON_AddStringToObject(e, "why", why);
	desk_journal(d, e);
out:
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int desk_suspend_worker(struct desk *d, struct desk_worker *w, const char *why)
{
	cJSON *e;

	free(w->why);
	if (!(w->why = strdup(why)))
		return -ENOMEM;
	w->suspended = true;
	for (size_t i = 0; i < d->nleases; i++)
		if (strcmp(d->leases[i]->worker, w->name) == 0)
			desk_end_lease(d, d->leases[i], DESK_LEASE_RELEASED, why, false);
	e = desk_event("suspended", w->name, NULL);
	cJSON_AddStringToObject(e, "why", why);
	return desk_journal(d, e);
}

int desk_suspend(struct desk *d, const char *worker, const char *why, char *err,
		 size_t err_size)
{
	struct desk_worker *w;
	int ret = -ENOMEM;

	pthread_mutex_lock(&d->lock);
	if ((w = desk_worker_of(d, worker, true)))
		ret = desk_suspend_worker(d, w, why);
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	else if (ret < 0)
		snprintf(err, err_size, "\"%s/%s\": %s", d->dir, DESK_FILE, strerror(-ret));
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int desk_bundle(struct desk *d, const char *sha256, bool trusted, char *path, size_t size)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&d->lock);
	/* between two runs (detached) no bundle is served */
	for (size_t i = 0; d->bundles && d->ops.cfg && i < d->ops.cfg->nbots && ret != 0; i++) {
		if (!d->bundles[i].made || d->bundles[i].none ||
		    strcmp(d->bundles[i].sha256, sha256) != 0)
			continue;
		/* the same files as a bot that is not private are no secret */
		if (!trusted && bot_private(d, i)) {
			ret = -EPERM;
			continue;
		}
		ret = snprintf(path, size, "%s/bundles/%s.tar", d->dir, sha256) < (int)size ?
		      0 : -ENAMETOOLONG;
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}
