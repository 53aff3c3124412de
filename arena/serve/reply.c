/*
 * reply.c - the responses of `serve` and `host` (contract in reply.h).
 */
#include "reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Pages and the viewer run inline scripts and fetch this origin only. */
static const char page_policy[] =
	"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
	"img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
	"frame-ancestors 'none'";

/* Every answer's headers, and x's. */
static void add_headers(struct MHD_Response *resp, const char *type, const struct reply_extra *x)
{
	char num[32];

	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(resp, "Content-Security-Policy", page_policy);
	if (x && x->allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, x->allow);
	if (x && x->set_cookie)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, x->set_cookie);
	if (x && x->retry_after > 0) {
		snprintf(num, sizeof(num), "%ld", x->retry_after);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, num);
	}
}

static enum MHD_Result queue(struct MHD_Connection *conn, unsigned status, const char *type,
			     struct MHD_Response *resp, const struct reply_extra *x)
{
	enum MHD_Result ret;

	add_headers(resp, type, x);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type, char *data,
		      size_t len, enum MHD_ResponseMemoryMode mode, const struct reply_extra *x)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, data, mode);

	if (!resp) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(data);
		return MHD_NO;
	}
	return queue(conn, status, type, resp, x);
}

enum MHD_Result reply_fd(struct MHD_Connection *conn, unsigned status, const char *type, int fd,
			 uint64_t size)
{
	struct MHD_Response *resp = MHD_create_response_from_fd64(size, fd);

	if (!resp) {
		close(fd);
		return MHD_NO;
	}
	return queue(conn, status, type, resp, NULL);
}

enum MHD_Result reply_w(struct MHD_Connection *conn, unsigned status, const char *type,
			struct jsonw *w, const struct reply_extra *x)
{
	char *data = w->data;
	size_t len = w->len;

	if (jsonw_error(w)) {
		jsonw_release(w);
		return MHD_NO;
	}
	jsonw_init(w);
	return reply(conn, status, type, data ? data : (char *)"", len,
		     data ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT, x);
}

enum MHD_Result reply_error(struct MHD_Connection *conn, unsigned status, const char *why,
			    const struct reply_extra *x)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_text(&w, "{\"error\":");
	jsonw_string(&w, why);
	jsonw_text(&w, "}\n");
	return reply_w(conn, status, "application/json", &w, x);
}
