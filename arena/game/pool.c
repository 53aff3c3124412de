/*
 * pool.c - one reusable process per bot for a worker (contract in pool.h).
 */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "protocol.h"

/* A started process whose hello is not read yet (a fresh start, or a spare). */
struct pending {
	struct bot *bot;
	int64_t started_us;
	int waiting;      /* a spare: read at least POOL_SPARE_SLACK_MS after the acquire began */
};

struct pool_slot {
	struct bot *bot;  /* handed out (fresh), or the live process (reuse) */
	int compact;      /* its hello asked for compact requests */
	struct pending spare; /* fresh: the next game's process, started ahead */
	int spare_failed; /* the spare's start failed: error says why */
	char error[512];
	struct pool *pool;
	size_t index;
};

/*
 * Processes after their game, told to quit: a thread for each closes it
 * (bot_close: its exit awaited, at most grace_ms, then reaped), so the wait
 * is not the worker's. One thread each, not a queue: a sandbox can take a
 * hundred milliseconds and more to end (its namespaces torn down), and a
 * process queued behind it would stay a zombie that long.
 */
struct retirer {
	int running;          /* threads not finished yet */
	pthread_mutex_t lock;
	pthread_cond_t done;
};

struct retiring {
	struct retirer *retirer;
	struct bot *bot;
	int stop;             /* stop it rather than wait for its exit */
};

struct pool {
	struct pool_config cfg;
	struct pool_slot *slots;
	struct protocol_buf buf;
	struct retirer retirer;
};

int pool_new(const struct pool_config *cfg, struct pool **out)
{
	struct pool *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->cfg = *cfg;
	p->slots = calloc(cfg->nbots ? cfg->nbots : 1, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cfg->nbots; i++) {
		p->slots[i].pool = p;
		p->slots[i].index = i;
	}
	protocol_buf_init(&p->buf);
	pthread_mutex_init(&p->retirer.lock, NULL);
	pthread_cond_init(&p->retirer.done, NULL);
	*out = p;
	return 0;
}

static void notify(struct pool *p, size_t bot, enum referee_dir dir, const char *line, size_t len)
{
	const struct referee_observer *o = p->cfg.observer;

	if (o && o->line)
		o->line(o->ctx, p->cfg.specs[bot].name, -1, dir, line, len, clock_now_us());
}

/* A stderr line while no game has the bot (its start, its stop): seat -1. */
static void on_stderr(void *ctx, const char *line, size_t len)
{
	struct pool_slot *slot = ctx;
	const struct referee_observer *o = slot->pool->cfg.observer;

	if (o && o->stderr_line)
		o->stderr_line(o->ctx, slot->pool->cfg.specs[slot->index].name, -1, line, len);
}

/* Why a bot ended its output during the handshake, in plain words. */
static void describe_end(struct bot *b, char *out, size_t size)
{
	struct timespec pause = { 0, 1000000 };
	int status;

	/* EOF usually comes with the exit; give the reap a moment */
	for (int i = 0; i < 200 && !bot_exited(b, &status); i++)
		nanosleep(&pause, NULL);
	if (!bot_exited(b, &status))
		snprintf(out, size, "closed its output before its hello");
	else if (WIFSIGNALED(status))
		snprintf(out, size, "was killed by signal %d (%s) before its hello",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(out, size, "exited with status %d before its hello",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/*
 * Start bot i and write the arena's hello: 0 and *out, or 0 with out->bot
 * NULL and slot->error saying why, or -ENOMEM.
 */
static int launch(struct pool *p, size_t i, struct pending *out)
{
	struct pool_slot *slot = &p->slots[i];
	struct bot_spec spec = p->cfg.specs[i];
	char why[400] = "";
	int ret;

	memset(out, 0, sizeof(*out));
	spec.cpu = p->cfg.cpu;
	out->started_us = clock_now_us();
	ret = bot_start(&spec, &out->bot, why, sizeof(why));
	if (ret < 0) {
		out->bot = NULL;
		snprintf(slot->error, sizeof(slot->error), "could not start: %s",
			 why[0] ? why : strerror(-ret));
		return 0;
	}
	bot_set_stderr_handler(out->bot, (struct bot_stderr_handler){ on_stderr, slot });
	if (protocol_encode_hello(&p->buf, REFEREE_ARENA_NAME) < 0) {
		bot_stop(out->bot, POOL_GRACE_MS);
		out->bot = NULL;
		return -ENOMEM;
	}
	/* a write error (the bot is gone) shows as the handshake's read error */
	bot_write_line(out->bot, p->buf.data, p->buf.len, out->started_us +
		       (p->cfg.startup_ms > 0 ? (int64_t)p->cfg.startup_ms * 1000 : INT64_MAX / 2));
	return 0;
}

/* The bot's hello for a launched process: slot->bot on success, else slot->error. */
static int handshake(struct pool *p, size_t i, struct pending *pend)
{
	struct pool_slot *slot = &p->slots[i];
	struct protocol_bot_hello hello;
	struct protocol_diag diag = { 0 };
	struct bot *b = pend->bot;
	char what[400];
	int64_t deadline = INT64_MAX, now = clock_now_us();
	const char *line;
	size_t len;
	int ret;

	if (p->cfg.startup_ms > 0) {
		deadline = pend->started_us + (int64_t)p->cfg.startup_ms * 1000;
		if (pend->waiting && deadline < now + POOL_SPARE_SLACK_MS * 1000)
			deadline = now + POOL_SPARE_SLACK_MS * 1000;
	}
	if ((ret = protocol_encode_hello(&p->buf, REFEREE_ARENA_NAME)) < 0)
		goto fail_nomem;
	notify(p, i, REFEREE_TO_BOT, p->buf.data, p->buf.len);
	ret = bot_read_line_live(b, &line, &len, deadline);
	if (ret == -ECHILD) {
		describe_end(b, what, sizeof(what));
		snprintf(slot->error, sizeof(slot->error),
			 "%s; a process it left behind holds its output open", what);
		goto fail;
	}
	if (ret == -ETIMEDOUT) {
		referee_unflushed_hint(b, 1, what, sizeof(what));
		snprintf(slot->error, sizeof(slot->error), "no hello within %d ms of its start%s",
			 p->cfg.startup_ms, what);
		goto fail;
	}
	if (ret == -EMSGSIZE) {
		snprintf(slot->error, sizeof(slot->error), "its hello is longer than %d bytes",
			 BOT_LINE_MAX);
		goto fail;
	}
	if (ret < 0) {
		describe_end(b, what, sizeof(what));
		snprintf(slot->error, sizeof(slot->error), "%s", what);
		goto fail;
	}
	notify(p, i, REFEREE_FROM_BOT, line, len);
	ret = protocol_decode_hello(line, len, &hello, &diag);
	if (ret == PROTOCOL_ENOMEM)
		goto fail_nomem;
	if (ret < 0) {
		snprintf(slot->error, sizeof(slot->error), "bad hello: %s", diag.message);
		goto fail;
	}
	slot->bot = b;
	slot->compact = (hello.features & PROTOCOL_FEATURE_COMPACT_LEGAL) != 0;
	slot->error[0] = '\0';
	return 0;
fail_nomem:
	bot_stop(b, POOL_GRACE_MS);
	return -ENOMEM;
fail:
	bot_stop(b, POOL_GRACE_MS);
	return 0;
}

/* Start and handshake bot i; on failure slot->error says why and slot->bot stays NULL. */
static int start_bot(struct pool *p, size_t i)
{
	struct pool_slot *slot = &p->slots[i];
	struct pending pend;
	int ret;

	if (slot->spare.bot || slot->spare_failed) {
		pend = slot->spare;
		memset(&slot->spare, 0, sizeof(slot->spare));
		slot->spare_failed = 0;
		pend.waiting = 1;
	} else if ((ret = launch(p, i, &pend)) < 0) {
		return ret;
	}
	return pend.bot ? handshake(p, i, &pend) : 0;
}

static void *retirer_main(void *arg)
{
	struct retiring *job = arg;
	struct retirer *t = job->retirer;

	if (job->stop)
		bot_stop(job->bot, POOL_GRACE_MS);
	else
		bot_close(job->bot, POOL_GRACE_MS);
	free(job);
	pthread_mutex_lock(&t->lock);
	if (--t->running == 0)
		pthread_cond_signal(&t->done);
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* Tell b to quit (a failed write changes nothing: the bot is going anyway). */
static void send_quit(struct pool *p, size_t i, struct bot *b)
{
	if (protocol_encode_quit(&p->buf) < 0)
		return;
	bot_write_line(b, p->buf.data, p->buf.len, clock_now_us() + 100000);
	notify(p, i, REFEREE_TO_BOT, p->buf.data, p->buf.len);
}

/* A fresh process after its game: told to quit, and closed by a thread of its own. */
static void retire(struct pool *p, size_t i, struct bot *b)
{
	struct retirer *t = &p->retirer;
	struct retiring *job = malloc(sizeof(*job));
	pthread_attr_t attr;
	pthread_t thread;
	int started = 0;

	/*
	 * A sandbox is killed, not told to quit: bwrap exits as soon as the bot
	 * does, and would stay a zombie of ours while the kernel tears the
	 * sandbox's namespaces down (up to hundreds of ms on a loaded machine);
	 * killed, it ends after them. An unsandboxed bot gets quit and its grace.
	 */
	int stop = p->cfg.specs[i].sandbox != NULL;

	if (!stop)
		send_quit(p, i, b);
	/* its last stderr lines go to the log only: the observer is this thread's */
	bot_set_stderr_handler(b, (struct bot_stderr_handler){ NULL, NULL });
	if (job && pthread_attr_init(&attr) == 0) {
		*job = (struct retiring){ t, b, stop };
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_mutex_lock(&t->lock);
		started = pthread_create(&thread, &attr, retirer_main, job) == 0;
		t->running += started;
		pthread_mutex_unlock(&t->lock);
		pthread_attr_destroy(&attr);
	}
	if (!started) {
		free(job);
		bot_stop(b, POOL_GRACE_MS);
	}
}

int pool_acquire(struct pool *p, size_t bot, struct referee_seat *seat)
{
	int ret;

	if (bot >= p->cfg.nbots)
		return -EINVAL;
	memset(seat, 0, sizeof(*seat));
	seat->name = p->cfg.specs[bot].name;
	if (!p->slots[bot].bot && (ret = start_bot(p, bot)) < 0)
		return ret;
	seat->bot = p->slots[bot].bot;
	seat->compact = p->slots[bot].compact;
	if (!seat->bot)
		seat->start_error = p->slots[bot].error;
	return 0;
}

int pool_prepare(struct pool *p, size_t bot)
{
	struct pool_slot *slot;
	int ret;

	if (!p->cfg.fresh || bot >= p->cfg.nbots)
		return 0;
	slot = &p->slots[bot];
	if (slot->spare.bot || slot->spare_failed)
		return 0;
	if ((ret = launch(p, bot, &slot->spare)) < 0)
		return ret;
	slot->spare_failed = slot->spare.bot == NULL;
	return 0;
}

void pool_release(struct pool *p, size_t bot, int faulted)
{
	struct bot *b;

	if (bot >= p->cfg.nbots || (!faulted && !p->cfg.fresh))
		return;
	b = p->slots[bot].bot;
	p->slots[bot].bot = NULL;
	if (faulted)
		bot_stop(b, POOL_GRACE_MS);
	else if (b)
		retire(p, bot, b);
}

void pool_free(struct pool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cfg.nbots; i++) {
		struct bot *live[2] = { p->slots[i].bot, p->slots[i].spare.bot };

		for (int k = 0; k < 2; k++) {
			if (!live[k])
				continue;
			send_quit(p, i, live[k]);
			bot_close(live[k], POOL_GRACE_MS);
		}
	}
	/* every retired process closed before the worker, whose thread started them, ends */
	pthread_mutex_lock(&p->retirer.lock);
	while (p->retirer.running)
		pthread_cond_wait(&p->retirer.done, &p->retirer.lock);
	pthread_mutex_unlock(&p->retirer.lock);
	pthread_mutex_destroy(&p->retirer.lock);
	pthread_cond_destroy(&p->retirer.done);
	protocol_buf_release(&p->buf);
	free(p->slots);
	free(p);
}
