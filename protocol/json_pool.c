/*
 * json_pool.c - the pool of json_strict_parse_pooled()'s trees (json_pool.h):
 * its blocks made, merged on reset, and freed.
 */
#include <stdint.h>
#include <stdlib.h>

#include "json_pool.h"
#include "json_strict.h"

/* The first block of a pool: a typical request's tree fits in it. */
#define POOL_FIRST_BLOCK (32 * 1024)

void json_pool_init(struct json_pool *pool)
{
	pool->blocks = NULL;
}

void json_pool_release(struct json_pool *pool)
{
	struct json_pool_block *b = pool->blocks, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	pool->blocks = NULL;
}

void json_pool_reset(struct json_pool *pool)
{
	struct json_pool_block *b = pool->blocks;
	size_t total = 0;

	if (!b)
		return;
	if (!b->next) {
		b->used = 0;
		return;
	}
	for (; b; b = b->next)
		total += b->cap;
	json_pool_release(pool);
	b = malloc(sizeof(*b) + total);
	if (!b)
		return; /* the next take will try smaller */
	b->next = NULL;
	b->cap = total;
	b->used = 0;
	pool->blocks = b;
}

/* Kept out of line on purpose: json_pool_take() inlines only the bump. */
void *json_pool_grow(struct json_pool *pool, size_t size)
{
	struct json_pool_block *b = pool->blocks;
	size_t cap = b ? 2 * b->cap : POOL_FIRST_BLOCK;

	if (size > SIZE_MAX / 4)
		return NULL;
	if (cap < size)
		cap = size;
	b = malloc(sizeof(*b) + cap);
	if (!b)
		return NULL;
	b->next = pool->blocks;
	b->cap = cap;
	b->used = size;
	pool->blocks = b;
	return b->data;
}
