/*
 * tree.h - a submission's directory tree handled as a whole: removed,
 * measured, opened to the build's user and closed again. Symbolic links
 * are never followed: a link an upload or a build planted is handled as
 * the link itself, so nothing outside the tree is removed, counted or
 * changed.
 *
 * Functions return 0 or a negative errno-style code; they never print.
 * Each may be called from any thread (no static state, no chdir).
 */
#ifndef SKIPBO_HOST_TREE_H
#define SKIPBO_HOST_TREE_H

#include <stdint.h>
#include <sys/types.h>

/* Remove path and all it holds; a missing path is 0. */
int tree_remove(const char *path);

/* The bytes of the blocks the tree's files and directories take (st_blocks * 512),
 * which a sparse file cannot hide, into *bytes. */
int tree_bytes(const char *path, uint64_t *bytes);

/* Set the mode of path and of every directory under it to dir_mode (files and links
 * are left as they are). */
int tree_chmod_dirs(const char *path, mode_t dir_mode);

/* Give path and everything under it to uid:gid (links themselves, not their targets). */
int tree_chown(const char *path, uid_t uid, gid_t gid);

#endif
