/*
 * cmd_merge.c - `skipbo-arena merge OUT DIR...`: the output directories of
 * the shards of one tournament (run --shard K/N, arena/CLUSTER.md) made into
 * one, as if the tournament had been run on one machine (tournament/merge.h
 * does it; this file reads the options and says what happened).
 */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "commands.h"
#include "merge.h"
#include "options.h"

#define MISSING_LISTED 20

static const char merge_usage[] =
	"usage: skipbo-arena merge [--partial] OUT DIR...\n"
	"\n"
	"Merge the output directories of the shards of one tournament (run --shard K/N)\n"
	"into the new directory OUT: games.jsonl in schedule order, replays, transcripts,\n"
	"the bots' stderr logs and tournament.json. A game recorded in several DIRs must\n"
	"have the same record apart from timings. \"skipbo-arena report OUT\" then ranks\n"
	"the bots as a run on one machine would.\n"
	"\n"
	"      --partial   merge even when games are missing (listed; a run of the\n"
	"                  tournament file with -o OUT plays them)\n"
	"  -h, --help      this text\n"
	"\n"
	"Exit status: 0 merged, 1 not shards of one tournament, games missing, records\n"
	"that disagree, or trouble with the files; 2 bad usage.\n";

/* Each missing game, up to MISSING_LISTED of them. */
static void say_missing(void *ctx, const char *id, int shard, uint32_t nshards)
{
	uint64_t *listed = ctx;

	if (++*listed > MISSING_LISTED)
		return;
	if (nshards)
		fprintf(stderr, "merge: missing %s (shard %d of %u)\n", id, shard, nshards);
	else
		fprintf(stderr, "merge: missing %s\n", id);
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "partial", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		OPTIONS_VERSION_ENTRY,
		{ NULL, 0, NULL, 0 },
	};
	struct merge *m = NULL;
	uint64_t missing, written, listed = 0;
	int partial = 0, c, ret = 1;
	const char *out, *const *dirs;
	size_t ndirs;
	char err[4096 + 512];

	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 'P') {
			partial = 1;
		} else if (c == 'h') {
			fputs(merge_usage, stdout);
			return 0;
		} else if (c == OPTIONS_VERSION) {
			return options_print_version();
		} else {
			fputs(merge_usage, stderr);
			return 2;
		}
	}
	if (argc - optind < 2) {
		warnx("merge: expected OUT and at least one DIR (see \"skipbo-arena merge --help\")");
		return 2;
	}
	out = argv[optind];
	dirs = (const char *const *)(argv + optind + 1);
	ndirs = (size_t)(argc - optind - 1);
	if (merge_open(dirs, ndirs, &m, err, sizeof(err)) < 0) {
		warnx("merge: %s", err);
		goto out;
	}
	if (merge_foreign(m))
		warnx("merge: %llu record(s) not of this tournament's schedule are left out",
		      (unsigned long long)merge_foreign(m));
	missing = merge_missing(m, say_missing, &listed);
	if (missing > MISSING_LISTED)
		fprintf(stderr, "merge: ... %llu games missing in all\n", (unsigned long long)missing);
	if (missing && !partial) {
		warnx("merge: %llu of %llu games are missing; nothing written (run the shards that "
		      "hold them again, or give --partial)", (unsigned long long)missing,
		      (unsigned long long)merge_count(m));
		goto out;
	}
	if (merge_write(m, out, &written, err, sizeof(err)) < 0) {
		warnx("merge: %s", err);
		goto out;
	}
	printf("merged %llu of %llu games from %zu directories into %s (%llu recorded twice "
	       "and alike)\n", (unsigned long long)written, (unsigned long long)merge_count(m),
	       ndirs, out, (unsigned long long)merge_duplicates(m));
	ret = 0;
out:
	merge_free(m);
	return ret;
}
