/*
 * test_rng - R12: the generator, the shuffle and golden deals.
 *
 * The golden values come from an independent implementation of the
 * specification in engine/README.md ("Randomness"); any change to the
 * generator, the shuffle or the deal order breaks them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pthread.h>

#include "game_internal.h"

static void test_R12_splitmix64_reference(void **state)
{
	uint64_t s = 0;

	(void)state;
	/* The published first outputs of splitmix64 started at 0. */
	assert_true(rng_splitmix64(&s) == 0xe220a8397b1dcdafULL);
	assert_true(rng_splitmix64(&s) == 0x6e789e6aa1b965f4ULL);
}

static void test_R12_xoshiro_outputs(void **state)
{
	struct rng r;

	(void)state;
	rng_seed(&r, 0);
	assert_true(rng_next(&r) == 0x99ec5f36cb75f2b4ULL);
	assert_true(rng_next(&r) == 0xbf6e1f784956452aULL);
	assert_true(rng_next(&r) == 0x1a5f849d4933e6e0ULL);
	rng_seed(&r, 12345);
	assert_true(rng_next(&r) == 0xbe6a36374160d49bULL);
}

static void test_R12_below_is_bounded_and_covers(void **state)
{
	struct rng r;
	int seen[7] = { 0 };

	(void)state;
	rng_seed(&r, 7);
	assert_int_equal(rng_below(&r, 1), 0);
	assert_int_equal(rng_below(&r, 0), 0);
	for (int i = 0; i < 7000; i++) {
		uint64_t x = rng_below(&r, 7);

		assert_true(x < 7);
		seen[x]++;
	}
	/* Roughly uniform: every value near 1000 (a loose 5-sigma band). */
	for (int v = 0; v < 7; v++)
		assert_in_range(seen[v], 850, 1150);
}

/* README: threshold = (2^64 - bound) % bound, draw until r >= threshold, r % bound.
 * With bound = 2^63 + 1 the threshold is 2^63 - 1, so about half the draws are
 * rejected: the sequence pins the rejection rule exactly. */
static void test_R12_below_rejection_rule(void **state)
{
	const uint64_t bound = (1ULL << 63) + 1;
	const uint64_t threshold = (1ULL << 63) - 1;
	struct rng r, raw;
	int draws = 0;

	(void)state;
	rng_seed(&r, 5);
	rng_seed(&raw, 5);
	for (int i = 0; i < 100; i++) {
		uint64_t x;

		do {
			x = rng_next(&raw);
			draws++;
		} while (x < threshold);
		assert_true(rng_below(&r, bound) == x % bound);
	}
	assert_true(draws > 130);
	assert_memory_equal(r.s, raw.s, sizeof(r.s));
}

static void test_R12_shuffle_is_a_permutation(void **state)
{
	struct rng r;
	uint8_t cards[ENGINE_DECK_SIZE];
	int count[256] = { 0 };

	(void)state;
	for (int i = 0; i < ENGINE_DECK_SIZE; i++)
		cards[i] = (uint8_t)i;
	rng_seed(&r, 99);
	rng_shuffle(&r, cards, ENGINE_DECK_SIZE);
	for (int i = 0; i < ENGINE_DECK_SIZE; i++)
		count[cards[i]]++;
	for (int i = 0; i < ENGINE_DECK_SIZE; i++)
		assert_int_equal(count[i], 1);
}

static void check_stock(const struct game *g, int seat, const uint8_t *want, int n)
{
	assert_int_equal(g->stock_n[seat], n);
	assert_memory_equal(g->stock[seat], want, (size_t)n);
}

static void check_hand(const struct game *g, int seat, const uint8_t want[5])
{
	struct seat_view *v = malloc(sizeof(*v));

	assert_non_null(v);
	game_view(g, seat, v);
	assert_int_equal(v->hand_size, 5);
	assert_memory_equal(v->hand, want, 5);
	free(v);
}

static void test_R12_golden_deal_seed0_2p(void **state)
{
	static const uint8_t deck_head[16] = { 3, 0, 10, 0, 3, 0, 0, 7, 12, 0, 12, 4, 0, 4, 6, 0 };
	static const uint8_t deck_tail[6] = { 11, 10, 0, 11, 3, 7 };
	static const uint8_t s0[30] = { 0, 0, 0, 7, 0, 4, 4, 0, 11, 8, 12, 9, 5, 5, 7,
					10, 10, 12, 12, 6, 11, 6, 11, 12, 5, 4, 9, 9, 1, 9 };
	static const uint8_t s1[30] = { 3, 10, 3, 0, 12, 12, 0, 6, 9, 9, 10, 12, 5, 1, 4,
					1, 10, 8, 8, 1, 0, 10, 11, 5, 2, 7, 11, 9, 0, 2 };
	static const uint8_t hand[5] = { 6, 7, 7, 7, 9 };
	struct game_rules rules = { .players = 2, .seed = 0 };
	uint8_t deck[ENGINE_DECK_SIZE];
	struct game *g = game_new(&rules, NULL);

	(void)state;
	assert_non_null(g);
	game_initial_deck(g, deck);
	assert_memory_equal(deck, deck_head, sizeof(deck_head));
	assert_memory_equal(deck + ENGINE_DECK_SIZE - 6, deck_tail, sizeof(deck_tail));
	/* R3: the seat left of the dealer gets the first card (the bottom of its stock). */
	check_stock(g, 1, s1, 30);
	check_stock(g, 0, s0, 30);
	assert_int_equal(game_to_move(g), 1);
	check_hand(g, 1, hand);
	assert_int_equal(g->draw_n, ENGINE_DECK_SIZE - 60 - 5);
	game_free(g);
}

static void test_R12_golden_deal_6p_stock20_dealer3(void **state)
{
	static const uint8_t s4[20] = { 7, 2, 11, 9, 9, 0, 4, 5, 0, 5, 9, 9, 2, 9, 4, 12, 5, 4, 12, 10 };
	static const uint8_t s3[20] = { 0, 5, 7, 5, 5, 7, 11, 10, 7, 9, 8, 8, 1, 8, 3, 8, 11, 7, 6, 3 };
	static const uint8_t hand[5] = { 3, 3, 4, 7, 9 };
	struct game_rules rules = { .players = 6, .dealer = 3, .seed = 0xdeadbeefcafeULL };
	struct game *g = game_new(&rules, NULL);

	(void)state;
	assert_non_null(g);
	assert_int_equal(game_rules(g)->stock_size, 20);
	check_stock(g, 4, s4, 20);
	check_stock(g, 3, s3, 20);
	assert_int_equal(game_to_move(g), 4);
	check_hand(g, 4, hand);
	game_free(g);
}

static void test_R12_golden_deal_4p_stock10_partnership(void **state)
{
	static const uint8_t s2[10] = { 2, 2, 10, 7, 5, 12, 7, 4, 1, 4 };
	static const uint8_t s0[10] = { 8, 7, 10, 11, 2, 8, 11, 0, 9, 0 };
	static const uint8_t hand[5] = { 1, 1, 3, 6, 7 };
	struct game_rules rules = { .players = 4, .stock_size = 10, .partnership = 1,
				    .dealer = 1, .seed = 12345 };
	struct game *g = game_new(&rules, NULL);

	(void)state;
	assert_non_null(g);
	check_stock(g, 2, s2, 10);
	check_stock(g, 0, s0, 10);
	assert_int_equal(game_to_move(g), 2);
	check_hand(g, 2, hand);
	game_free(g);
}

/* Same seed, rules and moves: the same game, event for event. */
static void test_R12_determinism(void **state)
{
	struct game_rules rules = { .players = 3, .stock_size = 8, .seed = 77 };
	struct game *a = game_new(&rules, NULL);
	struct game *b = game_new(&rules, NULL);
	struct move moves[ENGINE_MAX_MOVES];
	const struct event *ea, *eb;
	size_t na, nb;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	while (game_to_move(a) >= 0) {
		int n = game_legal_moves(a, moves);
		int k = (int)(a->moves * 7919u % (unsigned)n);

		assert_int_equal(game_legal_moves(b, moves), n);
		assert_int_equal(game_apply(a, &moves[k]), 0);
		assert_int_equal(game_apply(b, &moves[k]), 0);
	}
	assert_int_equal(game_to_move(b), -1);
	ea = game_events(a, &na);
	eb = game_events(b, &nb);
	assert_true(na > 100);
	assert_int_equal(na, nb);
	assert_memory_equal(ea, eb, na * sizeof(*ea));
	/* A different seed deals differently. */
	rules.seed = 78;
	game_free(b);
	b = game_new(&rules, NULL);
	assert_non_null(b);
	assert_memory_not_equal(a->deck, b->deck, ENGINE_DECK_SIZE);
	game_free(a);
	game_free(b);
}

struct thread_job {
	uint64_t seed;
	size_t events;
	uint64_t digest;
};

/* Plays a fixed-policy game and digests its event log. */
static void *play_job(void *arg)
{
	struct thread_job *job = arg;
	struct game_rules rules = { .players = 4, .stock_size = 10, .seed = job->seed };
	struct move moves[ENGINE_MAX_MOVES];
	struct game *g = game_new(&rules, NULL);
	const struct event *ev;

	if (!g)
		return NULL;
	while (game_to_move(g) >= 0) {
		int n = game_legal_moves(g, moves);

		game_apply(g, &moves[g->moves % (uint32_t)n]);
	}
	ev = game_events(g, &job->events);
	job->digest = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < job->events * sizeof(*ev); i++)
		job->digest = (job->digest ^ ((const uint8_t *)ev)[i]) * 0x100000001b3ULL;
	game_free(g);
	return NULL;
}

/* No hidden shared state: games on two threads at once give what they give alone. */
static void test_R12_games_on_threads_match_games_alone(void **state)
{
	struct thread_job alone[8], together[8];
	pthread_t threads[8];

	(void)state;
	for (int i = 0; i < 8; i++) {
		alone[i] = (struct thread_job){ .seed = (uint64_t)i * 1000 };
		together[i] = alone[i];
		play_job(&alone[i]);
	}
	for (int i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, play_job, &together[i]), 0);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_true(alone[i].events > 100);
		assert_int_equal(together[i].events, alone[i].events);
		assert_true(together[i].digest == alone[i].digest);
	}
	assert_true(alone[0].digest != alone[1].digest);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_R12_splitmix64_reference),
		cmocka_unit_test(test_R12_xoshiro_outputs),
		cmocka_unit_test(test_R12_below_is_bounded_and_covers),
		cmocka_unit_test(test_R12_below_rejection_rule),
		cmocka_unit_test(test_R12_shuffle_is_a_permutation),
		cmocka_unit_test(test_R12_golden_deal_seed0_2p),
		cmocka_unit_test(test_R12_golden_deal_6p_stock20_dealer3),
		cmocka_unit_test(test_R12_golden_deal_4p_stock10_partnership),
		cmocka_unit_test(test_R12_determinism),
		cmocka_unit_test(test_R12_games_on_threads_match_games_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
