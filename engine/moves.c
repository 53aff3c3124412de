/*
 * moves.c - the moves of the player to move (R4, R5, R10): listing, checking
 * and applying them. Kept branch-light and allocation-free: search and the
 * benchmark call these millions of times per second.
 */
#include <string.h>

#include "game_internal.h"

int move_equal(const struct move *a, const struct move *b)
{
	/* Only the fields that mean something for the kind take part. */
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case MOVE_PASS:
		return 1;
	case MOVE_DISCARD:
		return a->card == b->card && a->target == b->target;
	case MOVE_PLAY:
		if (a->source != b->source || a->card != b->card || a->target != b->target)
			return 0;
		if (a->source == SOURCE_HAND)
			return 1;
		if (a->owner != b->owner)
			return 0;
		return a->source != SOURCE_DISCARD || a->pile == b->pile;
	default:
		return 0;
	}
}

/*
 * For each card value v, the building piles that accept it now (R4: the rule
 * of building_pile_accepts() for all piles at once), as bit p of nibble v:
 * (accepts >> 4 * v) & 15. Nibble GAME_NO_CARD stays 0, so an empty pile's
 * top yields no play without a branch.
 */
static inline uint64_t accept_nibbles(const struct game *g)
{
	uint64_t accepts = (1u << ENGINE_BUILDING_PILES) - 1; /* SKIP-BO: every pile */

	for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
		accepts |= (uint64_t)(1u << p) << (4 * (g->building_value[p] + 1));
	return accepts;
}

static inline unsigned piles_for(uint64_t accepts, int card)
{
	return (unsigned)(accepts >> (4 * card)) & 15u;
}

static inline struct move make_move(int kind, int source, int owner, int pile, int card, int target)
{
	return (struct move){ .kind = (uint8_t)kind, .source = (uint8_t)source, .owner = (uint8_t)owner,
			      .pile = (uint8_t)pile, .card = (uint8_t)card, .target = (uint8_t)target };
}

/* One play of card from the given source onto each building pile in piles. */
static inline int emit_plays(struct move *out, int n, unsigned piles, int source, int owner,
			     int pile, int card)
{
	struct move m = make_move(MOVE_PLAY, source, owner, pile, card, 0);

	while (piles) {
		m.target = (uint8_t)__builtin_ctz(piles);
		out[n++] = m;
		piles &= piles - 1;
	}
	return n;
}

/* Plays from seat s's stock top and discard tops. */
static inline int emit_pile_plays(const struct game *g, struct move *out, int n,
				  uint64_t accepts, int s)
{
	const uint8_t *top = g->tops[s];

	n = emit_plays(out, n, piles_for(accepts, top[0]), SOURCE_STOCK, s, 0, top[0]);
	for (int d = 0; d < ENGINE_DISCARD_PILES; d++)
		n = emit_plays(out, n, piles_for(accepts, top[1 + d]), SOURCE_DISCARD, s, d, top[1 + d]);
	return n;
}

/*
 * Order: plays from the own stock, own discard piles 0..3, the partner's
 * stock and discard piles, plays from the hand (SKIP-BO first, then 1..12),
 * then discards (same card order, piles 0..3), or the pass.
 */
int game_legal_moves(const struct game *g, struct move *out)
{
	struct move block[ENGINE_DISCARD_PILES];
	uint64_t accepts;
	unsigned playable = 1;
	int s = g->to_move;
	int n = 0;

	if (s < 0)
		return 0;
	accepts = accept_nibbles(g);
	n = emit_pile_plays(g, out, n, accepts, s);
	if (g->partner[s] != s)
		n = emit_pile_plays(g, out, n, accepts, g->partner[s]);
	if (g->hand_n[s] == 0) {
		out[n++] = make_move(MOVE_PASS, 0, s, 0, 0, 0);
		return n;
	}
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
		playable |= 1u << (g->building_value[p] + 1);
	for (unsigned m = g->hand_mask[s] & playable; m; m &= m - 1) {
		int v = __builtin_ctz(m);

		n = emit_plays(out, n, piles_for(accepts, v), SOURCE_HAND, s, 0, v);
	}
	/* Discards come in blocks of four that differ only in the card: copying
	 * a block is much cheaper than filling 24 fields one by one. */
	for (int d = 0; d < ENGINE_DISCARD_PILES; d++)
		block[d] = make_move(MOVE_DISCARD, SOURCE_HAND, s, 0, 0, d);
	for (unsigned m = g->hand_mask[s]; m; m &= m - 1) {
		uint8_t v = (uint8_t)__builtin_ctz(m);

		for (int d = 0; d < ENGINE_DISCARD_PILES; d++)
			block[d].card = v;
		memcpy(out + n, block, sizeof(block));
		n += ENGINE_DISCARD_PILES;
	}
	return n;
}

/* The card a play would move, or a negative code. */
static int play_card(const struct game *g, const struct move *m)
{
	int s = g->to_move;
	int o = m->owner;

	switch (m->source) {
	case SOURCE_HAND:
		if (m->card >= GAME_CARD_VALUES || !g->hand[s][m->card])
			return ENGINE_ENOCARD;
		return m->card;
	case SOURCE_STOCK:
		if (o != s && o != g->partner[s])
			return ENGINE_ENOTOWNER;
		return g->tops[o][0] == GAME_NO_CARD ? ENGINE_ENOCARD : g->tops[o][0];
	case SOURCE_DISCARD:
		if (o != s && o != g->partner[s])
			return ENGINE_ENOTOWNER;
		if (m->pile >= ENGINE_DISCARD_PILES)
			return ENGINE_ETARGET;
		return g->tops[o][1 + m->pile] == GAME_NO_CARD ? ENGINE_ENOCARD : g->tops[o][1 + m->pile];
	default:
		return ENGINE_EKIND;
	}
}

int game_check_move(const struct game *g, const struct move *m)
{
	int s = g->to_move;
	int card;

	if (s < 0)
		return ENGINE_EOVER;
	switch (m->kind) {
	case MOVE_PLAY:
		card = play_card(g, m);
		if (card < 0)
			return card;
		/* The named card must be the one on top (a stale view is refused). */
		if (m->card != card)
			return ENGINE_ENOCARD;
		if (m->target >= ENGINE_BUILDING_PILES)
			return ENGINE_ETARGET;
		if (!building_pile_accepts(g->building_value[m->target], card))
			return ENGINE_EBUILD;
		return ENGINE_OK;
	case MOVE_DISCARD:
		if (m->card >= GAME_CARD_VALUES || !g->hand[s][m->card])
			return ENGINE_ENOCARD;
		return m->target < ENGINE_DISCARD_PILES ? ENGINE_OK : ENGINE_ETARGET;
	case MOVE_PASS:
		return g->hand_n[s] == 0 ? ENGINE_OK : ENGINE_EPASS;
	default:
		return ENGINE_EKIND;
	}
}

/* R4: puts card on building pile p; a pile reaching 12 goes to the completed heap. */
static void build(struct game *g, const struct move *m)
{
	int p = m->target;
	int value = g->building_value[p] + 1;

	g->building[p][g->building_n[p]++] = m->card;
	g->building_value[p] = (uint8_t)value;
	g->turn_played = 1;
	game_log(g, EVENT_PLAY, g->to_move, m->source, m->source == SOURCE_HAND ? g->to_move : m->owner,
		 m->source == SOURCE_DISCARD ? m->pile : 0, m->card, p, value, 0);
	if (value == 12) {
		for (int i = 0; i < g->building_n[p]; i++)
			g->completed[g->completed_n++] = g->building[p][i];
		g->building_n[p] = 0;
		g->building_value[p] = 0;
		game_log(g, EVENT_COMPLETE, g->to_move, 0, 0, 0, CARD_NONE, p, 12, 0);
	}
}

static void apply_play(struct game *g, const struct move *m)
{
	int s = g->to_move;
	int o = m->owner;
	int k;

	switch (m->source) {
	case SOURCE_HAND:
		game_hand_remove(g, s, m->card);
		build(g, m);
		/* R5.2: an emptied hand draws 5 more (R6) and the turn goes on. */
		if (g->hand_n[s] == 0)
			while (g->hand_n[s] < ENGINE_HAND_SIZE && game_draw_one(g, s))
				;
		return;
	case SOURCE_STOCK:
		k = --g->stock_n[o];
		g->tops[o][0] = k ? g->stock[o][k - 1] : GAME_NO_CARD;
		build(g, m);
		game_log(g, EVENT_STOCK_TOP, s, SOURCE_STOCK, o, 0, k ? g->tops[o][0] : CARD_NONE, 0, 0, 0);
		/* R7, R10: the side wins once its stocks are all empty. */
		if (g->stock_n[o] == 0 && g->stock_n[g->partner[o]] == 0)
			game_finish(g, END_STOCK_EMPTIED, s);
		return;
	default:
		k = --g->discard_n[o][m->pile];
		g->tops[o][1 + m->pile] = k ? g->discard[o][m->pile][k - 1] : GAME_NO_CARD;
		build(g, m);
		return;
	}
}

int game_apply(struct game *g, const struct move *m)
{
	int s = g->to_move;
	int rc = game_check_move(g, m);

	if (rc < 0)
		return rc;
	g->moves++;
	switch (m->kind) {
	case MOVE_PLAY:
		apply_play(g, m);
		break;
	case MOVE_DISCARD:
		/* R5.3: the discard ends the turn; nothing is drawn after it. */
		game_hand_remove(g, s, m->card);
		g->discard[s][m->target][g->discard_n[s][m->target]++] = m->card;
		g->tops[s][1 + m->target] = m->card;
		game_log(g, EVENT_DISCARD, s, SOURCE_HAND, s, 0, m->card, m->target, 0, 0);
		game_end_turn(g);
		break;
	default:
		game_log(g, EVENT_PASS, s, 0, 0, 0, CARD_NONE, 0, 0, 0);
		game_end_turn(g);
		break;
	}
	return ENGINE_OK;
}
