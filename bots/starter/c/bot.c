/*
 * A Skip-Bo bot to start from, in C, on the project's protocol library.
 *
 * The arena starts this program and talks to it over stdin/stdout, one JSON
 * object per line (protocol/PROTOCOL.md). protocol.h turns every line into C
 * structs and formats the answers, so this file has no JSON code. Anything
 * written to stdout goes to the arena: log to stderr. Build and run:
 *
 *     cmake --build build --target skipbo-starter-c
 *     skipbo-arena play build/bots/skipbo-starter-c skipbo-easy
 *
 * The policy is deliberately simple: play the stock card when you can, else
 * play any non-wild card, else discard. Make it smarter in choose().
 */
#include <stdio.h>
#include <stdlib.h>

#include "protocol.h"

#define NAME "starter-c"

/*
 * What the request gives you, in struct protocol_request (see protocol.h):
 *   req->view        struct seat_view (engine/engine.h), what you may see (R13):
 *       view.seat, view.hand[0..hand_size) (sorted, CARD_SKIPBO = 0 is the wild),
 *       view.stock_top[seat], view.stock_size[seat] for every seat,
 *       view.discard[seat][pile][0..discard_size[seat][pile]) (bottom first),
 *       view.building_value[0..3] (0 = empty; the next card is value + 1 or a wild).
 *   req->legal[0..n_legal)  every legal move: answering one of them is always right.
 *   req->move_ms, req->bank_ms  your time for this move and what is left for the game.
 */

/* The top card of one of my discard piles, or CARD_NONE if it is empty. */
static int discard_top(const struct seat_view *v, int pile)
{
	int n = v->discard_size[v->seat][pile];
	return n > 0 ? v->discard[v->seat][pile][n - 1] : CARD_NONE;
}

/* How well card sits on a discard pile: 0 best (same card or one higher below it). */
static int discard_fit(const struct seat_view *v, int card, int pile)
{
	int top = discard_top(v, pile);
	if (top == card || top == card + 1)
		return 0;
	return top == CARD_NONE ? 1 : 2;
}

/* Return the index of the chosen move in req->legal. */
static int choose(const struct protocol_request *req)
{
	const struct seat_view *v = &req->view;
	const struct move *legal = req->legal;
	int best = -1;

	/* 1. The stock card first: emptying your stock is how you win. */
	for (int i = 0; i < req->n_legal; i++)
		if (legal[i].kind == MOVE_PLAY && legal[i].source == SOURCE_STOCK)
			return i;
	/* 2. Any play that does not spend a wild (wilds are worth keeping). */
	for (int i = 0; i < req->n_legal; i++)
		if (legal[i].kind == MOVE_PLAY && legal[i].card != CARD_SKIPBO)
			return i;
	/* 3. Discard, which ends the turn: the highest non-wild card (a wild only
	 *    if nothing else is left), on the pile where it fits best. */
	for (int i = 0; i < req->n_legal; i++) {
		const struct move *m = &legal[i];
		if (m->kind != MOVE_DISCARD)
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		int card = m->card == CARD_SKIPBO ? -1 : m->card; /* wilds rank lowest */
		int best_card = legal[best].card == CARD_SKIPBO ? -1 : legal[best].card;
		if (card > best_card ||
		    (card == best_card && discard_fit(v, m->card, m->target) <
						  discard_fit(v, legal[best].card, legal[best].target)))
			best = i;
	}
	/* 4. Nothing else is left: a pass (legal only with an empty hand). */
	return best >= 0 ? best : 0;
}

int main(void)
{
	struct protocol_buf line, answer;
	struct protocol_diag diag;
	/* A parsed message holds a whole view: keep it off the stack. */
	struct protocol_message *msg = malloc(sizeof(*msg));
	int status = 0;

	if (!msg)
		return 1;
	protocol_buf_init(&line);
	protocol_buf_init(&answer);
	protocol_message_init(msg);
	/* protocol_read_line() returns PROTOCOL_EEOF when the arena closes our stdin. */
	while (protocol_read_line(stdin, &line) == 0) {
		if (protocol_parse_message(msg, line.data, line.len, &diag) < 0) {
			fprintf(stderr, NAME ": ignoring a line: %s\n", diag.message);
			continue;
		}
		int rc = 0;
		switch (msg->type) {
		case PROTOCOL_MSG_HELLO: /* the handshake: say who we are */
			rc = protocol_format_hello(&answer, NAME, "1.0", NULL);
			if (rc == 0)
				rc = protocol_write_line(stdout, &answer); /* writes '\n' and flushes */
			break;
		case PROTOCOL_MSG_GAME_START:
			fprintf(stderr, NAME ": game %s, seat %d of %d\n", msg->game_start.game,
				msg->game_start.seat, msg->game_start.players);
			break;
		case PROTOCOL_MSG_REQUEST: /* our turn: answer with one move */
			if (msg->request.n_legal == 0)
				break;
			rc = protocol_format_move(&answer, &msg->request.legal[choose(&msg->request)]);
			if (rc == 0)
				rc = protocol_write_line(stdout, &answer);
			break;
		case PROTOCOL_MSG_GAME_END:
			fprintf(stderr, NAME ": game %s over\n", msg->game_end.game);
			break;
		case PROTOCOL_MSG_QUIT:
			goto out;
		default: /* a message type new to this bot: ignore it */
			break;
		}
		if (rc < 0) { /* the arena is gone: nothing left to do */
			status = 1;
			break;
		}
	}
out:
	protocol_message_release(msg);
	free(msg);
	protocol_buf_release(&line);
	protocol_buf_release(&answer);
	return status;
}
