/*
 * host_config.h - a hosted competition's settings: DIR/host.jsonc, optional
 * (every key has a default), read strictly (an unknown key or a wrong type
 * is an error naming the key), owned by this module (arena/HOSTING.md
 * "Settings").
 *
 *   {
 *     "per_day": 10,            // submissions per author in any 24 hours (failed ones free)
 *     "builds": 1,              // builds at once, all authors together
 *     "build_seconds": 300,     // wall time of a build
 *     "build_cpu_seconds": 300, // its CPU time
 *     "build_memory_mb": 2048,  // its memory
 *     "build_processes": 64,    // its processes
 *     "build_disk_mb": 512,     // what the tree may grow to
 *     "check_games": 4,         // check's games against each anchor
 *     "upload_mb": 64,          // an upload's size
 *     "login_failures": 10,     // failed tokens per address in 10 minutes
 *     "challenges_per_pair_day": 3, // challenges asked of one pair of entries in 24 hours
 *     "frozen": false,          // no new submissions (finals)
 *     "public_games": true,     // games and replays shown to all, or to their authors only
 *     "lease_seconds": 90,      // the work a worker's lease holds, in its measured time
 *     "expire_seconds": 120,    // a lease heard from less recently expires
 *     "replay_sample": 0.1      // the share of games re-played to check a worker (0 to 1)
 *   }
 */
#ifndef SKIPBO_HOST_CONFIG_H
#define SKIPBO_HOST_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define HOST_CONFIG_FILE "host.jsonc"

struct host_config {
	int per_day, builds;
	int build_seconds, build_cpu_seconds, build_memory_mb, build_processes, build_disk_mb;
	int check_games;
	int upload_mb;
	int login_failures;
	int challenges_per_pair_day;
	bool frozen, public_games;
	int lease_seconds, expire_seconds;  /* the lease desk's (arena/WORKERS.md) */
	double replay_sample;
};

/* The defaults above into *c. */
void host_config_defaults(struct host_config *c);

/* Read DIR/host.jsonc over the defaults (none: the defaults). 0, or -EINVAL with err
 * naming the file, the key and what is expected. */
int host_config_read(const char *dir, struct host_config *c, char *err, size_t err_size);

#endif
