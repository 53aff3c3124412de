/*
 * render.c - the table as text and the person's commands (see render.h).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render.h"

#define SHOW_DISCARDS 3 /* top cards shown per discard pile */
#define WIDTH 79        /* the longest line written, for an 80-column terminal */

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
	if (seat == v->seat)
		return "you";
	if (seat >= 0 && seat < g->players && g->names[seat][0])
		return g->names[seat];
	return "?";
}

void render_command(const struct move *m, const struct seat_view *v, char *buf, size_t size)
{
	char c[4];
	const char *p = m->owner != v->seat ? "p" : ""; /* the partner's piles (R10) */
	if (m->kind == MOVE_PASS)
		snprintf(buf, size, "pass");
	else if (m->kind == MOVE_DISCARD)
		snprintf(buf, size, "d %s %d", render_card(m->card, c), m->target);
	else if (m->source == SOURCE_STOCK)
		snprintf(buf, size, "%ss %d", p, m->target);
	else if (m->source == SOURCE_DISCARD)
		snprintf(buf, size, "%sp %d %d", p, m->pile, m->target);
	else
		snprintf(buf, size, "h %s %d", render_card(m->card, c), m->target);
}

/* Append to a line of at most WIDTH characters; a part that does not fit
 * ends the line on out and starts the next, indented. */
static void add(FILE *out, char *line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(FILE *out, char *line, const char *fmt, ...)
{
	char part[WIDTH + 1];
	size_t n = strlen(line);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(part, sizeof(part), fmt, ap);
	va_end(ap);
	if (n + strlen(part) > WIDTH && n > 0) {
		fprintf(out, "%s\n", line);
		/* the part's own leading space becomes part of the indent */
		strcpy(line, "   ");
		n = 3;
		if (part[0] == ' ')
			memmove(part, part + 1, strlen(part));
	}
	strlcpy(line + n, part, WIDTH + 1 - n);
}

/* One line per turn of another seat since the player's last request: its
 * plays, its discard, its new stock top. The player's own moves are not
 * repeated, only the cards it drew. */
static void render_events(FILE *out, const struct protocol_request *req, const struct render_game *g)
{
	const struct seat_view *v = &req->view;
	char line[WIDTH + 1] = "", c[4], d[4];
	for (size_t i = 0; i < req->n_events; i++) {
		const struct event *e = &req->events[i];
		if (e->kind == EVENT_TURN) {
			if (line[0])
				fprintf(out, "%s\n", line);
			line[0] = '\0';
			if (e->seat != v->seat)
				add(out, line, "%s:", seat_name(g, v, e->seat));
			continue;
		}
		if (e->kind == EVENT_DRAW && e->seat == v->seat && e->card != CARD_NONE) {
			if (!strstr(line, "you drew"))
				add(out, line, "%syou drew", line[0] ? "; " : "");
			add(out, line, " %s", render_card(e->card, c));
			continue;
		}
		if (e->kind == EVENT_REFILL || e->kind == EVENT_REMOVED) {
			if (e->kind == EVENT_REMOVED)
				add(out, line, " %s removed (%s);", seat_name(g, v, e->seat),
				    req->fault[e->seat][0] ? req->fault[e->seat] : "fault");
			else
				add(out, line, " draw pile refilled;");
			continue;
		}
		if (e->seat == v->seat || !line[0])
			continue;
		const char *from = e->source == SOURCE_STOCK ? "stock" : e->source == SOURCE_DISCARD ? "disc" : "hand";
		switch (e->kind) {
		case EVENT_PLAY:
			add(out, line, " %s%s", render_card(e->card, c), e->owner != e->seat ? "(partner's)" : "");
			if (e->card == CARD_SKIPBO)
				add(out, line, "=%d", e->value);
			add(out, line, " %s>%d,", from, e->target);
			break;
		case EVENT_STOCK_TOP:
			if (e->card == CARD_NONE)
				add(out, line, " stock EMPTY,");
			else
				add(out, line, " stock now %s,", render_card(e->card, d));
			break;
		case EVENT_COMPLETE:
			add(out, line, " pile %d done,", e->target);
			break;
		case EVENT_DISCARD:
			add(out, line, " discarded %s on %d", render_card(e->card, c), e->target);
			break;
		case EVENT_PASS:
			add(out, line, " passed");
			break;
		default:
			break;
		}
	}
	if (line[0])
		fprintf(out, "%s\n", line);
}

static void render_pile(char *buf, const struct seat_view *v, int seat, int p)
{
	char c[4];
	int n = v->discard_size[seat][p];
	int from = n > SHOW_DISCARDS ? n - SHOW_DISCARDS : 0;
	strcpy(buf, n == 0 ? "-" : from > 0 ? ".." : "");
	for (int i = from; i < n; i++) {
		strcat(buf, render_card(v->discard[seat][p][i], c));
		if (i + 1 < n)
			strcat(buf, " ");
	}
}

void render_request(FILE *out, const struct protocol_request *req, struct render_game *g)
{
	const struct seat_view *v = &req->view;
	char c[4], pile[16];

	fprintf(out, "\033[H\033[2J"); /* clear the screen: the board starts at the top */
	fprintf(out, "Skip-Bo %-.20s, turn %u%*sdraw pile %d, completed %d\n", req->game, (unsigned)req->turn,
		10, "", v->draw_size, v->completed_size);
	render_events(out, req, g);
	fprintf(out, "Building piles:");
	for (int b = 0; b < ENGINE_BUILDING_PILES; b++)
		fprintf(out, "   %d: %-5s", b, v->building_value[b] ? render_card((unsigned)v->building_value[b], c) : "empty");
	fprintf(out, "\n  %-13s stock left hand  discard piles 0 to 3, each bottom to top\n", "player");
	for (int s = 0; s < v->players; s++) {
		char mark = s == v->seat ? '*' : v->partnership && s == v->partner ? '+' : ' ';
		fprintf(out, "%c %-13.13s %-5s %4d %4d ", mark, seat_name(g, v, s),
			v->stock_size[s] > 0 ? render_card(v->stock_top[s], c) : "-", v->stock_size[s],
			v->others_hand_size[s]);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			render_pile(pile, v, s, p);
			fprintf(out, "  %-9s", pile);
		}
		fprintf(out, "%s\n", v->removed[s] ? " out" : "");
		g->stock_seen[s] = v->stock_size[s];
	}
	fprintf(out, "Your hand:");
	for (int i = 0; i < v->hand_size; i++)
		fprintf(out, " %s", render_card(v->hand[i], c));
	fprintf(out, "%s\n", v->hand_size ? "" : " (empty)");
}

void render_list(FILE *out, const struct protocol_request *req)
{
	char cmd[16];
	for (int i = 0; i < req->n_legal; i++) {
		render_command(&req->legal[i], &req->view, cmd, sizeof(cmd));
		fprintf(out, "%3d) %-8s%s", i + 1, cmd, i % 6 == 5 || i + 1 == req->n_legal ? "\n" : "");
	}
}

void render_help(FILE *out, const struct seat_view *v)
{
	fprintf(out, "Piles are numbered 0 to 3 as in the protocol; discard piles list bottom to top.\n"
		     "s 2      your stock card onto building pile 2\n"
		     "h 7 1    the 7 from your hand onto building pile 1 (h sb 1: a SKIP-BO)\n"
		     "p 3 1    the top of your discard pile 3 onto building pile 1\n"
		     "d 9 3    discard the 9 on your discard pile 3 (ends your turn)\n");
	if (v->partnership)
		fprintf(out, "ps 2, pp 3 1   the same from your partner's stock or discard pile\n");
	fprintf(out, "l        list the moves you have, numbered; then type a number\n"
		     "q        resign (asks first)         ?  this help\n");
}

void render_game_end(FILE *out, const struct protocol_game_end *ge, const struct render_game *g)
{
	const struct game_result *r = &ge->result;
	int any = 0;
	/* The game's last turns come with no request: tell them from the stocks. */
	for (int s = 0; s < ge->players && s < ENGINE_MAX_PLAYERS; s++) {
		int played = g->stock_seen[s] - r->stock_left[s];
		if (played > 0 && s != g->seat)
			fprintf(out, "%s played %d stock card%s since your last move%s\n", g->names[s], played,
				played > 1 ? "s" : "", r->stock_left[s] == 0 ? ", emptying the stock" : "");
	}
	fprintf(out, "*** Game over (%s): ", end_reason_name(r->reason));
	for (int s = 0; s < ge->players && s < ENGINE_MAX_PLAYERS; s++)
		if (r->winners[s]) {
			fprintf(out, "%s%s", any ? " and " : "", g->names[s][0] ? g->names[s] : "?");
			any = 1;
		}
	fprintf(out, "%s ***\n", any ? " won" : "nobody won");
	for (int s = 0; s < ge->players && s < ENGINE_MAX_PLAYERS; s++)
		fprintf(out, "  %-16.16s placing %d, %d stock cards left, %d points\n", g->names[s], r->placing[s],
			r->stock_left[s], r->score[s]);
}

/* A card as typed: 1-12, or sb / w / 0 for the wild. -1 if not a card. */
static int parse_card(const char *t)
{
	if (!strcasecmp(t, "sb") || !strcasecmp(t, "w") || !strcmp(t, "0"))
		return CARD_SKIPBO;
	char *end;
	long k = strtol(t, &end, 10);
	return *t && !*end && k >= 1 && k <= 12 ? (int)k : -1;
}

static int parse_pile(const char *t)
{
	return t && t[0] >= '0' && t[0] <= '3' && !t[1] ? t[0] - '0' : -1;
}

static int in_hand(const struct seat_view *v, int card)
{
	for (int i = 0; i < v->hand_size; i++)
		if (v->hand[i] == card)
			return 1;
	return 0;
}

/* Why card cannot go on building pile b, or "" if it can. */
static void building_reason(const struct seat_view *v, int card, int b, char *why, size_t size)
{
	int val = v->building_value[b];
	char c[4];
	if (building_pile_accepts(val, card))
		snprintf(why, size, "that move is not allowed now");
	else if (val == 0)
		snprintf(why, size, "building pile %d is empty: it takes a 1 or SB, not %s", b, render_card((unsigned)card, c));
	else
		snprintf(why, size, "building pile %d is at %d: it takes a %d or SB, not %s", b, val, val + 1,
			 render_card((unsigned)card, c));
}

int render_parse_command(const char *line, const struct protocol_request *req, char *why, size_t why_size)
{
	const struct seat_view *v = &req->view;
	char buf[64], *tok[4] = { 0 };
	int n = 0;
	strlcpy(buf, line, sizeof(buf));
	for (char *save = NULL, *t = strtok_r(buf, " \t", &save); t && n < 4; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	if (n == 0) {
		snprintf(why, why_size, "type a move, ? for help");
		return -1;
	}
	if (isdigit((unsigned char)tok[0][0]) && n == 1) {
		char *end;
		long k = strtol(tok[0], &end, 10);
		if (*end || k < 1 || k > req->n_legal) {
			snprintf(why, why_size, "there is no move %.8s in the list (1 to %d; l shows it)", tok[0], req->n_legal);
			return -1;
		}
		return (int)k - 1;
	}
	struct move m = { .owner = (uint8_t)v->seat };
	int card = -1, a = -1, b = -1, partner = tok[0][0] == 'p' && (tok[0][1] == 's' || tok[0][1] == 'p');
	const char *cmd = tok[0] + partner;
	if (!strcmp(tok[0], "pass") && n == 1) {
		m.kind = MOVE_PASS;
	} else if (!strcmp(cmd, "s") && n == 2 && (b = parse_pile(tok[1])) >= 0) {
		m.kind = MOVE_PLAY, m.source = SOURCE_STOCK, m.target = (uint8_t)b;
	} else if (!strcmp(cmd, "p") && n == 3 && (a = parse_pile(tok[1])) >= 0 && (b = parse_pile(tok[2])) >= 0) {
		m.kind = MOVE_PLAY, m.source = SOURCE_DISCARD, m.pile = (uint8_t)a, m.target = (uint8_t)b;
	} else if (!partner && (!strcmp(cmd, "h") || !strcmp(cmd, "d")) && n == 3 && (card = parse_card(tok[1])) >= 0 &&
		   (b = parse_pile(tok[2])) >= 0) {
		m.kind = cmd[0] == 'h' ? MOVE_PLAY : MOVE_DISCARD, m.source = SOURCE_HAND;
		m.card = (uint8_t)card, m.target = (uint8_t)b;
	} else {
		snprintf(why, why_size, "\"%.20s\" is not a move I know: piles are 0 to 3; ? for help", line);
		return -1;
	}
	if (partner) {
		if (!v->partnership) {
			snprintf(why, why_size, "you have no partner in this game");
			return -1;
		}
		m.owner = (uint8_t)v->partner;
	}
	for (int i = 0; i < req->n_legal; i++) {
		const struct move *l = &req->legal[i];
		if (l->kind == m.kind && (m.kind == MOVE_PASS ||
					  (l->target == m.target && (m.kind == MOVE_DISCARD || l->source == m.source) &&
					   (m.source == SOURCE_HAND ? l->card == m.card : l->owner == m.owner) &&
					   (m.source != SOURCE_DISCARD || l->pile == m.pile))))
			return i;
	}
	/* Not legal: say why, as the person sees the table. */
	char c[4];
	int owner = m.owner, top = -1;
	if (m.kind == MOVE_PASS)
		snprintf(why, why_size, "you may pass only with an empty hand and nothing left to draw");
	else if (m.source == SOURCE_HAND && !in_hand(v, m.card))
		snprintf(why, why_size, "you have no %s in your hand", render_card(m.card, c));
	else if (m.kind == MOVE_DISCARD)
		snprintf(why, why_size, "you may not discard now");
	else if (m.source == SOURCE_HAND)
		building_reason(v, m.card, m.target, why, why_size);
	else if (m.source == SOURCE_STOCK && (top = v->stock_size[owner] > 0 ? v->stock_top[owner] : -1) < 0)
		snprintf(why, why_size, "%s stock is empty", partner ? "your partner's" : "your");
	else if (m.source == SOURCE_DISCARD &&
		 (top = v->discard_size[owner][m.pile] ? v->discard[owner][m.pile][v->discard_size[owner][m.pile] - 1] : -1) < 0)
		snprintf(why, why_size, "%s discard pile %d is empty", partner ? "your partner's" : "your", m.pile);
	else
		building_reason(v, top, m.target, why, why_size);
	return -1;
}
