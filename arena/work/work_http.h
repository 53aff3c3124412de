/*
 * work_http.h - a worker's requests to the host (arena/WORKERS.md, "The
 * protocol") over libcurl: the token as a bearer, HTTPS checked against the
 * system's CAs or a CA file of its own, answers read whole up to a cap.
 *
 * One struct work_http is one connection reused request after request; it is
 * used by one thread at a time (the loop, or a lease's sender).
 */
#ifndef SKIPBO_WORK_HTTP_H
#define SKIPBO_WORK_HTTP_H

#include <stddef.h>

/* The largest answer read (a lease document); a bundle has its own cap (bundle.h). */
#define WORK_HTTP_ANSWER_MAX (4u << 20)

struct work_http {
	void *curl;            /* CURL * */
	char *base;            /* the host's URL without trailing '/' */
	void *headers;         /* struct curl_slist *: the bearer */
	const char *cacert;    /* the CA file, or NULL: the system's */
};

/* An answer: the HTTP status, the body (NUL-terminated, malloc'd), Retry-After. */
struct work_answer {
	long status;
	char *body;
	size_t len;
	long retry_after;      /* seconds; -1 when absent */
};

/*
 * A client of the host at url with token (copied) and cacert (kept, may be
 * NULL). 0, or a negative errno with a sentence in err.
 */
int work_http_init(struct work_http *h, const char *url, const char *token, const char *cacert,
		   char *err, size_t err_size);
void work_http_release(struct work_http *h);

/*
 * method ("GET", "POST") path (under the host's URL, no leading '/') with
 * body (len bytes of content_type; NULL: none) into *a (release it), an answer
 * over max bytes refused. 0 with
 * any HTTP status, or -EIO when no answer came (a is empty) with what curl
 * said in err.
 */
int work_http_request(struct work_http *h, const char *method, const char *path,
		      const char *content_type, const char *body, size_t len, size_t max,
		      struct work_answer *a, char *err, size_t err_size);

void work_answer_release(struct work_answer *a);

/*
 * The libcurl setup every request of the arena's shares: the worker's here,
 * and `submit`'s (cmd_submit.c). curl and headers are a CURL * and a struct
 * curl_slist *, so that this header needs no curl.h.
 */

/* The header "Authorization: Bearer <token>" as a new one-element list, the
 * formatted copy of the token wiped; NULL when out of memory. The caller
 * frees it with curl_slist_free_all(). */
void *work_http_bearer(const char *token);

/* An answer being read: into a, up to max bytes. */
struct work_http_reading {
	struct work_answer *a;
	size_t max;
};

/*
 * curl reset and set for one request of url with headers (kept by the caller
 * until the request ends): no signals, http:// and https:// only, the CA file
 * cacert (NULL: the system's), connect_s seconds to connect and total_s for
 * the whole request (0: no bound), the answer's body and Retry-After read
 * into r->a (r kept until the request ends), an answer over r->max bytes
 * failing the request with CURLE_WRITE_ERROR. A POST's own options are the
 * caller's, set after this.
 */
void work_http_setup(void *curl, const char *url, void *headers, const char *cacert,
		     long connect_s, long total_s, struct work_http_reading *r);

/* The "error" sentence of a refusal's body, else the body, else the status. Into out. */
void work_answer_reason(const struct work_answer *a, char *out, size_t size);

#endif
