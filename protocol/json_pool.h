/*
 * json_pool.h - the bump allocator behind json_strict_parse_pooled(): blocks
 * from malloc(), every node and string of a tree carved from the newest one,
 * all of it made free again at once. Callers see only json_pool_init() and
 * json_pool_release(), declared in json_strict.h; this header is the
 * parser's side. Not installed.
 */
#ifndef SKIPBO_JSON_POOL_H
#define SKIPBO_JSON_POOL_H

#include <stdalign.h>
#include <stddef.h>

#include "json_strict.h"

struct json_pool_block {
	struct json_pool_block *next;
	size_t cap, used;
	alignas(max_align_t) unsigned char data[];
};

/*
 * Makes all of the pool's memory free again, for the next tree. A pool that
 * needed several blocks gets one block as large as all of them, so the next
 * tree of that size is a bump of one pointer all through. When that malloc()
 * fails the pool is left empty, and the next take tries smaller.
 */
void json_pool_reset(struct json_pool *pool);

/*
 * size bytes (a multiple of max_align_t's alignment) from a new block, at
 * least twice the newest one. NULL when malloc() fails or size is absurd;
 * the pool is unchanged then.
 */
void *json_pool_grow(struct json_pool *pool, size_t size);

/*
 * size bytes, rounded up to max_align_t's alignment, from pool; NULL when
 * out of memory. The memory belongs to the pool until the next
 * json_pool_reset() or json_pool_release(). Inline: the parser calls it for
 * every node and string.
 */
static inline void *json_pool_take(struct json_pool *pool, size_t size)
{
	struct json_pool_block *b = pool->blocks;
	void *p;

	size = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (!b || b->cap - b->used < size || size == 0 /* the rounding wrapped */)
		return json_pool_grow(pool, size);
	p = b->data + b->used;
	b->used += size;
	return p;
}

#endif
