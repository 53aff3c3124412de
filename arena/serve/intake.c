/*
 * intake.c - `host`'s write routes (contract in intake.h): the routes'
 * dispatch, the refusals, the upload streamed to disk and taken by
 * submissions.h. Who is asking is intake_auth.c's; the documents it
 * answers with are intake_docs.c's.
 */
#include "intake.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accounts.h"
#include "challenges.h"
#include "entry_docs.h"
#include "freeze.h"
#include "intake_acts.h"
#include "intake_auth.h"
#include "intake_docs.h"
#include "league_entries.h"
#include "names.h"
#include "pipeline.h"
#include "reply.h"
#include "sessions.h"
#include "submissions.h"
#include "work_routes.h"

#define INCOMING_DIR "incoming"
/* A login form's body: "token=" and a token, with room for a few more fields. */
#define FORM_MAX 1024
/* A body past the upload limit is read and dropped up to this multiple, then cut. */
#define OVERFLOW_FACTOR 4

extern const char author_page[];

/* A request with a body, kept between the daemon's calls. */
/* BODY_DROP: no body is read; what the request does is its route's (the organiser's). */
/* BODY_WORK: a worker's request, its body work_routes.h's. */
enum body_kind { BODY_UPLOAD, BODY_FORM, BODY_DROP, BODY_CHALLENGE, BODY_WORK };
struct body {
	enum body_kind kind;
	struct who who;
	char bot[NAMES_LEN_MAX + 2];  /* one more: a name too long is refused by its rule; the
					 author disabled (ACT_AUTHOR) */
	enum organiser_act act;  /* of a BODY_DROP */
	uint64_t id;             /* the submission disabled (ACT_DISABLE) */
	int fd;                  /* the upload's file in incoming/, or -1 */
	char path[PATH_MAX];
	uint64_t bytes, limit;
	bool too_big;
	char form[FORM_MAX + 1];
	size_t form_len;
	struct work_request *work;
};

/* incoming/: made if missing, emptied of what a stop left (never acknowledged). */
static int incoming_clean(const char *dir, char *err, size_t err_size)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, INCOMING_DIR) >= sizeof(path))
		return -ENAMETOOLONG;
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		snprintf(err, err_size, "cannot make \"%s\": %s", path, strerror(errno));
		return -errno;
	}
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    !(dp = fdopendir(fd))) {
		snprintf(err, err_size, "cannot read \"%s\": %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.')
			unlinkat(dirfd(dp), d->d_name, 0);
	closedir(dp);
	return 0;
}

/* intake_new's, or with workers_only intake_new_workers's without its desk. */
static int intake_make(const char *dir, const struct host_config *config,
		       struct pipeline *pipeline, bool tls, bool workers_only,
		       struct intake **out, char *err, size_t err_size)
{
	struct intake *in = calloc(1, sizeof(*in));
	int rc = -ENOMEM;

	*out = NULL;
	if (!in || !(in->dir = strdup(dir)) ||
	    !(in->sessions = sessions_new(INTAKE_SESSION_S, config->login_failures,
					  INTAKE_LOGIN_WINDOW_S))) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	in->config = *config;
	in->pipeline = pipeline;
	in->tls = tls;
	in->workers_only = workers_only;
	if (!workers_only && ((rc = incoming_clean(dir, err, err_size)) < 0 ||
			      (rc = submissions_open(&in->ss, dir, err, err_size)) < 0))
		goto fail;
	pthread_mutex_init(&in->lock, NULL);
	*out = in;
	return 0;
fail:
	if (in) {
		sessions_free(in->sessions);
		free(in->dir);
	}
	free(in);
	return rc;
}

int intake_new(const char *dir, const struct host_config *config, struct pipeline *pipeline,
	       bool tls, struct intake **out, char *err, size_t err_size)
{
	return intake_make(dir, config, pipeline, tls, false, out, err, err_size);
}

int intake_new_workers(const char *dir, const struct host_config *config, struct desk *desk,
		       bool tls, struct intake **out, char *err, size_t err_size)
{
	int rc = intake_make(dir, config, NULL, tls, true, out, err, err_size);

	if (rc == 0)
		(*out)->desk = desk;
	return rc;
}

void intake_set_desk(struct intake *in, struct desk *desk)
{
	in->desk = desk;
}

void intake_free(struct intake *in)
{
	if (!in)
		return;
	submissions_release(&in->ss);
	pthread_mutex_destroy(&in->lock);
	sessions_free(in->sessions);
	free(in->dir);
	free(in);
}

enum MHD_Result intake_refuse(struct MHD_Connection *conn, const struct refusal *r)
{
	struct reply_extra x = { .retry_after = r->retry_after };

	return reply_error(conn, r->status, r->why, &x);
}

static enum MHD_Result refuse(struct MHD_Connection *conn, const struct refusal *r)
{
	return intake_refuse(conn, r);
}

/* The author of bot, NULL when nobody submitted it yet; under in->lock. */
static const char *bot_owner(const struct intake *in, const char *bot)
{
	for (size_t i = 0; i < in->ss.n; i++)
		if (!strcmp(in->ss.s[i].bot, bot))
			return in->ss.s[i].author;
	return NULL;
}

/* The refusals an upload meets before its body is read: -1 with r, else 0. */
static int upload_refusal(struct intake *in, struct MHD_Connection *conn, const struct body *b,
			  struct refusal *r)
{
	const char *length = intake_header(conn, MHD_HTTP_HEADER_CONTENT_LENGTH);
	const char *type = intake_header(conn, MHD_HTTP_HEADER_CONTENT_TYPE);
	const char *owner;
	char err[512];
	bool frozen;

	r->retry_after = 0;
	r->status = MHD_HTTP_FORBIDDEN;
	if (freeze_read(in->dir, in->config.frozen, &frozen, err, sizeof(err)) < 0) {
		r->status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		strlcpy(r->why, err, sizeof(r->why));
		return -1;
	}
	if (frozen) {
		snprintf(r->why, sizeof(r->why), "submissions are frozen by the organiser (frozen "
			 "in host.jsonc or POST /api/freeze, for the finals): the versions entered "
			 "play on");
		return -1;
	}
	if (!names_valid(b->bot)) {
		r->status = MHD_HTTP_BAD_REQUEST;
		snprintf(r->why, sizeof(r->why), "bot name: expected %s", NAMES_RULE);
		return -1;
	}
	pthread_mutex_lock(&in->lock);
	submissions_refresh(&in->ss, err, sizeof(err));
	owner = bot_owner(in, b->bot);
	if (owner && strcmp(owner, b->who.name))
		snprintf(r->why, sizeof(r->why), "the bot \"%s\" is %s's: submit under a name of "
			 "your own", b->bot, owner);
	pthread_mutex_unlock(&in->lock);
	if (owner && strcmp(owner, b->who.name))
		return -1;
	if (type && (!strncasecmp(type, "multipart/", 10) ||
		     !strncasecmp(type, "application/x-www-form-urlencoded", 33))) {
		r->status = MHD_HTTP_UNSUPPORTED_MEDIA_TYPE;
		snprintf(r->why, sizeof(r->why), "send the archive itself as the body, with "
			 "Content-Type: application/octet-stream (curl --data-binary @FILE), not a "
			 "form");
		return -1;
	}
	if (length && strtoull(length, NULL, 10) > b->limit) {
		r->status = MHD_HTTP_CONTENT_TOO_LARGE;
		snprintf(r->why, sizeof(r->why), "the upload is %s bytes, over the limit of %d MiB "
			 "(upload_mb in host.jsonc): leave out what the bot does not need",
			 length, in->config.upload_mb);
		return -1;
	}
	return 0;
}

static int upload_open(struct intake *in, struct body *b, struct refusal *r)
{
	snprintf(b->path, sizeof(b->path), "%s/%s/upload-XXXXXX", in->dir, INCOMING_DIR);
	if ((b->fd = mkostemp(b->path, O_CLOEXEC)) < 0) {
		r->status = MHD_HTTP_SERVICE_UNAVAILABLE;
		r->retry_after = 60;
		snprintf(r->why, sizeof(r->why), "the host cannot store the upload now (%s): try "
			 "again later", strerror(errno));
		return -1;
	}
	return 0;
}

/* Write a chunk; past the limit keep counting only. -1 to cut the connection. */
static int upload_chunk(struct body *b, const char *data, size_t len)
{
	b->bytes += len;
	if (b->bytes > b->limit) {
		b->too_big = true;
		return b->bytes > OVERFLOW_FACTOR * b->limit ? -1 : 0;
	}
	while (len > 0) {
		ssize_t n = write(b->fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static void upload_drop(struct body *b)
{
	if (b->fd >= 0) {
		close(b->fd);
		unlink(b->path);
		b->fd = -1;
	}
}

/* The upload on disk, then taken: 202 only after submissions_receive returned. */
static enum MHD_Result upload_done(struct intake *in, struct MHD_Connection *conn,
				   struct body *b)
{
	struct refusal r = { .status = MHD_HTTP_CONTENT_TOO_LARGE };
	char err[1024];
	uint64_t id = 0;
	long retry = 0;
	int rc, fd = b->fd;

	if (b->too_big) {
		upload_drop(b);
		snprintf(r.why, sizeof(r.why), "the upload passed the limit of %d MiB (upload_mb in "
			 "host.jsonc): leave out what the bot does not need", in->config.upload_mb);
		return refuse(conn, &r);
	}
	b->fd = -1;
	if (fsync(fd) < 0 || close(fd) < 0) {
		unlink(b->path);
		r.status = MHD_HTTP_SERVICE_UNAVAILABLE;
		r.retry_after = 60;
		snprintf(r.why, sizeof(r.why), "the host could not store the upload (%s): nothing "
			 "was received; try again later", strerror(errno));
		return refuse(conn, &r);
	}
	pthread_mutex_lock(&in->lock);
	submissions_refresh(&in->ss, err, sizeof(err));
	rc = submissions_receive(&in->ss, b->who.name, b->bot, b->path, in->config.per_day,
				 time(NULL), &id, &retry, err, sizeof(err));
	pthread_mutex_unlock(&in->lock);
	if (rc < 0) {
		unlink(b->path);
		r.status = rc == -EAGAIN ? MHD_HTTP_TOO_MANY_REQUESTS : rc == -EPERM ?
			MHD_HTTP_FORBIDDEN : rc == -EINVAL ? MHD_HTTP_BAD_REQUEST :
			MHD_HTTP_SERVICE_UNAVAILABLE;
		r.retry_after = rc == -EAGAIN ? retry : 0;
		strlcpy(r.why, err, sizeof(r.why));
		return refuse(conn, &r);
	}
	if (in->pipeline)
		pipeline_poke(in->pipeline);
	return intake_docs_received(conn, id);
}

/* "token=..." of a login form, percent escapes undone, into out: 0 or -1. */
static int form_token(char *form, char *out, size_t size)
{
	char *save = NULL;

	for (char *field = strtok_r(form, "&", &save); field; field = strtok_r(NULL, "&", &save)) {
		if (strncmp(field, "token=", 6))
			continue;
		MHD_http_unescape(field + 6);
		if (strlen(field + 6) >= size)
			return -1;
		strcpy(out, field + 6);
		return 0;
	}
	return -1;
}

static enum MHD_Result login_done(struct intake *in, struct MHD_Connection *conn,
				  struct body *b)
{
	char token[ACCOUNTS_TOKEN_LEN + 16] = "", address[INET6_ADDRSTRLEN + 1];
	char id[SESSIONS_ID_SIZE], cookie[256];
	struct reply_extra x = { 0 };
	struct refusal r = { .status = MHD_HTTP_UNAUTHORIZED };
	time_t now = intake_mono_now();
	struct who who;

	intake_client_address(conn, address, sizeof(address));
	if (intake_blocked(in, address, now, &r))
		return refuse(conn, &r);
	b->form[b->form_len] = '\0';
	if (form_token(b->form, token, sizeof(token)) < 0 || !intake_account_of(in, token, NULL, &who) ||
	    who.role == ACCOUNT_WORKER) {
		sessions_failed(in->sessions, address, now);
		explicit_bzero(token, sizeof(token));
		snprintf(r.why, sizeof(r.why), "the token is not a live author's or organiser's: "
			 "paste the whole token (sbt_ and 64 hex digits) of your account");
		return refuse(conn, &r);
	}
	explicit_bzero(token, sizeof(token));
	if (sessions_open(in->sessions, who.name, now, id) < 0) {
		r.status = MHD_HTTP_SERVICE_UNAVAILABLE;
		snprintf(r.why, sizeof(r.why), "no session could be made: try again");
		return refuse(conn, &r);
	}
	snprintf(cookie, sizeof(cookie), INTAKE_COOKIE "=%s; Path=/; Max-Age=%d; HttpOnly; "
		 "SameSite=Strict%s", id, INTAKE_SESSION_S, in->tls ? "; Secure" : "");
	x.set_cookie = cookie;
	return intake_docs_login(conn, &who, &x);
}

static enum MHD_Result logout(struct intake *in, struct MHD_Connection *conn)
{
	const char *cookie = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, INTAKE_COOKIE);
	struct reply_extra x = { .set_cookie = INTAKE_COOKIE "=; Path=/; Max-Age=0; HttpOnly; "
		"SameSite=Strict" };
	struct jsonw w;

	if (cookie)
		sessions_close(in->sessions, cookie);
	jsonw_init(&w);
	jsonw_text(&w, "{\"account\":null}\n");
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, &x);
}

/* The path after a prefix, up to the next '/', into out: its length, or 0. */
static size_t path_part(const char *url, const char *prefix, char *out, size_t size)
{
	size_t n = strlen(prefix), len;

	if (strncmp(url, prefix, n))
		return 0;
	len = strcspn(url + n, "/");
	if (len == 0 || len >= size)
		return 0;
	memcpy(out, url + n, len);
	out[len] = '\0';
	return len;
}

/* "PREFIX" and a number N, and what follows it into *rest: N, or 0. */
static uint64_t numbered_url(const char *url, const char *prefix, const char **rest)
{
	char digits[21];
	size_t len = path_part(url, prefix, digits, sizeof(digits));
	char *end;
	uint64_t id;

	if (!len || digits[0] == '0' || strspn(digits, "0123456789") != len)
		return 0;
	id = strtoull(digits, &end, 10);
	*rest = url + strlen(prefix) + len;
	return id;
}

/* "/api/submissions/N" and what follows it into *rest: the id, or 0. */
static uint64_t submission_url(const char *url, const char **rest)
{
	return numbered_url(url, "/api/submissions/", rest);
}

/* The first call of a POST: refusals now, or the body's state. */
static enum MHD_Result post_begin(struct intake *in, struct MHD_Connection *conn,
				  const char *url, void **con_cls)
{
	struct refusal r = { .status = MHD_HTTP_NOT_FOUND };
	struct body *b = calloc(1, sizeof(*b));
	const char *rest = "";
	char bot[NAMES_LEN_MAX + 2];
	size_t len;

	if (!b)
		return MHD_NO;
	b->fd = -1;
	if (intake_cross_site(conn)) {
		r.status = MHD_HTTP_FORBIDDEN;
		snprintf(r.why, sizeof(r.why), "a write from a page of another site (Origin or "
			 "Sec-Fetch-Site): use this host's own /author page, or a client without "
			 "a browser");
		goto refused;
	}
	if (!strcmp(url, "/login")) {
		b->kind = BODY_FORM;
		*con_cls = b;
		return MHD_YES;
	}
	if (!strcmp(url, "/api/challenges")) {
		b->kind = BODY_CHALLENGE;
		if (intake_authenticate(in, conn, &b->who, &r) < 0)
			goto refused;
		*con_cls = b;
		return MHD_YES;
	}
	if (!strcmp(url, "/logout")) {
		free(b);
		return logout(in, conn);
	}
	len = path_part(url, "/api/bots/", bot, sizeof(bot));
	if (len && !strcmp(url + strlen("/api/bots/") + len, "/submissions")) {
		b->kind = BODY_UPLOAD;
		strlcpy(b->bot, bot, sizeof(b->bot));
		b->limit = (uint64_t)in->config.upload_mb << 20;
		if (intake_authenticate(in, conn, &b->who, &r) < 0 || upload_refusal(in, conn, b, &r) < 0 ||
		    upload_open(in, b, &r) < 0)
			goto refused;
		*con_cls = b;
		return MHD_YES;
	}
	b->kind = BODY_DROP;
	if ((b->id = submission_url(url, &rest)) && !strcmp(rest, "/disable"))
		b->act = ACT_DISABLE;
	else if (!strcmp(url, "/api/freeze"))
		b->act = ACT_FREEZE;
	else if (!strcmp(url, "/api/unfreeze"))
		b->act = ACT_UNFREEZE;
	else if ((len = path_part(url, "/api/authors/", b->bot, sizeof(b->bot))) &&
		 !strcmp(url + strlen("/api/authors/") + len, "/disable"))
		b->act = ACT_AUTHOR;
	if (b->act != ACT_NONE) {
		if (intake_authenticate(in, conn, &b->who, &r) < 0)
			goto refused;
		*con_cls = b;
		return MHD_YES;
	}
	snprintf(r.why, sizeof(r.why), "no such route for POST: see arena/HOSTING.md, \"Routes\"");
refused:
	free(b);
	return refuse(conn, &r);
}

static enum MHD_Result post_body(struct intake *in, struct MHD_Connection *conn,
				 struct body *b, const char *data, size_t *size)
{
	size_t n = *size;

	*size = 0;
	if (n == 0) {
		if (b->kind == BODY_UPLOAD)
			return upload_done(in, conn, b);
		if (b->kind == BODY_FORM)
			return login_done(in, conn, b);
		if (b->kind == BODY_CHALLENGE)
			return intake_challenge_ask(in, conn, &b->who, b->form, b->form_len);
		return intake_organiser_act(in, conn, &b->who, b->act, b->id, b->bot);
	}
	if (b->kind == BODY_UPLOAD)
		return upload_chunk(b, data, n) < 0 ? MHD_NO : MHD_YES;
	if (b->kind == BODY_FORM || b->kind == BODY_CHALLENGE) {
		if (b->form_len + n > FORM_MAX)
			return MHD_NO; /* no login form is that long */
		memcpy(b->form + b->form_len, data, n);
		b->form_len += n;
	}
	return MHD_YES;
}

/* "/api/entries/NAME" or ".../stderr" into entry and *rest ("" or "/stderr"): true. */
static bool entry_url(const char *url, char entry[LEAGUE_ENTRY_NAME_MAX + 1], const char **rest)
{
	size_t len = path_part(url, "/api/entries/", entry, LEAGUE_ENTRY_NAME_MAX + 1);

	*rest = url + strlen("/api/entries/") + len;
	return len && (!**rest || !strcmp(*rest, "/stderr"));
}

static enum MHD_Result get(struct intake *in, struct MHD_Connection *conn, const char *url,
			   bool *handled)
{
	char entry[LEAGUE_ENTRY_NAME_MAX + 1];
	struct refusal r;
	const char *rest = "";
	struct who who;
	uint64_t id;

	*handled = true;
	if (entry_url(url, entry, &rest)) {
		if (intake_authenticate(in, conn, &who, &r) < 0)
			return refuse(conn, &r);
		if (!intake_sees_entry(in, &who, entry)) /* as one that does not exist */
			return entry_docs_missing(conn, entry);
		return *rest ? entry_docs_stderr(conn, in->dir, entry) :
			entry_docs_entry(conn, in->dir, entry);
	}
	if ((id = numbered_url(url, "/api/challenges/", &rest)) && !*rest) {
		if (intake_authenticate(in, conn, &who, &r) < 0)
			return refuse(conn, &r);
		return intake_challenge_get(in, conn, &who, id);
	}
	if (!strcmp(url, "/author"))
		return reply(conn, MHD_HTTP_OK, "text/html; charset=utf-8", (char *)author_page,
			     strlen(author_page), MHD_RESPMEM_PERSISTENT, NULL);
	id = submission_url(url, &rest);
	if (strcmp(url, "/api/me") && (!id || (*rest && strcmp(rest, "/build.log") &&
					       strcmp(rest, "/check.log")))) {
		*handled = false;
		return MHD_NO;
	}
	if (intake_authenticate(in, conn, &who, &r) < 0)
		return refuse(conn, &r);
	if (!id)
		return intake_docs_me(conn, &in->lock, &in->ss, &who);
	if (*rest)
		return intake_docs_log(conn, &in->lock, &in->ss, &who, id, rest + 1);
	return intake_docs_submission(conn, &in->lock, &in->ss, &who, id);
}

/* A worker's request: who it is, then work_routes.h's; a body kept in *con_cls. */
static enum MHD_Result work_begin(struct intake *in, struct MHD_Connection *conn,
				  const char *url, const char *method, void **con_cls)
{
	struct body *b;
	struct refusal r;
	struct who who;
	enum MHD_Result ret;

	if (intake_authenticate_worker(in, conn, &who, &r) < 0)
		return refuse(conn, &r);
	if (!(b = calloc(1, sizeof(*b))))
		return MHD_NO;
	b->kind = BODY_WORK;
	b->fd = -1;
	ret = work_routes_begin(in->desk, conn, url, method, who.name, who.trusted, &b->work);
	if (b->work)
		*con_cls = b;
	else
		free(b);
	return ret;
}

/* GET /api/workers: the names to an organiser only. */
static enum MHD_Result workers(struct intake *in, struct MHD_Connection *conn)
{
	struct refusal r;
	struct who who;
	bool organiser = false;

	if (intake_header(conn, MHD_HTTP_HEADER_AUTHORIZATION) ||
	    MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, INTAKE_COOKIE)) {
		if (intake_authenticate(in, conn, &who, &r) < 0)
			return refuse(conn, &r);
		organiser = who.role == ACCOUNT_ORGANISER;
	}
	return work_routes_workers(in->desk, conn, organiser);
}

enum MHD_Result intake_request(struct intake *in, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *upload_data,
			       size_t *upload_data_size, void **con_cls, bool *handled)
{
	struct body *b = *con_cls;

	*handled = true;
	if (b && b->kind == BODY_WORK)
		return work_routes_body(in->desk, conn, b->work, upload_data, upload_data_size);
	if (b)
		return post_body(in, conn, b, upload_data, upload_data_size);
	if (in->desk && !strncmp(url, WORK_PREFIX, strlen(WORK_PREFIX)))
		return work_begin(in, conn, url, method, con_cls);
	if (in->desk && !strcmp(url, "/api/workers") && (!strcmp(method, MHD_HTTP_METHOD_GET) ||
							!strcmp(method, MHD_HTTP_METHOD_HEAD)))
		return workers(in, conn);
	if (in->workers_only) {
		*handled = false;
		return MHD_NO;
	}
	if (!strcmp(method, MHD_HTTP_METHOD_POST))
		return post_begin(in, conn, url, con_cls);
	if (!strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD))
		return get(in, conn, url, handled);
	*handled = false;
	return MHD_NO;
}

int intake_viewer(struct intake *in, struct MHD_Connection *conn, struct intake_viewer *v)
{
	struct refusal r;
	struct who who;
	char err[256];
	int rc = 0;

	/* a league's workers-only intake has no authors: its games are shown as serve shows them */
	*v = (struct intake_viewer){ .all = in->config.public_games || in->workers_only };
	if (v->all || intake_authenticate(in, conn, &who, &r) < 0)
		return 0;
	if ((v->all = who.role == ACCOUNT_ORGANISER))
		return 0;
	pthread_mutex_lock(&in->lock);
	submissions_refresh(&in->ss, err, sizeof(err));
	if (!(v->names = calloc(in->ss.n + 1, sizeof(*v->names))))
		rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < in->ss.n; i++) {
		const struct submission *s = &in->ss.s[i];
		if (s->entry && !strcmp(s->author, who.name) &&
		    !(v->names[v->n++] = strdup(s->entry)))
			rc = -ENOMEM;
	}
	pthread_mutex_unlock(&in->lock);
	if (rc < 0)
		intake_viewer_release(v);
	return rc;
}

void intake_viewer_release(struct intake_viewer *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->names[i]);
	free(v->names);
	v->names = NULL;
	v->n = 0;
}

void intake_completed(struct intake *in, void **con_cls)
{
	struct body *b = *con_cls;

	(void)in;
	if (!b)
		return;
	work_routes_free(b->work);
	upload_drop(b);
	explicit_bzero(b->form, sizeof(b->form));
	free(b);
	*con_cls = NULL;
}
