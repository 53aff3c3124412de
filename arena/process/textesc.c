/*
 * textesc.c - bot bytes escaped with vis(3) (contract in textesc.h).
 */
#define LIBBSD_NETBSD_VIS /* strnvisx, the NetBSD interface libbsd documents */
#include "textesc.h"

#include <stdint.h>
#include <string.h>
#include <vis.h>

#define VIS_FLAGS (VIS_OCTAL | VIS_TAB | VIS_NL | VIS_NOSLASH | VIS_NOLOCALE)

/* The length of the UTF-8 character at s[0..n) if it is valid and may be shown, else 0. */
static size_t shown_character(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t c;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF are no UTF-8 */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	/* C1 controls, and the overrides and isolates that reorder a line on the screen */
	if (c <= 0x9f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
		return 0;
	return len;
}

size_t textesc_plain(const char *s, size_t n, enum textesc_mode mode)
{
	const unsigned char *u = (const unsigned char *)s;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return u[0] >= 0x20 && u[0] < 0x7f;
	return mode == TEXTESC_UTF8 ? shown_character(u, n) : 0;
}

size_t textesc_escape(char *dst, const char *s, size_t n, enum textesc_mode mode)
{
	size_t out = 0, i = 0;

	while (i < n) {
		size_t end = i, k;
		int written;

		while (end < n && (k = textesc_plain(s + end, n - end, mode)) > 0)
			end += k;
		memcpy(dst + out, s + i, end - i);
		out += end - i;
		i = end;
		while (end < n && textesc_plain(s + end, n - end, mode) == 0)
			end++;
		if (end == i)
			continue;
		/* vis writes at most TEXTESC_BYTE_MAX per byte and a NUL: always room */
		written = strnvisx(dst + out, (end - i) * TEXTESC_BYTE_MAX + 1, s + i, end - i,
				   VIS_FLAGS);
		out += written < 0 ? 0 : (size_t)written;
		i = end;
	}
	dst[out] = '\0';
	return out;
}
