/*
 * work_http.c - a worker's requests to the host (contract in work_http.h).
 */
#include "work_http.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#define WORK_HTTP_CONNECT_S 20L
/* A request answered slower than this is taken as lost: the loop asks again. */
#define WORK_HTTP_TIMEOUT_S 300L

static size_t on_data(char *p, size_t size, size_t n, void *cls)
{
	struct work_http_reading *r = cls;
	struct work_answer *a = r->a;
	size_t len = size * n;
	char *grown;

	if (a->len + len > r->max || !(grown = realloc(a->body, a->len + len + 1)))
		return 0;
	memcpy(grown + a->len, p, len);
	a->body = grown;
	a->len += len;
	a->body[a->len] = '\0';
	return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *cls)
{
	struct work_http_reading *r = cls;
	size_t len = size * n;
	static const char name[] = "retry-after:";

	if (len > sizeof(name) - 1 && !strncasecmp(p, name, sizeof(name) - 1)) {
		char num[32];
		size_t k = len - (sizeof(name) - 1);

		if (k >= sizeof(num))
			k = sizeof(num) - 1;
		memcpy(num, p + sizeof(name) - 1, k);
		num[k] = '\0';
		r->a->retry_after = strtol(num, NULL, 10);
		if (r->a->retry_after < 0)
			r->a->retry_after = 0;
	}
	return len;
}

void *work_http_bearer(const char *token)
{
	struct curl_slist *list;
	char *auth = NULL;

	if (asprintf(&auth, "Authorization: Bearer %s", token) < 0)
		return NULL;
	list = curl_slist_append(NULL, auth);
	/* the token must not linger in freed memory; curl keeps a copy of its own */
	explicit_bzero(auth, strlen(auth));
	free(auth);
	return list;
}

void work_http_setup(void *curl, const char *url, void *headers, const char *cacert,
		     long connect_s, long total_s, struct work_http_reading *r)
{
	curl_easy_reset(curl);
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, connect_s);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, total_s);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	if (cacert)
		curl_easy_setopt(curl, CURLOPT_CAINFO, cacert);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, r);
}

int work_http_init(struct work_http *h, const char *url, const char *token, const char *cacert,
		   char *err, size_t err_size)
{
	size_t n = strlen(url);

	memset(h, 0, sizeof(*h));
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
		snprintf(err, err_size, "\"%s\" is no http:// or https:// URL", url);
		return -EINVAL;
	}
	while (n > 0 && url[n - 1] == '/')
		n--;
	h->cacert = cacert;
	if (!(h->base = strndup(url, n)) || !(h->headers = work_http_bearer(token)) ||
	    !(h->curl = curl_easy_init())) {
		work_http_release(h);
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

void work_http_release(struct work_http *h)
{
	if (h->curl)
		curl_easy_cleanup(h->curl);
	curl_slist_free_all(h->headers);
	free(h->base);
	memset(h, 0, sizeof(*h));
}

int work_http_request(struct work_http *h, const char *method, const char *path,
		      const char *content_type, const char *body, size_t len, size_t max,
		      struct work_answer *a, char *err, size_t err_size)
{
	struct curl_slist *headers = NULL, *tail;
	struct work_http_reading r = { a, max };
	char *url = NULL, *type = NULL;
	CURLcode c;
	int ret = -EIO;

	memset(a, 0, sizeof(*a));
	a->retry_after = -1;
	if (asprintf(&url, "%s/%s", h->base, path) < 0) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	/* the bearer first, then this request's type: a list of our own, freed here */
	headers = curl_slist_append(NULL, ((struct curl_slist *)h->headers)->data);
	if (headers && content_type && asprintf(&type, "Content-Type: %s", content_type) >= 0 &&
	    (tail = curl_slist_append(headers, type)))
		headers = tail;
	work_http_setup(h->curl, url, headers, h->cacert, WORK_HTTP_CONNECT_S, WORK_HTTP_TIMEOUT_S,
			&r);
	if (!strcmp(method, "POST")) {
		curl_easy_setopt(h->curl, CURLOPT_POST, 1L);
		curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body ? body : "");
		curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(body ? len : 0));
	}
	if ((c = curl_easy_perform(h->curl)) != CURLE_OK) {
		snprintf(err, err_size, "%s %s: %s%s", method, url, curl_easy_strerror(c),
			 c == CURLE_WRITE_ERROR ? " (the answer is over its size limit)" : "");
		work_answer_release(a);
		goto out;
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &a->status);
	if (!a->body && !(a->body = calloc(1, 1))) {
		snprintf(err, err_size, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = 0;
out:
	curl_slist_free_all(headers);
	free(type);
	free(url);
	return ret;
}

void work_answer_release(struct work_answer *a)
{
	free(a->body);
	memset(a, 0, sizeof(*a));
	a->retry_after = -1;
}

void work_answer_reason(const struct work_answer *a, char *out, size_t size)
{
	cJSON *doc = a->body ? cJSON_ParseWithLength(a->body, a->len) : NULL;
	const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "error"));
	size_t n;

	if (why)
		snprintf(out, size, "%s", why);
	else if (a->len)
		snprintf(out, size, "%.*s", (int)(a->len > 300 ? 300 : a->len), a->body);
	else
		snprintf(out, size, "HTTP status %ld", a->status);
	cJSON_Delete(doc);
	/* a host's sentence is shown on a terminal: nothing that could steer it */
	for (n = 0; out[n]; n++)
		if (!isprint((unsigned char)out[n]))
			out[n] = '?';
}
