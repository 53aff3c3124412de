/*
 * test_submissions.c - a hosted competition's submissions (submissions.h):
 * receive, states and a second reader; a torn last line; the per-day limit
 * with failed ones free; a bot name owned by its first author; the queue;
 * the strict reader; a restart putting in-flight ones back.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "remove_tree.h"

#include "submissions.h"

struct fixture {
	char dir[64];
	char file[PATH_MAX];
	int uploads;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char incoming[PATH_MAX];

	strcpy(f->dir, "/tmp/test_submissions.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->file, sizeof(f->file), "%s/%s", f->dir, SUBMISSIONS_FILE);
	snprintf(incoming, sizeof(incoming), "%s/incoming", f->dir);
	assert_int_equal(mkdir(incoming, 0700), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->dir);
	free(f);
	return 0;
}

static void append_raw(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* A new upload in DIR/incoming holding text; its path into path. */
static void upload(struct fixture *f, const char *text, char *path, size_t size)
{
	snprintf(path, size, "%s/incoming/u%d", f->dir, f->uploads++);
	append_raw(path, text);
}

/* Receive an upload of author's bot at now; the code, *id. */
static int receive(struct fixture *f, struct submissions *ss, const char *author,
		   const char *bot, int per_day, time_t now, uint64_t *id, long *retry,
		   char *err, size_t err_size)
{
	char path[PATH_MAX];

	upload(f, "archive bytes", path, sizeof(path));
	return submissions_receive(ss, author, bot, path, per_day, now, id, retry, err,
				   err_size);
}

static uint64_t receive_ok(struct fixture *f, struct submissions *ss, const char *author,
			   const char *bot)
{
	char err[1024] = "";
	uint64_t id = 0;
	long retry;

	if (receive(f, ss, author, bot, 0, time(NULL), &id, &retry, err, sizeof(err)) < 0)
		fail_msg("receive %s/%s: %s", author, bot, err);
	return id;
}

static void set_ok(struct submissions *ss, uint64_t id, enum submission_state state,
		   const char *entry, const char *why)
{
	char err[1024] = "";

	if (submissions_set_state(ss, id, state, entry, why, err, sizeof(err)) < 0)
		fail_msg("state of %llu: %s", (unsigned long long)id, err);
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	char err[1024], path[PATH_MAX], incoming[PATH_MAX];
	struct submissions ss, other;
	struct submission *s;
	struct stat st;

	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	assert_int_equal(submissions_open(&other, f->dir, err, sizeof(err)), 0);
	assert_int_equal(ss.n, 0);
	snprintf(incoming, sizeof(incoming), "%s/incoming/u0", f->dir);
	assert_int_equal(receive_ok(f, &ss, "alice", "fast"), 1);
	assert_int_equal(receive_ok(f, &ss, "bob", "slow"), 2);
	/* the upload moved into the submission's directory; the incoming file gone */
	assert_int_equal(submissions_path(&ss, 1, "upload", path, sizeof(path)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, strlen("archive bytes"));
	assert_int_equal(stat(incoming, &st), -1);

	s = submissions_find(&ss, 1);
	assert_non_null(s);
	assert_string_equal(s->author, "alice");
	assert_string_equal(s->bot, "fast");
	assert_int_equal(s->bytes, 13);
	assert_int_equal(strlen(s->sha256), 64);
	assert_int_equal(s->state, SUBMISSION_RECEIVED);

	set_ok(&ss, 1, SUBMISSION_UNPACKED, NULL, NULL);
	set_ok(&ss, 1, SUBMISSION_BUILDING, NULL, NULL);
	set_ok(&ss, 1, SUBMISSION_CHECKING, NULL, NULL);
	set_ok(&ss, 1, SUBMISSION_ENTERED, "fast@2", NULL);
	set_ok(&ss, 2, SUBMISSION_UNPACKED, NULL, NULL);
	set_ok(&ss, 2, SUBMISSION_BUILDING, NULL, NULL);
	set_ok(&ss, 2, SUBMISSION_FAILED, NULL, "the build exited with status 2: see build.log");
	/* settled: no state after it */
	assert_int_equal(submissions_set_state(&ss, 1, SUBMISSION_CHECKING, NULL, NULL, err,
					       sizeof(err)), -EINVAL);
	assert_int_equal(submissions_disable(&ss, 1, "cheats", err, sizeof(err)), 0);
	assert_int_equal(submissions_disable(&ss, 1, "cheats", err, sizeof(err)), -EALREADY);

	/* another reader, kept open, sees all of it on a refresh */
	assert_int_equal(submissions_refresh(&other, err, sizeof(err)), 0);
	assert_int_equal(other.n, 2);
	s = submissions_find(&other, 1);
	assert_int_equal(s->state, SUBMISSION_ENTERED);
	assert_string_equal(s->entry, "fast@2");
	assert_true(s->disabled);
	assert_string_equal(s->why, "cheats");
	s = submissions_find(&other, 2);
	assert_int_equal(s->state, SUBMISSION_FAILED);
	assert_int_equal(s->failed_at, SUBMISSION_BUILDING);
	assert_string_equal(s->why, "the build exited with status 2: see build.log");
	assert_null(submissions_find(&other, 3));
	submissions_release(&other);
	submissions_release(&ss);
}

static void test_torn_tail(void **state)
{
	struct fixture *f = *state;
	struct submissions ss;
	char err[1024];

	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	receive_ok(f, &ss, "alice", "fast");
	append_raw(f->file, "{\"event\":\"state\",\"id\":1,\"sta");
	submissions_release(&ss);
	if (submissions_open(&ss, f->dir, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(ss.n, 1);
	assert_int_equal(ss.s[0].state, SUBMISSION_RECEIVED);
	/* the next append cuts the torn line and goes after the whole ones */
	assert_int_equal(receive_ok(f, &ss, "alice", "fast"), 2);
	submissions_release(&ss);
	if (submissions_open(&ss, f->dir, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(ss.n, 2);
	submissions_release(&ss);
}

static void test_per_day(void **state)
{
	struct fixture *f = *state;
	char err[1024], path[PATH_MAX];
	time_t now = time(NULL);
	struct submissions ss;
	struct stat st;
	uint64_t id;
	long retry;

	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(receive(f, &ss, "alice", "fast", 3, now + i, &id, &retry, err,
					 sizeof(err)), 0);
	upload(f, "x", path, sizeof(path));
	assert_int_equal(submissions_receive(&ss, "alice", "fast", path, 3, now + 10, &id, &retry,
					     err, sizeof(err)), -EAGAIN);
	/* the oldest leaves the 24 hours at now + 86400 */
	assert_int_equal(retry, 86400 - 10);
	assert_non_null(strstr(err, "per_day"));
	assert_int_equal(stat(path, &st), -1); /* a refused upload is removed */
	/* another author has a limit of their own */
	assert_int_equal(receive(f, &ss, "bob", "slow", 3, now + 10, &id, &retry, err,
				 sizeof(err)), 0);
	/* a failed one is free */
	set_ok(&ss, 2, SUBMISSION_FAILED, NULL, "the archive was refused: entry \"/x\": ...");
	/* failed while still received: at the first stage of work */
	assert_int_equal(submissions_find(&ss, 2)->failed_at, SUBMISSION_UNPACKED);
	assert_int_equal(receive(f, &ss, "alice", "fast", 3, now + 10, &id, &retry, err,
				 sizeof(err)), 0);
	assert_int_equal(receive(f, &ss, "alice", "fast", 3, now + 11, &id, &retry, err,
				 sizeof(err)), -EAGAIN);
	/* a day later the first ones count no more */
	assert_int_equal(receive(f, &ss, "alice", "fast", 3, now + 86400 + 1, &id, &retry, err,
				 sizeof(err)), 0);
	submissions_release(&ss);
}

static void test_name_owned(void **state)
{
	struct fixture *f = *state;
	char err[1024];
	struct submissions ss;
	uint64_t id;
	long retry;

	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	receive_ok(f, &ss, "alice", "fast");
	assert_int_equal(receive(f, &ss, "bob", "fast", 0, time(NULL), &id, &retry, err,
				 sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "belongs to another author"));
	assert_int_equal(receive(f, &ss, "bob", "../x", 0, time(NULL), &id, &retry, err,
				 sizeof(err)), -EINVAL);
	assert_int_equal(receive(f, &ss, "bob", "fast@2", 0, time(NULL), &id, &retry, err,
				 sizeof(err)), -EINVAL);
	assert_int_equal(ss.n, 1);
	submissions_release(&ss);
}

static void test_queue(void **state)
{
	struct fixture *f = *state;
	char err[1024], why[256];
	struct submissions ss;
	struct submission *next;
	size_t pos;

	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	receive_ok(f, &ss, "alice", "a1"); /* 1 */
	receive_ok(f, &ss, "alice", "a2"); /* 2 */
	receive_ok(f, &ss, "bob", "b1");   /* 3 */
	receive_ok(f, &ss, "carol", "c1"); /* 4 */

	assert_int_equal(submissions_queue(&ss, 1, &pos, why, sizeof(why)), 0);
	assert_int_equal(pos, 1);
	assert_non_null(strstr(why, "next"));
	assert_int_equal(submissions_queue(&ss, 2, &pos, why, sizeof(why)), 0);
	assert_int_equal(pos, 2);
	assert_string_equal(why, "alice's submission 1 goes first: one build at a time per author");
	assert_int_equal(submissions_queue(&ss, 4, &pos, why, sizeof(why)), 0);
	assert_int_equal(pos, 4);
	assert_string_equal(why, "behind 3 submissions");
	assert_int_equal(submissions_queue(&ss, 9, &pos, why, sizeof(why)), -ENOENT);

	/* alice's first taken: her second waits for it, bob's is next */
	next = submissions_next(&ss);
	assert_int_equal(next->id, 1);
	next->taken = true;
	next = submissions_next(&ss);
	assert_int_equal(next->id, 3);
	next->taken = true;
	set_ok(&ss, 1, SUBMISSION_BUILDING, NULL, NULL);
	assert_int_equal(submissions_queue(&ss, 2, &pos, why, sizeof(why)), 0);
	assert_int_equal(pos, 1);
	assert_string_equal(why, "alice's submission 1 is building: one build at a time per author");
	assert_int_equal(submissions_queue(&ss, 1, &pos, why, sizeof(why)), 0);
	assert_int_equal(pos, 0); /* not waiting */
	assert_int_equal(submissions_next(&ss)->id, 4);
	submissions_find(&ss, 4)->taken = true;
	assert_null(submissions_next(&ss));
	/* alice's first entered: her second is next; a disabled one is never taken */
	set_ok(&ss, 1, SUBMISSION_ENTERED, "a1", NULL);
	submissions_find(&ss, 1)->taken = false;
	assert_int_equal(submissions_disable(&ss, 2, "withdrawn", err, sizeof(err)), 0);
	assert_null(submissions_next(&ss));
	submissions_release(&ss);
}

static void test_restart(void **state)
{
	struct fixture *f = *state;
	char err[1024];
	struct submissions ss;

	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	receive_ok(f, &ss, "alice", "a");
	receive_ok(f, &ss, "bob", "b");
	receive_ok(f, &ss, "carol", "c");
	receive_ok(f, &ss, "dave", "d");
	set_ok(&ss, 1, SUBMISSION_UNPACKED, NULL, NULL);
	set_ok(&ss, 2, SUBMISSION_BUILDING, NULL, NULL);
	set_ok(&ss, 3, SUBMISSION_CHECKING, NULL, NULL);
	set_ok(&ss, 4, SUBMISSION_ENTERED, "d", NULL);
	submissions_release(&ss);

	/* as after a kill -9: read again, the ones in flight back to received */
	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
	assert_int_equal(ss.s[1].state, SUBMISSION_BUILDING);
	assert_int_equal(submissions_restart(&ss, err, sizeof(err)), 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ss.s[i].state, SUBMISSION_RECEIVED);
	assert_int_equal(ss.s[3].state, SUBMISSION_ENTERED);
	assert_int_equal(submissions_next(&ss)->id, 1);
	assert_int_equal(submissions_restart(&ss, err, sizeof(err)), 0);
	submissions_release(&ss);
	/* a directory a crash left without its "received" is replaced by the next upload */
	{
		char dir[PATH_MAX], stray[PATH_MAX + 8];

		snprintf(dir, sizeof(dir), "%s/%s/5", f->dir, SUBMISSIONS_DIR);
		assert_int_equal(mkdir(dir, 0700), 0);
		snprintf(stray, sizeof(stray), "%s/stray", dir);
		append_raw(stray, "x");
		assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), 0);
		assert_int_equal(receive_ok(f, &ss, "erin", "e"), 5);
		assert_int_equal(access(stray, F_OK), -1);
		submissions_release(&ss);
	}
}

/* The file holding good lines and then bad; its open's error. */
static void refused(struct fixture *f, const char *bad, const char *words)
{
	char err[1024] = "";
	struct submissions ss;

	unlink(f->file);
	append_raw(f->file, "{\"event\":\"received\",\"id\":1,\"author\":\"alice\",\"bot\":\"fast\","
		   "\"sha256\":\"0000000000000000000000000000000000000000000000000000000000000000\","
		   "\"bytes\":5,\"time\":\"2026-12-07T06:00:00Z\"}\n");
	append_raw(f->file, bad);
	append_raw(f->file, "\n");
	assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), -EBADMSG);
	if (!strstr(err, "line 2") || !strstr(err, words))
		fail_msg("%s: %s", bad, err);
}

static void test_strict_reader(void **state)
{
	struct fixture *f = *state;

	refused(f, "not json", "not a JSON object");
	refused(f, "{\"event\":\"state\",\"id\":2,\"state\":\"building\",\"time\":\"2026-12-07T06:00:00Z\"}",
		"not received before");
	refused(f, "{\"event\":\"state\",\"id\":1,\"state\":\"baking\",\"time\":\"2026-12-07T06:00:00Z\"}",
		"a state that is not");
	refused(f, "{\"event\":\"state\",\"id\":1,\"state\":\"entered\",\"time\":\"2026-12-07T06:00:00Z\"}",
		"missing");
	refused(f, "{\"event\":\"state\",\"id\":1,\"state\":\"unpacked\",\"x\":1,\"time\":\"2026-12-07T06:00:00Z\"}",
		"not part of the event");
	refused(f, "{\"event\":\"received\",\"id\":1,\"author\":\"bob\",\"bot\":\"b\",\"sha256\":"
		"\"0000000000000000000000000000000000000000000000000000000000000000\",\"bytes\":5,"
		"\"time\":\"2026-12-07T06:00:00Z\"}", "not above");
	refused(f, "{\"event\":\"received\",\"id\":2,\"author\":\"../bob\",\"bot\":\"b\",\"sha256\":"
		"\"0000000000000000000000000000000000000000000000000000000000000000\",\"bytes\":5,"
		"\"time\":\"2026-12-07T06:00:00Z\"}", "not a name");
	refused(f, "{\"event\":\"state\",\"id\":1,\"state\":\"unpacked\",\"time\":\"yesterday\"}",
		"not a JSON object");
	refused(f, "{\"event\":\"vanish\",\"id\":1,\"time\":\"2026-12-07T06:00:00Z\"}",
		"an event other than");
	refused(f, "{\"event\":\"state\",\"id\":1,\"state\":\"failed\",\"stage\":\"entered\","
		"\"why\":\"x\",\"time\":\"2026-12-07T06:00:00Z\"}", "without a stage");
	/* a state after entered: the third line */
	{
		char err[1024] = "";
		struct submissions ss;

		unlink(f->file);
		append_raw(f->file, "{\"event\":\"received\",\"id\":1,\"author\":\"alice\",\"bot\":"
			   "\"fast\",\"sha256\":\"0000000000000000000000000000000000000000000000000"
			   "000000000000000\",\"bytes\":5,\"time\":\"2026-12-07T06:00:00Z\"}\n"
			   "{\"event\":\"state\",\"id\":1,\"state\":\"entered\",\"entry\":\"fast\","
			   "\"time\":\"2026-12-07T06:00:00Z\"}\n{\"event\":\"state\",\"id\":1,"
			   "\"state\":\"building\",\"time\":\"2026-12-07T06:00:00Z\"}\n");
		assert_int_equal(submissions_open(&ss, f->dir, err, sizeof(err)), -EBADMSG);
		assert_non_null(strstr(err, "line 3"));
		assert_non_null(strstr(err, "after the submission"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_per_day, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_owned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strict_reader, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
