/*
 * strlist.c - a list of owned strings (contract in strlist.h).
 */
#include "strlist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void strlist_add(struct strlist *l, const char *s)
{
	if (l->error)
		return;
	if (l->n + 2 > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		char **grown = reallocarray(l->v, cap, sizeof *grown);

		if (!grown) {
			l->error = -ENOMEM;
			return;
		}
		l->v = grown;
		l->cap = cap;
	}
	if (!(l->v[l->n] = strdup(s))) {
		l->error = -ENOMEM;
		return;
	}
	l->v[++l->n] = NULL;
}

bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

void strlist_add_unique(struct strlist *l, const char *s)
{
	if (!strlist_has(l, s))
		strlist_add(l, s);
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct strlist){ 0 };
}
