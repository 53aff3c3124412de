/*
 * test_protocol_doc - every ```json block of PROTOCOL.md goes through the
 * library, so the document cannot drift from the code:
 *   - arena messages parse, and encoding the parsed data gives the example
 *     back byte for byte (whitespace of multi-line examples aside);
 *   - a bot's hello decodes and formats back to the example;
 *   - a bot's move is well-formed (it decodes to "illegal" against an empty
 *     legal list, never to a syntax or protocol error);
 *   - a move or an event is placed in a request, parsed, and encoded back to
 *     the example; so is a compact move (an array), in a compact request.
 * The document must show every message type, every move kind, every
 * compact array, a compact request and every event type at least once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include "protocol.h"

#define PLAYER(s, hand) "{\"seat\":" #s ",\"stock_size\":5,\"stock_top\":3,\"hand_size\":" \
	#hand ",\"discards\":[[],[],[],[]],\"removed\":false}"
/* A request of seat 0 at a table of 4 in partnership: events and legal moves go in. */
#define REQUEST_HEAD "{\"type\":\"request\",\"game\":\"doc\",\"turn\":16,\"move\":1," \
	"\"time\":{\"move_ms\":1000,\"bank_ms\":60000},\"view\":{\"seat\":0,\"to_move\":0," \
	"\"partner\":2,\"hand\":[1,5,7],\"players\":[" PLAYER(0, 3) "," PLAYER(1, 5) "," PLAYER(2, 5) "," \
	PLAYER(3, 5) "],\"building\":[{\"value\":0,\"size\":0},{\"value\":3,\"size\":3}," \
	"{\"value\":0,\"size\":0},{\"value\":0,\"size\":0}],\"draw_pile\":100,\"completed\":0}"

static const char *const event_types[] = { "turn", "draw", "play", "stock_top", "complete",
					   "discard", "pass", "refill", "removed" };
static const char *const arena_types[] = { "hello", "game_start", "request", "game_end", "quit" };

struct doc_check {
	struct protocol_buf line;
	struct protocol_message msg;
	struct protocol_diag diag;
	int seen_events[9];
	int seen_arena[5];
	int seen_bot_hello, seen_bot_move;
	int seen_moves[6]; /* play from hand, stock, discard; discard; pass */
	int seen_compact[4]; /* the same, as compact arrays (no discard) */
	int seen_compact_request, seen_hello_features;
	int blocks;
};

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* The example without its line breaks and the indentation after them. */
static void compact(char *s)
{
	char *out = s;

	for (char *p = s; *p; p++) {
		if (*p == '\n') {
			while (p[1] == ' ')
				p++;
			continue;
		}
		*out++ = *p;
	}
	*out = '\0';
}

static int index_of(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

static void parse_line(struct doc_check *d, const char *text)
{
	if (protocol_parse_message(&d->msg, text, strlen(text), &d->diag))
		fail_msg("PROTOCOL.md example does not parse: %s\n%s", d->diag.message, text);
}

/* Encode the parsed request back, with its own view, events, faults and legal moves. */
static void encode_parsed_request(struct doc_check *d)
{
	const struct protocol_request *r = &d->msg.request;
	const char *fault[ENGINE_MAX_PLAYERS];
	struct protocol_request_args req = {
		.game = r->game, .turn = r->turn, .move = r->move, .move_ms = r->move_ms,
		.bank_ms = r->bank_ms, .view = &r->view, .events = r->events,
		.n_events = r->n_events, .fault = fault, .legal = r->legal, .n_legal = r->n_legal,
		.compact = r->compact,
	};

	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++)
		fault[s] = r->fault[s];
	assert_int_equal(protocol_encode_request(&d->line, &req), 0);
}

static void check_event(struct doc_check *d, const char *text, int kind)
{
	size_t n = strlen(REQUEST_HEAD) + strlen(text) + 64;
	char *req = malloc(n);

	assert_non_null(req);
	snprintf(req, n, "%s,\"events\":[%s],\"legal\":[{\"action\":\"pass\"}]}", REQUEST_HEAD, text);
	parse_line(d, req);
	assert_true(d->msg.request.n_events >= 1);
	encode_parsed_request(d);
	if (!strstr(d->line.data, text))
		fail_msg("event example does not encode back:\n%s\n%s", text, d->line.data);
	d->seen_events[kind] = 1;
	free(req);
}

/* A move example of section 4.1, or a compact array of 4.2 in a compact request with no
 * other move (no discard), parsed and encoded back. */
static void check_move_form(struct doc_check *d, const char *text, int compact)
{
	size_t n = strlen(REQUEST_HEAD) + strlen(text) + 64;
	char *req = malloc(n);
	const struct move *m = &d->msg.request.legal[0];
	int form;

	assert_non_null(req);
	snprintf(req, n, "%s,\"events\":[],\"legal\":[%s]%s}", REQUEST_HEAD, text,
		 compact ? ",\"discard_any\":false" : "");
	parse_line(d, req);
	assert_int_equal(d->msg.request.n_legal, 1);
	encode_parsed_request(d);
	if (!strstr(d->line.data, text))
		fail_msg("%smove example does not encode back:\n%s\n%s", compact ? "compact " : "",
			 text, d->line.data);
	form = m->kind == MOVE_PLAY ? (int)(m->source - SOURCE_HAND) : compact ? 3 : m->kind + 1;
	if (compact)
		d->seen_compact[form] = 1;
	else
		d->seen_moves[form] = 1;
	free(req);
}

static void check_arena_message(struct doc_check *d, const char *text, int which)
{
	const struct protocol_message *m = &d->msg;

	parse_line(d, text);
	assert_int_equal(m->type, PROTOCOL_MSG_HELLO + which);
	switch (m->type) {
	case PROTOCOL_MSG_HELLO:
		assert_int_equal(protocol_encode_hello(&d->line, m->hello.arena), 0);
		break;
	case PROTOCOL_MSG_GAME_START:
		assert_int_equal(protocol_encode_game_start(&d->line, &m->game_start), 0);
		break;
	case PROTOCOL_MSG_REQUEST:
		encode_parsed_request(d);
		d->seen_compact_request |= m->request.compact;
		break;
	case PROTOCOL_MSG_GAME_END:
		assert_int_equal(protocol_encode_game_end(&d->line, &m->game_end), 0);
		break;
	default:
		assert_int_equal(protocol_encode_quit(&d->line), 0);
		break;
	}
	if (strcmp(d->line.data, text) != 0)
		fail_msg("example does not encode back:\n%s\n%s", text, d->line.data);
	d->seen_arena[which] = 1;
}

static void check_bot_message(struct doc_check *d, const char *text, const char *type)
{
	struct protocol_bot_hello h;
	struct move out;

	if (strcmp(type, "hello") == 0) {
		if (protocol_decode_hello(text, strlen(text), &h, &d->diag))
			fail_msg("bot hello example refused: %s\n%s", d->diag.message, text);
		assert_int_equal(protocol_format_hello_features(&d->line, h.name,
								h.version[0] ? h.version : NULL,
								h.author[0] ? h.author : NULL,
								h.features), 0);
		assert_string_equal(d->line.data, text);
		d->seen_hello_features |= h.features != 0;
		d->seen_bot_hello = 1;
		return;
	}
	/* Well-formed: the only complaint left against no legal moves is "illegal". */
	if (protocol_decode_move(text, strlen(text), NULL, 0, NULL, &out, &d->diag) != PROTOCOL_EILLEGAL)
		fail_msg("bot move example refused: %s\n%s", d->diag.message, text);
	d->seen_bot_move = 1;
}

static void check_block(struct doc_check *d, char *text)
{
	cJSON *root = cJSON_Parse(text);
	const cJSON *type, *action;
	int i;

	if (!cJSON_IsObject(root) && !cJSON_IsArray(root))
		fail_msg("a ```json block of PROTOCOL.md is not one JSON object or array:\n%s", text);
	d->blocks++;
	compact(text);
	if (cJSON_IsArray(root)) {
		check_move_form(d, text, 1);
		cJSON_Delete(root);
		return;
	}
	type = cJSON_GetObjectItemCaseSensitive(root, "type");
	action = cJSON_GetObjectItemCaseSensitive(root, "action");
	if (cJSON_IsString(action)) {
		check_move_form(d, text, 0);
	} else if (!cJSON_IsString(type)) {
		fail_msg("a ```json block has neither \"type\" nor \"action\":\n%s", text);
	} else if ((i = index_of(event_types, 9, type->valuestring)) >= 0) {
		check_event(d, text, i);
	} else if (strcmp(type->valuestring, "move") == 0 ||
		   (strcmp(type->valuestring, "hello") == 0 &&
		    cJSON_GetObjectItemCaseSensitive(root, "name"))) {
		check_bot_message(d, text, type->valuestring);
	} else if ((i = index_of(arena_types, 5, type->valuestring)) >= 0) {
		check_arena_message(d, text, i);
	} else {
		fail_msg("a ```json block has an unknown type:\n%s", text);
	}
	cJSON_Delete(root);
}

static void test_every_example(void **state)
{
	struct doc_check *d = calloc(1, sizeof(*d));
	char *doc = read_file(PROTOCOL_MD), *p = doc;

	(void)state;
	assert_non_null(d);
	protocol_buf_init(&d->line);
	protocol_message_init(&d->msg);
	while ((p = strstr(p, "\n```json\n"))) {
		char *start = p + strlen("\n```json\n"), *end = strstr(start, "\n```");

		assert_non_null(end);
		*end = '\0';
		check_block(d, start);
		p = end + 1;
	}
	print_message("%d json examples checked\n", d->blocks);
	for (int i = 0; i < 9; i++)
		if (!d->seen_events[i])
			fail_msg("PROTOCOL.md shows no \"%s\" event", event_types[i]);
	for (int i = 0; i < 5; i++)
		if (!d->seen_arena[i])
			fail_msg("PROTOCOL.md shows no arena \"%s\" message", arena_types[i]);
	assert_true(d->seen_bot_hello && d->seen_bot_move);
	for (int i = 0; i < 5; i++)
		if (!d->seen_moves[i])
			fail_msg("PROTOCOL.md lacks an example of move kind %d", i);
	for (int i = 0; i < 4; i++)
		if (!d->seen_compact[i])
			fail_msg("PROTOCOL.md lacks an example of compact array %d", i);
	assert_true(d->seen_compact_request && d->seen_hello_features);
	protocol_message_release(&d->msg);
	protocol_buf_release(&d->line);
	free(doc);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
