/*
 * test_protocol_errors - one test per way a bot's line can be wrong: the code,
 * the fault kind it maps to (PROTOCOL.md fault table), the byte offset where
 * one applies, and the words a bot author needs in the message.
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

/* The legal moves of a small made-up request. */
static const struct move legal[] = {
	{ .kind = MOVE_PLAY, .source = SOURCE_HAND, .owner = 1, .card = 7, .target = 2 },
	{ .kind = MOVE_PLAY, .source = SOURCE_STOCK, .owner = 1, .card = 11, .target = 0 },
	{ .kind = MOVE_DISCARD, .source = SOURCE_HAND, .owner = 1, .card = 7, .target = 0 },
};

/* Decodes line as a move answer and checks code, kind and message words. */
static void expect_move_error(const char *line, size_t len, int code, const char *kind,
			      const char *words)
{
	struct protocol_diag d = { 0 };
	struct move out;
	int rc = protocol_decode_move(line, len, legal, 3, NULL, &out, &d);

	if (rc != code)
		fail_msg("%s: got %d (%s), want %d", line, rc, d.message, code);
	assert_int_equal(d.code, code);
	assert_string_equal(protocol_fault_kind(rc), kind);
	if (!strstr(d.message, words))
		fail_msg("message \"%s\" lacks \"%s\"", d.message, words);
	assert_null(strchr(d.message, '\n'));
}

#define EXPECT(line, code, kind, words) expect_move_error((line), strlen(line), (code), (kind), (words))

static void test_not_json(void **state)
{
	struct protocol_diag d = { 0 };
	struct move out;
	static const char broken[] = "{\"type\":\"move\",\"move\":{\"action\":play}}";

	(void)state;
	EXPECT("hello arena", PROTOCOL_ENOTJSON, "malformed", "not JSON");
	EXPECT(broken, PROTOCOL_ENOTJSON, "malformed", "byte 32");
	assert_int_equal(protocol_decode_move(broken, strlen(broken), legal, 3, NULL, &out, &d),
			 PROTOCOL_ENOTJSON);
	assert_int_equal(d.offset, 32); /* where "play" without quotes starts */
	EXPECT("{\"type\":\"move\"", PROTOCOL_ENOTJSON, "malformed", "ends at byte 14");
	EXPECT("", PROTOCOL_ENOTJSON, "malformed", "not JSON");
	/* A NUL byte inside the line: not JSON, whatever follows it. */
	expect_move_error("{\"type\":\"move\"}\0x", 17, PROTOCOL_ENOTJSON, "malformed", "NUL byte at byte 15");
}

static void test_not_object(void **state)
{
	(void)state;
	EXPECT("[{\"type\":\"move\"}]", PROTOCOL_ENOTOBJECT, "malformed", "an array");
	EXPECT("42", PROTOCOL_ENOTOBJECT, "malformed", "a number");
	EXPECT("\"pass\"", PROTOCOL_ENOTOBJECT, "malformed", "a string");
	EXPECT("[1] x", PROTOCOL_ENOTOBJECT, "malformed", "not a JSON object");
}

static void test_trailing(void **state)
{
	struct protocol_diag d = { 0 };
	struct move out;
	static const char two[] = "{\"type\":\"move\",\"move\":{\"action\":\"pass\"}} {\"type\":\"move\"}";

	(void)state;
	EXPECT(two, PROTOCOL_ETRAILING, "malformed", "at byte 41");
	assert_int_equal(protocol_decode_move(two, strlen(two), legal, 3, NULL, &out, &d),
			 PROTOCOL_ETRAILING);
	assert_int_equal(d.offset, 41);
	/* Whitespace after the object is fine (a CR from a CRLF writer too). */
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"pass\"}} \r", PROTOCOL_EILLEGAL, "illegal",
	       "pass");
}

static void test_too_long(void **state)
{
	size_t len = PROTOCOL_LINE_MAX + 1;
	char *line = malloc(len + 1);

	(void)state;
	assert_non_null(line);
	memset(line, ' ', len);
	line[len] = '\0';
	expect_move_error(line, len, PROTOCOL_ETOOLONG, "malformed", "65536 bytes");
	/* Exactly at the limit the line is read (and is then merely not JSON). */
	expect_move_error(line, len - 1, PROTOCOL_ENOTJSON, "malformed", "not JSON");
	free(line);
}

static void test_invalid_utf8(void **state)
{
	struct protocol_diag d = { 0 };
	struct protocol_bot_hello h;
	static const char latin1[] = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"caf\xe9\"}";
	static const char overlong[] = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"\xc0\xaf\"}";
	static const char surrogate[] = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"\xed\xa0\x80\"}";

	(void)state;
	assert_int_equal(protocol_decode_hello(latin1, strlen(latin1), &h, &d), PROTOCOL_EUTF8);
	assert_int_equal(d.offset, 40);
	assert_string_equal(protocol_fault_kind(d.code), "malformed");
	assert_non_null(strstr(d.message, "invalid UTF-8 at byte 40"));
	assert_int_equal(protocol_decode_hello(overlong, strlen(overlong), &h, &d), PROTOCOL_EUTF8);
	assert_int_equal(d.offset, 37);
	assert_int_equal(protocol_decode_hello(surrogate, strlen(surrogate), &h, &d), PROTOCOL_EUTF8);
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"pass\"},\"x\":\"\xf4\x90\x80\x80\"}",
	       PROTOCOL_EUTF8, "malformed", "invalid UTF-8");
}

static void test_wrong_type(void **state)
{
	(void)state;
	EXPECT("{\"move\":{\"action\":\"pass\"}}", PROTOCOL_ETYPE, "protocol", "no \"type\"");
	EXPECT("{\"type\":7}", PROTOCOL_ETYPE, "protocol", "must be a string, got a number");
	EXPECT("{\"type\":\"hello\",\"protocol\":1,\"name\":\"b\"}", PROTOCOL_ETYPE, "protocol",
	       "expected \"type\":\"move\", got \"hello\"");
	/* Keys are case-sensitive. */
	EXPECT("{\"Type\":\"move\"}", PROTOCOL_ETYPE, "protocol", "no \"type\"");
}

static void test_missing_field(void **state)
{
	(void)state;
	EXPECT("{\"type\":\"move\"}", PROTOCOL_EMISSING, "protocol", "missing field \"move\"");
	EXPECT("{\"type\":\"move\",\"move\":{}}", PROTOCOL_EMISSING, "protocol",
	       "missing field \"move.action\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7}}",
	       PROTOCOL_EMISSING, "protocol", "missing field \"move.to\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"to\":2}}",
	       PROTOCOL_EMISSING, "protocol", "missing field \"move.card\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"stock\",\"to\":0}}",
	       PROTOCOL_EMISSING, "protocol", "missing field \"move.seat\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"discard\",\"card\":7}}", PROTOCOL_EMISSING,
	       "protocol", "missing field \"move.pile\"");
}

static void test_mistyped_field(void **state)
{
	(void)state;
	EXPECT("{\"type\":\"move\",\"move\":\"pass\"}", PROTOCOL_EFIELD, "protocol",
	       "field \"move\" must be an object, got a string");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":\"7\",\"to\":2}}",
	       PROTOCOL_EFIELD, "protocol", "move.card: expected an integer from 0 to 12, found the string \"7\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":13,\"to\":2}}",
	       PROTOCOL_EFIELD, "protocol", "move.card: expected an integer from 0 to 12, found 13");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":2.5}}",
	       PROTOCOL_EFIELD, "protocol", "move.to: expected an integer from 0 to 3, found 2.5");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":null}}",
	       PROTOCOL_EFIELD, "protocol", "move.to: expected an integer from 0 to 3, found null");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":true}}", PROTOCOL_EFIELD, "protocol",
	       "\"move.action\" must be a string, got a boolean");
}

static void test_unknown_value(void **state)
{
	(void)state;
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hnad\",\"card\":7,\"to\":2}}",
	       PROTOCOL_EVALUE, "protocol",
	       "unknown value \"hnad\" for \"move.from\"; valid: \"hand\", \"stock\", \"discard\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"Play\"}}", PROTOCOL_EVALUE, "protocol",
	       "valid: \"play\", \"discard\", \"pass\"");
	/* The bot's string is quoted safely: no line break or raw bytes reach a report. */
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"pl\\nay \xc3\xa9\"}}", PROTOCOL_EVALUE,
	       "protocol", "unknown value \"pl?ay ??\" for \"move.action\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"0123456789012345678901234567890123456789\"}}",
	       PROTOCOL_EVALUE, "protocol", "unknown value \"01234567890123456789012345678901...\"");
}

static void test_version(void **state)
{
	struct protocol_diag d = { 0 };
	struct protocol_bot_hello h;
	static const char v2[] = "{\"type\":\"hello\",\"protocol\":2,\"name\":\"future\"}";
	static const char noname[] = "{\"type\":\"hello\",\"protocol\":1,\"name\":\"\"}";
	char longname[200];

	(void)state;
	assert_int_equal(protocol_decode_hello(v2, strlen(v2), &h, &d), PROTOCOL_EVERSION);
	assert_string_equal(protocol_fault_kind(d.code), "protocol");
	assert_non_null(strstr(d.message, "speaks protocol 2; this arena speaks protocol 1"));
	assert_int_equal(protocol_decode_hello(noname, strlen(noname), &h, &d), PROTOCOL_EFIELD);
	assert_non_null(strstr(d.message, "\"name\" must not be empty"));
	snprintf(longname, sizeof(longname), "{\"type\":\"hello\",\"protocol\":1,\"name\":\"%0100d\"}", 0);
	assert_int_equal(protocol_decode_hello(longname, strlen(longname), &h, &d), PROTOCOL_EFIELD);
	assert_non_null(strstr(d.message, "longer than 63 bytes"));
}

static void test_illegal_without_game(void **state)
{
	(void)state;
	/* Well-formed, but 7 goes to pile 2 in this request, not pile 3. */
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":3}}",
	       PROTOCOL_EILLEGAL, "illegal",
	       "illegal move (play of card 7 from the hand to building pile 3): not among the 3 legal moves");
	/* "card", when given for a stock play, must be the stock top. */
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"stock\",\"seat\":1,\"card\":4,\"to\":0}}",
	       PROTOCOL_EILLEGAL, "illegal", "card 4 from the stock of seat 1");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"pass\"}}", PROTOCOL_EILLEGAL, "illegal", "pass");
}

/* With the game at hand the message gives the engine's reason (R4, R5). */
static void test_illegal_with_game(void **state)
{
	struct game_rules rules = { .players = 2, .stock_size = 5, .seed = 3 };
	struct move moves[ENGINE_MAX_MOVES], out;
	struct protocol_diag d = { 0 };
	struct seat_view v;
	char line[160];
	int err, n, bad_card = -1;
	struct game *g = game_new(&rules, &err);

	(void)state;
	assert_non_null(g);
	n = game_legal_moves(g, moves);
	game_view(g, game_to_move(g), &v);
	/* R4: building piles start empty; only a 1 or a SKIP-BO starts one. */
	for (int i = 0; i < v.hand_size; i++)
		if (v.hand[i] > 1)
			bad_card = v.hand[i];
	assert_true(bad_card > 1);
	snprintf(line, sizeof(line),
		 "{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":%d,\"to\":0}}",
		 bad_card);
	assert_int_equal(protocol_decode_move(line, strlen(line), moves, n, g, &out, &d),
			 PROTOCOL_EILLEGAL);
	assert_non_null(strstr(d.message, engine_strerror(ENGINE_EBUILD)));
	/* R5.4: a pass only with an empty hand. */
	snprintf(line, sizeof(line), "{\"type\":\"move\",\"move\":{\"action\":\"pass\"}}");
	assert_int_equal(protocol_decode_move(line, strlen(line), moves, n, g, &out, &d),
			 PROTOCOL_EILLEGAL);
	assert_non_null(strstr(d.message, engine_strerror(ENGINE_EPASS)));
	game_free(g);
}

/* Every code has a name; only the bot's faults have a fault kind. */
static void test_names(void **state)
{
	static const int bots[] = { PROTOCOL_ENOTJSON, PROTOCOL_ENOTOBJECT, PROTOCOL_ETRAILING,
				    PROTOCOL_ETOOLONG, PROTOCOL_EUTF8, PROTOCOL_EDUPKEY, PROTOCOL_ETYPE,
				    PROTOCOL_EMISSING, PROTOCOL_EFIELD, PROTOCOL_EVALUE,
				    PROTOCOL_EVERSION, PROTOCOL_EILLEGAL };
	static const int ours[] = { PROTOCOL_OK, PROTOCOL_ENOMEM, PROTOCOL_EINVAL, PROTOCOL_EEOF,
				    PROTOCOL_EIO };

	(void)state;
	for (size_t i = 0; i < sizeof(bots) / sizeof(bots[0]); i++) {
		assert_non_null(protocol_fault_kind(bots[i]));
		assert_string_not_equal(protocol_strerror(bots[i]), "unknown error");
	}
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		assert_null(protocol_fault_kind(ours[i]));
		assert_string_not_equal(protocol_strerror(ours[i]), "unknown error");
	}
	assert_string_equal(protocol_strerror(-999), "unknown error");
}

/* The bot side reports a broken arena line the same way. */
static void test_bot_side_errors(void **state)
{
	struct protocol_message m;
	struct protocol_diag d = { 0 };
	static const char start[] = "{\"type\":\"game_start\",\"game\":\"g\",\"seat\":0,\"players\":9}";
	static const char end[] = "{\"type\":\"game_end\",\"game\":\"g\",\"reason\":\"resigned\"}";

	(void)state;
	protocol_message_init(&m);
	assert_int_equal(protocol_parse_message(&m, start, strlen(start), &d), PROTOCOL_EFIELD);
	assert_non_null(strstr(d.message, "players: expected an integer from 2 to 6, found 9"));
	assert_int_equal(m.type, PROTOCOL_MSG_UNKNOWN);
	assert_int_equal(protocol_parse_message(&m, end, strlen(end), &d), PROTOCOL_EVALUE);
	assert_non_null(strstr(d.message, "\"resigned\" for \"reason\""));
	assert_int_equal(protocol_parse_message(&m, "{}", 2, &d), PROTOCOL_ETYPE);
	protocol_message_release(&m);
}

/*
 * A request touching every event type, a hidden and a shown draw, an event
 * type from a newer arena, and every kind of legal move (2 players, seat 1).
 */
static const char request[] =
	"{\"type\":\"request\",\"game\":\"g1\",\"turn\":7,\"move\":9,"
	"\"time\":{\"move_ms\":1000,\"bank_ms\":60000},"
	"\"view\":{\"seat\":1,\"to_move\":1,\"partner\":null,\"hand\":[0,4,5],"
	"\"players\":[{\"seat\":0,\"stock_size\":2,\"stock_top\":3,\"hand_size\":5,"
	"\"discards\":[[7],[],[],[]],\"removed\":false},"
	"{\"seat\":1,\"stock_size\":0,\"stock_top\":null,\"hand_size\":3,"
	"\"discards\":[[],[2,1],[],[]],\"removed\":false}],"
	"\"building\":[{\"value\":0,\"size\":0},{\"value\":2,\"size\":2},{\"value\":0,\"size\":0},"
	"{\"value\":0,\"size\":0}],\"draw_pile\":100,\"completed\":0},"
	"\"events\":[{\"type\":\"discard\",\"seat\":1,\"card\":9,\"pile\":2},"
	"{\"type\":\"complete\",\"pile\":3},"
	"{\"type\":\"turn\",\"seat\":0,\"turn\":7},"
	"{\"type\":\"draw\",\"seat\":0,\"count\":2},"
	"{\"type\":\"future_thing\",\"x\":1},"
	"{\"type\":\"refill\",\"source\":\"completed\",\"count\":12},"
	"{\"type\":\"removed\",\"seat\":0,\"fault\":\"timeout\"},"
	"{\"type\":\"stock_top\",\"seat\":1,\"card\":null},"
	"{\"type\":\"draw\",\"seat\":1,\"count\":1,\"cards\":[0]},"
	"{\"type\":\"play\",\"seat\":1,\"from\":\"discard\",\"owner\":1,\"pile\":1,\"card\":1,"
	"\"value\":2,\"to\":1}],"
	"\"legal\":[{\"action\":\"play\",\"from\":\"hand\",\"card\":4,\"to\":0},"
	"{\"action\":\"play\",\"from\":\"discard\",\"seat\":1,\"pile\":1,\"card\":1,\"to\":1},"
	"{\"action\":\"discard\",\"card\":5,\"pile\":0},{\"action\":\"pass\"}]}";

/* request with the first occurrence of from replaced by to, in a static buffer. */
static const char *edited(const char *from, const char *to)
{
	static char out[4096];
	const char *at = strstr(request, from);

	assert_non_null(at);
	assert_true(strlen(request) + strlen(to) < sizeof(out));
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(at - request), request, to, at + strlen(from));
	return out;
}

static void parse_ok(struct protocol_message *m, const char *line)
{
	struct protocol_diag d = { 0 };
	int rc = protocol_parse_message(m, line, strlen(line), &d);

	if (rc)
		fail_msg("%s: %d (%s)", line, rc, d.message);
	assert_int_equal(m->type, PROTOCOL_MSG_REQUEST);
}

/* Every field of the request lands where protocol.h says. */
static void test_request_fields(void **state)
{
	struct protocol_message m;
	const struct protocol_request *r = &m.request;
	const struct seat_view *v = &r->view;
	static const uint8_t kinds[] = { EVENT_DISCARD, EVENT_COMPLETE, EVENT_TURN,  EVENT_DRAW,
					 EVENT_DRAW,    EVENT_REFILL,   EVENT_REMOVED, EVENT_STOCK_TOP,
					 EVENT_DRAW,    EVENT_PLAY };

	(void)state;
	protocol_message_init(&m);
	parse_ok(&m, request);
	assert_string_equal(r->game, "g1");
	assert_int_equal(r->turn, 7);
	assert_int_equal(r->move, 9);
	assert_int_equal(r->move_ms, 1000);
	assert_int_equal(r->bank_ms, 60000);
	assert_int_equal(v->seat, 1);
	assert_int_equal(v->players, 2);
	assert_int_equal(v->partner, -1);
	assert_int_equal(v->turn, 7);
	assert_int_equal(v->hand_size, 3);
	assert_int_equal(v->hand[2], 5);
	assert_int_equal(v->stock_top[0], 3);
	assert_int_equal(v->stock_top[1], CARD_NONE);
	assert_int_equal(v->stock_top[2], CARD_NONE);
	assert_int_equal(v->others_hand_size[1], 3);
	assert_int_equal(v->discard_size[0][0], 1);
	assert_int_equal(v->discard_size[1][1], 2);
	assert_int_equal(v->discard[1][1][1], 1);
	assert_int_equal(v->building_value[1], 2);
	assert_int_equal(v->building_size[1], 2);
	assert_int_equal(v->draw_size, 100);
	/* The unknown event type is skipped; draws come one card each. */
	assert_int_equal(r->n_events, sizeof(kinds));
	for (size_t i = 0; i < sizeof(kinds); i++)
		assert_int_equal(r->events[i].kind, kinds[i]);
	/* Before the first "turn" the turn is the one before it. */
	assert_int_equal(r->events[0].turn, 6);
	assert_int_equal(r->events[1].turn, 6);
	assert_int_equal(r->events[1].target, 3);
	assert_int_equal(r->events[2].turn, 7);
	assert_int_equal(r->events[3].card, CARD_NONE);
	assert_int_equal(r->events[4].turn, 7);
	assert_int_equal(r->events[5].count, 12);
	assert_int_equal(r->events[7].card, CARD_NONE);
	assert_int_equal(r->events[8].card, CARD_SKIPBO);
	assert_int_equal(r->events[9].source, SOURCE_DISCARD);
	assert_int_equal(r->events[9].pile, 1);
	assert_int_equal(r->events[9].value, 2);
	assert_string_equal(r->fault[0], "timeout");
	assert_string_equal(r->fault[1], "");
	assert_int_equal(r->n_legal, 4);
	assert_int_equal(r->legal[0].owner, 1);
	assert_int_equal(r->legal[0].card, 4);
	assert_int_equal(r->legal[1].source, SOURCE_DISCARD);
	assert_int_equal(r->legal[1].pile, 1);
	assert_int_equal(r->legal[2].kind, MOVE_DISCARD);
	assert_int_equal(r->legal[2].target, 0);
	assert_int_equal(r->legal[3].kind, MOVE_PASS);

	/* Without any "turn" event every event has the request's turn. */
	parse_ok(&m, edited("{\"type\":\"turn\",\"seat\":0,\"turn\":7},", ""));
	assert_int_equal(r->n_events, sizeof(kinds) - 1);
	assert_int_equal(r->events[0].turn, 7);
	assert_int_equal(r->events[8].turn, 7);
	protocol_message_release(&m);
}

/* Members in another order and unknown members give the same result. A
 * repeated member is refused (test_duplicate_key_*, test_protocol_json_strict.c). */
static void test_request_member_order(void **state)
{
	struct protocol_message a, b;

	(void)state;
	protocol_message_init(&a);
	protocol_message_init(&b);
	parse_ok(&a, request);
	parse_ok(&b, edited("\"seat\":1,\"to_move\":1,\"partner\":null,\"hand\":[0,4,5],",
			    "\"extra\":{\"seat\":0},\"partner\":null,\"hand\":[0,4,5],\"to_move\":1,"
			    "\"seat\":1,"));
	assert_memory_equal(&a.request.view, &b.request.view, sizeof(a.request.view));
	parse_ok(&b, edited("{\"action\":\"play\",\"from\":\"discard\",\"seat\":1,\"pile\":1,\"card\":1,\"to\":1}",
			    "{\"to\":1,\"card\":1,\"pile\":1,\"seat\":1,\"from\":\"discard\","
			    "\"action\":\"play\",\"x\":[{\"action\":\"pass\"}]}"));
	assert_int_equal(b.request.n_legal, a.request.n_legal);
	assert_memory_equal(a.request.legal, b.request.legal, sizeof(a.request.legal[0]) * 4);
	parse_ok(&b, edited("{\"type\":\"discard\",\"seat\":1,\"card\":9,\"pile\":2}",
			    "{\"pile\":2,\"card\":9,\"seat\":1,\"type\":\"discard\",\"turn\":3}"));
	assert_int_equal(b.request.n_events, a.request.n_events);
	assert_memory_equal(a.request.events, b.request.events,
			    sizeof(a.request.events[0]) * a.request.n_events);
	protocol_message_release(&a);
	protocol_message_release(&b);
}

/* The request's errors name the full path of the field. */
static void test_request_errors(void **state)
{
	static const struct {
		const char *from, *to;
		int code;
		const char *message;
	} cases[] = {
		{ "\"turn\":7,\"move\":9", "\"move\":9", PROTOCOL_EMISSING, "missing field \"turn\": expected an integer from 0 to 4294967295" },
		{ "\"game\":\"g1\"", "\"game\":\"g1234567890123456789012345678901234567890123456789012345678901234\"",
		  PROTOCOL_EFIELD, "field \"game\" is longer than 63 bytes" },
		{ "\"bank_ms\":60000", "\"bank_ms\":-1", PROTOCOL_EFIELD,
		  "time.bank_ms: expected an integer from 0 to 2147483647, found -1" },
		{ "\"time\":{", "\"time\":null,\"x\":{", PROTOCOL_EFIELD, "field \"time\" must not be null" },
		{ "\"partner\":null", "\"partner\":2", PROTOCOL_EFIELD,
		  "view.partner: expected an integer from 0 to 1 or null, found 2" },
		{ "\"hand\":[0,4,5]", "\"hand\":[0,4,5,1,1,1]", PROTOCOL_EFIELD,
		  "\"view.hand\" has more than 5 cards" },
		{ "\"removed\":false", "\"removed\":0", PROTOCOL_EFIELD,
		  "field \"view.players[0].removed\" must be true or false, got a number" },
		{ "\"hand_size\":3", "\"hand_size\":\"3\"", PROTOCOL_EFIELD,
		  "view.players[1].hand_size: expected an integer from 0 to 5, found the string \"3\"" },
		{ "\"hand_size\":3", "\"hand_size\":4", PROTOCOL_EFIELD,
		  "view.players[1].hand_size: expected 3 (the cards in view.hand), found 4" },
		{ "\"stock_top\":null", "\"stock_top\":13", PROTOCOL_EFIELD,
		  "view.players[1].stock_top: expected an integer from 0 to 12 or null, found 13" },
		{ "\"stock_top\":null,", "", PROTOCOL_EMISSING, "missing field \"view.players[1].stock_top\"" },
		{ "\"stock_top\":null", "\"stock_top\":4", PROTOCOL_EFIELD,
		  "view.players[1].stock_top: expected null (stock_size is 0), found 4" },
		{ "\"stock_size\":2,\"stock_top\":3", "\"stock_size\":2,\"stock_top\":null", PROTOCOL_EFIELD,
		  "view.players[0].stock_top: expected a card from 0 to 12 (stock_size is 2), found null" },
		{ "[2,1]", "[2,1.5]", PROTOCOL_EFIELD,
		  "view.players[1].discards[1][1]: expected an integer from 0 to 12, found 1.5" },
		{ "[[],[2,1]", "[[],{}", PROTOCOL_EFIELD, "\"view.players[1].discards[1]\" must be an array" },
		{ "{\"value\":2,\"size\":2}", "{\"value\":2}", PROTOCOL_EMISSING,
		  "missing field \"view.building[1].size\": expected an integer from 0 to 162" },
		{ "\"events\":[", "\"events\":[7,", PROTOCOL_EFIELD, "\"events[0]\" must be an object" },
		{ "\"turn\":7}", "\"turn\":0}", PROTOCOL_EFIELD,
		  "events[2].turn: expected an integer from 1 to 4294967295, found 0" },
		{ "\"count\":2}", "\"count\":2,\"cards\":[1]}", PROTOCOL_EFIELD,
		  "\"events[3].cards\" must hold \"count\" (2) cards" },
		{ "\"cards\":[0]", "\"cards\":[true]", PROTOCOL_EFIELD,
		  "events[8].cards[0]: expected an integer from 0 to 12, found true" },
		{ "\"source\":\"completed\"", "\"source\":\"stock\"", PROTOCOL_EVALUE,
		  "unknown value \"stock\" for \"events[5].source\"; valid: \"completed\", \"building\"" },
		{ "\"seat\":1,\"card\":null}", "\"seat\":1}", PROTOCOL_EMISSING, "missing field \"events[7].card\"" },
		{ "\"value\":2,\"to\"", "\"value\":0,\"to\"", PROTOCOL_EFIELD,
		  "events[9].value: expected an integer from 1 to 12, found 0" },
		{ "\"from\":\"discard\",\"owner\"", "\"from\":\"deck\",\"owner\"", PROTOCOL_EVALUE,
		  "unknown value \"deck\" for \"events[9].from\"; valid: \"hand\", \"stock\", \"discard\"" },
		{ "\"from\":\"hand\"", "\"from\":\"deck\"", PROTOCOL_EVALUE,
		  "unknown value \"deck\" for \"legal[0].from\"; valid: \"hand\", \"stock\", \"discard\"" },
		{ "{\"action\":\"pass\"}", "{\"action\":\"fold\"}", PROTOCOL_EVALUE,
		  "unknown value \"fold\" for \"legal[3].action\"; valid: \"play\", \"discard\", \"pass\"" },
		{ "\"card\":5,\"pile\":0}", "\"card\":5}", PROTOCOL_EMISSING, "missing field \"legal[2].pile\": expected an integer from 0 to 3" },
		{ "{\"action\":\"pass\"}", "[]", PROTOCOL_EFIELD, "\"legal[3]\" must be an object" },
	};
	struct protocol_message m;

	(void)state;
	protocol_message_init(&m);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct protocol_diag d = { 0 };
		const char *line = edited(cases[i].from, cases[i].to);
		int rc = protocol_parse_message(&m, line, strlen(line), &d);

		if (rc != cases[i].code)
			fail_msg("case %zu: got %d (%s), want %d", i, rc, d.message, cases[i].code);
		assert_int_equal(d.code, cases[i].code);
		assert_string_equal(d.message, cases[i].message);
		assert_int_equal(m.type, PROTOCOL_MSG_UNKNOWN);
	}
	protocol_message_release(&m);
}

/* A key twice in one object is malformed wherever it is: the message names
 * the key and the object's path, the offset points at the second one. */
static void test_duplicate_key_top_level(void **state)
{
	struct protocol_diag d = { 0 };
	struct move out;
	static const char twice[] = "{\"type\":\"move\",\"move\":{\"action\":\"pass\"},\"type\":\"hello\"}";

	(void)state;
	EXPECT(twice, PROTOCOL_EDUPKEY, "malformed",
	       "duplicate key \"type\" in the top-level object at byte 40");
	assert_int_equal(protocol_decode_move(twice, strlen(twice), legal, 3, NULL, &out, &d),
			 PROTOCOL_EDUPKEY);
	assert_int_equal(d.offset, 40);
	assert_string_equal(protocol_strerror(PROTOCOL_EDUPKEY), "duplicate key");
	/* Even with the same value twice. */
	EXPECT("{\"type\":\"hello\",\"protocol\":1,\"name\":\"a\",\"name\":\"a\"}", PROTOCOL_EDUPKEY,
	       "malformed", "duplicate key \"name\" in the top-level object");
}

static void test_duplicate_key_nested(void **state)
{
	struct protocol_message m;
	struct protocol_diag d = { 0 };
	static const char twice[] =
		"{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"card\":8,\"to\":2}}";
	const char *line;

	(void)state;
	EXPECT(twice, PROTOCOL_EDUPKEY, "malformed", "duplicate key \"card\" in move at byte 62");
	/* The bot side refuses an arena line the same way, at any depth. */
	protocol_message_init(&m);
	line = edited("\"hand_size\":3,", "\"hand_size\":3,\"hand_size\":4,");
	assert_int_equal(protocol_parse_message(&m, line, strlen(line), &d), PROTOCOL_EDUPKEY);
	assert_int_equal(m.type, PROTOCOL_MSG_UNKNOWN);
	assert_non_null(strstr(d.message, "duplicate key \"hand_size\" in view.players[1] at byte"));
	assert_int_equal(d.offset, (size_t)(strstr(line, "\"hand_size\":4") - line));
	line = edited("\"card\":5,\"pile\":0}", "\"card\":5,\"pile\":0,\"pile\":1}");
	assert_int_equal(protocol_parse_message(&m, line, strlen(line), &d), PROTOCOL_EDUPKEY);
	assert_non_null(strstr(d.message, "duplicate key \"pile\" in legal[2]"));
	protocol_message_release(&m);
}

/* A hello refused for a field of the wrong type or range, with that message. */
static void expect_hello_error(const char *line, const char *message)
{
	struct protocol_diag d = { 0 };
	struct protocol_bot_hello h;

	assert_int_equal(protocol_decode_hello(line, strlen(line), &h, &d), PROTOCOL_EFIELD);
	assert_string_equal(protocol_fault_kind(d.code), "protocol");
	assert_string_equal(d.message, message);
}

/* Answers whose "to" or "card" is written as literal. */
#define MOVE_TO(literal) "{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":" literal "}}"
#define MOVE_CARD(literal) "{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":" literal ",\"to\":2}}"

static void test_integer_written_with_fraction(void **state)
{
	struct protocol_diag d = { 0 };
	struct move out;
	static const char minus_zero[] = MOVE_TO("-0");

	(void)state;
	EXPECT(MOVE_CARD("7.0"), PROTOCOL_EFIELD, "protocol",
	       "move.card: expected an integer from 0 to 12, found 7.0");
	EXPECT(MOVE_TO("-0.0"), PROTOCOL_EFIELD, "protocol",
	       "move.to: expected an integer from 0 to 3, found -0.0");
	/* -0 is an integer (0); only the written fraction or exponent is refused. */
	assert_int_equal(protocol_decode_move(minus_zero, strlen(minus_zero), legal, 3, NULL, &out, &d),
			 PROTOCOL_EILLEGAL);
	assert_non_null(strstr(d.message, "to building pile 0"));
}

static void test_integer_written_with_exponent(void **state)
{
	(void)state;
	EXPECT(MOVE_CARD("7e0"), PROTOCOL_EFIELD, "protocol",
	       "move.card: expected an integer from 0 to 12, found 7e0");
	EXPECT(MOVE_CARD("1e3"), PROTOCOL_EFIELD, "protocol",
	       "move.card: expected an integer from 0 to 12, found 1e3");
	expect_hello_error("{\"type\":\"hello\",\"protocol\":1E0,\"name\":\"b\"}",
			   "protocol: expected an integer from 0 to 1000000, found 1E0");
}

static void test_integer_beyond_double(void **state)
{
	(void)state;
	EXPECT(MOVE_CARD("1e400"), PROTOCOL_EFIELD, "protocol",
	       "move.card: expected an integer from 0 to 12, found 1e400");
	EXPECT(MOVE_TO("-1e400"), PROTOCOL_EFIELD, "protocol",
	       "move.to: expected an integer from 0 to 3, found -1e400");
}

static void test_huge_integer(void **state)
{
	(void)state;
	EXPECT(MOVE_TO("9223372036854775808"), PROTOCOL_EFIELD, "protocol",
	       "move.to: expected an integer from 0 to 3, found 9223372036854775808");
	EXPECT(MOVE_TO("-9223372036854775809"), PROTOCOL_EFIELD, "protocol",
	       "move.to: expected an integer from 0 to 3, found -9223372036854775809");
	EXPECT(MOVE_CARD("18446744073709551617"), PROTOCOL_EFIELD, "protocol",
	       "move.card: expected an integer from 0 to 12, found 18446744073709551617");
	expect_hello_error("{\"type\":\"hello\",\"protocol\":4294967297,\"name\":\"b\"}",
			   "protocol: expected an integer from 0 to 1000000, found 4294967297");
}

/* The bot side reads the arena's integers as strictly. */
static void test_bot_side_numbers(void **state)
{
	static const struct {
		const char *from, *to, *message;
	} cases[] = {
		{ "\"turn\":7,", "\"turn\":7.0,", "turn: expected an integer from 0 to 4294967295, found 7.0" },
		{ "\"move\":9,", "\"move\":9e0,", "move: expected an integer from 0 to 4294967295, found 9e0" },
		{ "\"hand\":[0,4,5]", "\"hand\":[0,4e0,5]", "view.hand[1]: expected an integer from 0 to 12, found 4e0" },
		{ "\"bank_ms\":60000", "\"bank_ms\":1e400",
		  "time.bank_ms: expected an integer from 0 to 2147483647, found 1e400" },
		{ "\"draw_pile\":100", "\"draw_pile\":-1e400",
		  "view.draw_pile: expected an integer from 0 to 162, found -1e400" },
		{ "\"turn\":7}", "\"turn\":18446744073709551623}",
		  "events[2].turn: expected an integer from 1 to 4294967295, found 18446744073709551623" },
		{ "\"cards\":[0]", "\"cards\":[0.0]", "events[8].cards[0]: expected an integer from 0 to 12, found 0.0" },
	};
	struct protocol_message m;

	(void)state;
	protocol_message_init(&m);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct protocol_diag d = { 0 };
		const char *line = edited(cases[i].from, cases[i].to);

		assert_int_equal(protocol_parse_message(&m, line, strlen(line), &d), PROTOCOL_EFIELD);
		assert_string_equal(d.message, cases[i].message);
	}
	protocol_message_release(&m);
}

/* The fault kinds are one list: the enum, the names, the decode errors' kinds agree (R11). */
static void test_fault_kind_table(void **state)
{
	static const char *const names[] = { "timeout", "exit", "closed", "malformed", "protocol",
					     "illegal", "start" };

	(void)state;
	assert_int_equal(PROTOCOL_FAULT_KINDS, sizeof(names) / sizeof(names[0]));
	for (int k = 0; k < PROTOCOL_FAULT_KINDS; k++) {
		assert_string_equal(protocol_fault_kind_names[k], names[k]);
		assert_int_equal(protocol_fault_kind_from_name(names[k]), k);
	}
	assert_int_equal(protocol_fault_kind_from_name("other"), -1);
	assert_int_equal(protocol_fault_kind_from_name(NULL), -1);
	assert_int_equal(protocol_fault_kind_of(PROTOCOL_ENOTJSON), PROTOCOL_FAULT_MALFORMED);
	assert_int_equal(protocol_fault_kind_of(PROTOCOL_EMISSING), PROTOCOL_FAULT_PROTOCOL);
	assert_int_equal(protocol_fault_kind_of(PROTOCOL_EILLEGAL), PROTOCOL_FAULT_ILLEGAL);
	assert_int_equal(protocol_fault_kind_of(PROTOCOL_ENOMEM), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_json),
		cmocka_unit_test(test_not_object),
		cmocka_unit_test(test_trailing),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_missing_field),
		cmocka_unit_test(test_mistyped_field),
		cmocka_unit_test(test_unknown_value),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_illegal_without_game),
		cmocka_unit_test(test_illegal_with_game),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_bot_side_errors),
		cmocka_unit_test(test_request_fields),
		cmocka_unit_test(test_request_member_order),
		cmocka_unit_test(test_request_errors),
		cmocka_unit_test(test_duplicate_key_top_level),
		cmocka_unit_test(test_duplicate_key_nested),
		cmocka_unit_test(test_integer_written_with_fraction),
		cmocka_unit_test(test_integer_written_with_exponent),
		cmocka_unit_test(test_integer_beyond_double),
		cmocka_unit_test(test_huge_integer),
		cmocka_unit_test(test_bot_side_numbers),
		cmocka_unit_test(test_fault_kind_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
