/*
 * cmd_status.c - `skipbo-arena status DIR...`: how far each output directory
 * (a whole tournament or a shard of one) is, read only, also while it runs.
 */
#include <dirent.h>
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

#include <cjson/cJSON.h>

#include "commands.h"
#include "desk.h"
#include "host_config.h"
#include "league_entries.h"
#include "options.h"
#include "records.h"
#include "schedule.h"
#include "tournament_file.h"

static const char status_usage[] =
	"usage: skipbo-arena status DIR...\n"
	"\n"
	"For each tournament output directory (of run, or of run --shard K/N): the games\n"
	"recorded of those it must play, and how long ago games.jsonl last grew.\n"
	"With several shards of one tournament, a total line. For a league played by\n"
	"workers too (arena/WORKERS.md): each worker and the deals parked.\n"
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

	/* a league's games are all its own, and it has no end to measure them against */
	if (y->t->league) {
		y->recorded++;
		return 0;
	}
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

int status_progress(const char *dir, struct status_progress *p, char *err, size_t err_size)
{
	struct records_tournament t = { 0 };
	struct tally y = { 0 };
	char path[PATH_MAX];
	struct stat st;
	long elapsed;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	p->eta_s = -1;
	p->age_s = -1;
	if (records_read_tournament(dir, &t, err, err_size) < 0)
		goto out;
	y.t = &t;
	p->league = t.league;
	if (!t.league && schedule_new_gauntlet(t.nbots, t.challenger, t.players, t.deals, t.duplicate,
				  t.pairings, t.seed, &y.sched) < 0) {
		snprintf(err, err_size, "\"%s/tournament.json\": not a schedule of games", dir);
		goto out;
	}
	p->total = t.league ? 0 : t.nshards ? schedule_shard_count(y.sched, t.shard - 1, t.nshards)
					    : schedule_count(y.sched);
	p->shard = t.shard;
	p->nshards = t.nshards;
	if (!(y.seen = calloc((t.league ? 0 : schedule_count(y.sched)) / 8 + 1, 1))) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	if (stat(path, &st) == 0) {
		if (records_scan_dir(dir, on_record, &y, err, err_size) < 0)
			goto out;
		p->age_s = (long)(time(NULL) - st.st_mtime);
	} else if (errno != ENOENT) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		goto out;
	}
	p->recorded = y.recorded;
	if (t.league)
		p->total = y.recorded;
	/* at the mean rate since the start, resumed runs and pauses included */
	elapsed = t.started < 0 ? -1 : (long)(time(NULL) - (time_t)t.started);
	if (y.recorded && y.recorded < p->total && elapsed > 0)
		p->eta_s = (long)((double)elapsed * (double)(p->total - y.recorded) /
				  (double)y.recorded);
	p->same = t.same;
	t.same = NULL;
	ret = 0;
out:
	free(y.seen);
	schedule_free(y.sched);
	records_tournament_release(&t);
	return ret;
}

/* A league's challenges (DIR/challenges/NAME, tournaments of their own), apart from its games. */
static void challenges_status(const char *dir)
{
	char path[PATH_MAX], err[PATH_MAX + 512];
	struct dirent **names = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/challenges", dir);
	if ((n = scandir(path, &names, NULL, alphasort)) < 0)
		return;
	for (int i = 0; i < n; i++) {
		struct status_progress p;
		char sub[PATH_MAX * 2];

		snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
		/* status_progress clears p first, whatever it returns */
		if (names[i]->d_name[0] != '.' && status_progress(sub, &p, err, sizeof(err)) == 0) {
			printf("  challenge %s (unrated): %llu of %llu games%s\n", names[i]->d_name,
			       (unsigned long long)p.recorded, (unsigned long long)p.total,
			       p.recorded == p.total ? ", complete" : "");
			free(p.same);
		}
		free(names[i]);
	}
	free(names);
}

static double number_at(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *string_at(const cJSON *o, const char *key, const char *none)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : none;
}

/* A league's workers and parked deals (DIR/workers.jsonl, desk.h); nothing without one. */
static void workers_status(const char *dir)
{
	char err[PATH_MAX + 512];
	struct host_config hc;
	const cJSON *w, *p, *f;
	cJSON *doc = NULL;
	int rc;

	if (host_config_read(dir, &hc, err, sizeof(err)) < 0)
		host_config_defaults(&hc);
	if ((rc = desk_read_state(dir, (unsigned)hc.expire_seconds, &doc, err, sizeof(err))) < 0) {
		if (rc != -ENOENT)
			warnx("status: %s", err);
		return;
	}
	printf("  workers: %d, %g games leased now\n", cJSON_GetArraySize(
		cJSON_GetObjectItemCaseSensitive(doc, "workers")), number_at(doc, "leased_games"));
	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(doc, "workers")) {
		const cJSON *heard = cJSON_GetObjectItemCaseSensitive(w, "last_heard");
		const char *why = string_at(w, "why", NULL);
		char when[64] = "never";

		if (cJSON_IsNumber(heard))
			snprintf(when, sizeof(when), "%.0fs ago", difftime(time(NULL),
									(time_t)heard->valuedouble));
		printf("    %s%s: %s, %.2f games/s, %g leases, %g games, %g re-played, %g "
		       "mismatches, %g re-plays failed, last heard %s%s%s\n",
		       string_at(w, "name", "?"), cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w,
		       "trusted")) ? " (trusted)" : "", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
		       w, "suspended")) ? "suspended" : cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
		       w, "alive")) ? "alive" : "silent", number_at(w, "games_per_second"),
		       number_at(w, "leases"), number_at(w, "games"), number_at(w, "replayed"),
		       number_at(w, "mismatches"), number_at(w, "replay_failures"), when,
		       why ? ": " : "", why ? why : "");
	}
	printf("  parked deals: %d\n", cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc,
											"parked")));
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "parked")) {
		printf("    %s (%g games):", string_at(p, "deal", "?"), number_at(p, "games"));
		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(p, "reasons"))
			printf("%s %s", f == cJSON_GetObjectItemCaseSensitive(p, "reasons")->child ?
			       "" : ";", cJSON_IsString(f) ? f->valuestring : "?");
		printf("\n");
	}
	cJSON_Delete(doc);
}

/* A league's entries under its line: how many play, and each one out of play and why. */
static void league_status(const char *dir)
{
	struct league_entries es;
	char err[PATH_MAX + 256];

	if (league_entries_open(&es, dir, err, sizeof(err)) < 0) {
		warnx("status: %s", err);
		return;
	}
	league_entries_summary(&es, stdout);
	league_entries_release(&es);
	workers_status(dir);
	challenges_status(dir);
}

/* Print one directory's line; 0 complete, 1 not, -1 unreadable. Adds to the totals. */
static int status_one(const char *dir, uint64_t *recorded, uint64_t *total, char **same)
{
	struct status_progress p;
	char err[PATH_MAX + 512], share[64], age[64] = "";

	if (status_progress(dir, &p, err, sizeof(err)) < 0) {
		warnx("status: %s", err);
		return -1;
	}
	if (p.age_s >= 0)
		snprintf(age, sizeof(age), ", last record %llds ago", (long long)p.age_s);
	if (p.league) {
		printf("%s: league: %llu games recorded%s\n", dir, (unsigned long long)p.recorded,
		       age);
		league_status(dir);
		*recorded += p.recorded;
		*total += p.total;
		free(p.same);
		return 0;
	}
	if (p.nshards)
		snprintf(share, sizeof(share), "shard %u of %u", p.shard, p.nshards);
	else
		snprintf(share, sizeof(share), "whole tournament");
	printf("%s: %s: %llu of %llu games (%.1f%%)%s%s\n", dir, share,
	       (unsigned long long)p.recorded, (unsigned long long)p.total,
	       p.total ? 100.0 * (double)p.recorded / (double)p.total : 100.0,
	       p.recorded == p.total ? ", complete" : "", p.recorded == p.total ? "" : age);
	*recorded += p.recorded;
	*total += p.total;
	if (!*same)
		*same = p.same;
	else if (strcmp(*same, p.same ? p.same : "") != 0)
		**same = '\0'; /* not all of one tournament: no total */
	if (*same != p.same)
		free(p.same);
	return p.recorded == p.total ? 0 : 1;
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
		return options_bad_usage(status_usage, longopts, argv);
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
