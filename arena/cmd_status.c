/*
 * cmd_status.c - `skipbo-arena status DIR...`: how far each output directory
 * (a whole tournament or a shard of one) is, read only, also while it runs.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "options.h"
#include "records.h"
#include "schedule.h"
#include "tournament_file.h"

static const char status_usage[] =
	"usage: skipbo-arena status DIR...\n"
	"\n"
	"For each tournament output directory (of run, or of run --shard K/N): the games\n"
	"recorded of those it must play, and how long ago games.jsonl last grew.\n"
	"With several shards of one tournament, a total line.\n"
	"\n"
	"Exit status: 0 every directory complete, 1 some games left or a directory\n"
	"unreadable, 2 bad usage.\n";

struct tally {
	struct schedule *sched;
	const struct records_tournament *t;
	uint8_t *seen;      /* bitmap over game indices */
	uint64_t recorded;  /* distinct games of the directory's share */
};

static int on_record(void *ctx, const struct results_record *rec)
{
	struct tally *y = ctx;
	uint64_t i;

	if (schedule_index_of(y->sched, rec->id, &i) < 0 || rec->players != y->t->players)
		return 0;
	if (y->t->nshards &&
	    schedule_shard_of(y->sched, i, y->t->nshards) != (int)y->t->shard - 1)
		return 0;
	if (!(y->seen[i / 8] >> (i % 8) & 1)) {
		y->seen[i / 8] |= (uint8_t)(1u << (i % 8));
		y->recorded++;
	}
	return 0;
}

/* Print one directory's line; 0 complete, 1 not, -1 unreadable. Adds to the totals. */
static int status_one(const char *dir, uint64_t *recorded, uint64_t *total, char **same)
{
	struct records_tournament t;
	struct tally y = { 0 };
	char err[PATH_MAX + 512], path[PATH_MAX], share[64], age[64] = "";
	struct stat st;
	uint64_t games;
	int ret = -1;

	if (records_read_tournament(dir, &t, err, sizeof(err)) < 0) {
		warnx("status: %s", err);
		goto out;
	}
	y.t = &t;
	if (schedule_new_gauntlet(t.nbots, t.challenger, t.players, t.deals, t.duplicate, t.seed,
				  &y.sched) < 0) {
		warnx("status: \"%s/tournament.json\": not a schedule of games", dir);
		goto out;
	}
	games = t.nshards ? schedule_shard_count(y.sched, t.shard - 1, t.nshards)
			  : schedule_count(y.sched);
	if (!(y.seen = calloc(schedule_count(y.sched) / 8 + 1, 1))) {
		warnx("status: out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	if (stat(path, &st) == 0) {
		if (records_scan_dir(dir, on_record, &y, err, sizeof(err)) < 0) {
			warnx("status: %s", err);
			goto out;
		}
		snprintf(age, sizeof(age), ", last record %llds ago",
			 (long long)(time(NULL) - st.st_mtime));
	} else if (errno != ENOENT) {
		warnx("status: \"%s\": %s", path, strerror(errno));
		goto out;
	}
	if (t.nshards)
		snprintf(share, sizeof(share), "shard %u of %u", t.shard, t.nshards);
	else
		snprintf(share, sizeof(share), "whole tournament");
	printf("%s: %s: %llu of %llu games (%.1f%%)%s%s\n", dir, share,
	       (unsigned long long)y.recorded, (unsigned long long)games,
	       games ? 100.0 * (double)y.recorded / (double)games : 100.0,
	       y.recorded == games ? ", complete" : "", y.recorded == games ? "" : age);
	*recorded += y.recorded;
	*total += games;
	if (!*same)
		*same = strdup(t.same);
	else if (strcmp(*same, t.same) != 0)
		**same = '\0'; /* not all of one tournament: no total */
	ret = y.recorded == games ? 0 : 1;
out:
	free(y.seen);
	schedule_free(y.sched);
	records_tournament_release(&t);
	return ret;
}

int cmd_status(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		OPTIONS_VERSION_ENTRY,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t recorded = 0, total = 0;
	char *same = NULL;
	int c, ret = 0;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(status_usage, stdout);
			return 0;
		}
		if (c == OPTIONS_VERSION)
			return options_print_version();
		fputs(status_usage, stderr);
		return 2;
	}
	if (optind >= argc) {
		warnx("status: expected at least one DIR (see \"skipbo-arena status --help\")");
		return 2;
	}
	for (int i = optind; i < argc; i++)
		if (status_one(argv[i], &recorded, &total, &same) != 0)
			ret = 1;
	if (argc - optind > 1 && same && *same)
		printf("total: %llu of %llu games (%.1f%%)\n", (unsigned long long)recorded,
		       (unsigned long long)total,
		       total ? 100.0 * (double)recorded / (double)total : 100.0);
	free(same);
	return ret;
}
