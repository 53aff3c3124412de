/*
 * view.c - what one seat may see (R13). The view is filled field by field from
 * public information and the viewer's own hand only, so nothing hidden (other
 * hands, stock cards under the top, the draw pile's order) can reach it.
 */
#include <string.h>

#include "game_internal.h"

int event_for_seat(const struct event *ev, int viewer, struct event *out)
{
	*out = *ev;
	if (ev->kind == EVENT_DRAW && ev->seat != viewer)
		out->card = CARD_NONE;
	return 1;
}

void game_view(const struct game *g, int seat, struct seat_view *out)
{
	int n = g->players;

	memset(out, 0, sizeof(*out));
	out->seat = seat;
	out->players = n;
	out->partnership = g->rules.partnership;
	out->partner = g->rules.partnership ? g->partner[seat] : -1;
	out->to_move = g->to_move;
	out->turn = g->turn;
	for (int v = 0; v < GAME_CARD_VALUES; v++)
		for (int k = 0; k < g->hand[seat][v]; k++)
			out->hand[out->hand_size++] = (uint8_t)v;
	for (int s = 0; s < n; s++) {
		out->stock_size[s] = g->stock_n[s];
		out->stock_top[s] = g->stock_n[s] ? g->stock[s][g->stock_n[s] - 1] : CARD_NONE;
		out->others_hand_size[s] = g->hand_n[s];
		out->removed[s] = g->removed[s];
		for (int d = 0; d < ENGINE_DISCARD_PILES; d++) {
			out->discard_size[s][d] = g->discard_n[s][d];
			memcpy(out->discard[s][d], g->discard[s][d], g->discard_n[s][d]);
		}
	}
	for (int s = n; s < ENGINE_MAX_PLAYERS; s++)
		out->stock_top[s] = CARD_NONE;
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
		out->building_value[p] = g->building_value[p];
		out->building_size[p] = g->building_n[p];
	}
	out->draw_size = g->draw_n;
	out->completed_size = g->completed_n;
}
