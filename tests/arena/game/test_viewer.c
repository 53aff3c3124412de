/*
 * test_viewer.c - the viewer page embeds the replay document so that no text
 * in it (a bot's fault line, a name) can end the script element or open
 * another, and JSON.parse still reads the same document.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "viewer.h"

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static void test_page_is_whole(void **state)
{
	const char doc[] = "{\"format\":\"skipbo-replay\",\"bots\":[\"a\",\"b\"]}";
	struct jsonw w;

	(void)state;
	jsonw_init(&w);
	assert_int_equal(viewer_format(&w, doc, strlen(doc)), 0);
	assert_non_null(strstr(w.data, "<!DOCTYPE html>"));
	assert_non_null(strstr(w.data, "<script id=\"replay\" type=\"application/json\">"
			       "{\"format\":\"skipbo-replay\",\"bots\":[\"a\",\"b\"]}</script>"));
	assert_null(strstr(w.data, "<!--REPLAY-->"));
	/* nothing fetched: no external script, style sheet or image */
	assert_null(strstr(w.data, "src="));
	assert_null(strstr(w.data, "<link"));
	assert_int_equal(strcmp(w.data + w.len - strlen("</html>\n"), "</html>\n"), 0);
	jsonw_release(&w);
}

static void test_bot_text_cannot_end_the_script(void **state)
{
	const char doc[] = "{\"line\":\"</script><script>alert(1)</script><!-- & -->\"}";
	struct jsonw w, plain;
	size_t scripts;

	(void)state;
	jsonw_init(&w);
	jsonw_init(&plain);
	assert_int_equal(viewer_format(&plain, "{}", 2), 0);
	scripts = count(plain.data, "</script>");
	assert_int_equal(viewer_format(&w, doc, strlen(doc)), 0);
	assert_int_equal(count(w.data, "</script>"), scripts);
	assert_int_equal(count(w.data, "<script"), count(plain.data, "<script"));
	assert_non_null(strstr(w.data, "{\"line\":\"\\u003c/script\\u003e\\u003cscript\\u003e"
			       "alert(1)\\u003c/script\\u003e\\u003c!-- \\u0026 --\\u003e\"}"));
	jsonw_release(&w);
	jsonw_release(&plain);
}

/* The requests go in a script element of their own, after the replay; none without them. */
static void test_requests_element(void **state)
{
	const char doc[] = "{}", req[] = "[[{\"c\":0,\"m\":[\"{\\\"action\\\":\\\"pass\\\"}\"]}]]";
	struct jsonw w;

	(void)state;
	jsonw_init(&w);
	assert_int_equal(viewer_format_requests(&w, doc, 2, req, strlen(req)), 0);
	assert_non_null(strstr(w.data, "<script id=\"replay\" type=\"application/json\">{}</script>\n"
			       "<script id=\"requests\" type=\"application/json\">"));
	assert_non_null(strstr(w.data, req));
	assert_int_equal(viewer_format(&w, doc, 2), 0);
	assert_null(strstr(w.data, "<script id=\"requests\""));
	jsonw_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests_element),
		cmocka_unit_test(test_page_is_whole),
		cmocka_unit_test(test_bot_text_cannot_end_the_script),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
