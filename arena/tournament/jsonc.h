/*
 * jsonc.h - what points a person at a place in a tournament file.
 *
 * The file is JSONC: protocol/jsonc_strip.h blanks its comments and trailing
 * commas, keeping every offset, and the strict reader reads the result. What
 * is here serves the error messages about it: where a key path is in the
 * text, the line and caret under a position, the nearest of a list of words,
 * and the errors gathered and formatted for a terminal (termsafe.h).
 */
#ifndef SKIPBO_JSONC_H
#define SKIPBO_JSONC_H

#include <stddef.h>

/* Errors a reader found, kept up to a bound (then only counted). */
#define JSONC_ERRORS_MAX 20
#define JSONC_MESSAGE_MAX 480
struct jsonc_errors {
	size_t n, more;       /* kept; found past the bound */
	struct {
		char path[128];   /* where (jsonc_locate), e.g. "bots[1].command" */
		int at_key;       /* point at the member's key, not its value */
		long offset;      /* >= 0: the place, a byte offset, rather than path */
		char message[JSONC_MESSAGE_MAX];
	} at[JSONC_ERRORS_MAX];
};

/*
 * The offset in text (valid JSON after jsonc_strip(), jsonc_strip.h) of the value that path
 * names: "time.move_ms", "bots[1].command", "challengers[2]", "" (the root
 * value); with at_key, of a member's key rather than its value. When the
 * path goes further than the text (a missing key), the offset of the
 * deepest part found: the member or element above it, or the root.
 */
size_t jsonc_locate(const char *text, size_t len, const char *path, int at_key);

/* The 1-based line and column (in bytes) of offset. */
void jsonc_line_column(const char *text, size_t len, size_t offset, unsigned long *line,
		       unsigned long *column);

/*
 * The line holding offset, then a line with a caret under offset (tabs kept,
 * so the caret lines up), each indented by two spaces and ended with a
 * newline, appended to out (NUL-terminated, truncated to size). A line longer
 * than 160 bytes is shown as the 160 around offset. Bytes outside printable
 * ASCII are shown as '?'.
 */
void jsonc_excerpt(const char *text, size_t len, size_t offset, char *out, size_t size);

/*
 * The index of the word in words (NULL-terminated) nearest to word by edit
 * distance, when it is near enough to be a likely misspelling (at most a
 * third of the longer word's letters, and at most 3, apart); -1 otherwise.
 */
int jsonc_nearest(const char *word, const char *const *words);

/*
 * Record an error about the value at path ("" for the whole file): its
 * message is "path: " and then fmt's text. Returns -EINVAL, so that a
 * reader writes `return jsonc_error(...)`.
 */
int jsonc_error(struct jsonc_errors *e, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same with a message that names its place itself, kept as it is; with
 * at_key pointing at the member's key rather than its value (an unknown key). */
int jsonc_error_text(struct jsonc_errors *e, const char *path, int at_key, const char *message);

/* The same at a byte offset of the text, for a place no path names (the second
 * of two members with one key). */
int jsonc_error_at(struct jsonc_errors *e, size_t offset, const char *message);

/*
 * Every error of e into out (NUL-terminated, truncated to size), in the order
 * of their places in the file: with a file name, "FILE:LINE:COLUMN: message" and the excerpt
 * under it (jsonc_excerpt) for the place its path names in text; without
 * (file NULL), "message" alone on its line. Then a line counting the errors
 * found past the bound. Messages are escaped for a terminal (termsafe.h).
 */
void jsonc_errors_format(const struct jsonc_errors *e, const char *text, size_t len,
			 const char *file, char *out, size_t size);

#endif
