/*
 * test_invariants - 100,000 random playouts over every rule set (2-6 players,
 * every stock size valid for the player count, partnership on and off),
 * checking after every move that all 162 cards are accounted for exactly once
 * (R1), no building pile passes 12 (R4), only legal moves are accepted and an
 * illegal one changes nothing (R14), and that every game ends (R7).
 *
 * Every fourth game cycles through all 191 rule sets (each stock size is then
 * played at least 500 times, over 4 to 7 rule sets); the other games use
 * stocks of 1 to 5 cards, which keeps the test quick. Moves follow one of three policies (uniform, play-first,
 * discard-heavy) so that wins, stalemates and turn caps all occur; some games
 * remove a seat midway (R11) and some run with the event log off and are
 * replayed with it on to check that the log does not change the game.
 */
#include "engine_test.h"

#define PLAYOUTS 100000

struct config {
	int players, stock, partnership;
};

/* Every valid rule set with a stock of at most max_stock cards. */
static int configs_fill(struct config *c, int max_stock)
{
	int n = 0;

	for (int players = 2; players <= 6; players++) {
		for (int stock = 1; players * (stock + ENGINE_HAND_SIZE) <= ENGINE_DECK_SIZE &&
				    stock <= max_stock; stock++) {
			c[n++] = (struct config){ players, stock, 0 };
			if (players == 4 || players == 6)
				c[n++] = (struct config){ players, stock, 1 };
		}
	}
	return n;
}

/* R1: every card is in exactly one place; R4: building piles stay in shape. */
static void check_position(const struct game *g)
{
	int count[GAME_CARD_VALUES] = { 0 };
	int total = 0;

	for (int s = 0; s < g->players; s++) {
		int hand = 0;
		unsigned mask = 0;
		int k = g->stock_n[s];

		for (int v = 0; v < GAME_CARD_VALUES; v++) {
			count[v] += g->hand[s][v];
			hand += g->hand[s][v];
			mask |= (unsigned)(g->hand[s][v] != 0) << v;
		}
		assert_int_equal(hand, g->hand_n[s]);
		assert_int_equal(mask, g->hand_mask[s]);
		assert_true(hand <= ENGINE_HAND_SIZE);
		/* The cached tops match the piles. */
		assert_int_equal(g->tops[s][0], k ? g->stock[s][k - 1] : GAME_NO_CARD);
		for (int i = 0; i < k; i++)
			count[g->stock[s][i]]++;
		for (int d = 0; d < ENGINE_DISCARD_PILES; d++) {
			k = g->discard_n[s][d];
			assert_int_equal(g->tops[s][1 + d], k ? g->discard[s][d][k - 1] : GAME_NO_CARD);
			for (int i = 0; i < k; i++)
				count[g->discard[s][d][i]]++;
		}
	}
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
		int n = g->building_n[p];
		int v = g->building_value[p];

		assert_true(v <= 11);
		assert_true(n <= v);
		assert_true((n == 0) == (v == 0));
		if (n > 0) {
			uint8_t top = g->building[p][n - 1];

			assert_true(top == CARD_SKIPBO || top == v);
		}
		for (int i = 0; i < n; i++)
			count[g->building[p][i]]++;
	}
	for (int i = 0; i < g->draw_n; i++)
		count[g->draw[i]]++;
	for (int i = 0; i < g->completed_n; i++)
		count[g->completed[i]]++;
	assert_int_equal(count[CARD_SKIPBO], 18);
	for (int v = 1; v <= 12; v++)
		assert_int_equal(count[v], 12);
	for (int v = 0; v < GAME_CARD_VALUES; v++)
		total += count[v];
	assert_int_equal(total, ENGINE_DECK_SIZE);
}

/* A move with random but plausible fields: sometimes legal, mostly not. */
static struct move random_move(struct rng *r, int players)
{
	struct move m;

	m.kind = (uint8_t)(1 + rng_below(r, 3));
	m.source = (uint8_t)(1 + rng_below(r, 3));
	m.owner = (uint8_t)rng_below(r, (uint64_t)players);
	m.pile = (uint8_t)rng_below(r, 4);
	m.card = (uint8_t)rng_below(r, GAME_CARD_VALUES);
	m.target = (uint8_t)rng_below(r, 4);
	return m;
}

static void check_random_move(struct game *g, struct rng *r, const struct move *legal, int n)
{
	struct move m = random_move(r, g->players);
	int listed = 0;
	int rc = game_check_move(g, &m);

	for (int i = 0; i < n; i++)
		listed |= move_equal(&legal[i], &m);
	assert_int_equal(rc == 0, listed);
	if (!listed) {
		static struct game before;
		size_t events = g->events_n;

		before = *g;
		assert_true(game_apply(g, &m) < 0);
		assert_int_equal(g->events_n, events);
		/* memcmp: cmocka's memory comparison is far too slow for every move. */
		assert_true(memcmp(&before, g, sizeof(before)) == 0);
	}
}

/* Uniform, play-first (90%), or discard-heavy (plays only 30% of the time). */
static int choose(struct rng *r, int policy, const struct move *moves, int n)
{
	int plays = 0;

	while (plays < n && moves[plays].kind == MOVE_PLAY)
		plays++;
	if (policy == 0 || plays == 0 || plays == n)
		return (int)rng_below(r, (uint64_t)n);
	if (rng_below(r, 10) < (policy == 1 ? 9u : 3u))
		return (int)rng_below(r, (uint64_t)plays);
	return plays + (int)rng_below(r, (uint64_t)(n - plays));
}

static void check_result(const struct game *g)
{
	struct game_result res;

	game_result(g, &res);
	assert_int_equal(game_to_move(g), -1);
	assert_true(res.turns <= ENGINE_TURN_CAP);
	if (res.status == GAME_WON) {
		int w = res.winner;

		assert_true(w >= 0);
		assert_int_equal(res.placing[w], 1);
		assert_true(res.score[w] >= 25);
		if (res.reason == END_STOCK_EMPTIED)
			assert_int_equal(g->stock_n[w] + g->stock_n[g->partner[w]], 0);
		else
			assert_int_equal(res.reason, END_FORFEIT);
	} else {
		assert_int_equal(res.status, GAME_STALEMATE);
		assert_true(res.reason == END_STALEMATE || res.reason == END_TURN_CAP);
		for (int s = 0; s < g->players; s++)
			assert_int_equal(res.score[s], 0);
	}
}

struct tally {
	long moves, won, stalemate, turn_cap, forfeit;
};

static void playout(const struct config *c, uint64_t seed, struct rng *r, struct tally *t,
		    int game_index)
{
	struct game_rules rules = { .players = c->players, .stock_size = c->stock,
				    .partnership = c->partnership,
				    .dealer = (int)(seed % (uint64_t)c->players), .seed = seed,
				    .no_event_log = game_index % 2 };
	struct move moves[ENGINE_MAX_MOVES];
	struct game *g = game_new(&rules, NULL);
	int policy = game_index % 3;
	uint32_t remove_at = game_index % 16 == 0 ? (uint32_t)rng_below(r, 200) : UINT32_MAX;
	int full_check = game_index % 8 == 0;

	assert_non_null(g);
	check_position(g);
	while (game_to_move(g) >= 0) {
		int n = game_legal_moves(g, moves);

		assert_in_range(n, 1, ENGINE_MAX_MOVES);
		if (full_check)
			for (int i = 0; i < n; i++)
				assert_int_equal(game_check_move(g, &moves[i]), 0);
		check_random_move(g, r, moves, n);
		if (g->moves == remove_at) {
			int seat = (int)rng_below(r, (uint64_t)g->players);
			int was_removed = g->removed[seat];

			assert_int_equal(game_remove_seat(g, seat), was_removed ? ENGINE_ESEAT : 0);
			assert_int_equal(g->removed[seat], 1);
			remove_at = g->moves + 1 + (uint32_t)rng_below(r, 100);
		} else {
			assert_int_equal(game_apply(g, &moves[choose(r, policy, moves, n)]), 0);
		}
		check_position(g);
		assert_true(g->turn <= ENGINE_TURN_CAP);
	}
	check_result(g);
	t->moves += g->moves;
	t->won += g->reason == END_STOCK_EMPTIED;
	t->stalemate += g->reason == END_STALEMATE;
	t->turn_cap += g->reason == END_TURN_CAP;
	t->forfeit += g->reason == END_FORFEIT;
	game_free(g);
}

/* The log records a game and never steers it: replaying the same moves with
 * the log on and off gives the same state. */
static void check_log_is_passive(uint64_t seed, const struct config *c)
{
	struct game_rules rules = { .players = c->players, .stock_size = c->stock,
				    .partnership = c->partnership, .seed = seed };
	struct move moves[ENGINE_MAX_MOVES];
	struct game *on, *off;

	on = game_new(&rules, NULL);
	rules.no_event_log = 1;
	off = game_new(&rules, NULL);
	assert_non_null(on);
	assert_non_null(off);
	while (game_to_move(on) >= 0) {
		int n = game_legal_moves(on, moves);

		assert_int_equal(game_legal_moves(off, moves), n);
		assert_int_equal(game_apply(on, &moves[on->moves % (uint32_t)n]), 0);
		assert_int_equal(game_apply(off, &moves[off->moves % (uint32_t)n]), 0);
	}
	assert_int_equal(game_to_move(off), -1);
	assert_memory_equal(on->draw, off->draw, sizeof(on->draw));
	assert_memory_equal(on->discard, off->discard, sizeof(on->discard));
	assert_int_equal(on->turn, off->turn);
	game_free(on);
	game_free(off);
}

static void test_invariants_random_playouts(void **state)
{
	struct config all[256], shorts[64];
	int nall = configs_fill(all, GAME_MAX_STOCK);
	int nshort = configs_fill(shorts, 5);
	int per_stock[GAME_MAX_STOCK + 1] = { 0 };
	struct rng r;
	struct tally t = { 0 };

	(void)state;
	assert_int_equal(nall, 191);
	assert_int_equal(nshort, 35);
	rng_seed(&r, 0x5eed);
	for (int i = 0; i < PLAYOUTS; i++) {
		int k = i / 4;
		const struct config *c = i % 4 == 0 ? &all[k % nall] : &shorts[k % nshort];

		playout(c, rng_next(&r), &r, &t, i % 4 == 0 ? k / nall : k / nshort);
		per_stock[c->stock]++;
		if (i % 1000 == 0)
			check_log_is_passive((uint64_t)i, c);
	}
	print_message("%d playouts, %ld moves: %ld won, %ld stalemates, %ld turn caps, %ld forfeits\n",
		      PLAYOUTS, t.moves, t.won, t.stalemate, t.turn_cap, t.forfeit);
	for (int stock = 1; stock <= GAME_MAX_STOCK; stock++)
		assert_true(per_stock[stock] >= 500);
	/* Wins, stalemates and forfeits all happened (turn caps need 10,000
	 * turns; test_game covers them). */
	assert_true(t.won > 1000);
	assert_true(t.stalemate > 1000);
	assert_true(t.forfeit > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariants_random_playouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
