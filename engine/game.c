/*
 * game.c - a game's life: rules check and deal (R3), drawing and refilling
 * (R5.1, R6), turn flow and the end of a game (R7, R8, R11), the event log.
 * Moves are in moves.c, views in view.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_internal.h"

/* Events and moves have no padding, so byte-wise comparisons and hashes of
 * them are well defined. */
_Static_assert(sizeof(struct event) == 16, "struct event has padding");
_Static_assert(sizeof(struct move) == 6, "struct move has padding");

int game_rules_check(struct game_rules *rules, char *reason, size_t reason_size)
{
	int rc = ENGINE_OK;
	int n = rules->players;
	const char *why = NULL;

	if (n < 2 || n > ENGINE_MAX_PLAYERS) {
		rc = ENGINE_EPLAYERS;
		why = "players must be 2 to 6 (R2)";
		goto out;
	}
	if (rules->stock_size == 0)
		rules->stock_size = n <= 4 ? 30 : 20;
	if (rules->stock_size < 1 || rules->stock_size > GAME_MAX_STOCK) {
		rc = ENGINE_ESTOCK;
		why = "stock size must be 1 to 30 (R3)";
		goto out;
	}
	if (n * (rules->stock_size + ENGINE_HAND_SIZE) > ENGINE_DECK_SIZE) {
		rc = ENGINE_EDECK;
		why = "players x (stock size + 5) must not exceed 162 cards (R3)";
		goto out;
	}
	if (rules->partnership && n != 4 && n != 6) {
		rc = ENGINE_EPARTNERSHIP;
		why = "partnership needs 4 or 6 players (R2, R10)";
		goto out;
	}
	if (rules->dealer < 0 || rules->dealer >= n) {
		rc = ENGINE_EDEALER;
		why = "dealer must be a seat of the game";
		goto out;
	}
out:
	if (reason && reason_size > 0)
		snprintf(reason, reason_size, "%s", why ? why : "");
	return rc;
}

int game_log_grow(struct game *g)
{
	size_t cap = g->events_cap * 2;
	struct event *grown = reallocarray(g->events, cap, sizeof(*grown));

	if (!grown) {
		g->log_failed = 1;
		return ENGINE_ENOMEM;
	}
	g->events = grown;
	g->events_cap = cap;
	return ENGINE_OK;
}

/* Makes cards[0..n-1] (cards[0] the top after the shuffle) the new draw pile. */
static void set_draw_pile(struct game *g, const uint8_t *cards, int n)
{
	for (int i = 0; i < n; i++)
		g->draw[i] = cards[n - 1 - i];
	g->draw_n = n;
}

/* R6: rebuild the empty draw pile. Returns the number of cards it now holds. */
static int refill(struct game *g)
{
	uint8_t pool[ENGINE_DECK_SIZE];
	int n = 0;
	int source;

	if (g->completed_n > 0) {
		source = 1;
		n = g->completed_n;
		memcpy(pool, g->completed, (size_t)n);
		g->completed_n = 0;
	} else {
		/* R6.2: each building pile keeps its top card, and with it its value. */
		source = 2;
		for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
			int k = g->building_n[p];

			if (k < 2)
				continue;
			memcpy(pool + n, g->building[p], (size_t)(k - 1));
			n += k - 1;
			g->building[p][0] = g->building[p][k - 1];
			g->building_n[p] = 1;
		}
		if (n == 0)
			return 0;
	}
	rng_shuffle(&g->rng, pool, (size_t)n);
	set_draw_pile(g, pool, n);
	game_log(g, EVENT_REFILL, g->to_move, source, 0, 0, CARD_NONE, 0, 0, n);
	return n;
}

int game_draw_one(struct game *g, int seat)
{
	uint8_t card;

	if (g->draw_n == 0 && refill(g) == 0)
		return 0;
	card = g->draw[--g->draw_n];
	g->hand[seat][card]++;
	g->hand_n[seat]++;
	g->hand_mask[seat] |= (uint16_t)(1u << card);
	g->turn_drew = 1;
	game_log(g, EVENT_DRAW, seat, 0, seat, 0, card, 0, 0, 1);
	return 1;
}

/* R5.1: draw until the hand holds 5 cards or nothing more can be drawn. */
static void draw_up(struct game *g, int seat)
{
	while (g->hand_n[seat] < ENGINE_HAND_SIZE && game_draw_one(g, seat))
		;
}

static void start_turn(struct game *g, int seat)
{
	g->to_move = seat;
	g->turn++;
	g->turn_played = 0;
	g->turn_drew = 0;
	game_log(g, EVENT_TURN, seat, 0, 0, 0, CARD_NONE, 0, 0, 0);
	draw_up(g, seat);
}

static int seats_playing(const struct game *g)
{
	int k = 0;

	for (int s = 0; s < g->players; s++)
		k += !g->removed[s];
	return k;
}

void game_end_turn(struct game *g)
{
	int s = g->to_move;

	/* R7: a turn is idle when it put no card on a building pile and drew none
	 * (every turn starts with a hand below 5, so drawing nothing means neither
	 * the draw pile nor R6 could produce a card). */
	if (g->turn_played || g->turn_drew)
		g->idle_turns = 0;
	else
		g->idle_turns++;
	if (g->idle_turns >= 2 * seats_playing(g)) {
		game_finish(g, END_STALEMATE, -1);
		return;
	}
	if (g->turn >= ENGINE_TURN_CAP) {
		game_finish(g, END_TURN_CAP, -1);
		return;
	}
	do
		s = (s + 1) % g->players;
	while (g->removed[s]);
	start_turn(g, s);
}

void game_finish(struct game *g, int reason, int winning_seat)
{
	int n = g->players;

	g->reason = reason;
	g->status = winning_seat >= 0 ? GAME_WON : GAME_STALEMATE;
	g->to_move = -1;
	memset(g->winners, 0, sizeof(g->winners));
	memset(g->score, 0, sizeof(g->score));
	if (winning_seat >= 0) {
		/* R8: 25 + 5 per card left in the other sides' stocks, once per side;
		 * a removed seat (R11) is never among the winners. */
		int team = g->partner[winning_seat];
		int left = 0;
		int score;

		for (int s = 0; s < n; s++)
			if (s != winning_seat && s != team)
				left += g->stock_n[s];
		score = 25 + 5 * left;
		for (int s = 0; s < n; s++) {
			if ((s == winning_seat || s == team) && !g->removed[s]) {
				g->winners[s] = 1;
				g->score[s] = score;
			}
		}
	}
	/* The event names the lowest winning seat, as game_result() does. */
	for (int s = n - 1; s >= 0; s--)
		if (g->winners[s])
			winning_seat = s;
	game_log(g, EVENT_END, winning_seat >= 0 ? winning_seat : 0xff, 0, 0, 0, CARD_NONE, 0,
		 reason, 0);
}

/* R3: the unshuffled deck is twelve 1s, ..., twelve 12s, then eighteen SKIP-BO. */
static void deck_fill(uint8_t deck[ENGINE_DECK_SIZE])
{
	int i = 0;

	for (int v = 1; v <= 12; v++)
		for (int k = 0; k < 12; k++)
			deck[i++] = (uint8_t)v;
	while (i < ENGINE_DECK_SIZE)
		deck[i++] = CARD_SKIPBO;
}

static void deal(struct game *g)
{
	int n = g->players;
	int stock = g->rules.stock_size;
	int first = (g->rules.dealer + 1) % n;
	int next = 0;

	deck_fill(g->deck);
	rng_shuffle(&g->rng, g->deck, ENGINE_DECK_SIZE);
	/* One card at a time in seat order from the left of the dealer; the
	 * first card a stock receives is its bottom, the last its top. */
	for (int k = 0; k < stock; k++) {
		for (int i = 0; i < n; i++) {
			int s = (first + i) % n;

			g->stock[s][g->stock_n[s]++] = g->deck[next++];
		}
	}
	set_draw_pile(g, g->deck + next, ENGINE_DECK_SIZE - next);
	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++)
		game_refresh_tops(g, s);
	for (int s = 0; s < n; s++)
		game_log(g, EVENT_STOCK_TOP, s, SOURCE_STOCK, s, 0, g->stock[s][stock - 1], 0, 0, 0);
	start_turn(g, first);
}

struct game *game_new(const struct game_rules *rules, int *err)
{
	struct game *g = NULL;
	struct game_rules r = *rules;
	int rc;

	rc = game_rules_check(&r, NULL, 0);
	if (rc < 0)
		goto out;
	g = calloc(1, sizeof(*g));
	if (!g) {
		rc = ENGINE_ENOMEM;
		goto out;
	}
	g->rules = r;
	g->players = r.players;
	for (int s = 0; s < r.players; s++)
		g->partner[s] = (uint8_t)(r.partnership ? (s + r.players / 2) % r.players : s);
	if (!r.no_event_log) {
		g->events_cap = 1024;
		g->events = reallocarray(NULL, g->events_cap, sizeof(*g->events));
		if (!g->events) {
			free(g);
			g = NULL;
			rc = ENGINE_ENOMEM;
			goto out;
		}
	}
	rng_seed(&g->rng, r.seed);
	deal(g);
out:
	if (err)
		*err = rc;
	return g;
}

void game_free(struct game *g)
{
	if (!g)
		return;
	free(g->events);
	free(g);
}

struct game *game_clone(const struct game *g)
{
	struct game *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *g;
	if (g->events) {
		c->events = reallocarray(NULL, g->events_cap, sizeof(*c->events));
		if (!c->events) {
			free(c);
			return NULL;
		}
		memcpy(c->events, g->events, g->events_n * sizeof(*c->events));
	}
	return c;
}

const struct game_rules *game_rules(const struct game *g)
{
	return &g->rules;
}

int game_to_move(const struct game *g)
{
	return g->to_move;
}

int game_status(const struct game *g)
{
	return g->status;
}

/* R7 placings: winners, then the others by stock left (fewer is better, equal
 * counts tie), every removed seat (R11) below every seat still playing. */
static int placing_key(const struct game *g, int s)
{
	if (g->winners[s])
		return 0;
	return 1 + g->removed[s] * 64 + g->stock_n[s];
}

void game_result(const struct game *g, struct game_result *out)
{
	int n = g->players;

	memset(out, 0, sizeof(*out));
	out->status = g->status;
	out->reason = g->reason;
	out->winner = -1;
	out->turns = g->turn;
	out->moves = g->moves;
	for (int s = 0; s < n; s++) {
		int better = 0;

		for (int o = 0; o < n; o++)
			better += placing_key(g, o) < placing_key(g, s);
		out->placing[s] = 1 + better;
		out->winners[s] = g->winners[s];
		if (g->winners[s] && out->winner < 0)
			out->winner = s;
		out->stock_left[s] = g->stock_n[s];
		out->score[s] = g->score[s];
	}
}

/* Sides (a player, or a team in partnership) with a seat still playing; sets
 * *any_seat to one such seat. */
static int sides_left(const struct game *g, int *any_seat)
{
	uint8_t seen[ENGINE_MAX_PLAYERS] = { 0 };
	int k = 0;

	for (int s = 0; s < g->players; s++) {
		int side = s < g->partner[s] ? s : g->partner[s];

		if (g->removed[s] || seen[side])
			continue;
		seen[side] = 1;
		*any_seat = s;
		k++;
	}
	return k;
}

/* After removals: one side left wins, none left ends the game without a winner,
 * else the removed seat to move (if any) passes the turn on. */
static void after_removal(struct game *g)
{
	int left_seat = -1, sides = sides_left(g, &left_seat);

	if (sides <= 1)
		game_finish(g, END_FORFEIT, sides == 1 ? left_seat : -1);
	else if (g->removed[g->to_move])
		game_end_turn(g);
}

int game_remove_seat(struct game *g, int seat)
{
	if (g->to_move < 0)
		return ENGINE_EOVER;
	if (seat < 0 || seat >= g->players || g->removed[seat])
		return ENGINE_ESEAT;
	g->removed[seat] = 1;
	game_log(g, EVENT_REMOVED, seat, 0, 0, 0, CARD_NONE, 0, 0, 0);
	after_removal(g);
	return ENGINE_OK;
}

int game_remove_seats(struct game *g, const uint8_t removed[ENGINE_MAX_PLAYERS])
{
	int any = 0;

	if (g->to_move < 0)
		return ENGINE_EOVER;
	for (int s = 0; s < g->players; s++) {
		if (!removed[s] || g->removed[s])
			continue;
		g->removed[s] = 1;
		game_log(g, EVENT_REMOVED, s, 0, 0, 0, CARD_NONE, 0, 0, 0);
		any = 1;
	}
	if (any)
		after_removal(g);
	return ENGINE_OK;
}

const struct event *game_events(const struct game *g, size_t *count)
{
	*count = g->events ? g->events_n : 0;
	return g->events;
}

int game_log_truncated(const struct game *g)
{
	return g->log_failed;
}

void game_initial_deck(const struct game *g, uint8_t deck[ENGINE_DECK_SIZE])
{
	memcpy(deck, g->deck, ENGINE_DECK_SIZE);
}

const char *engine_strerror(int code)
{
	switch (code) {
	case ENGINE_OK: return "success";
	case ENGINE_EPLAYERS: return "players must be 2 to 6";
	case ENGINE_ESTOCK: return "stock size must be 1 to 30";
	case ENGINE_EDECK: return "players x (stock size + 5) exceeds 162 cards";
	case ENGINE_EPARTNERSHIP: return "partnership needs 4 or 6 players";
	case ENGINE_EDEALER: return "dealer is not a seat of the game";
	case ENGINE_ENOMEM: return "out of memory";
	case ENGINE_EOVER: return "the game has ended";
	case ENGINE_EKIND: return "unknown move kind or source";
	case ENGINE_ENOTOWNER: return "that pile belongs to neither you nor your partner";
	case ENGINE_ENOCARD: return "no such card there";
	case ENGINE_ETARGET: return "pile index out of range";
	case ENGINE_EBUILD: return "the building pile does not accept that card";
	case ENGINE_EPASS: return "pass is legal only with an empty hand";
	case ENGINE_ESEAT: return "seat out of range or already removed";
	case ENGINE_EMATCHOVER: return "the match is decided";
	case ENGINE_ERUNNING: return "the game has not ended";
	default: return "unknown error";
	}
}

const char *end_reason_name(int reason)
{
	switch (reason) {
	case END_STOCK_EMPTIED: return "stock_emptied";
	case END_STALEMATE: return "stalemate";
	case END_TURN_CAP: return "turn_cap";
	case END_FORFEIT: return "forfeit";
	default: return "none";
	}
}
