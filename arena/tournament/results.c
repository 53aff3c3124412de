/*
 * results.c - the output directory and games.jsonl (contract in results.h).
 */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "durable.h"
#include "journal.h"
#include "programs.h"
#include "tournament_file.h"

struct results {
	char *dir;
	struct journal *games;  /* games.jsonl */
	pthread_mutex_t lock;
};

static int make_dir(const char *path)
{
	char buf[PATH_MAX];

	if (strlcpy(buf, path, sizeof(buf)) >= sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		/* writable by the arena's user alone, whatever the umask: no bot of another uid writes here */
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* A value for a message: a short scalar as JSON text, anything else by its kind. */
static void short_value(const cJSON *v, char *buf, size_t size)
{
	char *text = NULL;

	if (!v)
		snprintf(buf, size, "absent");
	else if (cJSON_IsArray(v) || cJSON_IsObject(v))
		snprintf(buf, size, "%s", cJSON_IsArray(v) ? "an array" : "an object");
	else if ((text = cJSON_PrintUnformatted(v)) && strlen(text) <= 40)
		snprintf(buf, size, "%s", text);
	else
		snprintf(buf, size, "a long value");
	cJSON_free(text);
}

/* One differing setting into out: "path: A in the directory, B now". */
static void add_difference(const char *path, const cJSON *was, const cJSON *now, char *out,
			   size_t size, int *n)
{
	char a[48], b[48];
	size_t used = strlen(out);

	if (++*n > 6) {
		if (*n == 7 && used < size)
			snprintf(out + used, size - used, "; and more");
		return;
	}
	short_value(was, a, sizeof(a));
	short_value(now, b, sizeof(b));
	if (used < size)
		snprintf(out + used, size - used, "%s%s: %s in the directory, %s now", used ? "; " : "",
			 path, a, b);
}

/* The settings where two tournament trees differ, by key path, into out (a few at most). */
static void differences(const cJSON *was, const cJSON *now, const char *path, char *out,
			size_t size, int *n)
{
	char sub[256];

	if (cJSON_Compare(was, now, 1))
		return;
	if (cJSON_IsObject(was) && cJSON_IsObject(now)) {
		const cJSON *item;

		cJSON_ArrayForEach(item, was) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", item->string);
			differences(item, cJSON_GetObjectItemCaseSensitive(now, item->string), sub, out,
				    size, n);
		}
		cJSON_ArrayForEach(item, now)
			if (!cJSON_GetObjectItemCaseSensitive(was, item->string)) {
				snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "",
					 item->string);
				add_difference(sub, NULL, item, out, size, n);
			}
		return;
	}
	if (cJSON_IsArray(was) && cJSON_IsArray(now) &&
	    cJSON_GetArraySize(was) == cJSON_GetArraySize(now)) {
		for (int i = 0; i < cJSON_GetArraySize(was); i++) {
			snprintf(sub, sizeof(sub), "%s[%d]", path, i);
			differences(cJSON_GetArrayItem(was, i), cJSON_GetArrayItem(now, i), sub, out,
				    size, n);
		}
		return;
	}
	add_difference(path, was, now, out, size, n);
}

/*
 * dir's tournament.json checked against now's and kept, with the sandbox used
 * and missing "programs" noted; or now's written, started now, when it has
 * none (results.h).
 */
static int check_tournament(const char *dir, struct records_tournament_doc *now, char *err,
			    size_t err_size)
{
	struct records_tournament_doc was = { 0 };
	cJSON *was_games = NULL, *now_games = NULL;
	const cJSON *programs = records_tournament_programs(now);
	char why[PATH_MAX + 256];
	int ret = records_tournament_doc_load(dir, &was, err, err_size), changed;

	if (ret == -ENOENT) {
		if ((ret = records_tournament_set_started(now, NULL)) == 0)
			ret = records_tournament_write(dir, now, err, err_size);
		goto out;
	}
	if (ret < 0)
		goto out;
	ret = -ENOMEM;
	if (!(was_games = records_tournament_games_tree(&was)) ||
	    !(now_games = records_tournament_games_tree(now)))
		goto out;
	ret = -EEXIST;
	if (!cJSON_Compare(was_games, now_games, 1)) {
		char what[1024] = "";
		int n = 0;

		differences(was_games, now_games, "", what, sizeof(what), &n);
		snprintf(err, err_size, "\"%s\" holds a different tournament (%s): resume it with "
			 "the same tournament file and options, or choose another output directory",
			 dir, what[0] ? what : "bots, rules, seed, deals or shard differ");
		goto out;
	}
	ret = -ESTALE;
	if (programs_changed(was.root, now->root, why, sizeof(why))) {
		snprintf(err, err_size, "\"%s\": %s; its new games would be ranked with the old",
			 dir, why);
		goto out;
	}
	/* a resume with the sandbox on where an earlier run had it off, or the other way round */
	changed = records_tournament_note_sandbox(&was, records_tournament_sandbox(now));
	if (changed >= 0 && programs && !records_tournament_programs(&was))
		changed = records_tournament_set_programs(&was, cJSON_Duplicate(programs, 1)) < 0 ? -ENOMEM : 1;
	ret = changed < 0 ? changed : 0;
	if (changed > 0)
		ret = records_tournament_write(dir, &was, err, err_size);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	records_tournament_doc_release(&was);
	cJSON_Delete(was_games);
	cJSON_Delete(now_games);
	return ret;
}

int results_move_aside(const char *dir, char *moved, size_t size)
{
	char path[PATH_MAX], base[PATH_MAX];
	size_t n;
	struct stat st;

	moved[0] = '\0';
	if (strlcpy(base, dir, sizeof(base)) >= sizeof(base))
		return -ENAMETOOLONG;
	/* "out/" is moved as "out", not into itself */
	for (n = strlen(base); n > 1 && base[n - 1] == '/'; n--)
		base[n - 1] = '\0';
	if (lstat(base, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (snprintf(path, sizeof(path), "%s/tournament.json", base) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (!S_ISDIR(st.st_mode) || lstat(path, &st) < 0)
		return -ENOTEMPTY;
	for (int k = 1; k < 1000; k++) {
		if (snprintf(moved, size, "%s.old-%d", base, k) >= (int)size)
			return -ENAMETOOLONG;
		/* never over anything: an existing name is skipped, not replaced */
		if (renameat2(AT_FDCWD, base, AT_FDCWD, moved, RENAME_NOREPLACE) == 0) {
			int ret = durable_sync_parent(base);

			return ret < 0 ? ret : 1;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int results_open(const char *dir, struct records_tournament_doc *tournament,
		 struct results **out, char *err, size_t err_size)
{
	struct results *r = NULL;
	char path[PATH_MAX];
	int ret;

	*out = NULL;
	if (snprintf(path, sizeof(path), "%s/replays", dir) >= (int)sizeof(path)) {
		ret = -ENAMETOOLONG;
		snprintf(err, err_size, "\"%s\": path too long", dir);
		goto out;
	}
	if ((ret = make_dir(path)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/logs", dir);
	if ((ret = make_dir(path)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		goto out;
	}
	if (tournament && (ret = check_tournament(dir, tournament, err, err_size)) < 0)
		goto out;
	ret = -ENOMEM;
	if (!(r = calloc(1, sizeof(*r))) || !(r->dir = strdup(dir)))
		goto out;
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	/* its torn last line cut (journal.h) */
	if ((ret = journal_open(path, &r->games)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		goto out;
	}
	/* games.jsonl, replays/ and logs/ exist on the disk before any record is appended */
	if ((ret = durable_sync_dir(dir)) < 0 || (ret = durable_sync_parent(dir)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", dir, strerror(-ret));
		journal_close(r->games);
		goto out;
	}
	pthread_mutex_init(&r->lock, NULL);
	*out = r;
	r = NULL;
	ret = 0;
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	if (r)
		free(r->dir);
	free(r);
	return ret;
}

int results_scan(struct results *r, int (*fn)(void *ctx, const struct results_record *rec),
		 void *ctx, char *err, size_t err_size)
{
	return records_scan_dir(r->dir, fn, ctx, err, err_size);
}

int results_append(struct results *r, const char *line, size_t len)
{
	int ret;

	pthread_mutex_lock(&r->lock);
	ret = journal_append(r->games, line, len, true);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

void results_close(struct results *r)
{
	if (!r)
		return;
	journal_close(r->games);
	pthread_mutex_destroy(&r->lock);
	free(r->dir);
	free(r);
}

/* A referee's time summary as a record's (record.h). */
static struct record_time record_time_of(const struct referee_time_stats *t)
{
	return (struct record_time){ .moves = t->moves, .mean_us = t->mean_us,
				     .median_us = t->median_us, .p99_us = (double)t->p99_us,
				     .max_us = (double)t->max_us, .has_cpu = true,
				     .cpu_mean_us = t->cpu_mean_us, .cpu_max_us = t->cpu_max_us };
}

int results_format_record(struct jsonw *w, const struct results_game *rg)
{
	const struct schedule_game *g = rg->game;
	const struct referee_outcome *o = rg->outcome;
	struct record_fault *faults = calloc(o->nfaults + 1, sizeof(*faults));
	struct record rec = {
		.id = g->id, .table = g->table, .deal = g->deal, .rotation = g->rotation,
		.seed = g->seed, .players = o->players, .partnership = o->partnership,
		.match = o->match, .games = o->games, .nwinners = o->nwinners,
		.reason = o->reason ? end_reason_name(o->reason) : "none",
		.turns = o->turns, .moves = o->moves, .has_time = true, .faults = faults,
		.nfaults = o->nfaults,
	};
	int teams = o->partnership ? o->players / 2 : o->players, ret;

	if (!faults)
		return -ENOMEM;
	for (int s = 0; s < o->players; s++) {
		/* partners sit opposite: team t holds seats t, t + teams, ... */
		rec.team[s] = (uint8_t)(s % teams);
		rec.bots[s] = rg->bots[s];
		rec.placings[s] = o->placings[s];
		rec.stock_left[s] = o->stock_left[s];
		rec.scores[s] = o->scores[s];
		rec.time[s] = record_time_of(&o->time[s]);
	}
	memcpy(rec.winners, o->winners, (size_t)o->nwinners * sizeof(*o->winners));
	for (size_t i = 0; i < o->nfaults; i++) {
		const struct referee_fault *f = &o->faults[i];

		faults[i] = (struct record_fault){ f->seat, rg->bots[f->seat],
						   protocol_fault_kind_names[f->kind], f->game,
						   f->turn, f->move, f->reason, f->line };
	}
	if (rg->replay) {
		rec.replay = rg->replay->file;
		rec.has_replay_at = true;
		rec.replay_offset = rg->replay->offset;
		rec.replay_line = rg->replay->line;
	}
	ret = record_format(w, &rec);
	free(faults);
	return ret;
}
