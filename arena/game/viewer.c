/*
 * viewer.c - the replay viewer page: the template viewer_page.html (compiled
 * in as viewer_page[] by CMake) with the replay document put in at its marker.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "viewer.h"

#include "durable.h"
#include "replay.h"

extern const char viewer_page[];

#define MARKER "<!--REPLAY-->"

int viewer_format(struct jsonw *w, const char *text, size_t len)
{
	const char *at = strstr(viewer_page, MARKER);
	size_t from = 0;

	jsonw_reset(w);
	if (!at)
		return -EINVAL;
	jsonw_raw(w, viewer_page, (size_t)(at - viewer_page));
	jsonw_text(w, "<script id=\"replay\" type=\"application/json\">");
	/* Outside strings JSON has none of these characters, inside strings the
	 * escapes mean the same characters: the document is unchanged for
	 * JSON.parse, and "</script>" in a bot's fault line cannot end the element. */
	for (size_t i = 0; i < len; i++) {
		const char *esc = text[i] == '<' ? "\\u003c" : text[i] == '>' ? "\\u003e" :
			text[i] == '&' ? "\\u0026" : NULL;

		if (!esc)
			continue;
		jsonw_raw(w, text + from, i - from);
		jsonw_text(w, esc);
		from = i + 1;
	}
	jsonw_raw(w, text + from, len - from);
	jsonw_text(w, "</script>");
	at += strlen(MARKER);
	jsonw_text(w, at);
	return jsonw_error(w) ? -ENOMEM : 0;
}

int viewer_write_page(const char *name, const char *text, size_t len, const char *page_path,
		      struct jsonw *page, char *err, size_t err_size)
{
	char why[512];
	int ret;

	if (replay_check(text, len, NULL, why, sizeof(why)) != 0) {
		snprintf(err, err_size, "%s: %s", name, why);
		ret = -EBADMSG;
	} else if ((ret = viewer_format(page, text, len)) < 0 ||
		   (ret = durable_write(page_path, page->data, page->len)) < 0) {
		snprintf(err, err_size, "%s: cannot write its page \"%s\": %s", name, page_path,
			 strerror(-ret));
	}
	return ret;
}
