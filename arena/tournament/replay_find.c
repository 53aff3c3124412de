/*
 * replay_find.c - a game's replay found through its record (contract in
 * replay_find.h).
 */
#include "replay_find.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_strict.h"
#include "replay.h"
#include "replay_file.h"
#include "results.h"
#include "tournament_file.h"

#define PACK_SUFFIX ".jsonl.zst"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

/*
 * The checks of a record's "replay" name (name "" when it is not a string),
 * has_at when it gives replay_offset or replay_line: 1 with *ref complete (a
 * file of its own), 2 when ref is a pack's and its frame is still to be
 * read, or -EBADMSG with err.
 */
static int ref_file(const char *dir, const char *id, const char *name, int has_at,
		    struct replay_ref *ref, char *err, size_t err_size)
{
	memset(ref, 0, sizeof(*ref));
	ref->id = id ? id : "?";
	/* a file directly under replays/: a record cannot send a reader elsewhere */
	if (strncmp(name, "replays/", 8) != 0 || !name[8] || name[8] == '.' ||
	    strchr(name + 8, '/')) {
		snprintf(err, err_size, "replay: expected a file name under \"replays/\", such as "
			 "\"replays/<16 hex digits>" PACK_SUFFIX "\"");
		return -EBADMSG;
	}
	ref->file = name;
	if (snprintf(ref->path, sizeof(ref->path), "%s/%s", dir, name) >= (int)sizeof(ref->path)) {
		snprintf(err, err_size, "replay: \"%s/%s\": path too long", dir, name);
		return -EBADMSG;
	}
	if (!ends_with(name, PACK_SUFFIX)) {
		if (!has_at)
			return 1;
		snprintf(err, err_size, "replay_offset and replay_line: expected only with a pack "
			 "(\"replays/<16 hex digits>" PACK_SUFFIX "\"), not with \"%s\"", name);
		return -EBADMSG;
	}
	ref->packed = 1;
	return 2;
}

int replay_ref_of(const char *dir, const cJSON *record, struct replay_ref *ref, char *err,
		  size_t err_size)
{
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(record, "replay");
	const cJSON *offset = cJSON_GetObjectItemCaseSensitive(record, "replay_offset");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(record, "replay_line");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(record, "id");
	struct json_strict_error e;
	int64_t v;
	int ret;

	if (!file && !offset && !line)
		return 0;
	ret = ref_file(dir, cJSON_IsString(id) ? id->valuestring : NULL,
		       cJSON_IsString(file) ? file->valuestring : "", offset || line, ref, err,
		       err_size);
	if (ret != 2)
		return ret;
	if (json_strict_int(offset, NULL, "replay_offset", 0, JSON_STRICT_INT_MAX, 0, &v, &e) < 0)
		goto refused;
	ref->offset = (uint64_t)v;
	if (json_strict_int(line, NULL, "replay_line", 0, JSON_STRICT_INT_MAX, 0, &v, &e) < 0)
		goto refused;
	ref->line = (uint64_t)v;
	return 1;
refused:
	snprintf(err, err_size, "%s (where the frame of \"%s\" is)", e.message, ref->file);
	return -EBADMSG;
}

int replay_ref_of_record(const char *dir, const struct results_record *rec,
			 struct replay_ref *ref, char *err, size_t err_size)
{
	const struct record *r = rec->record;
	const cJSON *tree;
	int ret;

	if (!r->replay_known || (r->replay && !r->has_replay_at)) {
		/* the strict reader's record, or one its fast path does not answer for */
		if (!(tree = record_tree(rec->reader, rec->line, rec->length - 1))) {
			snprintf(err, err_size, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		return replay_ref_of(dir, tree, ref, err, err_size);
	}
	if (!r->replay)
		return 0;
	ret = ref_file(dir, r->id, r->replay, 1, ref, err, err_size);
	if (ret == 2) {
		ref->offset = r->replay_offset;
		ref->line = r->replay_line;
		ret = 1;
	}
	return ret;
}

char *replay_ref_read(const struct replay_ref *ref, struct replay_reader *rd, size_t *len,
		      char *err, size_t err_size)
{
	char *text;

	if (!ref->packed)
		text = replay_read_file(ref->path, len);
	else if (rd)
		text = replay_reader_get(rd, ref->path, ref->offset, ref->line, len);
	else
		text = replay_read_at(ref->path, ref->offset, ref->line, len);
	if (text)
		return text;
	if (ref->packed)
		snprintf(err, err_size, "game %s: \"%s\", line %" PRIu64 " of the frame at byte %"
			 PRIu64 ": %s", ref->id, ref->path, ref->line + 1, ref->offset,
			 errno == EBADMSG ? "no such line, or no whole zstd frame there (damaged or "
			 "cut off)" : strerror(errno));
	else
		snprintf(err, err_size, "game %s: \"%s\": %s", ref->id, ref->path,
			 errno == EBADMSG ? "a damaged or cut-off zstd frame" : strerror(errno));
	return NULL;
}

struct each {
	const char *dir;
	int (*fn)(void *ctx, const struct replay_ref *ref);
	void *ctx;
	char *err;
	size_t err_size;
	int failed;  /* fn or the record failed: err holds why */
};

static int each_record(void *ctx, const struct results_record *rec)
{
	struct each *x = ctx;
	struct replay_ref ref;
	int ret = replay_ref_of_record(x->dir, rec, &ref, x->err, x->err_size);

	if (ret < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", x->err);
		snprintf(x->err, x->err_size, "\"%s/games.jsonl\", game %s: %s", x->dir, rec->id,
			 why);
	} else if (ret == 1) {
		ret = x->fn(x->ctx, &ref);
	}
	x->failed = ret < 0;
	return ret < 0 ? ret : 0;
}

int replay_each(const char *dir, int (*fn)(void *ctx, const struct replay_ref *ref), void *ctx,
		char *err, size_t err_size)
{
	struct each x = { dir, fn, ctx, err, err_size, 0 };
	char scan_err[1024];
	int ret = records_scan_dir(dir, each_record, &x, scan_err, sizeof(scan_err));

	if (ret < 0 && !x.failed)
		snprintf(err, err_size, "%s", scan_err);
	return ret;
}

struct find {
	const char *dir, *id;
	char *text;
	size_t len;
	int found, code;
	char *err;
	size_t err_size;
};

/* The tournament's "replays" setting, which decides which games keep a replay. */
static const char *replays_setting(const char *dir, char *buf, size_t size)
{
	cJSON *root = records_tournament_tree(dir);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "replays");

	snprintf(buf, size, "%s", cJSON_IsString(v) ? v->valuestring : "all");
	cJSON_Delete(root);
	return buf;
}

/* Stops the scan at the game's record: it is the only one read. */
static int find_record(void *ctx, const struct results_record *rec)
{
	struct find *f = ctx;
	struct replay_ref ref;
	char why[768], setting[32];
	int ret;

	if (strcmp(rec->id, f->id) != 0)
		return 0;
	f->found = 1;
	ret = replay_ref_of_record(f->dir, rec, &ref, why, sizeof(why));
	if (ret < 0) {
		snprintf(f->err, f->err_size, "\"%s/games.jsonl\", game %s: %s", f->dir, f->id, why);
	} else if (ret == 0) {
		replays_setting(f->dir, setting, sizeof(setting));
		snprintf(f->err, f->err_size, "game %s in \"%s/games.jsonl\" has no replay: the "
			 "tournament's \"replays\" is \"%s\"%s", f->id, f->dir, setting,
			 strcmp(setting, "faults") == 0 ? ", which keeps the games with a fault only" :
			 strcmp(setting, "none") == 0 ? ", which keeps none" : "");
		ret = -ENODATA;
	} else if (!(f->text = replay_ref_read(&ref, NULL, &f->len, f->err, f->err_size))) {
		ret = -EBADMSG;
	}
	f->code = ret < 0 ? ret : 0;
	return -ECANCELED;
}

char *replay_find(const char *dir, const char *id, size_t *len, int *code, char *err,
		  size_t err_size)
{
	struct find f = { dir, id, NULL, 0, 0, 0, err, err_size };
	char scan_err[1024];
	int ret = records_scan_dir(dir, find_record, &f, scan_err, sizeof(scan_err));

	*code = 0;
	if (!f.found) {
		if (ret < 0)
			snprintf(err, err_size, "%s", scan_err);
		else
			snprintf(err, err_size, "no game %s in \"%s/games.jsonl\"", id, dir);
		*code = ret < 0 ? ret : -ENOENT;
		return NULL;
	}
	*code = f.code;
	*len = f.len;
	return f.text;
}

int replay_page_path(const char *pages, const char *id, char *path, size_t size)
{
	/* the id comes from a file: it must not lead out of replays/ */
	if (!id[0] || id[0] == '.' || strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_.-") != strlen(id))
		return -EINVAL;
	return snprintf(path, size, "%s/%s.html", pages, id) < (int)size ? 0 : -ENAMETOOLONG;
}

/* How every document replay_format writes begins, its id next (replay.h). */
#define REPLAY_HEAD "{\"format\":\"" REPLAY_FORMAT "\",\"version\":1,\"id\":\""

/* The id of a document that begins as replay_format writes it, without parsing the
 * rest (a replay is kilobytes, its id its third key): 1, or 0 for any other text. */
static int written_id(const char *doc, size_t doc_len, char *id, size_t size)
{
	size_t head = sizeof(REPLAY_HEAD) - 1, n = 0;

	if (doc_len <= head || memcmp(doc, REPLAY_HEAD, head) != 0)
		return 0;
	while (head + n < doc_len && doc[head + n] != '"' && doc[head + n] != '\\' &&
	       (unsigned char)doc[head + n] >= 0x20)
		n++;
	if (head + n + 1 >= doc_len || doc[head + n] != '"' || n >= size ||
	    (doc[head + n + 1] != ',' && doc[head + n + 1] != '}'))
		return 0;
	memcpy(id, doc + head, n);
	id[n] = '\0';
	return 1;
}

int replay_document_id(const char *doc, size_t doc_len, char *id, size_t size)
{
	cJSON *root = NULL;
	const cJSON *v;
	int ret = -EBADMSG;

	if (written_id(doc, doc_len, id, size))
		return 0;
	json_strict_parse(doc, doc_len, &root, NULL);
	v = cJSON_GetObjectItemCaseSensitive(root, "id");
	if (cJSON_IsString(v) && strlen(v->valuestring) < size) {
		memcpy(id, v->valuestring, strlen(v->valuestring) + 1);
		ret = 0;
	}
	cJSON_Delete(root);
	return ret;
}

/* The document of game id (NULL: the only one) in the text of file path, moved to its start. */
static char *select_document(const char *path, const char *id, char *text, size_t *len,
			     char *err, size_t err_size)
{
	size_t pos = 0, doc_len = 0, n = 0;
	const char *doc, *chosen = NULL;
	char doc_id[128];

	while ((doc = replay_next_document(text, *len, &pos, &doc_len))) {
		n++;
		if (id && replay_document_id(doc, doc_len, doc_id, sizeof(doc_id)) == 0 &&
		    strcmp(doc_id, id) == 0) {
			chosen = doc;
			break;
		}
		if (!id && n == 1)
			chosen = doc;
	}
	if (!id && n > 1) {
		snprintf(err, err_size, "\"%s\" holds %zu replays: name a game (--id ID)", path, n);
		chosen = NULL;
	} else if (!chosen && id) {
		snprintf(err, err_size, "no game %s in \"%s\"", id, path);
	} else if (!chosen) {
		snprintf(err, err_size, "\"%s\" holds no replay", path);
	}
	if (!chosen) {
		free(text);
		return NULL;
	}
	memmove(text, chosen, doc_len);
	text[doc_len] = '\0';
	*len = doc_len;
	return text;
}

char *replay_select(const char *path, const char *id, size_t *len, char *err, size_t err_size)
{
	struct stat st;
	char *text;
	int code;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!id) {
			snprintf(err, err_size, "\"%s\" is a tournament directory: name a game "
				 "(--id ID)", path);
			return NULL;
		}
		return replay_find(path, id, len, &code, err, err_size);
	}
	if (!(text = replay_read_file(path, len))) {
		snprintf(err, err_size, "\"%s\": %s", path, errno == EBADMSG ?
			 "a damaged or cut-off zstd frame" : strerror(errno));
		return NULL;
	}
	return select_document(path, id, text, len, err, err_size);
}
