/*
 * json_strict_internal.h - what json_strict.c and json_strict_get.c share:
 * setting an error and quoting text in a message. Not installed.
 */
#ifndef SKIPBO_JSON_STRICT_INTERNAL_H
#define SKIPBO_JSON_STRICT_INTERNAL_H

#include <stddef.h>

#include "json_strict.h"

/* Longest key, string or literal quoted in a message. */
#define JSON_STRICT_QUOTE_MAX 32

/* Fill err (may be NULL) with code and the formatted message; returns code. */
int json_strict_set_error(struct json_strict_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* s cut to JSON_STRICT_QUOTE_MAX bytes, printable ASCII only, for quoting in a message. */
const char *json_strict_quote(const char *s, size_t n, char out[JSON_STRICT_QUOTE_MAX + 4]);

#endif
