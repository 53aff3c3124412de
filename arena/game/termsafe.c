/*
 * termsafe.c - bot text escaped for a terminal (contract in termsafe.h).
 */
#define LIBBSD_NETBSD_VIS /* strnvisx, the NetBSD interface libbsd documents */
#include "termsafe.h"

#include <string.h>
#include <vis.h>

#define VIS_FLAGS (VIS_OCTAL | VIS_TAB | VIS_NL | VIS_NOSLASH | VIS_NOLOCALE)
#define CHUNK 256

static int is_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Escape n (<= CHUNK) bytes that are all not plain; dst holds CHUNK escapes. */
static void escape_run(char *dst, const char *s, size_t n)
{
	/* vis writes at most TERMSAFE_BYTE_MAX per byte and a NUL: always room */
	if (strnvisx(dst, CHUNK * TERMSAFE_BYTE_MAX + 1, s, n, VIS_FLAGS) < 0)
		dst[0] = '\0';
}

void termsafe_write(FILE *out, const char *s, size_t len)
{
	char esc[CHUNK * TERMSAFE_BYTE_MAX + 1];
	size_t i = 0;

	while (i < len) {
		size_t end = i;

		while (end < len && is_plain((unsigned char)s[end]))
			end++;
		fwrite(s + i, 1, end - i, out);
		i = end;
		while (end < len && !is_plain((unsigned char)s[end]) && end - i < CHUNK)
			end++;
		if (end > i) {
			escape_run(esc, s + i, end - i);
			fputs(esc, out);
			i = end;
		}
	}
}

void termsafe_puts(FILE *out, const char *s)
{
	termsafe_write(out, s, strlen(s));
}

const char *termsafe_copy(char *dst, size_t size, const char *s)
{
	char esc[CHUNK * TERMSAFE_BYTE_MAX + 1];
	size_t n = 0;

	for (; *s; s++) {
		size_t k;

		if (is_plain((unsigned char)*s)) {
			esc[0] = *s;
			esc[1] = '\0';
		} else {
			escape_run(esc, s, 1);
		}
		k = strlen(esc);
		if (n + k >= size)
			break;
		memcpy(dst + n, esc, k);
		n += k;
	}
	dst[n] = '\0';
	return dst;
}
