/*
 * work.h - `skipbo-arena work`: a worker of a league on many machines
 * (arena/WORKERS.md). It asks the host for a lease, fetches the bundles it
 * lacks into its cache, plays the lease's games in a directory of its own
 * (removed afterwards) with its own -j and sandbox, and sends each game's
 * record and replay back while it plays (work_sender.h); then asks again.
 *
 * A lease the worker cannot play (a system program a bot needs is not on
 * this machine, a bundle that cannot be had, settings it cannot read) is
 * released with the reason, and the worker asks again. After
 * work_request_stop() (SIGTERM, SIGINT) the games in flight are finished,
 * every finished one sent, and the lease released ("stopping").
 */
#ifndef SKIPBO_WORK_H
#define SKIPBO_WORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct config;
struct sandbox;

struct work_settings {
	const char *url;            /* the host */
	const char *token;          /* a worker account's */
	const char *cacert;         /* a CA file for HTTPS; NULL: the system's */
	const char *cache;          /* the bundles' directory (created if need be) */
	int jobs;                   /* games at once */
	int cpus;                   /* this machine's, said to the host */
	int sandbox;                /* enum sandbox_mode, -1: the lease's settings' */
	bool once;                  /* play one lease, then return */
	FILE *log;                  /* one line per lease played, and the trouble met */
	/* The bots of cfg (a lease's tournament, cfg->sandbox the mode) in sandboxes,
	 * hide hidden from them: -1 to go on with *out (NULL: off), or a
	 * positive exit status after the message (the sandbox is on but not here). */
	int (*open_sandbox)(struct config *cfg, const char *const *hide, size_t nhide,
			    struct sandbox **out);
};

/*
 * Work for the host until stopped (or, with once, one lease played). 0 when
 * stopped or done; -EACCES (401: no such token), -EPERM (403: not a
 * worker's account, or suspended), -EPROTO (409: another version) with the
 * host's sentence and what to do in err; -EINVAL (the URL is no http:// or
 * https:// one); another negative errno (the cache cannot be made, no
 * memory) with err.
 */
int work_run(const struct work_settings *s, char *err, size_t err_size);

/* Stop working: finish the games in flight, send them, release the lease
 * (async-signal-safe). */
void work_request_stop(void);

#endif
