/*
 * skipbo-hard - the hard reference bot (policy in hard.h).
 *
 * Options: --nodes N (positions per move, default 4000, 0 = no limit),
 * --stats (log search figures to stderr per game).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "botloop.h"
#include "hard.h"
#include "movetimes.h"

struct hard_bot {
	struct hard *search;
	int stats;
	long incomplete, net_hits;
	struct movetimes times;
};

static int hard_answer(void *ctx, const struct protocol_request *req)
{
	struct hard_bot *b = ctx;
	struct hard_stats st;
	movetimes_start(&b->times);
	int i = hard_choose(b->search, &req->view, req->legal, req->n_legal, req->move_ms, req->bank_ms, &st);
	movetimes_stop(&b->times);
	b->incomplete += !st.complete;
	b->net_hits += st.net_hit;
	return i;
}

static void hard_game_end(void *ctx, const struct protocol_game_end *ge)
{
	struct hard_bot *b = ctx;
	if (b->stats && b->times.n > 0) {
		fprintf(stderr, "hard: game %s: ", ge->game);
		movetimes_report(&b->times, stderr);
		fprintf(stderr, "; %ld cut short by the node budget, %ld by the clock\n",
			b->incomplete - b->net_hits, b->net_hits);
	}
	b->times.n = 0;
	b->incomplete = b->net_hits = 0;
}

static long parse_number(const char *s, const char *what)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n < 0)
		errx(2, "bad %s '%s'", what, s);
	return n;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "stats", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hard_config cfg;
	struct hard_bot bot = { .stats = 0 };
	movetimes_init(&bot.times);
	int c;

	hard_config_default(&cfg);
	while ((c = getopt_long(argc, argv, "n:sh", options, NULL)) != -1) {
		switch (c) {
		case 'n':
			cfg.max_nodes = parse_number(optarg, "--nodes");
			break;
		case 's':
			bot.stats = 1;
			break;
		default:
			fprintf(stderr, "usage: skipbo-hard [--nodes N] [--stats]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	bot.search = hard_new(&cfg);
	if (!bot.search)
		errx(1, "out of memory");
	const struct botloop_policy policy = {
		.name = "hard", .version = "1.0", .ctx = &bot,
		.choose = hard_answer, .game_end = hard_game_end,
	};
	int rc = botloop_run(&policy, stdin, stdout);
	hard_free(bot.search);
	movetimes_release(&bot.times);
	if (rc < 0)
		errx(1, "lost the arena");
	return 0;
}
