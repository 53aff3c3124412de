/*
 * test_league_deals.c - the order in which a league hands out its games
 * (league_deals.h): with fresh processes, rotation phases, so that no bot
 * process of one rotation of a deal lives while one of another rotation of
 * it does (schedule.h, SECURITY.md); with reused processes, a deal's
 * rotations one after the other. The caller's callbacks (files changed, a
 * new fit) come only from poll, never from the hooks run under the
 * tournament's lock.
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
#include <time.h>
#include <unistd.h>

#include "league_deals.h"

#define GAMES_MAX 600

struct handed {
	uint64_t deal;
	int rotation;
	int phase_passes; /* barriers passed before it was handed */
};

/* A league of three bots without anchors, with budget, in a new directory. */
static void make_league(char *dir, size_t size, const char *processes, int players,
			const char *budget)
{
	char path[512];
	FILE *f;

	snprintf(dir, size, "/tmp/test-league-deals-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/league.jsonc", dir);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"name\":\"deals\",\"players\":%d,\"processes\":\"%s\",\"bots\":["
		"{\"name\":\"a\",\"command\":[\"/bin/true\"]},"
		"{\"name\":\"b\",\"command\":[\"/bin/true\"]},"
		"{\"name\":\"c\",\"command\":[\"/bin/true\"]}],"
		"\"league\":{\"anchors\":{},%s,\"floor\":0}}\n", players, processes, budget);
	fclose(f);
}

/* A league's open files and its deals, ready to hand out games. */
struct open_league {
	char dir[64];
	struct league_config cfg;
	struct league_entries es;
	struct league_deals d;
};

static void open_league(struct open_league *l, const char *processes, int players,
			const char *budget)
{
	char err[CONFIG_ERR_MAX];

	make_league(l->dir, sizeof(l->dir), processes, players, budget);
	assert_int_equal(league_config_load(l->dir, &l->cfg, err, sizeof(err)), 0);
	assert_int_equal(league_entries_open(&l->es, l->dir, err, sizeof(err)), 0);
	assert_true(league_entries_declare(&l->es, &l->cfg.base, l->cfg.anchors, l->cfg.nanchors,
					   err, sizeof(err)) >= 0);
	assert_int_equal(league_deals_init(&l->d, &l->cfg, 42, err, sizeof(err)), 0);
	l->d.out = stderr;
	assert_int_equal(league_deals_entries(&l->d, &l->es, &l->cfg), 0);
	assert_int_equal(league_deals_update(&l->d), 0);
	league_deals_segment(&l->d);
}

static void close_league(struct open_league *l)
{
	char cmd[128];

	league_deals_release(&l->d);
	league_entries_release(&l->es);
	league_config_release(&l->cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", l->dir);
	assert_int_equal(system(cmd), 0);
}

/* Hand out every game of the segment into out, passing each barrier at once. */
static size_t hand_all(const char *processes, int players, struct handed *out, int *laters)
{
	static struct open_league l;
	struct schedule_game g;
	size_t n = 0;
	int passes = 0, got;

	open_league(&l, processes, players, "\"max_games\":300");
	*laters = 0;
	while (n < GAMES_MAX && (got = league_deals_next(&l.d, &g)) != 0) {
		if (got == TOURNAMENT_SOURCE_LATER) {
			/* the tournament's barrier: every game handed is played, then the phase opens */
			(*laters)++;
			passes++;
			league_deals_open_phase(&l.d);
			assert_true(*laters < GAMES_MAX);
			continue;
		}
		assert_int_equal(got, 1);
		out[n++] = (struct handed){ g.table, (int)g.rotation, passes };
	}
	close_league(&l);
	return n;
}

/* Every deal handed whole: each of its rotations once. */
static void assert_whole(const struct handed *h, size_t n, int players)
{
	for (size_t i = 0; i < n; i++) {
		int seen = 0;

		for (size_t j = 0; j < n; j++)
			if (h[j].deal == h[i].deal)
				seen |= 1 << h[j].rotation;
		assert_int_equal(seen, (1 << players) - 1);
	}
}

/*
 * Fresh processes: a deal's rotations are handed in different phases, a
 * barrier between each two, and within a phase every game is of one rotation
 * (so a phase never holds two rotations of one deal).
 */
static void test_phases(void **state)
{
	static struct handed h[GAMES_MAX];
	int laters;
	(void)state;

	for (int players = 2; players <= 3; players++) {
		size_t n = hand_all("fresh", players, h, &laters);

		/* max_games: the deals begun fill the budget exactly (300 is a multiple of 2 and 3) */
		assert_int_equal(n, 300);
		assert_int_equal(n % (size_t)players, 0);
		assert_whole(h, n, players);
		assert_true(laters > 0);
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if (h[i].deal == h[j].deal && h[i].rotation < h[j].rotation)
					assert_true(h[i].phase_passes < h[j].phase_passes);
		/* a block's deals: at most LEAGUE_BLOCK_DEALS games a phase */
		for (size_t i = 0, run = 0; i < n; i++) {
			run = i && h[i].phase_passes == h[i - 1].phase_passes &&
			      h[i].rotation == h[i - 1].rotation ? run + 1 : 1;
			assert_true(run <= 32);
		}
	}
}

/* Reused processes live across phases anyway: a deal's rotations one after the other. */
static void test_reuse_unphased(void **state)
{
	static struct handed h[GAMES_MAX];
	int laters;
	(void)state;

	size_t n = hand_all("reuse", 2, h, &laters);

	assert_true(n >= 300);
	assert_int_equal(laters, 0);
	assert_whole(h, n, 2);
	for (size_t i = 0; i + 1 < n; i += 2) {
		assert_true(h[i].deal == h[i + 1].deal);
		assert_int_equal(h[i].rotation, 0);
		assert_int_equal(h[i + 1].rotation, 1);
	}
}

/* max_minutes: no new deal once the league has run that long; the stop says why. */
static void test_time_budget(void **state)
{
	static struct open_league l;
	struct schedule_game g;
	(void)state;

	open_league(&l, "fresh", 2, "\"max_minutes\":2");
	l.d.started = time(NULL) - 90;
	assert_int_equal(league_deals_next(&l.d, &g), 1);
	assert_int_equal(l.d.stop, LEAGUE_STOP_REQUEST);
	/* two minutes on: the deal begun is finished (after the barrier), no new one */
	l.d.started -= 60;
	assert_int_equal(league_deals_next(&l.d, &g), TOURNAMENT_SOURCE_LATER);
	league_deals_open_phase(&l.d);
	assert_int_equal(league_deals_next(&l.d, &g), 1);
	assert_int_equal(g.rotation, 1);
	assert_int_equal(league_deals_next(&l.d, &g), 0);
	assert_int_equal(l.d.stop, LEAGUE_STOP_TIME);
	close_league(&l);
}

/* The caller's callbacks, counted; changed answers `moved`. */
static int changed_calls, refit_calls, moved;
static uint64_t refit_generation;

static int count_changed(void *ctx)
{
	(void)ctx;
	changed_calls++;
	return moved;
}

static void count_refit(void *ctx, const struct league_standings *st)
{
	(void)ctx;
	refit_calls++;
	refit_generation = st->generation;
}

/* The game g counted as won by seat 0, as the committer hands it over. */
static void count_won(struct league_deals *d, const struct schedule_game *g)
{
	struct committed_game cg = { .game = *g, .placings = { 1, 2 }, .players = 2 };

	league_deals_counted(d, &cg);
}

static void test_callbacks_only_from_poll(void **state)
{
	static struct open_league l;
	struct schedule_game g;

	(void)state;
	changed_calls = refit_calls = moved = 0;
	open_league(&l, "reuse", 2, "\"max_games\":300");
	l.d.changed = count_changed;
	l.d.on_refit = count_refit;
	/* under the tournament's lock: deals chosen, games counted, nothing of the caller's */
	for (int k = 0; k < 4; k++) {
		assert_int_equal(league_deals_next(&l.d, &g), 1);
		count_won(&l.d, &g);
	}
	assert_int_equal(changed_calls, 0);
	assert_int_equal(refit_calls, 0);
	/* the deals whole, their fit done: poll says it once */
	assert_int_equal(league_fit_wait(&l.d.fit), 0);
	league_deals_poll(&l.d);
	assert_int_equal(changed_calls, 1);
	assert_int_equal(refit_calls, 1);
	assert_true(refit_generation > 0);
	league_deals_poll(&l.d);
	assert_int_equal(refit_calls, 1);
	/* a change seen by poll: the deal begun is finished, no new one */
	assert_int_equal(league_deals_next(&l.d, &g), 1);
	moved = 1;
	league_deals_poll(&l.d);
	assert_int_equal(league_deals_next(&l.d, &g), 1);
	assert_int_equal(g.rotation, 1);
	assert_int_equal(league_deals_next(&l.d, &g), 0);
	assert_int_equal(refit_calls, 1);
	close_league(&l);
}

/* A game of the desk's counted as the tournament counts it. */
static void count_desk_game(struct league_deals *d, const struct schedule_game *g)
{
	struct committed_game cg = { .game = *g, .players = 2, .placings = { 1, 2 } };

	league_deals_counted(d, &cg);
}

/*
 * The desk's deals (next_groups): whole, apart from the phase blocks, so the
 * workers of the tournament go on with their phase; counted like the others,
 * and a deal a segment leaves unfinished is finished first at the next.
 */
static void test_next_groups(void **state)
{
	static struct open_league l;
	struct schedule_game g, desk[8];
	uint64_t first;
	unsigned block;
	int n;
	(void)state;

	open_league(&l, "fresh", 2, "\"max_games\":300");
	assert_int_equal(league_deals_next(&l.d, &g), 1);
	first = g.table;
	block = l.d.block;
	n = league_deals_next_groups(&l.d, desk, 7);
	/* whole deals only: three of two rotations fit in 7 */
	assert_int_equal(n, 6);
	for (int i = 0; i < n; i += 2) {
		assert_int_equal(desk[i].table, desk[i + 1].table);
		assert_int_equal(desk[i].rotation, 0);
		assert_int_equal(desk[i + 1].rotation, 1);
		assert_int_equal(desk[i].seed, desk[i + 1].seed);
		assert_true(desk[i].table != first);
	}
	assert_int_equal(l.d.block, block);
	/* the phase goes on: a new deal's rotation 0, none of the desk's */
	assert_int_equal(league_deals_next(&l.d, &g), 1);
	assert_int_equal(g.rotation, 0);
	for (int i = 0; i < n; i++)
		assert_true(g.table != desk[i].table);
	/* counted: the desk's deals are closed, the others stay open */
	for (int i = 0; i < n; i++)
		count_desk_game(&l.d, &desk[i]);
	assert_int_equal(l.d.games, 6);
	assert_int_equal(l.d.nopen, 2);
	/* one rotation of a deal back, then the segment ends: its other one first at the next */
	assert_int_equal(league_deals_next_groups(&l.d, desk, 2), 2);
	count_desk_game(&l.d, &desk[0]);
	league_deals_segment(&l.d);
	assert_int_equal(league_deals_next_groups(&l.d, desk + 2, 1), 1);
	assert_int_equal(desk[2].table, desk[1].table);
	assert_int_equal(desk[2].rotation, 1);
	close_league(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_reuse_unphased),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_callbacks_only_from_poll),
		cmocka_unit_test(test_next_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
