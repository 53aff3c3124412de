/*
 * test_replay_pack.c - replays appended to packs: where each document is
 * said to be is where it is, nothing reaches the file before a sync, packs
 * are left for new ones at their size, and a pack reads back as its
 * documents; a cut-off frame is refused, not misread.
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

static off_t size_of(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void add(struct replay_pack *p, const char *doc, struct replay_location *at)
{
	assert_int_equal(replay_pack_add(p, doc, strlen(doc), at), 0);
}

static void seal_and_sync(struct replay_pack *p)
{
	assert_int_equal(replay_pack_seal(p), 0);
	assert_int_equal(replay_pack_sync(p), 0);
}

/* The document at where, read as a record locates it. */
static void expect_document(const struct replay_location *where, const char *doc)
{
	char path[PATH_MAX], *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, where->file);
	text = replay_read_at(path, where->offset, where->line, &len);
	assert_non_null(text);
	assert_string_equal(text, doc);
	assert_int_equal(len, strlen(doc));
	free(text);
}

static void test_documents_where_said_after_sync(void **state)
{
	static const char *const doc[5] = { "{\"id\":\"g0\",\"moves\":[0]}\n",
					    "{\"id\":\"g1\",\"moves\":[7,\"}\"]}\n",
					    "{\"id\":\"g2\",\"moves\":[14]}\n",
					    "{\"id\":\"g3\",\"moves\":[21]}\n",
					    "{\"id\":\"g4\",\"moves\":[28]}\n" };
	struct replay_pack p;
	struct replay_location at[5];
	char path[PATH_MAX], *text;
	size_t len;

	(void)state;
	replay_pack_init(&p, dir);
	for (int i = 0; i < 3; i++)
		add(&p, doc[i], &at[i]);
	/* one batch: one frame, a line a document */
	for (int i = 0; i < 3; i++) {
		assert_string_equal(at[i].file, at[0].file);
		assert_int_equal(at[i].offset, 0);
		assert_int_equal(at[i].line, i);
	}
	/* named replays/<16 hex digits>.jsonl.zst */
	assert_int_equal(strlen(at[0].file), strlen("replays/") + 16 + strlen(".jsonl.zst"));
	assert_int_equal(strspn(at[0].file + 8, "0123456789abcdef"), 16);
	/* nothing on the disk before the sync: a record may not point at it yet */
	assert_int_equal(size_of(at[0].file), 0);
	assert_int_equal(replay_pack_sync(&p), 0); /* nothing sealed */
	assert_int_equal(replay_pack_seal(&p), 0);
	assert_int_equal(size_of(at[0].file), 0);
	/* the next batch fills while the sealed one waits for its sync */
	add(&p, doc[3], &at[3]);
	assert_int_equal(replay_pack_sync(&p), 0);
	assert_true(size_of(at[0].file) > 0);
	assert_int_equal(at[3].offset, (uint64_t)size_of(at[0].file)); /* the next frame */
	assert_int_equal(at[3].line, 0);
	add(&p, doc[4], &at[4]);
	assert_int_equal(at[4].line, 1);
	seal_and_sync(&p);
	for (int i = 4; i >= 0; i--)
		expect_document(&at[i], doc[i]);
	/* the whole pack is its documents, one a line */
	snprintf(path, sizeof(path), "%s/%s", dir, at[0].file);
	text = replay_read_file(path, &len);
	assert_non_null(text);
	assert_int_equal(len, strlen(doc[0]) + strlen(doc[1]) + strlen(doc[2]) + strlen(doc[3]) +
				      strlen(doc[4]));
	assert_memory_equal(text + strlen(doc[0]), doc[1], strlen(doc[1]));
	free(text);
	/* no frame starts there, or the frame has no such line */
	assert_null(replay_read_at(path, at[3].offset - 1, 0, &len));
	assert_int_equal(errno, EBADMSG);
	assert_null(replay_read_at(path, at[3].offset, 2, &len));
	assert_int_equal(errno, EBADMSG);
	replay_pack_release(&p);
}

static void test_new_pack_at_its_size(void **state)
{
	static const char doc[] = "{\"id\":\"x\"}\n";
	struct replay_pack p;
	struct replay_location at[5];

	(void)state;
	replay_pack_init(&p, dir);
	p.max_bytes = 1; /* a pack a batch */
	add(&p, doc, &at[0]);
	add(&p, doc, &at[1]);
	seal_and_sync(&p);
	assert_true(replay_pack_needs_open(&p));
	add(&p, doc, &at[2]);
	assert_string_not_equal(at[2].file, at[0].file);
	assert_int_equal(at[2].offset, 0);
	/* a full pack's documents are written before the next pack opens */
	assert_int_equal(replay_pack_seal(&p), 0);
	assert_int_equal(replay_pack_add(&p, doc, strlen(doc), &at[3]), -EBUSY);
	assert_int_equal(replay_pack_sync(&p), 0);
	add(&p, doc, &at[3]);
	seal_and_sync(&p);
	assert_string_not_equal(at[3].file, at[2].file);
	for (int i = 0; i < 4; i++)
		expect_document(&at[i], doc);
	assert_string_equal(at[1].file, at[0].file);
	replay_pack_release(&p);
}

static void test_cut_off_tail(void **state)
{
	static const char doc[] = "{\"id\":\"whole\"}\n";
	struct replay_pack p;
	struct replay_location at[2];
	char path[PATH_MAX];
	size_t len;

	(void)state;
	replay_pack_init(&p, dir);
	add(&p, doc, &at[0]);
	seal_and_sync(&p);
	add(&p, "{\"id\":\"cut\",\"pad\":\"0123456789012345678901234567890123456789\"}\n", &at[1]);
	seal_and_sync(&p);
	replay_pack_release(&p);
	snprintf(path, sizeof(path), "%s/%s", dir, at[0].file);
	/* as a crash in the middle of the second batch's write leaves it */
	assert_int_equal(truncate(path, (off_t)at[1].offset + (size_of(at[0].file) - (off_t)at[1].offset) / 2), 0);
	expect_document(&at[0], doc);
	assert_null(replay_read_at(path, at[1].offset, at[1].line, &len));
	assert_int_equal(errno, EBADMSG);
	assert_null(replay_read_file(path, &len));
	assert_int_equal(errno, EBADMSG);
	/* read as a pack: the whole frames before the tail, and where the tail starts */
	{
		uint64_t whole = 0;
		char *text = replay_read_pack(path, &len, &whole);

		assert_non_null(text);
		assert_string_equal(text, doc);
		assert_int_equal(whole, at[1].offset);
		free(text);
		/* cut inside the first frame: nothing whole */
		assert_int_equal(truncate(path, (off_t)at[1].offset / 2), 0);
		assert_null(replay_read_pack(path, &len, &whole));
		assert_int_equal(errno, EBADMSG);
	}
}

static void test_reader_keeps_the_frame(void **state)
{
	struct replay_pack p;
	struct replay_location at[3];
	struct replay_reader rd;
	char path[PATH_MAX], *text;
	size_t len;

	(void)state;
	replay_pack_init(&p, dir);
	add(&p, "{\"id\":\"a\"}\n", &at[0]);
	add(&p, "{\"id\":\"b\"}", &at[1]); /* the last line without its newline */
	seal_and_sync(&p);
	add(&p, "{\"id\":\"c\"}\n", &at[2]);
	seal_and_sync(&p);
	replay_pack_release(&p);
	snprintf(path, sizeof(path), "%s/%s", dir, at[0].file);
	replay_reader_init(&rd);
	text = replay_reader_get(&rd, path, at[0].offset, at[0].line, &len);
	assert_string_equal(text, "{\"id\":\"a\"}\n");
	free(text);
	/* the frame read is kept: its other documents come without the file */
	assert_int_equal(unlink(path), 0);
	text = replay_reader_get(&rd, path, at[1].offset, at[1].line, &len);
	assert_non_null(text);
	assert_string_equal(text, "{\"id\":\"b\"}\n");
	assert_int_equal(len, strlen(text));
	free(text);
	/* another frame is read from the file, which is gone */
	assert_null(replay_reader_get(&rd, path, at[2].offset, at[2].line, &len));
	assert_int_equal(errno, ENOENT);
	replay_reader_release(&rd);
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

/* The bytes of the pack file name, into *len (malloc'd). */
static char *pack_bytes(const char *name, size_t *len)
{
	char path[PATH_MAX], *data;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "rb"));
	*len = (size_t)size_of(name);
	assert_non_null(data = malloc(*len + 1));
	assert_int_equal(fread(data, 1, *len, f), *len);
	fclose(f);
	return data;
}

static void test_frames_appended_as_they_are(void **state)
{
	static const char *const doc[4] = { "{\"id\":\"h0\"}\n", "{\"id\":\"w1\",\"m\":[1]}\n",
					    "{\"id\":\"w2\",\"m\":[2]}\n", "{\"id\":\"h3\"}\n" };
	struct replay_pack p;
	struct replay_location at[4];
	char docs[128], *frame, *bytes;
	size_t flen, len;

	(void)state;
	snprintf(docs, sizeof(docs), "%s%s", doc[1], doc[2]);
	assert_int_equal(replay_pack_frame(docs, strlen(docs), &frame, &flen), 0);
	replay_pack_init(&p, dir);
	add(&p, doc[0], &at[0]);
	/* the open frame ends, the worker's follows it, the next document opens a new one */
	assert_int_equal(replay_pack_add_frame(&p, frame, flen, &at[1]), 0);
	add(&p, doc[3], &at[3]);
	assert_true(at[1].offset > at[0].offset);
	assert_int_equal(at[1].line, 0);
	assert_int_equal(at[3].offset, at[1].offset + flen);
	assert_int_equal(at[3].line, 0);
	at[2] = at[1];
	at[2].line = 1;
	seal_and_sync(&p);
	for (int i = 0; i < 4; i++)
		expect_document(&at[i], doc[i]);
	/* the worker's bytes, unchanged */
	bytes = pack_bytes(at[1].file, &len);
	assert_true(len > at[3].offset);
	assert_memory_equal(bytes + at[1].offset, frame, flen);
	free(bytes);
	free(frame);
	replay_pack_release(&p);
}

static void test_frame_read_refuses(void **state)
{
	static const char docs[] = "{\"id\":\"a\"}\n{\"id\":\"b\"}\n";
	struct replay_pack p;
	struct replay_location at;
	char *frame, *two, *text, *streamed;
	size_t flen, len, slen;

	(void)state;
	assert_int_equal(replay_pack_frame(docs, strlen(docs), &frame, &flen), 0);
	assert_int_equal(replay_pack_frame_read(frame, flen, 1024, &text, &len), 0);
	assert_int_equal(len, strlen(docs));
	assert_string_equal(text, docs);
	free(text);
	/* over the size allowed */
	assert_int_equal(replay_pack_frame_read(frame, flen, strlen(docs) - 1, &text, &len),
			 -EFBIG);
	assert_null(text);
	/* cut off, a byte after it, two frames, not zstd */
	assert_int_equal(replay_pack_frame_read(frame, flen - 1, 1024, &text, &len), -EBADMSG);
	assert_non_null(two = malloc(2 * flen + 8));
	memcpy(two, frame, flen);
	memcpy(two + flen, frame, flen);
	assert_int_equal(replay_pack_frame_read(two, flen + 1, 1024, &text, &len), -EBADMSG);
	assert_int_equal(replay_pack_frame_read(two, 2 * flen, 1024, &text, &len), -EBADMSG);
	/* a skippable frame after it, which zstd alone would pass over */
	memcpy(two + flen, "\x50\x2a\x4d\x18\0\0\0\0", 8);
	assert_int_equal(replay_pack_frame_read(two, flen + 8, 1024, &text, &len), -EBADMSG);
	assert_int_equal(replay_pack_frame_read("not zstd at all", 15, 1024, &text, &len),
			 -EBADMSG);
	/* a frame that does not say its size (a pack's own, streamed) */
	replay_pack_init(&p, dir);
	add(&p, docs, &at);
	seal_and_sync(&p);
	streamed = pack_bytes(at.file, &slen);
	assert_int_equal(replay_pack_frame_read(streamed, slen, 1024, &text, &len), -EBADMSG);
	assert_null(text);
	replay_pack_release(&p);
	free(streamed);
	free(two);
	free(frame);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_documents_where_said_after_sync),
		cmocka_unit_test(test_new_pack_at_its_size),
		cmocka_unit_test(test_cut_off_tail),
		cmocka_unit_test(test_reader_keeps_the_frame),
		cmocka_unit_test(test_documents_of_a_text),
		cmocka_unit_test(test_frames_appended_as_they_are),
		cmocka_unit_test(test_frame_read_refuses),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
