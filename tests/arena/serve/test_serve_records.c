/*
 * test_serve_records.c - a tournament's records read incrementally
 * (serve_records.h) against the report read in one pass (report_load): a
 * games.jsonl written in pieces, with a torn last line between updates, an
 * invalid line and a repeated id, gives the same ranking; an update reads
 * only what was appended; a replaced file is read again from the start with
 * a new generation; each index entry finds its own line and filters by its
 * bots, faults and winners.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report.h"
#include "serve_records.h"

#define NBOTS 5

static uint64_t rng_state;

static int pick(int n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (int)(rng_state % (uint64_t)n);
}

/* Record k (the same every time): a 2-player duplicate game of two bots, rotation k % 2; a
 * fault now and then. */
static int record(char *buf, size_t size, int k)
{
	rng_state = 0x9e3779b97f4a7c15u * (uint64_t)(k + 1);
	int a = (k / 2) % NBOTS, b = (a + 1 + (k / 10) % (NBOTS - 1)) % NBOTS;
	int win = pick(3) ? 0 : 1, fault = pick(7) == 0;

	if (k % 2)
		a ^= b, b ^= a, a ^= b;
	return snprintf(buf, size, "{\"id\":\"g%d\",\"table\":%d,\"deal\":%d,\"rotation\":%d,"
			"\"players\":2,\"partnership\":false,\"match\":false,\"games\":1,"
			"\"bots\":[\"b%d\",\"b%d\"],\"winners\":[%d],\"placings\":[%d,%d],"
			"\"stock_left\":[%d,%d],\"scores\":[%d,%d],\"time\":[{\"moves\":10,"
			"\"mean_us\":5.5,\"median_us\":5,\"p99_us\":9,\"max_us\":12},{\"moves\":9,"
			"\"mean_us\":7.5,\"median_us\":7,\"p99_us\":10,\"max_us\":20}],"
			"\"faults\":[%s]}\n", k, (k / 2) % 7, k / 2, k % 2, a, b, win, win ? 2 : 1,
			win ? 1 : 2, win ? 3 : 0, win ? 0 : 4, win ? 0 : 30, win ? 30 : 0,
			fault ? "{\"seat\":1,\"kind\":\"timeout\"}" : "");
}

static char dir[] = "/tmp/test_serve_records.XXXXXX";
static char path[sizeof(dir) + 16];

static void append(const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void append_records(int from, int to)
{
	char line[1024];

	for (int k = from; k < to; k++) {
		record(line, sizeof(line), k);
		append(line);
	}
}

static void same_ranking(const struct serve_records *s)
{
	struct report inc, full;
	struct gamelog log;
	const char *dirs[1] = { dir };
	char err[256];

	gamelog_init(&log);
	assert_int_equal(serve_records_report(s, NULL, &inc, err, sizeof(err)), 0);
	assert_int_equal(report_load_opts(&full, &log, dirs, 1, &report_defaults, err,
					  sizeof(err)), 0);
	assert_int_equal(inc.nbots, full.nbots);
	assert_int_equal(inc.log->records, full.log->records);
	for (size_t i = 0; i < full.nbots; i++) {
		assert_string_equal(inc.bots[i].name, full.bots[i].name);
		assert_int_equal(inc.bots[i].games, full.bots[i].games);
		assert_int_equal(inc.bots[i].wins, full.bots[i].wins);
		assert_int_equal(inc.bots[i].faults_total, full.bots[i].faults_total);
		assert_true(fabs(inc.bots[i].elo - full.bots[i].elo) < 1e-6);
		/* open deals count in the sandwich as closed ones do */
		assert_true(fabs(inc.bots[i].ci95 - full.bots[i].ci95) < 1e-6 * full.bots[i].ci95 + 1e-9);
		assert_true(fabs(inc.bots[i].time_mean_us - full.bots[i].time_mean_us) < 1e-9);
	}
	report_release(&inc);
	report_release(&full);
	gamelog_release(&log);
}

static void test_incremental_equals_full(void **state)
{
	struct serve_records s;
	char err[256], line[1024];
	int len;

	(void)state;
	serve_records_init(&s);
	assert_int_equal(serve_records_add_dir(&s, dir), 0);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 0); /* no file yet */
	append_records(0, 700);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 700);
	same_ranking(&s);
	/* a torn last line is left for later, and the bytes before it are not read again */
	len = record(line, sizeof(line), 700);
	line[len / 2] = '\0';
	append(line);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 0);
	assert_int_equal(s.ngames, 700);
	assert_true(s.dirs[0].size > s.dirs[0].offset);
	record(line, sizeof(line), 700);
	append(line + len / 2);
	append("{\"id\":\"broken\"}\n");
	record(line, sizeof(line), 3); /* g3 again: counted once */
	append(line);
	append_records(701, 2000);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 1300);
	assert_int_equal(s.dirs[0].records, 2000);
	assert_int_equal(s.dirs[0].invalid, 1);
	assert_int_equal(s.log.repeated, 1);
	assert_int_equal(s.dirs[0].offset, s.dirs[0].size);
	same_ranking(&s);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 0);
	serve_records_release(&s);
}

static void test_index_entries(void **state)
{
	struct serve_records s;
	char err[256], want[1024], *got;
	size_t len;

	(void)state;
	serve_records_init(&s);
	assert_int_equal(serve_records_add_dir(&s, dir), 0);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 2000);
	for (size_t n = 0; n < s.ngames; n += 97) {
		const struct serve_game *g = &s.games[n];
		assert_non_null(got = serve_records_line(&s, n, &len));
		assert_int_equal(len, g->length);
		assert_int_equal(got[len], '\0');
		assert_non_null(strstr(got, "\"bots\":[\"b"));
		/* index n is record n up to the repeated and broken lines, which come after 700 */
		if (n < 700) {
			record(want, sizeof(want), (int)n);
			want[strlen(want) - 1] = '\0';
			assert_string_equal(got, want);
			assert_int_equal(g->faults != 0, strstr(want, "timeout") != NULL);
			assert_int_equal(g->winners, strstr(want, "\"winners\":[0]") ? 1 : 2);
		}
		free(got);
	}
	errno = 0;
	assert_null(serve_records_line(&s, s.ngames, &len));
	assert_int_equal(errno, ENOENT);
	serve_records_release(&s);
}

static void test_replaced_file(void **state)
{
	struct serve_records s;
	char err[256], tmp[sizeof(path) + 8], line[1024];
	uint64_t generation;
	FILE *f;

	(void)state;
	serve_records_init(&s);
	assert_int_equal(serve_records_add_dir(&s, dir), 0);
	assert_int_equal(serve_records_update(&s, err, sizeof(err)), 2000);
	generation = s.generation;
	/* another file renamed over it, shorter: read from the start, a new generation */
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	assert_non_null(f = fopen(tmp, "w"));
	for (int k = 0; k < 10; k++) {
		record(line, sizeof(line), k);
		fputs(line, f);
	}
	fclose(f);
	assert_int_equal(rename(tmp, path), 0);
	assert_true(serve_records_update(&s, err, sizeof(err)) > 0);
	assert_int_equal(s.generation, generation + 1);
	assert_int_equal(s.ngames, 10);
	assert_int_equal(s.dirs[0].records, 10);
	same_ranking(&s);
	serve_records_release(&s);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental_equals_full),
		cmocka_unit_test(test_index_entries),
		cmocka_unit_test(test_replaced_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
