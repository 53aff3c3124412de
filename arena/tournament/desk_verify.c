/*
 * desk_verify.c - the host's re-play of an untrusted worker's held games
 * (contract in desk.h): one verifier thread per desk, which plays each
 * held game again through set.replay with no lock held, then takes it,
 * drops it, or suspends its worker.
 */
#include "desk_book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desk_check.h"
#include "durable.h"

/* What the host's plays say of a held game. */
enum held_verdict {
	HELD_TAKE,     /* the same play, or bots that play differently each time */
	HELD_DROP,     /* the host could not judge it: handed again */
	HELD_SUSPEND,  /* another play than the host's two equal ones */
};

bool desk_draw(double p)
{
	/* arc4random: the worker cannot foresee which of its games are drawn */
	return (double)arc4random() / 4294967296.0 < p;
}

int desk_hold(struct desk *d, struct desk_lease_rec *l, int k, const struct committed_game *cg,
	      const struct desk_sent *s)
{
	struct desk_held *h = calloc(1, sizeof(*h)), **end;

	if (!h || !(h->replay = strndup(s->replay, s->replay_len)) ||
	    !(h->record = strndup(s->record, s->record_len))) {
		if (h)
			free(h->replay);
		free(h);
		return -ENOMEM;
	}
	h->l = l;
	h->game = k;
	h->cg = *cg;
	h->record_len = s->record_len;
	h->rlen = s->replay_len;
	for (end = &d->held; *end; end = &(*end)->next)
		;
	*end = h;
	pthread_cond_broadcast(&d->cond);
	return 0;
}

static void held_free(struct desk_held *h)
{
	free(h->record);
	free(h->replay);
	free(h);
}

/* Under the lock: game k of l open again, and handed again when l has ended. */
static void reopen(struct desk *d, struct desk_lease_rec *l, int k)
{
	if (l->state == DESK_LEASE_VOID || !l->games)
		return;
	l->games[k].state = DESK_GAME_OPEN;
	if (l->state != DESK_LEASE_LIVE)
		desk_rehand(d, &l->games[k].g);
}

void desk_drop_held(struct desk *d, const char *worker)
{
	struct desk_held **at = &d->held;

	while (*at) {
		struct desk_held *h = *at;

		if (worker && strcmp(h->l->worker, worker) != 0) {
			at = &h->next;
			continue;
		}
		*at = h->next;
		reopen(d, h->l, h->game);
		held_free(h);
	}
}

/* The three replays kept as evidence: 0, or a negative errno with why. */
static int keep_evidence(const struct desk *d, const struct desk_held *h, char *const host[2],
			 const size_t hlen[2], char *why, size_t why_size)
{
	static const char *const whose[] = { "worker", "host1", "host2" };
	const char *doc[] = { h->replay, host[0], host[1] };
	size_t len[] = { h->rlen, hlen[0], hlen[1] };
	char path[PATH_MAX];
	int ret = 0;

	snprintf(path, sizeof(path), "%s/workers", d->dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		ret = -errno;
	snprintf(path, sizeof(path), "%s/workers/evidence", d->dir);
	if (!ret && mkdir(path, 0755) < 0 && errno != EEXIST)
		ret = -errno;
	for (int i = 0; !ret && i < 3; i++) {
		if (snprintf(path, sizeof(path), "%s/workers/evidence/%s-%s-%s.json", d->dir,
			     h->l->worker, h->cg.game.id, whose[i]) >= (int)sizeof(path))
			ret = -ENAMETOOLONG;
		else
			ret = durable_write(path, doc[i], len[i]);
	}
	if (ret < 0)
		snprintf(why, why_size, "\"%.160s\": %s", path, strerror(-ret));
	return ret;
}

/*
 * Outside the lock: h played here once, and once more when the worker's play
 * differs. The verdict, with why for a drop or a suspension.
 */
static enum held_verdict judge(struct desk *d, const struct config *cfg,
			       const struct desk_held *h, char *why, size_t why_size)
{
	char *host[2] = { NULL, NULL }, err[512];
	size_t hlen[2] = { 0, 0 };
	enum held_verdict v = HELD_DROP;
	int same;

	if (d->set.replay(d->set.replay_ctx, cfg, &h->cg.game, &host[0], &hlen[0], err,
			  sizeof(err)) < 0) {
		snprintf(why, why_size, "the host's play: %.200s", err);
		goto out;
	}
	if ((same = desk_check_same_play(h->replay, h->rlen, host[0], hlen[0], why,
					 why_size)) != 0) {
		v = same > 0 ? HELD_TAKE : HELD_DROP;
		goto out;
	}
	if (d->set.replay(d->set.replay_ctx, cfg, &h->cg.game, &host[1], &hlen[1], err,
			  sizeof(err)) < 0) {
		snprintf(why, why_size, "the host's second play: %.200s", err);
		goto out;
	}
	if ((same = desk_check_same_play(host[0], hlen[0], host[1], hlen[1], why,
					 why_size)) < 0)
		goto out;
	/* bots that play otherwise each time: the worker's play cannot be judged */
	if (!same) {
		v = HELD_TAKE;
		goto out;
	}
	if (keep_evidence(d, h, host, hlen, why, why_size) < 0)
		goto out;
	snprintf(why, why_size, "its play of game %s is not the host's, whose two plays agree "
		 "(workers/evidence/%s-%s-*.json)", h->cg.game.id, h->l->worker, h->cg.game.id);
	v = HELD_SUSPEND;
out:
	free(host[0]);
	free(host[1]);
	return v;
}

/* Under the lock: the verdict on h carried out (taken: committed by the caller already). */
static void settle_held(struct desk *d, struct desk_held *h, enum held_verdict v,
			const char *why)
{
	static const char *const result[] = {
		[HELD_TAKE] = "taken", [HELD_DROP] = "failed", [HELD_SUSPEND] = "mismatch",
	};
	struct desk_worker *w = desk_worker_of(d, h->l->worker, false);
	struct desk_lease_rec *l = h->l;
	cJSON *e;

	e = desk_event("replayed", l->worker, l);
	cJSON_AddStringToObject(e, "game", h->cg.game.id);
	cJSON_AddStringToObject(e, "result", result[v]);
	if (v != HELD_TAKE)
		cJSON_AddStringToObject(e, "why", why);
	desk_journal(d, e);
	if (w) {
		w->replayed += v != HELD_DROP;
		w->replay_failures += v == HELD_DROP;
	}
	if (v == HELD_SUSPEND && w) {
		w->mismatches++;
		desk_suspend_worker(d, w, why);
		desk_drop_held(d, w->name);
	}
	if (v != HELD_TAKE) {
		reopen(d, l, h->game);
		return;
	}
	if (l->games)
		l->games[h->game].state = DESK_GAME_TAKEN;
	l->taken++;
	if (w)
		w->games++;
	/* without memory a later resend of the id is compared with nothing: the run's own
	 * record still keeps it once */
	desk_done_add(d, &h->cg);
	e = desk_event("taken", l->worker, l);
	cJSON_AddNumberToObject(e, "games", 1);
	desk_journal(d, e);
}

/* Outside the lock: a game the host could not judge, said to the one who runs the desk. */
static void say_dropped(struct desk *d, const char *worker, const char *id, const char *why)
{
	char line[DESK_WHY_MAX + 256];

	if (!d->set.log)
		return;
	snprintf(line, sizeof(line), "the re-play of game %s from worker \"%s\" failed (%s): the "
		 "game is dropped and its deal handed again", id, worker, why);
	d->set.log(d->set.log_ctx, line);
}

static void *verify_main(void *arg)
{
	struct desk *d = arg;

	pthread_mutex_lock(&d->lock);
	while (!d->quit) {
		struct desk_held *h = d->held;
		struct desk_run_ops ops;
		enum held_verdict v;
		char why[DESK_WHY_MAX] = "", worker[128];
		int rc;

		/* a detaching run's held games are dropped, not re-played */
		if (!h || !d->attached || d->detaching) {
			pthread_cond_wait(&d->cond, &d->lock);
			continue;
		}
		d->held = h->next;
		ops = d->ops;
		d->calls++;
		snprintf(worker, sizeof(worker), "%s", h->l->worker);
		pthread_mutex_unlock(&d->lock);
		v = judge(d, ops.cfg, h, why, sizeof(why));
		if (v == HELD_TAKE) {
			struct desk_commit c = { h->cg, h->record, h->record_len };
			const char *replay = h->replay;

			if ((rc = desk_commit_docs(&ops, &c, &replay, &h->rlen, 1)) < 0) {
				snprintf(why, sizeof(why), "the game could not be recorded: %s",
					 strerror(-rc));
				v = HELD_DROP;
			}
		}
		if (v == HELD_DROP)
			say_dropped(d, worker, h->cg.game.id, why);
		pthread_mutex_lock(&d->lock);
		settle_held(d, h, v, why);
		held_free(h);
		d->calls--;
		pthread_cond_broadcast(&d->cond);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

int desk_verifier_start(struct desk *d)
{
	int ret;

	if (!d->set.replay)
		return 0;
	if ((ret = pthread_create(&d->verifier, NULL, verify_main, d)) != 0)
		return -ret;
	d->verifying = true;
	return 0;
}

void desk_verifier_stop(struct desk *d)
{
	if (!d->verifying)
		return;
	pthread_mutex_lock(&d->lock);
	d->quit = true;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->verifier, NULL);
	d->verifying = false;
}
