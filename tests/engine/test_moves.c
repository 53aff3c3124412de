/*
 * test_moves - building-pile acceptance and where cards may go (R4), the
 * move list and its reason codes (R5, R14), partnership play (R10).
 */
#include "engine_test.h"

static void test_R4_building_accepts_next_number_or_skipbo(void **state)
{
	static const uint8_t h0[] = { 1, 2, 3, 5, CARD_SKIPBO };
	static const uint8_t draw[] = { 9, 9, 9, 9, 9 };
	struct game *g = pos_game(2, 0, 5);
	const struct event *ev;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 5);
	pos_draw(g, draw, 5);
	/* Only a 1 or a SKIP-BO starts an empty pile. */
	assert_int_equal(apply(g, mv_hand(2, 0)), ENGINE_EBUILD);
	assert_false(is_legal(g, mv_hand(2, 0)));
	assert_int_equal(apply(g, mv_hand(1, 0)), 0);
	assert_int_equal(g->building_value[0], 1);
	assert_int_equal(apply(g, mv_hand(3, 0)), ENGINE_EBUILD);
	assert_int_equal(apply(g, mv_hand(2, 0)), 0);
	/* A SKIP-BO counts as the next number and keeps its identity. */
	assert_int_equal(apply(g, mv_hand(CARD_SKIPBO, 0)), 0);
	ev = last_event(g, EVENT_PLAY);
	assert_int_equal(ev->card, CARD_SKIPBO);
	assert_int_equal(ev->value, 3);
	assert_int_equal(ev->target, 0);
	assert_int_equal(ev->source, SOURCE_HAND);
	assert_int_equal(ev->owner, 0);
	assert_int_equal(g->building[0][2], CARD_SKIPBO);
	assert_int_equal(g->building_value[0], 3);
	/* The wild stood for the 3, so a 3 no longer fits. */
	assert_int_equal(apply(g, mv_hand(3, 0)), ENGINE_EBUILD);
	assert_int_equal(apply(g, mv_hand(5, 0)), ENGINE_EBUILD);
	assert_true(is_legal(g, mv_hand(3, 1)) == 0 && is_legal(g, mv_hand(5, 0)) == 0);
	assert_int_equal(g->building_value[0], 3);
	assert_int_equal(g->building_n[0], 3);
	assert_int_equal(g->hand_n[0], 2);
	game_free(g);
}

static void test_R4_skipbo_starts_an_empty_pile(void **state)
{
	static const uint8_t h0[] = { CARD_SKIPBO, 2 };
	struct game *g = pos_game(2, 0, 5);

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 2);
	for (int p = 0; p < 4; p++)
		assert_true(is_legal(g, mv_hand(CARD_SKIPBO, p)));
	assert_int_equal(apply(g, mv_hand(CARD_SKIPBO, 3)), 0);
	assert_int_equal(g->building_value[3], 1);
	assert_int_equal(apply(g, mv_hand(2, 3)), 0);
	assert_int_equal(g->building_value[3], 2);
	game_free(g);
}

static void test_R4_completion_at_12(void **state)
{
	static const uint8_t h0[] = { 11, CARD_SKIPBO, 4 };
	struct game *g = pos_game(2, 0, 5);
	const struct event *ev;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 3);
	pos_building(g, 1, 10);
	assert_int_equal(apply(g, mv_hand(11, 1)), 0);
	assert_int_equal(g->building_value[1], 11);
	assert_int_equal(g->completed_n, 0);
	assert_int_equal(apply(g, mv_hand(CARD_SKIPBO, 1)), 0);
	/* At 12 the pile goes to the completed heap at once and the place is empty. */
	assert_int_equal(g->building_value[1], 0);
	assert_int_equal(g->building_n[1], 0);
	assert_int_equal(g->completed_n, 12);
	assert_int_equal(g->completed[11], CARD_SKIPBO);
	ev = last_event(g, EVENT_COMPLETE);
	assert_non_null(ev);
	assert_int_equal(ev->target, 1);
	assert_int_equal(ev[-1].kind, EVENT_PLAY);
	assert_int_equal(ev[-1].value, 12);
	assert_false(is_legal(g, mv_hand(4, 1)));
	game_free(g);
}

static void test_R4_discard_any_hand_card_any_own_pile(void **state)
{
	static const uint8_t h0[] = { 3, 3, 9 };
	static const uint8_t d0[] = { 12, 1 };
	struct game *g = pos_game(2, 0, 5);
	struct move moves[ENGINE_MAX_MOVES];
	int n, discards = 0;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 3);
	pos_discard(g, 0, 2, d0, 2);
	/* Two distinct values x four piles, each listed once. */
	n = game_legal_moves(g, moves);
	for (int i = 0; i < n; i++)
		discards += moves[i].kind == MOVE_DISCARD;
	assert_int_equal(discards, 8);
	assert_int_equal(apply(g, mv_discard(7, 0)), ENGINE_ENOCARD);
	assert_int_equal(apply(g, mv_discard(3, 4)), ENGINE_ETARGET);
	assert_int_equal(apply(g, mv_discard(9, 2)), 0);
	assert_int_equal(g->discard_n[0][2], 3);
	assert_int_equal(g->discard[0][2][2], 9);
	assert_int_equal(last_event(g, EVENT_DISCARD)->target, 2);
	game_free(g);
}

static void test_R4_stock_only_onto_building(void **state)
{
	static const uint8_t st[] = { 7, 1 };
	static const uint8_t h0[] = { 5 };
	struct game *g = pos_game(2, 0, 5);
	struct move moves[ENGINE_MAX_MOVES];
	struct move bad = mv_stock(0, 1, 0);
	int n;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, st, 2);
	pos_hand(g, 0, h0, 1);
	n = game_legal_moves(g, moves);
	for (int i = 0; i < n; i++)
		if (moves[i].kind == MOVE_DISCARD)
			assert_int_equal(moves[i].card, 5);
	/* Naming the card under the top is refused. */
	assert_int_equal(apply(g, mv_stock(0, 7, 0)), ENGINE_ENOCARD);
	bad.target = 4;
	assert_int_equal(apply(g, bad), ENGINE_ETARGET);
	assert_int_equal(apply(g, mv_stock(0, 1, 2)), 0);
	/* The next stock card is turned up. */
	assert_int_equal(last_event(g, EVENT_STOCK_TOP)->card, 7);
	assert_int_equal(g->stock_n[0], 1);
	game_free(g);
}

static void test_R4_discard_top_only_onto_building(void **state)
{
	static const uint8_t d0[] = { 2, 1 };
	static const uint8_t d1[] = { 1 };
	static const uint8_t h0[] = { 12 };
	struct game *g = pos_game(2, 0, 5);
	const struct event *ev;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	pos_discard(g, 0, 1, d0, 2);
	pos_discard(g, 1, 0, d1, 1);
	assert_int_equal(apply(g, mv_dpile(0, 1, 2, 0)), ENGINE_ENOCARD);
	assert_int_equal(apply(g, mv_dpile(0, 0, 1, 0)), ENGINE_ENOCARD);
	assert_int_equal(apply(g, mv_dpile(0, 4, 1, 0)), ENGINE_ETARGET);
	/* Another player's discard pile is not yours (no partnership). */
	assert_int_equal(apply(g, mv_dpile(1, 0, 1, 0)), ENGINE_ENOTOWNER);
	assert_int_equal(apply(g, mv_stock(1, 1, 0)), ENGINE_ENOTOWNER);
	assert_int_equal(apply(g, mv_dpile(0, 1, 1, 0)), 0);
	ev = last_event(g, EVENT_PLAY);
	assert_int_equal(ev->source, SOURCE_DISCARD);
	assert_int_equal(ev->owner, 0);
	assert_int_equal(ev->pile, 1);
	assert_int_equal(apply(g, mv_dpile(0, 1, 2, 0)), 0);
	assert_int_equal(g->discard_n[0][1], 0);
	assert_int_equal(g->building_value[0], 2);
	game_free(g);
}

static void test_R5_refused_moves_change_nothing(void **state)
{
	struct game_rules rules = { .players = 3, .seed = 11 };
	struct game *g = game_new(&rules, NULL);
	struct game *before;
	struct event *saved;
	struct move m = { 0 };

	(void)state;
	assert_non_null(g);
	before = game_clone(g);
	assert_non_null(before);
	m.kind = 9;
	assert_int_equal(game_apply(g, &m), ENGINE_EKIND);
	m.kind = MOVE_PLAY;
	m.source = 7;
	assert_int_equal(game_apply(g, &m), ENGINE_EKIND);
	m.source = SOURCE_HAND;
	m.card = 200;
	assert_int_equal(game_apply(g, &m), ENGINE_ENOCARD);
	assert_int_equal(apply(g, mv_pass()), ENGINE_EPASS);
	assert_int_equal(apply(g, mv_stock(5, 1, 0)), ENGINE_ENOTOWNER);
	assert_int_equal(g->events_n, before->events_n);
	assert_memory_equal(g->events, before->events, g->events_n * sizeof(struct event));
	/* Everything else is byte for byte the same (the log pointers differ). */
	saved = before->events;
	before->events = g->events;
	assert_memory_equal(g, before, sizeof(*g));
	before->events = saved;
	game_free(before);
	game_free(g);
}

static void test_R5_legal_moves_match_check_move(void **state)
{
	struct game_rules rules = { .players = 4, .partnership = 1, .stock_size = 6, .seed = 21 };
	struct game *g = game_new(&rules, NULL);
	struct move moves[ENGINE_MAX_MOVES];
	int checked = 0;

	(void)state;
	assert_non_null(g);
	while (game_to_move(g) >= 0 && checked < 20000) {
		int n = game_legal_moves(g, moves);

		assert_in_range(n, 1, ENGINE_MAX_MOVES);
		for (int i = 0; i < n; i++) {
			assert_int_equal(game_check_move(g, &moves[i]), 0);
			for (int j = 0; j < i; j++)
				assert_false(move_equal(&moves[i], &moves[j]));
		}
		checked += n;
		assert_int_equal(game_apply(g, &moves[(unsigned)checked % (unsigned)n]), 0);
	}
	assert_true(checked > 100);
	game_free(g);
}

/* R4 for one pile: the next number, or SKIP-BO on any pile below 12. */
static void test_R4_building_pile_accepts(void **state)
{
	(void)state;
	for (int value = 0; value < 12; value++) {
		assert_true(building_pile_accepts(value, CARD_SKIPBO));
		for (int card = 1; card <= 12; card++)
			assert_int_equal(building_pile_accepts(value, card), card == value + 1);
	}
	assert_false(building_pile_accepts(12, CARD_SKIPBO));
	assert_false(building_pile_accepts(-1, CARD_SKIPBO));
	assert_false(building_pile_accepts(12, 13));
	assert_false(building_pile_accepts(0, CARD_NONE));
}

static void test_move_equal_ignores_meaningless_fields(void **state)
{
	struct move a = mv_hand(4, 2), b = a;
	struct move pa = mv_pass(), pb = mv_pass();

	(void)state;
	b.pile = 3;
	b.owner = 5;
	assert_true(move_equal(&a, &b));
	b.target = 1;
	assert_false(move_equal(&a, &b));
	pb.card = 9;
	assert_true(move_equal(&pa, &pb));
	a = mv_dpile(1, 2, 5, 0);
	b = mv_dpile(1, 3, 5, 0);
	assert_false(move_equal(&a, &b));
	b = mv_dpile(3, 2, 5, 0);
	assert_false(move_equal(&a, &b));
	a = mv_discard(3, 1);
	b = mv_discard(3, 1);
	b.owner = 4;
	assert_true(move_equal(&a, &b));
	assert_false(move_equal(&a, &pa));
}

static void test_R10_partner_piles_playable(void **state)
{
	static const uint8_t st2[] = { 9, 1 };
	static const uint8_t d2[] = { 2 };
	static const uint8_t d1[] = { 1 };
	static const uint8_t h0[] = { 6 };
	struct game *g = pos_game(4, 1, 5);

	(void)state;
	pos_clear(g);
	pos_stock(g, 2, st2, 2);
	pos_discard(g, 2, 3, d2, 1);
	pos_discard(g, 1, 0, d1, 1);
	pos_hand(g, 0, h0, 1);
	assert_true(is_legal(g, mv_stock(2, 1, 0)));
	assert_false(is_legal(g, mv_dpile(1, 0, 1, 0)));
	assert_int_equal(apply(g, mv_dpile(1, 0, 1, 0)), ENGINE_ENOTOWNER);
	assert_int_equal(apply(g, mv_stock(2, 1, 0)), 0);
	assert_int_equal(last_event(g, EVENT_STOCK_TOP)->owner, 2);
	assert_int_equal(last_event(g, EVENT_STOCK_TOP)->card, 9);
	assert_int_equal(apply(g, mv_dpile(2, 3, 2, 0)), 0);
	assert_int_equal(last_event(g, EVENT_PLAY)->owner, 2);
	assert_int_equal(last_event(g, EVENT_PLAY)->seat, 0);
	assert_int_equal(g->building_value[0], 2);
	/* Discards go only onto your own piles. */
	assert_int_equal(apply(g, mv_discard(6, 1)), 0);
	assert_int_equal(g->discard_n[0][1], 1);
	assert_int_equal(g->discard_n[2][1], 0);
	game_free(g);
}

static void test_R10_team_wins_only_with_both_stocks_empty(void **state)
{
	static const uint8_t one[] = { 1 };
	static const uint8_t two[] = { 3, 2 };
	static const uint8_t h0[] = { 6 };
	struct game *g = pos_game(4, 1, 5);
	struct game_result r;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, one, 1);
	pos_stock(g, 2, two, 2);
	pos_stock(g, 1, two, 2);
	pos_stock(g, 3, two, 2);
	pos_hand(g, 0, h0, 1);
	assert_int_equal(apply(g, mv_stock(0, 1, 0)), 0);
	assert_int_equal(g->stock_n[0], 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	assert_int_equal(apply(g, mv_stock(2, 2, 0)), 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	assert_int_equal(apply(g, mv_stock(2, 3, 0)), 0);
	assert_int_equal(game_status(g), GAME_WON);
	/* Seat 0 played the last card from seat 2's stock: the team wins. */
	assert_int_equal(last_event(g, EVENT_END)->seat, 0);
	game_result(g, &r);
	assert_int_equal(r.winner, 0);
	assert_int_equal(r.winners[2], 1);
	assert_int_equal(r.score[2], 25 + 5 * 4);
	game_free(g);
}

static void test_R10_partner_with_empty_stock_keeps_playing(void **state)
{
	static const uint8_t h[] = { 5, 5 };
	static const uint8_t st[] = { 12, 12, 1 };
	struct game *g = pos_game(4, 1, 5);
	uint8_t draw[30];

	(void)state;
	pos_clear(g);
	memset(draw, 7, sizeof(draw));
	pos_draw(g, draw, N_OF(draw));
	for (int s = 0; s < 4; s++)
		pos_hand(g, s, h, 2);
	pos_stock(g, 1, st, 3);
	pos_stock(g, 2, st, 3);
	pos_stock(g, 3, st, 3);
	/* Seat 0's stock is empty: it still takes turns, and plays seat 2's stock. */
	assert_int_equal(apply(g, mv_discard(5, 0)), 0);
	assert_int_equal(apply(g, mv_discard(5, 0)), 0);
	assert_int_equal(apply(g, mv_discard(5, 0)), 0);
	assert_int_equal(apply(g, mv_discard(5, 0)), 0);
	assert_int_equal(game_to_move(g), 0);
	assert_int_equal(g->hand_n[0], 5);
	assert_true(is_legal(g, mv_stock(2, 1, 0)));
	assert_int_equal(apply(g, mv_stock(2, 1, 0)), 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	game_free(g);
}

static void test_R10_six_player_teams(void **state)
{
	static const uint8_t one[] = { 1 };
	struct game *g = pos_game(6, 1, 5);

	(void)state;
	pos_clear(g);
	for (int s = 1; s < 6; s++)
		pos_stock(g, s, one, 1);
	/* Seat 0's partner is seat 3 (R2), nobody else. */
	assert_true(is_legal(g, mv_stock(3, 1, 0)));
	for (int s = 1; s < 6; s++)
		if (s != 3)
			assert_false(is_legal(g, mv_stock(s, 1, 0)));
	game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_R4_building_accepts_next_number_or_skipbo),
		cmocka_unit_test(test_R4_skipbo_starts_an_empty_pile),
		cmocka_unit_test(test_R4_completion_at_12),
		cmocka_unit_test(test_R4_discard_any_hand_card_any_own_pile),
		cmocka_unit_test(test_R4_stock_only_onto_building),
		cmocka_unit_test(test_R4_discard_top_only_onto_building),
		cmocka_unit_test(test_R5_refused_moves_change_nothing),
		cmocka_unit_test(test_R5_legal_moves_match_check_move),
		cmocka_unit_test(test_R4_building_pile_accepts),
		cmocka_unit_test(test_move_equal_ignores_meaningless_fields),
		cmocka_unit_test(test_R10_partner_piles_playable),
		cmocka_unit_test(test_R10_team_wins_only_with_both_stocks_empty),
		cmocka_unit_test(test_R10_partner_with_empty_stock_keeps_playing),
		cmocka_unit_test(test_R10_six_player_teams),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
