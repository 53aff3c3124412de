/*
 * fuzz_protocol_decode - the arena's reading of a bot's answers:
 * protocol_decode_hello() and protocol_decode_move() on any line.
 *
 * Input: one selector byte, then the line. Selector bit 0: a hello, else a
 * move; bits 1-2: the position the move is checked against (2 players, 4 in
 * partnership, 6 players, each some moves into a game); bit 3: without the
 * game, so that only the legal list judges. Properties: a move accepted is an
 * element of the legal list; a refusal is a bot's fault (malformed, protocol
 * or illegal) with its code in diag and a one-line message.
 */
#include <string.h>

#include "engine.h"
#include "fuzz_target.h"
#include "protocol.h"

struct position {
	struct game *game;
	struct move legal[ENGINE_MAX_MOVES];
	int n_legal;
};

/* A game of rules, advanced by plays of varied legal moves (read-only after). */
static void setup(struct position *p, int players, int partnership, int moves)
{
	struct game_rules rules = { .players = players, .partnership = partnership, .seed = 7 };
	int err;

	p->game = game_new(&rules, &err);
	FUZZ_CHECK(p->game != NULL);
	for (int i = 0; i < moves && game_status(p->game) == GAME_RUNNING; i++) {
		p->n_legal = game_legal_moves(p->game, p->legal);
		FUZZ_CHECK(game_apply(p->game, &p->legal[(i * 7) % p->n_legal]) == 0);
	}
	p->n_legal = game_legal_moves(p->game, p->legal);
}

static const struct position *position(int which)
{
	static struct position positions[4];
	static const int players[4] = { 2, 4, 6, 3 };
	struct position *p = &positions[which];

	if (!p->game)
		setup(p, players[which], which == 1, 40 + 25 * which);
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct protocol_diag diag = { 0 };
	struct protocol_bot_hello hello;
	const struct position *p;
	struct move out;
	char *line;
	size_t len;
	int rc, selector;

	if (size == 0)
		return 0;
	selector = data[0];
	len = size - 1;
	/* The decoders want line[len] == '\0', as bot_read_line() delivers it. */
	line = malloc(len + 1);
	FUZZ_CHECK(line != NULL);
	memcpy(line, data + 1, len);
	line[len] = '\0';
	if (selector & 1) {
		rc = protocol_decode_hello(line, len, &hello, &diag);
		FUZZ_CHECK(rc != 0 || (hello.protocol == PROTOCOL_VERSION && hello.name[0]));
	} else {
		p = position((selector >> 1) & 3);
		rc = protocol_decode_move(line, len, p->legal, p->n_legal,
					  selector & 8 ? NULL : p->game, &out, &diag);
		if (rc == 0) {
			int found = 0;

			for (int i = 0; i < p->n_legal; i++)
				found |= memcmp(&out, &p->legal[i], sizeof(out)) == 0;
			FUZZ_CHECK(found);
		}
	}
	if (rc) {
		FUZZ_CHECK(diag.code == rc && protocol_fault_kind(rc) != NULL);
		FUZZ_CHECK(diag.message[0] && !strchr(diag.message, '\n'));
		FUZZ_CHECK(diag.offset <= len);
	}
	free(line);
	return 0;
}
