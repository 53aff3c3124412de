/*
 * textesc.h - bytes that came from a bot, escaped so that no terminal, log
 * viewer or line-based reader takes them for anything but text. A leaf: the
 * stderr log (bot_io.c) and the terminal (game/termsafe.c) share it.
 *
 * Every byte outside printable ASCII (0x20 to 0x7e) becomes a three-digit
 * octal escape, "\033" for ESC, "\015" for CR, by libbsd's vis(3)
 * (VIS_OCTAL, C locale): the C0 and C1 controls, DEL, and the bytes of
 * UTF-8 text. A backslash is left as it is, so JSON stays readable.
 */
#ifndef SKIPBO_TEXTESC_H
#define SKIPBO_TEXTESC_H

#include <stdbool.h>
#include <stddef.h>

/* Longest escape of one byte, "\ooo". */
#define TEXTESC_BYTE_MAX 4

/* Is c written as it is? */
static inline bool textesc_is_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/*
 * The escaped form of s[0..n) into dst, which holds at least
 * n * TEXTESC_BYTE_MAX + 1 bytes; NUL-terminated. Returns its length.
 */
size_t textesc_escape(char *dst, const char *s, size_t n);

#endif
