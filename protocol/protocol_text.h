/*
 * protocol_text.h - inside the protocol library: the line writer, UTF-8
 * checking and the protocol's name tables. Not part of the public API.
 */
#ifndef SKIPBO_PROTOCOL_TEXT_H
#define SKIPBO_PROTOCOL_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "protocol.h"

/*
 * Writing: the writers append to b without checking room; callers reserve
 * first with text_reserve(), which keeps PROTOCOL_ARENA_LINE_MAX as the hard
 * bound. Reserving per message part keeps the inner loops free of checks.
 */
int text_reserve(struct protocol_buf *b, size_t more);

static inline void text_put(struct protocol_buf *b, const char *s, size_t n)
{
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

/* "" lit: only a string literal compiles here, so sizeof is its length. */
#define TEXT_PUT_LIT(b, lit) text_put((b), "" lit, sizeof(lit) - 1)

static inline void text_putc(struct protocol_buf *b, char c)
{
	b->data[b->len++] = c;
}

/* Decimal, at most 20 bytes. */
void text_put_u64(struct protocol_buf *b, uint64_t v);
void text_put_i64(struct protocol_buf *b, int64_t v);

/* Small non-negative ints (cards, seats, sizes up to 999) take this path. */
static inline void text_put_small(struct protocol_buf *b, unsigned v)
{
	if (v < 10) {
		b->data[b->len++] = (char)('0' + v);
	} else if (v < 100) {
		b->data[b->len++] = (char)('0' + v / 10);
		b->data[b->len++] = (char)('0' + v % 10);
	} else {
		text_put_u64(b, v);
	}
}

/* A JSON string with quotes. Needs 6 * strlen(s) + 2 bytes reserved.
 * Returns PROTOCOL_EINVAL (and writes nothing useful) if s is not UTF-8. */
int text_put_string(struct protocol_buf *b, const char *s);

/* Terminate the line: NUL after len (room for it is always reserved). */
static inline void text_finish(struct protocol_buf *b)
{
	b->data[b->len] = '\0';
}

/* End a message: NUL-terminated, and empty when rc says it failed. Returns rc. */
static inline int text_end(struct protocol_buf *b, int rc)
{
	if (rc)
		b->len = 0;
	if (b->data)
		b->data[b->len] = '\0';
	return rc;
}

/* Start a message: empty b, reserve n bytes. */
int text_begin(struct protocol_buf *b, size_t n);

/* Offset of the first byte that breaks UTF-8 (RFC 3629), or len if valid. */
size_t text_utf8_check(const unsigned char *s, size_t len);

/* Name tables. NULL for out-of-range values. */
const char *text_source_name(int source);     /* "hand", "stock", "discard" */
int text_source_parse(const char *name);      /* SOURCE_*, or -1 */
const char *text_reason_name(int reason);     /* end_reason_name() values */
int text_reason_parse(const char *name);      /* END_*, or -1 */

#endif
