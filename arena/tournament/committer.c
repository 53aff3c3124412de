/*
 * committer.c - finished games made durable in groups by a thread of their
 * own (contract in committer.h).
 */
#include "committer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonw.h"

struct group {
	struct jsonw records; /* one line each, '\n' between */
	struct committed_game games[COMMIT_GROUP_MAX];
	int n;
};

struct committer {
	struct results *results;
	struct committer_ops ops;
	struct replay_pack pack;   /* its sealed batch is the committing group's replays */
	struct group groups[2];
	struct group *filling, *committing;
	double handed_ms;          /* CLOCK_MONOTONIC of the last hand-over */
	pthread_t thread;
	pthread_mutex_t lock;      /* busy, stopping, failed */
	pthread_cond_t cond;
	int busy;                  /* committing holds a group being made durable */
	int stopping, failed;      /* failed: the first failure's negative errno */
};

static double monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void fail(struct committer *c, int code, const char *what)
{
	pthread_mutex_lock(&c->lock);
	int first = !c->failed;

	if (first)
		c->failed = code < 0 ? code : -EIO;
	pthread_mutex_unlock(&c->lock);
	if (first)
		c->ops.failed(c->ops.ctx, code, what, strerror(-code));
}

/* The committing group: replays, then records, then counted; dropped after a failure. */
static void commit(struct committer *c, int failed)
{
	struct group *grp = c->committing;
	int ret;

	if (failed)
		c->pack.sealed.len = 0;
	else if ((ret = replay_pack_sync(&c->pack)) < 0)
		fail(c, ret, c->pack.name);
	else if (grp->n && (ret = results_append(c->results, grp->records.data, grp->records.len)) < 0)
		fail(c, ret, "games.jsonl");
	else if (grp->n)
		c->ops.counted(c->ops.ctx, grp->games, grp->n);
	grp->n = 0;
	jsonw_reset(&grp->records);
}

static void *committer_main(void *arg)
{
	struct committer *c = arg;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->busy && !c->stopping)
			pthread_cond_wait(&c->cond, &c->lock);
		if (!c->busy)
			break;
		int failed = c->failed;

		pthread_mutex_unlock(&c->lock);
		commit(c, failed);
		pthread_mutex_lock(&c->lock);
		c->busy = 0;
		pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static void wait_idle(struct committer *c)
{
	pthread_mutex_lock(&c->lock);
	while (c->busy)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

/* The filling group (and its replays) to the committer's thread, once it is free. */
static void hand_over(struct committer *c)
{
	struct group *g;
	int ret;

	wait_idle(c);
	if ((ret = replay_pack_seal(&c->pack)) < 0)
		fail(c, ret, c->pack.name);
	g = c->committing;
	c->committing = c->filling;
	c->filling = g;
	pthread_mutex_lock(&c->lock);
	c->busy = 1;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	c->handed_ms = monotonic_ms();
}

int committer_start(struct results *res, const char *dir, const struct committer_ops *ops,
		    struct committer **out)
{
	struct committer *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->results = res;
	c->ops = *ops;
	replay_pack_init(&c->pack, dir);
	for (int i = 0; i < 2; i++)
		jsonw_init(&c->groups[i].records);
	c->filling = &c->groups[0];
	c->committing = &c->groups[1];
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	if (pthread_create(&c->thread, NULL, committer_main, c) != 0) {
		pthread_mutex_destroy(&c->lock);
		pthread_cond_destroy(&c->cond);
		free(c);
		return -EAGAIN;
	}
	*out = c;
	return 0;
}

/* Whether games or replays wait in the filling group. */
static bool filling(const struct committer *c)
{
	return c->filling->n || c->pack.lines || c->pack.pending.len;
}

/* When the pack is full: the old pack's documents written first; the pack
 * changes only while no commit runs. */
static void make_room(struct committer *c)
{
	if (!replay_pack_needs_open(&c->pack))
		return;
	if (filling(c))
		hand_over(c);
	wait_idle(c);
}

int committer_add_replay(struct committer *c, const char *doc, size_t len,
			 struct replay_location *at)
{
	int ret;

	make_room(c);
	if ((ret = replay_pack_add(&c->pack, doc, len, at)) < 0)
		fail(c, ret, "replays");
	return ret;
}

int committer_add_frame(struct committer *c, const char *frame, size_t len,
			struct replay_location *at)
{
	int ret;

	make_room(c);
	if ((ret = replay_pack_add_frame(&c->pack, frame, len, at)) < 0)
		fail(c, ret, "replays");
	return ret;
}

int committer_add_game(struct committer *c, const struct committed_game *g, const char *record,
		       size_t len)
{
	struct group *grp = c->filling;

	if (grp->n)
		jsonw_raw(&grp->records, "\n", 1);
	jsonw_raw(&grp->records, record, len);
	if (jsonw_error(&grp->records) < 0) {
		fail(c, -ENOMEM, "games.jsonl");
		return -ENOMEM;
	}
	grp->games[grp->n++] = *g;
	if (grp->n == COMMIT_GROUP_MAX ||
	    (!c->ops.flushed && monotonic_ms() - c->handed_ms >= COMMIT_GROUP_MS))
		hand_over(c);
	return 0;
}

int committer_flush(struct committer *c)
{
	int ret;

	if (filling(c))
		hand_over(c);
	wait_idle(c);
	pthread_mutex_lock(&c->lock);
	ret = c->failed;
	pthread_mutex_unlock(&c->lock);
	return ret;
}

void committer_finish(struct committer *c)
{
	if (!c)
		return;
	if (filling(c))
		hand_over(c);
	pthread_mutex_lock(&c->lock);
	c->stopping = 1;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	replay_pack_release(&c->pack);
	for (int i = 0; i < 2; i++)
		jsonw_release(&c->groups[i].records);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->cond);
	free(c);
}
