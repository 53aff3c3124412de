/*
 * test_harness.c - the harness's cheats, which measure what the bots could
 * reach: the oracle's deal is what happens, a determinized game shows its
 * seat what the real one shows, and the seer (all cards seen, every move
 * played out) beats hard.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "deals.h"
#include "game_internal.h"
#include "harness.h"

/* A seat's hand as a count per card, from its own view. */
static void hand_counts(const struct game *g, int seat, int count[TABLE_CARD_VALUES])
{
	struct seat_view *v = malloc(sizeof(*v));
	assert_non_null(v);
	game_view(g, seat, v);
	memset(count, 0, sizeof(int) * TABLE_CARD_VALUES);
	for (int i = 0; i < v->hand_size; i++)
		count[v->hand[i]]++;
	free(v);
}

/* The seat to move discards its first card at once. */
static void discard_at_once(struct game *g)
{
	struct move legal[ENGINE_MAX_MOVES];
	int n = game_legal_moves(g, legal), i = 0;
	while (i < n && legal[i].kind != MOVE_DISCARD)
		i++;
	assert_true(i < n);
	assert_int_equal(game_apply(g, &legal[i]), 0);
}

/* bench_bots --oracle: the deal the harness gives the expert is what the
 * seats then draw, in turn order (R5.1), the viewer last; after a refill the
 * viewer's 5 come first (R5.2). */
static void oracle_foresees_the_draws(void **state)
{
	(void)state;
	struct game_rules rules = { .players = 3, .seed = 7, .dealer = 2, .stock_size = 10 };
	int err = 0;
	struct game *g = game_new(&rules, &err);
	struct seat_view *v = malloc(sizeof(*v));
	assert_non_null(g);
	assert_non_null(v);
	int viewer = game_to_move(g), next = (viewer + 1) % 3, after = (viewer + 2) % 3;
	game_view(g, viewer, v);
	struct deal last, first;
	harness_oracle_deal(g, v, 0, &last);
	harness_oracle_deal(g, v, 1, &first);
	assert_int_equal(last.kept_n[next], 0); /* nobody else has drawn yet */
	assert_memory_equal(first.draws, last.drawn[next], sizeof(first.draws));
	assert_memory_equal(first.drawn[next], last.drawn[after], sizeof(first.drawn[next]));

	discard_at_once(g);
	int kept[TABLE_CARD_VALUES], hand[TABLE_CARD_VALUES];
	hand_counts(g, viewer, kept);
	for (int s = next; s != viewer; s = (s + 1) % 3) {
		assert_int_equal(game_to_move(g), s);
		int want[TABLE_CARD_VALUES] = { 0 };
		for (int i = 0; i < ENGINE_HAND_SIZE; i++)
			want[last.drawn[s][i]]++;
		hand_counts(g, s, hand);
		assert_memory_equal(hand, want, sizeof(hand));
		discard_at_once(g);
	}
	assert_int_equal(game_to_move(g), viewer);
	kept[last.draws[0]]++;
	hand_counts(g, viewer, hand);
	assert_memory_equal(hand, kept, sizeof(hand));
	free(v);
	game_free(g);
}

/* Every card of the deck (R1) in one place or another, by card. */
static void all_cards(const struct game *g, int count[GAME_CARD_VALUES])
{
	memset(count, 0, sizeof(int) * GAME_CARD_VALUES);
	for (int s = 0; s < g->players; s++) {
		for (int v = 0; v < GAME_CARD_VALUES; v++)
			count[v] += g->hand[s][v];
		for (int k = 0; k < g->stock_n[s]; k++)
			count[g->stock[s][k]]++;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			for (int k = 0; k < g->discard_n[s][p]; k++)
				count[g->discard[s][p][k]]++;
	}
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
		for (int k = 0; k < g->building_n[b]; k++)
			count[g->building[b][k]]++;
	for (int k = 0; k < g->draw_n; k++)
		count[g->draw[k]]++;
	for (int k = 0; k < g->completed_n; k++)
		count[g->completed[k]]++;
}

/* A game dealt again for seat 0 shows seat 0 the same view and holds the
 * same cards, but the other hands and the draw pile change. */
static void determinized_game_looks_the_same(void **state)
{
	(void)state;
	struct game_rules rules = { .players = 4, .seed = 11, .dealer = 3, .stock_size = 10 };
	int err = 0;
	struct game *g = game_new(&rules, &err);
	assert_non_null(g);
	for (int k = 0; k < 12; k++)
		discard_at_once(g);
	struct game *c = game_clone(g);
	assert_non_null(c);
	struct rng r;
	rng_seed(&r, 3);
	harness_determinize(c, 0, &r);
	struct seat_view *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	game_view(g, 0, a);
	game_view(c, 0, b);
	assert_memory_equal(a, b, sizeof(*a));
	int before[GAME_CARD_VALUES], after[GAME_CARD_VALUES];
	all_cards(g, before);
	all_cards(c, after);
	assert_memory_equal(before, after, sizeof(before));
	assert_true(memcmp(g->hand[1], c->hand[1], sizeof(g->hand[1])) != 0 ||
		    memcmp(g->draw, c->draw, (size_t)g->draw_n) != 0);
	for (int s = 1; s < 4; s++)
		for (int v = 0; v < GAME_CARD_VALUES; v++)
			assert_int_equal(!!(c->hand_mask[s] & (1u << v)), c->hand[s][v] > 0);
	free(a);
	free(b);
	game_free(c);
	game_free(g);
}

/* The seer, seeing every card, wins both seats of a deal that hard in its
 * place wins from the first seat only (R7). */
static void seer_beats_hard(void **state)
{
	(void)state;
	struct hard_config cfg;
	hard_config_default(&cfg);
	struct hard *h = hard_new(&cfg), *hs = hard_new(&cfg);
	assert_non_null(h);
	assert_non_null(hs);
	struct harness_player seer, hard;
	harness_player_init(&seer, HARNESS_SEER, 0, hs);
	harness_player_init(&hard, HARNESS_HARD, 0, h);
	int wins = 0;
	for (int rot = 0; rot < 2; rot++) {
		struct harness_player *seats[2] = { rot ? &hard : &seer, rot ? &seer : &hard };
		struct game_rules rules = { .players = 2, .seed = 10, .dealer = 1, .stock_size = 3 };
		struct harness_game hg = { .move_ms = 1000, .bank_ms = 60000 };
		assert_int_equal(harness_play(&rules, seats, &hg), 0);
		wins += hg.result.winners[rot];
	}
	assert_int_equal(wins, 2);
	hard_free(h);
	hard_free(hs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(oracle_foresees_the_draws),
		cmocka_unit_test(determinized_game_looks_the_same),
		cmocka_unit_test(seer_beats_hard),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
