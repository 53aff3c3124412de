/*
 * fuzz_protocol_parse - the bot side's reading of arena lines:
 * protocol_parse_message() on any line. Properties: a refusal has its code in
 * diag, a one-line message and type PROTOCOL_MSG_UNKNOWN; an accepted message
 * holds only values in range (seats, counts, cards); and an accepted request,
 * ordinary or compact (PROTOCOL.md 4.2), that the arena's encoder can write
 * again is written back in both forms into lines that parse to the same
 * request. And whatever the request fast path (protocol_fastparse.h) accepts,
 * the strict reader accepts too, reading it to the same request.
 */
#include <string.h>

#include "engine.h"
#include "fuzz_target.h"
#include "protocol.h"
#include "protocol_fastparse.h"

static int card_ok(int c)
{
	return c == CARD_NONE || (c >= CARD_SKIPBO && c <= 12);
}

static void check_request(const struct protocol_request *r)
{
	const struct seat_view *v = &r->view;

	FUZZ_CHECK(v->players >= 2 && v->players <= ENGINE_MAX_PLAYERS);
	FUZZ_CHECK(v->seat >= 0 && v->seat < v->players && v->to_move >= 0 && v->to_move < v->players);
	FUZZ_CHECK(v->hand_size >= 0 && v->hand_size <= ENGINE_HAND_SIZE);
	FUZZ_CHECK(r->n_legal >= 0 && r->n_legal <= ENGINE_MAX_MOVES);
	for (int s = 0; s < v->players; s++) {
		FUZZ_CHECK(card_ok(v->stock_top[s]));
		for (int k = 0; k < ENGINE_DISCARD_PILES; k++)
			FUZZ_CHECK(v->discard_size[s][k] >= 0 && v->discard_size[s][k] <= ENGINE_DECK_SIZE);
	}
	for (size_t i = 0; i < r->n_events; i++) {
		FUZZ_CHECK(r->events[i].seat < v->players && card_ok(r->events[i].card));
		FUZZ_CHECK(r->events[i].kind <= EVENT_REMOVED);
	}
	for (int i = 0; i < r->n_legal; i++)
		FUZZ_CHECK(card_ok(r->legal[i].card) && r->legal[i].target < ENGINE_BUILDING_PILES);
}

/* Writes the request again as the arena would, ordinary (compact 0) or
 * compact, and reads it back. */
static void round_trip(const struct protocol_request *r, int compact)
{
	const char *fault[ENGINE_MAX_PLAYERS];
	struct protocol_request_args args = {
		.game = r->game, .turn = r->turn, .move = r->move, .move_ms = r->move_ms,
		.bank_ms = r->bank_ms, .view = &r->view, .events = r->events,
		.n_events = r->n_events, .fault = fault, .legal = r->legal, .n_legal = r->n_legal,
		.compact = compact,
	};
	struct protocol_message again;
	struct protocol_diag diag;
	struct protocol_buf line;

	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++)
		fault[s] = r->fault[s][0] ? r->fault[s] : NULL;
	protocol_buf_init(&line);
	protocol_message_init(&again);
	if (protocol_encode_request(&line, &args) == 0) {
		int rc = protocol_parse_message(&again, line.data, line.len, &diag);

		if (rc)
			fprintf(stderr, "re-encoded request refused: %s\n%s\n", diag.message, line.data);
		FUZZ_CHECK(rc == 0 && again.type == PROTOCOL_MSG_REQUEST);
		FUZZ_CHECK(again.request.compact == compact);
		FUZZ_CHECK(memcmp(&again.request.view, &r->view, sizeof(r->view)) == 0);
		FUZZ_CHECK(again.request.n_legal == r->n_legal);
		FUZZ_CHECK(memcmp(again.request.legal, r->legal, sizeof(r->legal[0]) * (size_t)r->n_legal) == 0);
	}
	protocol_message_release(&again);
	protocol_buf_release(&line);
}

/* The fast path takes only lines the strict reader reads to the same request. */
static void check_fast_path(const char *line, size_t size)
{
	struct protocol_message fast, strict;
	struct protocol_diag diag;

	protocol_message_init(&fast);
	protocol_message_init(&strict);
	if (fastparse_request(&fast, line, size) == 0) {
		int rc = strict_parse_message(&strict, line, size, &diag);

		if (rc)
			fprintf(stderr, "the fast path takes a line the strict reader refuses: %s\n",
				diag.message);
		FUZZ_CHECK(rc == 0 && strict.type == PROTOCOL_MSG_REQUEST);
		FUZZ_CHECK(request_equal(&fast.request, &strict.request));
	}
	protocol_message_release(&fast);
	protocol_message_release(&strict);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct protocol_message m;
	struct protocol_diag diag = { 0 };
	char *line = malloc(size + 1);
	int rc;

	FUZZ_CHECK(line != NULL);
	memcpy(line, data, size);
	line[size] = '\0';
	check_fast_path(line, size);
	protocol_message_init(&m);
	rc = protocol_parse_message(&m, line, size, &diag);
	if (rc) {
		FUZZ_CHECK(diag.code == rc && m.type == PROTOCOL_MSG_UNKNOWN);
		FUZZ_CHECK(diag.message[0] && !strchr(diag.message, '\n') && diag.offset <= size);
	} else if (m.type == PROTOCOL_MSG_REQUEST) {
		check_request(&m.request);
		round_trip(&m.request, 0);
		round_trip(&m.request, 1);
	} else if (m.type == PROTOCOL_MSG_GAME_START) {
		const struct protocol_game_start *gs = &m.game_start;

		FUZZ_CHECK(gs->players >= 2 && gs->players <= ENGINE_MAX_PLAYERS);
		FUZZ_CHECK(gs->seat >= 0 && gs->seat < gs->players && gs->teams >= 1);
	} else if (m.type == PROTOCOL_MSG_GAME_END) {
		FUZZ_CHECK(m.game_end.players >= 2 && m.game_end.players <= ENGINE_MAX_PLAYERS);
		FUZZ_CHECK(m.game_end.n_faults >= 0 && m.game_end.n_faults <= ENGINE_MAX_PLAYERS);
	}
	protocol_message_release(&m);
	free(line);
	return 0;
}
