/*
 * test_record - a games.jsonl line (arena/records/record.h): the fast path
 * reads the arena's own lines and gives what the strict reader gives, on
 * real files and on every one-byte change of their lines; the writer gives
 * the lines back byte for byte; old records (no CPU times, a replay file of
 * the game's own, no "teams") still read; the two levels refuse what they
 * should, naming the field.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "record_internal.h"
#include "records.h"

/* Lines of a file, kept. */
struct lines {
	char **v;
	size_t n;
};

static int keep_line(void *ctx, const struct records_line *line)
{
	struct lines *l = ctx;

	l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	assert_non_null(l->v);
	l->v[l->n] = strndup(line->text, line->len);
	assert_non_null(l->v[l->n++]);
	return 0;
}

static void read_lines(const char *path, struct lines *l)
{
	struct records_counts n;

	memset(l, 0, sizeof(*l));
	assert_int_equal(records_read_lines(path, keep_line, l, NULL, &n), 0);
	assert_int_equal(n.torn, 0);
	assert_true(l->n > 0);
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static void same_string(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* What both paths read at RECORD_FULL is the same (seed, median_us, cpu_max_us and replay
 * are the fast path's alone). */
static void same_record(const struct record *a, const struct record *b)
{
	same_string(a->id, b->id);
	same_string(a->reason, b->reason);
	assert_int_equal(a->table, b->table);
	assert_int_equal(a->deal, b->deal);
	assert_int_equal(a->rotation, b->rotation);
	assert_int_equal(a->players, b->players);
	assert_int_equal(a->partnership, b->partnership);
	assert_int_equal(a->match, b->match);
	assert_int_equal(a->games, b->games);
	assert_int_equal(a->nwinners, b->nwinners);
	assert_int_equal(a->turns, b->turns);
	assert_int_equal(a->moves, b->moves);
	assert_int_equal(a->has_time, b->has_time);
	for (int s = 0; s < a->players; s++) {
		same_string(a->bots[s], b->bots[s]);
		assert_int_equal(a->team[s], b->team[s]);
		assert_int_equal(a->winner[s], b->winner[s]);
		assert_int_equal(a->placings[s], b->placings[s]);
		assert_int_equal(a->stock_left[s], b->stock_left[s]);
		assert_int_equal(a->scores[s], b->scores[s]);
		assert_int_equal(a->time[s].moves, b->time[s].moves);
		/* the same double, bit for bit: M / 10^k is strtod's value */
		assert_memory_equal(&a->time[s].mean_us, &b->time[s].mean_us, sizeof(double));
		assert_memory_equal(&a->time[s].p99_us, &b->time[s].p99_us, sizeof(double));
		assert_memory_equal(&a->time[s].max_us, &b->time[s].max_us, sizeof(double));
		assert_memory_equal(&a->time[s].cpu_mean_us, &b->time[s].cpu_mean_us,
				    sizeof(double));
		assert_int_equal(a->time[s].has_cpu, b->time[s].has_cpu);
	}
	for (int w = 0; w < a->nwinners; w++)
		assert_int_equal(a->winners[w], b->winners[w]);
	assert_int_equal(a->nfaults, b->nfaults);
	for (size_t i = 0; i < a->nfaults; i++) {
		assert_int_equal(a->faults[i].seat, b->faults[i].seat);
		same_string(a->faults[i].bot, b->faults[i].bot);
		same_string(a->faults[i].kind, b->faults[i].kind);
		same_string(a->faults[i].reason, b->faults[i].reason);
		same_string(a->faults[i].line, b->faults[i].line);
		assert_int_equal(a->faults[i].game, b->faults[i].game);
		assert_int_equal(a->faults[i].turn, b->faults[i].turn);
		assert_int_equal(a->faults[i].move, b->faults[i].move);
	}
}

/* Both paths on one line: when the fast one reads it, the strict one reads the same.
 * Returns the fast path's answer. */
static int both_paths(const char *line, size_t len)
{
	struct record_reader fast, strict;
	struct record a, b;
	int rc;

	record_reader_init(&fast);
	record_reader_init(&strict);
	fast.text = malloc(len + 1);
	fast.text_cap = len + 1;
	assert_non_null(fast.text);
	rc = record_parse_fast(&fast, line, len, &a);
	assert_true(rc == 0 || rc == -1);
	if (rc == 0) {
		assert_int_equal(record_parse_strict(&strict, line, len, RECORD_FULL, &b), 0);
		same_record(&a, &b);
	}
	record_reader_release(&fast);
	record_reader_release(&strict);
	return rc;
}

static const char *const files[] = {
	GOLDEN_DIR "/faults/games.jsonl",   /* today's records, faults with escaped lines */
	GOLDEN_DIR "/gauntlet/games.jsonl", /* 3 players, replays of faulted games only */
	RATING_FIXTURE_DIR "/games.jsonl",  /* older records: no CPU times, a file per replay */
};

static void test_fast_path_reads_the_arenas_lines(void **state)
{
	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct lines l;
		size_t fast = 0;

		read_lines(files[f], &l);
		for (size_t i = 0; i < l.n; i++)
			fast += both_paths(l.v[i], strlen(l.v[i])) == 0;
		/* every line the arena wrote but those whose fault lines carry \uXXXX or non-ASCII */
		assert_true(fast * 10 >= l.n * 9);
		free_lines(&l);
	}
}

/* Every one-byte change of real lines: the fast path gives up or agrees with the strict reader. */
static void test_fast_path_never_disagrees(void **state)
{
	static const char subst[] = { '0', '9', '.', '"', '\\', ',', ']', '}', 'e', '-', ' ', 'x',
				      '\x01', '\xc3' };
	struct lines l;

	(void)state;
	read_lines(GOLDEN_DIR "/faults/games.jsonl", &l);
	for (size_t i = 0; i < l.n && i < 6; i++) {
		size_t len = strlen(l.v[i]);
		char *copy = strdup(l.v[i]);

		assert_non_null(copy);
		for (size_t at = 0; at < len; at++) {
			for (size_t k = 0; k < sizeof(subst); k++) {
				copy[at] = subst[k];
				both_paths(copy, len);
			}
			copy[at] = l.v[i][at];
			both_paths(copy, at); /* cut short */
		}
		free(copy);
	}
	free_lines(&l);
}

static void test_writer_gives_the_lines_back(void **state)
{
	struct record_reader rd;
	struct jsonw w;

	(void)state;
	record_reader_init(&rd);
	jsonw_init(&w);
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct lines l;

		read_lines(files[f], &l);
		for (size_t i = 0; i < l.n; i++) {
			struct record rec;

			assert_int_equal(record_parse(&rd, l.v[i], strlen(l.v[i]), RECORD_FULL,
						      &rec), 0);
			/* only lines the fast path read: the strict one keeps no seed */
			if (rd.root)
				continue;
			assert_int_equal(record_format(&w, &rec), 0);
			assert_string_equal(w.data, l.v[i]);
		}
		free_lines(&l);
	}
	jsonw_release(&w);
	record_reader_release(&rd);
}

static int parse(struct record_reader *rd, const char *line, enum record_level level,
		 struct record *rec)
{
	return record_parse(rd, line, strlen(line), level, rec);
}

static void test_old_records_still_read(void **state)
{
	/* before teams, time, faults and replays were recorded */
	static const char oldest[] = "{\"id\":\"g1\",\"players\":2,\"bots\":[\"a\",\"b\"],"
		"\"winners\":[1],\"placings\":[2,1],\"stock_left\":[3,0],\"scores\":[0,40]}";
	/* before CPU times and packs: a replay file of the game's own */
	static const char older[] = "{\"id\":\"t0000-d0001-r0\",\"table\":0,\"deal\":1,"
		"\"rotation\":0,\"seed\":9106525169610781194,\"players\":2,\"partnership\":false,"
		"\"teams\":[[0],[1]],\"match\":false,\"games\":1,\"bots\":[\"bravo\",\"charlie\"],"
		"\"winners\":[0],\"reason\":\"stock_emptied\",\"placings\":[1,2],"
		"\"stock_left\":[0,10],\"scores\":[75,0],\"turns\":102,\"moves\":385,\"time\":["
		"{\"moves\":182,\"mean_us\":184.1,\"median_us\":147,\"p99_us\":736,\"max_us\":1656},"
		"{\"moves\":203,\"mean_us\":27.5,\"median_us\":21,\"p99_us\":109,\"max_us\":247}],"
		"\"faults\":[],\"replay\":\"replays/t0000-d0001-r0.json\"}";
	struct record_reader rd;
	struct record rec;

	(void)state;
	record_reader_init(&rd);
	assert_int_equal(parse(&rd, oldest, RECORD_FULL, &rec), 0);
	assert_string_equal(rec.bots[1], "b");
	assert_true(rec.winner[1] && !rec.winner[0]);
	assert_int_equal(rec.team[0], 0);
	assert_int_equal(rec.team[1], 1);
	assert_false(rec.has_time);
	assert_int_equal(rec.turns, -1);
	assert_int_equal(parse(&rd, older, RECORD_FULL, &rec), 0);
	assert_true(rec.replay_known);
	assert_string_equal(rec.replay, "replays/t0000-d0001-r0.json");
	assert_false(rec.has_replay_at);
	assert_false(rec.time[0].has_cpu);
	assert_true(rec.time[0].mean_us == 184.1);
	assert_int_equal(rec.seed, UINT64_C(9106525169610781194));
	record_reader_release(&rd);
}

/* A name of UTF-8 letters (names.h) is read back and written again; one that could
 * hide or reorder text on a terminal, or is no UTF-8, is refused. */
static void test_utf8_names(void **state)
{
	static const char *const refused[] = {
		"a\xe2\x80\xae" "b", /* right-to-left override */
		"j\xc3",              /* cut short */
		"a\x7f",              /* DEL */
	};
	struct record_reader rd;
	struct record rec;
	struct jsonw w;
	char line[256];

	(void)state;
	record_reader_init(&rd);
	jsonw_init(&w);
	snprintf(line, sizeof line, "{\"id\":\"g1\",\"players\":2,\"bots\":[\"%s\",\"bob@2\"],"
		 "\"winners\":[1],\"placings\":[2,1],\"stock_left\":[3,0],\"scores\":[0,40]}",
		 "j\xc3\xa4" "ger");
	assert_int_equal(parse(&rd, line, RECORD_FULL, &rec), 0);
	assert_string_equal(rec.bots[0], "j\xc3\xa4" "ger");
	assert_int_equal(record_format(&w, &rec), 0);
	assert_non_null(strstr(w.data, "\"bots\":[\"j\xc3\xa4" "ger\",\"bob@2\"]"));
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(line, sizeof line, "{\"id\":\"g1\",\"players\":2,\"bots\":[\"%s\",\"b\"],"
			 "\"winners\":[1],\"placings\":[2,1],\"stock_left\":[3,0],"
			 "\"scores\":[0,40]}", refused[i]);
		assert_true(parse(&rd, line, RECORD_FULL, &rec) < 0);
	}
	jsonw_release(&w);
	record_reader_release(&rd);
}

/* line with the replay place given: record_format_replay_at() and record_format() agree. */
static void expect_replay_at(struct record_reader *rd, const char *line)
{
	struct record rec;
	struct jsonw w, want;

	jsonw_init(&w);
	jsonw_init(&want);
	assert_int_equal(parse(rd, line, RECORD_FULL, &rec), 0);
	assert_int_equal(record_format_replay_at(&w, &rec, line, strlen(line),
						 "replays/00000000000000bb.jsonl.zst", 123456, 7),
			 0);
	assert_int_equal(parse(rd, line, RECORD_FULL, &rec), 0);
	rec.replay = "replays/00000000000000bb.jsonl.zst";
	rec.has_replay_at = true;
	rec.replay_offset = 123456;
	rec.replay_line = 7;
	assert_int_equal(record_format(&want, &rec), 0);
	assert_string_equal(w.data, want.data);
	jsonw_release(&w);
	jsonw_release(&want);
}

static void test_replay_place_changed(void **state)
{
	static const char other_order[] =
		"{\"players\":2,\"id\":\"g1\",\"bots\":[\"a\",\"b\"],\"winners\":[1],"
		"\"placings\":[2,1],\"stock_left\":[3,0],\"scores\":[0,40],"
		"\"replay\":\"replays/00000000000000aa.jsonl.zst\",\"replay_offset\":9,"
		"\"replay_line\":1}";
	struct record_reader rd;
	int spliced = 0;

	(void)state;
	record_reader_init(&rd);
	/* lines the writer wrote, with a worker's place: kept up to their replay keys */
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct lines l;

		read_lines(files[f], &l);
		for (size_t i = 0; i < l.n; i++)
			if (strstr(l.v[i], "\"replay_offset\"")) {
				expect_replay_at(&rd, l.v[i]);
				spliced++;
			}
		free_lines(&l);
	}
	assert_true(spliced > 0);
	/* another layout: formatted whole */
	expect_replay_at(&rd, other_order);
	record_reader_release(&rd);
}

static void test_levels_refuse_naming_the_field(void **state)
{
	static const struct {
		const char *line;
		enum record_level level;
		const char *why;
	} bad[] = {
		{ "{\"id\":\"a\",\"players\":2,\"placings\":[1,2]}", RECORD_FULL, "stock_left" },
		{ "{\"players\":2,\"placings\":[1,2]}", RECORD_KEYS, "string \"id\"" },
		{ "{\"id\":\"a\",\"players\":7,\"placings\":[1,2]}", RECORD_KEYS, "players" },
		{ "{\"id\":\"a\",\"players\":2,\"placings\":[1,3]}", RECORD_KEYS, "placings[1]" },
		{ "{\"id\":\"a\",\"id\":\"b\",\"players\":2,\"placings\":[1,2]}", RECORD_KEYS,
		  "duplicate key" },
		{ "", RECORD_KEYS, "column 1" },
	};
	struct record_reader rd;
	struct record rec;

	(void)state;
	record_reader_init(&rd);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&rd, bad[i].line, bad[i].level, &rec), -EBADMSG);
		if (!strstr(rd.why, bad[i].why))
			fail_msg("%s: \"%s\" does not name %s", bad[i].line, rd.why, bad[i].why);
	}
	/* what a resume needs is enough at RECORD_KEYS */
	assert_int_equal(parse(&rd, bad[0].line, RECORD_KEYS, &rec), 0);
	assert_string_equal(rec.id, "a");
	assert_int_equal(rec.placings[1], 2);
	record_reader_release(&rd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_path_reads_the_arenas_lines),
		cmocka_unit_test(test_fast_path_never_disagrees),
		cmocka_unit_test(test_writer_gives_the_lines_back),
		cmocka_unit_test(test_old_records_still_read),
		cmocka_unit_test(test_utf8_names),
		cmocka_unit_test(test_replay_place_changed),
		cmocka_unit_test(test_levels_refuse_naming_the_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
