/*
 * remove_tree.h - a test's temporary directory removed with all it holds,
 * links left unfollowed. For the arena's unit tests.
 */
#ifndef ARENA_TEST_REMOVE_TREE_H
#define ARENA_TEST_REMOVE_TREE_H

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

static inline int remove_tree_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove path and everything under it; what cannot be removed stays. */
static inline void remove_tree(const char *path)
{
	nftw(path, remove_tree_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
