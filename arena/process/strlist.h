/*
 * strlist.h - a growing NULL-terminated list of strings it owns: the
 * sandbox's path lists and bwrap's arguments. A leaf.
 *
 * After an allocation fails the list keeps error (-ENOMEM) and ignores
 * further additions, so a caller adds many and checks once.
 */
#ifndef SKIPBO_STRLIST_H
#define SKIPBO_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

struct strlist {
	char **v;       /* NULL-terminated once anything was added; may be NULL */
	size_t n, cap;
	int error;      /* 0, or -ENOMEM once an addition failed */
};

/* Add a copy of s. */
void strlist_add(struct strlist *l, const char *s);

/* Add a copy of s unless an equal string is there. */
void strlist_add_unique(struct strlist *l, const char *s);

/* Is s in l? */
bool strlist_has(const struct strlist *l, const char *s);

/* Free the strings and the array; l is empty again. */
void strlist_free(struct strlist *l);

#endif
