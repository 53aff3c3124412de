/*
 * medium.c - the medium reference bot's policy (see medium.h).
 */
#include "medium.h"
#include "rivals.h"
#include "table.h"

/* Wilds a chain may spend on one stock card unless the stock is nearly out. */
#define CHAIN_MAX_WILDS 2
#define CHAIN_MAX_LEN 12

/* Play side s's stock top if it fits a pile; a wild goes where it feeds nobody. */
static int stock_play(const struct table *t, const struct rivals *rv, int s, struct move *out)
{
	const struct table_side *sd = &t->side[s];
	if (sd->stock_size <= 0 || sd->stock_top > 12)
		return 0;
	int best = -1;
	double best_threat = 0;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		if (!building_pile_accepts(t->building[b], sd->stock_top))
			continue;
		int after[ENGINE_BUILDING_PILES];
		for (int i = 0; i < ENGINE_BUILDING_PILES; i++)
			after[i] = t->building[i];
		after[b] = after[b] + 1 == 12 ? 0 : after[b] + 1;
		double threat = rivals_threat(rv, after);
		if (best < 0 || threat < best_threat) {
			best = b;
			best_threat = threat;
		}
	}
	if (best < 0)
		return 0;
	*out = (struct move){ .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = (uint8_t)sd->seat,
		.card = sd->stock_top, .target = (uint8_t)best };
	return 1;
}

/*
 * The play that puts a card worth `value` on pile b, by preference: a
 * matching discard top (the one with value + 1 beneath first, so the run goes
 * on), a matching hand card, a wild discard top, a wild from the hand.
 */
static int source_for(const struct table *t, int b, int value, struct move *out)
{
	int best_s = -1, best_p = -1, best_run = -1;
	for (int wild = 0; wild <= 1; wild++) {
		uint8_t want = wild ? CARD_SKIPBO : (uint8_t)value;
		for (int s = 0; s < t->sides; s++) {
			const struct table_side *sd = &t->side[s];
			for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
				if (table_discard_top(t, s, p) != want)
					continue;
				int n = sd->discard_size[p];
				int run = n >= 2 && sd->discard[p][n - 2] == value + 1;
				if (run > best_run) {
					best_s = s, best_p = p, best_run = run;
				}
			}
		}
		if (best_s >= 0) {
			*out = (struct move){ .kind = MOVE_PLAY, .source = SOURCE_DISCARD,
				.owner = (uint8_t)t->side[best_s].seat, .pile = (uint8_t)best_p,
				.card = want, .target = (uint8_t)b };
			return 1;
		}
		if (!t->refilled && t->hand[want]) {
			*out = (struct move){ .kind = MOVE_PLAY, .source = SOURCE_HAND,
				.owner = (uint8_t)t->side[0].seat, .card = want, .target = (uint8_t)b };
			return 1;
		}
	}
	return 0;
}

/*
 * The shortest chain onto any pile that makes side s's stock top playable:
 * writes its first play to out and returns its length, or 0 when there is
 * none. Fewer wilds break ties.
 */
static int stock_chain(const struct table *t, int s, struct move *out)
{
	const struct table_side *sd = &t->side[s];
	int need = table_needed_value(sd->stock_top);
	if (sd->stock_size <= 0 || need < 0)
		return 0;
	int max_wilds = sd->stock_size <= 3 ? CHAIN_MAX_LEN : CHAIN_MAX_WILDS;
	int best_len = 0, best_wilds = 0;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		int len = table_pile_distance(t->building[b], need);
		if (len == 0 || len > CHAIN_MAX_LEN)
			continue;
		struct table sim = *t;
		struct move first = { 0 }, m;
		int ok = 1;
		for (int i = 0; i < len && ok; i++) {
			ok = source_for(&sim, b, sim.building[b] + 1, &m) && table_apply(&sim, &m) == 0;
			if (i == 0)
				first = m;
		}
		if (!ok || sim.wilds_played > max_wilds)
			continue;
		if (!best_len || len < best_len || (len == best_len && sim.wilds_played < best_wilds)) {
			best_len = len;
			best_wilds = sim.wilds_played;
			*out = first;
		}
	}
	return best_len;
}

static int pile_after(int value)
{
	return value + 1 == 12 ? 0 : value + 1;
}

/*
 * A play that helps nobody else: a non-wild discard top (it unclogs the pile)
 * or hand card (an empty hand draws 5 more, R5.2) whose pile then threatens no
 * more than before.
 */
static int harmless_play(const struct table *t, const struct rivals *rv, struct move *out)
{
	double before = rivals_threat(rv, t->building);
	struct move plays[TABLE_MAX_PLAYS];
	int n = table_plays(t, plays);
	int best = -1, best_rank = 0;
	for (int i = 0; i < n; i++) {
		const struct move *m = &plays[i];
		if (m->card == CARD_SKIPBO || m->source == SOURCE_STOCK)
			continue;
		int after[ENGINE_BUILDING_PILES];
		for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
			after[b] = t->building[b];
		after[m->target] = pile_after(after[m->target]);
		if (rivals_feeds_next(rv, after[m->target]) || rivals_threat(rv, after) > before + 0.05)
			continue;
		/* Discard tops first, own before partner's; then the lowest hand card. */
		int rank = m->source == SOURCE_DISCARD ? (m->owner == t->side[0].seat ? 100 : 90) : 50 - m->card;
		if (best < 0 || rank > best_rank) {
			best = i;
			best_rank = rank;
		}
	}
	if (best < 0)
		return 0;
	*out = plays[best];
	return 1;
}

/* How much the player wants to keep card c: wilds, cards on the way to its stock top. */
static int keep_value(const struct table *t, uint8_t c)
{
	if (c == CARD_SKIPBO)
		return 100;
	int keep = 0;
	int need = table_needed_value(t->side[0].stock_top);
	for (int b = 0; b < ENGINE_BUILDING_PILES && need >= 0; b++) {
		int to_c = table_pile_distance(t->building[b], c - 1);
		if (to_c < table_pile_distance(t->building[b], need) && to_c <= 4)
			keep = 6;
	}
	if (keep && t->hand[c] > 1)
		keep = 1;
	/* Cards close to some pile are more useful than far ones. */
	int near = 12;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		int d = table_pile_distance(t->building[b], c - 1);
		if (d < near)
			near = d;
	}
	return keep + (6 - (near < 6 ? near : 6)) / 2;
}

static int choose_discard(const struct table *t, struct move *out)
{
	int best_score = 0, found = 0;
	for (int c = 0; c < TABLE_CARD_VALUES; c++) {
		if (!t->hand[c])
			continue;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			int score = table_discard_fit((uint8_t)c, table_discard_top(t, 0, p)) - keep_value(t, (uint8_t)c);
			if (!found || score > best_score) {
				found = 1;
				best_score = score;
				*out = (struct move){ .kind = MOVE_DISCARD, .card = (uint8_t)c, .target = (uint8_t)p };
			}
		}
	}
	return found;
}

int medium_reaches_stock(const struct table *t, int s)
{
	const struct table_side *sd = &t->side[s];
	if (sd->stock_size <= 0 || sd->stock_top >= TABLE_CARD_VALUES)
		return 0;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
		if (building_pile_accepts(t->building[b], sd->stock_top))
			return 1;
	struct move first;
	return stock_chain(t, s, &first) > 0;
}

/* The policy on the turn simulator: 0 and the move in out, or -1 if none. */
static int medium_move(const struct table *t, const struct rivals *rv, struct move *out)
{
	int found = 0;
	for (int s = 0; s < t->sides && !found; s++)
		found = stock_play(t, rv, s, out);
	for (int s = 0; s < t->sides && !found; s++)
		found = stock_chain(t, s, out) > 0;
	if (!found)
		found = harmless_play(t, rv, out);
	if (!found)
		found = choose_discard(t, out);
	if (!found && t->hand_size == 0 && !t->refilled) {
		*out = (struct move){ .kind = MOVE_PASS };
		found = 1;
	}
	return found ? 0 : -1;
}

int medium_choose(const struct seat_view *v, const struct move *legal, int n)
{
	if (n <= 0)
		return -1;
	struct table t;
	struct rivals rv;
	struct move m = { .kind = MOVE_PASS };
	table_from_view(&t, v);
	rivals_from_view(&rv, v);
	int i = medium_move(&t, &rv, &m) == 0 ? table_find_legal(legal, n, &m) : -1;
	return i >= 0 ? i : table_fallback(legal, n);
}
