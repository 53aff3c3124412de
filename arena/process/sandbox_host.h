/*
 * sandbox_host.h - the sandbox's hosts, kept between games: which are
 * idle, for which bot and which thread. For bot_host.c and sandbox.c; not
 * the arena's API.
 *
 * A host is one sandbox (bwrap running the launcher as a host, launcher.h)
 * that starts a fresh bot process for each game, in fresh PID, mount and
 * IPC namespaces with a /proc of its own: a new process costs a fork and an
 * exec instead of a whole sandbox. A host serves one game at a time
 * and one bot (its command, environment, directory, limits and CPU). The
 * list only keeps them; bot_host.c starts (from a thread of its own, the
 * starter), claims and returns them, sandbox.c stops them.
 */
#ifndef SKIPBO_SANDBOX_HOST_H
#define SKIPBO_SANDBOX_HOST_H

#include <stdbool.h>

#include "bot.h"

struct bot_hosts;
struct sandbox;

/* Do fresh processes come from hosts? (sandbox.h: sandbox_use_hosts) */
bool sandbox_hosts_on(const struct sandbox *sb);

/* The thread that starts the hosts (bot_host.c); NULL while hosts are off. */
struct bot_hosts *sandbox_host_starter(const struct sandbox *sb);

/* An idle host for key, now busy and serving; NULL if there is none. */
struct bot *sandbox_host_claim(struct sandbox *sb, const char *key);

/* A new host for key (spec's, copied), busy and serving, kept from now on: 0, or
 * -ENOMEM (host not kept). */
int sandbox_host_add(struct sandbox *sb, const char *key, const struct bot_spec *spec,
		      struct bot *host);

/* A host to start ahead: which, for which bot. */
struct sandbox_ahead {
	unsigned long long id;
	char *key;              /* the caller's to free */
	struct bot_spec spec;   /* the caller's to free (sandbox_host_spec_free) */
};

/* Free what a spec of the list's owns (its strings), and zero it. */
void sandbox_host_spec_free(struct bot_spec *spec);

/*
 * Hosts to start ahead for the next phase: for each bot, as many as have
 * served games this phase, less those not serving yet (idle or starting).
 * Each is kept from now on as starting, and goes into out, at most max of
 * them: how many.
 */
size_t sandbox_host_plan_ahead(struct sandbox *sb, struct sandbox_ahead *out, size_t max);

/* Host id started ahead is there (host), or could not start (NULL: forgotten). */
void sandbox_host_started(struct sandbox *sb, unsigned long long id, struct bot *host);

/* Its game's process is gone: the host is idle again. */
void sandbox_host_put(struct sandbox *sb, struct bot *host);

/* Forget the host (dead, or stopped by the caller). */
void sandbox_host_drop(struct sandbox *sb, struct bot *host);

/* An idle host (that served a game, with served_only), forgotten, for the caller to
 * stop; NULL when none is left. */
struct bot *sandbox_host_take_idle(struct sandbox *sb, bool served_only);

#endif
