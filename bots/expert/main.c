/*
 * skipbo-expert - the expert reference bot (policy in expert.h).
 *
 * Options: --nodes N (positions per turn search), --samples N (deals per
 * decision), --candidates N (ends of turn judged), --stats (log each game's
 * move times and search figures to stderr).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "botloop.h"
#include "expert.h"
#include "movetimes.h"

struct expert_bot {
	struct expert *player;
	int stats;
	long judged, net_hits, estimated;
	struct movetimes times;
};

static void expert_started(void *ctx, const struct protocol_game_start *gs)
{
	struct expert_bot *b = ctx;
	expert_game_start(b->player, gs->game);
}

static int expert_answer(void *ctx, const struct protocol_request *req)
{
	struct expert_bot *b = ctx;
	struct expert_stats st;
	movetimes_start(&b->times);
	expert_observe(b->player, req->events, req->n_events);
	int i = expert_choose(b->player, &req->view, req->legal, req->n_legal, req->move, req->move_ms,
			      req->bank_ms, &st);
	movetimes_stop(&b->times);
	b->judged += st.candidates > 0;
	b->net_hits += st.net_hit;
	b->estimated += st.candidates > 0 && !st.exact_cards;
	return i;
}

static void expert_game_end(void *ctx, const struct protocol_game_end *ge)
{
	struct expert_bot *b = ctx;
	if (b->stats && b->times.n > 0) {
		fprintf(stderr, "expert: game %s: ", ge->game);
		movetimes_report(&b->times, stderr);
		fprintf(stderr, "; %ld judged by sampling (%ld from estimated cards), %ld stopped by the clock\n",
			b->judged, b->estimated, b->net_hits);
	}
	b->times.n = 0;
	b->judged = b->net_hits = b->estimated = 0;
}

static long parse_number(const char *s, const char *what, long max)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n < 0 || n > max)
		errx(2, "bad %s '%s': expected an integer from 0 to %ld", what, s, max);
	return n;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "samples", required_argument, NULL, 'S' },
		{ "candidates", required_argument, NULL, 'c' },
		{ "stats", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct expert_config cfg;
	struct expert_bot bot = { .stats = 0 };
	int c;

	expert_config_default(&cfg);
	movetimes_init(&bot.times);
	while ((c = getopt_long(argc, argv, "n:S:c:sh", options, NULL)) != -1) {
		switch (c) {
		case 'n':
			cfg.max_nodes = parse_number(optarg, "--nodes", 100000000L);
			break;
		case 'S':
			cfg.samples = (int)parse_number(optarg, "--samples", EXPERT_MAX_SAMPLES);
			break;
		case 'c':
			cfg.candidates = (int)parse_number(optarg, "--candidates", EXPERT_MAX_CANDIDATES);
			break;
		case 's':
			bot.stats = 1;
			break;
		default:
			fprintf(stderr, "usage: skipbo-expert [--nodes N] [--samples N] [--candidates N] [--stats]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	bot.player = expert_new(&cfg);
	if (!bot.player)
		errx(1, "out of memory");
	const struct botloop_policy policy = {
		.name = "expert", .version = "1.0", .ctx = &bot,
		.game_start = expert_started, .choose = expert_answer, .game_end = expert_game_end,
	};
	int rc = botloop_run(&policy, stdin, stdout);
	expert_free(bot.player);
	movetimes_release(&bot.times);
	if (rc < 0)
		errx(1, "lost the arena");
	return 0;
}
