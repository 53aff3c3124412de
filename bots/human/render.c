/*
 * render.c - the table as text (see render.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define SHOW_DISCARDS 8 /* cards shown per discard pile, top ones */

const char *render_card(unsigned card, char *buf)
{
	if (card == CARD_SKIPBO)
		strcpy(buf, "SB");
	else if (card >= 1 && card <= 12)
		snprintf(buf, 3, "%u", card);
	else
		strcpy(buf, "-");
	return buf;
}

static const char *seat_name(const struct render_game *g, const struct seat_view *v, int seat)
{
	static const char *const you = "you";
	if (seat == v->seat)
		return you;
	if (seat >= 0 && seat < g->players && g->names[seat][0])
		return g->names[seat];
	return "?";
}

static char pile_letter(int b)
{
	return (char)('A' + b);
}

void render_move(const struct move *m, const struct seat_view *v, const struct render_game *g,
		 char *buf, size_t size)
{
	char c[4];
	if (m->kind == MOVE_PASS) {
		snprintf(buf, size, "pass (your hand is empty and nothing is left to draw)");
		return;
	}
	if (m->kind == MOVE_DISCARD) {
		snprintf(buf, size, "discard %s on your discard pile %d (ends your turn)",
			 render_card(m->card, c), m->target + 1);
		return;
	}
	int makes = v->building_value[m->target] + 1;
	char whose[PROTOCOL_NAME_MAX + 16];
	if (m->owner == v->seat)
		snprintf(whose, sizeof(whose), "your");
	else
		snprintf(whose, sizeof(whose), "%s's", seat_name(g, v, m->owner));
	const char *wild = m->card == CARD_SKIPBO ? " as wild" : "";
	switch (m->source) {
	case SOURCE_STOCK:
		snprintf(buf, size, "play %s from %s STOCK on pile %c (makes %d)%s", render_card(m->card, c),
			 whose, pile_letter(m->target), makes, wild);
		break;
	case SOURCE_DISCARD:
		snprintf(buf, size, "play %s from %s discard pile %d on pile %c (makes %d)%s",
			 render_card(m->card, c), whose, m->pile + 1, pile_letter(m->target), makes, wild);
		break;
	default:
		snprintf(buf, size, "play %s from your hand on pile %c (makes %d)%s", render_card(m->card, c),
			 pile_letter(m->target), makes, wild);
		break;
	}
}

/* One event by another seat, in words; draws are counted by the caller. */
static void render_event(FILE *out, const struct event *e, const struct seat_view *v,
			 const struct render_game *g, const struct protocol_request *req)
{
	char c[4];
	const char *who = seat_name(g, v, e->seat);
	switch (e->kind) {
	case EVENT_TURN:
		if (e->seat != v->seat)
			fprintf(out, "  %s's turn:\n", who);
		break;
	case EVENT_PLAY: {
		const char *from = e->source == SOURCE_STOCK ? "stock" : e->source == SOURCE_DISCARD ? "discard pile" : "hand";
		fprintf(out, "    %s played %s from ", who, render_card(e->card, c));
		if (e->owner != e->seat)
			fprintf(out, "%s's ", seat_name(g, v, e->owner));
		fprintf(out, "%s", from);
		if (e->source == SOURCE_DISCARD)
			fprintf(out, " %d", e->pile + 1);
		fprintf(out, " on pile %c (makes %d)\n", pile_letter(e->target), e->value);
		break;
	}
	case EVENT_STOCK_TOP: {
		char whose[PROTOCOL_NAME_MAX + 4];
		if (e->owner == v->seat)
			snprintf(whose, sizeof(whose), "your");
		else
			snprintf(whose, sizeof(whose), "%s's", seat_name(g, v, e->owner));
		if (e->card == CARD_NONE)
			fprintf(out, "    %s stock is empty\n", whose);
		else
			fprintf(out, "    %s new stock top: %s\n", whose, render_card(e->card, c));
		break;
	}
	case EVENT_COMPLETE:
		fprintf(out, "    pile %c reached 12 and was cleared\n", pile_letter(e->target));
		break;
	case EVENT_DISCARD:
		fprintf(out, "    %s discarded %s on discard pile %d\n", who, render_card(e->card, c), e->target + 1);
		break;
	case EVENT_PASS:
		fprintf(out, "    %s passed\n", who);
		break;
	case EVENT_REFILL:
		fprintf(out, "    the draw pile was refilled with %u cards\n", (unsigned)e->count);
		break;
	case EVENT_REMOVED:
		fprintf(out, "    %s was removed from the game (%s)\n", who,
			req->fault[e->seat][0] ? req->fault[e->seat] : "fault");
		break;
	default:
		break;
	}
}

static void render_events(FILE *out, const struct protocol_request *req, const struct render_game *g)
{
	const struct seat_view *v = &req->view;
	if (req->n_events == 0)
		return;
	fprintf(out, "Since your last turn:\n");
	for (size_t i = 0; i < req->n_events; i++) {
		const struct event *e = &req->events[i];
		if (e->kind != EVENT_DRAW) {
			render_event(out, e, v, g, req);
			continue;
		}
		/* Draws come one card each: say them once per run. */
		size_t k = i;
		char c[4];
		while (k + 1 < req->n_events && req->events[k + 1].kind == EVENT_DRAW &&
		       req->events[k + 1].seat == e->seat)
			k++;
		if (e->seat == v->seat) {
			fprintf(out, "    you drew");
			for (size_t j = i; j <= k; j++)
				fprintf(out, " %s", render_card(req->events[j].card, c));
			fprintf(out, "\n");
		} else {
			fprintf(out, "    %s drew %zu card%s\n", seat_name(g, v, e->seat), k - i + 1, k > i ? "s" : "");
		}
		i = k;
	}
}

static void render_discards(FILE *out, const struct seat_view *v, int seat)
{
	char c[4];
	for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
		int n = v->discard_size[seat][p];
		int from = n > SHOW_DISCARDS ? n - SHOW_DISCARDS : 0;
		fprintf(out, " %d:[%s", p + 1, from > 0 ? ".." : "");
		for (int i = from; i < n; i++)
			fprintf(out, "%s%s", i > from || from > 0 ? " " : "", render_card(v->discard[seat][p][i], c));
		fprintf(out, "]");
	}
}

void render_request(FILE *out, const struct protocol_request *req, const struct render_game *g)
{
	const struct seat_view *v = &req->view;
	char c[4], line[160];

	fprintf(out, "\n=== game %s, turn %u: your move ===\n", req->game, (unsigned)req->turn);
	render_events(out, req, g);
	fprintf(out, "Building piles:");
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++) {
		if (v->building_value[b] == 0)
			fprintf(out, "  %c: empty", pile_letter(b));
		else
			fprintf(out, "  %c: %d", pile_letter(b), v->building_value[b]);
	}
	fprintf(out, "   (draw pile %d, completed %d)\n", v->draw_size, v->completed_size);
	fprintf(out, "Players:\n");
	for (int s = 0; s < v->players; s++) {
		char mark = s == v->seat ? '*' : v->partnership && s == v->partner ? '+' : ' ';
		fprintf(out, " %c %-16.16s stock %-2s (%2d left)  hand %d  discards", mark, seat_name(g, v, s),
			v->stock_size[s] > 0 ? render_card(v->stock_top[s], c) : "-", v->stock_size[s],
			v->others_hand_size[s]);
		render_discards(out, v, s);
		fprintf(out, "%s\n", v->removed[s] ? "  (removed)" : "");
	}
	fprintf(out, "Your hand:");
	for (int i = 0; i < v->hand_size; i++)
		fprintf(out, " %s", render_card(v->hand[i], c));
	fprintf(out, "%s\n", v->hand_size ? "" : " (empty)");
	if (req->move_ms > 0)
		fprintf(out, "Time: %lld ms for this move, %lld ms left in the game.\n", (long long)req->move_ms,
			(long long)req->bank_ms);
	fprintf(out, "Your moves:\n");
	for (int i = 0; i < req->n_legal; i++) {
		render_move(&req->legal[i], v, g, line, sizeof(line));
		fprintf(out, "  %2d) %s\n", i + 1, line);
	}
}

int render_parse_choice(const char *line, int n, char *why, size_t why_size)
{
	while (isspace((unsigned char)*line))
		line++;
	if (*line == '\0') {
		snprintf(why, why_size, "please type the number of a move, 1 to %d", n);
		return -1;
	}
	char *end;
	errno = 0;
	long k = strtol(line, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == line || *end != '\0' || errno) {
		snprintf(why, why_size, "\"%.40s\" is not a number; type the number of a move, 1 to %d", line, n);
		return -1;
	}
	if (k < 1 || k > n) {
		snprintf(why, why_size, "there is no move %ld; choose one from 1 to %d", k, n);
		return -1;
	}
	return (int)(k - 1);
}
