/*
 * protocol_json.c - reading a line into a cJSON object and reading fields,
 * with a precise sentence for every way it can go wrong.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "protocol_json.h"
#include "protocol_text.h"

int json_fail(struct protocol_diag *diag, int code, size_t offset, const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return code;
	diag->code = code;
	diag->offset = offset;
	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
	return code;
}

const char *json_string_at(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *json_type_name(const cJSON *item)
{
	if (!item)
		return "nothing";
	if (cJSON_IsNull(item))
		return "null";
	if (cJSON_IsBool(item))
		return "a boolean";
	if (cJSON_IsNumber(item))
		return "a number";
	if (cJSON_IsString(item))
		return "a string";
	if (cJSON_IsArray(item))
		return "an array";
	if (cJSON_IsObject(item))
		return "an object";
	return "an unknown value";
}

const char *json_safe(const char *s, char out[JSON_SAFE_MAX])
{
	size_t n = 0;

	for (; *s && n < JSON_SAFE_MAX - 4; s++) {
		unsigned char c = (unsigned char)*s;

		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (*s) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

/* Up to 24 bytes of the line from offset, printable ASCII only, for messages. */
static void excerpt(const char *line, size_t len, size_t offset, char *out, size_t size)
{
	size_t n = 0;

	for (size_t i = offset; i < len && n + 1 < size && i < offset + 24; i++) {
		unsigned char c = (unsigned char)line[i];

		out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[n] = '\0';
}

/* What the line's value is, from its first character, for messages. */
static const char *value_kind(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n'))
		i++;
	switch (i < len ? line[i] : '\0') {
	case '{': return "an object";
	case '[': return "an array";
	case '"': return "a string";
	case 't':
	case 'f': return "a boolean";
	case 'n': return "null";
	default: return "a number";
	}
}

/* The protocol's code and sentence for a line json_strict_parse() refused. */
static int line_error(const char *line, size_t len, const struct json_strict_error *e,
		      struct protocol_diag *diag)
{
	size_t at = e->offset;
	char near[32];

	excerpt(line, len, at, near, sizeof(near));
	switch (e->code) {
	case JSON_STRICT_EUTF8:
		return json_fail(diag, PROTOCOL_EUTF8, at, "invalid UTF-8 at byte %zu (0x%02x)", at,
				 (unsigned char)line[at]);
	case JSON_STRICT_EDUPKEY:
		return json_fail(diag, PROTOCOL_EDUPKEY, at, "%s at byte %zu", e->message, at);
	case JSON_STRICT_EDEPTH:
		return json_fail(diag, PROTOCOL_ENOTJSON, at, "JSON too deep: %s at byte %zu", e->message, at);
	case JSON_STRICT_ETRAILING:
		if (strcmp(value_kind(line, len), "an object") == 0)
			return json_fail(diag, PROTOCOL_ETRAILING, at,
					 "trailing characters after the JSON object at byte %zu: \"%s\"", at, near);
		return json_fail(diag, PROTOCOL_ENOTOBJECT, 0,
				 "not a JSON object: the line holds %s followed by more text",
				 value_kind(line, len));
	case JSON_STRICT_ESYNTAX:
		if (at >= len)
			return json_fail(diag, PROTOCOL_ENOTJSON, at,
					 "not JSON: the line ends at byte %zu before the value is complete", at);
		return json_fail(diag, PROTOCOL_ENOTJSON, at, "not JSON: %s at byte %zu near \"%s\"",
				 e->message, at, near);
	default:
		return json_fail(diag, PROTOCOL_ENOMEM, 0, "out of memory");
	}
}

int json_parse_line(const char *line, size_t len, size_t max_len, struct json_pool *pool,
		    cJSON **out, struct protocol_diag *diag)
{
	struct json_strict_error e;
	cJSON *root = NULL;
	int rc;

	*out = NULL;
	if (len > max_len)
		return json_fail(diag, PROTOCOL_ETOOLONG, 0,
				 "line of %zu bytes is longer than the limit of %zu bytes", len, max_len);
	rc = pool ? json_strict_parse_pooled(line, len, pool, &root, &e)
		  : json_strict_parse(line, len, &root, &e);
	if (rc)
		return line_error(line, len, &e, diag);
	if (!cJSON_IsObject(root)) {
		rc = json_fail(diag, PROTOCOL_ENOTOBJECT, 0,
			       "not a JSON object: the line holds %s; every message is one object",
			       json_type_name(root));
		if (!pool)
			cJSON_Delete(root);
		return rc;
	}
	*out = root;
	return 0;
}

int json_message_type(const cJSON *obj, const char **type, struct protocol_diag *diag)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "type");

	if (!t)
		return json_fail(diag, PROTOCOL_ETYPE, 0, "the message has no \"type\" field");
	if (!cJSON_IsString(t) || !t->valuestring)
		return json_fail(diag, PROTOCOL_ETYPE, 0, "\"type\" must be a string, got %s",
				 json_type_name(t));
	*type = t->valuestring;
	return 0;
}

/* Looks a field up; 1 if absent or null and not required, EMISSING if required. */
static int lookup(const cJSON *obj, const char *prefix, const char *name, int required,
		  const cJSON **item, struct protocol_diag *diag)
{
	*item = cJSON_GetObjectItemCaseSensitive(obj, name);
	if (*item && !cJSON_IsNull(*item))
		return 0;
	if (required && !*item)
		return json_fail(diag, PROTOCOL_EMISSING, 0, "missing field \"%s%s\"", prefix, name);
	if (required)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "field \"%s%s\" must not be null", prefix,
				 name);
	return 1;
}

/* A number reader's refusal as the protocol's code. */
static int number_error(const struct json_strict_error *e, struct protocol_diag *diag)
{
	int code = e->code == JSON_STRICT_EMISSING ? PROTOCOL_EMISSING
		   : e->code == JSON_STRICT_EVALUE ? PROTOCOL_EFIELD
		   : PROTOCOL_EINVAL;

	return json_fail(diag, code, 0, "%s", e->message);
}

int json_int(const cJSON *obj, const char *prefix, const char *name, long min, long max,
	     int required, long *out, struct protocol_diag *diag)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
	struct json_strict_error e;
	int64_t v;
	int rc = json_strict_int(item, prefix, name, min, max,
				 required ? 0 : JSON_STRICT_OPTIONAL | JSON_STRICT_NULLABLE, &v, &e);

	if (rc < 0)
		return number_error(&e, diag);
	if (rc == 0)
		*out = (long)v;
	return rc;
}

int json_elem_int(const cJSON *item, const char *where, long min, long max, int allow_null,
		  long *out, struct protocol_diag *diag)
{
	struct json_strict_error e;
	int64_t v;
	int rc = json_strict_int(item, where, NULL, min, max, allow_null ? JSON_STRICT_NULLABLE : 0,
				 &v, &e);

	if (rc < 0)
		return number_error(&e, diag);
	*out = rc == 0 ? (long)v : -1;
	return 0;
}

int json_string(const cJSON *obj, const char *prefix, const char *name, int required,
		const char **out, struct protocol_diag *diag)
{
	const cJSON *item;
	int rc = lookup(obj, prefix, name, required, &item, diag);

	if (rc)
		return rc;
	if (!cJSON_IsString(item) || !item->valuestring)
		return json_fail(diag, PROTOCOL_EFIELD, 0, "field \"%s%s\" must be a string, got %s",
				 prefix, name, json_type_name(item));
	*out = item->valuestring;
	return 0;
}

int json_bool(const cJSON *obj, const char *prefix, const char *name, int required, int *out,
	      struct protocol_diag *diag)
{
	const cJSON *item;
	int rc = lookup(obj, prefix, name, required, &item, diag);

	if (rc)
		return rc;
	if (!cJSON_IsBool(item))
		return json_fail(diag, PROTOCOL_EFIELD, 0, "field \"%s%s\" must be true or false, got %s",
				 prefix, name, json_type_name(item));
	*out = cJSON_IsTrue(item);
	return 0;
}

int json_array(const cJSON *obj, const char *prefix, const char *name, int required,
	       const cJSON **out, struct protocol_diag *diag)
{
	int rc = lookup(obj, prefix, name, required, out, diag);

	if (rc)
		return rc;
	if (!cJSON_IsArray(*out))
		return json_fail(diag, PROTOCOL_EFIELD, 0, "field \"%s%s\" must be an array, got %s",
				 prefix, name, json_type_name(*out));
	return 0;
}

int json_object(const cJSON *obj, const char *prefix, const char *name, int required,
		const cJSON **out, struct protocol_diag *diag)
{
	int rc = lookup(obj, prefix, name, required, out, diag);

	if (rc)
		return rc;
	if (!cJSON_IsObject(*out))
		return json_fail(diag, PROTOCOL_EFIELD, 0, "field \"%s%s\" must be an object, got %s",
				 prefix, name, json_type_name(*out));
	return 0;
}

void json_copy_cut(char *dst, const char *src, size_t size)
{
	size_t n, k, need;
	unsigned char lead;

	if (strlcpy(dst, src, size) < size || size < 2)
		return;
	/* Cut: drop a last character the cut went through. */
	n = size - 1;
	k = n - 1;
	while (k > 0 && ((unsigned char)dst[k] & 0xc0) == 0x80)
		k--;
	lead = (unsigned char)dst[k];
	need = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	if (k + need > n)
		dst[k] = '\0';
}

int json_copy_string(const cJSON *obj, const char *prefix, const char *name, int required,
		     char *dst, size_t size, struct protocol_diag *diag)
{
	const char *s = NULL;
	int rc = json_string(obj, prefix, name, required, &s, diag);

	if (rc < 0)
		return rc;
	if (rc == 1) {
		dst[0] = '\0';
		return 1;
	}
	if (strlcpy(dst, s, size) >= size)
		return json_fail(diag, PROTOCOL_EFIELD, 0,
				 "field \"%s%s\" is longer than %zu bytes", prefix, name, size - 1);
	return 0;
}

const char *json_path_str(const struct json_path *p, char out[JSON_PATH_MAX])
{
	if (p->index < 0)
		return p->base;
	snprintf(out, JSON_PATH_MAX, "%s[%d].", p->base, p->index);
	return out;
}

/* strcmp(a, b) == 0 for the short member names, without a library call. */
static int same_name(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

void json_fields(const cJSON *obj, const char *const *names, int n, const cJSON **out)
{
	const cJSON *c;
	int next = 0;

	for (int k = 0; k < n; k++)
		out[k] = NULL;
	/* Members without a name end the search, as in cJSON's own look-up. */
	for (c = obj->child; c && c->string; c = c->next) {
		const char *key = c->string;

		for (int j = 0, k = next; j < n; j++, k = k + 1 == n ? 0 : k + 1) {
			if (!same_name(key, names[k]))
				continue;
			if (!out[k])
				out[k] = c;
			next = k + 1 == n ? 0 : k + 1;
			break;
		}
	}
}

/* Absent (or null) and not required: 1. */
static int optional_absent(const cJSON *item, int required)
{
	return !required && (!item || json_is(item, cJSON_NULL));
}

int json_get_int(const cJSON *obj, const cJSON *item, const struct json_path *at,
		 const char *name, long min, long max, int required, long *out,
		 struct protocol_diag *diag)
{
	char prefix[JSON_PATH_MAX];

	if (json_number_in(item, min, max, out))
		return 0;
	if (optional_absent(item, required))
		return 1;
	return json_int(obj, json_path_str(at, prefix), name, min, max, required, out, diag);
}

int json_get_string(const cJSON *obj, const cJSON *item, const struct json_path *at,
		    const char *name, int required, const char **out, struct protocol_diag *diag)
{
	char prefix[JSON_PATH_MAX];

	if (json_is(item, cJSON_String) && item->valuestring) {
		*out = item->valuestring;
		return 0;
	}
	if (optional_absent(item, required))
		return 1;
	return json_string(obj, json_path_str(at, prefix), name, required, out, diag);
}

int json_get_source(const cJSON *obj, const cJSON *item, const struct json_path *at,
		    int *source, struct protocol_diag *diag)
{
	char safe[JSON_SAFE_MAX], prefix[JSON_PATH_MAX];
	const char *from = NULL;
	int rc;

	if ((rc = json_get_string(obj, item, at, "from", 1, &from, diag)))
		return rc;
	*source = text_source_parse(from);
	if (*source < 0)
		return json_fail(diag, PROTOCOL_EVALUE, 0,
				 "unknown value \"%s\" for \"%sfrom\"; valid: \"hand\", \"stock\", \"discard\"",
				 json_safe(from, safe), json_path_str(at, prefix));
	return 0;
}

int json_get_bool(const cJSON *obj, const cJSON *item, const struct json_path *at,
		  const char *name, int required, int *out, struct protocol_diag *diag)
{
	char prefix[JSON_PATH_MAX];

	if (json_is(item, cJSON_True) || json_is(item, cJSON_False)) {
		*out = json_is(item, cJSON_True);
		return 0;
	}
	if (optional_absent(item, required))
		return 1;
	return json_bool(obj, json_path_str(at, prefix), name, required, out, diag);
}

int json_get_array(const cJSON *obj, const cJSON *item, const struct json_path *at,
		   const char *name, int required, const cJSON **out, struct protocol_diag *diag)
{
	char prefix[JSON_PATH_MAX];

	if (json_is(item, cJSON_Array)) {
		*out = item;
		return 0;
	}
	if (optional_absent(item, required))
		return 1;
	return json_array(obj, json_path_str(at, prefix), name, required, out, diag);
}

int json_get_object(const cJSON *obj, const cJSON *item, const struct json_path *at,
		    const char *name, int required, const cJSON **out, struct protocol_diag *diag)
{
	char prefix[JSON_PATH_MAX];

	if (json_is(item, cJSON_Object)) {
		*out = item;
		return 0;
	}
	if (optional_absent(item, required))
		return 1;
	return json_object(obj, json_path_str(at, prefix), name, required, out, diag);
}
