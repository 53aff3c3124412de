/*
 * test_protocol_errors - one test per way a bot's line can be wrong: the code,
 * the fault kind it maps to (PROTOCOL.md fault table), the byte offset where
 * one applies, and the words a bot author needs in the message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
	       PROTOCOL_EFIELD, "protocol", "field \"move.card\" must be an integer 0..12, got the string \"7\"");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":13,\"to\":2}}",
	       PROTOCOL_EFIELD, "protocol", "\"move.card\" must be an integer 0..12, got 13");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":2.5}}",
	       PROTOCOL_EFIELD, "protocol", "\"move.to\" must be an integer 0..3, got 2.5");
	EXPECT("{\"type\":\"move\",\"move\":{\"action\":\"play\",\"from\":\"hand\",\"card\":7,\"to\":null}}",
	       PROTOCOL_EFIELD, "protocol", "\"move.to\" must not be null");
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
				    PROTOCOL_ETOOLONG, PROTOCOL_EUTF8, PROTOCOL_ETYPE,
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
	assert_non_null(strstr(d.message, "\"players\" must be an integer 2..6, got 9"));
	assert_int_equal(m.type, PROTOCOL_MSG_UNKNOWN);
	assert_int_equal(protocol_parse_message(&m, end, strlen(end), &d), PROTOCOL_EVALUE);
	assert_non_null(strstr(d.message, "\"resigned\" for \"reason\""));
	assert_int_equal(protocol_parse_message(&m, "{}", 2, &d), PROTOCOL_ETYPE);
	protocol_message_release(&m);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
