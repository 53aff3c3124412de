/*
 * test_expert.c - the expert bot and its pieces: the unseen cards it counts
 * from the events (cards.h), the deals it makes of them (deals.h), its
 * behaviour in set positions, only legal moves over whole games (2-6
 * players, partnership on and off), the same answer for the same request,
 * and that it beats the medium bot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cards.h"
#include "deals.h"
#include "harness.h"
#include "hard.h"
#include "medium.h"
#include "positions.h"
#include "scenarios.h"

static struct expert *player;

static int expert_policy(const struct seat_view *v, const struct move *legal, int n)
{
	return expert_choose(player, v, legal, n, 1, 1000, 60000, NULL);
}

static int setup(void **state)
{
	(void)state;
	struct expert_config cfg;
	expert_config_default(&cfg);
	player = expert_new(&cfg);
	if (!player)
		return -1;
	expert_game_start(player, "g-test");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	expert_free(player);
	return 0;
}

/* The scenarios' state (scenarios.h). */
static scenario_policy policy = expert_policy;

/* Every seat's cards as the test can know them: each hand from its owner's view. */
static void true_hands(struct game *g, int players, int hands[ENGINE_MAX_PLAYERS][CARDS_VALUES])
{
	struct seat_view *v = malloc(sizeof(*v));
	assert_non_null(v);
	memset(hands, 0, ENGINE_MAX_PLAYERS * sizeof(*hands));
	for (int s = 0; s < players; s++) {
		game_view(g, s, v);
		for (int i = 0; i < v->hand_size; i++)
			hands[s][v->hand[i]]++;
	}
	free(v);
}

/*
 * Follow every seat through whole games (medium plays), its tracker fed the
 * events it is shown. At each decision the events must account for the
 * view exactly (R13), the unseen cards must number exactly the hidden places
 * (other hands, stocks under their tops, the draw pile), and every other
 * seat's actual hand must be among them.
 */
static void cards_account_for_the_view(void **state)
{
	(void)state;
	struct seat_view *v = malloc(sizeof(*v));
	assert_non_null(v);
	long checked = 0;
	for (int t = 0; t < SCENARIO_TABLES; t++) {
		struct game_rules rules = { .players = scenario_tables[t].players,
			.partnership = scenario_tables[t].partnership, .seed = 4242 + (uint64_t)t,
			.dealer = 0, .stock_size = 8 };
		int err;
		struct game *g = game_new(&rules, &err);
		assert_non_null(g);
		struct cards cards[ENGINE_MAX_PLAYERS];
		size_t seen[ENGINE_MAX_PLAYERS] = { 0 };
		for (int s = 0; s < rules.players; s++)
			cards_reset(&cards[s]);
		while (game_to_move(g) >= 0) {
			int seat = game_to_move(g);
			size_t count;
			const struct event *ev = game_events(g, &count);
			for (; seen[seat] < count; seen[seat]++) {
				struct event mine;
				event_for_seat(&ev[seen[seat]], seat, &mine);
				cards_observe(&cards[seat], &mine, 1);
			}
			game_view(g, seat, v);
			struct cards_known k;
			cards_known(&cards[seat], v, &k);
			assert_true(k.exact);
			int hidden = v->draw_size;
			for (int s = 0; s < rules.players; s++) {
				if (s != seat)
					hidden += v->others_hand_size[s];
				if (v->stock_size[s] > 0)
					hidden += v->stock_size[s] - 1;
			}
			assert_int_equal(k.unseen_n, hidden);
			int hands[ENGINE_MAX_PLAYERS][CARDS_VALUES];
			true_hands(g, rules.players, hands);
			for (int s = 0; s < rules.players; s++)
				for (int c = 0; c < CARDS_VALUES && s != seat; c++)
					assert_true(hands[s][c] <= k.unseen[c]);
			checked++;
			struct move legal[ENGINE_MAX_MOVES];
			int n = game_legal_moves(g, legal);
			assert_int_equal(game_apply(g, &legal[medium_choose(v, legal, n)]), 0);
		}
		game_free(g);
	}
	assert_true(checked > 500);
	free(v);
}

/* A deal only uses unseen cards, as many as there are of each, and fills
 * every hidden hand up to 5 (R5.1) keeping the cards its owner holds. */
static void deals_use_unseen_cards(void **state)
{
	(void)state;
	struct seat_view *v = malloc(sizeof(*v));
	assert_non_null(v);
	struct game_rules rules = { .players = 4, .seed = 99, .dealer = 3, .stock_size = 10 };
	int err;
	struct game *g = game_new(&rules, &err);
	assert_non_null(g);
	struct cards cards;
	cards_reset(&cards);
	size_t seen = 0;
	long deals = 0;
	while (game_to_move(g) >= 0) {
		int seat = game_to_move(g);
		game_view(g, seat, v);
		if (seat == 0) {
			size_t count;
			const struct event *ev = game_events(g, &count);
			for (; seen < count; seen++) {
				struct event mine;
				event_for_seat(&ev[seen], 0, &mine);
				cards_observe(&cards, &mine, 1);
			}
			struct cards_known k;
			cards_known(&cards, v, &k);
			struct dealer dl;
			/* 3 hands of 5, 4 cards under stock tops, 5 own draws */
			if (dealer_init(&dl, v, &k, (uint64_t)v->turn) >= 3 * 5 + 4 + 5) {
				for (int i = 0; i < 8; i++, deals++) {
					struct deal d;
					int used[CARDS_VALUES] = { 0 };
					dealer_deal(&dl, &d);
					for (int s = 1; s < rules.players; s++) {
						assert_int_equal(d.kept_n[s], v->others_hand_size[s]);
						for (int c = 0; c < CARDS_VALUES; c++)
							used[c] += d.kept[s][c];
						for (int j = d.kept_n[s]; j < ENGINE_HAND_SIZE; j++)
							used[d.drawn[s][j - d.kept_n[s]]]++;
					}
					for (int s = 0; s < rules.players; s++)
						used[d.stock_next[s]]++;
					for (int j = 0; j < ENGINE_HAND_SIZE; j++)
						used[d.draws[j]]++;
					for (int c = 0; c < CARDS_VALUES; c++)
						assert_true(used[c] <= k.unseen[c]);
				}
			}
		}
		struct move legal[ENGINE_MAX_MOVES];
		int n = game_legal_moves(g, legal);
		assert_int_equal(game_apply(g, &legal[medium_choose(v, legal, n)]), 0);
	}
	game_free(g);
	assert_true(deals > 100);
	free(v);
}

/*
 * Seat 1 ended its last turn with a building pile at 6 and its stock top at
 * 8: holding a 7 or a wild it would have played 7 and its 8. Its kept hand
 * (5 cards, so nothing is drawn) is never dealt one, while the same deal
 * without that knowledge does deal them.
 */
static void deals_agree_with_last_turn(void **state)
{
	(void)state;
	struct seat_view v;
	position_init(&v, 2, 0, 0);
	position_hand(&v, 5, (int[]){ 1, 2, 3, 4, 5 });
	v.stock_top[0] = 12;
	v.stock_top[1] = 8;
	v.others_hand_size[1] = 5;
	v.building_value[0] = 6;
	struct cards_known k = { 0 };
	for (int c = 0; c < CARDS_VALUES; c++)
		k.unseen[c] = c == 7 || c == CARD_SKIPBO ? 2 : 6;
	k.unseen_n = 6 * 11 + 2 * 2;
	k.exact = 1;
	k.turn_end_value[1][0] = 6;
	int with_7_or_wild[2] = { 0, 0 };
	for (int knows = 0; knows <= 1; knows++) {
		k.turn_end_known[1] = knows;
		struct dealer dl;
		assert_true(dealer_init(&dl, &v, &k, 5) > 0);
		for (int i = 0; i < 400; i++) {
			struct deal d;
			dealer_deal(&dl, &d);
			with_7_or_wild[knows] += d.kept[1][7] > 0 || d.kept[1][CARD_SKIPBO] > 0;
		}
	}
	assert_int_equal(with_7_or_wild[1], 0);
	assert_true(with_7_or_wild[0] > 50); /* about a quarter of 400 */
}

/*
 * The cards a draw can still give (R6): the draw pile, the completed heap,
 * and every card under a building pile's top; a pile the turn completes
 * gives all 12, a pile it starts keeps its only card.
 */
static void supply_counts_what_r6_gives_back(void **state)
{
	(void)state;
	struct seat_view v;
	position_init(&v, 4, 0, 0);
	v.draw_size = 3;
	v.completed_size = 0;
	v.building_value[0] = 5, v.building_size[0] = 5;
	v.building_value[2] = 2, v.building_size[2] = 2;
	assert_int_equal(deals_supply(&v, v.building_value, 0), 3 + 4 + 1);
	/* two plays on pile 0: both now lie under its top (7) */
	assert_int_equal(deals_supply(&v, (int[]){ 7, 0, 2, 0 }, 2), 3 + 6 + 1);
	/* 7 plays take pile 0 to 12: the 12 cards go to the heap (R4, R6.1) */
	assert_int_equal(deals_supply(&v, (int[]){ 0, 0, 2, 0 }, 7), 3 + 12 + 1);
	/* a play on an empty pile is its top: nothing more to draw */
	assert_int_equal(deals_supply(&v, (int[]){ 5, 1, 2, 0 }, 1), 3 + 4 + 1);
	v.completed_size = 12;
	assert_int_equal(deals_supply(&v, v.building_value, 0), 3 + 12 + 4 + 1);
}

/*
 * The other seats draw up to 5 (R5.1) in the order they move after the
 * viewer, while the supply lasts (R6.3: the hand stays short). The viewer is
 * seat 1: seat 2 draws first, then 3, then 0.
 */
static void next_hands_draw_while_cards_last(void **state)
{
	(void)state;
	struct seat_view v;
	position_init(&v, 4, 1, 0);
	struct deal d;
	memset(&d, 0, sizeof(d));
	int kept[ENGINE_MAX_PLAYERS] = { 5, 0, 2, 4 };
	for (int s = 0; s < 4; s++) {
		d.kept_n[s] = kept[s];
		d.kept[s][9] = kept[s];
		for (int i = 0; i < ENGINE_HAND_SIZE; i++)
			d.drawn[s][i] = (uint8_t)(1 + i);
	}
	int hand[ENGINE_MAX_PLAYERS][TABLE_CARD_VALUES], hand_n[ENGINE_MAX_PLAYERS];
	assert_int_equal(deal_next_hands(&d, &v, 2, hand, hand_n), 0);
	assert_int_equal(hand_n[2], 4); /* first to move: 2 of the 3 it wants */
	assert_int_equal(hand[2][9], 2);
	assert_int_equal(hand[2][1], 1);
	assert_int_equal(hand[2][2], 1);
	assert_int_equal(hand[2][3], 0);
	assert_int_equal(hand_n[3], 4); /* nothing left for it */
	assert_int_equal(hand[3][1], 0);
	assert_int_equal(hand_n[0], 5); /* held 5: draws nothing */
	assert_int_equal(deal_next_hands(&d, &v, 10, hand, hand_n), 10 - 3 - 1);
	assert_int_equal(hand_n[2], 5);
	assert_int_equal(hand_n[3], 5);
	assert_int_equal(hand[3][1], 1);
	assert_int_equal(deal_next_hands(&d, &v, 0, hand, hand_n), 0);
	assert_int_equal(hand_n[2], 2);
	assert_int_equal(hand_n[3], 4);
}

/*
 * Near a stalemate (R7) the lead in stock cards decides. Nothing is left to
 * draw; the player can run a pile from 8 to 12 with 9, 10, 11, 12 from its
 * hand, and completing it gives 5 cards back to draw (R6) - to the next
 * players first. With 2 stock cards left against 10 it stops short of the
 * 12 and keeps the game dry; with 10 against 2 it completes the pile.
 */
static int completes_the_pile(int own_stock, int their_stock)
{
	struct seat_view v;
	position_init(&v, 3, 0, 0);
	v.draw_size = 0;
	v.building_value[0] = 8;
	v.building_size[0] = 1;
	position_hand(&v, 5, (int[]){ 5, 9, 10, 11, 12 });
	v.stock_size[0] = own_stock;
	v.stock_top[0] = 3;
	for (int s = 1; s < 3; s++) {
		v.stock_size[s] = their_stock;
		v.stock_top[s] = 6;
	}
	for (int step = 0; step < 8; step++) {
		struct move legal[ENGINE_MAX_MOVES];
		int n = position_legal(&v, legal);
		int i = expert_choose(player, &v, legal, n, (uint32_t)(100 + step), 1000, 60000, NULL);
		assert_in_range(i, 0, n - 1);
		if (legal[i].kind != MOVE_PLAY)
			return 0;
		if (legal[i].card == 12)
			return 1;
		assert_int_equal(position_apply(&v, &legal[i], 3), 0);
	}
	return 0;
}

static void plays_for_the_stalemate(void **state)
{
	(void)state;
	assert_false(completes_the_pile(2, 10));
	assert_true(completes_the_pile(10, 2));
}

/*
 * The same request gives the same answer: asked twice, and asked of a second
 * player that saw the same events. Positions from whole games of 2 and 4
 * players where the expert judges candidates over deals.
 */
static void same_request_same_move(void **state)
{
	(void)state;
	struct expert_config cfg;
	expert_config_default(&cfg);
	struct expert *a = expert_new(&cfg), *b = expert_new(&cfg);
	assert_non_null(a);
	assert_non_null(b);
	struct seat_view *v = malloc(sizeof(*v));
	assert_non_null(v);
	long judged = 0;
	for (int players = 2; players <= 4; players += 2) {
		struct game_rules rules = { .players = players, .seed = 31 + (uint64_t)players, .dealer = 0,
			.stock_size = 10 };
		int err;
		struct game *g = game_new(&rules, &err);
		assert_non_null(g);
		expert_game_start(a, "g-same");
		expert_game_start(b, "g-same");
		size_t seen = 0;
		while (game_to_move(g) >= 0) {
			int seat = game_to_move(g);
			struct move legal[ENGINE_MAX_MOVES];
			int n = game_legal_moves(g, legal);
			game_view(g, seat, v);
			struct game_result r;
			game_result(g, &r);
			int i;
			if (seat == 1) {
				size_t count;
				const struct event *ev = game_events(g, &count);
				for (; seen < count; seen++) {
					struct event mine;
					event_for_seat(&ev[seen], 1, &mine);
					expert_observe(a, &mine, 1);
					expert_observe(b, &mine, 1);
				}
				struct expert_stats st;
				i = expert_choose(a, v, legal, n, r.moves + 1, 1000, 60000, &st);
				judged += st.candidates > 0;
				assert_int_equal(expert_choose(a, v, legal, n, r.moves + 1, 1000, 60000, NULL), i);
				assert_int_equal(expert_choose(b, v, legal, n, r.moves + 1, 0, 0, NULL), i);
			} else {
				i = medium_choose(v, legal, n);
			}
			assert_int_equal(game_apply(g, &legal[i]), 0);
		}
		game_free(g);
	}
	assert_true(judged > 20);
	free(v);
	expert_free(a);
	expert_free(b);
}

/* Whole games through the real request encoding, an expert (each its own) at
 * every other seat; the safety net never fires at the default limits. */
static void legal_in_whole_games(void **state)
{
	(void)state;
	struct harness_player experts[3], med, hard;
	struct expert_config cfg;
	expert_config_default(&cfg);
	struct hard_config hcfg;
	hard_config_default(&hcfg);
	struct hard *h = hard_new(&hcfg);
	assert_non_null(h);
	harness_player_init(&med, HARNESS_MEDIUM, 0, NULL);
	harness_player_init(&hard, HARNESS_HARD, 0, h);
	for (int i = 0; i < 3; i++) {
		harness_player_init(&experts[i], HARNESS_EXPERT, 0, NULL);
		experts[i].expert = expert_new(&cfg);
		assert_non_null(experts[i].expert);
	}
	long decisions = 0, net_hits = 0;
	for (int t = 0; t < SCENARIO_TABLES; t++) {
		int players = scenario_tables[t].players, partnership = scenario_tables[t].partnership;
		for (int seed = 1; seed <= 2; seed++) {
			struct harness_player *seats[ENGINE_MAX_PLAYERS];
			for (int s = 0; s < players; s++)
				seats[s] = s % 2 == 0 ? &experts[s / 2] : (seed == 1 ? &med : &hard);
			struct game_rules rules = { .players = players, .partnership = partnership,
				.seed = (uint64_t)(players * 100 + seed), .dealer = seed % players, .stock_size = 8 };
			struct harness_game hg = { .via_protocol = 1, .move_ms = 1000, .bank_ms = 60000 };
			scenario_play_clean(&rules, seats, &hg);
		}
	}
	for (int i = 0; i < 3; i++) {
		decisions += experts[i].decisions;
		net_hits += experts[i].net_hits;
		expert_free(experts[i].expert);
	}
	assert_true(decisions > 500);
	assert_int_equal(net_hits, 0);
	hard_free(h);
}

/* The expert wins more than half of duplicate games against medium. */
static void beats_medium(void **state)
{
	(void)state;
	struct harness_player ex, med;
	struct expert_config cfg;
	expert_config_default(&cfg);
	harness_player_init(&ex, HARNESS_EXPERT, 0, NULL);
	ex.expert = expert_new(&cfg);
	assert_non_null(ex.expert);
	harness_player_init(&med, HARNESS_MEDIUM, 0, NULL);
	int ex_wins = 0, med_wins = 0;
	for (int seed = 1; seed <= 40; seed++)
		for (int rot = 0; rot < 2; rot++) {
			struct harness_player *seats[2] = { rot ? &med : &ex, rot ? &ex : &med };
			struct game_rules rules = { .players = 2, .seed = (uint64_t)seed, .dealer = 1, .stock_size = 15 };
			struct harness_game hg = { .move_ms = 1000, .bank_ms = 60000 };
			assert_int_equal(harness_play(&rules, seats, &hg), 0);
			ex_wins += hg.result.winners[rot ? 1 : 0];
			med_wins += hg.result.winners[rot ? 0 : 1];
		}
	assert_true(ex_wins > med_wins);
	expert_free(ex.expert);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCENARIO_UNIT_TESTS(&policy),
		cmocka_unit_test(cards_account_for_the_view),
		cmocka_unit_test(deals_use_unseen_cards),
		cmocka_unit_test(deals_agree_with_last_turn),
		cmocka_unit_test(supply_counts_what_r6_gives_back),
		cmocka_unit_test(next_hands_draw_while_cards_last),
		cmocka_unit_test(plays_for_the_stalemate),
		cmocka_unit_test(same_request_same_move),
		cmocka_unit_test(legal_in_whole_games),
		cmocka_unit_test(beats_medium),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
