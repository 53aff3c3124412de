/*
 * render.c - the table in text (contract in render.h).
 */
#include "render.h"

#include <inttypes.h>
#include <string.h>

#include "termsafe.h"

static const char *card_name(int card, char *buf)
{
	if (card == CARD_SKIPBO)
		return "SB";
	if (card == CARD_NONE)
		return "-";
	snprintf(buf, 4, "%d", card);
	return buf;
}

void render_legend(FILE *out)
{
	fputs("    (building and discard piles 0-3 from the left, as in the protocol; each "
	      "discard pile [bottom .. top])\n", out);
}

void render_table(struct render *r, const struct game *g)
{
	struct seat_view v;
	int seat = game_to_move(g);
	char b[4];

	if (seat < 0)
		return;
	game_view(g, seat, &v);
	fprintf(r->out, "--- turn %" PRIu32 ": seat %d (%s) to move; draw pile %d, completed %d\n",
		v.turn, seat, r->names[seat], v.draw_size, v.completed_size);
	fprintf(r->out, "    building:");
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
		fprintf(r->out, " [%s]", v.building_value[p] ? card_name(v.building_value[p], b) : " ");
	fputc('\n', r->out);
	for (int s = 0; s < v.players; s++) {
		fprintf(r->out, "    seat %d %-12s stock %2d top %-2s  discards", s, r->names[s],
			v.stock_size[s], card_name(v.stock_top[s], b));
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			fputs(" [", r->out);
			for (int k = 0; k < v.discard_size[s][p]; k++)
				fprintf(r->out, k ? " %s" : "%s", card_name(v.discard[s][p][k], b));
			fputc(']', r->out);
		}
		if (v.removed[s])
			fputs("  removed", r->out);
		else if (s == seat) {
			fputs("  hand:", r->out);
			for (int k = 0; k < v.hand_size; k++)
				fprintf(r->out, " %s", card_name(v.hand[k], b));
		} else {
			fprintf(r->out, "  hand %d", v.others_hand_size[s]);
		}
		fputc('\n', r->out);
	}
	r->last_turn = v.turn;
}

static void describe_move(FILE *out, const struct move *m)
{
	static const char *const from[] = { "", "hand", "stock", "discard" };
	char b[4];

	if (m->kind == MOVE_PASS) {
		fputs("passes", out);
	} else if (m->kind == MOVE_DISCARD) {
		fprintf(out, "discards %s on pile %d", card_name(m->card, b), m->target);
	} else {
		fprintf(out, "plays %s from %s", card_name(m->card, b),
			m->source <= 3 ? from[m->source] : "?");
		if (m->source != SOURCE_HAND)
			fprintf(out, " of seat %d", m->owner);
		if (m->source == SOURCE_DISCARD)
			fprintf(out, " pile %d", m->pile);
		fprintf(out, " to building %d", m->target);
	}
}

static void on_game_start(void *ctx, int game, const struct game *g)
{
	struct render *r = ctx;

	fprintf(r->out, "=== game %d\n", game);
	render_legend(r->out);
	r->last_turn = 0;
	render_table(r, g);
}

void render_move(struct render *r, int seat, const struct move *m, int64_t elapsed_us)
{
	fprintf(r->out, "    seat %d (%s) ", seat, r->names[seat]);
	describe_move(r->out, m);
	fprintf(r->out, "  [%" PRId64 " us]\n", elapsed_us);
}

static void on_move(void *ctx, int seat, const struct move *m, int64_t elapsed_us,
		    const struct game *g)
{
	struct render *r = ctx;
	struct seat_view v;

	render_move(r, seat, m, elapsed_us);
	if (game_to_move(g) < 0)
		return;
	game_view(g, game_to_move(g), &v);
	if (v.turn != r->last_turn)
		render_table(r, g);
}

static void on_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	struct render *r = ctx;

	fprintf(r->out, "    seat %d (%s) removed: %s: ", f->seat, r->names[f->seat],
		protocol_fault_kind_names[f->kind]);
	termsafe_puts(r->out, f->reason);
	if (f->line[0]) {
		fputs("\n      its line: ", r->out);
		termsafe_puts(r->out, f->line);
	}
	fputc('\n', r->out);
	if (game_to_move(g) >= 0)
		render_table(r, g);
}

static void on_game_end(void *ctx, int game, const struct game *g)
{
	struct render *r = ctx;
	struct game_result res;

	game_result(g, &res);
	fprintf(r->out, "=== game %d over: %s after %" PRIu32 " turns;", game,
		end_reason_name(res.reason), res.turns);
	for (int s = 0; s < game_rules(g)->players; s++)
		fprintf(r->out, " %s %d", r->names[s], res.score[s]);
	fputc('\n', r->out);
}

void render_init(struct render *r, FILE *out, const char *const *names, int players)
{
	memset(r, 0, sizeof(*r));
	r->out = out;
	for (int s = 0; s < players && s < ENGINE_MAX_PLAYERS; s++)
		r->names[s] = names[s];
	r->observer.ctx = r;
	r->observer.game_start = on_game_start;
	r->observer.move = on_move;
	r->observer.fault = on_fault;
	r->observer.game_end = on_game_end;
}
