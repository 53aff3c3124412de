/*
 * test_schedule_source.c - a tournament file's schedule as the workers see
 * it: games in schedule order, a phase at a time with fresh processes and
 * straight through with reused ones, a shard's games only, and a resume
 * that counts each scheduled record once and says what it did not count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "schedule_source.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/skipbo-schedsrc.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	return rmdir(dir);
}

/* Three bots, two deals of duplicate pairs: 3 tables x 2 deals x 2 rotations. */
static void load(struct config *cfg, const char *processes)
{
	char text[512], err[CONFIG_ERR_MAX] = "";

	snprintf(text, sizeof(text), "{\"name\": \"s\", \"deals\": 2, \"seed\": \"9\", "
		 "\"processes\": \"%s\", \"output\": \"out\", \"bots\": ["
		 "{\"name\": \"a\", \"command\": [\"/bin/sh\"]}, "
		 "{\"name\": \"b\", \"command\": [\"/bin/sh\"]}, "
		 "{\"name\": \"c\", \"command\": [\"/bin/sh\"]}]}", processes);
	if (config_parse(text, strlen(text), dir, cfg, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

static void start(struct schedule_source *s, const struct config *cfg, uint32_t shard,
		  uint32_t nshards)
{
	struct tournament_options opt = { .shard = shard, .nshards = nshards };
	char err[256] = "";

	if (schedule_source_init(s, cfg, &opt, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_non_null(s->source.doc);
}

static int take(struct schedule_source *s, struct schedule_game *g)
{
	return s->source.next(s->source.ctx, g);
}

static int recorded(struct schedule_source *s, const char *id, int players,
		    struct schedule_game *g)
{
	struct results_record rec = { .id = id, .players = players };

	return s->source.recorded(s->source.ctx, &rec, g);
}

static void test_phases_with_fresh_processes(void **state)
{
	struct config cfg;
	struct schedule_source s;
	struct schedule_game g;

	(void)state;
	load(&cfg, "fresh");
	start(&s, &cfg, 0, 0);
	assert_int_equal(s.source.games, 12);
	/* phase 0 is the first rotation of the six deal groups, in index order */
	for (uint64_t i = 0; i < 6; i++) {
		assert_int_equal(take(&s, &g), 1);
		assert_int_equal(g.index, i);
		assert_int_equal(g.rotation, 0);
	}
	/* the second rotation waits for the barrier, however often it is asked */
	assert_int_equal(take(&s, &g), TOURNAMENT_SOURCE_LATER);
	assert_int_equal(take(&s, &g), TOURNAMENT_SOURCE_LATER);
	s.source.open_phase(s.source.ctx);
	for (uint64_t i = 6; i < 12; i++) {
		assert_int_equal(take(&s, &g), 1);
		assert_int_equal(g.index, i);
		assert_int_equal(g.rotation, 1);
	}
	assert_int_equal(take(&s, &g), 0);
	schedule_source_release(&s);
	config_release(&cfg);
}

static void test_straight_through_with_reused_processes(void **state)
{
	struct config cfg;
	struct schedule_source s;
	struct schedule_game g;

	(void)state;
	load(&cfg, "reuse");
	start(&s, &cfg, 0, 0);
	for (uint64_t i = 0; i < 12; i++) {
		assert_int_equal(take(&s, &g), 1);
		assert_int_equal(g.index, i);
	}
	assert_int_equal(take(&s, &g), 0);
	schedule_source_release(&s);
	config_release(&cfg);
}

static void test_a_shard_plays_its_games(void **state)
{
	struct config cfg;
	struct schedule_source s;
	struct schedule_game g;
	uint64_t n = 0;
	int got;

	(void)state;
	load(&cfg, "reuse");
	start(&s, &cfg, 1, 2);
	while ((got = take(&s, &g)) == 1) {
		assert_int_equal(schedule_shard_of(s.sched, g.index, 2), 1);
		n++;
	}
	assert_int_equal(got, 0);
	assert_int_equal(n, s.source.games);
	assert_int_equal(n, schedule_shard_count(s.sched, 1, 2));
	assert_true(n > 0 && n < 12);
	schedule_source_release(&s);
	config_release(&cfg);
}

static void test_resume_counts_each_game_once(void **state)
{
	struct config cfg;
	struct schedule_source s;
	struct schedule_game g, first;
	char *said = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	load(&cfg, "reuse");
	start(&s, &cfg, 0, 0);
	assert_int_equal(schedule_game(s.sched, 0, &first), 0);
	assert_int_equal(recorded(&s, first.id, 2, &g), 1);
	assert_int_equal(g.index, 0);
	assert_memory_equal(g.bots, first.bots, sizeof(g.bots));
	/* the same id again, an id of no scheduled game, another table size */
	assert_int_equal(recorded(&s, first.id, 2, &g), 0);
	assert_int_equal(recorded(&s, "t9999-d0000-r0", 2, &g), 0);
	assert_int_equal(schedule_game(s.sched, 1, &first), 0);
	assert_int_equal(recorded(&s, first.id, 3, &g), 0);
	/* the game recorded is not played again; the one of another size is */
	assert_int_equal(take(&s, &g), 1);
	assert_int_equal(g.index, 1);
	assert_non_null(out = open_memstream(&said, &len));
	s.source.scanned(s.source.ctx, out);
	fclose(out);
	assert_non_null(strstr(said, "1 record(s) with the id of a game recorded before and 2 "
				      "not of this tournament's schedule"));
	free(said);
	schedule_source_release(&s);
	config_release(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases_with_fresh_processes),
		cmocka_unit_test(test_straight_through_with_reused_processes),
		cmocka_unit_test(test_a_shard_plays_its_games),
		cmocka_unit_test(test_resume_counts_each_game_once),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
