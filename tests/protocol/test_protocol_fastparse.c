/*
 * test_protocol_fastparse - the request fast path (protocol_fastparse.h):
 * every request of real games (gen_transcript --traffic: 2 to 6 players,
 * partnership, removed seats, both request forms) takes it and reads to the
 * very struct the strict reader makes; a request in any other form makes it
 * give up, and protocol_parse_message() then answers exactly as the strict
 * reader does, diagnostics included.
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
#include "protocol_fastparse.h"

#define TRAFFIC_GAMES "60"
#define REQUEST_PREFIX "arena\t{\"type\":\"request\","

struct ctx {
	struct protocol_message fast, strict;
	char *sample;        /* a request with draws, plays and discards, for the give-up cases */
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	protocol_message_init(&c->fast);
	protocol_message_init(&c->strict);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	protocol_message_release(&c->fast);
	protocol_message_release(&c->strict);
	free(c->sample);
	free(c);
	return 0;
}

/* What a request line holds, to show the traffic covers every case. */
struct coverage {
	int requests, compact, partnership, removed, shown_draw, hidden_draw, discard_play,
	    stock_top_null, refill, complete, pass_event, players[ENGINE_MAX_PLAYERS + 1];
};

static void count_coverage(struct coverage *cov, const struct protocol_request *r)
{
	cov->requests++;
	cov->compact += r->compact;
	cov->partnership += r->view.partnership;
	cov->players[r->view.players]++;
	for (size_t i = 0; i < r->n_events; i++) {
		const struct event *e = &r->events[i];

		cov->removed += e->kind == EVENT_REMOVED;
		cov->shown_draw += e->kind == EVENT_DRAW && e->card != CARD_NONE;
		cov->hidden_draw += e->kind == EVENT_DRAW && e->card == CARD_NONE;
		cov->discard_play += e->kind == EVENT_PLAY && e->source == SOURCE_DISCARD;
		cov->stock_top_null += e->kind == EVENT_STOCK_TOP && e->card == CARD_NONE;
		cov->refill += e->kind == EVENT_REFILL;
		cov->complete += e->kind == EVENT_COMPLETE;
		cov->pass_event += e->kind == EVENT_PASS;
	}
}

/* Every request the arena writes in many varied games: the fast path takes
 * each (100%), and its struct is the strict reader's. */
static void test_real_traffic(void **state)
{
	struct ctx *c = *state;
	struct coverage cov = { 0 };
	struct protocol_diag diag;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *in = popen(GEN_TRANSCRIPT " --traffic " TRAFFIC_GAMES, "r");

	assert_non_null(in);
	while ((n = getline(&line, &cap, in)) > 0) {
		const char *req;
		size_t len;

		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (strncmp(line, REQUEST_PREFIX, sizeof(REQUEST_PREFIX) - 1) != 0)
			continue;
		req = line + 6;
		len = (size_t)n - 6;
		if (fastparse_request(&c->fast, req, len) != 0)
			fail_msg("the fast path gave up on %s", req);
		if (strict_parse_message(&c->strict, req, len, &diag))
			fail_msg("the strict reader refuses %s: %s", req, diag.message);
		if (!request_equal(&c->fast.request, &c->strict.request))
			fail_msg("the readers disagree on %s", req);
		count_coverage(&cov, &c->fast.request);
		if (!c->sample && c->fast.request.view.players == 4 && !c->fast.request.compact &&
		    strstr(req, "\"cards\":[") && strstr(req, "\"from\":\"discard\"") &&
		    strstr(req, "{\"type\":\"discard\"")) {
			c->sample = strdup(req);
			assert_non_null(c->sample);
		}
	}
	free(line);
	assert_int_equal(pclose(in), 0);
	print_message("%d requests, all on the fast path: %d compact, %d in partnership, "
		      "%d removed-seat events\n", cov.requests, cov.compact, cov.partnership, cov.removed);
	assert_true(cov.requests > 3000);
	assert_true(cov.compact > cov.requests / 4 && cov.compact < cov.requests);
	assert_true(cov.partnership > 0 && cov.removed > 0 && cov.shown_draw > 0 &&
		    cov.hidden_draw > 0 && cov.discard_play > 0 && cov.stock_top_null > 0 &&
		    cov.refill > 0 && cov.complete > 0 && cov.pass_event > 0);
	for (int p = 2; p <= ENGINE_MAX_PLAYERS; p++)
		assert_true(cov.players[p] > 0);
	assert_non_null(c->sample);
}

/* line with the first `from` replaced by `to`, or without its last byte when
 * to is NULL; the caller frees it. */
static char *mutate(const char *line, const char *from, const char *to)
{
	const char *at = strstr(line, from);
	size_t len = strlen(line), n;
	char *out;

	if (!to) {
		out = strndup(line, len - 1);
		assert_non_null(out);
		return out;
	}
	if (!at)
		fail_msg("no %s in %s", from, line);
	n = len - strlen(from) + strlen(to);
	out = malloc(n + 1);
	assert_non_null(out);
	memcpy(out, line, (size_t)(at - line));
	strcpy(out + (at - line), to);
	strcat(out, at + strlen(from));
	return out;
}

/*
 * A request in some form other than the encoder's: the fast path gives up,
 * and protocol_parse_message() gives the strict reader's answer: the same
 * code, diagnostic and, when it is accepted, the same struct. expect is the
 * code the strict reader gives, to show the line is what the case says.
 */
static void check_gives_up(struct ctx *c, const char *line, int expect)
{
	struct protocol_diag d1 = { 0 }, d2 = { 0 };
	size_t len = strlen(line);
	int rc1, rc2;

	assert_int_equal(fastparse_request(&c->fast, line, len), FASTPARSE_GAVE_UP);
	rc1 = protocol_parse_message(&c->fast, line, len, &d1);
	rc2 = strict_parse_message(&c->strict, line, len, &d2);
	if (rc2 != expect)
		fail_msg("expected %d, got %d (%s) for %s", expect, rc2, d2.message, line);
	assert_int_equal(rc1, rc2);
	assert_int_equal(c->fast.type, c->strict.type);
	assert_string_equal(c->fast.type_name, c->strict.type_name);
	assert_int_equal(d1.code, d2.code);
	assert_int_equal(d1.offset, d2.offset);
	assert_string_equal(d1.message, d2.message);
	if (rc1 == 0)
		assert_true(request_equal(&c->fast.request, &c->strict.request));
}

static void test_gives_up(void **state)
{
	struct ctx *c = *state;
	static const struct {
		const char *from, *to;
		int expect;
	} cases[] = {
		/* JSON the strict reader reads to the same request */
		{ "\"turn\":", "\"turn\": ", 0 },                          /* white space */
		{ "\"time\":{\"move_ms\":1000,\"bank_ms\":60000}",
		  "\"time\":{\"bank_ms\":60000,\"move_ms\":1000}", 0 },      /* keys reordered */
		{ "\"view\":{", "\"view\":{\"mood\":\"calm\",", 0 },        /* unknown field */
		{ "\"events\":[", "\"events\":[{\"type\":\"chat\",\"seat\":0},", 0 }, /* unknown event */
		{ "\"game\":\"g", "\"game\":\"\\u0067", 0 },                /* escaped string */
		{ "\"game\":\"g", "\"game\":\"\xc3\xa9", 0 },              /* UTF-8 beyond ASCII */
		{ "\"game\":\"g", "\"game\":\"\xc3", PROTOCOL_EUTF8 },      /* broken UTF-8 */
		/* lines the strict reader refuses */
		{ "\"turn\":", "\"turn\":1,\"turn\":", PROTOCOL_EDUPKEY },   /* duplicate key */
		{ "\"draw_pile\":", "\"draw_pile\":9999", PROTOCOL_EFIELD }, /* out of range */
		{ "\"move_ms\":1000", "\"move_ms\":1000.0", PROTOCOL_EFIELD }, /* 7.0 */
		{ "\"move_ms\":1000", "\"move_ms\":1e3", PROTOCOL_EFIELD },
		{ "\"move_ms\":1000", "\"move_ms\":-1", PROTOCOL_EFIELD },
		{ "\"move_ms\":1000", "\"move_ms\":01000", PROTOCOL_ENOTJSON },
		{ "\"players\":[", "\"players\":[[],", PROTOCOL_EFIELD },
		{ "\"legal\":[", "\"legal\":[[\"pass\"],", PROTOCOL_EFIELD }, /* forms mixed */
		{ "}", "}x", PROTOCOL_ENOTJSON },
		{ "", NULL, PROTOCOL_ENOTJSON },                           /* truncated */
	};
	char *line;

	assert_non_null(c->sample);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		line = mutate(c->sample, cases[i].from, cases[i].to);
		check_gives_up(c, line, cases[i].expect);
		free(line);
	}
	/* white space after the line, and the compact form's end on an ordinary list */
	line = malloc(strlen(c->sample) + 32);
	assert_non_null(line);
	sprintf(line, "%s ", c->sample);
	check_gives_up(c, line, 0);
	sprintf(line, "%.*s,\"discard_any\":false}", (int)strlen(c->sample) - 1, c->sample);
	check_gives_up(c, line, PROTOCOL_EFIELD);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_traffic),
		cmocka_unit_test(test_gives_up),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
