/*
 * termsafe.h - text that came from a bot (its lines, hello, fault reasons that
 * quote it, names read from files), made safe to print on a terminal.
 *
 * A bot's bytes must not reach a terminal raw: an escape sequence in a line
 * could clear the screen, retitle the window or rewrite what the person
 * debugging the bot reads. The rule is process/textesc.h's TEXTESC_UTF8:
 * printable ASCII and valid UTF-8 text ("jäger") pass as they are; the C0
 * and C1 controls, DEL, the bidirectional overrides and isolates, and every
 * byte of invalid UTF-8 are written as three-digit octal escapes, "\033" for
 * ESC, "\012" for a newline. A backslash is left as it is, so JSON lines stay
 * readable. (The stderr logs keep to plain ASCII: textesc.h.)
 */
#ifndef SKIPBO_TERMSAFE_H
#define SKIPBO_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

#include "textesc.h"

/* Longest escape of one byte, "\ooo". */
#define TERMSAFE_BYTE_MAX TEXTESC_BYTE_MAX

/* Write len bytes of s to out, escaped. */
void termsafe_write(FILE *out, const char *s, size_t len);

/* Same for a NUL-terminated string. */
void termsafe_puts(FILE *out, const char *s);

/*
 * The escaped form of the NUL-terminated s in dst[size] (size > 0), cut at a
 * whole escape when it does not fit; returns dst, so it can be a printf
 * argument.
 */
const char *termsafe_copy(char *dst, size_t size, const char *s);

#endif
