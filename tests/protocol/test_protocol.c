/*
 * test_protocol - round trips of every message through the library: what the
 * arena encodes, the bot's side parses back to the same data, and what a bot
 * formats, the arena decodes back to the same move. Positions come from real
 * games played by the engine.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "protocol.h"

struct ctx {
	struct protocol_buf line;
	struct protocol_message msg;
	struct protocol_diag diag;
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	protocol_buf_init(&c->line);
	protocol_message_init(&c->msg);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	protocol_buf_release(&c->line);
	protocol_message_release(&c->msg);
	free(c);
	return 0;
}

static void parse_ok(struct ctx *c, int want_type)
{
	int rc = protocol_parse_message(&c->msg, c->line.data, c->line.len, &c->diag);

	if (rc)
		fail_msg("cannot parse %s: %s", c->line.data, c->diag.message);
	assert_int_equal(c->msg.type, want_type);
}

static void test_arena_hello(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(protocol_encode_hello(&c->line, "skipbo-arena 0.1.0"), 0);
	assert_string_equal(c->line.data, "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"skipbo-arena 0.1.0\"}");
	assert_int_equal(c->line.len, strlen(c->line.data));
	parse_ok(c, PROTOCOL_MSG_HELLO);
	assert_int_equal(c->msg.hello.protocol, PROTOCOL_VERSION);
	assert_string_equal(c->msg.hello.arena, "skipbo-arena 0.1.0");
}

/* R2: every table size, with and without partnership, from every seat. */
static void test_game_start(void **state)
{
	struct ctx *c = *state;

	for (int n = 2; n <= ENGINE_MAX_PLAYERS; n++) {
		for (int partnership = 0; partnership <= (n == 4 || n == 6); partnership++) {
			for (int seat = 0; seat < n; seat++) {
				struct protocol_game_start gs = { .players = n, .seat = seat,
								  .partnership = partnership,
								  .stock_size = 7, .move_ms = 250,
								  .game_ms = 0 };
				const struct protocol_game_start *got = &c->msg.game_start;

				strlcpy(gs.game, "t01-d02", sizeof(gs.game));
				for (int s = 0; s < n; s++)
					snprintf(gs.names[s], sizeof(gs.names[s]), "bot \"%d\" \xc3\xa9", s);
				assert_int_equal(protocol_encode_game_start(&c->line, &gs), 0);
				parse_ok(c, PROTOCOL_MSG_GAME_START);
				assert_string_equal(got->game, "t01-d02");
				assert_int_equal(got->seat, seat);
				assert_int_equal(got->players, n);
				assert_int_equal(got->partnership, partnership);
				assert_int_equal(got->stock_size, 7);
				assert_int_equal(got->move_ms, 250);
				assert_int_equal(got->game_ms, 0);
				assert_int_equal(got->teams, partnership ? n / 2 : n);
				assert_int_equal(got->partner, partnership ? (seat + n / 2) % n : -1);
				for (int s = 0; s < n; s++) {
					assert_string_equal(got->names[s], gs.names[s]);
					/* R2: 0+2, 1+3 / 0+3, 1+4, 2+5. */
					assert_int_equal(got->team[s], partnership ? s % (n / 2) : s);
				}
			}
		}
	}
}

/* The fields the protocol carries for each event kind (PROTOCOL.md "Events"). */
static void assert_event_carried(const struct event *want, const struct event *got,
				 const struct protocol_request *r, const char *const *fault)
{
	assert_int_equal(got->kind, want->kind);
	assert_int_equal(got->turn, want->turn);
	switch (want->kind) {
	case EVENT_PLAY:
		assert_int_equal(got->source, want->source);
		assert_int_equal(got->owner, want->owner);
		if (want->source == SOURCE_DISCARD)
			assert_int_equal(got->pile, want->pile);
		assert_int_equal(got->value, want->value);
		/* fall through */
	case EVENT_DISCARD:
		assert_int_equal(got->target, want->target);
		/* fall through */
	case EVENT_DRAW:
		assert_int_equal(got->card, want->card);
		/* fall through */
	case EVENT_TURN:
	case EVENT_PASS:
		assert_int_equal(got->seat, want->seat);
		break;
	case EVENT_STOCK_TOP:
		assert_int_equal(got->owner, want->owner);
		assert_int_equal(got->card, want->card);
		break;
	case EVENT_COMPLETE:
		assert_int_equal(got->target, want->target);
		break;
	case EVENT_REFILL:
		assert_int_equal(got->source, want->source);
		assert_int_equal(got->count, want->count);
		break;
	case EVENT_REMOVED:
		assert_int_equal(got->seat, want->seat);
		assert_string_equal(r->fault[want->seat], fault[want->seat]);
		break;
	default:
		fail_msg("unexpected event kind %d", want->kind);
	}
}

/*
 * Plays a game with random legal moves; every request is encoded, parsed
 * back and compared with the engine's own view, redacted events and legal
 * moves; every answer is formatted and decoded back. One seat is removed for
 * a fault part-way (late at 2 players, where it ends the game by R11), so
 * "removed" events and skipped seats are covered too.
 */
static void play_and_check(struct ctx *c, const struct game_rules *rules)
{
	const char *fault[ENGINE_MAX_PLAYERS] = { 0 };
	size_t since[ENGINE_MAX_PLAYERS] = { 0 };
	struct move legal[ENGINE_MAX_MOVES], chosen;
	struct seat_view view;
	struct rng rng;
	int err, decisions = 0, removed = -1;
	struct game *g = game_new(rules, &err);

	assert_non_null(g);
	rng_seed(&rng, rules->seed ^ 0x5eed);
	while (game_status(g) == GAME_RUNNING) {
		int seat = game_to_move(g), n = game_legal_moves(g, legal);
		struct protocol_request_args req = { 0 };
		const struct protocol_request *r = &c->msg.request;
		size_t count, k = 0;
		const struct event *events = game_events(g, &count);

		if (removed < 0 && decisions == (rules->players > 2 ? 40 : 150)) {
			removed = seat;
			fault[seat] = "illegal";
			assert_int_equal(game_remove_seat(g, seat), 0);
			continue;
		}
		game_view(g, seat, &view);
		req = (struct protocol_request_args){
			.game = "g7", .turn = view.turn, .move = (uint32_t)decisions + 1,
			.move_ms = 1000, .bank_ms = 60000 - decisions, .view = &view,
			.events = events + since[seat], .n_events = count - since[seat],
			.fault = fault, .legal = legal, .n_legal = n,
		};
		assert_int_equal(protocol_encode_request(&c->line, &req), 0);
		assert_true(c->line.len < PROTOCOL_ARENA_LINE_MAX);
		parse_ok(c, PROTOCOL_MSG_REQUEST);
		assert_string_equal(r->game, "g7");
		assert_int_equal(r->turn, view.turn);
		assert_int_equal(r->move, decisions + 1);
		assert_int_equal(r->move_ms, 1000);
		assert_int_equal(r->bank_ms, 60000 - decisions);
		/* R13: the parsed view is exactly the engine's view of this seat. */
		assert_memory_equal(&r->view, &view, sizeof(view));
		for (size_t i = since[seat]; i < count; i++) {
			struct event red;

			event_for_seat(&events[i], seat, &red);
			if (red.kind == EVENT_END)
				continue;
			assert_true(k < r->n_events);
			assert_event_carried(&red, &r->events[k++], r, fault);
		}
		assert_int_equal(k, r->n_events);
		assert_int_equal(r->n_legal, n);
		assert_memory_equal(r->legal, legal, (size_t)n * sizeof(legal[0]));
		since[seat] = count;

		chosen = legal[rng_below(&rng, (uint64_t)n)];
		assert_int_equal(protocol_format_move(&c->line, &chosen), 0);
		{
			struct move back;

			assert_int_equal(protocol_decode_move(c->line.data, c->line.len, legal, n, g,
							      &back, &c->diag), 0);
			assert_memory_equal(&back, &chosen, sizeof(back));
		}
		assert_int_equal(game_apply(g, &chosen), 0);
		decisions++;
	}
	print_message("%d players: %d decisions\n", rules->players, decisions);
	/* A real game, past the fault, or the checks above proved little. */
	assert_true(decisions > 100);
	game_free(g);
}

static void test_request_two_players(void **state)
{
	struct game_rules rules = { .players = 2, .stock_size = 8, .seed = 11 };

	play_and_check(*state, &rules);
}

static void test_request_partnership(void **state)
{
	struct game_rules four = { .players = 4, .stock_size = 5, .partnership = 1, .seed = 12 };
	struct game_rules six = { .players = 6, .stock_size = 4, .partnership = 1, .dealer = 3,
				  .seed = 13 };

	play_and_check(*state, &four);
	play_and_check(*state, &six);
}

static void test_request_five_players(void **state)
{
	struct game_rules rules = { .players = 5, .stock_size = 6, .dealer = 2, .seed = 14 };

	play_and_check(*state, &rules);
}

/* R13: the cards another seat draws never reach the bot, only their number. */
static void test_request_hides_other_draws(void **state)
{
	struct ctx *c = *state;
	struct game_rules rules = { .players = 3, .stock_size = 5, .seed = 21 };
	struct move legal[ENGINE_MAX_MOVES];
	struct seat_view view;
	size_t count;
	int err, n, others = 0;
	struct game *g = game_new(&rules, &err);

	assert_non_null(g);
	/* Two full rounds of discards, then the request of the seat to move. */
	for (int i = 0; i < 6; i++) {
		n = game_legal_moves(g, legal);
		assert_int_equal(game_apply(g, &legal[n - 1]), 0);
	}
	game_view(g, game_to_move(g), &view);
	n = game_legal_moves(g, legal);
	{
		const struct event *ev = game_events(g, &count);
		struct protocol_request_args req = { .game = "g", .turn = view.turn, .move = 7,
						     .view = &view, .events = ev, .n_events = count,
						     .legal = legal, .n_legal = n };

		assert_int_equal(protocol_encode_request(&c->line, &req), 0);
	}
	parse_ok(c, PROTOCOL_MSG_REQUEST);
	for (size_t i = 0; i < c->msg.request.n_events; i++) {
		const struct event *e = &c->msg.request.events[i];

		if (e->kind != EVENT_DRAW)
			continue;
		if (e->seat == view.seat) {
			assert_true(e->card <= 12);
		} else {
			assert_int_equal(e->card, CARD_NONE);
			others++;
		}
	}
	assert_true(others >= 10);
	game_free(g);
}

static void test_game_end(void **state)
{
	struct ctx *c = *state;
	struct protocol_game_end ge = { .players = 4 }, *got = &c->msg.game_end;

	strlcpy(ge.game, "t0003-d0001-r1", sizeof(ge.game));
	ge.result = (struct game_result){
		.status = GAME_WON, .reason = END_FORFEIT, .winner = 1,
		.winners = { 0, 1, 0, 1 }, .placing = { 3, 1, 4, 1 }, .stock_left = { 4, 0, 9, 2 },
		.score = { 0, 90, 0, 90 }, .turns = 81, .moves = 402,
	};
	ge.n_faults = 2;
	ge.faults[0] = (struct protocol_fault){ .seat = 2, .kind = "malformed" };
	strlcpy(ge.faults[0].reason, "not JSON: error at byte 3 near \"x\\\"\n\ttab \xe2\x82\xac",
		sizeof(ge.faults[0].reason));
	ge.faults[1] = (struct protocol_fault){ .seat = 0, .kind = "timeout",
						.reason = "no answer within 1000 ms" };
	assert_int_equal(protocol_encode_game_end(&c->line, &ge), 0);
	assert_null(memchr(c->line.data, '\n', c->line.len));
	parse_ok(c, PROTOCOL_MSG_GAME_END);
	assert_string_equal(got->game, ge.game);
	assert_int_equal(got->players, 4);
	assert_memory_equal(&got->result, &ge.result, sizeof(ge.result));
	assert_int_equal(got->n_faults, 2);
	assert_memory_equal(got->faults, ge.faults, 2 * sizeof(ge.faults[0]));

	/* A stalemate: no winners, status and winner follow. */
	memset(ge.result.winners, 0, sizeof(ge.result.winners));
	ge.result.status = GAME_STALEMATE;
	ge.result.reason = END_STALEMATE;
	ge.result.winner = -1;
	memset(ge.result.score, 0, sizeof(ge.result.score));
	ge.n_faults = 0;
	assert_int_equal(protocol_encode_game_end(&c->line, &ge), 0);
	parse_ok(c, PROTOCOL_MSG_GAME_END);
	assert_memory_equal(&got->result, &ge.result, sizeof(ge.result));
	assert_int_equal(got->n_faults, 0);
}

static void test_quit(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(protocol_encode_quit(&c->line), 0);
	assert_string_equal(c->line.data, "{\"type\":\"quit\"}");
	parse_ok(c, PROTOCOL_MSG_QUIT);
}

static void test_bot_hello(void **state)
{
	struct ctx *c = *state;
	struct protocol_bot_hello h;

	assert_int_equal(protocol_format_hello(&c->line, "m\xc3\xbc-bot \"v\"\\", "2.1", NULL), 0);
	assert_null(strstr(c->line.data, "author"));
	assert_int_equal(protocol_decode_hello(c->line.data, c->line.len, &h, &c->diag), 0);
	assert_int_equal(h.protocol, PROTOCOL_VERSION);
	assert_string_equal(h.name, "m\xc3\xbc-bot \"v\"\\");
	assert_string_equal(h.version, "2.1");
	assert_string_equal(h.author, "");

	assert_int_equal(protocol_format_hello(&c->line, "x", NULL, "A. Author"), 0);
	assert_int_equal(protocol_decode_hello(c->line.data, c->line.len, &h, &c->diag), 0);
	assert_string_equal(h.version, "");
	assert_string_equal(h.author, "A. Author");
}

/* R4: "card" may be left out of stock and discard-pile plays; the decoder
 * returns the legal move with the card filled in. */
static void test_move_without_card(void **state)
{
	struct ctx *c = *state;
	const struct move legal[] = {
		{ .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = 1, .card = 11, .target = 0 },
		{ .kind = MOVE_PLAY, .source = SOURCE_DISCARD, .owner = 3, .pile = 3, .card = 9,
		  .target = 1 },
		{ .kind = MOVE_PASS, .owner = 1 },
	};
	static const char stock[] =
		"{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"stock\",\"seat\":1,\"to\":0}}";
	static const char discard[] =
		"{\"type\":\"move\",\"move\":{\"to\":1,\"pile\":3,\"seat\":3,\"from\":\"discard\",\"action\":\"play\"},\"note\":1}";
	struct move out;

	assert_int_equal(protocol_decode_move(stock, strlen(stock), legal, 3, NULL, &out, &c->diag), 0);
	assert_memory_equal(&out, &legal[0], sizeof(out));
	assert_int_equal(protocol_decode_move(discard, strlen(discard), legal, 3, NULL, &out, &c->diag), 0);
	assert_memory_equal(&out, &legal[1], sizeof(out));
}

/* PROTOCOL.md "Compatibility": unknown message types, fields and events are ignored. */
static void test_unknown_ignored(void **state)
{
	struct ctx *c = *state;
	static const char chat[] = "{\"type\":\"chat\",\"text\":\"hi\"}";
	static const char quit[] = "{\"extra\":[1,{\"a\":null}],\"type\":\"quit\",\"reason\":\"done\"}";
	static const char hello[] = "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"a\",\"features\":[\"x\"]}";

	assert_int_equal(protocol_parse_message(&c->msg, chat, strlen(chat), &c->diag), 0);
	assert_int_equal(c->msg.type, PROTOCOL_MSG_UNKNOWN);
	assert_string_equal(c->msg.type_name, "chat");
	assert_int_equal(protocol_parse_message(&c->msg, quit, strlen(quit), &c->diag), 0);
	assert_int_equal(c->msg.type, PROTOCOL_MSG_QUIT);
	assert_int_equal(protocol_parse_message(&c->msg, hello, strlen(hello), &c->diag), 0);
	assert_int_equal(c->msg.type, PROTOCOL_MSG_HELLO);
	assert_string_equal(c->msg.hello.arena, "a");
}

/* Informational strings longer than their field are cut at a character
 * boundary instead of failing the message. */
static void test_long_strings_cut(void **state)
{
	struct ctx *c = *state;
	char line[1024], reason[400];
	const struct protocol_fault *f = &c->msg.game_end.faults[0];
	size_t n = 0;

	while (n + 2 < 300) {
		reason[n++] = '\xc3'; /* U+00E9, two bytes */
		reason[n++] = '\xa9';
	}
	reason[n] = '\0';
	snprintf(line, sizeof(line),
		 "{\"type\":\"game_end\",\"game\":\"g\",\"reason\":\"forfeit\",\"winners\":[1],"
		 "\"placings\":[2,1],\"stock_left\":[3,4],\"scores\":[0,40],\"turns\":5,\"moves\":9,"
		 "\"faults\":[{\"seat\":0,\"kind\":\"a-very-long-fault-kind\",\"reason\":\"%s\"}]}",
		 reason);
	assert_int_equal(protocol_parse_message(&c->msg, line, strlen(line), &c->diag), 0);
	assert_string_equal(f->kind, "a-very-long-fau");
	/* 255 bytes fit; the cut lands inside a character, which is dropped. */
	assert_int_equal(strlen(f->reason), 254);
	assert_memory_equal(f->reason, reason, 254);
}

static void test_line_io(void **state)
{
	struct ctx *c = *state;
	struct protocol_buf in;
	FILE *f = tmpfile();

	assert_non_null(f);
	protocol_buf_init(&in);
	assert_int_equal(protocol_encode_quit(&c->line), 0);
	assert_int_equal(protocol_write_line(f, &c->line), 0);
	assert_int_equal(protocol_format_hello(&c->line, "b", NULL, NULL), 0);
	assert_int_equal(protocol_write_line(f, &c->line), 0);
	fputs("{\"type\":\"quit\"}", f); /* a last line without its newline still counts */
	rewind(f);
	assert_int_equal(protocol_read_line(f, &in), 0);
	assert_string_equal(in.data, "{\"type\":\"quit\"}");
	assert_int_equal(in.len, 15);
	assert_int_equal(protocol_read_line(f, &in), 0);
	assert_string_equal(in.data, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\"}");
	assert_int_equal(protocol_read_line(f, &in), 0);
	assert_int_equal(in.len, 15);
	assert_int_equal(protocol_read_line(f, &in), PROTOCOL_EEOF);
	assert_int_equal(in.len, 0);
	protocol_buf_release(&in);
	fclose(f);
}

/* Encoders refuse data that would make a line the other side cannot trust. */
static void test_encoders_refuse_bad_input(void **state)
{
	struct ctx *c = *state;
	struct protocol_game_start gs = { .players = 3, .seat = 3, .stock_size = 10 };
	struct move bad = { .kind = MOVE_PLAY, .source = 9, .card = 4 };

	assert_int_equal(protocol_encode_quit(&c->line), 0);
	assert_int_equal(protocol_encode_game_start(&c->line, &gs), PROTOCOL_EINVAL);
	/* A failed encoder leaves an empty line, never the previous one. */
	assert_int_equal(c->line.len, 0);
	assert_string_equal(c->line.data, "");
	gs.seat = 0;
	gs.partnership = 1; /* R2: not with 3 players */
	assert_int_equal(protocol_encode_game_start(&c->line, &gs), PROTOCOL_EINVAL);
	assert_int_equal(protocol_encode_hello(&c->line, "bad \xff utf-8"), PROTOCOL_EINVAL);
	assert_int_equal(protocol_format_hello(&c->line, "", NULL, NULL), PROTOCOL_EINVAL);
	assert_int_equal(protocol_format_move(&c->line, &bad), PROTOCOL_EINVAL);
	bad.source = SOURCE_HAND;
	bad.card = 13;
	assert_int_equal(protocol_format_move(&c->line, &bad), PROTOCOL_EINVAL);
	{
		/* R3: a stock holds at most 30 cards; a view outside the rules is refused. */
		struct game_rules rules = { .players = 2, .seed = 5 };
		struct move legal[ENGINE_MAX_MOVES];
		struct seat_view view;
		int err;
		struct game *g = game_new(&rules, &err);
		struct protocol_request_args req = { .game = "g", .view = &view, .legal = legal };

		assert_non_null(g);
		req.n_legal = game_legal_moves(g, legal);
		game_view(g, game_to_move(g), &view);
		assert_int_equal(protocol_encode_request(&c->line, &req), 0);
		view.stock_size[1] = 31;
		assert_int_equal(protocol_encode_request(&c->line, &req), PROTOCOL_EINVAL);
		view.stock_size[1] = 30;
		view.building_value[2] = -1;
		assert_int_equal(protocol_encode_request(&c->line, &req), PROTOCOL_EINVAL);
		game_free(g);
	}
}

/* Reentrancy: threads encoding and decoding at once get what one thread gets. */
struct worker {
	int seed;
	int failures;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct protocol_buf b;
	struct protocol_message m;
	struct protocol_diag d;
	struct game_rules rules = { .players = 4, .stock_size = 5, .seed = (uint64_t)w->seed };
	struct move legal[ENGINE_MAX_MOVES], back;
	struct seat_view view;
	int err;
	struct game *g = game_new(&rules, &err);

	protocol_buf_init(&b);
	protocol_message_init(&m);
	for (int i = 0; g && i < 300 && game_status(g) == GAME_RUNNING; i++) {
		int n = game_legal_moves(g, legal);
		struct protocol_request_args req = { .game = "t", .move = 1, .view = &view,
						     .legal = legal, .n_legal = n };
		const struct move *pick = &legal[i % n];

		game_view(g, game_to_move(g), &view);
		req.turn = view.turn;
		if (protocol_encode_request(&b, &req) ||
		    protocol_parse_message(&m, b.data, b.len, &d) ||
		    memcmp(&m.request.view, &view, sizeof(view)) ||
		    protocol_format_move(&b, pick) ||
		    protocol_decode_move(b.data, b.len, legal, n, g, &back, &d) ||
		    memcmp(&back, pick, sizeof(back)) ||
		    protocol_decode_move("{\"type\":", 8, legal, n, g, &back, &d) != PROTOCOL_ENOTJSON)
			w->failures++;
		game_apply(g, pick);
	}
	if (!g)
		w->failures++;
	game_free(g);
	protocol_message_release(&m);
	protocol_buf_release(&b);
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t t[4];
	struct worker w[4];

	(void)state;
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ .seed = 100 + i };
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(w[i].failures, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_arena_hello, setup, teardown),
		cmocka_unit_test_setup_teardown(test_game_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_request_two_players, setup, teardown),
		cmocka_unit_test_setup_teardown(test_request_partnership, setup, teardown),
		cmocka_unit_test_setup_teardown(test_request_five_players, setup, teardown),
		cmocka_unit_test_setup_teardown(test_request_hides_other_draws, setup, teardown),
		cmocka_unit_test_setup_teardown(test_game_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bot_hello, setup, teardown),
		cmocka_unit_test_setup_teardown(test_move_without_card, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_strings_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_line_io, setup, teardown),
		cmocka_unit_test_setup_teardown(test_encoders_refuse_bad_input, setup, teardown),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
