/*
 * pool.c - one reusable process per bot for a worker (contract in pool.h).
 */
#include "pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "protocol.h"

struct pool_slot {
	struct bot *bot;
	int compact; /* its hello asked for compact requests */
	char error[512];
	struct pool *pool;
	size_t index;
};

struct pool {
	struct pool_config cfg;
	struct pool_slot *slots;
	struct protocol_buf buf;
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

/* Start and handshake bot i; on failure slot->error says why and slot->bot stays NULL. */
static int start_bot(struct pool *p, size_t i)
{
	struct pool_slot *slot = &p->slots[i];
	struct bot_spec spec = p->cfg.specs[i];
	struct protocol_bot_hello hello;
	struct protocol_diag diag = { 0 };
	char why[400] = "", what[400];
	int64_t deadline;
	const char *line;
	struct bot *b = NULL;
	size_t len;
	int ret;

	spec.cpu = p->cfg.cpu;
	deadline = p->cfg.startup_ms > 0 ? clock_now_us() + (int64_t)p->cfg.startup_ms * 1000 :
		INT64_MAX;
	ret = bot_start(&spec, &b, why, sizeof(why));
	if (ret < 0) {
		snprintf(slot->error, sizeof(slot->error), "could not start: %s",
			 why[0] ? why : strerror(-ret));
		return 0;
	}
	bot_set_stderr_handler(b, (struct bot_stderr_handler){ on_stderr, slot });
	if ((ret = protocol_encode_hello(&p->buf, REFEREE_ARENA_NAME)) < 0)
		goto fail_nomem;
	ret = bot_write_line(b, p->buf.data, p->buf.len, deadline);
	notify(p, i, REFEREE_TO_BOT, p->buf.data, p->buf.len);
	if (ret == 0)
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

void pool_release(struct pool *p, size_t bot, int faulted)
{
	if (bot >= p->cfg.nbots || !faulted)
		return;
	bot_stop(p->slots[bot].bot, POOL_GRACE_MS);
	p->slots[bot].bot = NULL;
}

void pool_free(struct pool *p)
{
	if (!p)
		return;
	if (protocol_encode_quit(&p->buf) < 0)
		p->buf.len = 0;
	for (size_t i = 0; i < p->cfg.nbots; i++) {
		struct bot *b = p->slots[i].bot;

		if (!b)
			continue;
		if (p->buf.len) {
			bot_write_line(b, p->buf.data, p->buf.len, clock_now_us() + 100000);
			notify(p, i, REFEREE_TO_BOT, p->buf.data, p->buf.len);
		}
		bot_close(b, POOL_GRACE_MS);
	}
	protocol_buf_release(&p->buf);
	free(p->slots);
	free(p);
}
