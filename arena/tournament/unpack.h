/*
 * unpack.h - a submitted archive unpacked into an empty directory, safely.
 *
 * Accepted: tar (ustar, pax, GNU), alone or compressed with gzip, xz or
 * zstd, and zip (each compression method libarchive reads; encrypted
 * entries are refused), told apart by their contents
 * (libarchive), never by the file's name. Every entry is checked, then
 * written by this module itself relative to the target directory's fd:
 * directories with mkdirat(2), each parent opened with O_NOFOLLOW, files
 * with O_CREAT | O_EXCL | O_NOFOLLOW, symbolic links with symlinkat(2).
 * Nothing is written through a symbolic link, nothing replaces what an
 * earlier entry wrote, and libarchive's own disk writer is not used.
 *
 * Refused, each with a reason naming the entry (arena/HOSTING.md lists
 * them): an absolute path; a ".." component; a symbolic link whose target
 * is absolute, leaves the tree, or has ".." after a name; a path through a
 * symbolic link; a hard link; a device file, a fifo, a socket; an entry
 * that is there already; more than the limits below. Set-user-ID,
 * set-group-ID and sticky bits and write permission for group and others
 * are dropped: files get 0755 when their owner could execute them, else
 * 0644.
 *
 * Unpacked sizes are counted from the bytes the decompressor gives, not
 * from the sizes the headers declare, so an entry that lies about its size
 * is stopped after at most the limit's bytes are read.
 *
 * On a refusal the target directory may hold part of the archive: the
 * caller removes it (the pipeline unpacks into a directory of its own that
 * it deletes on failure). Nothing is ever written outside it.
 */
#ifndef SKIPBO_UNPACK_H
#define SKIPBO_UNPACK_H

#include <stddef.h>
#include <stdint.h>

struct unpack_limits {
	uint64_t archive_bytes; /* the archive file as submitted (compressed) */
	uint64_t total_bytes;   /* all files' contents, unpacked */
	uint64_t file_bytes;    /* one file's contents, unpacked */
	uint32_t entries;       /* files, directories and links */
	uint32_t path_bytes;    /* an entry's path, and a link's target */
	uint32_t depth;         /* components of an entry's path */
};

/* The defaults: 64 MiB archive, 256 MiB unpacked, 128 MiB a file, 10,000 entries,
 * paths of 1,024 bytes and 32 components. */
#define UNPACK_LIMITS_DEFAULT { UINT64_C(64) << 20, UINT64_C(256) << 20, UINT64_C(128) << 20, \
				10000, 1024, 32 }

/* What an unpacking wrote (also after a refusal: as far as it got). */
struct unpack_stats {
	uint32_t entries;
	uint64_t bytes; /* file contents written */
};

/*
 * Unpack the archive at path into the directory dir, which must exist and
 * be empty, under limits. 0 on success. On failure a sentence in why
 * (naming the entry when one is at fault) and:
 *   -EPERM      an entry refused (a path, a link, a kind of file, twice)
 *   -EFBIG      a limit exceeded (which one, in why)
 *   -EINVAL     not an archive of an accepted format, or damaged
 *   -ENOTEMPTY  dir is not empty
 *   other       -errno of the file system (ENOSPC, EACCES, ...)
 * stats (may be NULL) says how far it got.
 */
int unpack_archive(const char *path, const char *dir, const struct unpack_limits *limits,
		   struct unpack_stats *stats, char *why, size_t why_size);

/*
 * The same for an archive held in memory (data, len bytes): its size
 * checked against limits->archive_bytes, the rest as unpack_archive().
 */
int unpack_memory(const void *data, size_t len, const char *dir,
		  const struct unpack_limits *limits, struct unpack_stats *stats, char *why,
		  size_t why_size);

#endif
