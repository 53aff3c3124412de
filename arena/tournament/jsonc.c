/*
 * jsonc.c - the tournament file's error messages: places, lines and carets,
 * the nearest key (contract in jsonc.h).
 */
#include "jsonc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonc_strip.h"
#include "termsafe.h"

#define EXCERPT_WIDTH 160

/* The offset just past the value starting at or after i. */
static size_t skip_value(const char *text, size_t len, size_t i)
{
	int depth = 0;

	i = jsonc_skip_space(text, len, i);
	if (i < len && text[i] == '"')
		return jsonc_skip_string(text, len, i);
	if (i < len && text[i] != '{' && text[i] != '[') {
		while (i < len && !strchr(",]} \t\r\n", text[i]))
			i++;
		return i;
	}
	while (i < len) {
		if (text[i] == '"') {
			i = jsonc_skip_string(text, len, i);
			continue;
		}
		if (text[i] == '{' || text[i] == '[')
			depth++;
		else if ((text[i] == '}' || text[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return len;
}

/* After a member or element: past white space and one comma. */
static size_t next_item(const char *text, size_t len, size_t i)
{
	i = jsonc_skip_space(text, len, i);
	return i < len && text[i] == ',' ? i + 1 : i;
}

/* In the object at i, the member called name (n bytes): its key's offset, *value its value's. */
static int find_member(const char *text, size_t len, size_t i, const char *name, size_t n,
		       size_t *key, size_t *value)
{
	if (i >= len || text[i] != '{')
		return -1;
	for (i++;;) {
		size_t start = jsonc_skip_space(text, len, i), end;

		if (start >= len || text[start] != '"')
			return -1;
		end = jsonc_skip_string(text, len, start);
		i = jsonc_skip_space(text, len, end);
		if (i >= len || text[i] != ':')
			return -1;
		i = jsonc_skip_space(text, len, i + 1);
		if (end - start - 2 == n && memcmp(text + start + 1, name, n) == 0) {
			*key = start;
			*value = i;
			return 0;
		}
		i = next_item(text, len, skip_value(text, len, i));
	}
}

/* In the array at i, element number index: its offset. */
static int find_element(const char *text, size_t len, size_t i, unsigned long index,
			size_t *value)
{
	if (i >= len || text[i] != '[')
		return -1;
	i++;
	for (unsigned long k = 0;; k++) {
		i = jsonc_skip_space(text, len, i);
		if (i >= len || text[i] == ']')
			return -1;
		if (k == index) {
			*value = i;
			return 0;
		}
		i = next_item(text, len, skip_value(text, len, i));
	}
}

size_t jsonc_locate(const char *text, size_t len, const char *path, int at_key)
{
	size_t at = jsonc_skip_space(text, len, 0), value = at;

	while (*path) {
		size_t key;

		if (*path == '[') {
			char *end;
			unsigned long index = strtoul(path + 1, &end, 10);

			if (*end != ']' || find_element(text, len, value, index, &value) < 0)
				break;
			at = value;
			path = end + 1;
		} else {
			size_t n = strcspn(path, ".[");

			if (find_member(text, len, value, path, n, &key, &value) < 0)
				break;
			path += n;
			at = at_key && !*path ? key : value;
		}
		if (*path == '.')
			path++;
	}
	return at < len ? at : len;
}

void jsonc_line_column(const char *text, size_t len, size_t offset, unsigned long *line,
		       unsigned long *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < offset && i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
}

void jsonc_excerpt(const char *text, size_t len, size_t offset, char *out, size_t size)
{
	char shown[EXCERPT_WIDTH + 1], caret[EXCERPT_WIDTH + 2];
	size_t start = offset, end = offset, n = 0;

	if (offset > len)
		offset = start = end = len;
	while (start > 0 && text[start - 1] != '\n')
		start--;
	while (end < len && text[end] != '\n')
		end++;
	if (end - start > EXCERPT_WIDTH) {
		start = offset > start + EXCERPT_WIDTH / 2 ? offset - EXCERPT_WIDTH / 2 : start;
		end = start + EXCERPT_WIDTH < end ? start + EXCERPT_WIDTH : end;
	}
	for (size_t i = start; i < end; i++, n++) {
		unsigned char c = (unsigned char)text[i];

		shown[n] = c == '\t' || (c >= 0x20 && c < 0x7f) ? (char)c : '?';
		if (i < offset)
			caret[n] = c == '\t' ? '\t' : ' ';
	}
	shown[n] = '\0';
	n = offset - start;
	caret[n] = '^';
	caret[n + 1] = '\0';
	n = strlen(out);
	snprintf(out + n, n < size ? size - n : 0, "  %s\n  %s\n", shown, caret);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, best;

	if (la > 64 || lb > 64 || !(row = calloc(lb + 1, sizeof(*row))))
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], cost = diag + (a[i - 1] != b[j - 1]);

			cost = up + 1 < cost ? up + 1 : cost;
			cost = row[j - 1] + 1 < cost ? row[j - 1] + 1 : cost;
			diag = up;
			row[j] = cost;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

int jsonc_nearest(const char *word, const char *const *words)
{
	size_t best = (size_t)-1;
	int found = -1;

	for (int i = 0; words[i]; i++) {
		size_t d = edit_distance(word, words[i]);
		size_t longer = strlen(word) > strlen(words[i]) ? strlen(word) : strlen(words[i]);

		if (d < best && d <= 3 && d * 3 <= longer) {
			best = d;
			found = i;
		}
	}
	return found;
}

/* One more error: message "path: " and text, or text alone without named. */
static int add_error(struct jsonc_errors *e, const char *path, int named, int at_key,
		     const char *text)
{
	if (e->n == JSONC_ERRORS_MAX) {
		e->more++;
		return -EINVAL;
	}
	e->at[e->n].at_key = at_key;
	e->at[e->n].offset = -1;
	snprintf(e->at[e->n].path, sizeof(e->at[e->n].path), "%s", path);
	/* a message too long for its place is cut: it stays one line */
	e->at[e->n].message[0] = '\0';
	if (named && *path) {
		strlcat(e->at[e->n].message, path, JSONC_MESSAGE_MAX);
		strlcat(e->at[e->n].message, ": ", JSONC_MESSAGE_MAX);
	}
	strlcat(e->at[e->n].message, text, JSONC_MESSAGE_MAX);
	e->n++;
	return -EINVAL;
}

int jsonc_error_text(struct jsonc_errors *e, const char *path, int at_key, const char *message)
{
	return add_error(e, path, 0, at_key, message);
}

int jsonc_error_at(struct jsonc_errors *e, size_t offset, const char *message)
{
	size_t i = e->n;

	add_error(e, "", 0, 0, message);
	if (i < e->n)
		e->at[i].offset = (long)offset;
	return -EINVAL;
}

int jsonc_error(struct jsonc_errors *e, const char *path, const char *fmt, ...)
{
	char text[JSONC_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return add_error(e, path, 1, 0, text);
}

void jsonc_errors_format(const struct jsonc_errors *e, const char *text, size_t len,
			 const char *file, char *out, size_t size)
{
	char safe[JSONC_MESSAGE_MAX * 4];
	size_t at[JSONC_ERRORS_MAX], order[JSONC_ERRORS_MAX], used;

	if (size)
		out[0] = '\0';
	/* in the file's order, as a person reads it; insertion sort keeps equal places in turn */
	for (size_t i = 0; i < e->n; i++) {
		size_t k = i;

		at[i] = e->at[i].offset >= 0 ? (size_t)e->at[i].offset :
			jsonc_locate(text, len, e->at[i].path, e->at[i].at_key);
		for (; k > 0 && at[order[k - 1]] > at[i]; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	for (size_t k = 0; k < e->n; k++) {
		size_t i = order[k];
		unsigned long line, column;

		termsafe_copy(safe, sizeof(safe), e->at[i].message);
		used = strlen(out);
		if (!file) {
			snprintf(out + used, size - used, "%s\n", safe);
			continue;
		}
		jsonc_line_column(text, len, at[i], &line, &column);
		snprintf(out + used, size - used, "%s:%lu:%lu: %s\n", file, line, column, safe);
		jsonc_excerpt(text, len, at[i], out, size);
	}
	used = strlen(out);
	if (e->more)
		snprintf(out + used, size - used, "%zu more error%s not shown\n", e->more,
			 e->more == 1 ? "" : "s");
}
