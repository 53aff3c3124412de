/*
 * termsafe.c - bot text escaped for a terminal (contract in termsafe.h); the
 * rule itself is process/textesc.c, which the stderr log uses too.
 */
#include "termsafe.h"

#include <string.h>

void termsafe_write(FILE *out, const char *s, size_t len)
{
	char esc[TEXTESC_BYTE_MAX + 1];
	size_t i = 0;

	while (i < len) {
		size_t end = i, k;

		while (end < len && (k = textesc_plain(s + end, len - end, TEXTESC_UTF8)) > 0)
			end += k;
		fwrite(s + i, 1, end - i, out);
		if (end < len) {
			fwrite(esc, 1, textesc_escape(esc, s + end, 1, TEXTESC_UTF8), out);
			end++;
		}
		i = end;
	}
}

void termsafe_puts(FILE *out, const char *s)
{
	termsafe_write(out, s, strlen(s));
}

const char *termsafe_copy(char *dst, size_t size, const char *s)
{
	char esc[TEXTESC_BYTE_MAX + 1];
	size_t len = strlen(s), i = 0, n = 0;

	/* a character or an escape at a time: cut between them, never inside one */
	while (i < len) {
		size_t k = textesc_plain(s + i, len - i, TEXTESC_UTF8), m = k;
		const char *piece = s + i;

		if (k == 0) {
			m = textesc_escape(esc, s + i, 1, TEXTESC_UTF8);
			piece = esc;
			k = 1;
		}
		if (n + m >= size)
			break;
		memcpy(dst + n, piece, m);
		n += m;
		i += k;
	}
	dst[n] = '\0';
	return dst;
}
