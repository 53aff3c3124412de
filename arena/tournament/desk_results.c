/*
 * desk_results.c - a lease's results checked and taken, and the desk's
 * documents: a lease, the state (contract in desk.h).
 */
#include "desk_book.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desk_check.h"
#include "jsonw.h"
#include "referee.h"
#include "replay_pack.h"

static uint64_t id_hash(const char *id)
{
	uint64_t h = 1469598103934665603ull;

	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 1099511628211ull;
	return h;
}

/* The slot of id in the table: its entry, or the empty slot it would take. */
static struct desk_done *done_slot(const struct desk *d, const char *id)
{
	size_t mask = d->done_cap - 1, i = id_hash(id) & mask;

	while (d->done[i].id[0] && strcmp(d->done[i].id, id) != 0)
		i = (i + 1) & mask;
	return &d->done[i];
}

int desk_done_add(struct desk *d, const struct committed_game *cg)
{
	struct desk_done *slot;

	if (2 * (d->ndone + 1) > d->done_cap) {
		struct desk_done *old = d->done;
		size_t cap = d->done_cap ? 2 * d->done_cap : 1024, n = d->done_cap;

		if (!(d->done = calloc(cap, sizeof(*d->done)))) {
			d->done = old;
			return -ENOMEM;
		}
		d->done_cap = cap;
		for (size_t i = 0; i < n; i++)
			if (old[i].id[0])
				*done_slot(d, old[i].id) = old[i];
		free(old);
	}
	slot = done_slot(d, cg->game.id);
	strcpy(slot->id, cg->game.id);
	memcpy(slot->placings, cg->placings, sizeof(slot->placings));
	slot->players = cg->players;
	slot->faults = cg->faults;
	d->ndone++;
	return 0;
}

static const struct desk_done *done_find(const struct desk *d, const char *id)
{
	const struct desk_done *slot;

	if (!d->done_cap)
		return NULL;
	slot = done_slot(d, id);
	return slot->id[0] ? slot : NULL;
}

void desk_done_release(struct desk *d)
{
	free(d->done);
}

/* Bot i's bundle, made in dir/bundles/ at its first lease: its name, or NULL for none. */
static const char *bundle_of(struct desk *d, size_t i)
{
	const struct config *cfg = d->ops.cfg;
	struct desk_bundle *b = d->bundles ? &d->bundles[i] : NULL;
	char cache[PATH_MAX], err[512];

	if (!b)
		return NULL;
	if (!b->made) {
		snprintf(cache, sizeof(cache), "%s/bundles", d->dir);
		/* a bundle that cannot be made leaves the bot to the worker's own files: one that
		 * lacks them releases the lease saying so */
		b->none = (mkdir(cache, 0755) < 0 && errno != EEXIST) ||
			  bundle_make(&cfg->bots[i], (const char *const *)cfg->system, d->dir, cache,
				      b->sha256, err, sizeof(err)) != 0;
		b->made = true;
	}
	return b->none ? NULL : b->sha256;
}

/* The tournament file's form of the lease's bots, each with its bundle. */
static cJSON *lease_bots(struct desk *d, const struct desk_lease_rec *l, cJSON *all,
			 int players)
{
	cJSON *bots = cJSON_CreateArray(), *b;
	int i = 0;

	cJSON_ArrayForEach(b, all) {
		bool seated = false;

		for (int k = 0; k < l->n && !seated; k++)
			for (int s = 0; s < players; s++)
				seated |= l->games[k].g.bots[s] == i;
		i++;
		if (seated) {
			cJSON *copy = cJSON_Duplicate(b, 1);
			const char *sha = bundle_of(d, (size_t)i - 1);

			if (sha)
				cJSON_AddStringToObject(copy, "bundle", sha);
			else
				cJSON_AddNullToObject(copy, "bundle");
			cJSON_AddItemToArray(bots, copy);
		}
	}
	return bots;
}

/* The lease's games as a JSON array in w: written directly, a lease holds up to
 * DESK_LEASE_MAX of them. */
static void lease_games(const struct config *cfg, const struct desk_lease_rec *l,
			struct jsonw *w)
{
	char told[REFEREE_OPAQUE_ID_SIZE];

	jsonw_text(w, "[");
	for (int k = 0; k < l->n; k++) {
		const struct schedule_game *g = &l->games[k].g;

		referee_opaque_id(cfg->seed, g->id, told);
		jsonw_printf(w, "%s{\"index\":%" PRIu64 ",\"id\":", k ? "," : "", g->index);
		jsonw_string(w, g->id);
		jsonw_text(w, ",\"told\":");
		jsonw_string(w, told);
		jsonw_printf(w, ",\"seed\":\"%016" PRIx64 "\",\"table\":%" PRIu32 ",\"deal\":%" PRIu32
			     ",\"rotation\":%" PRIu32 ",\"seats\":[", g->seed, g->table, g->deal,
			     g->rotation);
		for (int s = 0; s < cfg->players; s++) {
			if (s)
				jsonw_text(w, ",");
			jsonw_string(w, cfg->bots[g->bots[s]].name);
		}
		jsonw_text(w, "]}");
	}
	jsonw_text(w, "]");
}

char *desk_lease_document(struct desk *d, const struct desk_lease_rec *l)
{
	const struct config *cfg = d->ops.cfg;
	char *text = config_to_json(cfg, 0), *doc = NULL;
	cJSON *t = text ? cJSON_Parse(text) : NULL, *root = cJSON_CreateObject(), *all;
	struct jsonw games;
	/* the worker never learns the run's seed, nor its directory; no schedule is played
	 * there, so neither a gauntlet's challengers */
	static const char *const hidden[] = { "seed", "output", "format", "challengers" };

	free(text);
	jsonw_init(&games);
	if (!t || !root)
		goto out;
	all = cJSON_DetachItemFromObjectCaseSensitive(t, "bots");
	for (size_t k = 0; k < sizeof(hidden) / sizeof(hidden[0]); k++)
		cJSON_DeleteItemFromObjectCaseSensitive(t, hidden[k]);
	cJSON_AddStringToObject(root, "lease", l->id);
	cJSON_AddNumberToObject(root, "expires_in", d->set.expire_seconds);
	cJSON_AddItemToObject(root, "tournament", t);
	t = NULL;
	cJSON_AddItemToObject(root, "bots", lease_bots(d, l, all, cfg->players));
	cJSON_Delete(all);
	lease_games(cfg, l, &games);
	if (jsonw_error(&games) == 0 && cJSON_AddRawToObject(root, "games", games.data))
		doc = cJSON_PrintUnformatted(root);
out:
	jsonw_release(&games);
	cJSON_Delete(t);
	cJSON_Delete(root);
	return doc;
}

/* A game of a results call: where it is in the lease, what became of it. */
struct desk_taking {
	int game;                /* in the lease, -1: none */
	bool replay;             /* re-played by the referee */
	bool hold;               /* in the sample the host re-plays itself */
	struct committed_game cg;
	/* 0 taken, 1 refused with why, 2 dropped (already recorded), 3 held for the host's re-play */
	int verdict;
	char why[DESK_WHY_MAX];
};

/* A game refused, named by its record's id (else its replay's, else "?"). */
static void reject(cJSON *rejected, const struct desk_sent *s, const char *why)
{
	cJSON *o = cJSON_CreateObject();
	char id[SCHEDULE_ID_MAX];

	if (desk_record_id(s, id, sizeof(id)) < 0)
		snprintf(id, sizeof(id), "%s", s->id[0] ? s->id : "?");
	cJSON_AddStringToObject(o, "id", id);
	cJSON_AddStringToObject(o, "why", why);
	cJSON_AddItemToArray(rejected, o);
}

/* Under the lock: each game sent found in the lease and claimed, or refused. */
static void claim(struct desk *d, struct desk_lease_rec *l, const struct desk_sent *sent,
		  struct desk_taking *tk, int n)
{
	int next = 0;

	for (int i = 0; i < n; i++) {
		tk[i].game = -1;
		tk[i].verdict = 1;
		/* from the game after the last one found: a worker sends them in the lease's order */
		for (int j = 0; j < l->n && tk[i].game < 0; j++) {
			int k = (next + j) % l->n;

			if (strcmp(l->games[k].g.id, sent[i].id) == 0)
				tk[i].game = k;
		}
		if (tk[i].game >= 0)
			next = tk[i].game + 1;
		if (tk[i].game < 0) {
			snprintf(tk[i].why, sizeof(tk[i].why), "no game of lease %s", l->id);
			continue;
		}
		if (l->games[tk[i].game].state != DESK_GAME_OPEN) {
			snprintf(tk[i].why, sizeof(tk[i].why), "already sent in this lease");
			tk[i].game = -1;
			continue;
		}
		l->games[tk[i].game].state = DESK_GAME_CLAIMED;
		tk[i].verdict = 0;
		/* an untrusted worker's every game, a trusted one's in a sample */
		tk[i].replay = !l->trusted ||
			       (double)rand_r(&d->rand) / ((double)RAND_MAX + 1) < d->set.replay_sample;
		tk[i].hold = !l->trusted && d->set.replay && desk_draw(d->set.replay_sample);
	}
}

/* Under the lock: a checked game already recorded is compared and dropped (2). */
static int compare_done(struct desk *d, const struct desk_lease_rec *l, struct desk_taking *t)
{
	const struct desk_done *was = done_find(d, t->cg.game.id);
	cJSON *e;

	if (!was)
		return desk_done_add(d, &t->cg);
	t->verdict = 2;
	if (was->players == t->cg.players && was->faults == t->cg.faults &&
	    memcmp(was->placings, t->cg.placings, (size_t)was->players * sizeof(int)) == 0) {
		snprintf(t->why, sizeof(t->why), "already recorded, with the same result");
		return 0;
	}
	snprintf(t->why, sizeof(t->why), "already recorded with another result: a conflict");
	e = desk_event("conflict", l->worker, l);
	cJSON_AddStringToObject(e, "id", t->cg.game.id);
	desk_journal(d, e);
	return 0;
}

/* The games taken so far refused: the run could not record them (code). */
static void refuse_taken(struct desk_taking *tk, int n, int code)
{
	for (int i = 0; i < n; i++)
		if (tk[i].verdict == 0) {
			snprintf(tk[i].why, sizeof(tk[i].why), "the host could not record it: %s",
				 strerror(-code));
			tk[i].verdict = 1;
		}
}

/* Outside the lock: each claimed game checked, and kept (0), held (3) or dropped (2). */
static void check_each(struct desk *d, struct desk_lease_rec *l, const struct config *cfg,
		       const struct desk_sent *sent, struct desk_taking *tk, int n)
{
	for (int i = 0; i < n; i++) {
		struct desk_taking *t = &tk[i];
		int ret;

		if (t->verdict)
			continue;
		ret = desk_check_game(cfg, &l->games[t->game].g, &sent[i], t->replay, &t->cg,
				      t->why, sizeof(t->why));
		if (ret) {
			if (ret < 0)
				snprintf(t->why, sizeof(t->why), "the host is out of memory");
			t->verdict = 1;
			continue;
		}
		pthread_mutex_lock(&d->lock);
		if (desk_worker_of(d, l->worker, false)->suspended) {
			/* suspended while this call checked its games: none is taken */
			snprintf(t->why, sizeof(t->why), "the worker is suspended");
			t->verdict = 1;
		} else if (t->hold && !done_find(d, t->cg.game.id)) {
			ret = desk_hold(d, l, t->game, &t->cg, &sent[i]);
			t->verdict = ret < 0 ? 0 : 3;
		} else {
			ret = compare_done(d, l, t);
		}
		pthread_mutex_unlock(&d->lock);
		if (ret < 0) {
			snprintf(t->why, sizeof(t->why), "the host is out of memory");
			t->verdict = 1;
		}
	}
}

int desk_commit_docs(const struct desk_run_ops *ops, const struct desk_commit *games,
		     const char *const *replays, const size_t *rlens, int n)
{
	size_t len = 0, at = 0, flen;
	char *docs, *frame;
	int ret;

	for (int k = 0; k < n; k++)
		len += rlens[k] + 1;
	if (!(docs = malloc(len ? len : 1)))
		return -ENOMEM;
	for (int k = 0; k < n; k++) {
		memcpy(docs + at, replays[k], rlens[k]);
		at += rlens[k];
		docs[at++] = '\n';
	}
	ret = replay_pack_frame(docs, len, &frame, &flen);
	free(docs);
	if (ret < 0)
		return ret;
	ret = ops->commit(ops->run, games, n, frame, flen);
	free(frame);
	return ret;
}

/*
 * Outside the lock: the games kept committed. When every game sent is, the
 * worker's frame is appended as it is; else the kept ones' replays are
 * compressed again, so that a pack holds only the documents of its games.
 */
static void commit_kept(const struct desk_run_ops *ops, const struct desk_body *b,
			struct desk_taking *tk)
{
	struct desk_commit *games;
	const char **replays;
	size_t *rlens;
	int kept = 0, ret = -ENOMEM;

	if (!b->n)
		return;
	games = calloc((size_t)b->n, sizeof(*games));
	replays = calloc((size_t)b->n, sizeof(*replays));
	rlens = calloc((size_t)b->n, sizeof(*rlens));
	if (!games || !replays || !rlens)
		goto out;
	for (int i = 0; i < b->n; i++)
		if (tk[i].verdict == 0) {
			games[kept] = (struct desk_commit){ tk[i].cg, b->sent[i].record,
							    b->sent[i].record_len };
			replays[kept] = b->sent[i].replay;
			rlens[kept++] = b->sent[i].replay_len;
		}
	ret = kept == b->n ? ops->commit(ops->run, games, kept, b->frame, b->frame_len) :
	      kept ? desk_commit_docs(ops, games, replays, rlens, kept) : 0;
out:
	if (ret < 0)
		refuse_taken(tk, b->n, ret);
	free(games);
	free(replays);
	free(rlens);
}

/* Outside the lock: the games taken made durable before the answer says so, or refused. */
static void flush_taken(const struct desk_run_ops *ops, struct desk_taking *tk, int n)
{
	int ret = 0, taken = 0;

	for (int i = 0; i < n; i++)
		taken += tk[i].verdict == 0;
	if (taken && ops->flush && (ret = ops->flush(ops->run)) < 0)
		refuse_taken(tk, n, ret);
}

/* Under the lock: the verdicts into the lease, the deals and the answer. */
static int settle(struct desk *d, struct desk_lease_rec *l, const struct desk_sent *sent,
		  struct desk_taking *tk, int n, bool done, cJSON *accepted, cJSON *rejected,
		  cJSON *held)
{
	struct desk_worker *w = desk_worker_of(d, l->worker, false);
	int taken = 0;
	cJSON *e;

	for (int i = 0; i < n; i++) {
		struct desk_lease_game *g = tk[i].game >= 0 ? &l->games[tk[i].game] : NULL;

		if (tk[i].verdict == 1) {
			reject(rejected, &sent[i], tk[i].why);
			if (!g)
				continue;
			g->state = DESK_GAME_OPEN;
			desk_fail_deal(d, &g->g, tk[i].why);
			/* a parked deal's game is never handed again, nor taken from this lease */
			if (desk_parked(d, &g->g))
				g->state = DESK_GAME_TAKEN;
			else if (l->state != DESK_LEASE_LIVE)
				desk_rehand(d, &g->g); /* it ended while the game was checked */
			continue;
		}
		if (tk[i].verdict == 3) {
			/* claimed until the verifier decides: a resend is "already sent" */
			cJSON_AddItemToArray(held, cJSON_CreateString(sent[i].id));
			continue;
		}
		g->state = DESK_GAME_TAKEN;
		if (tk[i].verdict == 2) {
			reject(rejected, &sent[i], tk[i].why);
			continue;
		}
		cJSON_AddItemToArray(accepted, cJSON_CreateString(sent[i].id));
		taken++;
	}
	l->taken += taken;
	if (w)
		w->games += (uint64_t)taken;
	e = desk_event("taken", l->worker, l);
	cJSON_AddNumberToObject(e, "games", taken);
	desk_journal_count(d, e);
	if (done && l->state == DESK_LEASE_LIVE)
		desk_end_lease(d, l, DESK_LEASE_DONE, "done", false);
	return 0;
}

/* The lease id of worker, live: it, else NULL with the code and err. */
static struct desk_lease_rec *live_lease(struct desk *d, const char *worker, const char *id,
					 int *code, char *err, size_t err_size)
{
	struct desk_lease_rec *l = desk_lease_of(d, id);

	if (!l || strcmp(l->worker, worker) != 0) {
		snprintf(err, err_size, "worker \"%s\" holds no lease \"%s\"", worker, id);
		*code = -ENOENT;
		return NULL;
	}
	if (l->state != DESK_LEASE_LIVE || !d->attached) {
		snprintf(err, err_size, "lease \"%s\" has ended: ask for a new one", id);
		*code = -ESTALE;
		return NULL;
	}
	return l;
}

int desk_results(struct desk *d, const char *worker, const char *id, const char *body,
		 size_t len, char **answer, char *err, size_t err_size)
{
	struct desk_body b = { 0 };
	struct desk_taking *tk = NULL;
	struct desk_lease_rec *l;
	struct desk_run_ops ops;
	cJSON *root = NULL, *accepted, *rejected, *held;
	int n = 0, ret;

	*answer = NULL;
	pthread_mutex_lock(&d->lock);
	desk_expire_due(d);
	l = live_lease(d, worker, id, &ret, err, err_size);
	pthread_mutex_unlock(&d->lock);
	if (!l)
		return ret;
	if ((ret = desk_check_body(body, len, &b, err, err_size)) < 0)
		goto out;
	n = b.n;
	ret = -ENOMEM;
	if ((n && !(tk = calloc((size_t)n, sizeof(*tk)))) || !(root = cJSON_CreateObject()))
		goto out;
	accepted = cJSON_AddArrayToObject(root, "accepted");
	rejected = cJSON_AddArrayToObject(root, "rejected");
	held = cJSON_AddArrayToObject(root, "held");
	pthread_mutex_lock(&d->lock);
	/* it may have ended since: an expiry, a detach */
	if (!(l = live_lease(d, worker, id, &ret, err, err_size))) {
		pthread_mutex_unlock(&d->lock);
		goto out;
	}
	l->heard = desk_now();
	desk_worker_of(d, worker, false)->last_heard = time(NULL);
	claim(d, l, b.sent, tk, n);
	ops = d->ops;
	d->calls++;
	pthread_mutex_unlock(&d->lock);
	check_each(d, l, ops.cfg, b.sent, tk, n);
	commit_kept(&ops, &b, tk);
	flush_taken(&ops, tk, n);
	pthread_mutex_lock(&d->lock);
	d->calls--;
	settle(d, l, b.sent, tk, n, b.done, accepted, rejected, held);
	l->heard = desk_now();
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	cJSON_AddNumberToObject(root, "expires_in", d->set.expire_seconds);
	ret = (*answer = cJSON_PrintUnformatted(root)) ? 0 : -ENOMEM;
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	cJSON_Delete(root);
	free(tk);
	desk_body_release(&b);
	return ret;
}

static cJSON *worker_state(const struct desk *d, const struct desk_worker *w, time_t now)
{
	cJSON *o = cJSON_CreateObject();
	double held = w->held, games = (double)w->timed_games;

	/* the live leases' time and games count too */
	for (size_t i = 0; i < d->nleases; i++)
		if (d->leases[i]->state == DESK_LEASE_LIVE && strcmp(d->leases[i]->worker,
								       w->name) == 0) {
			held += desk_now() - d->leases[i]->began;
			games += d->leases[i]->taken;
		}
	cJSON_AddStringToObject(o, "name", w->name);
	cJSON_AddBoolToObject(o, "trusted", w->trusted);
	cJSON_AddBoolToObject(o, "suspended", w->suspended);
	if (w->why)
		cJSON_AddStringToObject(o, "why", w->why);
	else
		cJSON_AddNullToObject(o, "why");
	if (w->last_heard)
		cJSON_AddNumberToObject(o, "last_heard", (double)w->last_heard);
	else
		cJSON_AddNullToObject(o, "last_heard");
	cJSON_AddNumberToObject(o, "leases", w->leases);
	cJSON_AddNumberToObject(o, "games", (double)w->games);
	cJSON_AddNumberToObject(o, "games_per_second", held > 0 ? games / held : 0);
	cJSON_AddBoolToObject(o, "alive", w->last_heard &&
			      now - w->last_heard <= (time_t)d->set.expire_seconds);
	cJSON_AddNumberToObject(o, "replayed", (double)w->replayed);
	cJSON_AddNumberToObject(o, "mismatches", (double)w->mismatches);
	cJSON_AddNumberToObject(o, "replay_failures", (double)w->replay_failures);
	return o;
}

cJSON *desk_state(struct desk *d)
{
	cJSON *root = cJSON_CreateObject(), *workers, *parked;
	time_t now = time(NULL);
	uint64_t leased = 0;

	if (!root)
		return NULL;
	pthread_mutex_lock(&d->lock);
	desk_expire_due(d);
	workers = cJSON_AddArrayToObject(root, "workers");
	for (size_t i = 0; i < d->nworkers; i++)
		cJSON_AddItemToArray(workers, worker_state(d, &d->workers[i], now));
	parked = cJSON_AddArrayToObject(root, "parked");
	for (size_t i = 0; i < d->ndeals; i++) {
		const struct desk_deal *p = &d->deals[i];
		cJSON *o;

		if (!p->parked)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "deal", p->name);
		cJSON_AddNumberToObject(o, "games", p->games);
		cJSON_AddItemToObject(o, "reasons", cJSON_CreateStringArray(
			(const char *const *)p->reasons, (int)p->nreasons));
		cJSON_AddItemToArray(parked, o);
	}
	for (size_t i = 0; i < d->nleases; i++)
		if (d->leases[i]->state == DESK_LEASE_LIVE)
			leased += (uint64_t)(d->leases[i]->n - d->leases[i]->taken);
	cJSON_AddNumberToObject(root, "leased_games", (double)leased);
	pthread_mutex_unlock(&d->lock);
	return root;
}
