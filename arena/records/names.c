/*
 * names.c - the one rule for names (names.h).
 */
#include "names.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The length of the UTF-8 letter text starts with (within avail bytes), or 0: a well-formed sequence
 * (no overlong form, no surrogate) of a code point from U+00C0 on, less
 * what is no letter and could hide or reorder text on a terminal: the
 * multiplication and division signs, the spaces, joiners, direction marks
 * and punctuation of U+2000 to U+206F, the ideographic space and
 * punctuation, the variation selectors, the byte order mark and the
 * specials.
 */
size_t names_utf8_letter(const char *text, size_t avail)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	uint32_t c = n == 4 ? s[0] & 0x07u : n == 3 ? s[0] & 0x0fu : s[0] & 0x1fu;

	if (!n || s[0] > 0xf4 || n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || c < 0xc0 || c == 0xd7 || c == 0xf7 ||
	    (c >= 0x2000 && c <= 0x206f) || (c >= 0x3000 && c <= 0x303f) ||
	    (c >= 0xfe00 && c <= 0xfe0f) || c == 0xfeff || (c >= 0xfff0 && c <= 0xffff) ||
	    (c >= 0xe0000))
		return 0;
	return n;
}

int names_valid(const char *s)
{
	size_t len = strlen(s);

	if (!len || len > NAMES_LEN_MAX || *s == '.')
		return 0;
	for (const char *end = s + len; *s;) {
		size_t n = (unsigned char)*s >= 0x80 ? names_utf8_letter(s, (size_t)(end - s)) : 1;

		if (!n || (n == 1 && !isalnum((unsigned char)*s) && *s != '-' && *s != '_' &&
			   *s != '.'))
			return 0;
		s += n;
	}
	return 1;
}
