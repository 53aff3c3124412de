/*
 * bundle.h - a bot's files as one archive named by its content
 * (arena/WORKERS.md, "GET /api/work/bundles"): made where the league runs
 * from what a bot runs that is not a system file, and unpacked on a worker,
 * whose copy of the bot then runs from there.
 *
 * What a bundle holds: the bot's cwd, whole, when it is a directory of its
 * own (not a system directory, not the excluded one, nor above it), and
 * each file its command names (programs.h) outside the system directories.
 * The archive is a tar, made the same way from the same files (names
 * sorted, owner, times and modes normalised), so it has the same SHA-256
 * wherever and whenever it is made; paths in it are absolute paths without
 * the leading '/'.
 *
 * Functions return 0 or a negative errno with a sentence in err.
 */
#ifndef SKIPBO_BUNDLE_H
#define SKIPBO_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

#define BUNDLE_HASH_LEN 64
/* The largest bundle made or taken. */
#define BUNDLE_MAX_BYTES (512ull << 20)

/*
 * The bundle of bot b into cache_dir/SHA256.tar (kept if there already),
 * its hash into sha256. system: the system directories (NULL-terminated;
 * NULL: the usual ones, sandbox_view_system_dirs); exclude: a directory
 * never shipped (the league's), or NULL. 1 when the bot runs only system
 * files (no bundle), 0 with one.
 */
int bundle_make(const struct config_bot *b, const char *const *system, const char *exclude,
		const char *cache_dir, char sha256[BUNDLE_HASH_LEN + 1], char *err,
		size_t err_size);

/* Whether cache_dir holds bundle sha256 unpacked (a worker's cache). */
bool bundle_present(const char *cache_dir, const char *sha256);

/*
 * The archive fetched (data, len) unpacked into cache_dir/SHA256/, after its
 * SHA-256 is checked against sha256; nothing outside that directory is
 * written (no "..", no absolute link, no device), and a partial unpack is
 * never left under the final name.
 */
int bundle_unpack(const char *cache_dir, const char *sha256, const void *data, size_t len,
		  char *err, size_t err_size);

/*
 * b (a copy the caller owns) moved onto bundle sha256 in cache_dir: its cwd
 * and each argument that is a path in the bundle rewritten to its place
 * under cache_dir/SHA256/.
 */
int bundle_place(struct config_bot *b, const char *cache_dir, const char *sha256, char *err,
		 size_t err_size);

#endif
