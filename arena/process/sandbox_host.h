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

struct bot;
struct bot_hosts;
struct sandbox;

/* Do fresh processes come from hosts? (sandbox.h: sandbox_use_hosts) */
bool sandbox_hosts_on(const struct sandbox *sb);

/* The thread that starts the hosts (bot_host.c); NULL while hosts are off. */
struct bot_hosts *sandbox_host_starter(const struct sandbox *sb);

/* An idle host for key, now busy; NULL if there is none. */
struct bot *sandbox_host_claim(struct sandbox *sb, const char *key);

/* A new host for key, busy, kept from now on: 0, or -ENOMEM (host not kept). */
int sandbox_host_add(struct sandbox *sb, const char *key, struct bot *host);

/* Its game's process is gone: the host is idle again. */
void sandbox_host_put(struct sandbox *sb, struct bot *host);

/* Forget the host (dead, or stopped by the caller). */
void sandbox_host_drop(struct sandbox *sb, struct bot *host);

/* An idle host, forgotten, for the caller to stop; NULL when none is left. */
struct bot *sandbox_host_take_idle(struct sandbox *sb);

#endif
