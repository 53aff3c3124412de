/*
 * server.c - the HTTP side of `serve` (contract in server.h): the daemon,
 * the routes, the responses.
 */
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "api.h"
#include "catalog.h"
#include "intake.h"
#include "jsonw.h"
#include "reply.h"
#include "replay.h"
#include "viewer.h"

extern const char serve_page[];

struct server {
	struct MHD_Daemon *daemon;
	struct catalog *catalog;
	bool loopback;      /* listening on a loopback address: only local Host names */
	struct intake *intake;  /* `host`'s write routes, or NULL: read only */
	char *cert, *key;       /* PEM text for TLS, or NULL */
	char url[128];
};

/* A URL's path cut at '/': at most 8 parts. */
#define PARTS_MAX 8
struct route {
	const char *part[PARTS_MAX];
	size_t len[PARTS_MAX];
	size_t n;
};

static enum MHD_Result respond(struct MHD_Connection *conn, unsigned status, const char *type,
			       char *data, size_t len, enum MHD_ResponseMemoryMode mode)
{
	return reply(conn, status, type, data, len, mode, NULL);
}

static enum MHD_Result send_w(struct MHD_Connection *conn, unsigned status, const char *type,
			      struct jsonw *w)
{
	return reply_w(conn, status, type, w, NULL);
}

static enum MHD_Result send_error(struct MHD_Connection *conn, unsigned status, const char *why)
{
	return reply_error(conn, status, why, NULL);
}

static enum MHD_Result send_json(struct MHD_Connection *conn, int rc, struct jsonw *w)
{
	if (rc == -ENOENT) {
		jsonw_release(w);
		return send_error(conn, MHD_HTTP_NOT_FOUND, "no such thing here");
	}
	if (rc < 0) {
		jsonw_release(w);
		return send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	jsonw_text(w, "\n");
	return send_w(conn, MHD_HTTP_OK, "application/json", w);
}

static void route_split(const char *url, struct route *r)
{
	r->n = 0;
	while (*url == '/' && r->n < PARTS_MAX) {
		const char *p = ++url;
		while (*url && *url != '/')
			url++;
		if (url == p && !*url)
			break; /* a final '/' */
		r->part[r->n] = p;
		r->len[r->n++] = (size_t)(url - p);
	}
	if (*url)
		r->n = PARTS_MAX + 1; /* too many parts: matches nothing */
}

static bool part_is(const struct route *r, size_t i, const char *s)
{
	return i < r->n && r->len[i] == strlen(s) && !memcmp(r->part[i], s, r->len[i]);
}

/* Part i as a number (decimal digits only, at most 9): 0, or -1. */
static int part_number(const struct route *r, size_t i, size_t *out)
{
	size_t v = 0;

	if (i >= r->n || r->len[i] == 0 || r->len[i] > 9)
		return -1;
	for (size_t k = 0; k < r->len[i]; k++) {
		if (r->part[i][k] < '0' || r->part[i][k] > '9')
			return -1;
		v = v * 10 + (size_t)(r->part[i][k] - '0');
	}
	*out = v;
	return 0;
}

/* A query argument as a number from 0 to max: 1 with *v, 0 when absent, -1 when bad. */
static int arg_number(struct MHD_Connection *conn, const char *name, long max, long *v)
{
	const char *s = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
	char *end;

	if (!s || !*s)
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return *end || errno || *v > max ? -1 : 1;
}

static int games_query(struct MHD_Connection *conn, struct api_games_query *q)
{
	const char *fault = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "fault");
	const char *order = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "order");
	long offset = 0, limit = 50;

	q->bot = q->vs = -1;
	if (arg_number(conn, "offset", LONG_MAX, &offset) < 0 ||
	    arg_number(conn, "limit", API_PAGE_MAX, &limit) < 0 ||
	    arg_number(conn, "bot", INT32_MAX, &q->bot) < 0 ||
	    arg_number(conn, "vs", INT32_MAX, &q->vs) < 0)
		return -1;
	q->offset = (size_t)offset;
	q->limit = (size_t)limit;
	q->fault = API_FAULT_NONE_ASKED;
	if (fault && *fault && (q->fault = !strcmp(fault, "any") ? API_FAULT_ANY :
			api_fault_kind(fault)) == -1)
		return -1;
	q->oldest_first = order && !strcmp(order, "oldest");
	if (order && *order && strcmp(order, "oldest") && strcmp(order, "newest"))
		return -1;
	return 0;
}

/*
 * The bots of e whose games v may see into *visible (NULL: every game), n
 * of them; under e's lock. 0, or -ENOMEM: nothing may be shown then.
 */
static int visible_bots(const struct intake_viewer *v, const struct catalog_entry *e,
			bool **visible, size_t *n)
{
	const struct gamelog *log = &e->rec.log;

	*visible = NULL;
	*n = 0;
	if (v->all)
		return 0;
	if (!(*visible = calloc(log->nbots + 1, sizeof(**visible))))
		return -ENOMEM;
	*n = log->nbots;
	for (size_t k = 0; k < log->nbots; k++)
		for (size_t i = 0; i < v->n && !(*visible)[k]; i++)
			(*visible)[k] = !strcmp(log->bots[k], v->names[i]);
	return 0;
}

/* The stream of every record as JSON lines, a buffer at a time. */
struct stream {
	struct catalog_entry *e;
	uint64_t generation;
	size_t next, end;
	char *line;         /* a record that did not fit in the last buffer */
	size_t len, sent;
	bool *visible;      /* visible_bots(): the games the asker may see */
	size_t nvisible;
};

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream *st = cls;
	size_t out = 0;

	(void)pos;
	catalog_lock(st->e);
	while (out < max) {
		if (st->line) {
			size_t n = st->len - st->sent < max - out ? st->len - st->sent : max - out;
			memcpy(buf + out, st->line + st->sent, n);
			out += n;
			st->sent += n;
			if (st->sent < st->len)
				break;
			free(st->line);
			st->line = NULL;
			continue;
		}
		if (st->next >= st->end || st->e->rec.generation != st->generation)
			break;
		if (!api_game_visible(&st->e->rec.games[st->next], st->visible, st->nvisible)) {
			st->next++;
			continue;
		}
		size_t len;
		char *line = serve_records_line(&st->e->rec, st->next++, &len);
		if (!line)
			break;
		line[len] = '\n'; /* its NUL: the newline is sent, the length says where it ends */
		st->line = line;
		st->len = len + 1;
		st->sent = 0;
	}
	catalog_unlock(st->e);
	return out ? (ssize_t)out : MHD_CONTENT_READER_END_OF_STREAM;
}

static void stream_free(void *cls)
{
	struct stream *st = cls;

	free(st->line);
	free(st->visible);
	free(st);
}

static enum MHD_Result send_stream(struct MHD_Connection *conn, struct catalog_entry *e,
				   const struct intake_viewer *v)
{
	struct stream *st = calloc(1, sizeof(*st));
	struct MHD_Response *resp;
	enum MHD_Result ret;
	long from = 0;

	if (!st)
		return MHD_NO;
	if (arg_number(conn, "from", LONG_MAX, &from) < 0) {
		free(st);
		return send_error(conn, MHD_HTTP_BAD_REQUEST, "from: expected a game number");
	}
	st->e = e;
	catalog_lock(e);
	catalog_refresh(e, false);
	st->generation = e->rec.generation;
	st->end = e->rec.ngames;
	if (visible_bots(v, e, &st->visible, &st->nvisible) < 0)
		st->end = 0;
	catalog_unlock(e);
	st->next = (size_t)from;
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, stream_read, st,
						 stream_free);
	if (!resp) {
		free(st);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/x-ndjson");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* Game g's replay document, or its viewer page. */
static enum MHD_Result send_replay(struct MHD_Connection *conn, struct catalog_entry *e,
				   size_t g, bool page, const struct intake_viewer *v)
{
	char err[PATH_MAX + 512];
	struct jsonw w;
	size_t len;
	int code;
	char *text;

	bool *visible;
	size_t n;

	catalog_lock(e);
	catalog_refresh(e, false);
	/* a game its asker may not see answers as one that does not exist */
	if (visible_bots(v, e, &visible, &n) < 0 || (g < e->rec.ngames &&
	    !api_game_visible(&e->rec.games[g], visible, n)))
		g = SIZE_MAX;
	free(visible);
	text = serve_records_replay(&e->rec, g, &len, &code, err, sizeof(err));
	catalog_unlock(e);
	if (!text)
		return send_error(conn, code == -ENOENT ? MHD_HTTP_NOT_FOUND :
				  code == -EACCES ? MHD_HTTP_FORBIDDEN :
				  MHD_HTTP_INTERNAL_SERVER_ERROR, err);
	if (!page)
		return respond(conn, MHD_HTTP_OK, "application/json", text, len,
			    MHD_RESPMEM_MUST_FREE);
	if (replay_check(text, len, NULL, err, sizeof(err)) != 0) {
		free(text);
		return send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, err);
	}
	jsonw_init(&w);
	code = viewer_format(&w, text, len);
	free(text);
	if (code < 0) {
		jsonw_release(&w);
		return send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	return send_w(conn, MHD_HTTP_OK, "text/html; charset=utf-8", &w);
}

/* A league's chart, an HTML fragment the page puts in place; called under e's lock. */
static enum MHD_Result send_chart(struct MHD_Connection *conn, struct catalog_entry *e,
				  struct jsonw *w)
{
	int rc = api_league_chart(e, w);

	catalog_unlock(e);
	if (rc < 0) {
		jsonw_release(w);
		return rc == -ENOENT ? send_error(conn, MHD_HTTP_NOT_FOUND, "not a league") :
			send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	return send_w(conn, MHD_HTTP_OK, "text/html; charset=utf-8", w);
}

/* /api/t/N/...: part 3 on. */
static enum MHD_Result route_entry_api(struct MHD_Connection *conn, struct catalog_entry *e,
				       const struct route *r, const struct intake_viewer *v)
{
	struct api_games_query q;
	struct jsonw w;
	size_t k;
	int rc;

	if (r->n == 4 && part_is(r, 3, "games.jsonl"))
		return send_stream(conn, e, v);
	if (r->n == 6 && part_is(r, 3, "game") && part_number(r, 4, &k) == 0 &&
	    part_is(r, 5, "replay"))
		return send_replay(conn, e, k, false, v);
	if (r->n == 4 && part_is(r, 3, "games") && games_query(conn, &q) < 0)
		return send_error(conn, MHD_HTTP_BAD_REQUEST, "offset, limit (at most 1000), "
				  "bot, vs: numbers; fault: a fault kind or any; order: newest "
				  "or oldest");
	jsonw_init(&w);
	catalog_lock(e);
	catalog_refresh(e, false);
	/* only what shows the ranking pays for its fit */
	if ((r->n == 4 && part_is(r, 3, "ranking")) || (r->n == 5 && part_is(r, 3, "bot")))
		catalog_fit(e);
	if (r->n == 3)
		rc = api_summary(e, &w);
	else if (r->n == 4 && part_is(r, 3, "ranking"))
		rc = api_ranking(e, &w);
	else if (r->n == 4 && part_is(r, 3, "shards"))
		rc = api_shards(e, &w);
	else if (r->n == 4 && part_is(r, 3, "games")) {
		bool *visible;
		if ((rc = visible_bots(v, e, &visible, &q.nvisible)) == 0) {
			q.visible = visible;
			rc = api_games(e, &q, &w);
			free(visible);
		}
	}
	else if (r->n == 5 && part_is(r, 3, "bot") && part_number(r, 4, &k) == 0)
		rc = api_bot(e, k, &w);
	else if (r->n == 5 && part_is(r, 3, "league") && part_is(r, 4, "chart"))
		return send_chart(conn, e, &w);
	else
		rc = -ENOENT;
	catalog_unlock(e);
	return send_json(conn, rc, &w);
}

static enum MHD_Result send_page(struct MHD_Connection *conn)
{
	return respond(conn, MHD_HTTP_OK, "text/html; charset=utf-8", (char *)serve_page,
		    strlen(serve_page), MHD_RESPMEM_PERSISTENT);
}

/* Entry id; a tournament that started since the last walk is looked for first. */
static struct catalog_entry *entry_of(struct server *s, const struct route *r, size_t i)
{
	struct catalog_entry *e;
	size_t id;

	if (part_number(r, i, &id) < 0)
		return NULL;
	if (!(e = catalog_entry(s->catalog, id))) {
		catalog_scan(s->catalog);
		e = catalog_entry(s->catalog, id);
	}
	return e;
}

static enum MHD_Result route_as(struct server *s, struct MHD_Connection *conn, const char *url,
				const struct intake_viewer *v)
{
	struct catalog_entry *e = NULL;
	struct route r;
	struct jsonw w;
	size_t k;

	route_split(url, &r);
	if (r.n == 0)
		return send_page(conn);
	if (r.n == 2 && part_is(&r, 0, "api") && part_is(&r, 1, "tournaments")) {
		jsonw_init(&w);
		return send_json(conn, api_index(s->catalog, &w), &w);
	}
	if (r.n >= 3 && part_is(&r, 0, "api") && part_is(&r, 1, "t") && (e = entry_of(s, &r, 2)))
		return route_entry_api(conn, e, &r, v);
	if (r.n >= 2 && part_is(&r, 0, "t") && (e = entry_of(s, &r, 1))) {
		if (r.n == 2 || (r.n == 4 && part_is(&r, 2, "bot") && part_number(&r, 3, &k) == 0))
			return send_page(conn);
		if (r.n == 4 && part_is(&r, 2, "game") && part_number(&r, 3, &k) == 0)
			return send_replay(conn, e, k, true, v);
	}
	return send_error(conn, MHD_HTTP_NOT_FOUND, "no such page");
}

/* The read-only routes, their games shown as public_games says (intake.h). */
static enum MHD_Result route(struct server *s, struct MHD_Connection *conn, const char *url)
{
	struct intake_viewer v = { .all = true };
	enum MHD_Result ret;

	if (s->intake && intake_viewer(s->intake, conn, &v) < 0)
		return send_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	ret = route_as(s, conn, url, &v);
	intake_viewer_release(&v);
	return ret;
}

/*
 * Whether the Host header names this machine's loopback. A web page on
 * another site can point a name of its own at 127.0.0.1 (DNS rebinding);
 * its requests then carry that name, and are refused.
 */
static bool local_host(struct MHD_Connection *conn)
{
	static const char *const names[] = { "127.0.0.1", "localhost", "[::1]" };
	const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						       MHD_HTTP_HEADER_HOST);

	if (!host)
		return true; /* HTTP/1.0 without one: no browser */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);
		if (!strncasecmp(host, names[i], n) && (!host[n] || host[n] == ':'))
			return true;
	}
	return false;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	static const struct reply_extra read_only = { .allow = "GET, HEAD" };
	struct server *s = cls;
	enum MHD_Result ret;
	bool handled = false;

	(void)version;
	if (s->loopback && !local_host(conn))
		return send_error(conn, MHD_HTTP_FORBIDDEN, "Host: expected 127.0.0.1, localhost "
				  "or [::1] (listen on another address to be reached by other names)");
	if (s->intake) {
		ret = intake_request(s->intake, conn, url, method, upload_data, upload_data_size,
				     con_cls, &handled);
		if (handled)
			return ret;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "read only: GET and HEAD",
				   &read_only);
	return route(s, conn, url);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct server *s = cls;

	(void)conn;
	(void)toe;
	if (s->intake)
		intake_completed(s->intake, con_cls);
}

/*
 * URLs are taken as sent, percent escapes and all: no URL of ours needs one,
 * so "%2F", "%2e%2e" or "%00" never turn into a separator, a dot or the end
 * of a name; they match no route.
 */
static size_t no_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	(void)cls;
	(void)conn;
	return strlen(s);
}

/* "ADDR:PORT" or "[ADDR6]:PORT" into addr. 0, or -EINVAL with err. */
static int parse_listen(const char *listen, struct sockaddr_storage *addr, char *err,
			size_t err_size)
{
	char host[256];
	const char *colon = strrchr(listen, ':'), *h = listen;
	size_t hlen = colon ? (size_t)(colon - listen) : 0;
	struct addrinfo hints = { .ai_flags = AI_NUMERICSERV, .ai_socktype = SOCK_STREAM }, *res;
	char *end;
	long port = colon ? strtol(colon + 1, &end, 10) : -1;

	if (hlen >= 2 && h[0] == '[' && h[hlen - 1] == ']') {
		h++;
		hlen -= 2;
	}
	if (!colon || !colon[1] || *end || port < 0 || port > 65535 || hlen == 0 ||
	    hlen >= sizeof(host)) {
		snprintf(err, err_size, "\"%s\": expected ADDR:PORT, such as 127.0.0.1:8080",
			 listen);
		return -EINVAL;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	if (getaddrinfo(host, colon + 1, &hints, &res) != 0) {
		snprintf(err, err_size, "\"%s\": no such address", listen);
		return -EINVAL;
	}
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

/* As many clients as the open-file limit allows, up to SERVE_CLIENTS_MAX. */
static unsigned clients_max(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 256;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > SERVE_CLIENTS_MAX + 128)
		return SERVE_CLIENTS_MAX;
	return rl.rlim_cur > 192 ? (unsigned)(rl.rlim_cur - 128) : 64;
}

static void set_url(struct server *s, const struct sockaddr_storage *addr)
{
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon,
							       MHD_DAEMON_INFO_BIND_PORT);
	char host[INET6_ADDRSTRLEN] = "127.0.0.1";
	unsigned port = info ? info->port : 0;

	if (addr->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)addr)->sin6_addr, host,
			  sizeof(host));
		snprintf(s->url, sizeof(s->url), "%s://[%s]:%u/", s->cert ? "https" : "http", host,
			 port);
	} else {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)addr)->sin_addr, host,
			  sizeof(host));
		snprintf(s->url, sizeof(s->url), "%s://%s:%u/", s->cert ? "https" : "http", host,
			 port);
	}
}

/* The whole of a PEM file, NUL-terminated; NULL with err. */
static char *read_pem(const char *path, const char *what, char *err, size_t err_size)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;

	if (!f) {
		snprintf(err, err_size, "%s \"%s\": %s", what, path, strerror(errno));
		return NULL;
	}
	if (getdelim(&text, &len, '\0', f) < 0 || !text || !*text) {
		snprintf(err, err_size, "%s \"%s\": empty or unreadable (expected PEM)", what,
			 path);
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

static int start(struct server *s, const char *listen, char *err, size_t err_size)
{
	struct sockaddr_storage addr = { 0 };
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD;
	int rc;

	if ((rc = parse_listen(listen ? listen : SERVE_DEFAULT_LISTEN, &addr, err, err_size)) < 0)
		return rc;
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (s->cert)
		flags |= MHD_USE_TLS;
	s->loopback = addr.ss_family == AF_INET6 ?
		IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&addr)->sin6_addr) :
		(ntohl(((struct sockaddr_in *)&addr)->sin_addr.s_addr) >> 24) == 127;
	errno = 0;
	s->daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVE_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, clients_max(),
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_IDLE_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_CONNECTION_MEMORY,
		MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
		MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
		s->cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, s->cert,
		MHD_OPTION_HTTPS_MEM_KEY, s->key,
		MHD_OPTION_END);
	if (!s->daemon) {
		rc = errno ? -errno : s->cert ? -EINVAL : -EADDRINUSE;
		snprintf(err, err_size, "cannot serve on \"%s\": %s%s",
			 listen ? listen : SERVE_DEFAULT_LISTEN, strerror(-rc), rc == -EADDRINUSE ?
			 " (another program has that port: name another with --listen, or let the "
			 "system choose a free one with --listen 127.0.0.1:0)" : s->cert && !errno ?
			 " (the certificate and key were not accepted: check that they are PEM and "
			 "belong together)" : "");
		return rc;
	}
	set_url(s, &addr);
	return 0;
}

int server_start(const char *const *dirs, size_t ndirs, const char *listen, bool missing_ok,
		 struct server **out, char *err, size_t err_size)
{
	struct server *s;
	int rc;

	*out = NULL;
	if (!(s = calloc(1, sizeof(*s)))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	if ((rc = catalog_new(dirs, ndirs, missing_ok, &s->catalog, err, err_size)) < 0 ||
	    (rc = start(s, listen, err, err_size)) < 0) {
		server_stop(s);
		return rc;
	}
	*out = s;
	return 0;
}

int server_start_host(const char *dir, const char *listen, const char *cert, const char *key,
		      struct intake *intake, struct server **out, char *err, size_t err_size)
{
	struct server *s;
	int rc = -EINVAL;

	*out = NULL;
	if (!cert != !key) {
		snprintf(err, err_size, "--cert and --key go together: name both files for HTTPS, "
			 "or neither for HTTP");
		return -EINVAL;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	s->intake = intake;
	if ((cert && (!(s->cert = read_pem(cert, "--cert", err, err_size)) ||
		      !(s->key = read_pem(key, "--key", err, err_size)))) ||
	    (rc = catalog_new(&dir, 1, false, &s->catalog, err, err_size)) < 0 ||
	    (rc = start(s, listen, err, err_size)) < 0) {
		server_stop(s);
		return rc;
	}
	*out = s;
	return 0;
}

const char *server_url(const struct server *s)
{
	return s->url;
}

void server_stop(struct server *s)
{
	if (!s)
		return;
	if (s->daemon)
		MHD_stop_daemon(s->daemon);
	catalog_free(s->catalog);
	if (s->key)
		explicit_bzero(s->key, strlen(s->key));
	free(s->key);
	free(s->cert);
	free(s);
}
