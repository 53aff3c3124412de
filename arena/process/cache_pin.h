/*
 * cache_pin.h - every file the bots can see kept cached and mapped for a
 * whole run, so that no bot can mark the page cache for another to read
 * (`--sandbox sealed`, SECURITY.md).
 *
 * Which pages of a shared file are cached, and who maps them, is state of
 * the whole machine. Two processes alive at once (partners, two entries of
 * one author at a table) or one after the other (two rotations of a deal)
 * can use it as a channel: one touches a page, the other tells by the
 * major faults a touch costs, the neighbours fault-around maps
 * (/proc/self/pagemap), the time a read takes, or pagemap's "mapped by this
 * process alone" bit. Once every page of every file a bot sees is cached and
 * mapped by a process of the arena's, a touch changes nothing and every
 * read gives every process the same answer.
 *
 * Pinners do it: child processes of the arena, each mapping up to
 * vm.max_map_count less a margin of files, read-only and shared, with
 * MAP_POPULATE, and locked (MAP_LOCKED) where the memory limits allow it,
 * so that memory pressure cannot evict them either. The walk that finds the
 * files also leaves every directory block and inode cached. A pinner holds
 * no descriptor of the arena's but its socket, and exits when the arena
 * closes it or dies.
 *
 * What it does not cover: names looked up and not found (negative
 * dentries), which every process finds, a lookup that finds one some
 * microseconds sooner than one that reads the directory; sealed runs serve
 * the system directories from a copy on tmpfs, which keeps none
 * (system_copy.h), so this is left for the bots' own folders (dropped
 * between rotation phases where the arena can: cache_drop.h); and pages
 * evicted when the machine runs out of memory, where they could not be
 * locked.
 */
#ifndef SKIPBO_CACHE_PIN_H
#define SKIPBO_CACHE_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strlist.h"

struct cache_pin;

struct cache_pin_stats {
	size_t files;    /* regular files mapped */
	uint64_t bytes;  /* their sizes, in whole pages */
	bool locked;     /* every mapping locked in memory */
	unsigned pinners;
	double seconds;  /* the walk and the mapping */
};

/*
 * Walk roots (files or directories; symbolic links not followed, a root
 * that is missing skipped), leaving out every path under one of skip, and
 * map every non-empty regular file that can be opened in pinners. 0 and
 * *out; or:
 * - -E2BIG: the files take more than half of the machine's memory, why
 *   saying how much of how much;
 * - -ENOMEM, or another negative errno-style code of fork or socketpair,
 *   why saying which.
 * Forks: call it before the threads that spawn bots start.
 */
int cache_pin_start(const struct strlist *roots, const struct strlist *skip,
		    struct cache_pin **out, char *why, size_t why_size);

/* What was pinned. */
const struct cache_pin_stats *cache_pin_stats(const struct cache_pin *p);

/* End the pinners (their mappings go, the pages stay cached) and free. NULL is fine. */
void cache_pin_stop(struct cache_pin *p);

#endif
