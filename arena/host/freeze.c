/*
 * freeze.c - the organiser's freeze of submissions (contract in freeze.h).
 */
#include "freeze.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "journal.h"
#include "names.h"
#include "records.h"

struct reading {
	const char *path;
	bool frozen;
	char *err;
	size_t err_size;
};

static bool is_string(const cJSON *o, const char *key)
{
	return cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int on_line(void *ctx, const struct records_line *line)
{
	struct reading *rd = ctx;
	cJSON *o = cJSON_ParseWithLengthOpts(line->text, line->len, NULL, 0);
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
	const cJSON *by = cJSON_GetObjectItemCaseSensitive(o, "by");
	int ret = 0;

	if (!cJSON_IsObject(o) || cJSON_GetArraySize(o) != 3 || !cJSON_IsString(ev) ||
	    (strcmp(ev->valuestring, "freeze") && strcmp(ev->valuestring, "unfreeze")) ||
	    !cJSON_IsString(by) || !names_valid(by->valuestring) || !is_string(o, "time")) {
		snprintf(rd->err, rd->err_size, "\"%s\", line %zu: expected {\"event\": \"freeze\" "
			 "or \"unfreeze\", \"by\": NAME, \"time\": TIME}; the file is written only by "
			 "host's /api/freeze and /api/unfreeze: put the line back as it was, or "
			 "delete it, and start host again", rd->path, line->lineno);
		ret = -EBADMSG;
	} else {
		rd->frozen = !strcmp(ev->valuestring, "freeze");
	}
	cJSON_Delete(o);
	return ret;
}

int freeze_read(const char *dir, bool start, bool *frozen, char *err, size_t err_size)
{
	char path[PATH_MAX];
	struct reading rd = { path, start, err, err_size };
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, FREEZE_FILE) >= sizeof(path))
		return -ENAMETOOLONG;
	ret = records_read_lines(path, on_line, &rd, NULL, NULL);
	if (ret == -ENOENT)
		ret = 0;
	else if (ret < 0 && ret != -EBADMSG)
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
	if (ret == 0)
		*frozen = rd.frozen;
	return ret;
}

int freeze_write(const char *dir, bool frozen, const char *by, char *err, size_t err_size)
{
	char path[PATH_MAX], stamp[32], *text = NULL;
	cJSON *ev = cJSON_CreateObject();
	time_t now = time(NULL);
	struct tm tm;
	int ret = -ENOMEM;

	snprintf(path, sizeof(path), "%s/%s", dir, FREEZE_FILE);
	if (!ev || !gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ",
						   &tm) ||
	    !cJSON_AddStringToObject(ev, "event", frozen ? "freeze" : "unfreeze") ||
	    !cJSON_AddStringToObject(ev, "by", by) || !cJSON_AddStringToObject(ev, "time", stamp) ||
	    !(text = cJSON_PrintUnformatted(ev))) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if ((ret = journal_append_once(path, text, strlen(text))) < 0)
		snprintf(err, err_size, "\"%s\": %s%s", path, strerror(-ret), ret == -ENOSPC ?
			 ": nothing was changed; free space and ask again" : "");
out:
	cJSON_free(text);
	cJSON_Delete(ev);
	return ret;
}
