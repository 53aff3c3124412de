/*
 * work_routes.c - the workers' routes (contract in work_routes.h): the
 * requests read, the desk asked, its errors turned into statuses.
 */
#include "work_routes.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "desk.h"
#include "json_strict.h"
#include "protocol_json.h"
#include "reply.h"

/* A lease's id: the desk's, letters, digits, '-' and '_'. */
#define LEASE_ID_MAX 64
#define SHA256_HEX 64
/* The bundles a worker may say it holds in one ask. */
#define ASK_BUNDLES_MAX 4096

enum work_act { WORK_LEASE, WORK_RESULTS, WORK_RELEASE };

struct work_request {
	enum work_act act;
	char worker[128];
	bool trusted;
	char lease[LEASE_ID_MAX + 1];
	char *body;
	size_t len, cap, limit;
	bool too_big;
};

static enum MHD_Result refuse(struct MHD_Connection *conn, unsigned status, const char *why)
{
	return reply_error(conn, status, why, NULL);
}

/* A desk's error as a status: WORKERS.md's table. */
static unsigned desk_status(int rc)
{
	switch (rc) {
	case -EPERM:
		return MHD_HTTP_FORBIDDEN;
	case -EPROTO:
	case -ESTALE:
		return MHD_HTTP_CONFLICT;
	case -ENOENT:
		return MHD_HTTP_NOT_FOUND;
	case -EINVAL:
		return MHD_HTTP_BAD_REQUEST;
	default:
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	}
}

static enum MHD_Result desk_refuse(struct MHD_Connection *conn, int rc, const char *err)
{
	char why[600];

	if (!err[0])
		snprintf(why, sizeof(why), "the host cannot answer now (%s): ask again later",
			 strerror(-rc));
	return refuse(conn, desk_status(rc), err[0] ? err : why);
}

/* text (malloc'd, consumed) as a JSON answer with status. */
static enum MHD_Result answer(struct MHD_Connection *conn, unsigned status, char *text)
{
	return reply(conn, status, "application/json", text, strlen(text), MHD_RESPMEM_MUST_FREE,
		     NULL);
}

static bool is_sha256(const char *s, size_t len)
{
	return len == SHA256_HEX && strspn(s, "0123456789abcdef") >= SHA256_HEX;
}

/* "ID" then exactly tail after prefix in url into id: true. */
static bool lease_url(const char *url, const char *tail, char id[LEASE_ID_MAX + 1])
{
	static const char prefix[] = WORK_PREFIX "leases/";
	const char *p = url + sizeof(prefix) - 1;
	size_t len;

	if (strncmp(url, prefix, sizeof(prefix) - 1))
		return false;
	len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
	if (len == 0 || len > LEASE_ID_MAX || strcmp(p + len, tail))
		return false;
	memcpy(id, p, len);
	id[len] = '\0';
	return true;
}

/* GET /api/work/bundles/SHA256: the archive's file, streamed. */
static enum MHD_Result bundle(struct desk *d, struct MHD_Connection *conn, const char *sha,
			      bool trusted)
{
	char path[PATH_MAX], why[PATH_MAX + 128];
	struct stat st;
	int rc, fd;

	if (!is_sha256(sha, strlen(sha)))
		return refuse(conn, MHD_HTTP_NOT_FOUND, "no such bundle: a bundle is named by the "
			      "SHA-256 of its archive, 64 lower-case hex digits");
	rc = desk_bundle(d, sha, trusted, path, sizeof(path));
	if (rc == -ENOENT)
		return refuse(conn, MHD_HTTP_NOT_FOUND, "no such bundle: ask for a lease again, "
			      "its bots name their bundles");
	if (rc == -EPERM)
		return refuse(conn, MHD_HTTP_FORBIDDEN, "the bot of this bundle is private to "
			      "trusted workers (\"private\" in its skipbo.json)");
	if (rc < 0)
		return desk_refuse(conn, rc, "");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0 || fstat(fd, &st) < 0) {
		snprintf(why, sizeof(why), "the bundle cannot be read on the host (%s): ask again "
			 "later", strerror(errno));
		if (fd >= 0)
			close(fd);
		return refuse(conn, MHD_HTTP_SERVICE_UNAVAILABLE, why);
	}
	return reply_fd(conn, MHD_HTTP_OK, "application/x-tar", fd, (uint64_t)st.st_size);
}

enum MHD_Result work_routes_begin(struct desk *d, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *worker, bool trusted,
				  struct work_request **req)
{
	static const char bundles[] = WORK_PREFIX "bundles/";
	const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_CONTENT_LENGTH);
	struct work_request r = { .trusted = trusted, .limit = WORK_ASK_MAX };
	bool get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);

	*req = NULL;
	if (get && !strncmp(url, bundles, sizeof(bundles) - 1))
		return bundle(d, conn, url + sizeof(bundles) - 1, trusted);
	if (strcmp(method, MHD_HTTP_METHOD_POST))
		return refuse(conn, MHD_HTTP_NOT_FOUND, "no such route of the workers: see "
			      "arena/WORKERS.md, \"The protocol\"");
	if (!strcmp(url, WORK_PREFIX "lease"))
		r.act = WORK_LEASE;
	else if (lease_url(url, "/results", r.lease)) {
		r.act = WORK_RESULTS;
		r.limit = WORK_RESULTS_MAX;
	} else if (lease_url(url, "/release", r.lease))
		r.act = WORK_RELEASE;
	else
		return refuse(conn, MHD_HTTP_NOT_FOUND, "no such route of the workers: see "
			      "arena/WORKERS.md, \"The protocol\"");
	if (length && strtoull(length, NULL, 10) > r.limit)
		return refuse(conn, MHD_HTTP_CONTENT_TOO_LARGE, r.act == WORK_RESULTS ?
			      "a batch of results over 256 MiB: send the games in smaller batches" :
			      "a request over 1 MiB: not a worker's");
	if (strlcpy(r.worker, worker, sizeof(r.worker)) >= sizeof(r.worker) ||
	    !(*req = malloc(sizeof(r))))
		return MHD_NO;
	**req = r;
	return MHD_YES;
}

/* A chunk kept; past the limit, dropped and the request marked. */
static int body_add(struct work_request *req, const char *data, size_t n)
{
	size_t cap = req->cap ? req->cap : 64 * 1024;
	char *grown;

	if (req->too_big || req->len + n > req->limit) {
		req->too_big = true;
		return 0;
	}
	while (cap < req->len + n + 1)
		cap *= 2;
	if (cap != req->cap) {
		if (!(grown = realloc(req->body, cap)))
			return -ENOMEM;
		req->body = grown;
		req->cap = cap;
	}
	memcpy(req->body + req->len, data, n);
	req->len += n;
	req->body[req->len] = '\0';
	return 0;
}

/* The ask's bundles as strings of root, into *out (malloc'd). 0, or a sentence. */
static const char *ask_bundles(const cJSON *root, const char ***out, size_t *n)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "bundles"), *b;

	*out = NULL;
	*n = 0;
	if (!list)
		return NULL;
	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > ASK_BUNDLES_MAX)
		return "\"bundles\": expected an array of at most 4096 SHA-256s";
	if (!(*out = calloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(**out))))
		return "out of memory";
	cJSON_ArrayForEach(b, list) {
		if (!cJSON_IsString(b) || !is_sha256(b->valuestring, strlen(b->valuestring)))
			return "\"bundles\": expected SHA-256s, 64 lower-case hex digits each";
		(*out)[(*n)++] = b->valuestring;
	}
	return NULL;
}

/* POST /api/work/lease: the ask read, the desk's lease or its wait. */
static enum MHD_Result lease(struct desk *d, struct MHD_Connection *conn,
			     const struct work_request *req)
{
	struct desk_ask ask = { .worker = req->worker, .trusted = req->trusted };
	struct json_strict_error jerr;
	cJSON *root = NULL;
	char err[1024] = "", *doc = NULL;
	const char **held = NULL, *why = NULL;
	unsigned retry = 0;
	int64_t cpus = 1, jobs = 1;
	enum MHD_Result ret;
	int rc;

	if (json_strict_parse(req->body ? req->body : "", req->len, &root, &jerr) < 0) {
		snprintf(err, sizeof(err), "the ask is not JSON (%s): send {\"version\": ..., "
			 "\"cpus\": N, \"jobs\": N, \"bundles\": [...]}", jerr.message);
		ret = refuse(conn, MHD_HTTP_BAD_REQUEST, err);
		goto out;
	}
	if (!cJSON_IsObject(root) || !(ask.version = json_string_at(root, "version")))
		why = "\"version\": expected the worker's skipbo-arena --version, a string";
	else if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "cpus"), NULL, "cpus", 1,
				 65536, 0, &cpus, &jerr) < 0 ||
		 json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "jobs"), NULL, "jobs", 1,
				 65536, 0, &jobs, &jerr) < 0)
		why = jerr.message;
	else
		why = ask_bundles(root, &held, &ask.nbundles);
	if (why) {
		ret = refuse(conn, MHD_HTTP_BAD_REQUEST, why);
		goto out;
	}
	ask.cpus = (int)cpus;
	ask.jobs = (int)jobs;
	ask.bundles = held;
	rc = desk_lease(d, &ask, &doc, &retry, err, sizeof(err));
	if (rc < 0)
		ret = desk_refuse(conn, rc, err);
	else if (rc == 0) {
		struct reply_extra x = { .retry_after = retry ? retry : 1 };

		ret = reply(conn, MHD_HTTP_NO_CONTENT, "application/json", (char *)"", 0,
			    MHD_RESPMEM_PERSISTENT, &x);
	} else
		ret = answer(conn, MHD_HTTP_OK, doc);
out:
	free(held);
	cJSON_Delete(root);
	return ret;
}

/* POST .../release: {"why": "stopping"}. */
static enum MHD_Result release(struct desk *d, struct MHD_Connection *conn,
			       const struct work_request *req)
{
	static const char released[] = "{\"released\":true}\n";
	struct json_strict_error jerr;
	cJSON *root = NULL;
	const char *why;
	char err[1024] = "";
	enum MHD_Result ret;
	int rc;

	if (json_strict_parse(req->body ? req->body : "", req->len, &root, &jerr) < 0 ||
	    !cJSON_IsObject(root) || !(why = json_string_at(root, "why"))) {
		cJSON_Delete(root);
		return refuse(conn, MHD_HTTP_BAD_REQUEST, "a release: expected {\"why\": "
			      "\"sentence\"}, such as {\"why\": \"stopping\"}");
	}
	rc = desk_release(d, req->worker, req->lease, why, err, sizeof(err));
	if (rc < 0)
		ret = desk_refuse(conn, rc, err);
	else
		ret = reply(conn, MHD_HTTP_OK, "application/json", (char *)released,
			    strlen(released), MHD_RESPMEM_PERSISTENT, NULL);
	cJSON_Delete(root);
	return ret;
}

enum MHD_Result work_routes_body(struct desk *d, struct MHD_Connection *conn,
				 struct work_request *req, const char *data, size_t *size)
{
	char err[1024] = "", *doc = NULL;
	size_t n = *size;
	int rc;

	*size = 0;
	if (n > 0)
		return body_add(req, data, n) < 0 ? MHD_NO : MHD_YES;
	if (req->too_big)
		return refuse(conn, MHD_HTTP_CONTENT_TOO_LARGE, req->act == WORK_RESULTS ?
			      "a batch of results over 256 MiB: send the games in smaller batches" :
			      "a request over 1 MiB: not a worker's");
	if (req->act == WORK_LEASE)
		return lease(d, conn, req);
	if (req->act == WORK_RELEASE)
		return release(d, conn, req);
	rc = desk_results(d, req->worker, req->lease, req->body ? req->body : "", req->len, &doc,
			  err, sizeof(err));
	return rc < 0 ? desk_refuse(conn, rc, err) : answer(conn, MHD_HTTP_OK, doc);
}

void work_routes_free(struct work_request *req)
{
	if (!req)
		return;
	free(req->body);
	free(req);
}

/* doc without the workers' names, nor the sentences that may hold them (a
 * suspension's, a parked deal's reasons): what anyone may see. */
static void anonymise(cJSON *doc)
{
	cJSON *w, *p;

	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(doc, "workers")) {
		cJSON_DeleteItemFromObjectCaseSensitive(w, "name");
		cJSON_DeleteItemFromObjectCaseSensitive(w, "why");
	}
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "parked"))
		cJSON_DeleteItemFromObjectCaseSensitive(p, "reasons");
}

enum MHD_Result work_routes_workers(struct desk *d, struct MHD_Connection *conn,
				    bool organiser)
{
	cJSON *doc = desk_state(d);
	char *text;

	if (!doc)
		return refuse(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory: ask again");
	if (!organiser)
		anonymise(doc);
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	if (!text)
		return refuse(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory: ask again");
	return answer(conn, MHD_HTTP_OK, text);
}
