/*
 * test_replay_pack.c - replays appended to packs: where each frame is said to
 * be is where it is, nothing reaches the file before a sync, packs are left
 * for new ones at their size, and a pack reads back as its documents; a
 * cut-off frame is refused, not misread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "replay_file.h"
#include "replay_pack.h"

static char dir[] = "/tmp/test_replay_pack.XXXXXX";

static int setup(void **state)
{
	char path[PATH_MAX];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/replays", dir);
	return mkdir(path, 0755);
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* One frame holding text, as replay_frame() makes them; *len its bytes. */
static char *frame_of(const char *text, size_t *len)
{
	size_t cap = ZSTD_compressBound(strlen(text));
	char *out = malloc(cap);

	assert_non_null(out);
	*len = ZSTD_compress(out, cap, text, strlen(text), 3);
	assert_false(ZSTD_isError(*len));
	return out;
}

static off_t size_of(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void test_frames_where_said_after_sync(void **state)
{
	struct replay_pack p;
	struct replay_location at[3];
	char doc[3][64], path[PATH_MAX], *text;
	size_t len, flen;

	(void)state;
	replay_pack_init(&p, dir);
	for (int i = 0; i < 3; i++) {
		char *f;

		snprintf(doc[i], sizeof(doc[i]), "{\"id\":\"g%d\",\"moves\":[%d]}\n", i, i * 7);
		f = frame_of(doc[i], &flen);
		assert_int_equal(replay_pack_add(&p, f, flen, &at[i]), 0);
		free(f);
		assert_int_equal(at[i].bytes, flen);
		assert_int_equal(at[i].offset, i ? at[i - 1].offset + at[i - 1].bytes : 0);
		assert_string_equal(at[i].file, at[0].file);
	}
	/* named replays/<16 hex digits>.jsonl.zst */
	assert_int_equal(strlen(at[0].file), strlen("replays/") + 16 + strlen(".jsonl.zst"));
	assert_int_equal(strspn(at[0].file + 8, "0123456789abcdef"), 16);
	/* nothing on the disk before the sync: a record may not point at it yet */
	assert_int_equal(size_of(at[0].file), 0);
	assert_int_equal(replay_pack_sync(&p), 0);
	assert_int_equal(size_of(at[0].file), at[2].offset + at[2].bytes);
	snprintf(path, sizeof(path), "%s/%s", dir, at[0].file);
	for (int i = 2; i >= 0; i--) {
		text = replay_read_at(path, at[i].offset, at[i].bytes, &len);
		assert_non_null(text);
		assert_string_equal(text, doc[i]);
		assert_int_equal(len, strlen(doc[i]));
		free(text);
	}
	/* the whole pack is its documents, one a line */
	text = replay_read_file(path, &len);
	assert_non_null(text);
	assert_int_equal(len, strlen(doc[0]) + strlen(doc[1]) + strlen(doc[2]));
	assert_memory_equal(text + strlen(doc[0]), doc[1], strlen(doc[1]));
	free(text);
	/* a range that is not one whole frame */
	assert_null(replay_read_at(path, at[1].offset, at[1].bytes - 1, &len));
	assert_int_equal(errno, EBADMSG);
	assert_null(replay_read_at(path, at[1].offset, at[1].bytes + at[2].bytes, &len));
	assert_int_equal(errno, EBADMSG);
	assert_null(replay_read_at(path, at[1].offset + 1, at[1].bytes, &len));
	assert_int_equal(errno, EBADMSG);
	replay_pack_release(&p);
}

static void test_new_pack_at_its_size(void **state)
{
	struct replay_pack p;
	struct replay_location at[5];
	char *f;
	size_t flen;

	(void)state;
	replay_pack_init(&p, dir);
	f = frame_of("{\"id\":\"x\"}\n", &flen);
	p.max_bytes = 2 * flen; /* two frames a pack */
	for (int i = 0; i < 5; i++)
		assert_int_equal(replay_pack_add(&p, f, flen, &at[i]), 0);
	assert_int_equal(replay_pack_sync(&p), 0);
	assert_string_equal(at[1].file, at[0].file);
	assert_string_not_equal(at[2].file, at[1].file);
	assert_string_equal(at[3].file, at[2].file);
	assert_string_not_equal(at[4].file, at[3].file);
	assert_int_equal(at[2].offset, 0);
	assert_int_equal(at[4].offset, 0);
	/* the frames of a left pack were written when it was left */
	assert_int_equal(size_of(at[0].file), 2 * (off_t)flen);
	assert_int_equal(size_of(at[2].file), 2 * (off_t)flen);
	assert_int_equal(size_of(at[4].file), (off_t)flen);
	free(f);
	replay_pack_release(&p);
}

static void test_cut_off_tail(void **state)
{
	struct replay_pack p;
	struct replay_location at[2];
	char path[PATH_MAX], *f, *text;
	size_t flen, len;

	(void)state;
	replay_pack_init(&p, dir);
	f = frame_of("{\"id\":\"whole\"}\n", &flen);
	assert_int_equal(replay_pack_add(&p, f, flen, &at[0]), 0);
	assert_int_equal(replay_pack_add(&p, f, flen, &at[1]), 0);
	assert_int_equal(replay_pack_sync(&p), 0);
	replay_pack_release(&p);
	snprintf(path, sizeof(path), "%s/%s", dir, at[0].file);
	/* as a crash in the middle of the second frame's write leaves it */
	assert_int_equal(truncate(path, (off_t)(at[1].offset + at[1].bytes / 2)), 0);
	text = replay_read_at(path, at[0].offset, at[0].bytes, &len);
	assert_non_null(text);
	assert_string_equal(text, "{\"id\":\"whole\"}\n");
	free(text);
	assert_null(replay_read_at(path, at[1].offset, at[1].bytes, &len));
	assert_int_equal(errno, EBADMSG);
	assert_null(replay_read_file(path, &len));
	assert_int_equal(errno, EBADMSG);
	free(f);
}

static void test_documents_of_a_text(void **state)
{
	static const char text[] = "{\"a\":\"}{\\\"]\",\"b\":[1,{\"c\":2}]}\n"
				   "\n  {\"id\":\"second\"}\n"
				   "{\n  \"pretty\": [\n    1\n  ]\n}\n \n";
	static const char *const want[] = { "{\"a\":\"}{\\\"]\",\"b\":[1,{\"c\":2}]}",
					     "{\"id\":\"second\"}",
					     "{\n  \"pretty\": [\n    1\n  ]\n}" };
	size_t pos = 0, n;
	const char *doc;

	(void)state;
	for (int i = 0; i < 3; i++) {
		doc = replay_next_document(text, sizeof(text) - 1, &pos, &n);
		assert_non_null(doc);
		assert_int_equal(n, strlen(want[i]));
		assert_memory_equal(doc, want[i], n);
	}
	assert_null(replay_next_document(text, sizeof(text) - 1, &pos, &n));
	/* a document that never closes is the rest of the text, for the parser to refuse */
	pos = 0;
	doc = replay_next_document("{\"a\":[1,2", 9, &pos, &n);
	assert_non_null(doc);
	assert_int_equal(n, 9);
	assert_null(replay_next_document("{\"a\":[1,2", 9, &pos, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_where_said_after_sync),
		cmocka_unit_test(test_new_pack_at_its_size),
		cmocka_unit_test(test_cut_off_tail),
		cmocka_unit_test(test_documents_of_a_text),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
