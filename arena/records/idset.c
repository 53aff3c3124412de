/*
 * idset.c - record ids seen, a bit per id of the arena's form (contract in
 * idset.h).
 *
 * One open-addressing hash table holds both kinds of entry: a (source,
 * table) bitmap for ids "t<table>-d<deal>-r<rotation>", indexed by deal * 8
 * + rotation (a rotation is a seat, below 8), and a whole string for any
 * other id.
 */
#include "idset.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROTATIONS 8

struct entry {
	bool used;
	unsigned source;
	uint32_t table;        /* bitmap entries */
	uint8_t *bits;
	size_t nbytes;
	char *id;              /* other ids; NULL for a bitmap entry */
};

struct idset {
	struct entry *slots;
	size_t cap, used;      /* cap is a power of two */
};

int idset_new(struct idset **out)
{
	struct idset *s = calloc(1, sizeof *s);

	*out = NULL;
	if (!s || !(s->slots = calloc(64, sizeof *s->slots))) {
		free(s);
		return -ENOMEM;
	}
	s->cap = 64;
	*out = s;
	return 0;
}

void idset_free(struct idset *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->cap; i++) {
		free(s->slots[i].bits);
		free(s->slots[i].id);
	}
	free(s->slots);
	free(s);
}

/* A decimal number of at most 9 digits at *p (so it fits), advancing p. */
static bool number(const char **p, uint32_t *out)
{
	uint32_t v = 0;
	int n = 0;

	while (**p >= '0' && **p <= '9' && n < 9) {
		v = v * 10 + (uint32_t)(**p - '0');
		(*p)++;
		n++;
	}
	*out = v;
	return n > 0 && !(**p >= '0' && **p <= '9');
}

/* "t<table>-d<deal>-r<rotation>", nothing else. */
static bool arena_id(const char *id, uint32_t *table, uint32_t *deal, uint32_t *rotation)
{
	return *id++ == 't' && number(&id, table) && *id++ == '-' && *id++ == 'd' &&
	       number(&id, deal) && *id++ == '-' && *id++ == 'r' && number(&id, rotation) &&
	       *id == '\0' && *rotation < ROTATIONS;
}

/* FNV-1a over the entry's key. */
static uint64_t hash(unsigned source, uint32_t table, const char *id)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned char buf[8];

	memcpy(buf, &source, 4);
	memcpy(buf + 4, &table, 4);
	for (size_t i = 0; i < 8; i++)
		h = (h ^ buf[i]) * 1099511628211ULL;
	for (; id && *id; id++)
		h = (h ^ (unsigned char)*id) * 1099511628211ULL;
	return h;
}

static struct entry *find(struct idset *s, unsigned source, uint32_t table, const char *id)
{
	size_t i = hash(source, table, id) & (s->cap - 1);

	for (;; i = (i + 1) & (s->cap - 1)) {
		struct entry *e = &s->slots[i];

		if (!e->used || (e->source == source && e->table == table &&
				 (id ? e->id && strcmp(e->id, id) == 0 : !e->id)))
			return e;
	}
}

/* Double the table when it is 70% full. */
static int grow(struct idset *s)
{
	struct idset bigger = { calloc(s->cap * 2, sizeof *s->slots), s->cap * 2, s->used };

	if (!bigger.slots)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].used)
			*find(&bigger, s->slots[i].source, s->slots[i].table, s->slots[i].id) =
				s->slots[i];
	free(s->slots);
	*s = bigger;
	return 0;
}

int idset_add(struct idset *s, unsigned source, const char *id)
{
	uint32_t table = 0, deal = 0, rotation = 0;
	bool compact = arena_id(id, &table, &deal, &rotation);
	size_t bit = (size_t)deal * ROTATIONS + rotation;
	struct entry *e;

	if (s->used * 10 >= s->cap * 7 && grow(s) < 0)
		return -ENOMEM;
	e = compact ? find(s, source, table, NULL) : NULL;
	/* The arena writes a table's deals in order; an id far past them is kept as a
	 * string, so that a forged one cannot make a bitmap of gigabytes. */
	if (e && bit / 8 >= e->nbytes * 2 + 4096) {
		compact = false;
		e = NULL;
	}
	if (!e)
		e = find(s, source, table, id);
	if (!e->used) {
		if (!compact && !(e->id = strdup(id)))
			return -ENOMEM;
		e->used = true;
		e->source = source;
		e->table = table;
		s->used++;
		if (!compact)
			return 0;
	} else if (!compact) {
		return 1;
	}
	if (bit / 8 >= e->nbytes) {
		size_t nbytes = bit / 8 * 2 + 8;
		uint8_t *grown = realloc(e->bits, nbytes);

		if (!grown)
			return -ENOMEM;
		memset(grown + e->nbytes, 0, nbytes - e->nbytes);
		e->bits = grown;
		e->nbytes = nbytes;
	}
	if (e->bits[bit / 8] & (1u << (bit % 8)))
		return 1;
	e->bits[bit / 8] |= (uint8_t)(1u << (bit % 8));
	/* It may have come before as a string, when it was far ahead. */
	return find(s, source, table, id)->used;
}
