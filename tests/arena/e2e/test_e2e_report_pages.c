/*
 * test_e2e_report_pages.c - `skipbo-arena report --replays DIR`: the viewer
 * page of every game with a replay is written (DIR/replays/ID.html, found
 * through the game's record), the report's game list links to them, and a
 * replay that cannot be read or does not re-check gets no page, a message
 * naming it and exit status 1, while the others still get theirs. A
 * directory of an older run (a replay file per game, no offsets) works alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"
#include "replay_find.h"

/* How many of dir/sub's records have a page in dir/sub/replays. */
static int count_pages(const char *dir, const char *sub, size_t *records)
{
	char path[512], page[1024];
	cJSON **recs;
	int pages = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	*records = e2e_records(path, &recs);
	for (size_t i = 0; i < *records; i++) {
		snprintf(page, sizeof(page), "%s/replays/%s.html", path,
			 cJSON_GetObjectItem(recs[i], "id")->valuestring);
		pages += access(page, F_OK) == 0;
	}
	e2e_free_records(recs, *records);
	return pages;
}

/* 2 deals of two good bots into dir/out, 4 games, their replays in one pack. */
static void run_tournament(const char *dir)
{
	const char *run[] = { "run", "-j", "1", "--quiet", "--no-report", "t.json", NULL };
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"name\":\"p\",\"bots\":[{\"name\":\"a\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"good\"]}],\"players\":2,\"deals\":2,"
		 "\"rules\":{\"stock_size\":3},\"output\":\"out\"}", BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
}

/* dir/name with every occurrence of from replaced by to (same length or not). */
static void replace_in(const char *dir, const char *name, const char *from, const char *to)
{
	char path[512], *text, *at, *out;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = e2e_read(path, NULL);
	assert_non_null(text);
	assert_non_null(out = calloc(strlen(text) * 2 + 1, 1));
	for (char *p = text; (at = strstr(p, from)); p = at + strlen(from)) {
		strncat(out, p, (size_t)(at - p));
		strcat(out, to);
		n++;
		if (!strstr(at + strlen(from), from)) {
			strcat(out, at + strlen(from));
			break;
		}
	}
	assert_true(n > 0);
	e2e_write(dir, name, out);
	free(out);
	free(text);
}

static void test_report_writes_replay_pages(void **state)
{
	const char *report[] = { "report", "--replays", "out", NULL };
	char dir[256], path[512], *html, *page, *err;
	size_t records;
	int status;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "pages");
	run_tournament(dir);
	assert_int_equal(count_pages(dir, "out", &records), 0);
	assert_int_equal(records, 4);

	assert_int_equal(e2e_run(dir, report, 60000, NULL), 0);
	assert_int_equal(count_pages(dir, "out", &records), 4);
	snprintf(path, sizeof(path), "%s/out/replays/t0000-d0000-r0.html", dir);
	page = e2e_read(path, NULL);
	assert_non_null(page);
	assert_non_null(strstr(page, "<script"));
	free(page);
	snprintf(path, sizeof(path), "%s/out/report.html", dir);
	html = e2e_read(path, NULL);
	assert_non_null(html);
	assert_non_null(strstr(html, "href=\"replays/t0000-d0000-r0.html\""));
	assert_non_null(strstr(html, "replay --html --id ID DIR"));
	free(html);

	/* a record pointing into the middle of a frame: named with file and offset, no page,
	 * status 1; the others are written again */
	snprintf(path, sizeof(path), "%s/out/replays/t0000-d0000-r0.html", dir);
	assert_int_equal(unlink(path), 0);
	replace_in(dir, "out/games.jsonl", "\"replay_offset\":0,", "\"replay_offset\":1,");
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	unlink(path);
	status = e2e_run(dir, report, 60000, NULL);
	assert_int_equal(status, 1);
	assert_int_equal(count_pages(dir, "out", &records), 3);
	err = e2e_read(path, NULL);
	assert_non_null(err);
	if (!strstr(err, "game t0000-d0000-r0: \"out/replays/") || !strstr(err, "frame at byte 1:"))
		fail_msg("the damaged frame is not named: %s", err);
	free(err);
	e2e_remove(dir);
}

/*
 * A directory as older runs wrote it: each game's replay in a file of its own,
 * replays/ID.json, and records that name it without an offset.
 */
static void make_old_layout(const char *dir, const char *from, const char *to)
{
	char src[512], path[512], err[1024], *old = NULL, *line;
	cJSON **recs;
	size_t n, len, used = 0;
	int code;

	snprintf(src, sizeof(src), "%s/%s", dir, from);
	snprintf(path, sizeof(path), "%s/%s", dir, to);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/replays", dir, to);
	assert_int_equal(mkdir(path, 0755), 0);
	n = e2e_records(src, &recs);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		const char *id = cJSON_GetObjectItem(recs[i], "id")->valuestring;
		char *text = replay_find(src, id, &len, &code, err, sizeof(err)), name[256];

		if (!text)
			fail_msg("%s", err);
		snprintf(name, sizeof(name), "%s/replays/%s.json", to, id);
		e2e_write(dir, name, text);
		free(text);
		cJSON_DeleteItemFromObject(recs[i], "replay_offset");
		cJSON_DeleteItemFromObject(recs[i], "replay_line");
		snprintf(name, sizeof(name), "replays/%s.json", id);
		cJSON_ReplaceItemInObject(recs[i], "replay", cJSON_CreateString(name));
		line = cJSON_PrintUnformatted(recs[i]);
		old = realloc(old, used + strlen(line) + 2);
		used += (size_t)sprintf(old + used, "%s\n", line);
		free(line);
	}
	snprintf(path, sizeof(path), "%s/games.jsonl", to);
	e2e_write(dir, path, old);
	snprintf(path, sizeof(path), "%s/%s/tournament.json", dir, from);
	line = e2e_read(path, NULL);
	snprintf(path, sizeof(path), "%s/tournament.json", to);
	e2e_write(dir, path, line);
	free(line);
	free(old);
	e2e_free_records(recs, n);
}

static void test_old_layout_pages(void **state)
{
	const char *report[] = { "report", "--replays", "old", NULL };
	const char *replay[] = { "replay", "--quiet", "old", NULL };
	const char *one[] = { "replay", "--quiet", "--id", "t0000-d0001-r0", "old", NULL };
	char dir[256], path[512], *err;
	size_t records;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "oldpages");
	run_tournament(dir);
	make_old_layout(dir, "out", "old");
	assert_int_equal(e2e_run(dir, replay, 60000, NULL), 0);
	assert_int_equal(e2e_run(dir, report, 60000, NULL), 0);
	assert_int_equal(count_pages(dir, "old", &records), 4);
	assert_int_equal(records, 4);
	/* a replay that does not re-check (another seed, so another deck) fails, named */
	replace_in(dir, "old/replays/t0000-d0001-r0.json", "\"seed\":\"", "\"seed\":\"1");
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	unlink(path);
	assert_int_equal(e2e_run(dir, replay, 60000, NULL), 1);
	err = e2e_read(path, NULL);
	assert_non_null(err);
	if (!strstr(err, "replay: \"old\", game t0000-d0001-r0: "))
		fail_msg("the replay that does not re-check is not named: %s", err);
	free(err);
	assert_int_equal(e2e_run(dir, one, 60000, NULL), 1);
	one[3] = "t0000-d0001-r1";
	assert_int_equal(e2e_run(dir, one, 60000, NULL), 0);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_writes_replay_pages),
		cmocka_unit_test(test_old_layout_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
