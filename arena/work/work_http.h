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

/* The "error" sentence of a refusal's body, else the body, else the status. Into out. */
void work_answer_reason(const struct work_answer *a, char *out, size_t size);

#endif
