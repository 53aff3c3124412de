/*
 * test_events - the event log holds full information: replaying the events
 * of random games onto the initial deal rebuilds every pile exactly (hands,
 * stocks, discard piles, building piles, the sizes of the draw pile and the
 * completed heap), and every event is consistent with the state before it.
 */
#include "engine_test.h"

struct shadow {
	uint8_t hand[ENGINE_MAX_PLAYERS][GAME_CARD_VALUES];
	uint8_t stock[ENGINE_MAX_PLAYERS][GAME_MAX_STOCK];
	int stock_n[ENGINE_MAX_PLAYERS];
	uint8_t discard[ENGINE_MAX_PLAYERS][ENGINE_DISCARD_PILES][ENGINE_DECK_SIZE];
	int discard_n[ENGINE_MAX_PLAYERS][ENGINE_DISCARD_PILES];
	uint8_t building[ENGINE_BUILDING_PILES][GAME_PILE_MAX];
	int building_n[ENGINE_BUILDING_PILES], building_value[ENGINE_BUILDING_PILES];
	int draw_n, completed_n, to_move, ended;
};

/* R3 again, from the public deck order only. */
static void shadow_deal(struct shadow *sh, const struct game *g)
{
	const struct game_rules *r = game_rules(g);
	uint8_t deck[ENGINE_DECK_SIZE];
	int n = r->players;

	memset(sh, 0, sizeof(*sh));
	game_initial_deck(g, deck);
	for (int k = 0; k < r->stock_size; k++)
		for (int i = 0; i < n; i++) {
			int s = (r->dealer + 1 + i) % n;

			sh->stock[s][sh->stock_n[s]++] = deck[k * n + i];
		}
	sh->draw_n = ENGINE_DECK_SIZE - n * r->stock_size;
	sh->to_move = -1;
}

static void shadow_play(struct shadow *sh, const struct event *ev)
{
	int o = ev->owner, p = ev->target;

	assert_int_equal(ev->seat, sh->to_move);
	switch (ev->source) {
	case SOURCE_HAND:
		assert_int_equal(o, ev->seat);
		assert_true(sh->hand[o][ev->card] > 0);
		sh->hand[o][ev->card]--;
		break;
	case SOURCE_STOCK:
		assert_int_equal(sh->stock[o][sh->stock_n[o] - 1], ev->card);
		sh->stock_n[o]--;
		break;
	default:
		assert_int_equal(ev->source, SOURCE_DISCARD);
		assert_int_equal(sh->discard[o][ev->pile][sh->discard_n[o][ev->pile] - 1], ev->card);
		sh->discard_n[o][ev->pile]--;
		break;
	}
	assert_int_equal(ev->value, sh->building_value[p] + 1);
	assert_true(ev->card == CARD_SKIPBO || ev->card == ev->value);
	sh->building[p][sh->building_n[p]++] = ev->card;
	sh->building_value[p] = ev->value;
}

static void shadow_refill(struct shadow *sh, const struct event *ev)
{
	int n = 0;

	assert_int_equal(sh->draw_n, 0);
	if (ev->source == 1) {
		n = sh->completed_n;
		sh->completed_n = 0;
	} else {
		assert_int_equal(ev->source, 2);
		assert_int_equal(sh->completed_n, 0);
		for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
			if (sh->building_n[p] < 2)
				continue;
			n += sh->building_n[p] - 1;
			sh->building[p][0] = sh->building[p][sh->building_n[p] - 1];
			sh->building_n[p] = 1;
		}
	}
	assert_int_equal(ev->count, n);
	sh->draw_n = n;
}

static void shadow_apply(struct shadow *sh, const struct event *ev)
{
	assert_false(sh->ended);
	switch (ev->kind) {
	case EVENT_TURN:
		sh->to_move = ev->seat;
		break;
	case EVENT_DRAW:
		assert_int_equal(ev->seat, sh->to_move);
		assert_true(sh->draw_n > 0);
		assert_true(ev->card < GAME_CARD_VALUES);
		sh->draw_n--;
		sh->hand[ev->seat][ev->card]++;
		break;
	case EVENT_PLAY:
		shadow_play(sh, ev);
		break;
	case EVENT_STOCK_TOP:
		assert_int_equal(ev->card, sh->stock_n[ev->owner] ?
			sh->stock[ev->owner][sh->stock_n[ev->owner] - 1] : CARD_NONE);
		break;
	case EVENT_COMPLETE:
		assert_int_equal(sh->building_value[ev->target], 12);
		sh->completed_n += sh->building_n[ev->target];
		sh->building_n[ev->target] = 0;
		sh->building_value[ev->target] = 0;
		break;
	case EVENT_DISCARD:
		assert_int_equal(ev->seat, sh->to_move);
		assert_true(sh->hand[ev->seat][ev->card] > 0);
		sh->hand[ev->seat][ev->card]--;
		sh->discard[ev->seat][ev->target][sh->discard_n[ev->seat][ev->target]++] = ev->card;
		break;
	case EVENT_PASS:
		for (int v = 0; v < GAME_CARD_VALUES; v++)
			assert_int_equal(sh->hand[ev->seat][v], 0);
		break;
	case EVENT_REFILL:
		shadow_refill(sh, ev);
		break;
	case EVENT_REMOVED:
		break;
	case EVENT_END:
		sh->ended = 1;
		break;
	default:
		fail_msg("unknown event kind %d", ev->kind);
	}
}

static void shadow_compare(const struct shadow *sh, const struct game *g)
{
	for (int s = 0; s < g->players; s++) {
		assert_memory_equal(sh->hand[s], g->hand[s], GAME_CARD_VALUES);
		assert_int_equal(sh->stock_n[s], g->stock_n[s]);
		for (int d = 0; d < ENGINE_DISCARD_PILES; d++) {
			assert_int_equal(sh->discard_n[s][d], g->discard_n[s][d]);
			assert_memory_equal(sh->discard[s][d], g->discard[s][d], (size_t)g->discard_n[s][d]);
		}
	}
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
		assert_int_equal(sh->building_n[p], g->building_n[p]);
		assert_int_equal(sh->building_value[p], g->building_value[p]);
		assert_memory_equal(sh->building[p], g->building[p], (size_t)g->building_n[p]);
	}
	assert_int_equal(sh->draw_n, g->draw_n);
	assert_int_equal(sh->completed_n, g->completed_n);
}

static void test_events_replay_rebuilds_every_pile(void **state)
{
	struct shadow *sh = malloc(sizeof(*sh));
	struct move moves[ENGINE_MAX_MOVES];
	struct rng r;
	long refills[3] = { 0 };

	(void)state;
	assert_non_null(sh);
	rng_seed(&r, 31);
	for (int i = 0; i < 300; i++) {
		struct game_rules rules = { .players = 2 + i % 5, .partnership = i % 10 == 2,
					    .stock_size = 1 + i % 20, .dealer = i % 2,
					    .seed = rng_next(&r) };
		struct game *g = game_new(&rules, NULL);
		size_t n, done = 0;
		const struct event *ev;
		int removed = 0;

		assert_non_null(g);
		shadow_deal(sh, g);
		while (game_to_move(g) >= 0) {
			int k = game_legal_moves(g, moves);
			/* Mostly plays when there are any, so that piles complete and refill. */
			int pick = moves[0].kind == MOVE_PLAY && rng_below(&r, 4) ? 0 : (int)rng_below(&r, (uint64_t)k);

			if (i % 7 == 0 && g->moves == 30 && !removed) {
				assert_int_equal(game_remove_seat(g, g->to_move), 0);
				removed = 1;
			}
			else
				assert_int_equal(game_apply(g, &moves[pick]), 0);
			ev = game_events(g, &n);
			for (; done < n; done++) {
				shadow_apply(sh, &ev[done]);
				if (ev[done].kind == EVENT_REFILL)
					refills[ev[done].source]++;
			}
			shadow_compare(sh, g);
		}
		assert_true(sh->ended);
		assert_int_equal(last_event(g, EVENT_END)->value, g->reason);
		assert_false(game_log_truncated(g));
		game_free(g);
	}
	assert_true(refills[1] > 20);
	assert_true(refills[2] > 20);
	free(sh);
}

static void test_events_off_keeps_no_log(void **state)
{
	struct game_rules rules = { .players = 2, .seed = 1, .no_event_log = 1 };
	struct game *g = game_new(&rules, NULL);
	struct game *c;
	size_t n = 99;

	(void)state;
	assert_non_null(g);
	assert_null(game_events(g, &n));
	assert_int_equal(n, 0);
	c = game_clone(g);
	assert_non_null(c);
	assert_null(game_events(c, &n));
	game_free(c);
	game_free(g);
}

static void test_events_clone_is_independent(void **state)
{
	struct game_rules rules = { .players = 3, .seed = 12 };
	struct game *g = game_new(&rules, NULL);
	struct game *c;
	struct move moves[ENGINE_MAX_MOVES];
	size_t ng, nc;

	(void)state;
	assert_non_null(g);
	c = game_clone(g);
	assert_non_null(c);
	game_events(g, &ng);
	game_events(c, &nc);
	assert_int_equal(ng, nc);
	assert_int_equal(game_legal_moves(c, moves) > 0, 1);
	for (int i = 0; i < 50 && game_to_move(c) >= 0; i++) {
		game_legal_moves(c, moves);
		assert_int_equal(game_apply(c, &moves[0]), 0);
	}
	game_events(c, &nc);
	assert_true(nc > ng);
	assert_int_equal(g->moves, 0);
	game_events(g, &nc);
	assert_int_equal(nc, ng);
	game_free(c);
	game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_replay_rebuilds_every_pile),
		cmocka_unit_test(test_events_off_keeps_no_log),
		cmocka_unit_test(test_events_clone_is_independent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
