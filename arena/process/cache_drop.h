/*
 * cache_drop.h - what the bots of one rotation phase leave in the kernel's
 * caches, dropped before the next phase starts (SECURITY.md).
 *
 * Which pages of a file every sandbox sees are cached (and which names were
 * looked up, negative dentries included) outlasts the processes that caused
 * it: a process of one rotation of a deal can mark pages of a large shared
 * file, and a process of the next rotation read the marks exactly (the
 * faults a first touch costs, the pages fault-around maps) or by the time a
 * read takes. Dropping the clean page cache, dentries and inodes of the
 * whole machine when no bot runs leaves the next phase nothing to read: the
 * kernel's /proc/sys/vm/drop_caches, which only root in the machine's first
 * user namespace may write. Dirty and mapped pages stay, and so do what
 * live programs keep using; no bot process lives across the barrier.
 *
 * Elsewhere (an ordinary user, a container with /proc/sys read-only) there
 * is no drop: the route stays open, as SECURITY.md says.
 */
#ifndef SKIPBO_CACHE_DROP_H
#define SKIPBO_CACHE_DROP_H

#include <stdbool.h>

/* Can this process drop the caches? (drop_caches is writable) */
bool cache_drop_available(void);

/* Drop the clean page cache, dentries and inodes: 0, or a negative errno-style code. */
int cache_drop(void);

/*
 * Drop the dentries and inodes alone, the names looked up and not found
 * among them, and keep the page cache: for a sealed sandbox, whose files
 * stay cached (cache_pin.h). 0, or a negative errno-style code.
 */
int cache_drop_names(void);

#endif
