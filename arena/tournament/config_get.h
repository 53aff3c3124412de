/*
 * config_get.h - a member of a tournament file's object read with its type
 * and range checked: the value, or an error at its key path gathered in a
 * struct jsonc_errors (jsonc.h), so that one reading names every mistake.
 * config.c reads the tournament file with these.
 *
 * where is the object's key path: "" for the top level, else "rules",
 * "bots[1]", "bots[1].limits". The readers leave *out as it was when the
 * member is absent, so a caller sets the default first. They return 0, or
 * -EINVAL with the error recorded in e.
 */
#ifndef SKIPBO_CONFIG_GET_H
#define SKIPBO_CONFIG_GET_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "jsonc.h"

/* "key" or "where.key" into buf (truncated to size); returns buf. */
const char *config_get_path(char *buf, size_t size, const char *where, const char *key);

/* What a value is, for "expected ..., found ...": "the string \"ten\"" (cut at
 * 40 bytes), "the number 7", "true", "null", "an array", "an object"; into buf,
 * which it returns. */
const char *config_get_found(const cJSON *item, char *buf, size_t size);

/*
 * Every key of obj that is not one of keys (NULL-terminated) is an error
 * at the key itself, with the nearest known key if one is near and the list
 * of all. obj not an object is one error. 0 when every key is known.
 */
int config_get_keys(const cJSON *obj, const char *where, const char *const *keys,
		    struct jsonc_errors *e);

/* An integer in [min, max] at obj.key, written as one (7, not 7.0 or 7e0);
 * the message is json_strict_int()'s. */
int config_get_int(const cJSON *obj, const char *where, const char *key, long long min,
		   long long max, long long *out, struct jsonc_errors *e);

/* true or false at obj.key, as 1 or 0. */
int config_get_bool(const cJSON *obj, const char *where, const char *key, int *out,
		    struct jsonc_errors *e);

/* A non-empty string at obj.key; *out points into obj's tree. */
int config_get_string(const cJSON *obj, const char *where, const char *key,
		      const char **out, struct jsonc_errors *e);

#endif
