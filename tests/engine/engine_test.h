/*
 * engine_test.h - helpers for the engine tests: build a specific position
 * inside a dealt game (through game_internal.h) and name moves briefly.
 * Positions built this way need not hold all 162 cards; the invariant test
 * checks card conservation on real games.
 */
#ifndef SKIPBO_ENGINE_TEST_H
#define SKIPBO_ENGINE_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game_internal.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static inline struct game *pos_game(int players, int partnership, int stock)
{
	struct game_rules rules = { .players = players, .partnership = partnership,
				    .stock_size = stock, .dealer = players - 1, .seed = 1 };
	int err = 1;
	struct game *g = game_new(&rules, &err);

	assert_non_null(g);
	assert_int_equal(err, 0);
	return g;
}

/* Empties every pile and the log; seat 0 is to move in turn 1 with nothing drawn. */
static inline void pos_clear(struct game *g)
{
	memset(g->hand, 0, sizeof(g->hand));
	memset(g->hand_n, 0, sizeof(g->hand_n));
	memset(g->hand_mask, 0, sizeof(g->hand_mask));
	memset(g->stock_n, 0, sizeof(g->stock_n));
	memset(g->discard_n, 0, sizeof(g->discard_n));
	memset(g->building_n, 0, sizeof(g->building_n));
	memset(g->building_value, 0, sizeof(g->building_value));
	g->draw_n = 0;
	g->completed_n = 0;
	g->to_move = 0;
	g->turn = 1;
	g->turn_played = 0;
	g->turn_drew = 0;
	g->idle_turns = 0;
	g->events_n = 0;
	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++)
		game_refresh_tops(g, s);
}

static inline void pos_hand(struct game *g, int seat, const uint8_t *cards, int n)
{
	memset(g->hand[seat], 0, sizeof(g->hand[seat]));
	g->hand_n[seat] = (uint8_t)n;
	g->hand_mask[seat] = 0;
	for (int i = 0; i < n; i++) {
		g->hand[seat][cards[i]]++;
		g->hand_mask[seat] |= (uint16_t)(1u << cards[i]);
	}
}

/* cards bottom first: the last one is the top. */
static inline void pos_stock(struct game *g, int seat, const uint8_t *cards, int n)
{
	memcpy(g->stock[seat], cards, (size_t)n);
	g->stock_n[seat] = (uint8_t)n;
	game_refresh_tops(g, seat);
}

static inline void pos_discard(struct game *g, int seat, int pile, const uint8_t *cards, int n)
{
	memcpy(g->discard[seat][pile], cards, (size_t)n);
	g->discard_n[seat][pile] = (uint8_t)n;
	game_refresh_tops(g, seat);
}

/* A building pile of value v built from the numbers 1..v. */
static inline void pos_building(struct game *g, int pile, int value)
{
	for (int i = 0; i < value; i++)
		g->building[pile][i] = (uint8_t)(i + 1);
	g->building_n[pile] = (uint8_t)value;
	g->building_value[pile] = (uint8_t)value;
}

/* cards[0] is the top of the draw pile. */
static inline void pos_draw(struct game *g, const uint8_t *cards, int n)
{
	for (int i = 0; i < n; i++)
		g->draw[i] = cards[n - 1 - i];
	g->draw_n = n;
}

static inline struct move mv_hand(int card, int target)
{
	return (struct move){ .kind = MOVE_PLAY, .source = SOURCE_HAND, .card = (uint8_t)card,
			      .target = (uint8_t)target };
}

static inline struct move mv_stock(int owner, int card, int target)
{
	return (struct move){ .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = (uint8_t)owner,
			      .card = (uint8_t)card, .target = (uint8_t)target };
}

static inline struct move mv_dpile(int owner, int pile, int card, int target)
{
	return (struct move){ .kind = MOVE_PLAY, .source = SOURCE_DISCARD, .owner = (uint8_t)owner,
			      .pile = (uint8_t)pile, .card = (uint8_t)card, .target = (uint8_t)target };
}

static inline struct move mv_discard(int card, int pile)
{
	return (struct move){ .kind = MOVE_DISCARD, .source = SOURCE_HAND, .card = (uint8_t)card,
			      .target = (uint8_t)pile };
}

static inline struct move mv_pass(void)
{
	return (struct move){ .kind = MOVE_PASS };
}

static inline int apply(struct game *g, struct move m)
{
	return game_apply(g, &m);
}

/* Is m among the legal moves? */
static inline int is_legal(const struct game *g, struct move m)
{
	struct move moves[ENGINE_MAX_MOVES];
	int n = game_legal_moves(g, moves);

	for (int i = 0; i < n; i++)
		if (move_equal(&moves[i], &m))
			return 1;
	return 0;
}

static inline int count_events(const struct game *g, int kind)
{
	size_t n;
	const struct event *ev = game_events(g, &n);
	int k = 0;

	for (size_t i = 0; i < n; i++)
		k += ev[i].kind == kind;
	return k;
}

/* The last event of a kind, or NULL. */
static inline const struct event *last_event(const struct game *g, int kind)
{
	size_t n;
	const struct event *ev = game_events(g, &n);

	while (n-- > 0)
		if (ev[n].kind == kind)
			return &ev[n];
	return NULL;
}

#endif
