/*
 * sandbox_internal.h - what sandbox.c (opening, checks) and sandbox_start.c
 * (each process start) share: the sandbox itself. Not the arena's API.
 */
#ifndef SKIPBO_SANDBOX_INTERNAL_H
#define SKIPBO_SANDBOX_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "bot.h"
#include "cache_pin.h"
#include "cgroup.h"
#include "guard.h"
#include "sandbox_view.h"
#include "system_copy.h"

#define SANDBOX_MAX_SLOTS 65536

struct bot;
struct bot_hosts;

/* A host kept between games (sandbox_host.h). */
struct sandbox_host {
	struct bot *bot;        /* NULL: still starting (a host started ahead) */
	char *key;              /* the bot it runs (bot_host.c) */
	struct bot_spec spec;   /* that bot, a copy owning its strings */
	bool busy;              /* a game's process is alive in it, or it is starting */
	bool served;            /* it has started a game */
	unsigned long long id;
};

struct sandbox {
	char *bwrap;
	struct sandbox_view view;
	char *lang_env;
	void *bpf;              /* the seccomp filter (seccomp_filter.h), bpf_len bytes */
	size_t bpf_len;
	struct guard *guard;
	int launcher_fd;        /* launcher.h; -1: none, /bin/sh launches */
	bool root;
	bool drop_caches;       /* between rotation phases (cache_drop.h) */
	struct cache_pin *pin;  /* sealed: every file a bot sees kept cached (cache_pin.h) */
	struct system_copy *copy; /* sealed: the system directories in memory (system_copy.h) */
	bool derived;             /* the copy holds what the bots need (system_needs.h) */
	double seal_s;            /* seconds to derive it and copy it */
	struct cgroups *cg;
	pthread_mutex_t lock;   /* slots, hosts */
	uid_t uid_base;         /* this arena's block of uids (sandbox_start.h) */
	unsigned char *slots;   /* 1: the uid uid_base + index is in use */
	struct bot_hosts *starter; /* fresh processes come from hosts (sandbox_use_hosts); NULL: not */
	struct sandbox_host *hosts;
	size_t nhosts, hosts_cap;
	unsigned long long next_host_id;
	char desc[400];
	struct strlist unseen;  /* sandbox_unseen(): a sentence per bot with files it cannot see */
};

#endif
