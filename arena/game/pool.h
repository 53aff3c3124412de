/*
 * pool.h - a worker's bot processes: one live process per bot, reused game
 * after game.
 *
 * pool_acquire() hands out a started bot that has passed the hello handshake
 * (arena hello, then the bot's hello within startup_ms of its start). A bot
 * that cannot start (no such file, exec failure, no or bad hello in time) is
 * handed out as a seat with bot NULL and a plain-words start_error, so the
 * game is still played and records a "start" fault; the next acquire tries a
 * fresh start. pool_release() after a game keeps the process, unless the bot
 * faulted: then it is stopped (process group TERM, then KILL after grace_ms)
 * and a fresh one is started at the next acquire.
 *
 * A pool belongs to one thread. Every process it starts gets spec.cpu replaced
 * by the pool's cpu (-1: no pinning).
 */
#ifndef SKIPBO_POOL_H
#define SKIPBO_POOL_H

#include <stddef.h>

#include "bot.h"
#include "referee.h"

#define POOL_GRACE_MS 200

struct pool_config {
	const struct bot_spec *specs;  /* one per bot; borrowed, must outlive the pool */
	size_t nbots;
	int cpu;                       /* CPU for every process, -1 = no pinning */
	int startup_ms;                /* hello deadline from process start; 0 = no limit */
	const struct referee_observer *observer; /* hello/quit lines, and stderr lines outside
	                                            games (seat -1); may be NULL */
};

struct pool;

/* Returns 0 and *out, or -ENOMEM. No process starts yet. */
int pool_new(const struct pool_config *cfg, struct pool **out);

/*
 * Fill seat for bot index `bot`: its name, and either a running, handshaken
 * process (seat->bot) or NULL with seat->start_error (valid until the next
 * call for that bot). Returns 0, or -EINVAL for a bad index.
 */
int pool_acquire(struct pool *p, size_t bot, struct referee_seat *seat);

/* The game is over for `bot`; faulted != 0 stops its process. */
void pool_release(struct pool *p, size_t bot, int faulted);

/* Send quit to every live process, close it (grace_ms for a clean exit), free. NULL is fine. */
void pool_free(struct pool *p);

#endif
