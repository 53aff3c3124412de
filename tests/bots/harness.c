/*
 * harness.c - in-process games between bot policies (see harness.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deals.h"
#include "game_internal.h"
#include "harness.h"
#include "medium.h"
#include "protocol.h"

#define DECISION_CAP 200000 /* far above any game the turn cap allows to finish */

/* The thread's CPU time: a decision's cost, whatever else loads the machine. */
static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void harness_player_init(struct harness_player *p, int kind, uint64_t seed, struct hard *h)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->hard = h;
	easy_init(&p->easy, seed);
}

static void keep_time(struct harness_player *p, int64_t us)
{
	if (p->n_times == p->cap_times) {
		size_t cap = p->cap_times ? 2 * p->cap_times : 4096;
		int64_t *t = realloc(p->times, cap * sizeof(*t));
		if (!t)
			return;
		p->times = t;
		p->cap_times = cap;
	}
	p->times[p->n_times++] = us;
}

/* Seat's score against every other seat (R7 placings) when g, played on
 * with the hard policy at every seat, ends. */
static double played_out(struct hard *h, struct game *g, int seat)
{
	struct seat_view *v = malloc(sizeof(*v));
	struct move legal[ENGINE_MAX_MOVES];
	struct game_result r;
	for (long k = 0; v && game_to_move(g) >= 0 && k < DECISION_CAP; k++) {
		int n = game_legal_moves(g, legal);
		game_view(g, game_to_move(g), v);
		int i = h ? hard_choose(h, v, legal, n, 1000, 60000, NULL) : medium_choose(v, legal, n);
		if (i < 0 || game_apply(g, &legal[i]) < 0)
			break;
	}
	free(v);
	game_result(g, &r);
	double score = 0;
	for (int s = 0; s < g->players; s++)
		if (s != seat)
			score += r.placing[seat] < r.placing[s] ? 1.0 : r.placing[seat] == r.placing[s] ? 0.5 : 0.0;
	return score / (g->players - 1);
}

void harness_determinize(struct game *c, int seat, struct rng *r)
{
	uint8_t pool[ENGINE_DECK_SIZE];
	int n = 0;
	for (int s = 0; s < c->players; s++) {
		for (int v = 0; s != seat && v < GAME_CARD_VALUES; v++)
			for (int k = 0; k < c->hand[s][v]; k++)
				pool[n++] = (uint8_t)v;
		for (int k = 0; k + 1 < c->stock_n[s]; k++)
			pool[n++] = c->stock[s][k];
	}
	memcpy(pool + n, c->draw, (size_t)c->draw_n);
	n += c->draw_n;
	rng_shuffle(r, pool, (size_t)n);
	n = 0;
	for (int s = 0; s < c->players; s++) {
		if (s != seat) {
			memset(c->hand[s], 0, sizeof(c->hand[s]));
			c->hand_mask[s] = 0;
			for (int k = 0; k < c->hand_n[s]; k++) {
				c->hand[s][pool[n]]++;
				c->hand_mask[s] |= (uint16_t)(1u << pool[n++]);
			}
		}
		for (int k = 0; k + 1 < c->stock_n[s]; k++)
			c->stock[s][k] = pool[n++];
	}
	memcpy(c->draw, pool + n, (size_t)c->draw_n);
	rng_seed(&c->rng, rng_next(r));
}

/* HARNESS_SEER: every legal move played out (over `worlds` deals of the
 * unseen cards, or the true one when 0); the hard move first, another only
 * when its mean score beats the best so far by `margin`. */
static int seer_choose(struct harness_player *p, const struct game *g, const struct seat_view *v,
		       const struct move *legal, int n)
{
	int hard_i = hard_choose(p->hard, v, legal, n, 1000, 60000, NULL), best = hard_i;
	double best_score = -1;
	int worlds = p->worlds > 0 ? p->worlds : 1;
	for (int k = -1; k < n; k++) {
		int i = k < 0 ? hard_i : k;
		if (k == hard_i)
			continue;
		struct rng r;
		rng_seed(&r, 0x5eed + (uint64_t)v->turn * 7919 + (uint64_t)g->moves);
		double x = 0;
		for (int w = 0; w < worlds; w++) {
			struct game *c = game_clone(g);
			if (c && p->worlds > 0)
				harness_determinize(c, v->seat, &r);
			if (c && game_apply(c, &legal[i]) == 0)
				x += played_out(p->rollout_medium ? NULL : p->hard, c, v->seat);
			game_free(c);
		}
		if (x > best_score + (k < 0 ? 0 : p->margin * worlds))
			best_score = x, best = i;
	}
	return best;
}

static int decide(struct harness_player *p, const struct game *g, const struct seat_view *v,
		  const struct move *legal, int n, uint32_t move_number, int64_t move_ms, int64_t bank_ms)
{
	int64_t start = now_us();
	int i = -1;
	switch (p->kind) {
	case HARNESS_EASY:
		i = easy_choose(&p->easy, n);
		break;
	case HARNESS_MEDIUM:
		i = medium_choose(v, legal, n);
		break;
	case HARNESS_HARD: {
		struct hard_stats st;
		i = hard_choose(p->hard, v, legal, n, move_ms, bank_ms, &st);
		p->cut_short += !st.complete;
		p->net_hits += st.net_hit;
		break;
	}
	case HARNESS_SEER:
		i = seer_choose(p, g, v, legal, n);
		break;
	case HARNESS_EXPERT: {
		struct expert_stats st;
		i = expert_choose(p->expert, v, legal, n, move_number, move_ms, bank_ms, &st);
		p->net_hits += st.net_hit;
		p->judged += st.candidates > 0;
		break;
	}
	}
	int64_t spent = now_us() - start;
	p->decisions++;
	p->total_us += spent;
	if (spent > p->max_us)
		p->max_us = spent;
	if (p->keep_times)
		keep_time(p, spent);
	return i;
}

/* The request the arena would send to the seat to move, read back by the bot side. */
static int round_trip(struct game *g, int seat, size_t *seen, const struct move *legal, int n,
		      struct harness_game *hg, struct protocol_buf *buf, struct protocol_message *msg)
{
	struct seat_view *view = malloc(sizeof(*view));
	struct game_result r;
	size_t count;
	int rc = -1;

	if (!view)
		return -1;
	game_view(g, seat, view);
	game_result(g, &r);
	const struct event *ev = game_events(g, &count);
	struct protocol_request_args args = {
		.game = "g-harness", .turn = view->turn, .move = r.moves + 1,
		.move_ms = hg->move_ms, .bank_ms = hg->bank_ms, .view = view,
		.events = ev + seen[seat], .n_events = count - seen[seat],
		.legal = legal, .n_legal = n,
	};
	struct protocol_diag diag;
	if (protocol_encode_request(buf, &args) < 0 ||
	    protocol_parse_message(msg, buf->data, buf->len, &diag) < 0 ||
	    msg->type != PROTOCOL_MSG_REQUEST || msg->request.n_legal != n) {
		hg->protocol_errors++;
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (!move_equal(&legal[i], &msg->request.legal[i])) {
			hg->protocol_errors++;
			goto out;
		}
	seen[seat] = count;
	rc = 0;
out:
	free(view);
	return rc;
}

/* The events since seat's previous decision, redacted for it, to an expert player. */
static void show_events(struct harness_player *p, const struct game *g, int seat, size_t *seen)
{
	size_t count;
	const struct event *ev = game_events(g, &count);
	for (; seen[seat] < count; seen[seat]++) {
		struct event mine;
		event_for_seat(&ev[seen[seat]], seat, &mine);
		expert_observe(p->expert, &mine, 1);
	}
}

/* The next card of the true draw order: the draw pile from its top, then
 * the completed heap, which R6 reshuffles first (that order is not foreseen). */
static uint8_t next_draw(const struct game *g, int *i)
{
	int k = (*i)++;
	if (k < g->draw_n)
		return g->draw[g->draw_n - 1 - k];
	k -= g->draw_n;
	return k < g->completed_n ? g->completed[k] : CARD_SKIPBO;
}

void harness_oracle_deal(const struct game *g, const struct seat_view *v, int refill, struct deal *out)
{
	int next = 0;
	memset(out, 0, sizeof(*out));
	if (refill)
		for (int i = 0; i < ENGINE_HAND_SIZE; i++)
			out->draws[i] = next_draw(g, &next);
	for (int k = 1; k < v->players; k++) {
		int s = (v->seat + k) % v->players;
		for (int c = 0; c < TABLE_CARD_VALUES; c++)
			out->kept[s][c] = g->hand[s][c];
		out->kept_n[s] = g->hand_n[s];
		for (int i = g->hand_n[s]; i < ENGINE_HAND_SIZE; i++)
			out->drawn[s][i - g->hand_n[s]] = next_draw(g, &next);
	}
	if (!refill)
		for (int i = 0; i < ENGINE_HAND_SIZE; i++)
			out->draws[i] = next_draw(g, &next);
	for (int s = 0; s < v->players; s++)
		out->stock_next[s] = g->stock_n[s] >= 2 ? g->stock[s][g->stock_n[s] - 2] : CARD_SKIPBO;
}

static void oracle_deal(void *ctx, const struct seat_view *v, int refill, struct deal *out)
{
	harness_oracle_deal(ctx, v, refill, out);
}

int harness_play(const struct game_rules *rules, struct harness_player *const *seats,
		 struct harness_game *hg)
{
	int err = 0;
	struct game *g = game_new(rules, &err);
	struct seat_view *view = malloc(sizeof(*view));
	struct protocol_message *msg = malloc(sizeof(*msg));
	struct protocol_buf buf;
	size_t seen[ENGINE_MAX_PLAYERS] = { 0 };
	char id[32];
	int rc = -1;

	protocol_buf_init(&buf);
	if (msg)
		protocol_message_init(msg);
	if (!g || !view || !msg) {
		rc = g ? ENGINE_ENOMEM : err;
		goto out;
	}
	snprintf(id, sizeof(id), "g%016llx", (unsigned long long)rules->seed);
	for (int s = 0; s < rules->players; s++) {
		easy_game_start(&seats[s]->easy, id);
		if (seats[s]->kind == HARNESS_EXPERT) {
			expert_game_start(seats[s]->expert, id);
			expert_set_oracle(seats[s]->expert, seats[s]->oracle ? oracle_deal : NULL, g);
		}
	}
	hg->illegal = hg->protocol_errors = 0;
	hg->decisions = 0;
	while (game_to_move(g) >= 0 && hg->decisions < DECISION_CAP) {
		int seat = game_to_move(g);
		struct move legal[ENGINE_MAX_MOVES];
		int n = game_legal_moves(g, legal);
		const struct seat_view *v = view;
		const struct move *answer_list = legal;
		if (hg->via_protocol) {
			if (round_trip(g, seat, seen, legal, n, hg, &buf, msg) < 0)
				break;
			v = &msg->request.view;
			answer_list = msg->request.legal;
			if (seats[seat]->kind == HARNESS_EXPERT)
				expert_observe(seats[seat]->expert, msg->request.events, msg->request.n_events);
		} else {
			game_view(g, seat, view);
			if (seats[seat]->kind == HARNESS_EXPERT)
				show_events(seats[seat], g, seat, seen);
		}
		struct game_result so_far;
		game_result(g, &so_far);
		int i = decide(seats[seat], g, v, answer_list, n, so_far.moves + 1, hg->move_ms, hg->bank_ms);
		hg->decisions++;
		if (i < 0 || i >= n || game_apply(g, &answer_list[i]) < 0) {
			hg->illegal++;
			break;
		}
	}
	game_result(g, &hg->result);
	rc = hg->illegal || hg->protocol_errors ? -1 : 0;
	for (int s = 0; s < rules->players; s++)
		if (seats[s]->kind == HARNESS_EXPERT)
			expert_set_oracle(seats[s]->expert, NULL, NULL); /* g is freed below */
out:
	game_free(g);
	free(view);
	if (msg)
		protocol_message_release(msg);
	free(msg);
	protocol_buf_release(&buf);
	return rc;
}
