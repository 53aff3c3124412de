/*
 * test_table.c - the bots' turn simulator (bots/common/table.h) and threat
 * estimates (bots/common/rivals.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "positions.h"
#include "rivals.h"
#include "table.h"

/* R4 distances: how many cards take a pile from one value to another, through a completion. */
static void pile_distances(void **state)
{
	(void)state;
	assert_int_equal(table_pile_distance(3, 5), 2);
	assert_int_equal(table_pile_distance(10, 2), 4); /* 11, 12 (completes), 1, 2 */
	assert_int_equal(table_needed_value(1), 0);
	assert_int_equal(table_needed_value(CARD_SKIPBO), -1);
}

/* R4: a pile that reaches 12 is removed and the place is empty again. */
static void completion_and_stock(void **state)
{
	(void)state;
	struct seat_view v;
	struct table t;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 3, (int[]){ 0, 11, 12 });
	v.stock_top[0] = 1;
	v.building_value[0] = 10;
	table_from_view(&t, &v);
	struct move m = { .kind = MOVE_PLAY, .source = SOURCE_HAND, .card = 11, .target = 0 };
	assert_int_equal(table_apply(&t, &m), 0);
	m.card = CARD_SKIPBO;
	assert_int_equal(table_apply(&t, &m), 0);
	assert_int_equal(t.building[0], 0);
	assert_int_equal(t.completed, 1);
	assert_int_equal(t.wilds_played, 1);
	/* The 12 has nowhere to go now. */
	m.card = 12;
	assert_int_equal(table_apply(&t, &m), -1);
	/* The stock 1 starts the empty pile; the next stock card is unknown. */
	struct move s = { .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = 0, .target = 0 };
	assert_int_equal(table_apply(&t, &s), 0);
	assert_int_equal(t.side[0].stock_played, 1);
	assert_int_equal(t.side[0].stock_top, TABLE_UNKNOWN);
	assert_int_equal(table_apply(&t, &s), -1);
}

/* R5.2: emptying the hand draws 5 unknown cards; without cards to draw the
 * hand stays empty and a pass is possible (R5.4). */
static void empty_hand(void **state)
{
	(void)state;
	struct seat_view v;
	struct table t;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 1, (int[]){ 1 });
	table_from_view(&t, &v);
	struct move m = { .kind = MOVE_PLAY, .source = SOURCE_HAND, .card = 1, .target = 2 };
	assert_int_equal(table_apply(&t, &m), 0);
	assert_true(t.refilled);
	struct move pass = { .kind = MOVE_PASS };
	assert_int_equal(table_apply(&t, &pass), -1);

	v.draw_size = 0;
	table_from_view(&t, &v);
	assert_int_equal(table_apply(&t, &m), 0);
	assert_false(t.refilled);
	assert_int_equal(table_apply(&t, &pass), 0);
}

/* Plays cover stock, discard tops of self and partner (R10), and the hand,
 * each once per distinct result. */
static void plays_listed(void **state)
{
	(void)state;
	struct seat_view v;
	struct table t;
	struct move out[TABLE_MAX_PLAYS];
	position_init(&v, 4, 1, 1);
	position_hand(&v, 3, (int[]){ 0, 4, 4 });
	v.stock_top[1] = 1;
	v.stock_top[3] = 6;
	v.stock_top[0] = 1; /* an opponent: not playable */
	position_discard(&v, 3, 2, 2, (int[]){ 9, 6 });
	position_discard(&v, 0, 0, 1, (int[]){ 1 });
	v.building_value[0] = 3;
	v.building_value[1] = 5;
	table_from_view(&t, &v);
	int n = table_plays(&t, out);
	int stock1 = 0, partner_stock = 0, partner_discard = 0, four = 0, wild = 0;
	for (int i = 0; i < n; i++) {
		assert_true(out[i].owner == 1 || out[i].owner == 3);
		stock1 += out[i].source == SOURCE_STOCK && out[i].owner == 1;
		partner_stock += out[i].source == SOURCE_STOCK && out[i].owner == 3;
		partner_discard += out[i].source == SOURCE_DISCARD && out[i].owner == 3 && out[i].pile == 2;
		four += out[i].source == SOURCE_HAND && out[i].card == 4;
		wild += out[i].source == SOURCE_HAND && out[i].card == CARD_SKIPBO;
	}
	assert_int_equal(stock1, 1);         /* piles 2 and 3 are both empty: one move */
	assert_int_equal(partner_stock, 1);
	assert_int_equal(partner_discard, 1);
	assert_int_equal(four, 1);           /* two 4s, one pile at 3 */
	assert_int_equal(wild, 3);           /* piles at 3, 5 and 0 */
}

static void find_legal(void **state)
{
	(void)state;
	struct move legal[3] = {
		{ .kind = MOVE_PLAY, .source = SOURCE_DISCARD, .owner = 0, .pile = 1, .card = 5, .target = 2 },
		{ .kind = MOVE_DISCARD, .card = 7, .target = 1 },
		{ .kind = MOVE_DISCARD, .card = CARD_SKIPBO, .target = 1 },
	};
	struct move m = { .kind = MOVE_PLAY, .source = SOURCE_DISCARD, .owner = 0, .pile = 1, .target = 2 };
	assert_int_equal(table_find_legal(legal, 3, &m), 0);
	m.pile = 2;
	assert_int_equal(table_find_legal(legal, 3, &m), -1);
	assert_int_equal(table_fallback(legal, 3), 1);
	assert_int_equal(table_fallback(legal, 0), -1);
}

/* Rivals in turn order; a pile one below the next player's stock top is a
 * sure threat, one further away is less, a teammate counts for us. */
static void rivals_threats(void **state)
{
	(void)state;
	struct seat_view v;
	struct rivals rv;
	position_init(&v, 4, 3, 1);
	v.stock_top[0] = 8;
	v.stock_top[1] = 5; /* the partner */
	v.stock_top[2] = 12;
	v.removed[2] = 1;
	rivals_from_view(&rv, &v);
	assert_int_equal(rv.n, 2);
	assert_int_equal(rv.r[0].seat, 0);
	assert_int_equal(rv.r[1].seat, 1);
	assert_true(rv.r[1].teammate);
	assert_true(rivals_feeds_next(&rv, 7));
	assert_false(rivals_feeds_next(&rv, 4));
	int near[4] = { 7, 0, 0, 0 }, far[4] = { 5, 0, 0, 0 };
	assert_true(rivals_reach(&rv.r[0], near) == 1.0);
	assert_true(rivals_reach(&rv.r[0], far) < 0.5);
	assert_true(rivals_threat(&rv, near) > rivals_threat(&rv, far));
	/* Piles at 4 help only the partner: the threat is negative. */
	int partner[4] = { 4, 10, 10, 10 };
	assert_true(rivals_threat(&rv, partner) < 0);
	/* A visible discard top counts as found. */
	position_discard(&v, 0, 0, 1, (int[]){ 6 });
	rivals_from_view(&rv, &v);
	assert_true(rivals_reach(&rv.r[0], far) > 0.45);
}

/*
 * A stalemate ranks everyone by the stock left (R7): the lead counts the
 * opponents with more stock cards than the player less those with fewer,
 * over the opponents; teammates (R10) and removed seats (R11) are left out.
 */
static void rivals_stalemate_leads(void **state)
{
	(void)state;
	struct seat_view v;
	struct rivals rv;
	position_init(&v, 5, 0, 0);
	v.stock_size[1] = 9, v.stock_size[2] = 4, v.stock_size[3] = 7, v.stock_size[4] = 7;
	rivals_from_view(&rv, &v);
	assert_true(rivals_stalemate_lead(&rv, 7) == (1 - 1) / 4.0);
	assert_true(rivals_stalemate_lead(&rv, 3) == 1.0);
	assert_true(rivals_stalemate_lead(&rv, 10) == -1.0);
	assert_true(rivals_stalemate_lead(&rv, 5) == (3 - 1) / 4.0);
	v.removed[1] = 1; /* its cards no longer count against anyone's placing */
	rivals_from_view(&rv, &v);
	assert_true(rivals_stalemate_lead(&rv, 5) == (2 - 1) / 3.0);
	position_init(&v, 4, 0, 1); /* partner: seat 2 */
	v.stock_size[1] = 2, v.stock_size[2] = 1, v.stock_size[3] = 8;
	rivals_from_view(&rv, &v);
	assert_true(rivals_stalemate_lead(&rv, 5) == 0.0); /* one ahead, one behind; not the partner */
	assert_true(rivals_stalemate_lead(&rv, 1) == 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pile_distances),
		cmocka_unit_test(completion_and_stock),
		cmocka_unit_test(empty_hand),
		cmocka_unit_test(plays_listed),
		cmocka_unit_test(find_legal),
		cmocka_unit_test(rivals_threats),
		cmocka_unit_test(rivals_stalemate_leads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
