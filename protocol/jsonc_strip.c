/*
 * jsonc_strip.c - JSONC comments and trailing commas blanked (contract in
 * jsonc_strip.h).
 */
#include "jsonc_strip.h"

#include <string.h>

size_t jsonc_skip_string(const char *text, size_t len, size_t i)
{
	for (i++; i < len && text[i] != '"'; i++)
		if (text[i] == '\\' && i + 1 < len)
			i++;
	return i < len ? i + 1 : len;
}

size_t jsonc_skip_space(const char *text, size_t len, size_t i)
{
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return i;
}

/*
 * The comma at i ends a value and is followed by nothing but white space
 * and a closing bracket. One after another comma or an opening bracket
 * stays, for the reader to refuse at the right place.
 */
static int trailing_comma(const char *text, size_t len, size_t i)
{
	size_t before = i;

	while (before > 0 && strchr(" \t\r\n", text[before - 1]))
		before--;
	if (before == 0 || strchr(",[{:", text[before - 1]))
		return 0;
	i = jsonc_skip_space(text, len, i + 1);
	return i < len && (text[i] == ']' || text[i] == '}');
}

void jsonc_strip(char *text, size_t len)
{
	size_t i = 0;

	/* comments first: a comment may stand between a comma and its bracket */
	while (i < len) {
		if (text[i] == '"') {
			i = jsonc_skip_string(text, len, i);
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				text[i++] = ' ';
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') {
			text[i++] = ' ';
			text[i++] = ' ';
			while (i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/')) {
				if (text[i] != '\n')
					text[i] = ' ';
				i++;
			}
			for (int k = 0; k < 2 && i < len; k++)
				text[i++] = ' ';
		} else {
			i++;
		}
	}
	for (i = 0; i < len;) {
		if (text[i] == '"')
			i = jsonc_skip_string(text, len, i);
		else if (text[i] == ',' && trailing_comma(text, len, i))
			text[i++] = ' ';
		else
			i++;
	}
}
