/*
 * pool.c - a worker's bot processes, fresh for every game or reused
 * (contract in pool.h).
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
#include "termsafe.h"

/* A started process whose hello is not read yet (a fresh start, or a spare). */
struct pending {
	struct bot *bot;  /* NULL: its start failed, error says why */
	int64_t started_us;
	int waiting;      /* a spare: read at least POOL_SPARE_SLACK_MS after the acquire began */
	char error[400];
};

struct pool_slot {
	struct bot *bot;  /* handed out (fresh), or the live process (reuse) */
	int compact;      /* its hello asked for compact requests */
	/* fresh: processes started ahead, oldest first, and starts asked for but not
	 * done; under the pool's lock */
	struct pending spares[POOL_SPARES_MAX];
	int nspares, launching;
	char error[512];
	struct pool *pool;
	size_t index;
};

/*
 * Threads that start processes ahead (pool_prepare): a sandbox's start waits
 * on the kernel for milliseconds (tens under load), most of it asleep, so
 * several at once hide it. They live as long as the pool: a process's
 * parent-death signal fires when the thread that started it ends.
 */
struct starters {
	pthread_t threads[POOL_STARTERS];
	int nthreads, closing;
	size_t *queue;        /* bot indices to start, oldest first */
	size_t n, cap;
	pthread_cond_t work, ready;
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
};

struct pool {
	struct pool_config cfg;
	struct pool_slot *slots;
	struct protocol_buf buf;   /* the worker's */
	char *hello;               /* the arena's hello line, for every start */
	size_t hello_len;
	pthread_mutex_t lock;      /* starters, spares */
	struct starters starters;
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
	if (protocol_encode_hello(&p->buf, REFEREE_ARENA_NAME) < 0 ||
	    !(p->hello = strndup(p->buf.data, p->buf.len))) {
		protocol_buf_release(&p->buf);
		free(p->slots);
		free(p);
		return -ENOMEM;
	}
	p->hello_len = p->buf.len;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->starters.work, NULL);
	pthread_cond_init(&p->starters.ready, NULL);
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
		snprintf(out, size, "exited with status %d before its hello%s",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, bot_exit_hint(b));
}

/*
 * Start bot i and write the arena's hello into *out (out->bot NULL and
 * out->error saying why when it cannot start). Any thread: it touches only
 * out and what never changes. The stderr handler is set by the handshake,
 * on the worker's thread, where the observer lives.
 */
static void launch(struct pool *p, size_t i, struct pending *out)
{
	struct bot_spec spec = p->cfg.specs[i];
	char why[300] = "";
	int ret;

	memset(out, 0, sizeof(*out));
	spec.cpu = p->cfg.cpu;
	out->started_us = clock_now_us();
	ret = bot_start(&spec, &out->bot, why, sizeof(why));
	if (ret < 0) {
		out->bot = NULL;
		snprintf(out->error, sizeof(out->error), "could not start: %s",
			 why[0] ? why : strerror(-ret));
		return;
	}
	/* a write error (the bot is gone) shows as the handshake's read error */
	bot_write_line(out->bot, p->hello, p->hello_len, out->started_us +
		       (p->cfg.startup_ms > 0 ? (int64_t)p->cfg.startup_ms * 1000 : INT64_MAX / 2));
}

/* Bot i is called by the name in its hello from now on (pool_config.hello_names). */
static void take_hello_name(struct pool *p, size_t i, const char *said)
{
	char shown[POOL_NAME_MAX - 12], name[POOL_NAME_MAX]; /* room for "-" and any number */
	char *const *names = p->cfg.hello_names;
	size_t k = 0;

	termsafe_copy(shown, sizeof(shown), said);
	snprintf(name, sizeof(name), "%s", shown);
	for (int repeat = 2; k < p->cfg.nbots && repeat <= (int)p->cfg.nbots + 1; k++) {
		if (k == i || strcmp(names[k], name) != 0)
			continue;
		/* taken by another bot: the next number, and every name checked again */
		snprintf(name, sizeof(name), "%s-%d", shown, repeat++);
		k = (size_t)-1;
	}
	if (strcmp(names[i], name) != 0)
		memcpy(names[i], name, strlen(name) + 1);
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
	bot_set_stderr_handler(b, (struct bot_stderr_handler){ on_stderr, slot });
	notify(p, i, REFEREE_TO_BOT, p->hello, p->hello_len);
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
	if (p->cfg.hello_names)
		take_hello_name(p, i, hello.name);
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

static void *starter_main(void *arg)
{
	struct pool *p = arg;
	struct starters *s = &p->starters;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct pending pend;
		struct pool_slot *slot;
		size_t i;

		while (!s->n && !s->closing)
			pthread_cond_wait(&s->work, &p->lock);
		if (s->closing)
			break;
		i = s->queue[0];
		memmove(s->queue, s->queue + 1, --s->n * sizeof(*s->queue));
		pthread_mutex_unlock(&p->lock);
		launch(p, i, &pend);
		pthread_mutex_lock(&p->lock);
		slot = &p->slots[i];
		slot->spares[slot->nspares++] = pend; /* pool_prepare kept room for it */
		slot->launching--;
		pthread_cond_broadcast(&s->ready);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Ask a starter thread to start bot i (under the lock): 0, or -1 to start it at acquire. */
static int ask_start(struct pool *p, size_t i)
{
	struct starters *s = &p->starters;

	while (s->nthreads < POOL_STARTERS &&
	       pthread_create(&s->threads[s->nthreads], NULL, starter_main, p) == 0)
		s->nthreads++;
	if (!s->nthreads)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		size_t *grown = reallocarray(s->queue, cap, sizeof(*grown));

		if (!grown)
			return -1;
		s->queue = grown;
		s->cap = cap;
	}
	s->queue[s->n++] = i;
	p->slots[i].launching++;
	pthread_cond_signal(&s->work);
	return 0;
}

/* Start and handshake bot i; on failure slot->error says why and slot->bot stays NULL. */
static int start_bot(struct pool *p, size_t i)
{
	struct pool_slot *slot = &p->slots[i];
	struct pending pend;
	int spare = 0;

	pthread_mutex_lock(&p->lock);
	while (!slot->nspares && slot->launching)
		pthread_cond_wait(&p->starters.ready, &p->lock);
	if (slot->nspares) {
		pend = slot->spares[0];
		memmove(slot->spares, slot->spares + 1, --slot->nspares * sizeof(*slot->spares));
		spare = 1;
	}
	pthread_mutex_unlock(&p->lock);
	if (!spare)
		launch(p, i, &pend);
	pend.waiting = spare;
	if (!pend.bot) {
		snprintf(slot->error, sizeof(slot->error), "%s", pend.error);
		return 0;
	}
	return handshake(p, i, &pend);
}

static void *retirer_main(void *arg)
{
	struct retiring *job = arg;
	struct retirer *t = job->retirer;

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

	/* sandboxed or not, the same end (PROTOCOL.md): quit, and its grace to exit
	 * with its last words, in this thread, off the worker's way */
	send_quit(p, i, b);
	/* its last stderr lines go to the log only: the observer is this thread's */
	bot_set_stderr_handler(b, (struct bot_stderr_handler){ NULL, NULL });
	if (job && pthread_attr_init(&attr) == 0) {
		*job = (struct retiring){ t, b };
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

	if (!p->cfg.fresh || bot >= p->cfg.nbots)
		return 0;
	slot = &p->slots[bot];
	pthread_mutex_lock(&p->lock);
	/* past the most kept waiting, the acquire starts it itself */
	if (slot->nspares + slot->launching < POOL_SPARES_MAX)
		ask_start(p, bot);
	pthread_mutex_unlock(&p->lock);
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

void pool_drain(struct pool *p)
{
	pthread_mutex_lock(&p->retirer.lock);
	while (p->retirer.running)
		pthread_cond_wait(&p->retirer.done, &p->retirer.lock);
	pthread_mutex_unlock(&p->retirer.lock);
}

void pool_free(struct pool *p)
{
	if (!p)
		return;
	/* every retired process ends in its grace while the thread that started it lives:
	 * its parent-death signal fires when that thread ends */
	pool_drain(p);
	/* the starters finish the start they are at; the others are not made */
	pthread_mutex_lock(&p->lock);
	p->starters.closing = 1;
	pthread_cond_broadcast(&p->starters.work);
	pthread_mutex_unlock(&p->lock);
	for (int k = 0; k < p->starters.nthreads; k++)
		pthread_join(p->starters.threads[k], NULL);
	for (size_t i = 0; i < p->cfg.nbots; i++) {
		struct pool_slot *slot = &p->slots[i];

		if (slot->bot) {
			send_quit(p, i, slot->bot);
			bot_close(slot->bot, POOL_GRACE_MS);
		}
		/* never handshaken: the parent-death signal of their starter has ended them */
		for (int k = 0; k < slot->nspares; k++)
			bot_stop(slot->spares[k].bot, 0);
	}
	/* and those of the worker's own thread before it ends */
	pool_drain(p);
	pthread_mutex_destroy(&p->retirer.lock);
	pthread_cond_destroy(&p->retirer.done);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->starters.work);
	pthread_cond_destroy(&p->starters.ready);
	free(p->starters.queue);
	free(p->hello);
	protocol_buf_release(&p->buf);
	free(p->slots);
	free(p);
}
