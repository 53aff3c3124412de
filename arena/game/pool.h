/*
 * pool.h - a worker's bot processes: a fresh process of each bot for every
 * game, started ahead of time, or one live process per bot reused game after
 * game.
 *
 * pool_acquire() hands out a started bot that has passed the hello handshake
 * (arena hello, then the bot's hello within startup_ms of its start). A bot
 * that cannot start (no such file, exec failure, no or bad hello in time) is
 * handed out as a seat with bot NULL and a plain-words start_error, so the
 * game is still played and records a "start" fault; the next acquire tries a
 * fresh start.
 *
 * Fresh processes (cfg.fresh): every acquire hands out a process that has
 * played no game, so nothing a bot saw in one game (the hidden cards of a
 * duplicate deal's earlier rotation) survives into another. pool_prepare()
 * asks for a process of a bot's coming game: one of POOL_STARTERS threads
 * of the pool starts it and writes the arena's hello while the worker plays
 * on, and an acquire takes the oldest one started for that bot (waiting
 * for one still starting), and only reads its hello, due startup_ms after
 * its start (and read at least POOL_SPARE_SLACK_MS after the acquire began,
 * for a bot held up because nobody read its stderr meanwhile). At most
 * POOL_SPARES_MAX processes of a bot wait; past that the acquire starts
 * one itself. Start-up time is never on a move clock.
 * pool_release() hands the process to a thread of its own, which ends it
 * while the worker plays on: sandboxed or not, it is sent quit and given
 * POOL_GRACE_MS to exit by itself (what it writes on stderr meanwhile
 * reaches its log), then stopped.
 *
 * Reused processes: pool_release() after a game keeps the process.
 *
 * In both, a process whose bot faulted is stopped at its release (process
 * group TERM, then KILL after grace_ms), and a fresh one starts at the next
 * acquire.
 *
 * A pool belongs to one thread (its threads are its own affair). Every
 * process it starts gets spec.cpu replaced by the pool's cpu (-1: no
 * pinning); its threads inherit the affinity of the thread that makes them.
 */
#ifndef SKIPBO_POOL_H
#define SKIPBO_POOL_H

#include <stddef.h>

#include "bot.h"
#include "referee.h"

#define POOL_GRACE_MS 200
#define POOL_SPARE_SLACK_MS 100
#define POOL_STARTERS 4
#define POOL_SPARES_MAX 8
#define POOL_NAME_MAX 64

struct pool_config {
	const struct bot_spec *specs;  /* one per bot; borrowed, must outlive the pool */
	size_t nbots;
	int cpu;                       /* CPU for every process, -1 = no pinning */
	int startup_ms;                /* hello deadline from process start; 0 = no limit */
	const struct referee_observer *observer; /* hello/quit lines, and stderr lines outside
	                                            games (seat -1); may be NULL */
	int fresh;                     /* 1: a fresh process for every game; 0: reuse */
	/*
	 * NULL, or names the pool may rewrite, for commands that name a bot
	 * by its program until it says who it is (play, check): hello_names[i]
	 * is specs[i].name itself, writable, of POOL_NAME_MAX bytes. Once bot i
	 * has said hello, its name is the one in its hello, escaped for a
	 * terminal (termsafe.h), with "-K" added where another bot is called so
	 * already; a bot that never says hello keeps the name it had. Rewritten
	 * on the thread that acquires, at an acquire: the same pointer
	 * everywhere, a new text from then on.
	 */
	char *const *hello_names;
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

/*
 * With fresh processes: have a process of bot started for a coming game (one
 * call per game that will acquire it); its start error, if any, is what the
 * acquire that takes it reports. Nothing with reused processes or a bad
 * index. Returns 0 (a start that cannot be asked for is made at acquire).
 */
int pool_prepare(struct pool *p, size_t bot);

/* The game is over for `bot`; faulted != 0 stops its process. With fresh
 * processes the process is retired in any case (quit, then reaped later). */
void pool_release(struct pool *p, size_t bot, int faulted);

/*
 * Wait until every process released so far has ended and been reaped. With
 * fresh processes, once every game prepared has acquired and released its
 * bots, no process of the pool is then alive: a barrier between games
 * (the rotation phases of tournament.h) needs nothing more.
 */
void pool_drain(struct pool *p);

/* Send quit to every live or waiting process, close it and every retired one
 * (grace_ms for a clean exit), free. NULL is fine. */
void pool_free(struct pool *p);

#endif
