/*
 * bench_protocol - the cost of the arena's two protocol calls per decision:
 * encoding a typical mid-game request and decoding a typical answer.
 *
 *   bench_protocol [ITERATIONS]      (default 1000000, in 10 rounds; the best round counts)
 *
 * The position: 2 players, default stock (30), both playing the first legal
 * move until turn 20; the request is the one for the next decision of the
 * player to move, with the events since that player's previous request. The
 * answer is the request's last play from a discard pile (else its last play,
 * else its last move), written out as a bot would, "card" included. The
 * JSON parse of that answer (json_strict_parse() and cJSON_Delete()) is
 * timed alone too, to show its share.
 *
 * The bot's side of the same decision is timed too: parsing that request
 * line with protocol_parse_message() into one reused struct protocol_message
 * (it takes the request fast path), and formatting the answer with
 * protocol_format_move(). The strict reader the fast path falls back on is
 * timed alone on the same line, then its JSON parse and free, and its parse
 * into a reused pool (what the strict reader does) as its floor, and cJSON's
 * own parser (which the library does not use) beside it.
 *
 * Times are the thread's CPU time, not the wall clock: on a shared machine a
 * round that lost the CPU to a neighbour still counts only its own work.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "engine.h"
#include "json_strict.h"
#include "protocol.h"
#include "protocol_fastparse.h"

#define ROUNDS 10

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	struct game_rules rules = { .players = 2, .seed = 20261121 };
	struct protocol_request_args req = { 0 };
	struct protocol_buf line, answer, formatted;
	struct protocol_message msg;
	struct protocol_diag diag;
	struct move legal[ENGINE_MAX_MOVES], out;
	struct seat_view view;
	size_t since[ENGINE_MAX_PLAYERS] = { 0 }, count;
	const struct event *events;
	long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	double t0, encode_us, decode_us, json_us, parse_us, format_us, json_req_us, cjson_req_us;
	double pooled_req_us, strict_us;
	struct json_pool pool;
	int err, n, seat, pick;
	struct game *g = game_new(&rules, &err);

	if (!g || iterations < ROUNDS)
		errx(1, "cannot set up the benchmark");
	/* Play to mid-game, remembering where each seat's last request was. */
	while (game_status(g) == GAME_RUNNING) {
		game_view(g, game_to_move(g), &view);
		if (view.turn >= 20)
			break;
		seat = game_to_move(g);
		game_events(g, &since[seat]);
		game_legal_moves(g, legal);
		if (game_apply(g, &legal[0]))
			errx(1, "the engine refuses its own legal move");
	}
	seat = game_to_move(g);
	events = game_events(g, &count);
	n = game_legal_moves(g, legal);
	game_view(g, seat, &view);
	req.game = "t0001-d0001-r0";
	req.turn = view.turn;
	req.move = 100;
	req.move_ms = 1000;
	req.bank_ms = 58211;
	req.view = &view;
	req.events = events + since[seat];
	req.n_events = count - since[seat];
	req.legal = legal;
	req.n_legal = n;

	pick = n - 1;
	for (int i = n - 1; i >= 0; i--) {
		if (legal[i].kind == MOVE_PLAY && legal[i].source == SOURCE_DISCARD) {
			pick = i;
			break;
		}
		if (legal[i].kind == MOVE_PLAY && legal[pick].kind != MOVE_PLAY)
			pick = i;
	}
	protocol_buf_init(&line);
	protocol_buf_init(&answer);
	protocol_buf_init(&formatted);
	protocol_message_init(&msg);
	json_pool_init(&pool);
	if (protocol_encode_request(&line, &req) || protocol_format_move(&answer, &legal[pick]))
		errx(1, "cannot encode");

	/* The best of several rounds: on a shared machine the slower rounds
	 * measure the neighbours, not this code. */
	encode_us = decode_us = json_us = parse_us = format_us = json_req_us = cjson_req_us = 1e30;
	pooled_req_us = strict_us = 1e30;
	for (int round = 0; round < ROUNDS; round++) {
		double us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++)
			if (protocol_encode_request(&line, &req))
				errx(1, "cannot encode");
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		encode_us = us < encode_us ? us : encode_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++)
			if (protocol_decode_move(answer.data, answer.len, legal, n, g, &out, &diag))
				errx(1, "cannot decode: %s", diag.message);
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		decode_us = us < decode_us ? us : decode_us;

		/* The part of decoding that is the JSON parse and free. */
		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++) {
			cJSON *root;

			if (json_strict_parse(answer.data, answer.len, &root, NULL))
				errx(1, "cannot parse the answer");
			cJSON_Delete(root);
		}
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		json_us = us < json_us ? us : json_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++)
			if (protocol_parse_message(&msg, line.data, line.len, &diag))
				errx(1, "cannot parse: %s", diag.message);
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		parse_us = us < parse_us ? us : parse_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++)
			if (strict_parse_message(&msg, line.data, line.len, &diag))
				errx(1, "cannot parse: %s", diag.message);
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		strict_us = us < strict_us ? us : strict_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++) {
			cJSON *root;

			if (json_strict_parse(line.data, line.len, &root, NULL))
				errx(1, "cannot parse the request");
			cJSON_Delete(root);
		}
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		json_req_us = us < json_req_us ? us : json_req_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++) {
			cJSON *root;

			if (json_strict_parse_pooled(line.data, line.len, &pool, &root, NULL))
				errx(1, "cannot parse the request");
		}
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		pooled_req_us = us < pooled_req_us ? us : pooled_req_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++) {
			const char *end;

			cJSON_Delete(cJSON_ParseWithLengthOpts(line.data, line.len + 1, &end, 1));
		}
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		cjson_req_us = us < cjson_req_us ? us : cjson_req_us;

		t0 = now_us();
		for (long i = 0; i < iterations / ROUNDS; i++)
			if (protocol_format_move(&formatted, &msg.request.legal[pick]))
				errx(1, "cannot format");
		us = (now_us() - t0) / (double)(iterations / ROUNDS);
		format_us = us < format_us ? us : format_us;
	}
	if (msg.type != PROTOCOL_MSG_REQUEST || msg.request.n_legal != n ||
	    strcmp(formatted.data, answer.data) != 0)
		errx(1, "the bot side does not read back what the arena wrote");

	printf("request: %zu bytes, %zu events, %d legal moves (turn %u)\n", line.len, req.n_events,
	       n, view.turn);
	printf("answer:  %s\n", answer.data);
	printf("encode request: %.3f us (best of %d rounds)\n", encode_us, ROUNDS);
	printf("decode answer:  %.3f us (best of %d rounds)\n", decode_us, ROUNDS);
	printf("  of which JSON parse + free: %.3f us\n", json_us);
	printf("parse request (bot side): %.3f us (best of %d rounds)\n", parse_us, ROUNDS);
	printf("  the strict reader alone: %.3f us\n", strict_us);
	printf("    of which JSON parse into the reused pool: %.3f us (parse + free: %.3f us, "
	       "cJSON's own parser: %.3f us)\n", pooled_req_us, json_req_us, cjson_req_us);
	printf("format answer (bot side): %.3f us (best of %d rounds)\n", format_us, ROUNDS);
	protocol_message_release(&msg);
	json_pool_release(&pool);
	protocol_buf_release(&formatted);
	protocol_buf_release(&line);
	protocol_buf_release(&answer);
	game_free(g);
	return 0;
}
