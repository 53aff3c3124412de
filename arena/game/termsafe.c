/*
 * termsafe.c - bot text escaped for a terminal (contract in termsafe.h); the
 * escaping itself is process/textesc.c, which the stderr log uses too.
 */
#include "termsafe.h"

#include <string.h>

#include "textesc.h"

#define CHUNK 256

void termsafe_write(FILE *out, const char *s, size_t len)
{
	char esc[CHUNK * TEXTESC_BYTE_MAX + 1];
	size_t i = 0;

	while (i < len) {
		size_t end = i;

		while (end < len && textesc_is_plain((unsigned char)s[end]))
			end++;
		fwrite(s + i, 1, end - i, out);
		i = end;
		while (end < len && !textesc_is_plain((unsigned char)s[end]) && end - i < CHUNK)
			end++;
		if (end > i) {
			textesc_escape(esc, s + i, end - i);
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
	char esc[CHUNK * TEXTESC_BYTE_MAX + 1];
	size_t n = 0;

	for (; *s; s++) {
		size_t k = textesc_escape(esc, s, 1);
		if (n + k >= size)
			break;
		memcpy(dst + n, esc, k);
		n += k;
	}
	dst[n] = '\0';
	return dst;
}
