/*
 * expert.c - the expert reference bot's policy (see expert.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "deals.h"
#include "expert.h"
#include "medium.h"
#include "rivals.h"
#include "table.h"
#include "turns.h"
#include "turnscore.h"

/* Candidates this far below the best by the hard bot's score are not judged. */
#define PRUNE_MARGIN 300.0
/* The hard bot weighs its own chances at the next turn and after a refill
 * lightly, as guesses; counted over deals they are worth more: twice and
 * one and a half times (2 players, against hard: 60.1% instead of 57.5% at
 * stock 30, 54.0% instead of 51.6% at stock 10, duplicate deals). */
#define PROSPECT_GAIN 2.0
#define NOW_GAIN 1.5
/* R7: a turn that leaves fewer cards to draw than one hand's refill (R6)
 * brings the game near a stalemate, which ranks everyone by the stock they
 * have left. Then a player ahead wants the draws to stay dry (no pile
 * completed, few cards covered on the piles) and a player behind wants them
 * back: the lead over the opponents (rivals_stalemate_lead(), -1..1) is worth
 * up to one stock card. With one expert against hard at stock 30 (4
 * players) and 20 (6), the score in the stalled games rose from 48.5% to
 * 54.6% and from 48.4% to 52.8% (same deals). */
#define STALL_WEIGHT 100.0
#define STALL_SUPPLY ENGINE_HAND_SIZE

/* Discards offered per position, each the best pile for its card: the other
 * piles for a card differ only in how it sits, which the deals cannot judge. */
#define DISCARDS_PER_POSITION 2

struct candidate {
	struct move line[TURNS_LINE_MAX]; /* the plays, from the position asked about */
	int n;
	struct move stop; /* the discard or pass that ends the turn; kind 0: a refill, or a win */
	struct table end; /* the position before stop */
	double prune;     /* the hard bot's score */
	double value;     /* the score with the dealt estimates */
};

struct expert {
	struct expert_config cfg;
	struct turnscore_weights prune_w; /* the hard bot's weights */
	struct turnscore_weights judge_w; /* the weights of the counted chances */
	struct turnscore_weights ahead_w; /* the hard bot's without the terms the deals estimate */
	struct turns *walk;
	struct cards cards;
	uint64_t game_hash;
	struct rivals rv;
	struct candidate cand[EXPERT_MAX_CANDIDATES]; /* best prune first */
	int n_cand;
	expert_oracle_fn oracle; /* measurement only: the deals' source */
	void *oracle_ctx;
};

void expert_config_default(struct expert_config *cfg)
{
	cfg->max_nodes = EXPERT_DEFAULT_MAX_NODES;
	cfg->candidates = EXPERT_DEFAULT_CANDIDATES;
	cfg->samples = EXPERT_DEFAULT_SAMPLES;
	cfg->net_move_share = EXPERT_DEFAULT_NET_MOVE_SHARE;
	cfg->net_bank_share = EXPERT_DEFAULT_NET_BANK_SHARE;
}

static int clamp(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

struct expert *expert_new(const struct expert_config *cfg)
{
	struct expert *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->cfg = *cfg;
	e->cfg.candidates = clamp(cfg->candidates, 1, EXPERT_MAX_CANDIDATES);
	e->cfg.samples = clamp(cfg->samples, 1, EXPERT_MAX_SAMPLES);
	turnscore_default(&e->prune_w);
	e->judge_w = e->prune_w;
	e->judge_w.prospect *= PROSPECT_GAIN;
	e->judge_w.now *= NOW_GAIN;
	e->ahead_w = e->prune_w;
	e->ahead_w.threat = e->ahead_w.prospect = e->ahead_w.now = 0;
	e->walk = turns_new();
	if (!e->walk) {
		free(e);
		return NULL;
	}
	cards_reset(&e->cards);
	return e;
}

void expert_free(struct expert *e)
{
	if (!e)
		return;
	turns_free(e->walk);
	free(e);
}

/* FNV-1a: a stable hash of the game id on every machine. */
static uint64_t hash_id(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

void expert_set_oracle(struct expert *e, expert_oracle_fn fn, void *ctx)
{
	e->oracle = fn;
	e->oracle_ctx = ctx;
}

void expert_game_start(struct expert *e, const char *game_id)
{
	e->game_hash = hash_id(game_id);
	cards_reset(&e->cards);
}

void expert_observe(struct expert *e, const struct event *ev, size_t n)
{
	cards_observe(&e->cards, ev, n);
}

/* ---- candidates ---------------------------------------------------------- */

static int same_move(const struct move *a, const struct move *b)
{
	return move_equal(a, b) && a->source == b->source && a->owner == b->owner && a->pile == b->pile;
}

static struct move first_move(const struct candidate *c)
{
	return c->n > 0 ? c->line[0] : c->stop;
}

/* Keep the best cfg.candidates by prune score; among equals the first offered. */
static void offer(struct expert *e, double prune, const struct table *t, const struct move *line, int n,
		  const struct move *stop)
{
	int k = e->n_cand;
	if (k == e->cfg.candidates) {
		if (prune <= e->cand[k - 1].prune)
			return;
		k--;
	} else {
		e->n_cand++;
	}
	for (; k > 0 && e->cand[k - 1].prune < prune; k--)
		e->cand[k] = e->cand[k - 1];
	struct candidate *c = &e->cand[k];
	memcpy(c->line, line, (size_t)n * sizeof(*line));
	c->n = n;
	c->stop = stop ? *stop : (struct move){ 0 };
	c->end = *t;
	c->prune = prune;
}

/* The best DISCARDS_PER_POSITION cards to discard at t, each on its best pile. */
static int best_discards(const struct expert *e, const struct table *t, double base, struct move *out,
			 double *score)
{
	int kept = 0;
	for (int c = 0; c < TABLE_CARD_VALUES; c++) {
		if (!t->hand[c])
			continue;
		double v = 0;
		int pile = -1;
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			double x = turnscore_discard(&e->prune_w, t, base, (uint8_t)c, p);
			if (pile < 0 || x > v)
				v = x, pile = p;
		}
		int k = kept < DISCARDS_PER_POSITION ? kept++ : DISCARDS_PER_POSITION;
		if (k == DISCARDS_PER_POSITION) {
			if (v <= score[k - 1])
				continue;
			k--;
		}
		for (; k > 0 && score[k - 1] < v; k--) {
			score[k] = score[k - 1];
			out[k] = out[k - 1];
		}
		score[k] = v;
		out[k] = (struct move){ .kind = MOVE_DISCARD, .card = (uint8_t)c, .target = (uint8_t)pile };
	}
	return kept;
}

/* turns_visit: offer the ways to stop at t. */
static int visit(void *ctx, const struct table *t, const struct move *line, int n)
{
	struct expert *e = ctx;
	const struct turnscore_weights *w = &e->prune_w;
	double base = turnscore_base(w, t, &e->rv);
	if (base >= w->win || t->refilled) {
		offer(e, base >= w->win ? base : turnscore_refilled(w, t, base), t, line, n, NULL);
		return base >= w->win;
	}
	if (t->hand_size == 0) {
		struct move pass = { .kind = MOVE_PASS };
		offer(e, turnscore_pass(w, t, base), t, line, n, &pass);
		return 0;
	}
	struct move discard[DISCARDS_PER_POSITION];
	double score[DISCARDS_PER_POSITION];
	int kept = best_discards(e, t, base, discard, score);
	for (int i = 0; i < kept; i++)
		offer(e, score[i], t, line, n, &discard[i]);
	return 0;
}

/* Drop candidates far below the best; 1 if the rest do not all start alike. */
static int worth_judging(struct expert *e)
{
	int k = 1, differ = 0;
	struct move first = first_move(&e->cand[0]);
	for (; k < e->n_cand && e->cand[k].prune >= e->cand[0].prune - PRUNE_MARGIN; k++) {
		struct move m = first_move(&e->cand[k]);
		differ |= !same_move(&m, &first);
	}
	e->n_cand = k;
	return differ;
}

/* ---- judging over deals -------------------------------------------------- */

/* Can the player, at the end of c, play a stock top next turn (after a
 * refill: still this turn) with the cards of deal d, drawing at most
 * `supply` of them (R6)? */
static int own_reaches(const struct candidate *c, const struct deal *d, int supply)
{
	struct table t = c->end;
	uint8_t pile[ENGINE_DECK_SIZE + 1];
	for (int s = 0; s < t.sides; s++)
		if (t.side[s].stock_top == TABLE_UNKNOWN)
			t.side[s].stock_top = d->stock_next[t.side[s].seat];
	if (c->stop.kind == MOVE_DISCARD) {
		/* The discarded card tops its pile: a copy of the pile holds it. */
		int p = c->stop.target, n = t.side[0].discard_size[p];
		memcpy(pile, t.side[0].discard[p], (size_t)n);
		pile[n] = c->stop.card;
		t.side[0].discard[p] = pile;
		t.side[0].discard_size[p] = n + 1;
		t.hand[c->stop.card]--;
		t.hand_size--;
	}
	t.refilled = 0;
	for (int i = 0; t.hand_size < ENGINE_HAND_SIZE && i < supply; i++)
		t.hand[d->draws[i]]++, t.hand_size++;
	return medium_reaches_stock(&t, 0);
}

/* The partner's piles as the candidate's plays (R10) left them. */
static void partner_after(struct table *t, const struct table *end, const struct deal *d)
{
	struct table_side *sd = &t->side[0];
	const struct table_side *after = &end->side[1];
	sd->stock_size = after->stock_size;
	sd->stock_top = after->stock_top == TABLE_UNKNOWN ? d->stock_next[after->seat] : after->stock_top;
	memcpy(sd->discard_size, after->discard_size, sizeof(sd->discard_size));
}

/* Everything but the dealt estimates: the hard bot's score without its
 * threat, prospect and refill-chance terms. */
static double ahead_score(const struct expert *e, const struct candidate *c)
{
	const struct turnscore_weights *w = &e->ahead_w;
	double base = turnscore_base(w, &c->end, &e->rv);
	if (c->stop.kind == MOVE_DISCARD)
		return turnscore_discard(w, &c->end, base, c->stop.card, c->stop.target);
	if (c->stop.kind == MOVE_PASS)
		return turnscore_pass(w, &c->end, base);
	return c->end.refilled ? turnscore_refilled(w, &c->end, base) : base;
}

/*
 * Score every candidate as the hard bot does, with the three chances it
 * guesses - each other seat reaching its stock top on the piles left, the
 * player reaching its own next turn (or after a refill) - counted over the
 * same deals instead. Returns the deals made.
 */
static int judge(struct expert *e, const struct seat_view *v, uint64_t seed, int64_t deadline_us,
		 struct expert_stats *st)
{
	struct cards_known k;
	struct dealer dl;
	double reach[EXPERT_MAX_CANDIDATES][ENGINE_MAX_PLAYERS - 1] = { { 0 } };
	double own[EXPERT_MAX_CANDIDATES] = { 0 };
	cards_known(&e->cards, v, &k);
	st->exact_cards = k.exact;
	if (dealer_init(&dl, v, &k, seed) == 0)
		return 0;
	int dealt = 0, samples = e->oracle ? 1 : e->cfg.samples;
	for (; dealt < samples; dealt++) {
		if (deadline_us > 0 && dealt > 0 && turns_cpu_us() >= deadline_us) {
			st->net_hit = 1;
			break;
		}
		struct deal deal[2]; /* the oracle's [1]: the own draws first, for a refill */
		if (e->oracle) {
			e->oracle(e->oracle_ctx, v, 0, &deal[0]);
			e->oracle(e->oracle_ctx, v, 1, &deal[1]);
		} else {
			dealer_deal(&dl, &deal[0]);
		}
		for (int i = 0; i < e->n_cand; i++) {
			const struct candidate *c = &e->cand[i];
			const struct deal *dd = &deal[e->oracle && c->end.refilled];
			int hand[ENGINE_MAX_PLAYERS][TABLE_CARD_VALUES], hand_n[ENGINE_MAX_PLAYERS];
			/* A refill draws now, before the others; a discard draws after them (R5). */
			int supply = deals_supply(v, c->end.building, c->end.cards_played);
			int now = c->end.refilled ? (supply < ENGINE_HAND_SIZE ? supply : ENGINE_HAND_SIZE) : 0;
			int left = deal_next_hands(dd, v, supply - now, hand, hand_n);
			for (int r = 0; r < e->rv.n; r++) {
				int s = e->rv.r[r].seat;
				struct table t;
				deals_seat_table(v, s, c->end.building, hand[s], hand_n[s], &t);
				if (c->end.sides == 2 && s == c->end.side[1].seat)
					partner_after(&t, &c->end, dd);
				reach[i][r] += medium_reaches_stock(&t, 0);
			}
			if (c->stop.kind || c->end.refilled)
				own[i] += own_reaches(c, dd, c->end.refilled ? now : left);
		}
	}
	const struct turnscore_weights *w = &e->judge_w;
	int sides = e->rv.sides > 1 ? e->rv.sides : 1;
	for (int i = 0; i < e->n_cand; i++) {
		struct candidate *c = &e->cand[i];
		for (int r = 0; r < e->rv.n; r++)
			reach[i][r] /= dealt;
		c->value = ahead_score(e, c) - w->threat * rivals_threat_of(&e->rv, reach[i]) / sides;
		if (deals_supply(v, c->end.building, c->end.cards_played) < STALL_SUPPLY)
			c->value += STALL_WEIGHT * rivals_stalemate_lead(&e->rv, c->end.side[0].stock_size);
		if (c->stop.kind)
			c->value += w->prospect * own[i] / dealt;
		else if (c->end.refilled)
			c->value += w->now * own[i] / dealt;
	}
	return dealt;
}

int expert_choose(struct expert *e, const struct seat_view *v, const struct move *legal, int n,
		  uint32_t move_number, int64_t move_ms, int64_t bank_ms, struct expert_stats *stats)
{
	if (n <= 0)
		return -1;
	int64_t start = turns_cpu_us();
	int64_t net = turns_net_us(move_ms, bank_ms, e->cfg.net_move_share, e->cfg.net_bank_share);
	int64_t deadline = net > 0 ? start + net : 0;
	struct expert_stats st = { 0 };
	struct turns_stats ts;
	struct table root;

	rivals_from_view(&e->rv, v);
	table_from_view(&root, v);
	e->n_cand = 0;
	turns_search(e->walk, &root, e->cfg.max_nodes, deadline, visit, e, &ts);
	st.nodes = ts.nodes;
	st.net_hit = ts.net_hit;
	int best = 0;
	if (e->n_cand > 0 && e->cand[0].prune < e->prune_w.win && worth_judging(e)) {
		uint64_t seed = e->game_hash ^ ((uint64_t)move_number * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)v->seat;
		st.samples = judge(e, v, seed, deadline, &st);
		st.candidates = st.samples > 0 ? e->n_cand : 0;
		for (int i = 1; i < e->n_cand && st.samples > 0; i++)
			if (e->cand[i].value > e->cand[best].value)
				best = i;
	}
	int i = -1;
	if (e->n_cand > 0) {
		struct move m = first_move(&e->cand[best]);
		i = table_find_legal(legal, n, &m);
	}
	if (i < 0)
		i = table_fallback(legal, n);
	st.elapsed_us = turns_cpu_us() - start;
	if (stats)
		*stats = st;
	return i;
}
