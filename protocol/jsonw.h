/*
 * jsonw.h - a growable text buffer for writing JSON by hand, fast and without
 * building a tree (games.jsonl records and replays are written once, in order).
 *
 * Errors are sticky: after an allocation failure every call does nothing and
 * jsonw_error() returns -ENOMEM, so a writer checks once at the end.
 */
#ifndef SKIPBO_JSONW_H
#define SKIPBO_JSONW_H

#include <stddef.h>
#include <stdint.h>

struct jsonw {
	char *data; /* NUL-terminated once anything was written */
	size_t len, cap;
	int error;  /* 0 or -ENOMEM */
};

void jsonw_init(struct jsonw *w);
void jsonw_release(struct jsonw *w);
/* Empty the text, keep the memory. */
void jsonw_reset(struct jsonw *w);

void jsonw_raw(struct jsonw *w, const char *s, size_t len);
void jsonw_text(struct jsonw *w, const char *s);
/* One vsnprintf() straight into the buffer, a second only when it had to grow. */
void jsonw_printf(struct jsonw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string literal, quotes included; bytes < 0x20, '"' and '\\' escaped. */
void jsonw_string(struct jsonw *w, const char *s);
void jsonw_string_n(struct jsonw *w, const char *s, size_t len);
/* v in decimal, without printf. */
void jsonw_int(struct jsonw *w, long long v);
/* [a0,a1,...] of n ints. */
void jsonw_int_array(struct jsonw *w, const int *a, size_t n);

int jsonw_error(const struct jsonw *w);

#endif
