/*
 * test_game - a game's life: the deal (R3), turns and drawing (R5), the
 * refill chain (R6), the end of a game and placings (R7), scoring (R8) and
 * removals (R11).
 */
#include "engine_test.h"

static void refused(int players, int stock, int partnership, int dealer, int want)
{
	struct game_rules rules = { .players = players, .stock_size = stock,
				    .partnership = partnership, .dealer = dealer };
	char reason[128] = "";
	int err = 0;

	assert_int_equal(game_rules_check(&rules, reason, sizeof(reason)), want);
	assert_true(strlen(reason) > 10);
	rules.stock_size = stock;
	assert_null(game_new(&rules, &err));
	assert_int_equal(err, want);
}

static void test_R3_refused_rule_sets(void **state)
{
	struct game_rules ok = { .players = 6, .stock_size = 22 };

	(void)state;
	refused(1, 0, 0, 0, ENGINE_EPLAYERS);
	refused(7, 0, 0, 0, ENGINE_EPLAYERS);
	refused(2, 31, 0, 0, ENGINE_ESTOCK);
	refused(2, -1, 0, 0, ENGINE_ESTOCK);
	refused(6, 23, 0, 0, ENGINE_EDECK); /* 6 x 28 = 168 > 162 */
	refused(5, 28, 0, 0, ENGINE_EDECK); /* 5 x 33 = 165 */
	refused(2, 30, 1, 0, ENGINE_EPARTNERSHIP);
	refused(5, 20, 1, 0, ENGINE_EPARTNERSHIP);
	refused(3, 10, 0, 3, ENGINE_EDEALER);
	refused(3, 10, 0, -1, ENGINE_EDEALER);
	/* The largest stock that fits: 6 x 27 = 162. */
	assert_int_equal(game_rules_check(&ok, NULL, 0), 0);
}

static void test_R3_default_stock_sizes(void **state)
{
	(void)state;
	for (int n = 2; n <= 6; n++) {
		struct game_rules rules = { .players = n };

		assert_int_equal(game_rules_check(&rules, NULL, 0), 0);
		assert_int_equal(rules.stock_size, n <= 4 ? 30 : 20);
	}
}

static void test_R3_deal(void **state)
{
	struct game_rules rules = { .players = 3, .stock_size = 7, .dealer = 1, .seed = 5 };
	struct game *g = game_new(&rules, NULL);
	uint8_t deck[ENGINE_DECK_SIZE];
	struct seat_view *v = malloc(sizeof(*v));

	(void)state;
	assert_non_null(g);
	assert_non_null(v);
	game_initial_deck(g, deck);
	/* One card at a time, in seat order, from the seat left of the dealer. */
	for (int k = 0; k < 7; k++)
		for (int i = 0; i < 3; i++)
			assert_int_equal(g->stock[(2 + i) % 3][k], deck[k * 3 + i]);
	/* The first player is left of the dealer and drew the next five cards. */
	assert_int_equal(game_to_move(g), 2);
	game_view(g, 2, v);
	assert_int_equal(v->hand_size, 5);
	assert_int_equal(v->draw_size, ENGINE_DECK_SIZE - 21 - 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(last_event(g, EVENT_DRAW)[i - 4].card, deck[21 + i]);
	for (int s = 0; s < 3; s++) {
		assert_int_equal(v->stock_size[s], 7);
		assert_int_equal(v->stock_top[s], deck[6 * 3 + (s + 1) % 3]);
		for (int d = 0; d < 4; d++)
			assert_int_equal(v->discard_size[s][d], 0);
		assert_int_equal(v->others_hand_size[s], s == 2 ? 5 : 0);
	}
	for (int p = 0; p < 4; p++)
		assert_int_equal(v->building_size[p], 0);
	assert_int_equal(v->completed_size, 0);
	assert_int_equal(v->turn, 1);
	assert_int_equal(count_events(g, EVENT_STOCK_TOP), 3);
	free(v);
	game_free(g);
}

static void test_R5_1_draw_up_at_turn_start(void **state)
{
	static const uint8_t draw[] = { 9, 8, 7, 6 };
	static const uint8_t h1[] = { 12, 12 };
	static const uint8_t h0[] = { 4, 4 };
	struct game *g = pos_game(2, 0, 5);
	const struct event *ev;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 2);
	pos_hand(g, 1, h1, 2);
	pos_draw(g, draw, 4);
	assert_int_equal(apply(g, mv_discard(4, 0)), 0);
	assert_int_equal(game_to_move(g), 1);
	assert_int_equal(g->turn, 2);
	assert_int_equal(g->hand_n[1], 5);
	assert_int_equal(g->hand[1][9] + g->hand[1][8] + g->hand[1][7], 3);
	assert_int_equal(g->draw_n, 1);
	ev = last_event(g, EVENT_DRAW);
	assert_int_equal(ev->seat, 1);
	assert_int_equal(ev->card, 7);
	assert_int_equal(ev[-2].card, 9);
	assert_int_equal(ev[-3].kind, EVENT_TURN);
	game_free(g);
}

static void test_R5_2_emptied_hand_draws_five_turn_goes_on(void **state)
{
	static const uint8_t draw[] = { 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t h0[] = { 1 };
	struct game *g = pos_game(2, 0, 5);

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	pos_draw(g, draw, 7);
	assert_int_equal(apply(g, mv_hand(1, 0)), 0);
	assert_int_equal(game_to_move(g), 0);
	assert_int_equal(g->hand_n[0], 5);
	assert_int_equal(g->draw_n, 2);
	assert_int_equal(count_events(g, EVENT_DRAW), 5);
	/* The turn goes on: the new cards can be played at once. */
	assert_int_equal(apply(g, mv_hand(2, 0)), 0);
	assert_int_equal(g->hand_n[0], 4);
	assert_int_equal(game_to_move(g), 0);
	game_free(g);
}

static void test_R5_3_discard_ends_turn_no_draw_after(void **state)
{
	static const uint8_t draw[] = { 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t h0[] = { 5 };
	static const uint8_t h1[] = { 1, 1, 1, 1 };
	struct game *g = pos_game(2, 0, 5);

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	pos_hand(g, 1, h1, 4);
	pos_draw(g, draw, 7);
	assert_int_equal(apply(g, mv_discard(5, 3)), 0);
	/* The hand stays empty although the discard emptied it. */
	assert_int_equal(g->hand_n[0], 0);
	assert_int_equal(g->discard_n[0][3], 1);
	assert_int_equal(game_to_move(g), 1);
	assert_int_equal(g->hand_n[1], 5);
	assert_int_equal(g->draw_n, 6);
	assert_int_equal(last_event(g, EVENT_DRAW)->seat, 1);
	assert_int_equal(count_events(g, EVENT_DRAW), 1);
	game_free(g);
}

static void test_R5_4_pass_only_with_empty_hand(void **state)
{
	static const uint8_t h0[] = { 7 };
	struct game *g = pos_game(2, 0, 5);
	struct move moves[ENGINE_MAX_MOVES];
	int n;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	assert_int_equal(apply(g, mv_pass()), ENGINE_EPASS);
	assert_false(is_legal(g, mv_pass()));
	assert_int_equal(game_to_move(g), 0);
	/* With an empty hand and nothing to draw, pass is the only move. */
	pos_hand(g, 0, NULL, 0);
	n = game_legal_moves(g, moves);
	assert_int_equal(n, 1);
	assert_int_equal(moves[0].kind, MOVE_PASS);
	assert_int_equal(apply(g, mv_pass()), 0);
	assert_int_equal(game_to_move(g), 1);
	assert_int_equal(count_events(g, EVENT_PASS), 1);
	game_free(g);
}

static void test_R6_1_refill_from_completed_heap(void **state)
{
	static const uint8_t h0[] = { 12 };
	struct game *g = pos_game(2, 0, 5);
	struct rng copy;
	uint8_t pool[12];
	const struct event *ev;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	pos_building(g, 2, 11);
	pos_building(g, 1, 4);
	/* Completing pile 2 sends its 12 cards to the completed heap, and the
	 * emptied hand then draws from it: heap order, shuffled, pool[0] on top. */
	copy = g->rng;
	for (int i = 0; i < 12; i++)
		pool[i] = (uint8_t)(i + 1);
	rng_shuffle(&copy, pool, 12);
	assert_int_equal(apply(g, mv_hand(12, 2)), 0);
	ev = last_event(g, EVENT_REFILL);
	assert_non_null(ev);
	assert_int_equal(ev->source, 1);
	assert_int_equal(ev->count, 12);
	assert_int_equal(g->completed_n, 0);
	assert_int_equal(g->draw_n, 7);
	assert_int_equal(g->building_n[2], 0);
	assert_int_equal(g->building_n[1], 4); /* step 2 was not needed */
	for (int i = 0; i < 5; i++)
		assert_int_equal(ev[1 + i].card, pool[i]);
	assert_memory_equal(copy.s, g->rng.s, sizeof(copy.s));
	game_free(g);
}

static void test_R6_2_building_piles_keep_top_card_and_value(void **state)
{
	static const uint8_t h1[] = { 3 };
	static const uint8_t h0[] = { 3 };
	struct game *g = pos_game(2, 0, 5);
	const struct event *ev;

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	pos_hand(g, 1, h1, 1);
	pos_building(g, 0, 3);
	pos_building(g, 1, 7);
	g->building[1][6] = CARD_SKIPBO; /* a wild on top keeps its identity and value */
	g->building[3][0] = 9;           /* a pile already cut down to its top card */
	g->building_n[3] = 1;
	g->building_value[3] = 9;
	assert_int_equal(apply(g, mv_discard(3, 0)), 0);
	ev = last_event(g, EVENT_REFILL);
	assert_non_null(ev);
	assert_int_equal(ev->source, 2);
	assert_int_equal(ev->count, 2 + 6);
	assert_int_equal(g->building_n[0], 1);
	assert_int_equal(g->building[0][0], 3);
	assert_int_equal(g->building_value[0], 3);
	assert_int_equal(g->building_n[1], 1);
	assert_int_equal(g->building[1][0], CARD_SKIPBO);
	assert_int_equal(g->building_value[1], 7);
	assert_int_equal(g->building_n[3], 1);
	assert_int_equal(g->building_value[3], 9);
	assert_int_equal(g->hand_n[1], 5);
	assert_int_equal(g->draw_n, 4);
	game_free(g);
}

static void test_R6_3_nothing_left_hand_stays_short(void **state)
{
	static const uint8_t draw[] = { 6, 6 };
	static const uint8_t h0[] = { 3 };
	struct game *g = pos_game(2, 0, 5);

	(void)state;
	pos_clear(g);
	pos_hand(g, 0, h0, 1);
	pos_building(g, 0, 1); /* one card only: step 2 yields nothing */
	pos_draw(g, draw, 2);
	assert_int_equal(apply(g, mv_discard(3, 0)), 0);
	assert_int_equal(game_to_move(g), 1);
	assert_int_equal(g->hand_n[1], 2);
	assert_int_equal(count_events(g, EVENT_REFILL), 0);
	assert_int_equal(g->building_n[0], 1);
	game_free(g);
}

static void test_R7_win_in_mid_turn(void **state)
{
	static const uint8_t st0[] = { 5 };
	static const uint8_t st1[] = { 1, 2, 3 };
	static const uint8_t h0[] = { 8, 9, 10 };
	struct game *g = pos_game(2, 0, 5);
	struct game_result r;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, st0, 1);
	pos_stock(g, 1, st1, 3);
	pos_hand(g, 0, h0, 3);
	pos_building(g, 0, 4);
	assert_int_equal(apply(g, mv_stock(0, 5, 0)), 0);
	assert_int_equal(game_to_move(g), -1);
	assert_int_equal(game_status(g), GAME_WON);
	assert_int_equal(last_event(g, EVENT_END)->seat, 0);
	assert_int_equal(apply(g, mv_discard(8, 0)), ENGINE_EOVER);
	assert_int_equal(game_legal_moves(g, (struct move[ENGINE_MAX_MOVES]){ 0 }), 0);
	game_result(g, &r);
	assert_int_equal(r.reason, END_STOCK_EMPTIED);
	assert_string_equal(end_reason_name(r.reason), "stock_emptied");
	assert_int_equal(r.winner, 0);
	assert_int_equal(r.winners[0], 1);
	assert_int_equal(r.winners[1], 0);
	assert_int_equal(r.placing[0], 1);
	assert_int_equal(r.placing[1], 2);
	assert_int_equal(r.stock_left[1], 3);
	game_free(g);
}

/* Two players with empty hands, nothing to draw and unplayable stocks. */
static struct game *stuck_game(void)
{
	static const uint8_t st[] = { 12 };
	struct game *g = pos_game(2, 0, 5);

	pos_clear(g);
	pos_stock(g, 0, st, 1);
	pos_stock(g, 1, st, 1);
	return g;
}

static void test_R7_stalemate_after_two_rounds(void **state)
{
	struct game *g = stuck_game();
	struct game_result r;

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(apply(g, mv_pass()), 0);
		assert_int_equal(game_status(g), GAME_RUNNING);
	}
	assert_int_equal(apply(g, mv_pass()), 0);
	assert_int_equal(game_status(g), GAME_STALEMATE);
	game_result(g, &r);
	assert_int_equal(r.reason, END_STALEMATE);
	assert_int_equal(r.winner, -1);
	assert_int_equal(r.turns, 4);
	assert_int_equal(r.score[0] + r.score[1], 0);
	assert_int_equal(r.placing[0], 1);
	assert_int_equal(r.placing[1], 1);
	game_free(g);
}

static void test_R7_stalemate_count_restarts_after_a_play(void **state)
{
	static const uint8_t st[] = { 12, 1 };
	struct game *g = stuck_game();

	(void)state;
	pos_stock(g, 1, st, 2);
	assert_int_equal(apply(g, mv_pass()), 0);
	assert_int_equal(apply(g, mv_stock(1, 1, 0)), 0); /* a play in turn 2 */
	assert_int_equal(apply(g, mv_pass()), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(apply(g, mv_pass()), 0);
		assert_int_equal(game_status(g), GAME_RUNNING);
	}
	assert_int_equal(apply(g, mv_pass()), 0);
	assert_int_equal(game_status(g), GAME_STALEMATE);
	assert_int_equal(g->turn, 6);
	game_free(g);
}

static void test_R7_stalemate_counts_seats_still_playing(void **state)
{
	static const uint8_t st[] = { 12 };
	struct game *g = pos_game(3, 0, 5);

	(void)state;
	pos_clear(g);
	for (int s = 0; s < 3; s++)
		pos_stock(g, s, st, 1);
	assert_int_equal(game_remove_seat(g, 2), 0);
	/* Two seats left: 2 x 2 idle turns, not 2 x 3. */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(apply(g, mv_pass()), 0);
		assert_int_equal(game_status(g), GAME_RUNNING);
		assert_int_equal(game_to_move(g), (i + 1) % 2);
	}
	assert_int_equal(apply(g, mv_pass()), 0);
	assert_int_equal(game_status(g), GAME_STALEMATE);
	game_free(g);
}

static void test_R7_no_stalemate_while_cards_can_be_drawn(void **state)
{
	static const uint8_t st[] = { 12 };
	struct game *g = pos_game(2, 0, 5);
	uint8_t draw[40];

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, st, 1);
	pos_stock(g, 1, st, 1);
	memset(draw, 12, sizeof(draw));
	pos_draw(g, draw, N_OF(draw));
	pos_hand(g, 0, draw, 5);
	/* Discarding 12s: no play for many turns, but each turn draws a card. */
	for (int i = 0; i < 20; i++) {
		assert_int_equal(apply(g, mv_discard(12, 0)), 0);
		assert_int_equal(game_status(g), GAME_RUNNING);
	}
	game_free(g);
}

static void test_R7_turn_cap(void **state)
{
	struct game_rules rules = { .players = 2, .seed = 3 };
	struct game *g = game_new(&rules, NULL);
	struct game_result r;
	int discards = 0;

	(void)state;
	assert_non_null(g);
	/* Only discards (no play ever), so only the cap can end the game early. */
	g->turn = ENGINE_TURN_CAP - 2;
	while (game_to_move(g) >= 0) {
		struct move moves[ENGINE_MAX_MOVES];
		int n = game_legal_moves(g, moves);

		assert_int_equal(apply(g, moves[n - 1]), 0);
		discards++;
	}
	game_result(g, &r);
	assert_int_equal(r.status, GAME_STALEMATE);
	assert_int_equal(r.reason, END_TURN_CAP);
	assert_string_equal(end_reason_name(r.reason), "turn_cap");
	assert_int_equal(r.turns, ENGINE_TURN_CAP);
	assert_int_equal(discards, 3);
	assert_int_equal(r.score[0] + r.score[1], 0);
	game_free(g);
}

static void test_R7_placings_with_ties(void **state)
{
	static const uint8_t one[] = { 5 };
	static const uint8_t four[] = { 12, 12, 12, 12 };
	static const uint8_t two[] = { 12, 12 };
	struct game *g = pos_game(4, 0, 5);
	struct game_result r;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, one, 1);
	pos_stock(g, 1, four, 4);
	pos_stock(g, 2, two, 2);
	pos_stock(g, 3, four, 4);
	pos_building(g, 0, 4);
	assert_int_equal(apply(g, mv_stock(0, 5, 0)), 0);
	game_result(g, &r);
	assert_int_equal(r.placing[0], 1);
	assert_int_equal(r.placing[2], 2);
	assert_int_equal(r.placing[1], 3);
	assert_int_equal(r.placing[3], 3);
	game_free(g);
}

static void test_R8_winner_scores_25_plus_5_per_card(void **state)
{
	static const uint8_t one[] = { 5 };
	static const uint8_t three[] = { 12, 12, 12 };
	static const uint8_t seven[] = { 12, 12, 12, 12, 12, 12, 12 };
	struct game *g = pos_game(3, 0, 5);
	struct game_result r;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, one, 1);
	pos_stock(g, 1, three, 3);
	pos_stock(g, 2, seven, 7);
	pos_building(g, 3, 4);
	assert_int_equal(apply(g, mv_stock(0, 5, 3)), 0);
	game_result(g, &r);
	assert_int_equal(r.score[0], 25 + 5 * 10);
	assert_int_equal(r.score[1], 0);
	assert_int_equal(r.score[2], 0);
	game_free(g);
}

static void test_R8_partnership_scores_once_per_team(void **state)
{
	static const uint8_t one[] = { 5 };
	static const uint8_t three[] = { 12, 12, 12 };
	static const uint8_t four[] = { 12, 12, 12, 12 };
	struct game *g = pos_game(4, 1, 5);
	struct game_result r;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, one, 1);
	pos_stock(g, 1, three, 3);
	pos_stock(g, 3, four, 4);
	pos_building(g, 0, 4);
	/* Seat 2 (empty stock) plays its partner's last stock card. */
	g->to_move = 2;
	assert_int_equal(apply(g, mv_stock(0, 5, 0)), 0);
	game_result(g, &r);
	assert_int_equal(r.status, GAME_WON);
	assert_int_equal(r.winner, 0);
	assert_int_equal(last_event(g, EVENT_END)->seat, 0);
	assert_int_equal(r.winners[2], 1);
	assert_int_equal(r.score[0], 25 + 5 * 7);
	assert_int_equal(r.score[2], 25 + 5 * 7);
	assert_int_equal(r.score[1] + r.score[3], 0);
	assert_int_equal(r.placing[0], 1);
	assert_int_equal(r.placing[2], 1);
	assert_int_equal(r.placing[1], 3);
	assert_int_equal(r.placing[3], 4);
	game_free(g);
}

static void test_R11_removed_seat_is_skipped(void **state)
{
	static const uint8_t h0[] = { 7, 7 };
	struct game *g = pos_game(3, 0, 5);
	uint8_t draw[20];

	(void)state;
	pos_clear(g);
	memset(draw, 6, sizeof(draw));
	pos_draw(g, draw, N_OF(draw));
	pos_hand(g, 0, h0, 2);
	pos_hand(g, 1, draw, 3);
	assert_int_equal(game_remove_seat(g, 1), 0);
	assert_int_equal(game_remove_seat(g, 1), ENGINE_ESEAT);
	assert_int_equal(game_remove_seat(g, 3), ENGINE_ESEAT);
	assert_int_equal(game_to_move(g), 0);
	assert_int_equal(last_event(g, EVENT_REMOVED)->seat, 1);
	assert_int_equal(apply(g, mv_discard(7, 0)), 0);
	assert_int_equal(game_to_move(g), 2);
	assert_int_equal(apply(g, mv_discard(6, 0)), 0);
	assert_int_equal(game_to_move(g), 0);
	/* Its cards stay where they are. */
	assert_int_equal(g->hand_n[1], 3);
	game_free(g);
}

static void test_R11_removed_player_to_move_passes_on(void **state)
{
	struct game_rules rules = { .players = 3, .dealer = 2, .seed = 9 };
	struct game *g = game_new(&rules, NULL);

	(void)state;
	assert_non_null(g);
	assert_int_equal(game_to_move(g), 0);
	assert_int_equal(game_remove_seat(g, 0), 0);
	assert_int_equal(game_to_move(g), 1);
	assert_int_equal(g->turn, 2);
	assert_int_equal(g->hand_n[1], 5);
	assert_int_equal(g->hand_n[0], 5);
	game_free(g);
}

static void test_R11_last_side_wins_by_forfeit(void **state)
{
	struct game_rules rules = { .players = 2, .stock_size = 12, .seed = 9 };
	struct game *g = game_new(&rules, NULL);
	struct game_result r;

	(void)state;
	assert_non_null(g);
	assert_int_equal(game_remove_seat(g, 1), 0);
	assert_int_equal(game_to_move(g), -1);
	assert_int_equal(game_remove_seat(g, 0), ENGINE_EOVER);
	game_result(g, &r);
	assert_int_equal(r.status, GAME_WON);
	assert_int_equal(r.reason, END_FORFEIT);
	assert_string_equal(end_reason_name(r.reason), "forfeit");
	assert_int_equal(r.winner, 0);
	assert_int_equal(r.score[0], 25 + 5 * 12);
	assert_int_equal(r.score[1], 0);
	assert_int_equal(r.placing[1], 2);
	game_free(g);
}

/* R11: faults at the start are simultaneous: every side gone means no winner, none scores. */
static void test_R11_start_faults_of_every_side_leave_no_winner(void **state)
{
	struct game_rules rules = { .players = 2, .stock_size = 12, .seed = 9 };
	struct game *g = game_new(&rules, NULL);
	uint8_t both[ENGINE_MAX_PLAYERS] = { 1, 1 };
	struct game_result r;

	(void)state;
	assert_non_null(g);
	assert_int_equal(game_remove_seats(g, both), 0);
	assert_int_equal(game_to_move(g), -1);
	game_result(g, &r);
	assert_int_equal(r.status, GAME_STALEMATE);
	assert_int_equal(r.reason, END_FORFEIT);
	assert_int_equal(r.winners[0] + r.winners[1], 0);
	assert_int_equal(r.score[0], 0);
	assert_int_equal(r.score[1], 0);
	/* R7: ranked by their stocks, equal here */
	assert_int_equal(r.placing[0], 1);
	assert_int_equal(r.placing[1], 1);
	assert_int_equal(game_remove_seats(g, both), ENGINE_EOVER);
	game_free(g);
}

/* R11: removed together, whichever order the faults came in, a partner gone at the start
 * never wins with a team that is left, and two of three seats gone leave the third. */
static void test_R11_start_faults_removed_together(void **state)
{
	struct game_rules team = { .players = 4, .partnership = 1, .stock_size = 10, .seed = 4 };
	struct game_rules three = { .players = 3, .stock_size = 10, .seed = 4 };
	uint8_t gone[ENGINE_MAX_PLAYERS] = { 0, 1, 0, 1 };
	struct game *g = game_new(&team, NULL);
	struct game_result r;

	(void)state;
	/* seats 1 and 3, one team: seats 0 and 2 win, once both are gone (not after the first) */
	assert_int_equal(game_remove_seats(g, gone), 0);
	game_result(g, &r);
	assert_int_equal(r.reason, END_FORFEIT);
	assert_int_equal(r.winners[0] + r.winners[2], 2);
	assert_int_equal(r.winners[1] + r.winners[3], 0);
	game_free(g);
	/* seats 0, 1 and 2: seat 3 alone is left, its partner 1 removed: 3 alone wins */
	g = game_new(&team, NULL);
	memcpy(gone, (uint8_t[]){ 1, 1, 1, 0 }, 4);
	assert_int_equal(game_remove_seats(g, gone), 0);
	game_result(g, &r);
	assert_int_equal(r.winners[3], 1);
	assert_int_equal(r.winners[0] + r.winners[1] + r.winners[2], 0);
	assert_int_equal(r.score[1], 0);
	game_free(g);
	/* three players, two gone: the third wins by forfeit */
	g = game_new(&three, NULL);
	memcpy(gone, (uint8_t[]){ 1, 0, 1, 0 }, 4);
	assert_int_equal(game_remove_seats(g, gone), 0);
	game_result(g, &r);
	assert_int_equal(r.status, GAME_WON);
	assert_int_equal(r.winner, 1);
	game_free(g);
	/* none gone: nothing changes */
	g = game_new(&three, NULL);
	memset(gone, 0, sizeof gone);
	assert_int_equal(game_remove_seats(g, gone), 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	game_free(g);
}

static void test_R11_removed_ranks_below_everyone(void **state)
{
	static const uint8_t one[] = { 5 };
	static const uint8_t nine[] = { 12, 12, 12, 12, 12, 12, 12, 12, 12 };
	struct game *g = pos_game(4, 0, 5);
	struct game_result r;

	(void)state;
	pos_clear(g);
	pos_stock(g, 0, one, 1);
	pos_stock(g, 1, nine, 9);
	pos_stock(g, 2, one, 1); /* fewest cards, but removed */
	pos_stock(g, 3, nine, 9);
	pos_building(g, 0, 4);
	assert_int_equal(game_remove_seat(g, 2), 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	assert_int_equal(apply(g, mv_stock(0, 5, 0)), 0);
	game_result(g, &r);
	assert_int_equal(r.placing[0], 1);
	assert_int_equal(r.placing[1], 2);
	assert_int_equal(r.placing[3], 2);
	assert_int_equal(r.placing[2], 4);
	game_free(g);
}

static void test_R11_partnership_forfeit_needs_a_whole_team_gone(void **state)
{
	struct game_rules rules = { .players = 4, .partnership = 1, .stock_size = 10, .seed = 4 };
	struct game *g = game_new(&rules, NULL);
	struct game_result r;

	(void)state;
	assert_non_null(g);
	assert_int_equal(game_remove_seat(g, 1), 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	assert_int_equal(game_remove_seat(g, 2), 0);
	assert_int_equal(game_status(g), GAME_RUNNING);
	assert_int_equal(game_remove_seat(g, 3), 0);
	game_result(g, &r);
	assert_int_equal(r.reason, END_FORFEIT);
	assert_int_equal(last_event(g, EVENT_END)->seat, 0);
	assert_int_equal(last_event(g, EVENT_END)->value, END_FORFEIT);
	/* Team 0+2 wins; seat 2 was removed, so only seat 0 wins and scores. */
	assert_int_equal(r.winner, 0);
	assert_int_equal(r.winners[0], 1);
	assert_int_equal(r.winners[2], 0);
	assert_int_equal(r.score[0], 25 + 5 * 20);
	assert_int_equal(r.score[2], 0);
	assert_int_equal(r.placing[0], 1);
	assert_true(r.placing[2] > 1);
	game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_R3_refused_rule_sets),
		cmocka_unit_test(test_R3_default_stock_sizes),
		cmocka_unit_test(test_R3_deal),
		cmocka_unit_test(test_R5_1_draw_up_at_turn_start),
		cmocka_unit_test(test_R5_2_emptied_hand_draws_five_turn_goes_on),
		cmocka_unit_test(test_R5_3_discard_ends_turn_no_draw_after),
		cmocka_unit_test(test_R5_4_pass_only_with_empty_hand),
		cmocka_unit_test(test_R6_1_refill_from_completed_heap),
		cmocka_unit_test(test_R6_2_building_piles_keep_top_card_and_value),
		cmocka_unit_test(test_R6_3_nothing_left_hand_stays_short),
		cmocka_unit_test(test_R7_win_in_mid_turn),
		cmocka_unit_test(test_R7_stalemate_after_two_rounds),
		cmocka_unit_test(test_R7_stalemate_count_restarts_after_a_play),
		cmocka_unit_test(test_R7_stalemate_counts_seats_still_playing),
		cmocka_unit_test(test_R7_no_stalemate_while_cards_can_be_drawn),
		cmocka_unit_test(test_R7_turn_cap),
		cmocka_unit_test(test_R7_placings_with_ties),
		cmocka_unit_test(test_R8_winner_scores_25_plus_5_per_card),
		cmocka_unit_test(test_R8_partnership_scores_once_per_team),
		cmocka_unit_test(test_R11_removed_seat_is_skipped),
		cmocka_unit_test(test_R11_start_faults_of_every_side_leave_no_winner),
		cmocka_unit_test(test_R11_start_faults_removed_together),
		cmocka_unit_test(test_R11_removed_player_to_move_passes_on),
		cmocka_unit_test(test_R11_last_side_wins_by_forfeit),
		cmocka_unit_test(test_R11_removed_ranks_below_everyone),
		cmocka_unit_test(test_R11_partnership_forfeit_needs_a_whole_team_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
