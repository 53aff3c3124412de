/*
 * host_config.c - a hosted competition's settings (contract in host_config.h).
 */
#include "host_config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_strict.h"
#include "jsonc.h"
#include "jsonc_strip.h"

/* The file is a few lines; anything far bigger is not this file. */
#define HOST_CONFIG_BYTES_MAX (64 * 1024)

/* Each integer key, where it lives and its range. */
static const struct {
	const char *key;
	size_t offset;
	int min, max;
} int_keys[] = {
	{ "per_day", offsetof(struct host_config, per_day), 0, 100000 },
	{ "builds", offsetof(struct host_config, builds), 1, 256 },
	{ "build_seconds", offsetof(struct host_config, build_seconds), 1, 86400 },
	{ "build_cpu_seconds", offsetof(struct host_config, build_cpu_seconds), 1, 86400 },
	{ "build_memory_mb", offsetof(struct host_config, build_memory_mb), 16, 1048576 },
	{ "build_processes", offsetof(struct host_config, build_processes), 1, 100000 },
	{ "build_disk_mb", offsetof(struct host_config, build_disk_mb), 1, 1048576 },
	{ "check_games", offsetof(struct host_config, check_games), 1, 1000 },
	{ "upload_mb", offsetof(struct host_config, upload_mb), 1, 4096 },
	{ "login_failures", offsetof(struct host_config, login_failures), 1, 1000000 },
	{ "challenges_per_pair_day", offsetof(struct host_config, challenges_per_pair_day), 0,
	  1000 },
	{ "lease_seconds", offsetof(struct host_config, lease_seconds), 5, 86400 },
	{ "expire_seconds", offsetof(struct host_config, expire_seconds), 10, 86400 },
};

static const struct {
	const char *key;
	size_t offset;
} bool_keys[] = {
	{ "frozen", offsetof(struct host_config, frozen) },
	{ "public_games", offsetof(struct host_config, public_games) },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void host_config_defaults(struct host_config *c)
{
	/* padding zeroed too: two settings compare equal with memcmp */
	memset(c, 0, sizeof(*c));
	c->per_day = 10;
	c->builds = 1;
	c->build_seconds = 300;
	c->build_cpu_seconds = 300;
	c->build_memory_mb = 2048;
	c->build_processes = 64;
	c->build_disk_mb = 512;
	c->check_games = 4;
	c->upload_mb = 64;
	c->login_failures = 10;
	c->challenges_per_pair_day = 3;
	c->frozen = false;
	c->public_games = true;
	c->lease_seconds = 90;
	c->expire_seconds = 120;
	c->replay_sample = 0.1;
}

/* err: "FILE:LINE:COLUMN: KEY: what" at the value (or the key) of key. */
static int fault(const char *path, const char *text, size_t len, const char *key, int at_key,
		 const char *what, char *err, size_t err_size)
{
	unsigned long line, column;

	jsonc_line_column(text, len, jsonc_locate(text, len, key, at_key), &line, &column);
	snprintf(err, err_size, "%s:%lu:%lu: %s%s%s", path, line, column, key, *key ? ": " : "",
		 what);
	return -EINVAL;
}

/* One member of the file's object into c. */
static int read_key(const char *path, const char *text, size_t len, const cJSON *item,
		    struct host_config *c, char *err, size_t err_size)
{
	static const char *names[COUNT(int_keys) + COUNT(bool_keys) + 2];
	char what[320];
	struct json_strict_error why;
	int64_t v;
	int near;

	for (size_t i = 0; i < COUNT(int_keys); i++) {
		if (strcmp(item->string, int_keys[i].key))
			continue;
		if (json_strict_int(item, NULL, NULL, int_keys[i].min, int_keys[i].max, 0, &v,
				    &why) < 0)
			return fault(path, text, len, item->string, 0, why.message, err, err_size);
		*(int *)((char *)c + int_keys[i].offset) = (int)v;
		return 0;
	}
	if (!strcmp(item->string, "replay_sample")) {
		if (json_strict_double(item, NULL, NULL, 0, 1, 0, &c->replay_sample, &why) < 0)
			return fault(path, text, len, item->string, 0, why.message, err, err_size);
		return 0;
	}
	for (size_t i = 0; i < COUNT(bool_keys); i++) {
		if (strcmp(item->string, bool_keys[i].key))
			continue;
		if (!cJSON_IsBool(item))
			return fault(path, text, len, item->string, 0, "expected true or false", err,
				     err_size);
		*(bool *)((char *)c + bool_keys[i].offset) = cJSON_IsTrue(item);
		return 0;
	}
	for (size_t i = 0; i < COUNT(int_keys); i++)
		names[i] = int_keys[i].key;
	for (size_t i = 0; i < COUNT(bool_keys); i++)
		names[COUNT(int_keys) + i] = bool_keys[i].key;
	names[COUNT(int_keys) + COUNT(bool_keys)] = "replay_sample";
	names[COUNT(int_keys) + COUNT(bool_keys) + 1] = NULL;
	near = jsonc_nearest(item->string, names);
	if (near >= 0)
		snprintf(what, sizeof(what), "unknown key; did you mean \"%s\"?", names[near]);
	else
		snprintf(what, sizeof(what), "unknown key (arena/HOSTING.md, \"Settings\", lists "
			 "them)");
	return fault(path, text, len, item->string, 1, what, err, err_size);
}

int host_config_read(const char *dir, struct host_config *c, char *err, size_t err_size)
{
	char path[PATH_MAX], *text = NULL;
	struct json_strict_error why;
	cJSON *root = NULL;
	FILE *fp;
	size_t len;
	int ret = 0;

	host_config_defaults(c);
	if (snprintf(path, sizeof(path), "%s/%s", dir, HOST_CONFIG_FILE) >= (int)sizeof(path)) {
		snprintf(err, err_size, "\"%s\": path too long", dir);
		return -ENAMETOOLONG;
	}
	if (!(fp = fopen(path, "re"))) {
		ret = -errno;
		if (ret == -ENOENT)
			return 0;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		return ret;
	}
	if (!(text = malloc(HOST_CONFIG_BYTES_MAX + 1))) {
		fclose(fp);
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	len = fread(text, 1, HOST_CONFIG_BYTES_MAX + 1, fp);
	if (ferror(fp) || len > HOST_CONFIG_BYTES_MAX) {
		snprintf(err, err_size, "\"%s\": %s", path, ferror(fp) ? "cannot be read" :
			 "larger than 64 KiB: not a host.jsonc");
		ret = -EINVAL;
		goto out;
	}
	jsonc_strip(text, len);
	if (json_strict_parse(text, len, &root, &why) < 0) {
		snprintf(err, err_size, "%s:%lu:%lu: %s", path, why.line, why.column, why.message);
		ret = -EINVAL;
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		ret = fault(path, text, len, "", 0, "expected an object of settings ({...})", err,
			    err_size);
		goto out;
	}
	for (const cJSON *item = root->child; item && ret == 0; item = item->next)
		ret = read_key(path, text, len, item, c, err, err_size);
out:
	if (ret < 0)
		host_config_defaults(c);
	cJSON_Delete(root);
	free(text);
	fclose(fp);
	return ret;
}
