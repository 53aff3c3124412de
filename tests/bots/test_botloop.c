/*
 * test_botloop.c - the bots' message loop (bots/common/botloop.h): the
 * handshake, answers to requests, unknown and broken lines, quit and EOF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "botloop.h"

struct spy {
	int starts, requests, ends;
	int answer;            /* index to return */
	struct move chosen;    /* legal[answer] of the last request */
};

static void spy_start(void *ctx, const struct protocol_game_start *gs)
{
	struct spy *s = ctx;
	assert_string_equal(gs->game, "g1");
	s->starts++;
}

static int spy_choose(void *ctx, const struct protocol_request *req)
{
	struct spy *s = ctx;
	s->requests++;
	if (s->answer >= 0 && s->answer < req->n_legal)
		s->chosen = req->legal[s->answer];
	return s->answer;
}

static void spy_end(void *ctx, const struct protocol_game_end *ge)
{
	struct spy *s = ctx;
	(void)ge;
	s->ends++;
}

/* A real request line: the first decision of a dealt game. */
static char *request_line(struct move *first_legal)
{
	struct game_rules rules = { .players = 2, .seed = 5 };
	struct game *g = game_new(&rules, NULL);
	struct seat_view *v = malloc(sizeof(*v));
	struct move legal[ENGINE_MAX_MOVES];
	struct protocol_buf b;
	size_t n_events;
	assert_non_null(g);
	assert_non_null(v);
	int seat = game_to_move(g);
	game_view(g, seat, v);
	int n = game_legal_moves(g, legal);
	const struct event *ev = game_events(g, &n_events);
	struct protocol_request_args args = { .game = "g1", .turn = v->turn, .move = 1, .move_ms = 1000,
		.bank_ms = 60000, .view = v, .events = ev, .n_events = n_events, .legal = legal, .n_legal = n };
	protocol_buf_init(&b);
	assert_int_equal(protocol_encode_request(&b, &args), 0);
	*first_legal = legal[n > 1 ? 1 : 0];
	char *line = strdup(b.data);
	protocol_buf_release(&b);
	free(v);
	game_free(g);
	return line;
}

static char *run(const char *input, struct spy *s, int *rc)
{
	FILE *in = fmemopen((void *)input, strlen(input), "r");
	char *output = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&output, &size);
	assert_non_null(in);
	assert_non_null(out);
	const struct botloop_policy p = { .name = "spy", .version = "2", .ctx = s,
		.game_start = spy_start, .choose = spy_choose, .game_end = spy_end };
	*rc = botloop_run(&p, in, out);
	fclose(in);
	fclose(out);
	return output;
}

static void whole_session(void **state)
{
	(void)state;
	struct move expect;
	char *req = request_line(&expect);
	char *input = NULL;
	assert_true(asprintf(&input,
		"{\"type\":\"hello\",\"protocol\":1,\"arena\":\"test\"}\n"
		"{\"type\":\"game_start\",\"game\":\"g1\",\"seat\":0,\"players\":2,\"names\":[\"a\",\"b\"],"
		"\"partnership\":false,\"teams\":[[0],[1]],\"partner\":null,"
		"\"rules\":{\"stock_size\":30,\"building_piles\":4,\"discard_piles\":4,\"hand_size\":5},"
		"\"time\":{\"move_ms\":1000,\"game_ms\":60000}}\n"
		"{\"type\":\"gossip\",\"text\":\"unknown types are ignored\"}\n"
		"this is not json\n"
		"%s\n"
		"{\"type\":\"game_end\",\"game\":\"g1\",\"reason\":\"stock_emptied\",\"winners\":[0],"
		"\"placings\":[1,2],\"stock_left\":[0,5],\"scores\":[50,0],\"turns\":80,\"moves\":400,\"faults\":[]}\n"
		"{\"type\":\"quit\"}\n"
		"%s\n", req, req) > 0);
	struct spy s = { .answer = 1 };
	int rc;
	char *out = run(input, &s, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(s.starts, 1);
	assert_int_equal(s.requests, 1); /* the request after quit is not read */
	assert_int_equal(s.ends, 1);

	/* Two lines: our hello, then the move, each newline-terminated. */
	char *nl = strchr(out, '\n');
	assert_non_null(nl);
	assert_non_null(strstr(out, "\"type\":\"hello\""));
	assert_true(strstr(out, "\"name\":\"spy\"") < nl);
	char *second = nl + 1;
	assert_non_null(strstr(second, "\"type\":\"move\""));
	assert_int_equal(second[strlen(second) - 1], '\n');
	assert_int_equal(strchr(second, '\n') - second + 1, strlen(second)); /* no third line */
	struct protocol_buf expected;
	protocol_buf_init(&expected);
	assert_int_equal(protocol_format_move(&expected, &s.chosen), 0);
	assert_memory_equal(second, expected.data, expected.len);
	assert_true(move_equal(&s.chosen, &expect));
	protocol_buf_release(&expected);
	free(out);
	free(input);
	free(req);
}

/* An answer out of range becomes the first legal move; EOF ends cleanly. */
static void bad_index_and_eof(void **state)
{
	(void)state;
	struct move second;
	char *req = request_line(&second);
	char *input = NULL;
	assert_true(asprintf(&input, "%s", req) > 0); /* no newline, no quit: EOF */
	struct spy s = { .answer = 999 };
	int rc;
	char *out = run(input, &s, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(s.requests, 1);
	assert_non_null(strstr(out, "\"type\":\"move\""));
	free(out);
	free(input);
	free(req);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_session),
		cmocka_unit_test(bad_index_and_eof),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
