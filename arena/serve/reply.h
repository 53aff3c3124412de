/*
 * reply.h - the responses of `serve` and `host` (libmicrohttpd): one place
 * that sets the headers every answer carries (no sniffing, no referrer, no
 * caching, the pages' content policy) and an error's JSON document.
 *
 * Every function queues the response on conn and returns what
 * MHD_queue_response did (MHD_NO: the connection is closed).
 */
#ifndef SKIPBO_REPLY_H
#define SKIPBO_REPLY_H

#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonw.h"

/* Headers some answers add; zero for none. */
struct reply_extra {
	long retry_after;        /* seconds, with 429 or 503; 0: none */
	const char *set_cookie;  /* a Set-Cookie value, or NULL */
	const char *allow;       /* the Allow header of a 405, or NULL */
};

/* data (len bytes) as the body; mode says who frees it (freed on failure too). */
enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type, char *data,
		      size_t len, enum MHD_ResponseMemoryMode mode, const struct reply_extra *x);

/* size bytes of the open file fd as the body; fd is closed when sent (or on failure). */
enum MHD_Result reply_fd(struct MHD_Connection *conn, unsigned status, const char *type, int fd,
			 uint64_t size);

/* w's text as the body; w is emptied (the response owns its memory). */
enum MHD_Result reply_w(struct MHD_Connection *conn, unsigned status, const char *type,
			struct jsonw *w, const struct reply_extra *x);

/* {"error": why} with status. */
enum MHD_Result reply_error(struct MHD_Connection *conn, unsigned status, const char *why,
			    const struct reply_extra *x);

#endif
