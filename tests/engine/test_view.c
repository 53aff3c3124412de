/*
 * test_view - R13: what each seat may see, of the position and of the events.
 */
#include "engine_test.h"

/*
 * Changes only what `viewer` may not see: other hands (swapped with draw
 * pile cards), stock cards under the top, and the order of the draw pile.
 * Returns 1 if something really changed.
 */
static int perturb_hidden(struct game *g, int viewer, struct rng *r)
{
	int changed = 0;

	for (int s = 0; s < g->players; s++) {
		if (s == viewer || g->hand_n[s] == 0 || g->draw_n == 0)
			continue;
		for (int v = 0; v < GAME_CARD_VALUES; v++) {
			int i = (int)rng_below(r, (uint64_t)g->draw_n);
			uint8_t other = g->draw[i];

			if (!g->hand[s][v] || other == v)
				continue;
			game_hand_remove(g, s, v);
			g->hand[s][other]++;
			g->hand_n[s]++;
			g->hand_mask[s] |= (uint16_t)(1u << other);
			g->draw[i] = (uint8_t)v;
			changed = 1;
			break;
		}
	}
	for (int s = 0; s < g->players; s++) {
		if (g->stock_n[s] < 3)
			continue;
		rng_shuffle(r, g->stock[s], (size_t)g->stock_n[s] - 1);
		changed = 1;
	}
	rng_shuffle(r, g->draw, (size_t)g->draw_n);
	return changed;
}

static void test_R13_view_hides_other_hands_stock_and_draw_order(void **state)
{
	struct seat_view *va = malloc(sizeof(*va)), *vb = malloc(sizeof(*vb));
	struct move moves[ENGINE_MAX_MOVES];
	struct rng r;
	int compared = 0, hands_changed = 0;

	(void)state;
	assert_non_null(va);
	assert_non_null(vb);
	rng_seed(&r, 2024);
	for (int game = 0; game < 20; game++) {
		struct game_rules rules = { .players = 2 + game % 5, .stock_size = 12,
					    .partnership = game % 5 == 2, .seed = (uint64_t)game };
		struct game *a = game_new(&rules, NULL);

		assert_non_null(a);
		while (game_to_move(a) >= 0) {
			int n = game_legal_moves(a, moves);

			if (a->moves % 7 == 0) {
				for (int viewer = 0; viewer < a->players; viewer++) {
					struct game *b = game_clone(a);

					assert_non_null(b);
					if (perturb_hidden(b, viewer, &r)) {
						game_view(a, viewer, va);
						game_view(b, viewer, vb);
						assert_memory_equal(va, vb, sizeof(*va));
						compared++;
						/* The change is real: some seat's own hand differs. */
						for (int s = 0; s < a->players; s++) {
							game_view(b, s, vb);
							game_view(a, s, va);
							hands_changed += memcmp(va->hand, vb->hand, sizeof(va->hand)) != 0;
						}
					}
					game_free(b);
				}
			}
			assert_int_equal(game_apply(a, &moves[rng_below(&r, (uint64_t)n)]), 0);
		}
		game_free(a);
	}
	assert_true(compared > 200);
	assert_true(hands_changed > 50);
	free(va);
	free(vb);
}

static void test_R13_view_shows_what_it_must(void **state)
{
	static const uint8_t h0[] = { 9, CARD_SKIPBO, 3, 9 };
	static const uint8_t h1[] = { 4, 4, 4 };
	static const uint8_t st1[] = { 6, 2, 8 };
	static const uint8_t d1[] = { 12, 11, 10 };
	struct game *g = pos_game(3, 0, 5);
	struct seat_view *v = malloc(sizeof(*v));

	(void)state;
	assert_non_null(v);
	pos_clear(g);
	pos_hand(g, 0, h0, 4);
	pos_hand(g, 1, h1, 3);
	pos_stock(g, 1, st1, 3);
	pos_discard(g, 1, 2, d1, 3);
	pos_building(g, 3, 5);
	game_view(g, 0, v);
	assert_int_equal(v->seat, 0);
	assert_int_equal(v->players, 3);
	assert_int_equal(v->partner, -1);
	assert_int_equal(v->to_move, 0);
	assert_int_equal(v->hand_size, 4);
	assert_memory_equal(v->hand, ((uint8_t[]){ CARD_SKIPBO, 3, 9, 9 }), 4);
	assert_int_equal(v->others_hand_size[1], 3);
	assert_int_equal(v->stock_size[1], 3);
	assert_int_equal(v->stock_top[1], 8);
	assert_int_equal(v->stock_top[2], CARD_NONE);
	assert_int_equal(v->stock_top[4], CARD_NONE);
	/* Discard piles in full, bottom first. */
	assert_int_equal(v->discard_size[1][2], 3);
	assert_memory_equal(v->discard[1][2], d1, 3);
	assert_int_equal(v->building_value[3], 5);
	assert_int_equal(v->building_size[3], 5);
	game_free(g);
	g = pos_game(6, 1, 5);
	game_view(g, 4, v);
	assert_int_equal(v->partner, 1);
	assert_int_equal(v->partnership, 1);
	free(v);
	game_free(g);
}

static void test_R13_events_redact_only_others_draws(void **state)
{
	struct game_rules rules = { .players = 4, .stock_size = 5, .seed = 8 };
	struct game *g = game_new(&rules, NULL);
	struct move moves[ENGINE_MAX_MOVES];
	const struct event *ev;
	size_t n;
	int hidden = 0, shown = 0;

	(void)state;
	assert_non_null(g);
	for (int i = 0; i < 200 && game_to_move(g) >= 0; i++) {
		int k = game_legal_moves(g, moves);

		assert_int_equal(game_apply(g, &moves[(unsigned)i % (unsigned)k]), 0);
	}
	ev = game_events(g, &n);
	for (size_t i = 0; i < n; i++) {
		for (int viewer = 0; viewer < 4; viewer++) {
			struct event out;

			assert_int_equal(event_for_seat(&ev[i], viewer, &out), 1);
			if (ev[i].kind == EVENT_DRAW && ev[i].seat != viewer) {
				assert_int_equal(out.card, CARD_NONE);
				/* Who drew, and how many, stay public. */
				assert_int_equal(out.seat, ev[i].seat);
				assert_int_equal(out.count, 1);
				out.card = ev[i].card;
				hidden++;
			} else {
				shown++;
			}
			assert_memory_equal(&out, &ev[i], sizeof(out));
		}
	}
	assert_true(hidden > 50);
	assert_true(shown > 50);
	game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_R13_view_hides_other_hands_stock_and_draw_order),
		cmocka_unit_test(test_R13_view_shows_what_it_must),
		cmocka_unit_test(test_R13_events_redact_only_others_draws),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
