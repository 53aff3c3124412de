/*
 * jsonw.c - hand-written JSON text (contract in jsonw.h).
 */
#include "jsonw.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jsonw_init(struct jsonw *w)
{
	memset(w, 0, sizeof(*w));
}

void jsonw_release(struct jsonw *w)
{
	free(w->data);
	jsonw_init(w);
}

void jsonw_reset(struct jsonw *w)
{
	w->len = 0;
	w->error = 0;
	if (w->data)
		w->data[0] = '\0';
}

static int reserve(struct jsonw *w, size_t more)
{
	size_t cap;
	char *nd;

	if (w->error)
		return -1;
	if (w->len + more + 1 <= w->cap)
		return 0;
	cap = w->cap ? w->cap : 256;
	while (cap < w->len + more + 1)
		cap *= 2;
	if (!(nd = realloc(w->data, cap))) {
		w->error = -ENOMEM;
		return -1;
	}
	w->data = nd;
	w->cap = cap;
	return 0;
}

void jsonw_raw(struct jsonw *w, const char *s, size_t len)
{
	if (reserve(w, len) < 0)
		return;
	memcpy(w->data + w->len, s, len);
	w->len += len;
	w->data[w->len] = '\0';
}

void jsonw_text(struct jsonw *w, const char *s)
{
	jsonw_raw(w, s, strlen(s));
}

void jsonw_printf(struct jsonw *w, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	if (reserve(w, 64) < 0)
		return;
	room = w->cap - w->len;
	va_start(ap, fmt);
	n = vsnprintf(w->data + w->len, room, fmt, ap);
	va_end(ap);
	if (n < 0) {
		w->data[w->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		if (reserve(w, (size_t)n) < 0) {
			w->data[w->len] = '\0';
			return;
		}
		va_start(ap, fmt);
		vsnprintf(w->data + w->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	w->len += (size_t)n;
}

void jsonw_int(struct jsonw *w, long long v)
{
	char digits[24];
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	size_t n = sizeof(digits);

	do {
		digits[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		digits[--n] = '-';
	jsonw_raw(w, digits + n, sizeof(digits) - n);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t left)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (n > left)
		return 0;
	cp = s[0] & (0x3f >> (n - 1));
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* Bot lines may hold anything: invalid UTF-8 becomes U+FFFD so the JSON stays valid. */
void jsonw_string_n(struct jsonw *w, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	if (reserve(w, len * 6 + 2) < 0)
		return;
	w->data[w->len++] = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			w->data[w->len++] = '\\';
			w->data[w->len++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(w->data + w->len, "\\u00", 4);
			w->data[w->len + 4] = hex[c >> 4];
			w->data[w->len + 5] = hex[c & 15];
			w->len += 6;
		} else if (c < 0x80) {
			w->data[w->len++] = (char)c;
		} else {
			size_t n = utf8_sequence((const unsigned char *)s + i, len - i);

			if (n == 0) {
				memcpy(w->data + w->len, "\\ufffd", 6);
				w->len += 6;
			} else {
				memcpy(w->data + w->len, s + i, n);
				w->len += n;
				i += n - 1;
			}
		}
	}
	w->data[w->len++] = '"';
	w->data[w->len] = '\0';
}

void jsonw_string(struct jsonw *w, const char *s)
{
	jsonw_string_n(w, s, strlen(s));
}

void jsonw_int_array(struct jsonw *w, const int *a, size_t n)
{
	jsonw_raw(w, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			jsonw_raw(w, ",", 1);
		jsonw_int(w, a[i]);
	}
	jsonw_raw(w, "]", 1);
}

int jsonw_error(const struct jsonw *w)
{
	return w->error;
}
