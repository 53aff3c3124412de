/*
 * json_strict_get.c - the number readers of json_strict.h: an integer or a
 * finite number in its range, or a message naming the field and what it found.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_strict.h"
#include "json_strict_internal.h"

/* "move.card", from prefix and name; NULL when both are empty. */
static const char *field_name(const char *prefix, const char *name, char *out, size_t size)
{
	prefix = prefix ? prefix : "";
	name = name ? name : "";
	if (!*prefix && !*name)
		return NULL;
	snprintf(out, size, "%s%s", prefix, name);
	return out;
}

/* What item is, for "found ...": a number as written, else its kind. */
static const char *found(const cJSON *item, char *out, size_t size)
{
	char q[JSON_STRICT_QUOTE_MAX + 4];

	if (cJSON_IsNumber(item) && item->valuestring)
		snprintf(out, size, "%s", json_strict_quote(item->valuestring, strlen(item->valuestring), q));
	else if (cJSON_IsNumber(item))
		snprintf(out, size, "%.17g", item->valuedouble);
	else if (cJSON_IsString(item) && item->valuestring)
		snprintf(out, size, "the string \"%s\"", json_strict_quote(item->valuestring, strlen(item->valuestring), q));
	else
		snprintf(out, size, "%s", cJSON_IsTrue(item) ? "true" : cJSON_IsFalse(item) ? "false"
				   : cJSON_IsNull(item) ? "null" : cJSON_IsArray(item) ? "an array"
				   : cJSON_IsObject(item) ? "an object" : "an unknown value");
	return out;
}

/* The refusal of item (NULL: missing) for a field that expects what. */
static int refuse(const cJSON *item, const char *prefix, const char *name, const char *what,
		  unsigned flags, struct json_strict_error *err)
{
	char buf[160], got[64];
	const char *field = field_name(prefix, name, buf, sizeof(buf));
	const char *or_null = flags & JSON_STRICT_NULLABLE ? " or null" : "";

	if (!item && field)
		return json_strict_set_error(err, JSON_STRICT_EMISSING, "missing field \"%s\": expected %s%s", field,
				 what, or_null);
	if (!item)
		return json_strict_set_error(err, JSON_STRICT_EMISSING, "missing value: expected %s%s", what, or_null);
	return json_strict_set_error(err, JSON_STRICT_EVALUE, "%s%sexpected %s%s, found %s", field ? field : "",
			 field ? ": " : "", what, or_null, found(item, got, sizeof(got)));
}

/* 1 when item is absent or null and flags allow it. */
static int allowed_absent(const cJSON *item, unsigned flags)
{
	if (!item)
		return (flags & JSON_STRICT_OPTIONAL) != 0;
	return cJSON_IsNull(item) && (flags & JSON_STRICT_NULLABLE);
}

int json_strict_int(const cJSON *item, const char *prefix, const char *name, int64_t min,
		    int64_t max, unsigned flags, int64_t *out, struct json_strict_error *err)
{
	char what[96];
	double d;

	if (!out || min > max || min < -JSON_STRICT_INT_MAX || max > JSON_STRICT_INT_MAX)
		return json_strict_set_error(err, JSON_STRICT_EINVAL, "json_strict_int: invalid range or output");
	if (allowed_absent(item, flags))
		return 1;
	/* A number with a literal kept is not a plain integer; min and max are
	 * exact doubles, and the range test (false for NaN) comes before the cast. */
	if (cJSON_IsNumber(item) && !item->valuestring) {
		d = item->valuedouble;
		if (d >= (double)min && d <= (double)max && (double)(int64_t)d == d) {
			*out = (int64_t)d;
			return 0;
		}
	}
	snprintf(what, sizeof(what), "an integer from %" PRId64 " to %" PRId64, min, max);
	return refuse(item, prefix, name, what, flags, err);
}

int json_strict_double(const cJSON *item, const char *prefix, const char *name, double min,
		       double max, unsigned flags, double *out, struct json_strict_error *err)
{
	char what[96];
	double d;

	if (!out || isnan(min) || isnan(max) || min > max)
		return json_strict_set_error(err, JSON_STRICT_EINVAL, "json_strict_double: invalid range or output");
	if (allowed_absent(item, flags))
		return 1;
	if (cJSON_IsNumber(item)) {
		d = item->valuedouble;
		if (isfinite(d) && d >= min && d <= max) {
			*out = d;
			return 0;
		}
	}
	if (isinf(min) && isinf(max))
		snprintf(what, sizeof(what), "a finite number");
	else if (isinf(max))
		snprintf(what, sizeof(what), "a number of at least %.15g", min);
	else if (isinf(min))
		snprintf(what, sizeof(what), "a number of at most %.15g", max);
	else
		snprintf(what, sizeof(what), "a number from %.15g to %.15g", min, max);
	return refuse(item, prefix, name, what, flags, err);
}
