/*
 * scenarios.c - behaviour checks for the bots' tests (see scenarios.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "positions.h"
#include "scenarios.h"

static struct move decide(void **state, const struct seat_view *v)
{
	scenario_policy choose = *(scenario_policy *)*state;
	struct move legal[ENGINE_MAX_MOVES * 2];
	int n = position_legal(v, legal);
	int i = choose(v, legal, n);
	assert_true(i >= 0 && i < n);
	return legal[i];
}

void scenario_plays_stock(void **state)
{
	struct seat_view v;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 5, (int[]){ 3, 5, 7, 9, 11 });
	v.stock_top[0] = 4;
	v.stock_top[1] = 10;
	v.building_value[0] = 2;
	v.building_value[1] = 3;
	struct move m = decide(state, &v);
	assert_int_equal(m.kind, MOVE_PLAY);
	assert_int_equal(m.source, SOURCE_STOCK);
	assert_int_equal(m.target, 1);
}

void scenario_chain_through_wild(void **state)
{
	struct seat_view v;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 5, (int[]){ 0, 4, 9, 10, 11 });
	v.stock_top[0] = 6;
	v.stock_top[1] = 12;
	v.building_value[0] = 3;
	v.building_value[1] = 8;
	/* Three plays must lead to the stock card: 4 and the wild on pile 0, in
	 * some order, then the 6. */
	int used_wild = 0, used_four = 0;
	for (int step = 0; step < 2; step++) {
		struct move m = decide(state, &v);
		assert_int_equal(m.kind, MOVE_PLAY);
		assert_int_equal(m.source, SOURCE_HAND);
		assert_int_equal(m.target, 0);
		used_wild |= m.card == CARD_SKIPBO;
		used_four |= m.card == 4;
		assert_int_equal(position_apply(&v, &m, 2), 0);
	}
	assert_true(used_wild && used_four);
	struct move m = decide(state, &v);
	assert_int_equal(m.source, SOURCE_STOCK);
	assert_int_equal(m.target, 0);
}

void scenario_chain_prefers_discard(void **state)
{
	struct seat_view v;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 5, (int[]){ 0, 4, 9, 10, 11 });
	position_discard(&v, 0, 2, 2, (int[]){ 12, 5 });
	v.stock_top[0] = 6;
	v.stock_top[1] = 12;
	v.building_value[0] = 3;
	for (int step = 0; step < 2; step++) {
		struct move m = decide(state, &v);
		assert_int_equal(m.kind, MOVE_PLAY);
		assert_true(m.card != CARD_SKIPBO);
		assert_int_equal(position_apply(&v, &m, 2), 0);
	}
	assert_int_equal(v.building_value[0], 5);
	struct move m = decide(state, &v);
	assert_int_equal(m.source, SOURCE_STOCK);
	assert_int_equal(v.hand[0], CARD_SKIPBO); /* the wild is still in hand */
}

void scenario_partner_stock(void **state)
{
	struct seat_view v;
	position_init(&v, 4, 0, 1);
	position_hand(&v, 5, (int[]){ 2, 5, 9, 10, 11 });
	v.stock_top[0] = 12;
	v.stock_top[1] = 12;
	v.stock_top[2] = 7;
	v.stock_top[3] = 12;
	v.building_value[2] = 6;
	struct move m = decide(state, &v);
	assert_int_equal(m.kind, MOVE_PLAY);
	assert_int_equal(m.source, SOURCE_STOCK);
	assert_int_equal(m.owner, 2);
	assert_int_equal(m.target, 2);
}

void scenario_no_feed(void **state)
{
	struct seat_view v;
	position_init(&v, 2, 0, 0);
	/* Own stock 3 fits pile 1 after a 2. The next player's stock is 8: a 7
	 * on pile 0 (at 6) would hand it over. */
	position_hand(&v, 5, (int[]){ 2, 7, 11, 11, 12 });
	v.stock_top[0] = 3;
	v.stock_top[1] = 8;
	v.building_value[0] = 6;
	v.building_value[1] = 1;
	for (int step = 0; step < 8; step++) {
		struct move m = decide(state, &v);
		if (m.kind != MOVE_PLAY)
			break;
		assert_int_equal(position_apply(&v, &m, 11), 0);
		for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
			assert_int_not_equal(v.building_value[b], 7);
	}
	assert_int_equal(v.stock_size[0], 9); /* the stock card was played */
}

void scenario_wild_stock_no_feed(void **state)
{
	struct seat_view v;
	position_init(&v, 3, 1, 0);
	position_hand(&v, 5, (int[]){ 10, 10, 11, 11, 12 });
	v.stock_top[1] = CARD_SKIPBO;
	v.stock_top[2] = 8; /* the next player */
	v.stock_top[0] = 12;
	v.building_value[0] = 6;
	v.building_value[1] = 6;
	v.building_value[2] = 2;
	v.building_value[3] = 6;
	struct move m = decide(state, &v);
	assert_int_equal(m.kind, MOVE_PLAY);
	assert_int_equal(m.source, SOURCE_STOCK);
	assert_int_equal(m.target, 2);
}

void scenario_always_legal(void **state)
{
	struct rng r;
	rng_seed(&r, 7);
	for (int round = 0; round < 300; round++) {
		struct seat_view v;
		int players = 2 + (int)rng_below(&r, 5);
		int partnership = (players == 4 || players == 6) && rng_below(&r, 2);
		int seat = (int)rng_below(&r, (uint64_t)players);
		position_init(&v, players, seat, partnership);
		int hand[5], nh = (int)rng_below(&r, 6);
		for (int i = 0; i < nh; i++)
			hand[i] = (int)rng_below(&r, 13);
		position_hand(&v, nh, hand);
		for (int s = 0; s < players; s++) {
			v.stock_top[s] = (uint8_t)rng_below(&r, 13);
			for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
				int cards[6], k = (int)rng_below(&r, 7);
				for (int i = 0; i < k; i++)
					cards[i] = (int)rng_below(&r, 13);
				position_discard(&v, s, p, k, cards);
			}
		}
		for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
			v.building_value[b] = (int)rng_below(&r, 12);
		for (int step = 0; step < 30; step++) {
			struct move m = decide(state, &v);
			if (m.kind != MOVE_PLAY)
				break;
			assert_int_equal(position_apply(&v, &m, (int)rng_below(&r, 13)), 0);
		}
	}
}

const struct scenario_table scenario_tables[SCENARIO_TABLES] = {
	{ 2, 0 }, { 3, 0 }, { 4, 0 }, { 4, 1 }, { 5, 0 }, { 6, 0 }, { 6, 1 },
};

void scenario_play_clean(const struct game_rules *rules, struct harness_player *const *seats,
			 struct harness_game *hg)
{
	assert_int_equal(harness_play(rules, seats, hg), 0);
	assert_int_equal(hg->illegal, 0);
	assert_int_equal(hg->protocol_errors, 0);
	assert_true(hg->result.status != GAME_RUNNING);
}
