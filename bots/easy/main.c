/*
 * skipbo-easy - the easy reference bot (policy in easy.h).
 *
 * Option: --seed N, mixed with each game id into the game's generator.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "botloop.h"
#include "easy.h"

static void easy_started(void *ctx, const struct protocol_game_start *gs)
{
	easy_game_start(ctx, gs->game);
}

static int easy_answer(void *ctx, const struct protocol_request *req)
{
	return easy_choose(ctx, req->n_legal);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 0;
	struct easy e;
	int c;
	while ((c = getopt_long(argc, argv, "s:h", options, NULL)) != -1) {
		char *end;
		switch (c) {
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0')
				errx(2, "bad seed '%s'", optarg);
			break;
		default:
			fprintf(stderr, "usage: skipbo-easy [--seed N]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	easy_init(&e, seed);
	const struct botloop_policy policy = {
		.name = "easy", .version = "1.0", .ctx = &e,
		.game_start = easy_started, .choose = easy_answer,
	};
	if (botloop_run(&policy, stdin, stdout) < 0)
		errx(1, "lost the arena");
	return 0;
}
