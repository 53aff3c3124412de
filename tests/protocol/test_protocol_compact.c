/*
 * test_protocol_compact - the compact request (PROTOCOL.md "Compact
 * requests"): a bot that asks for it in its hello reads the same legal moves
 * as from the ordinary request, in fewer bytes; a bot that does not ask gets
 * the ordinary request unchanged; broken compact lists are refused with a
 * sentence naming the element. Positions come from real games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "protocol.h"

/* FNV-1a of the ordinary requests of test_same_structs_both_forms, as the
 * library wrote them before compact requests existed. */
#define ORDINARY_DIGEST 0xbf839280f61b70a5u

struct ctx {
	struct protocol_buf line;
	struct protocol_message plain, compact;
	struct protocol_diag diag;
	size_t plain_bytes, compact_bytes;
	uint64_t digest; /* FNV-1a of every ordinary request line */
	int requests, with_discards;
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	protocol_buf_init(&c->line);
	protocol_message_init(&c->plain);
	protocol_message_init(&c->compact);
	c->digest = 0xcbf29ce484222325u;
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	protocol_buf_release(&c->line);
	protocol_message_release(&c->plain);
	protocol_message_release(&c->compact);
	free(c);
	return 0;
}

static void parse_into(struct ctx *c, struct protocol_message *m)
{
	if (protocol_parse_message(m, c->line.data, c->line.len, &c->diag))
		fail_msg("cannot parse %s: %s", c->line.data, c->diag.message);
	assert_int_equal(m->type, PROTOCOL_MSG_REQUEST);
}

/* One position, both forms: the bot's structs must be the same. */
static void check_position(struct ctx *c, struct protocol_request_args *req)
{
	const struct protocol_request *p = &c->plain.request, *k = &c->compact.request;

	req->compact = 0;
	assert_int_equal(protocol_encode_request(&c->line, req), 0);
	assert_null(strstr(c->line.data, "discard_any"));
	for (size_t i = 0; i < c->line.len; i++)
		c->digest = (c->digest ^ (unsigned char)c->line.data[i]) * 0x100000001b3u;
	c->plain_bytes += c->line.len;
	parse_into(c, &c->plain);
	req->compact = 1;
	assert_int_equal(protocol_encode_request(&c->line, req), 0);
	c->compact_bytes += c->line.len;
	parse_into(c, &c->compact);
	assert_false(p->compact);
	assert_true(k->compact);
	/* R4, R5.3: with cards in hand every discard is legal, and only then. */
	assert_non_null(strstr(c->line.data, req->view->hand_size ? "\"discard_any\":true}"
								   : "\"discard_any\":false}"));
	assert_null(strstr(c->line.data, "\"action\""));
	c->with_discards += req->view->hand_size > 0;
	assert_int_equal(k->n_legal, req->n_legal);
	assert_memory_equal(k->legal, req->legal, (size_t)req->n_legal * sizeof(req->legal[0]));
	assert_memory_equal(&k->view, &p->view, sizeof(p->view));
	assert_int_equal(k->n_events, p->n_events);
	if (p->n_events)
		assert_memory_equal(k->events, p->events, p->n_events * sizeof(p->events[0]));
	assert_string_equal(k->game, p->game);
	assert_true(k->turn == p->turn && k->move == p->move && k->move_ms == p->move_ms &&
		    k->bank_ms == p->bank_ms);
	c->requests++;
}

/* A game of random legal moves with every request checked in both forms;
 * one seat is removed for a fault part-way (R11). */
static void play(struct ctx *c, const struct game_rules *rules)
{
	const char *fault[ENGINE_MAX_PLAYERS] = { 0 };
	size_t since[ENGINE_MAX_PLAYERS] = { 0 };
	struct move legal[ENGINE_MAX_MOVES];
	struct seat_view view;
	struct rng rng;
	int err, decisions = 0;
	struct game *g = game_new(rules, &err);

	assert_non_null(g);
	rng_seed(&rng, rules->seed ^ 0xc0de);
	while (game_status(g) == GAME_RUNNING) {
		int seat = game_to_move(g), n = game_legal_moves(g, legal);
		size_t count;
		const struct event *events = game_events(g, &count);
		struct protocol_request_args req = {
			.game = "c1", .move = (uint32_t)decisions + 1, .move_ms = 1000, .bank_ms = 5000,
			.view = &view, .events = events + since[seat], .n_events = count - since[seat],
			.fault = fault, .legal = legal, .n_legal = n,
		};

		if (decisions == 60 && rules->players > 2) {
			fault[seat] = "timeout";
			assert_int_equal(game_remove_seat(g, seat), 0);
			continue;
		}
		game_view(g, seat, &view);
		req.turn = view.turn;
		check_position(c, &req);
		since[seat] = count;
		assert_int_equal(game_apply(g, &legal[rng_below(&rng, (uint64_t)n)]), 0);
		decisions++;
	}
	game_free(g);
}

/*
 * Many real positions at 2 to 6 players, partnership too. The digest pins
 * the ordinary requests byte for byte to what the library wrote before
 * compact requests existed: a bot that does not ask sees no change.
 */
static void test_same_structs_both_forms(void **state)
{
	struct ctx *c = *state;
	const struct game_rules rules[] = {
		{ .players = 2, .stock_size = 10, .seed = 31 },
		{ .players = 3, .stock_size = 8, .seed = 32 },
		{ .players = 4, .stock_size = 6, .partnership = 1, .seed = 33 },
		{ .players = 5, .stock_size = 5, .dealer = 2, .seed = 34 },
		{ .players = 6, .stock_size = 4, .partnership = 1, .dealer = 1, .seed = 35 },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		play(c, &rules[i]);
	print_message("%d requests: %zu bytes ordinary, %zu compact; digest %016llx\n",
		      c->requests, c->plain_bytes, c->compact_bytes, (unsigned long long)c->digest);
	assert_true(c->requests > 500);
	assert_true(c->with_discards > c->requests / 2);
	assert_true(c->compact_bytes * 10 < c->plain_bytes * 8);
	assert_int_equal(c->digest, ORDINARY_DIGEST);
}

static void test_hello_features(void **state)
{
	struct ctx *c = *state;
	struct protocol_bot_hello h;
	const char *future = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\","
			     "\"features\":[\"undo\",\"compact_legal\"]}";
	const char *none = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\",\"features\":[\"undo\"]}";
	const char *not_array = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\",\"features\":\"compact_legal\"}";
	const char *not_string = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\",\"features\":[\"x\",true]}";

	assert_int_equal(protocol_format_hello_features(&c->line, "b", "1", NULL,
							PROTOCOL_FEATURE_COMPACT_LEGAL), 0);
	assert_string_equal(c->line.data, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\","
					  "\"version\":\"1\",\"features\":[\"compact_legal\"]}");
	assert_int_equal(protocol_decode_hello(c->line.data, c->line.len, &h, &c->diag), 0);
	assert_int_equal(h.features, PROTOCOL_FEATURE_COMPACT_LEGAL);
	/* Without the feature the hello is the one bots always sent. */
	assert_int_equal(protocol_format_hello_features(&c->line, "b", NULL, NULL, 0), 0);
	assert_string_equal(c->line.data, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\"}");
	assert_int_equal(protocol_decode_hello(c->line.data, c->line.len, &h, &c->diag), 0);
	assert_int_equal(h.features, 0);
	assert_int_equal(protocol_format_hello_features(&c->line, "b", NULL, NULL, 2), PROTOCOL_EINVAL);
	/* Unknown features are ignored, so a bot may ask for what newer arenas offer. */
	assert_int_equal(protocol_decode_hello(future, strlen(future), &h, &c->diag), 0);
	assert_int_equal(h.features, PROTOCOL_FEATURE_COMPACT_LEGAL);
	assert_int_equal(protocol_decode_hello(none, strlen(none), &h, &c->diag), 0);
	assert_int_equal(h.features, 0);
	assert_int_equal(protocol_decode_hello(not_array, strlen(not_array), &h, &c->diag),
			 PROTOCOL_EFIELD);
	assert_non_null(strstr(c->diag.message, "\"features\" must be an array"));
	assert_int_equal(protocol_decode_hello(not_string, strlen(not_string), &h, &c->diag),
			 PROTOCOL_EFIELD);
	assert_string_equal(c->diag.message,
			    "\"features[1]\" must be a string such as \"compact_legal\", got a boolean");
}

/* A real request of seat 0 at the start of a 2-player game, compact. */
static void first_request(struct ctx *c, struct move *legal, int *n, struct seat_view *view)
{
	struct game_rules rules = { .players = 2, .stock_size = 5, .seed = 7 };
	int err;
	struct game *g = game_new(&rules, &err);

	assert_non_null(g);
	*n = game_legal_moves(g, legal);
	game_view(g, game_to_move(g), view);
	game_free(g);
	{
		struct protocol_request_args req = { .game = "g", .turn = view->turn, .move = 1,
						     .view = view, .legal = legal, .n_legal = *n,
						     .compact = 1 };

		assert_int_equal(protocol_encode_request(&c->line, &req), 0);
	}
}

/* Replaces the text after "legal": with tail and parses: returns the code. */
static int parse_with_legal(struct ctx *c, const char *tail)
{
	char *at = strstr(c->line.data, "\"legal\":");
	char line[8192];

	assert_non_null(at);
	snprintf(line, sizeof(line), "%.*s\"legal\":%s", (int)(at - c->line.data), c->line.data, tail);
	return protocol_parse_message(&c->compact, line, strlen(line), &c->diag);
}

static void test_compact_errors(void **state)
{
	struct ctx *c = *state;
	struct move legal[ENGINE_MAX_MOVES];
	struct seat_view view;
	int n, listed;
	static const struct {
		const char *tail;
		int code;
		const char *message;
	} bad[] = {
		{ "[{\"action\":\"pass\"}],\"discard_any\":false}", PROTOCOL_EFIELD,
		  "\"legal[0]\" must be an array such as [\"hand\",card,to] in a request with "
		  "\"discard_any\", got an object" },
		{ "[[\"hand\",1,0],[\"deck\",1,0]],\"discard_any\":true}", PROTOCOL_EVALUE,
		  "unknown value \"deck\" for \"legal[1][0]\"; valid: \"hand\", \"stock\", \"discard\", \"pass\"" },
		{ "[[3,1,0]],\"discard_any\":true}", PROTOCOL_EFIELD,
		  "\"legal[0][0]\" must be \"hand\", \"stock\", \"discard\" or \"pass\", got a number" },
		{ "[[\"stock\",0,1]],\"discard_any\":true}", PROTOCOL_EFIELD,
		  "\"legal[0]\" must be [\"stock\",seat,card,to], got 3 elements" },
		{ "[[\"pass\",0]],\"discard_any\":false}", PROTOCOL_EFIELD,
		  "\"legal[0]\" must be [\"pass\"], got 2 elements" },
		{ "[[]],\"discard_any\":false}", PROTOCOL_EFIELD,
		  "\"legal[0][0]\" must be \"hand\", \"stock\", \"discard\" or \"pass\", got nothing" },
		{ "[[\"discard\",0,4,1,0]],\"discard_any\":true}", PROTOCOL_EFIELD, "legal[0][2] (pile)" },
		{ "[[\"hand\",13,0]],\"discard_any\":true}", PROTOCOL_EFIELD, "legal[0][1] (card)" },
		{ "[[\"hand\",1,\"0\"]],\"discard_any\":true}", PROTOCOL_EFIELD, "legal[0][2] (to)" },
		{ "[],\"discard_any\":1}", PROTOCOL_EFIELD, "discard_any" },
	};

	first_request(c, legal, &n, &view);
	/* The discards "discard_any" stands for are the engine's, after the listed moves. */
	listed = n;
	while (listed > 0 && legal[listed - 1].kind == MOVE_DISCARD)
		listed--;
	assert_true(listed < n);
	assert_int_equal(parse_with_legal(c, "[[\"hand\",1,0],[\"pass\"]],\"discard_any\":true}"), 0);
	assert_int_equal(c->compact.request.n_legal, 2 + n - listed);
	assert_memory_equal(c->compact.request.legal + 2, legal + listed,
			    (size_t)(n - listed) * sizeof(legal[0]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse_with_legal(c, bad[i].tail);

		if (rc != bad[i].code || !strstr(c->diag.message, bad[i].message))
			fail_msg("legal %s: code %d, message \"%s\"", bad[i].tail, rc, c->diag.message);
	}
}

/* The arena never leaves out discards that are not all of them (R4): a list
 * that breaks the rule is refused rather than sent as if it were whole. */
static void test_encoder_refuses_partial_discards(void **state)
{
	struct ctx *c = *state;
	struct move legal[ENGINE_MAX_MOVES];
	struct seat_view view;
	int n;

	first_request(c, legal, &n, &view);
	assert_int_equal(legal[n - 1].kind, MOVE_DISCARD);
	{
		struct protocol_request_args req = { .game = "g", .turn = view.turn, .move = 1,
						     .view = &view, .legal = legal, .n_legal = n - 1,
						     .compact = 1 };

		assert_int_equal(protocol_encode_request(&c->line, &req), PROTOCOL_EINVAL);
		req.compact = 0;
		assert_int_equal(protocol_encode_request(&c->line, &req), 0);
		/* No move at all: the encoder accepts it, and the compact tail still fits. */
		req.compact = 1;
		req.n_legal = 0;
		assert_int_equal(protocol_encode_request(&c->line, &req), 0);
		assert_non_null(strstr(c->line.data, ",\"legal\":[],\"discard_any\":false}"));
		parse_into(c, &c->compact);
		assert_int_equal(c->compact.request.n_legal, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_structs_both_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hello_features, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compact_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_encoder_refuses_partial_discards, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
