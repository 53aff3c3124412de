/*
 * test_replay_find.c - a game's replay found through its record: the
 * record's keys read strictly (a file under replays/, an offset and length
 * only with a pack), the errors a reader sees (no such game, a game without
 * replay naming the setting, a frame that is not there), older runs' files
 * of a game's own, page names, and one document picked from a file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_strict.h"
#include "replay_find.h"

static char dir[64];

static int make_dir(void **state)
{
	char path[128];

	(void)state;
	strcpy(dir, "/tmp/test_replay_find.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/replays", dir);
	return mkdir(path, 0755);
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* replay_ref_of() of a record with the given replay keys (JSON text after "id"). */
static int ref_of(const char *keys, struct replay_ref *ref, char *err, size_t size)
{
	char text[512];
	cJSON *rec = NULL;
	int ret;

	snprintf(text, sizeof(text), "{\"id\":\"t0000-d0000-r0\"%s}", keys);
	assert_int_equal(json_strict_parse(text, strlen(text), &rec, NULL), 0);
	ret = replay_ref_of("D", rec, ref, err, size);
	/* id and file point into the record */
	if (ret == 1)
		assert_string_equal(ref->id, "t0000-d0000-r0");
	cJSON_Delete(rec);
	return ret;
}

static void test_record_keys(void **state)
{
	static const char *const refused[] = {
		",\"replay\":\"../x.jsonl.zst\",\"replay_offset\":0,\"replay_line\":9",
		",\"replay\":\"replays/a/b.jsonl.zst\",\"replay_offset\":0,\"replay_line\":9",
		",\"replay\":\"/etc/passwd\"",
		",\"replay\":\"replays/..\"",
		",\"replay\":7",
		",\"replay\":\"replays/00000000000000ff.jsonl.zst\"",
		",\"replay\":\"replays/00000000000000ff.jsonl.zst\",\"replay_offset\":0",
		",\"replay\":\"replays/00000000000000ff.jsonl.zst\",\"replay_offset\":0,\"replay_line\":-1",
		",\"replay\":\"replays/00000000000000ff.jsonl.zst\",\"replay_offset\":-1,\"replay_line\":9",
		",\"replay\":\"replays/00000000000000ff.jsonl.zst\",\"replay_offset\":1.0,\"replay_line\":9",
		",\"replay\":\"replays/t0000-d0000-r0.json.zst\",\"replay_offset\":0,\"replay_line\":9",
		",\"replay_offset\":0,\"replay_line\":9",
	};
	struct replay_ref ref;
	char err[256];

	(void)state;
	assert_int_equal(ref_of("", &ref, err, sizeof(err)), 0);
	assert_int_equal(ref_of(",\"replay\":\"replays/00000000000000ff.jsonl.zst\","
				"\"replay_offset\":1048576,\"replay_line\":0", &ref, err,
				sizeof(err)), 1);
	assert_string_equal(ref.path, "D/replays/00000000000000ff.jsonl.zst");
	assert_true(ref.packed && ref.offset == 1048576 && ref.line == 0);
	/* an older run's file of the game's own: the whole file */
	assert_int_equal(ref_of(",\"replay\":\"replays/t0000-d0000-r0.json.zst\"", &ref, err,
				sizeof(err)), 1);
	assert_string_equal(ref.path, "D/replays/t0000-d0000-r0.json.zst");
	assert_false(ref.packed);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err[0] = '\0';
		if (ref_of(refused[i], &ref, err, sizeof(err)) != -EBADMSG)
			fail_msg("accepted: %s", refused[i]);
		assert_true(strstr(err, "replay") != NULL);
	}
}

static void test_find(void **state)
{
	char err[1024], text[512];
	size_t len;
	int code;
	char *got;

	(void)state;
	write_file("tournament.json", "{\"replays\":\"faults\"}\n");
	write_file("replays/t0000-d0000-r0.json", "{\"id\":\"t0000-d0000-r0\"}\n");
	write_file("replays/00000000000000ff.jsonl.zst", "not zstd at all");
	snprintf(text, sizeof(text),
		 "{\"id\":\"t0000-d0000-r0\",\"players\":2,\"placings\":[1,2],"
		 "\"replay\":\"replays/t0000-d0000-r0.json\"}\n"
		 "{\"id\":\"t0000-d0000-r1\",\"players\":2,\"placings\":[2,1]}\n"
		 "{\"id\":\"t0000-d0001-r0\",\"players\":2,\"placings\":[1,2],"
		 "\"replay\":\"replays/00000000000000ff.jsonl.zst\",\"replay_offset\":4,"
		 "\"replay_line\":5}\n");
	write_file("games.jsonl", text);

	got = replay_find(dir, "t0000-d0000-r0", &len, &code, err, sizeof(err));
	assert_non_null(got);
	assert_int_equal(code, 0);
	assert_string_equal(got, "{\"id\":\"t0000-d0000-r0\"}\n");
	assert_int_equal(len, strlen(got));
	free(got);

	assert_null(replay_find(dir, "t0009-d0000-r0", &len, &code, err, sizeof(err)));
	assert_int_equal(code, -ENOENT);
	snprintf(text, sizeof(text), "no game t0009-d0000-r0 in \"%s/games.jsonl\"", dir);
	assert_string_equal(err, text);

	assert_null(replay_find(dir, "t0000-d0000-r1", &len, &code, err, sizeof(err)));
	assert_int_equal(code, -ENODATA);
	assert_non_null(strstr(err, "game t0000-d0000-r1 in"));
	assert_non_null(strstr(err, "has no replay: the tournament's \"replays\" is \"faults\""));

	/* a frame that is not there: the file and its bytes named */
	assert_null(replay_find(dir, "t0000-d0001-r0", &len, &code, err, sizeof(err)));
	assert_int_equal(code, -EBADMSG);
	assert_non_null(strstr(err, "replays/00000000000000ff.jsonl.zst\", line 6 of the frame at byte 4"));
}

static void test_select(void **state)
{
	char err[1024], path[256];
	size_t len;
	char *got;

	(void)state;
	write_file("two.jsonl", "{\"id\":\"a\",\"x\":\"}\"}\n{\"id\":\"b\"}\n");
	write_file("one.json", "{\n  \"id\": \"c\"\n}\n");
	snprintf(path, sizeof(path), "%s/two.jsonl", dir);
	assert_null(replay_select(path, NULL, &len, err, sizeof(err)));
	assert_non_null(strstr(err, "holds 2 replays: name a game (--id ID)"));
	assert_non_null(got = replay_select(path, "b", &len, err, sizeof(err)));
	assert_string_equal(got, "{\"id\":\"b\"}");
	free(got);
	assert_non_null(got = replay_select(path, "a", &len, err, sizeof(err)));
	assert_string_equal(got, "{\"id\":\"a\",\"x\":\"}\"}");
	free(got);
	assert_null(replay_select(path, "z", &len, err, sizeof(err)));
	assert_non_null(strstr(err, "no game z in"));
	snprintf(path, sizeof(path), "%s/one.json", dir);
	assert_non_null(got = replay_select(path, NULL, &len, err, sizeof(err)));
	assert_string_equal(got, "{\n  \"id\": \"c\"\n}");
	free(got);
	/* a directory needs the game's id */
	assert_null(replay_select(dir, NULL, &len, err, sizeof(err)));
	assert_non_null(strstr(err, "is a tournament directory: name a game (--id ID)"));
}

static void test_page_path(void **state)
{
	char path[64];

	(void)state;
	assert_int_equal(replay_page_path("D/replays", "t0000-d0001-r1", path, sizeof(path)), 0);
	assert_string_equal(path, "D/replays/t0000-d0001-r1.html");
	assert_int_equal(replay_page_path("D", "../x", path, sizeof(path)), -EINVAL);
	assert_int_equal(replay_page_path("D", ".x", path, sizeof(path)), -EINVAL);
	assert_int_equal(replay_page_path("D", "a/b", path, sizeof(path)), -EINVAL);
	assert_int_equal(replay_page_path("D", "", path, sizeof(path)), -EINVAL);
	assert_int_equal(replay_page_path("D", "t0000-d0001-r1-and-ever-so-much-more-than-the-room-of-64-holds",
					  path, sizeof(path)), -ENAMETOOLONG);
}

/* A document's id: read without a parse where it begins as replay_format writes
 * it, else from the whole document parsed; never from text that only looks so. */
static void test_document_id(void **state)
{
	static const char *const written =
		"{\"format\":\"skipbo-replay\",\"version\":1,\"id\":\"t0001-d0002-r1\",\"x\":[";
	static const char *const other =
		"{\"version\":1,\"id\":\"t0003-d0000-r0\",\"format\":\"skipbo-replay\"}";
	static const char *const escaped =
		"{\"format\":\"skipbo-replay\",\"version\":1,\"id\":\"a\\u0062\"}";
	static const char *const unended =
		"{\"format\":\"skipbo-replay\",\"version\":1,\"id\":\"abc";
	char id[32], small[4];

	(void)state;
	/* the written head: the id alone is read (the rest, cut here, is not parsed) */
	assert_int_equal(replay_document_id(written, strlen(written), id, sizeof(id)), 0);
	assert_string_equal(id, "t0001-d0002-r1");
	/* keys in another order: parsed whole */
	assert_int_equal(replay_document_id(other, strlen(other), id, sizeof(id)), 0);
	assert_string_equal(id, "t0003-d0000-r0");
	/* an escape in the id: parsed whole, the escape undone */
	assert_int_equal(replay_document_id(escaped, strlen(escaped), id, sizeof(id)), 0);
	assert_string_equal(id, "ab");
	/* an id that does not end, or does not fit: no id */
	assert_int_equal(replay_document_id(unended, strlen(unended), id, sizeof(id)), -EBADMSG);
	assert_int_equal(replay_document_id(written, strlen(written), small, sizeof(small)),
			 -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_keys),
		cmocka_unit_test_setup_teardown(test_find, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_select, make_dir, remove_dir),
		cmocka_unit_test(test_page_path),
		cmocka_unit_test(test_document_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
