/*
 * gen_transcript - plays whole games in one process, the arena's side and the
 * bots' side each speaking through the protocol library, and prints every
 * line that would cross a pipe.
 *
 *   gen_transcript [SEED [STOCK]]  the PROTOCOL.md transcript: 2 players,
 *                                  both bots answer legal[0]
 *   gen_transcript --traffic N     N varied games (2-6 players, partnership,
 *                                  random answers, some with "card" left out,
 *                                  simulated faults) as "arena\t<line>" and
 *                                  "bot\t<line>", for the schema test; the
 *                                  odd seats ask for compact requests
 *   gen_transcript --forfeit       the game_end of PROTOCOL.md's forfeit example:
 *                                  4 players in partnership, seat 1 times out,
 *                                  later seat 3 answers an illegal move
 *
 * Time is not measured: requests carry the full move_ms and bank_ms.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "protocol.h"

/* The PROTOCOL.md transcript: a game short enough to read, long enough to
 * show both seats, discards, draws and a completed building pile or two. */
#define TRANSCRIPT_SEED 78
#define TRANSCRIPT_STOCK 2
#define MOVE_MS 1000
#define GAME_MS 60000
/* The forfeit example: its deal, and the decisions at which seats 1 and 3 fail. */
#define FORFEIT_SEED 2
#define FORFEIT_TIMEOUT_MOVE 120
#define FORFEIT_ILLEGAL_MOVE 260

/* A fault a bot commits at its first decision from move number at_move on. */
struct planned_fault {
	int seat;
	uint32_t at_move;
	int illegal; /* 1: answers an illegal move; 0: times out */
};

struct session {
	int traffic;                     /* output format: 1 = TSV for the schema test */
	int quiet;                       /* print nothing (the forfeit example) */
	const struct planned_fault *plan;/* faults to commit, n_plan of them */
	int n_plan;
	struct protocol_game_end end;    /* the last game's game_end */
	struct rng rng;                  /* the bots' random choices and faults */
	struct protocol_buf line;
	struct protocol_message bot[ENGINE_MAX_PLAYERS];
	int compact[ENGINE_MAX_PLAYERS];  /* the seat's hello asked for compact requests */
	char game[PROTOCOL_ID_MAX];
};

static void emit(struct session *s, int to_bot, int seat, const struct protocol_buf *b)
{
	if (s->quiet)
		return;
	if (s->traffic)
		printf("%s\t%s\n", to_bot ? "arena" : "bot", b->data);
	else if (to_bot)
		printf("arena -> %d  %s\n", seat, b->data);
	else
		printf("%d -> arena  %s\n", seat, b->data);
}

/* The bot's side reads what the arena wrote; anything but success is a bug. */
static void bot_receive(struct session *s, int seat, int want_type)
{
	struct protocol_diag diag = { 0 };
	int rc;

	emit(s, 1, seat, &s->line);
	rc = protocol_parse_message(&s->bot[seat], s->line.data, s->line.len, &diag);
	if (rc || s->bot[seat].type != want_type)
		errx(1, "seat %d cannot parse %s: %s", seat, s->line.data, diag.message);
}

static void handshake(struct session *s, int players, char names[][PROTOCOL_NAME_MAX])
{
	struct protocol_bot_hello hello;
	struct protocol_diag diag = { 0 };

	for (int seat = 0; seat < players; seat++) {
		if (protocol_encode_hello(&s->line, "skipbo-arena 0.1.0"))
			errx(1, "cannot encode hello");
		bot_receive(s, seat, PROTOCOL_MSG_HELLO);
		snprintf(names[seat], PROTOCOL_NAME_MAX, "first-legal-%d", seat);
		if (protocol_format_hello_features(&s->line, names[seat], "1.0", NULL,
						   s->traffic && seat % 2 ? PROTOCOL_FEATURE_COMPACT_LEGAL : 0))
			errx(1, "cannot format hello");
		emit(s, 0, seat, &s->line);
		if (protocol_decode_hello(s->line.data, s->line.len, &hello, &diag))
			errx(1, "cannot decode hello: %s", diag.message);
		s->compact[seat] = (hello.features & PROTOCOL_FEATURE_COMPACT_LEGAL) != 0;
	}
}

/* The bot's answer: legal[0], or in traffic mode a random legal move,
 * sometimes written without its optional "card". */
static void bot_answer(struct session *s, int seat)
{
	const struct protocol_request *req = &s->bot[seat].request;
	struct move m = req->legal[0];
	char *card;

	if (s->traffic)
		m = req->legal[rng_below(&s->rng, (uint64_t)req->n_legal)];
	if (protocol_format_move(&s->line, &m))
		errx(1, "cannot format a move");
	if (s->traffic && m.kind == MOVE_PLAY && m.source != SOURCE_HAND && rng_below(&s->rng, 2) &&
	    (card = strstr(s->line.data, ",\"card\":"))) {
		char *end = strchr(card + 1, ',');

		memmove(card, end, strlen(end) + 1);
		s->line.len = strlen(s->line.data);
	}
	emit(s, 0, seat, &s->line);
}

/* Whether seat is due to commit its planned fault of that kind at decision
 * number move. Once committed the seat is removed and asked nothing more. */
static int planned(const struct session *s, int seat, uint32_t move, int illegal)
{
	for (int i = 0; i < s->n_plan; i++)
		if (s->plan[i].seat == seat && s->plan[i].illegal == illegal && move >= s->plan[i].at_move)
			return 1;
	return 0;
}

static int planned_timeout(const struct session *s, int seat, uint32_t move)
{
	return planned(s, seat, move, 0);
}

/* When seat is due to answer an illegal move, writes one into s->line: the
 * first hand card onto a building pile that does not take it (R4). */
static int planned_illegal(struct session *s, int seat, uint32_t move, const struct seat_view *v)
{
	if (!planned(s, seat, move, 1))
		return 0;
	for (int i = 0; i < v->hand_size; i++) {
		for (int p = 0; p < ENGINE_BUILDING_PILES; p++) {
			struct move m = { .kind = MOVE_PLAY, .source = SOURCE_HAND, .owner = (uint8_t)seat,
					  .card = v->hand[i], .target = (uint8_t)p };

			if (m.card == CARD_SKIPBO || m.card == v->building_value[p] + 1)
				continue;
			if (protocol_format_move(&s->line, &m))
				errx(1, "cannot format a move");
			emit(s, 0, seat, &s->line);
			return 1;
		}
	}
	return 0;
}

static void play_game(struct session *s, const struct game_rules *rules, int faults_allowed)
{
	char names[ENGINE_MAX_PLAYERS][PROTOCOL_NAME_MAX];
	struct protocol_game_start gs = { 0 };
	struct protocol_game_end ge = { 0 };
	struct protocol_request_args req = { 0 };
	const char *fault_kind[ENGINE_MAX_PLAYERS] = { 0 };
	size_t since[ENGINE_MAX_PLAYERS] = { 0 };
	struct move legal[ENGINE_MAX_MOVES];
	struct seat_view view;
	struct game_result so_far;
	struct protocol_diag diag;
	struct move chosen;
	int players = rules->players, err = 0;
	struct game *g = game_new(rules, &err);

	if (!g)
		errx(1, "cannot start a game: %s", engine_strerror(err));
	handshake(s, players, names);
	gs.players = players;
	gs.partnership = rules->partnership;
	gs.stock_size = game_rules(g)->stock_size;
	gs.move_ms = MOVE_MS;
	gs.game_ms = GAME_MS;
	strlcpy(gs.game, s->game, sizeof(gs.game));
	memcpy(gs.names, names, sizeof(gs.names));
	for (int seat = 0; seat < players; seat++) {
		gs.seat = seat;
		if (protocol_encode_game_start(&s->line, &gs))
			errx(1, "cannot encode game_start");
		bot_receive(s, seat, PROTOCOL_MSG_GAME_START);
	}
	while (game_status(g) == GAME_RUNNING) {
		int seat = game_to_move(g);
		size_t count;
		const struct event *events = game_events(g, &count);

		game_view(g, seat, &view);
		game_result(g, &so_far);
		/* Now and then a bot times out (R11), to show "removed" and faults. */
		if ((faults_allowed && ge.n_faults == 0 && rng_below(&s->rng, 150) == 0) ||
		    planned_timeout(s, seat, so_far.moves + 1)) {
			struct protocol_fault *f = &ge.faults[ge.n_faults++];

			f->seat = seat;
			strlcpy(f->kind, "timeout", sizeof(f->kind));
			snprintf(f->reason, sizeof(f->reason), "no answer within %d ms", MOVE_MS);
			fault_kind[seat] = "timeout";
			if (game_remove_seat(g, seat))
				errx(1, "cannot remove seat %d", seat);
			continue;
		}
		req.game = s->game;
		req.turn = view.turn;
		req.move = so_far.moves + 1;
		req.move_ms = MOVE_MS;
		req.bank_ms = GAME_MS;
		req.view = &view;
		req.events = events + since[seat];
		req.n_events = count - since[seat];
		req.fault = fault_kind;
		req.legal = legal;
		req.n_legal = game_legal_moves(g, legal);
		req.compact = s->compact[seat];
		since[seat] = count;
		if (protocol_encode_request(&s->line, &req))
			errx(1, "cannot encode a request");
		bot_receive(s, seat, PROTOCOL_MSG_REQUEST);
		/* Either form of request gives the bot the arena's own list. */
		if (s->bot[seat].request.n_legal != req.n_legal ||
		    memcmp(s->bot[seat].request.legal, legal, (size_t)req.n_legal * sizeof(legal[0])))
			errx(1, "seat %d reads other legal moves than the arena's from %s", seat,
			     s->line.data);
		if (planned_illegal(s, seat, req.move, &view)) {
			struct protocol_fault *f = &ge.faults[ge.n_faults++];
			int rc = protocol_decode_move(s->line.data, s->line.len, legal, req.n_legal, g,
						      &chosen, &diag);

			if (rc != PROTOCOL_EILLEGAL)
				errx(1, "the planned illegal answer is not illegal: %s", s->line.data);
			f->seat = seat;
			strlcpy(f->kind, protocol_fault_kind(rc), sizeof(f->kind));
			strlcpy(f->reason, diag.message, sizeof(f->reason));
			fault_kind[seat] = f->kind;
			if (game_remove_seat(g, seat))
				errx(1, "cannot remove seat %d", seat);
			continue;
		}
		bot_answer(s, seat);
		if (protocol_decode_move(s->line.data, s->line.len, legal, req.n_legal, g, &chosen, &diag))
			errx(1, "cannot decode %s: %s", s->line.data, diag.message);
		if (game_apply(g, &chosen))
			errx(1, "the engine refuses a legal move");
	}
	strlcpy(ge.game, s->game, sizeof(ge.game));
	ge.players = players;
	game_result(g, &ge.result);
	s->end = ge;
	for (int seat = 0; seat < players; seat++) {
		if (fault_kind[seat])
			continue; /* the arena has stopped a faulted bot */
		if (protocol_encode_game_end(&s->line, &ge))
			errx(1, "cannot encode game_end");
		bot_receive(s, seat, PROTOCOL_MSG_GAME_END);
		if (protocol_encode_quit(&s->line))
			errx(1, "cannot encode quit");
		bot_receive(s, seat, PROTOCOL_MSG_QUIT);
	}
	game_free(g);
}

int main(int argc, char **argv)
{
	struct session s = { 0 };
	struct game_rules rules = { .players = 2, .stock_size = TRANSCRIPT_STOCK,
				    .seed = TRANSCRIPT_SEED };
	static const struct planned_fault forfeit_plan[] = {
		{ .seat = 1, .at_move = FORFEIT_TIMEOUT_MOVE, .illegal = 0 },
		{ .seat = 3, .at_move = FORFEIT_ILLEGAL_MOVE, .illegal = 1 },
	};
	long games = 0;

	if (argc == 3 && strcmp(argv[1], "--traffic") == 0) {
		games = strtol(argv[2], NULL, 10);
		s.traffic = 1;
	} else if ((argc == 2 || argc == 3) && strcmp(argv[1], "--forfeit") == 0) {
		rules = (struct game_rules){ .players = 4, .partnership = 1, .seed = FORFEIT_SEED };
		if (argc == 3)
			rules.seed = strtoull(argv[2], NULL, 10);
		s.quiet = 1;
		s.plan = forfeit_plan;
		s.n_plan = 2;
	} else if (argc <= 3 && (argc < 2 || argv[1][0] != '-')) {
		if (argc >= 2)
			rules.seed = strtoull(argv[1], NULL, 10);
		if (argc == 3)
			rules.stock_size = (int)strtol(argv[2], NULL, 10);
	} else {
		errx(2, "usage: gen_transcript [SEED [STOCK]] | --traffic GAMES | --forfeit [SEED]");
	}
	protocol_buf_init(&s.line);
	for (int i = 0; i < ENGINE_MAX_PLAYERS; i++)
		protocol_message_init(&s.bot[i]);
	rng_seed(&s.rng, 2026);
	if (s.quiet) {
		strlcpy(s.game, "g000042", sizeof(s.game));
		play_game(&s, &rules, 0);
		if (s.end.result.reason != END_FORFEIT || protocol_encode_game_end(&s.line, &s.end))
			errx(1, "the forfeit example did not end by forfeit");
		printf("%s\n", s.line.data);
	} else if (!s.traffic) {
		strlcpy(s.game, "g000001", sizeof(s.game));
		play_game(&s, &rules, 0);
	}
	for (long i = 0; i < games; i++) {
		static const int player_counts[] = { 2, 3, 4, 4, 5, 6, 6 };
		int n = player_counts[i % 7];
		struct game_rules varied = {
			.players = n,
			.stock_size = 1 + (int)rng_below(&s.rng, 4),
			.partnership = (n == 4 || n == 6) && i % 7 != 2,
			.dealer = (int)rng_below(&s.rng, (uint64_t)n),
			.seed = rng_next(&s.rng),
		};

		snprintf(s.game, sizeof(s.game), "g%06ld", i + 1);
		play_game(&s, &varied, 1);
	}
	for (int i = 0; i < ENGINE_MAX_PLAYERS; i++)
		protocol_message_release(&s.bot[i]);
	protocol_buf_release(&s.line);
	return 0;
}
