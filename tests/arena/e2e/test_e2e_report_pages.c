/*
 * test_e2e_report_pages.c - `skipbo-arena report --replays DIR`: the viewer
 * page of every replay is written beside it, the report's game list links to
 * them, and a replay that does not re-check gets no page, a message naming
 * it and exit status 1, while the others still get theirs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

/* Replays in dir/out/replays, and how many of them have a page beside them. */
static int count_pages(const char *dir, int *replays)
{
	char path[512], page[1024];
	struct dirent *e;
	int pages = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/out/replays", dir);
	d = opendir(path);
	assert_non_null(d);
	*replays = 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n <= 9 || strcmp(e->d_name + n - 9, ".json.zst"))
			continue;
		n -= 4;
		(*replays)++;
		snprintf(page, sizeof(page), "%s/%.*s.html", path, (int)(n - 5), e->d_name);
		pages += access(page, F_OK) == 0;
	}
	closedir(d);
	return pages;
}

static void test_report_writes_replay_pages(void **state)
{
	const char *run[] = { "run", "-j", "1", "--quiet", "--no-report", "t.json", NULL };
	const char *report[] = { "report", "--replays", "out", NULL };
	char dir[256], text[1024], path[512], *html, *page;
	int replays, status;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "pages");
	snprintf(text, sizeof(text),
		 "{\"name\":\"p\",\"bots\":[{\"name\":\"a\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"good\"]}],\"players\":2,\"deals\":2,"
		 "\"rules\":{\"stock_size\":3},\"output\":\"out\"}", BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	assert_int_equal(count_pages(dir, &replays), 0);
	assert_int_equal(replays, 4);

	assert_int_equal(e2e_run(dir, report, 60000, NULL), 0);
	assert_int_equal(count_pages(dir, &replays), 4);
	snprintf(path, sizeof(path), "%s/out/replays/t0000-d0000-r0.html", dir);
	page = e2e_read(path, NULL);
	assert_non_null(page);
	assert_non_null(strstr(page, "<script"));
	free(page);
	snprintf(path, sizeof(path), "%s/out/report.html", dir);
	html = e2e_read(path, NULL);
	assert_non_null(html);
	assert_non_null(strstr(html, "href=\"replays/t0000-d0000-r0.html\""));
	free(html);

	/* a damaged replay: named, no page, status 1; the others are written again */
	snprintf(path, sizeof(path), "%s/out/replays/t0000-d0001-r1.html", dir);
	assert_int_equal(unlink(path), 0);
	/* not zstd inside, whatever the name: read as the plain text it is */
	e2e_write(dir, "out/replays/t0000-d0001-r1.json.zst", "{\"not\":\"a replay\"}");
	status = e2e_run(dir, report, 60000, NULL);
	assert_int_equal(status, 1);
	assert_int_equal(count_pages(dir, &replays), 3);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_writes_replay_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
