/*
 * test_match - R9: games added up until a side reaches 500 points, the
 * dealer moving one seat left after each game, seeds derived per game.
 */
#include "engine_test.h"

/* Plays the first building play if there is one (own stock first), else the
 * last listed move (a discard, or the pass). */
static void play_greedy(struct game *g)
{
	struct move moves[ENGINE_MAX_MOVES];

	while (game_to_move(g) >= 0) {
		int n = game_legal_moves(g, moves);
		int k = moves[0].kind == MOVE_PLAY ? 0 : n - 1;

		assert_int_equal(game_apply(g, &moves[k]), 0);
	}
}

static void test_R9_match_to_500_dealer_moves_left(void **state)
{
	struct game_rules rules = { .players = 3, .stock_size = 15, .dealer = 1, .seed = 500 };
	struct match_state m;
	int want[ENGINE_MAX_PLAYERS] = { 0 };
	char reason[100];

	(void)state;
	assert_int_equal(match_init(&m, &rules, reason, sizeof(reason)), 0);
	assert_int_equal(m.winner, -1);
	while (!m.over) {
		struct game_result r;
		struct game *g;

		assert_int_equal(m.rules.dealer, (1 + m.games) % 3);
		assert_true(m.rules.seed == match_game_seed(500, m.games));
		g = game_new(&m.rules, NULL);
		assert_non_null(g);
		/* The first player is left of this game's dealer (R3). */
		assert_int_equal(game_to_move(g), (m.rules.dealer + 1) % 3);
		play_greedy(g);
		game_result(g, &r);
		for (int s = 0; s < 3; s++)
			want[s] += r.score[s];
		assert_int_equal(match_record(&m, &r), 0);
		assert_memory_equal(m.total, want, sizeof(want));
		game_free(g);
		assert_true(m.games < 60);
	}
	assert_true(m.games >= 2);
	assert_true(m.total[m.winner] >= MATCH_TARGET);
	for (int s = 0; s < 3; s++)
		assert_true(m.total[s] <= m.total[m.winner]);
	{
		struct game_result r = { .status = GAME_WON };

		assert_int_equal(match_record(&m, &r), ENGINE_EMATCHOVER);
	}
}

static void test_R9_scores_add_up_and_running_game_refused(void **state)
{
	struct game_rules rules = { .players = 2 };
	struct match_state m;
	struct game_result r = { 0 };

	(void)state;
	assert_int_equal(match_init(&m, &rules, NULL, 0), 0);
	assert_int_equal(m.rules.stock_size, 30);
	r.status = GAME_RUNNING;
	assert_int_equal(match_record(&m, &r), ENGINE_ERUNNING);
	assert_int_equal(m.games, 0);
	r.status = GAME_WON;
	r.score[0] = 300;
	assert_int_equal(match_record(&m, &r), 0);
	assert_false(m.over);
	r.status = GAME_STALEMATE;
	r.score[0] = 0;
	assert_int_equal(match_record(&m, &r), 0);
	assert_false(m.over);
	assert_int_equal(m.rules.dealer, 0);
	r.status = GAME_WON;
	r.score[1] = 499;
	assert_int_equal(match_record(&m, &r), 0);
	assert_false(m.over);
	r.score[1] = 0;
	r.score[0] = 200;
	assert_int_equal(match_record(&m, &r), 0);
	assert_true(m.over);
	assert_int_equal(m.winner, 0);
	assert_int_equal(m.total[0], 500);
	assert_int_equal(m.total[1], 499);
	assert_int_equal(m.games, 4);
}

static void test_R9_partnership_team_totals(void **state)
{
	struct game_rules rules = { .players = 4, .partnership = 1, .seed = 3 };
	struct match_state m;
	struct game_result r = { .status = GAME_WON };

	(void)state;
	assert_int_equal(match_init(&m, &rules, NULL, 0), 0);
	/* Team 1+3 won, seat 3 had been removed and scored nothing itself. */
	r.score[1] = 520;
	assert_int_equal(match_record(&m, &r), 0);
	assert_int_equal(m.total[1], 520);
	assert_int_equal(m.total[3], 520);
	assert_int_equal(m.total[0] + m.total[2], 0);
	assert_true(m.over);
	assert_int_equal(m.winner, 1);
}

static void test_R9_refused_rules_and_seeds(void **state)
{
	struct game_rules rules = { .players = 5, .partnership = 1 };
	struct match_state m;
	char reason[100] = "";

	(void)state;
	assert_int_equal(match_init(&m, &rules, reason, sizeof(reason)), ENGINE_EPARTNERSHIP);
	assert_true(strlen(reason) > 0);
	/* Game k's seed: splitmix64 started at seed + k * golden gamma. */
	assert_true(match_game_seed(0, 0) == 0xe220a8397b1dcdafULL);
	assert_true(match_game_seed(0, 1) == 0x6e789e6aa1b965f4ULL);
	assert_true(match_game_seed(1, 0) != match_game_seed(0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_R9_match_to_500_dealer_moves_left),
		cmocka_unit_test(test_R9_scores_add_up_and_running_game_refused),
		cmocka_unit_test(test_R9_partnership_team_totals),
		cmocka_unit_test(test_R9_refused_rules_and_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
