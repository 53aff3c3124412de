/*
 * jsonc_strip.h - JSONC read as JSON: comments and trailing commas blanked,
 * so that the strict reader (json_strict.h) reads the rest.
 *
 * JSONC text may hold line (//) and block (slash-star) comments and trailing
 * commas (`[1, 2,]`, `{"a": 1,}`: the natural edit after commenting out a
 * last element). jsonc_strip() blanks both with spaces, keeping every other
 * byte, newline and offset, so the strict reader's line and column are
 * those of the file. Pure: no allocation, no I/O.
 *
 * A reader that finds places in the stripped text (the tournament file's
 * error messages, arena/tournament/jsonc.h) steps over strings and white
 * space with the same two scanners.
 */
#ifndef SKIPBO_JSONC_STRIP_H
#define SKIPBO_JSONC_STRIP_H

#include <stddef.h>

/* Blank comments and trailing commas outside strings, in place (see above).
 * A comma after another comma or an opening bracket stays, for the strict
 * reader to refuse where it is. */
void jsonc_strip(char *text, size_t len);

/* The offset just past the string that starts at text[i] == '"' (len when
 * it is not closed); an escaped quote does not close it. */
size_t jsonc_skip_string(const char *text, size_t len, size_t i);

/* The first offset from i on that is not JSON white space (len at the end). */
size_t jsonc_skip_space(const char *text, size_t len, size_t i);

#endif
