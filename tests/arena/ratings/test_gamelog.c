/*
 * test_gamelog.c - reading games.jsonl records (results/README.md).
 */
#include <errno.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assert_near.h"
#include "gamelog.h"
#include "idset.h"
#include "rating_fixture.h"

/* The example record of results/README.md, on one line. */
static const char readme_record[] =
	"{\"id\":\"t0003-d0001-r1\",\"table\":3,\"deal\":1,\"rotation\":1,\"seed\":1234567,"
	"\"players\":2,\"partnership\":false,\"teams\":[[0],[1]],\"match\":false,\"games\":1,"
	"\"bots\":[\"medium\",\"easy\"],\"winners\":[0],\"reason\":\"stock_emptied\","
	"\"placings\":[1,2],\"stock_left\":[0,7],\"scores\":[60,0],\"turns\":81,\"moves\":402,"
	"\"time\":[{\"moves\":201,\"mean_us\":35.2,\"median_us\":30,\"p99_us\":120,\"max_us\":400},"
	"{\"moves\":201,\"mean_us\":21.0,\"median_us\":19,\"p99_us\":60,\"max_us\":88}],"
	"\"faults\":[{\"seat\":1,\"bot\":\"easy\",\"kind\":\"timeout\",\"turn\":40,\"move\":199,"
	"\"reason\":\"no answer within 1000 ms\",\"line\":\"\"}],"
	"\"replay\":\"replays/t0003-d0001-r1.json\"}";

static const char partnership_record[] =
	"{\"id\":\"x\",\"table\":0,\"deal\":0,\"rotation\":0,\"players\":4,\"partnership\":true,"
	"\"teams\":[[0,2],[1,3]],\"bots\":[\"a\",\"b\",\"c\",\"medium\"],\"winners\":[1,3],"
	"\"placings\":[2,1,2,1],\"stock_left\":[3,0,5,0],\"scores\":[0,65,0,65],"
	"\"faults\":[{\"seat\":0,\"kind\":\"weird\"}]}";

static int add(struct gamelog *log, const char *text)
{
	return gamelog_add_line(log, text, strlen(text), 0);
}

static void test_readme_record(void **state)
{
	struct gamelog log;
	(void)state;

	gamelog_init(&log);
	assert_int_equal(add(&log, readme_record), 0);
	assert_int_equal(log.ngames, 1);
	assert_int_equal(log.nbots, 2);
	assert_string_equal(log.bots[0], "medium");
	assert_string_equal(log.bots[1], "easy");
	const struct gamelog_game *g = &log.games[0];
	assert_int_equal(g->players, 2);
	assert_int_equal(g->table, 3);
	assert_int_equal(g->deal, 1);
	assert_int_equal(g->rotation, 1);
	assert_int_equal(g->bot[0], 0);
	assert_int_equal(g->bot[1], 1);
	assert_true(g->winner[0]);
	assert_false(g->winner[1]);
	assert_int_equal(g->placing[1], 2);
	assert_int_equal(g->stock_left[1], 7);
	assert_int_equal(g->score[0], 60);
	assert_true(g->has_time);
	assert_near(g->time[0].mean_us, 35.2, 1e-5); /* stored as float */
	assert_near(g->time[1].p99_us, 60, 0);
	assert_near(g->time[1].max_us, 88, 0);
	assert_int_equal(g->fault[0], -1);
	assert_int_equal(g->fault[1], GAMELOG_FAULT_TIMEOUT);
	assert_int_not_equal(g->team[0], g->team[1]);
	gamelog_release(&log);
}

static void test_partnership_and_unknown_fault(void **state)
{
	struct gamelog log;
	(void)state;

	gamelog_init(&log);
	assert_int_equal(add(&log, readme_record), 0);
	assert_int_equal(add(&log, partnership_record), 0);
	assert_int_equal(log.nbots, 5); /* "medium" is the same bot in both records */
	const struct gamelog_game *g = &log.games[1];
	assert_true(g->partnership);
	assert_int_equal(g->team[0], g->team[2]);
	assert_int_equal(g->team[1], g->team[3]);
	assert_int_not_equal(g->team[0], g->team[1]);
	assert_int_equal(g->bot[3], 0);
	assert_false(g->has_time);
	assert_int_equal(g->fault[0], GAMELOG_FAULT_OTHER);
	assert_int_equal(gamelog_find_bot(&log, "c"), 4);
	assert_int_equal(gamelog_find_bot(&log, "nobody"), -1);
	gamelog_release(&log);
}

static void test_invalid_records_refused(void **state)
{
	static const char *const bad[] = {
		"not json",
		"{\"players\":2}",
		"[1,2]",
		/* 7 players is more than R2 allows */
		"{\"players\":7,\"bots\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\"],\"winners\":[],"
		"\"placings\":[1,1,1,1,1,1,1],\"stock_left\":[0,0,0,0,0,0,0],\"scores\":[0,0,0,0,0,0,0]}",
		/* placings array shorter than players */
		"{\"players\":2,\"bots\":[\"a\",\"b\"],\"winners\":[0],\"placings\":[1],"
		"\"stock_left\":[0,1],\"scores\":[30,0]}",
		/* winner seat out of range */
		"{\"players\":2,\"bots\":[\"a\",\"b\"],\"winners\":[2],\"placings\":[1,2],"
		"\"stock_left\":[0,1],\"scores\":[30,0]}",
		/* a seat missing from teams */
		"{\"players\":2,\"bots\":[\"a\",\"b\"],\"winners\":[0],\"placings\":[1,2],"
		"\"teams\":[[0]],\"stock_left\":[0,1],\"scores\":[30,0]}",
		/* trailing garbage after the object */
		"{\"players\":2,\"bots\":[\"a\",\"b\"],\"winners\":[0],\"placings\":[1,2],"
		"\"stock_left\":[0,1],\"scores\":[30,0]} x",
	};
	struct gamelog log;
	(void)state;

	gamelog_init(&log);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(add(&log, bad[i]), -EBADMSG);
	assert_int_equal(log.ngames, 0);
	assert_int_equal(log.nbots, 0);
	gamelog_release(&log);
}

/* The readme record with from replaced by to (from must occur), into buf. */
static const char *edited(char *buf, size_t size, const char *from, const char *to)
{
	const char *at = strstr(readme_record, from);

	assert_non_null(at);
	snprintf(buf, size, "%.*s%s%s", (int)(at - readme_record), readme_record, to,
		 at + strlen(from));
	return buf;
}

/* Every number is read strictly and every refusal names its field. */
static void test_strict_records(void **state)
{
	static const struct {
		const char *from, *to, *why;
	} cases[] = {
		{ "\"max_us\":400", "\"max_us\":1e400", "time[0].max_us: expected a number from 0" },
		{ "\"max_us\":400", "\"max_us\":1e39", "time[0].max_us" },
		{ "\"mean_us\":21.0", "\"mean_us\":-0.5", "time[1].mean_us" },
		{ "\"moves\":201", "\"moves\":2.5", "time[0].moves: expected an integer" },
		{ "\"placings\":[1,2]", "\"placings\":[1.0,2]",
		  "placings[0]: expected an integer from 1 to 2, found 1.0" },
		{ "\"placings\":[1,2]", "\"placings\":[1,-2147483648]", "placings[1]" },
		{ "\"scores\":[60,0]", "\"scores\":[1e400,0]", "scores[0]: expected an integer" },
		{ "\"scores\":[60,0]", "\"scores\":[60,2147483648]", "scores[1]" },
		{ "\"stock_left\":[0,7]", "\"stock_left\":[0,7e0]", "stock_left[1]" },
		{ "\"winners\":[0]", "\"winners\":[0.0]", "winners[0]" },
		{ "\"teams\":[[0],[1]]", "\"teams\":[[0],[1e0]]", "teams[1][0]" },
		{ "\"table\":3", "\"table\":1e3", "table: expected an integer" },
		{ "\"seat\":1,", "\"seat\":1.5,", "faults[0].seat" },
		{ "\"partnership\":false", "\"partnership\":0", "partnership: expected true or false" },
		{ "\"players\":2,", "\"players\":2,\"players\":3,", "duplicate key \"players\"" },
		{ "\"medium\"", "\"\\u001b[2J\"", "bots[0]: expected a name" },
	};
	char buf[2048];
	struct gamelog log;
	(void)state;

	gamelog_init(&log);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *line = edited(buf, sizeof(buf), cases[i].from, cases[i].to);

		if (add(&log, line) != -EBADMSG || !strstr(log.why, cases[i].why))
			fail_msg("%s -> %s: expected a refusal naming \"%s\", got \"%s\"",
				 cases[i].from, cases[i].to, cases[i].why, log.why);
	}
	assert_int_equal(log.ngames, 0);
	/* the extremes that are in range are read */
	assert_int_equal(add(&log, edited(buf, sizeof(buf), "\"max_us\":400",
					  "\"max_us\":1e13")), 0);
	assert_int_equal(log.ngames, 1);
	gamelog_release(&log);
}

/* The first invalid line is kept with its number; a stop request ends a read. */
static void test_first_invalid_and_stop(void **state)
{
	char text[8192], path[128], err[256], bad[2048], second[2048], third[2048];
	volatile sig_atomic_t stop = 0;
	struct gamelog log;
	(void)state;

	/* three games: each its own id */
	snprintf(text, sizeof(text), "%s\n%s\n\n%s\n%s\n", readme_record,
		 edited(second, sizeof(second), "t0003-d0001-r1\",", "t0003-d0001-r0\","),
		 edited(bad, sizeof(bad), "\"max_us\":400", "\"max_us\":1e400"),
		 edited(third, sizeof(third), "t0003-d0001-r1\",", "t0003-d0002-r1\","));
	fixture_write_file("strict.jsonl", text);
	snprintf(path, sizeof(path), "%s/strict.jsonl", fixture_dir);
	gamelog_init(&log);
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), 0);
	assert_int_equal(log.ngames, 3);
	assert_int_equal(log.invalid, 1);
	assert_int_equal(log.first_invalid_line, 4);
	assert_int_equal(log.first_invalid_source, 0);
	assert_non_null(strstr(log.first_invalid, "time[0].max_us"));
	assert_non_null(strstr(log.first_invalid, "found 1e400"));
	stop = 1;
	log.stop = &stop;
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), -EINTR);
	assert_non_null(strstr(err, "stopped"));
	assert_int_equal(log.ngames, 3);
	gamelog_release(&log);
}

/*
 * A record whose id came before in the same file counts once, whatever it
 * says (a forged copy with other winners too); the same id in another file
 * is another tournament's game.
 */
static void test_repeated_id_counted_once(void **state)
{
	char text[16384], path[128], err[256], forged[2048], other[2048], far[2048];
	struct gamelog log;
	(void)state;

	edited(forged, sizeof(forged), "\"winners\":[0]", "\"winners\":[1]");
	edited(other, sizeof(other), "t0003-d0001-r1\",", "t0003-d0001-r0\",");
	/* an id far past the others is kept whole, and still counts once */
	edited(far, sizeof(far), "t0003-d0001-r1\",", "t0003-d99999999-r1\",");
	snprintf(text, sizeof(text), "%s\n%s\n%s\n%s\n%s\n%s\n%s\n", readme_record, forged,
		 other, readme_record, far, far, other);
	fixture_write_file("repeated.jsonl", text);
	snprintf(path, sizeof(path), "%s/repeated.jsonl", fixture_dir);
	gamelog_init(&log);
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), 0);
	assert_int_equal(log.ngames, 3);
	assert_int_equal(log.records, 3);
	assert_int_equal(log.repeated, 4);
	assert_true(log.games[0].winner[0]);
	assert_false(log.games[0].winner[1]);
	assert_int_equal(log.invalid, 0);
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), 0);
	assert_int_equal(log.ngames, 6);
	assert_int_equal(log.repeated, 8);
	gamelog_release(&log);
}

/* Ids of the arena's form take a bit each, in order or not; any other id is kept whole. */
static void test_idset(void **state)
{
	struct idset *s;
	char id[64];
	(void)state;

	assert_int_equal(idset_new(&s), 0);
	for (int pass = 0; pass < 2; pass++)
		for (unsigned t = 0; t < 50; t++)
			for (unsigned d = 0; d < 200; d++)
				for (unsigned r = 0; r < 2; r++) {
					snprintf(id, sizeof(id), "t%04u-d%04u-r%u", t, (d * 7) % 200, r);
					assert_int_equal(idset_add(s, 0, id), pass);
				}
	assert_int_equal(idset_add(s, 1, "t0000-d0000-r0"), 0);
	assert_int_equal(idset_add(s, 0, "check-1"), 0);
	assert_int_equal(idset_add(s, 0, "check-1"), 1);
	assert_int_equal(idset_add(s, 0, "t0000-d0000-r9"), 0); /* no seat 9: a string */
	assert_int_equal(idset_add(s, 0, "t0000-d0000-r9"), 1);
	assert_int_equal(idset_add(s, 0, "t99-d2-r0x"), 0);
	assert_int_equal(idset_add(s, 0, "t99-d2-r0"), 0);
	assert_int_equal(idset_add(s, 0, "t0099-d0002-r0"), 1); /* the same numbers */
	idset_free(s);
}

static void test_torn_last_line_and_bad_line_skipped(void **state)
{
	char text[4096], path[128], err[256];
	struct gamelog log;
	(void)state;

	/* Two good records, a damaged one between them, and a record cut mid-write. */
	snprintf(text, sizeof(text), "%s\n{\"players\":\n\n%s\n%.*s", readme_record,
		 partnership_record, 60, readme_record);
	fixture_write_file("games.jsonl", text);
	snprintf(path, sizeof(path), "%s/games.jsonl", fixture_dir);
	gamelog_init(&log);
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), 0);
	assert_int_equal(log.ngames, 2);
	assert_int_equal(log.torn, 1);
	assert_int_equal(log.invalid, 1);
	assert_int_equal(log.nsources, 1);

	/* A second file merges as source 1, with bots matched by name. */
	snprintf(text, sizeof(text), "%s\n", readme_record);
	fixture_write_file("second.jsonl", text);
	snprintf(path, sizeof(path), "%s/second.jsonl", fixture_dir);
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), 0);
	assert_int_equal(log.ngames, 3);
	assert_int_equal(log.games[2].source, 1);
	assert_int_equal(log.games[0].source, 0);
	assert_int_equal(log.nbots, 5);
	gamelog_release(&log);
}

struct sink_seen {
	int calls, fail_at;
	int players[4];
	size_t nbots[4];
};

static int count_sink(void *ctx, const struct gamelog *log, const struct gamelog_game *g)
{
	struct sink_seen *seen = ctx;

	if (seen->calls == seen->fail_at)
		return -ENOMEM;
	seen->players[seen->calls] = g->players;
	seen->nbots[seen->calls] = log->nbots;
	seen->calls++;
	return 0;
}

static void test_sink_gets_records_unstored(void **state)
{
	char text[4096], path[128], err[256];
	struct sink_seen seen = { .fail_at = -1 };
	struct gamelog log;
	(void)state;

	snprintf(text, sizeof(text), "%s\nnot json\n%s\n%.50s", readme_record, partnership_record,
		 readme_record);
	fixture_write_file("sink.jsonl", text);
	snprintf(path, sizeof(path), "%s/sink.jsonl", fixture_dir);
	gamelog_init(&log);
	gamelog_set_sink(&log, count_sink, &seen);
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), 0);
	assert_int_equal(seen.calls, 2);
	assert_int_equal(seen.players[0], 2);
	assert_int_equal(seen.players[1], 4);
	assert_int_equal(seen.nbots[0], 2); /* the record's bots are named before the sink sees it */
	assert_int_equal(seen.nbots[1], 5);
	assert_int_equal(log.records, 2);
	assert_int_equal(log.ngames, 0);
	assert_null(log.games);
	assert_int_equal(log.invalid, 1);
	assert_int_equal(log.torn, 1);

	/* A sink error stops the reading and comes back from gamelog_read. */
	seen = (struct sink_seen){ .fail_at = 1 };
	assert_int_equal(gamelog_read(&log, path, err, sizeof(err)), -ENOMEM);
	assert_int_equal(seen.calls, 1);
	assert_int_equal(log.records, 3);

	/* Without the sink, records are stored again (a game not read yet). */
	gamelog_set_sink(&log, NULL, NULL);
	assert_int_equal(add(&log, edited(text, sizeof(text), "t0003-d0001-r1\",",
					  "t0003-d0009-r1\",")), 0);
	assert_int_equal(log.ngames, 1);
	assert_int_equal(log.records, 4);
	gamelog_release(&log);
}

static void test_missing_file(void **state)
{
	char err[256] = "";
	struct gamelog log;
	(void)state;

	gamelog_init(&log);
	assert_int_equal(gamelog_read(&log, "/nonexistent/games.jsonl", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/games.jsonl"));
	gamelog_release(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readme_record),
		cmocka_unit_test(test_repeated_id_counted_once),
		cmocka_unit_test(test_idset),
		cmocka_unit_test(test_partnership_and_unknown_fault),
		cmocka_unit_test(test_invalid_records_refused),
		cmocka_unit_test(test_strict_records),
		cmocka_unit_test(test_first_invalid_and_stop),
		cmocka_unit_test(test_torn_last_line_and_bad_line_skipped),
		cmocka_unit_test(test_sink_gets_records_unstored),
		cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, fixture_dir_make, fixture_dir_remove);
}
