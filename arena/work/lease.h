/*
 * lease.h - a lease as the host hands it (arena/WORKERS.md, "A lease"): its
 * document read strictly, and the tournament a worker plays it as.
 *
 * The games keep what the host gave them: index, id, told id, seed, table,
 * deal, rotation (and pairing, 0 when absent) and seats by bot name. The
 * tournament is the lease's settings with the keys of the host's run set
 * aside (seed, bots, output, sandbox, concurrency, shard, sprt, league,
 * format, challengers) and the lease's bots put in, each bundled one moved
 * onto its bundle in the cache (bundle_place).
 *
 * Functions return 0 or a negative errno with a sentence in err.
 */
#ifndef SKIPBO_LEASE_H
#define SKIPBO_LEASE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "bundle.h"
#include "config.h"
#include "schedule.h"

#define LEASE_ID_MAX 128

struct lease_bot {
	const char *name;                 /* in doc */
	char bundle[BUNDLE_HASH_LEN + 1]; /* "": none */
};

struct lease {
	char id[LEASE_ID_MAX];
	unsigned expires_in;              /* seconds */
	cJSON *doc;                       /* the whole document */
	const char *sandbox;              /* the settings' "sandbox", or NULL; in doc */
	struct lease_bot *bots;
	size_t nbots;
	struct schedule_game *games;      /* bots by seat: indices into bots */
	size_t ngames;
};

/*
 * The lease document text (len bytes and a NUL) into *l (lease_release it in either
 * case): -EBADMSG when it is not one, naming the key.
 */
int lease_parse(const char *text, size_t len, struct lease *l, char *err, size_t err_size);
void lease_release(struct lease *l);

/*
 * The tournament of lease l into *cfg (config_release it on success), its
 * bundled bots placed under cache (each bundle unpacked there already), its
 * bots in the order of l->bots. -ENOENT when this machine lacks what a bot
 * runs (its program, its directory: a system program such as /usr/bin/java
 * that no bundle brings), with the path in missing; -EINVAL with
 * config_parse's errors in err; -ENOMEM.
 */
int lease_config(const struct lease *l, const char *cache, struct config *cfg,
		 char *missing, size_t missing_size, char *err, size_t err_size);

#endif
