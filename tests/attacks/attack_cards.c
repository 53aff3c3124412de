/*
 * attack_cards.c - the playing and counting part of the card-predicting
 * attack bots (contract in attack_cards.h).
 */
#include "attack_cards.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The game being played and what has been counted in it. */
struct cards_state {
	struct cards_game g;
	char id[128];
	int draw_next;             /* deck position of the next card drawn */
	bool refilled;             /* R6: draws are no longer deck positions */
	int stock_seen[8];         /* stock tops uncovered so far per seat */
	int requests;
	long right, predicted;
};

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int number(const cJSON *o, const char *key, int otherwise)
{
	const cJSON *v = item(o, key);

	return cJSON_IsNumber(v) ? v->valueint : otherwise;
}

static void start_game(struct cards_state *st, const cJSON *msg, const struct cards_attack *a,
		       int argc, char **argv)
{
	const cJSON *id = item(msg, "game");

	memset(st, 0, sizeof(*st));
	snprintf(st->id, sizeof(st->id), "%s", cJSON_IsString(id) ? id->valuestring : "");
	st->g.id = st->id;
	st->g.seat = number(msg, "seat", 0);
	st->g.players = number(msg, "players", 2);
	st->g.stock_size = number(item(msg, "rules"), "stock_size", 30);
	for (int p = 0; p < CARDS_DECK; p++)
		st->g.shown[p] = CARDS_UNKNOWN;
	st->draw_next = st->g.stock_size * st->g.players;
	if (a->game_start)
		a->game_start(&st->g, argc, argv);
}

/* A card shown at pos: predicted first (after the first request), then recorded. */
static void shown(struct cards_state *st, const struct cards_attack *a, int pos, int card)
{
	if (pos < 0 || pos >= CARDS_DECK || card < 0)
		return;
	if (st->requests > 1) {
		int guess = a->predict ? a->predict(&st->g, pos) : CARDS_UNKNOWN;

		st->predicted++;
		st->right += (guess == CARDS_UNKNOWN ? CARDS_SKIPBO : guess) == card;
	}
	st->g.shown[pos] = card;
	if (a->shown)
		a->shown(&st->g, pos, card);
}

static void read_events(struct cards_state *st, const struct cards_attack *a, const cJSON *events)
{
	const cJSON *ev;

	cJSON_ArrayForEach(ev, events) {
		const cJSON *type = item(ev, "type"), *cards = item(ev, "cards");
		int seat = number(ev, "seat", -1);

		if (!cJSON_IsString(type))
			continue;
		if (strcmp(type->valuestring, "refill") == 0) {
			st->refilled = true;
		} else if (strcmp(type->valuestring, "draw") == 0) {
			int count = number(ev, "count", 0), k = 0;
			const cJSON *c;

			if (seat == st->g.seat && !st->refilled)
				cJSON_ArrayForEach(c, cards)
					if (cJSON_IsNumber(c))
						shown(st, a, st->draw_next + k++, c->valueint);
			st->draw_next += count;
		} else if (strcmp(type->valuestring, "stock_top") == 0 && seat >= 0 && seat < 8) {
			int k = st->stock_seen[seat]++;
			const cJSON *card = item(ev, "card");

			if (k < st->g.stock_size && cJSON_IsNumber(card))
				shown(st, a, (st->g.stock_size - 1 - k) * st->g.players + seat,
				      card->valueint);
		}
	}
}

/* Write msg as one line, and free it. */
static void send_line(cJSON *msg)
{
	char *text = cJSON_PrintUnformatted(msg);

	cJSON_Delete(msg);
	if (!text || puts(text) < 0 || fflush(stdout) != 0)
		exit(2);
	free(text);
}

static void answer(const cJSON *request)
{
	cJSON *out = cJSON_CreateObject();

	cJSON_AddStringToObject(out, "type", "move");
	cJSON_AddItemToObject(out, "move",
			      cJSON_Duplicate(cJSON_GetArrayItem(item(request, "legal"), 0), 1));
	send_line(out);
}

static void hello(void)
{
	cJSON *out = cJSON_CreateObject();

	cJSON_AddStringToObject(out, "type", "hello");
	cJSON_AddNumberToObject(out, "protocol", 1);
	cJSON_AddStringToObject(out, "name", "attack-cards");
	cJSON_AddStringToObject(out, "version", "1");
	send_line(out);
}

int cards_deal_key(const struct cards_game *g)
{
	int tops[2] = { 0, 0 };

	for (int seat = 0; seat < g->players; seat++) {
		int card = g->shown[(g->stock_size - 1) * g->players + seat];

		tops[seat % 2] = (tops[seat % 2] * 7 + (card < 0 ? 0 : card)) % 13;
	}
	return tops[0] * 13 + tops[1];
}

int cards_main(const struct cards_attack *a, int argc, char **argv)
{
	static struct cards_state st;
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, stdin) > 0) {
		cJSON *msg = cJSON_Parse(line);
		const cJSON *type = item(msg, "type");
		const char *t = cJSON_IsString(type) ? type->valuestring : "";

		if (strcmp(t, "quit") == 0) {
			cJSON_Delete(msg);
			break;
		}
		if (strcmp(t, "hello") == 0) {
			hello();
		} else if (strcmp(t, "game_start") == 0) {
			start_game(&st, msg, a, argc, argv);
		} else if (strcmp(t, "request") == 0) {
			st.requests++;
			read_events(&st, a, item(msg, "events"));
			if (st.requests == 1 && a->first_request)
				a->first_request(&st.g);
			fprintf(stderr, "CARDS %s %s %ld %ld\n", a->name, st.id, st.right,
				st.predicted);
			fflush(stderr);
			answer(msg);
		} else if (strcmp(t, "game_end") == 0) {
			if (a->game_end)
				a->game_end(&st.g);
		}
		cJSON_Delete(msg);
	}
	free(line);
	return 0;
}
