/*
 * config_get.c - a member of a tournament file's object read, or an error at
 * its key path (config_get.h).
 */
#include "config_get.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json_strict.h"
#include "jsonc.h"

const char *config_get_path(char *buf, size_t size, const char *where, const char *key)
{
	if (*where)
		snprintf(buf, size, "%s.%s", where, key);
	else
		snprintf(buf, size, "%s", key);
	return buf;
}

const char *config_get_found(const cJSON *item, char *buf, size_t size)
{
	if (cJSON_IsString(item))
		snprintf(buf, size, "the string \"%.40s%s\"", item->valuestring,
			 strlen(item->valuestring) > 40 ? "..." : "");
	else if (cJSON_IsNumber(item))
		snprintf(buf, size, "the number %.15g", item->valuedouble);
	else if (cJSON_IsBool(item))
		snprintf(buf, size, "%s", cJSON_IsTrue(item) ? "true" : "false");
	else if (cJSON_IsNull(item))
		snprintf(buf, size, "null");
	else
		snprintf(buf, size, "%s", cJSON_IsArray(item) ? "an array" : "an object");
	return buf;
}

int config_get_keys(const cJSON *obj, const char *where, const char *const *keys,
		    struct jsonc_errors *e)
{
	char path[128], expected[256] = "", what[64], message[JSONC_MESSAGE_MAX];
	const cJSON *item;
	int ret = 0;

	if (!cJSON_IsObject(obj))
		return jsonc_error(e, where, "%sexpected an object, found %s",
				   *where ? "" : "the tournament file: ",
				   config_get_found(obj, what, sizeof(what)));
	for (size_t i = 0; keys[i]; i++) {
		if (i)
			strlcat(expected, ", ", sizeof(expected));
		strlcat(expected, keys[i], sizeof(expected));
	}
	cJSON_ArrayForEach(item, obj) {
		int known = 0, near;

		for (size_t i = 0; keys[i]; i++)
			known |= strcmp(item->string, keys[i]) == 0;
		if (known)
			continue;
		config_get_path(path, sizeof(path), where, item->string);
		near = jsonc_nearest(item->string, keys);
		if (near >= 0)
			snprintf(message, sizeof(message), "%s: unknown key; did you mean \"%s\"? "
				 "(expected one of: %s)", path, keys[near], expected);
		else
			snprintf(message, sizeof(message), "%s: unknown key (expected one of: %s)",
				 path, expected);
		ret = jsonc_error_text(e, path, 1, message);
	}
	return ret;
}

int config_get_int(const cJSON *obj, const char *where, const char *key, long long min,
		   long long max, long long *out, struct jsonc_errors *e)
{
	struct json_strict_error why;
	char prefix[64], path[128];
	int64_t v;
	int ret;

	snprintf(prefix, sizeof(prefix), "%s%s", where, *where ? "." : "");
	ret = json_strict_int(cJSON_GetObjectItemCaseSensitive(obj, key), prefix, key, min, max,
			      JSON_STRICT_OPTIONAL, &v, &why);
	if (ret < 0) {
		/* json_strict's message names the key already */
		return jsonc_error_text(e, config_get_path(path, sizeof(path), where, key), 0, why.message);
	}
	if (ret == 0)
		*out = v;
	return 0;
}

int config_get_bool(const cJSON *obj, const char *where, const char *key, int *out,
		    struct jsonc_errors *e)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	char path[128], what[64];

	if (!item)
		return 0;
	if (!cJSON_IsBool(item))
		return jsonc_error(e, config_get_path(path, sizeof(path), where, key),
				   "expected true or false, found %s", config_get_found(item, what, sizeof(what)));
	*out = cJSON_IsTrue(item);
	return 0;
}

int config_get_string(const cJSON *obj, const char *where, const char *key,
		      const char **out, struct jsonc_errors *e)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	char path[128], what[64];

	if (!item)
		return 0;
	if (!cJSON_IsString(item) || !item->valuestring[0])
		return jsonc_error(e, config_get_path(path, sizeof(path), where, key),
				   "expected a non-empty string, found %s",
				   cJSON_IsString(item) ? "an empty one" : config_get_found(item, what, sizeof(what)));
	*out = item->valuestring;
	return 0;
}
