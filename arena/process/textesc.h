/*
 * textesc.h - bytes that came from a bot, escaped so that no terminal, log
 * viewer or line-based reader takes them for anything but text. A leaf, and
 * the one rule of what passes: the stderr log (bot_io.c) and the terminal
 * (game/termsafe.c) share it.
 *
 * An escaped byte is a three-digit octal escape, "\033" for ESC, "\015" for
 * CR, by libbsd's vis(3) (VIS_OCTAL, C locale). A backslash is left as it
 * is, so JSON stays readable. Printable ASCII (0x20 to 0x7e) passes in both
 * modes:
 *
 * - TEXTESC_ASCII, for the stderr logs: every other byte is escaped (the C0
 *   and C1 controls, DEL, and the bytes of UTF-8 text). A log is read by
 *   tools that know no encoding, and stays plain ASCII.
 * - TEXTESC_UTF8, for a terminal: a whole, valid UTF-8 character passes as
 *   it is ("jäger"), except the C1 controls (U+0080 to U+009F) and the
 *   bidirectional overrides and isolates (U+202A to U+202E, U+2066 to
 *   U+2069), which reorder what a terminal shows. Every byte of invalid
 *   UTF-8 (a stray continuation byte, a sequence cut short, an overlong
 *   form, a surrogate, past U+10FFFF) is escaped, each on its own.
 */
#ifndef SKIPBO_TEXTESC_H
#define SKIPBO_TEXTESC_H

#include <stddef.h>

/* Longest escape of one byte, "\ooo". */
#define TEXTESC_BYTE_MAX 4

enum textesc_mode { TEXTESC_ASCII, TEXTESC_UTF8 };

/*
 * How many bytes at the start of s[0..n) pass as they are: 1 for printable
 * ASCII, 2 to 4 for a character that passes in mode; 0 when s[0] is escaped
 * (or n is 0).
 */
size_t textesc_plain(const char *s, size_t n, enum textesc_mode mode);

/*
 * The escaped form of s[0..n) into dst, which holds at least
 * n * TEXTESC_BYTE_MAX + 1 bytes; NUL-terminated. Returns its length.
 */
size_t textesc_escape(char *dst, const char *s, size_t n, enum textesc_mode mode);

#endif
