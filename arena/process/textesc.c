/*
 * textesc.c - bot bytes escaped with vis(3) (contract in textesc.h).
 */
#define LIBBSD_NETBSD_VIS /* strnvisx, the NetBSD interface libbsd documents */
#include "textesc.h"

#include <string.h>
#include <vis.h>

#define VIS_FLAGS (VIS_OCTAL | VIS_TAB | VIS_NL | VIS_NOSLASH | VIS_NOLOCALE)

size_t textesc_escape(char *dst, const char *s, size_t n)
{
	size_t out = 0, i = 0;

	while (i < n) {
		size_t end = i;
		int k;

		while (end < n && textesc_is_plain((unsigned char)s[end]))
			end++;
		memcpy(dst + out, s + i, end - i);
		out += end - i;
		i = end;
		while (end < n && !textesc_is_plain((unsigned char)s[end]))
			end++;
		if (end == i)
			continue;
		/* vis writes at most TEXTESC_BYTE_MAX per byte and a NUL: always room */
		k = strnvisx(dst + out, (end - i) * TEXTESC_BYTE_MAX + 1, s + i, end - i, VIS_FLAGS);
		out += k < 0 ? 0 : (size_t)k;
		i = end;
	}
	dst[out] = '\0';
	return out;
}
