/*
 * hard.c - the hard reference bot's turn search (see hard.h).
 *
 * The search is a depth-first walk over plays with a transposition table:
 * plays commute a lot (two hand cards on two piles in either order), so
 * positions are keyed by what decides their future - the building pile values
 * as a multiset, the hand, the discard pile sizes and the stock cards played -
 * and each is scored once.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hard.h"
#include "rivals.h"
#include "table.h"

/* Score weights, in hundredths of a stock card. */
#define W_STOCK 100.0         /* one own stock card played */
#define W_PARTNER_STOCK 90.0  /* one partner stock card played (R10) */
#define W_EMPTIED 400.0       /* own stock emptied while the partner's is not */
#define W_WIN 1e6             /* the game is won (R7, R10) */
#define W_THREAT 150.0        /* one stock card the other seats expect to play */
#define W_PROSPECT 35.0       /* chance of reaching the own stock top next turn */
#define W_NOW 80.0            /* chance of reaching it later this turn (after a refill) */
#define W_REFILL 15.0         /* 5 fresh cards and the turn goes on (R5.2) */
#define W_WILD 35.0           /* a wild spent from the hand or a discard pile */
#define W_PLAYED 2.0          /* a card played: fewer left to clog the hand */
#define W_FIT 3.0             /* per point of discard_fit() */
#define W_KEEP 3.0            /* per point of closeness to a pile of a discarded card */
#define W_DISCARD_WILD 12.0   /* a wild parked on a discard pile can be buried */

/* Chance that an unknown card (one of the next draws) supplies a needed step. */
#define P_UNKNOWN_STEP 0.5
/* Chance of reaching a stock top that is not turned up yet. */
#define P_UNKNOWN_TOP 0.35

#define TT_BITS 15
#define TT_SIZE (1u << TT_BITS)
#define CLOCK_EVERY 64 /* positions between two looks at the safety net's clock */

struct tt_entry {
	uint64_t key;
	uint32_t generation;
	double value; /* exact: a rounded value would break ties at random */
};

struct hard {
	struct hard_config cfg;
	uint32_t generation;
	struct tt_entry *tt;
};

struct search {
	struct hard *h;
	struct rivals rv;
	int64_t deadline_us; /* the safety net; 0: none */
	long nodes;
	int stopped;
	int net_hit;
};

static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void hard_config_default(struct hard_config *cfg)
{
	cfg->max_nodes = HARD_DEFAULT_MAX_NODES;
	cfg->net_move_share = HARD_DEFAULT_NET_MOVE_SHARE;
	cfg->net_bank_share = HARD_DEFAULT_NET_BANK_SHARE;
}

int64_t hard_net_us(const struct hard_config *cfg, int64_t move_ms, int64_t bank_ms)
{
	int64_t net = 0;
	if (move_ms > 0)
		net = (int64_t)((double)move_ms * 1000.0 * cfg->net_move_share);
	if (bank_ms > 0) {
		int64_t b = (int64_t)((double)bank_ms * 1000.0 * cfg->net_bank_share);
		if (net == 0 || b < net)
			net = b;
	}
	/* A share that rounds to nothing still leaves a net, not none. */
	return (move_ms > 0 || bank_ms > 0) && net < 1 ? 1 : net;
}

struct hard *hard_new(const struct hard_config *cfg)
{
	struct hard *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->cfg = *cfg;
	h->tt = calloc(TT_SIZE, sizeof(*h->tt));
	if (!h->tt) {
		free(h);
		return NULL;
	}
	return h;
}

void hard_free(struct hard *h)
{
	if (!h)
		return;
	free(h->tt);
	free(h);
}

/* ---- scoring ------------------------------------------------------------- */

/* As in the medium bot: how well card c sits on a discard pile topped by `top`. */
static int discard_fit(uint8_t c, uint8_t top)
{
	if (top == CARD_NONE)
		return c >= 9 ? 5 : 2;
	if (top == CARD_SKIPBO)
		return -10;
	if (c == CARD_SKIPBO)
		return 0;
	if (c == top - 1)
		return 6;
	if (c == top)
		return 5;
	if (c < top)
		return 1;
	return -2 - (c - top);
}

/* 0..6: how soon card c may be wanted on some building pile (6 = next). */
static int closeness(const struct table *t, uint8_t c)
{
	int near = 6;
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		int d = table_pile_distance(t->building[b], c - 1);
		if (d < near)
			near = d;
	}
	return 6 - near;
}

/*
 * The chance of playing the own stock top on some pile, given visible
 * discard tops (tops[0..ntops)), the known hand cards `hand` (may be NULL) and
 * unknown cards for the rest of each chain.
 */
static double own_reach(const struct table *t, const int building[ENGINE_BUILDING_PILES],
			const uint8_t *tops, int ntops, const int *hand)
{
	uint8_t top = t->side[0].stock_top;
	if (t->side[0].stock_size <= 0 || top == CARD_NONE)
		return 0.0;
	if (top == TABLE_UNKNOWN)
		return P_UNKNOWN_TOP;
	if (top == CARD_SKIPBO)
		return 1.0;
	int need = table_needed_value(top);
	double best = 0.0;
	for (int b = 0; b < ENGINE_BUILDING_PILES && best < 1.0; b++) {
		int steps = table_pile_distance(building[b], need);
		int v = building[b], used = 0, cards[TABLE_CARD_VALUES] = { 0 };
		double p = 1.0;
		if (hand)
			memcpy(cards, hand, sizeof(cards));
		for (int i = 0; i < steps && p > best; i++) {
			v = v == 12 ? 1 : v + 1;
			int found = 0;
			for (int k = 0; k < ntops && !found; k++)
				if (!(used & (1 << k)) && tops[k] == v)
					used |= 1 << k, found = 1;
			if (!found && cards[v] > 0)
				cards[v]--, found = 1;
			if (!found && cards[CARD_SKIPBO] > 0)
				cards[CARD_SKIPBO]--, found = 1;
			if (!found)
				p *= P_UNKNOWN_STEP;
		}
		if (p > best)
			best = p;
	}
	return best;
}

/* The discard tops the player may use, with own pile `pile` topped by `card` (pile -1: none). */
static int usable_tops(const struct table *t, int pile, uint8_t card, uint8_t *tops)
{
	int n = 0;
	for (int s = 0; s < t->sides; s++)
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			uint8_t c = s == 0 && p == pile ? card : table_discard_top(t, s, p);
			if (c != CARD_NONE)
				tops[n++] = c;
		}
	return n;
}

/* What the position is worth whatever ends the turn. */
static double score_base(const struct search *s, const struct table *t)
{
	const struct table_side *me = &t->side[0];
	int partner_done = t->sides < 2 || t->side[1].stock_size == 0;
	if (me->stock_size == 0 && partner_done)
		return W_WIN;
	double score = W_STOCK * me->stock_played;
	if (t->sides == 2)
		score += W_PARTNER_STOCK * t->side[1].stock_played;
	if (me->stock_size == 0)
		score += W_EMPTIED;
	int stock_cards = me->stock_played + (t->sides == 2 ? t->side[1].stock_played : 0);
	score += W_PLAYED * (t->cards_played - stock_cards);
	score -= W_WILD * t->wilds_played;
	score -= W_THREAT * rivals_threat(&s->rv, t->building);
	return score;
}

/* The turn ends with card c discarded onto own pile p. */
static double score_discard(const struct table *t, double base, uint8_t c, int p)
{
	uint8_t tops[2 * ENGINE_DISCARD_PILES];
	int hand[TABLE_CARD_VALUES];
	memcpy(hand, t->hand, sizeof(hand));
	hand[c]--;
	int n = usable_tops(t, p, c, tops);
	double score = base + W_PROSPECT * own_reach(t, t->building, tops, n, hand);
	score += W_FIT * discard_fit(c, table_discard_top(t, 0, p));
	if (c == CARD_SKIPBO)
		score -= W_DISCARD_WILD;
	else
		score -= W_KEEP * closeness(t, c); /* a card about to be wanted is worth keeping */
	return score;
}

/* The hand was emptied and 5 unknown cards drawn: the turn goes on. */
static double score_refilled(const struct table *t, double base)
{
	uint8_t tops[2 * ENGINE_DISCARD_PILES];
	int n = usable_tops(t, -1, CARD_NONE, tops);
	return base + W_REFILL + W_NOW * own_reach(t, t->building, tops, n, NULL);
}

/* The hand is empty and nothing can be drawn: the turn ends with a pass (R5.4). */
static double score_pass(const struct table *t, double base)
{
	uint8_t tops[2 * ENGINE_DISCARD_PILES];
	int n = usable_tops(t, -1, CARD_NONE, tops);
	return base + W_PROSPECT * own_reach(t, t->building, tops, n, NULL);
}

/* ---- search -------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* Positions that differ only in which pile holds which value are the same. */
static uint64_t position_key(const struct table *t)
{
	int b[ENGINE_BUILDING_PILES];
	memcpy(b, t->building, sizeof(b));
	for (int i = 1; i < ENGINE_BUILDING_PILES; i++)
		for (int j = i; j > 0 && b[j - 1] > b[j]; j--) {
			int x = b[j];
			b[j] = b[j - 1];
			b[j - 1] = x;
		}
	uint64_t h = 0;
	for (int i = 0; i < ENGINE_BUILDING_PILES; i++)
		h = mix(h, (uint64_t)b[i]);
	for (int c = 0; c < TABLE_CARD_VALUES; c++)
		h = mix(h, (uint64_t)t->hand[c]);
	for (int s = 0; s < t->sides; s++) {
		h = mix(h, (uint64_t)t->side[s].stock_played);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++)
			h = mix(h, (uint64_t)t->side[s].discard_size[p]);
	}
	return mix(h, (uint64_t)t->refilled);
}

/* Order plays: stock tops, then discard tops, then hand numbers, hand wilds last. */
static int play_rank(const struct move *m)
{
	if (m->source == SOURCE_STOCK)
		return 0;
	if (m->source == SOURCE_DISCARD)
		return m->card == CARD_SKIPBO ? 2 : 1;
	return m->card == CARD_SKIPBO ? 4 : 3;
}

static int ordered_plays(const struct table *t, struct move *out)
{
	struct move all[TABLE_MAX_PLAYS];
	int n = table_plays(t, all), k = 0;
	for (int rank = 0; rank <= 4; rank++)
		for (int i = 0; i < n; i++)
			if (play_rank(&all[i]) == rank)
				out[k++] = all[i];
	return k;
}

static int out_of_budget(struct search *s)
{
	if (s->stopped)
		return 1;
	if (s->h->cfg.max_nodes > 0 && s->nodes >= s->h->cfg.max_nodes)
		s->stopped = 1;
	else if (s->deadline_us > 0 && s->nodes % CLOCK_EVERY == 0 && now_us() >= s->deadline_us)
		s->stopped = s->net_hit = 1;
	return s->stopped;
}

/* The best way to end the turn right here, without further plays. */
static double score_stop(const struct table *t, double base, struct move *best)
{
	if (t->refilled)
		return score_refilled(t, base);
	if (t->hand_size == 0) {
		*best = (struct move){ .kind = MOVE_PASS };
		return score_pass(t, base);
	}
	double top = 0;
	int found = 0;
	for (int c = 0; c < TABLE_CARD_VALUES; c++) {
		if (!t->hand[c])
			continue;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			double v = score_discard(t, base, (uint8_t)c, p);
			if (!found || v > top) {
				found = 1;
				top = v;
				*best = (struct move){ .kind = MOVE_DISCARD, .card = (uint8_t)c, .target = (uint8_t)p };
			}
		}
	}
	return top;
}

/* The value of position t with the player to go on; best gets the first move of the best line. */
static double search(struct search *s, const struct table *t, struct move *best)
{
	s->nodes++;
	double base = score_base(s, t);
	if (base >= W_WIN)
		return base;
	double value = score_stop(t, base, best);
	if (out_of_budget(s))
		return value;
	struct move plays[TABLE_MAX_PLAYS];
	int n = ordered_plays(t, plays);
	for (int i = 0; i < n && !s->stopped; i++) {
		struct table child = *t;
		if (table_apply(&child, &plays[i]) < 0)
			continue;
		uint64_t key = position_key(&child);
		struct tt_entry *e = &s->h->tt[key & (TT_SIZE - 1)];
		double v;
		if (e->generation == s->h->generation && e->key == key) {
			v = e->value;
		} else {
			struct move ignored;
			v = search(s, &child, &ignored);
			if (!s->stopped) {
				e->key = key;
				e->generation = s->h->generation;
				e->value = v;
			}
		}
		if (v > value) {
			value = v;
			*best = plays[i];
		}
	}
	return value;
}

int hard_choose(struct hard *h, const struct seat_view *v, const struct move *legal, int n,
		int64_t move_ms, int64_t bank_ms, struct hard_stats *stats)
{
	if (n <= 0)
		return -1;
	int64_t start = now_us();
	int64_t net = hard_net_us(&h->cfg, move_ms, bank_ms);
	struct search s = { .h = h, .deadline_us = net > 0 ? start + net : 0 };
	struct table t;
	struct move best = legal[table_fallback(legal, n)];

	rivals_from_view(&s.rv, v);
	table_from_view(&t, v);
	/* A new generation empties the table without touching its memory. */
	if (++h->generation == 0) {
		memset(h->tt, 0, TT_SIZE * sizeof(*h->tt));
		h->generation = 1;
	}
	search(&s, &t, &best);
	int i = table_find_legal(legal, n, &best);
	if (i < 0)
		i = table_fallback(legal, n);
	if (stats) {
		stats->nodes = s.nodes;
		stats->elapsed_us = now_us() - start;
		stats->net_us = net;
		stats->complete = !s.stopped;
		stats->net_hit = s.net_hit;
	}
	return i;
}
