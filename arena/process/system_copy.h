/*
 * system_copy.h - one copy per run of the system directories the bots see,
 * or of the system files they need (system_needs.h), in memory (tmpfs), for
 * `--sandbox sealed` (SECURITY.md).
 *
 * Bind mounts of the host's /usr show every sandbox the same directories of
 * the same disk, and with them the kernel's cache of names: a lookup of a
 * name that does not exist leaves a negative dentry there, which the next
 * lookup of that name, by any process, finds some microseconds sooner.
 * Partners can pass cards through it within a game. tmpfs keeps no such
 * name: a lookup there is answered from memory and a miss is not cached
 * (measured on Linux 6.18: a name looked up before and one never looked up
 * take the same time, and the dentry count does not grow). Every page of a
 * tmpfs file is in memory, so nothing is read from a disk either.
 *
 * The copy is a directory of its own under /dev/shm (mode 0711: a bot's
 * bwrap, as root run as the bot's uid, must reach it). It holds,
 * under the original paths, regular files (content, modes without setuid
 * and setgid, times), directories and symbolic links as they are. Sockets,
 * fifos and devices are left out, and so is what the arena cannot read
 * (a bot could not read it either). Hard links become copies.
 *
 * A keeper process removes the copy: when system_copy_remove() closes its
 * socket, and also when the arena dies, even by SIGKILL, which closes it
 * too. It holds no descriptor of the arena's but its socket.
 */
#ifndef SKIPBO_SYSTEM_COPY_H
#define SKIPBO_SYSTEM_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strlist.h"

/* Where the copies are made: a tmpfs on every Linux system with glibc. */
#define SYSTEM_COPY_PARENT "/dev/shm"

struct system_copy;

struct system_copy_stats {
	size_t files;     /* regular files copied */
	uint64_t bytes;   /* their sizes, in whole pages */
	size_t left_out;  /* files and directories the arena could not read */
	double seconds;   /* the walk and the copy */
};

/*
 * Copy roots (directories or files, a root that is missing skipped, a root
 * under one already copied copied once) into a new directory under
 * SYSTEM_COPY_PARENT, leaving out every path under one of skip. A root that
 * is a symbolic link is followed, or with exact copied as the link it is
 * (a list of files and the links to them, system_needs.h); below a root
 * links are always copied as links. 0 and *out; or:
 * - -E2BIG: the roots take more than half of the machine's memory, or
 *   more than SYSTEM_COPY_PARENT has free; why names the size, the
 *   memory and the tournament's "system" list;
 * - -ENOTSUP: SYSTEM_COPY_PARENT is missing or not a tmpfs, why saying so;
 * - another negative errno-style code (a write, mkdir, fork), why naming
 *   the path.
 * On failure nothing is left under SYSTEM_COPY_PARENT. Forks: call it
 * before the threads that spawn bots start.
 */
int system_copy_make(const struct strlist *roots, const struct strlist *skip, bool exact,
		     struct system_copy **out, char *why, size_t why_size);

/* The copy's directory: root's copy is at system_copy_dir(c) followed by root. */
const char *system_copy_dir(const struct system_copy *c);

/* What was copied. */
const struct system_copy_stats *system_copy_stats(const struct system_copy *c);

/* Remove the copy (its keeper does, and is reaped) and free. NULL is fine. */
void system_copy_remove(struct system_copy *c);

#endif
