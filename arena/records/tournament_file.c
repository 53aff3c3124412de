/*
 * tournament_file.c - tournament.json read back (contract in tournament_file.h).
 */
#include "tournament_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "journal.h"
#include "json_strict.h"
#include "record.h"

#define STAMP_FORMAT "%Y-%m-%dT%H:%M:%SZ"

char *records_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0)
		goto out;
	if (!(text = malloc((size_t)size + 1)))
		goto out;
	*len = fread(text, 1, (size_t)size, f);
	text[*len] = '\0';
out:
	fclose(f);
	return text;
}

/* The keys of one run, which the games-only form leaves out. */
static const char *const run_keys[] = { "concurrency", "pin", "output", "stderr_cap",
					"stderr_total_cap", "sandbox", "programs", "replays",
					"started" };

char *records_tournament_games_only(const char *text, size_t len)
{
	struct records_tournament_doc d = { 0 };
	cJSON *games = NULL;
	char *out = NULL;

	json_strict_parse(text, len, &d.root, NULL);
	if (cJSON_IsObject(d.root) && (games = records_tournament_games_tree(&d)))
		out = cJSON_Print(games);
	cJSON_Delete(games);
	records_tournament_doc_release(&d);
	return out;
}

/* Drop what differs between machines playing the same games: see tournament_file.h. */
static int drop_paths(cJSON *root)
{
	cJSON *bot, *first;

	cJSON_DeleteItemFromObjectCaseSensitive(root, "shard");
	cJSON_ArrayForEach(bot, cJSON_GetObjectItemCaseSensitive(root, "bots")) {
		cJSON_DeleteItemFromObjectCaseSensitive(bot, "cwd");
		first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(bot, "command"), 0);
		if (cJSON_IsString(first) && strrchr(first->valuestring, '/')) {
			cJSON *base = cJSON_CreateString(strrchr(first->valuestring, '/') + 1);

			if (!base)
				return -ENOMEM;
			cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(bot, "command"), 0,
						 base);
		}
	}
	return 0;
}

static int read_shard(const cJSON *item, struct records_tournament *t)
{
	unsigned k, n;
	int end = 0;

	if (!item)
		return 0;
	if (!cJSON_IsString(item) || sscanf(item->valuestring, "%u/%u%n", &k, &n, &end) != 2 ||
	    item->valuestring[end] || k < 1 || k > n)
		return -EBADMSG;
	t->shard = k;
	t->nshards = n;
	return 0;
}

/* "sprt": an object of four finite numbers, or absent. */
static int read_sprt(const cJSON *item, struct records_sprt *s)
{
	static const char *const keys[] = { "elo0", "elo1", "alpha", "beta" };
	double *values[] = { &s->elo0, &s->elo1, &s->alpha, &s->beta };

	if (!item)
		return 0;
	if (!cJSON_IsObject(item) || cJSON_GetArraySize(item) != 4)
		return -EBADMSG;
	for (int k = 0; k < 4; k++)
		if (json_strict_double(cJSON_GetObjectItemCaseSensitive(item, keys[k]), "sprt",
				       keys[k], -1e9, 1e9, 0, values[k], NULL) < 0)
			return -EBADMSG;
	s->on = 1;
	return 0;
}

/* A gauntlet's "challengers" as flags over "bots" (t->challenger stays NULL for a round robin). */
static int read_challengers(const cJSON *root, struct records_tournament *t)
{
	const cJSON *names = cJSON_GetObjectItemCaseSensitive(root, "challengers"), *name, *bot;

	if (!names)
		return 0;
	if (!cJSON_IsArray(names) || !(t->challenger = calloc(t->nbots + 1, 1)))
		return -1;
	cJSON_ArrayForEach(name, names) {
		size_t b = 0;

		cJSON_ArrayForEach(bot, cJSON_GetObjectItemCaseSensitive(root, "bots")) {
			const cJSON *n = cJSON_GetObjectItemCaseSensitive(bot, "name");

			if (cJSON_IsString(name) && cJSON_IsString(n) &&
			    strcmp(n->valuestring, name->valuestring) == 0)
				break;
			b++;
		}
		if (b >= t->nbots)
			return -1;
		t->challenger[b] = 1;
	}
	return 0;
}

/* "name" (a string, or absent) and "started" (a UTC stamp, or absent). */
static int read_name_started(const cJSON *root, struct records_tournament *t)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(root, "started");
	struct tm tm = { 0 };
	const char *end;

	if ((name && !cJSON_IsString(name)) || (at && !cJSON_IsString(at)))
		return -1;
	if (!(t->name = strdup(name ? name->valuestring : "")))
		return -1;
	t->started = -1;
	if (!at)
		return 0;
	if (!(end = strptime(at->valuestring, STAMP_FORMAT, &tm)) || *end)
		return -1;
	t->started = (long long)timegm(&tm);
	return 0;
}

int records_read_tournament(const char *dir, struct records_tournament *t, char *err,
			    size_t err_size)
{
	struct json_strict_error e = { 0 };
	const cJSON *seed;
	cJSON *root = NULL;
	char path[PATH_MAX], *games = NULL, *end;
	int64_t v;
	size_t len = 0;
	int ret = -EBADMSG;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/tournament.json", dir);
	if (!(t->text = records_read_file(path, &len))) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		return ret;
	}
	if (json_strict_parse(t->text, len, &root, &e) < 0) {
		snprintf(err, err_size, "\"%s\", line %lu: %s", path, e.line, e.message);
		goto out;
	}
	seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "players"), NULL, "players", 2,
			    RECORD_SEATS_MAX, 0, &v, &e) < 0)
		goto refused;
	t->players = (int)v;
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "deals"), NULL, "deals", 1,
			    UINT32_MAX, 0, &v, &e) < 0)
		goto refused;
	t->deals = (uint32_t)v;
	t->duplicate = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "duplicate"));
	v = 1;
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "schedule"), NULL, "schedule", 1,
			    RECORDS_SCHEDULE_MAX, JSON_STRICT_OPTIONAL, &v, &e) < 0)
		goto refused;
	t->schedule = (int)v;
	t->pairings = t->schedule > 1 &&
		      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
			      cJSON_GetObjectItemCaseSensitive(root, "rules"), "partnership"));
	t->nbots = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "bots"));
	errno = 0;
	if (!cJSON_IsString(seed) || seed->valuestring[0] < '0' || seed->valuestring[0] > '9' ||
	    (t->seed = strtoull(seed->valuestring, &end, 10), *end) || errno) {
		snprintf(err, err_size, "\"%s\": seed: expected a decimal string", path);
		goto out;
	}
	if (read_shard(cJSON_GetObjectItemCaseSensitive(root, "shard"), t) < 0) {
		snprintf(err, err_size, "\"%s\": shard: expected \"K/N\" with 1 <= K <= N", path);
		goto out;
	}
	if (read_sprt(cJSON_GetObjectItemCaseSensitive(root, "sprt"), &t->sprt) < 0) {
		snprintf(err, err_size, "\"%s\": sprt: expected elo0, elo1, alpha and beta", path);
		goto out;
	}
	t->league = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "league"));
	if (read_name_started(root, t) < 0) {
		snprintf(err, err_size, "\"%s\": name or started: expected a string (started: "
			 "YYYY-MM-DDTHH:MM:SSZ)", path);
		goto out;
	}
	if (read_challengers(root, t) < 0) {
		snprintf(err, err_size, "\"%s\": challengers: expected names of bots", path);
		goto out;
	}
	ret = -ENOMEM;
	if (!(games = cJSON_Print(root)) || !(t->same = records_tournament_games_only(games, strlen(games))))
		goto out;
	cJSON_Delete(root);
	root = NULL;
	json_strict_parse(t->same, strlen(t->same), &root, NULL);
	free(t->same);
	t->same = NULL;
	if (!root || drop_paths(root) < 0 || !(t->same = cJSON_Print(root)))
		goto out;
	ret = 0;
	goto out;
refused:
	snprintf(err, err_size, "\"%s\": %s", path, e.message);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	cJSON_Delete(root);
	free(games);
	return ret;
}

void records_tournament_release(struct records_tournament *t)
{
	free(t->text);
	free(t->same);
	free(t->name);
	free(t->challenger);
	memset(t, 0, sizeof(*t));
}

cJSON *records_tournament_tree(const char *dir)
{
	char path[PATH_MAX], *text;
	size_t len = 0;
	cJSON *root = NULL;

	if (snprintf(path, sizeof(path), "%s/tournament.json", dir) >= (int)sizeof(path) ||
	    !(text = records_read_file(path, &len)))
		return NULL;
	/* the arena writes a few KiB; a bigger file is not its tournament.json */
	if (len < (1 << 20) - 1)
		json_strict_parse(text, len, &root, NULL);
	free(text);
	return root;
}

int records_tournament_doc_parse(const char *text, struct records_tournament_doc *d)
{
	d->root = NULL;
	if (json_strict_parse(text, strlen(text), &d->root, NULL) < 0 || !cJSON_IsObject(d->root)) {
		records_tournament_doc_release(d);
		return -EBADMSG;
	}
	return 0;
}

int records_tournament_doc_new(const char *settings, struct records_tournament_doc *d)
{
	d->root = NULL;
	return settings ? records_tournament_doc_parse(settings, d) : -ENOMEM;
}

int records_tournament_doc_load(const char *dir, struct records_tournament_doc *d, char *err,
				size_t err_size)
{
	struct json_strict_error e = { 0 };
	char path[PATH_MAX], *text;
	size_t len = 0;
	int ret;

	d->root = NULL;
	if (snprintf(path, sizeof(path), "%s/tournament.json", dir) >= (int)sizeof(path)) {
		snprintf(err, err_size, "\"%s\": path too long", dir);
		return -ENAMETOOLONG;
	}
	if (!(text = records_read_file(path, &len))) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		return ret;
	}
	ret = 0;
	if (json_strict_parse(text, len, &d->root, &e) < 0) {
		snprintf(err, err_size, "\"%s\", line %lu: %s", path, e.line, e.message);
		ret = -EBADMSG;
	} else if (!cJSON_IsObject(d->root)) {
		snprintf(err, err_size, "\"%s\": not a JSON object", path);
		ret = -EBADMSG;
	}
	if (ret < 0)
		records_tournament_doc_release(d);
	free(text);
	return ret;
}

void records_tournament_doc_release(struct records_tournament_doc *d)
{
	cJSON_Delete(d->root);
	d->root = NULL;
}

/* key set to item (taken over), in the place of any earlier value, else at the end. */
static int set_item(struct records_tournament_doc *d, const char *key, cJSON *item)
{
	if (!item)
		return -ENOMEM;
	if (cJSON_GetObjectItemCaseSensitive(d->root, key))
		return cJSON_ReplaceItemInObjectCaseSensitive(d->root, key, item) ? 0 : -ENOMEM;
	return cJSON_AddItemToObject(d->root, key, item) ? 0 : -ENOMEM;
}

int records_tournament_set_shard(struct records_tournament_doc *d, uint32_t shard,
				 uint32_t nshards)
{
	char value[32];

	if (!nshards) {
		cJSON_DeleteItemFromObjectCaseSensitive(d->root, "shard");
		return 0;
	}
	snprintf(value, sizeof(value), "%u/%u", shard + 1, nshards);
	return set_item(d, "shard", cJSON_CreateString(value));
}

int records_tournament_set_sprt(struct records_tournament_doc *d, const struct records_sprt *s)
{
	cJSON *o;

	if (!s->on)
		return 0;
	if (!(o = cJSON_CreateObject()) || !cJSON_AddNumberToObject(o, "elo0", s->elo0) ||
	    !cJSON_AddNumberToObject(o, "elo1", s->elo1) ||
	    !cJSON_AddNumberToObject(o, "alpha", s->alpha) ||
	    !cJSON_AddNumberToObject(o, "beta", s->beta)) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	return set_item(d, "sprt", o);
}

int records_tournament_set_programs(struct records_tournament_doc *d, cJSON *programs)
{
	return set_item(d, "programs", programs);
}

int records_tournament_set_league(struct records_tournament_doc *d,
				  const struct records_league_keys *k)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddNumberToObject(o, "floor", (double)k->floor) ||
	    !cJSON_AddNumberToObject(o, "max_games", (double)k->max_games) ||
	    !cJSON_AddNumberToObject(o, "max_minutes", (double)k->max_minutes) ||
	    !cJSON_AddNumberToObject(o, "suspend_after", k->suspend_after) ||
	    !cJSON_AddBoolToObject(o, "stop_when_separated", k->stop_when_separated)) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	return set_item(d, "league", o);
}

int records_tournament_set_output(struct records_tournament_doc *d, const char *dir)
{
	return set_item(d, "output", cJSON_CreateString(dir));
}

int records_tournament_set_started(struct records_tournament_doc *d,
				   const struct records_tournament_doc *earlier)
{
	const cJSON *was = earlier ? cJSON_GetObjectItemCaseSensitive(earlier->root, "started")
				   : NULL;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (cJSON_IsString(was))
		return set_item(d, "started", cJSON_CreateString(was->valuestring));
	/* without a clock the file goes without its start, as report and status allow */
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), STAMP_FORMAT, &tm))
		return 0;
	return set_item(d, "started", cJSON_CreateString(stamp));
}

const char *records_tournament_sandbox(const struct records_tournament_doc *d)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(d->root, "sandbox");

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int records_tournament_note_sandbox(struct records_tournament_doc *d, const char *other)
{
	const char *had = records_tournament_sandbox(d), *before = had ? had : "off";
	const char *used = other && strcmp(before, other) != 0 ? "mixed" : before;
	int ret;

	if (had && strcmp(had, used) == 0)
		return 0;
	ret = set_item(d, "sandbox", cJSON_CreateString(used));
	return ret < 0 ? ret : 1;
}

const cJSON *records_tournament_programs(const struct records_tournament_doc *d)
{
	return cJSON_GetObjectItemCaseSensitive(d->root, "programs");
}

cJSON *records_tournament_games_tree(const struct records_tournament_doc *d)
{
	cJSON *games = cJSON_Duplicate(d->root, 1);

	for (size_t i = 0; games && i < sizeof(run_keys) / sizeof(run_keys[0]); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(games, run_keys[i]);
	return games;
}

int records_tournament_write(const char *dir, const struct records_tournament_doc *d, char *err,
			     size_t err_size)
{
	char path[PATH_MAX], *text = cJSON_Print(d->root), *line = NULL;
	size_t len;
	int ret = -ENOMEM;

	if (snprintf(path, sizeof(path), "%s/tournament.json", dir) >= (int)sizeof(path)) {
		ret = -ENAMETOOLONG;
		goto out;
	}
	if (!text || !(line = malloc((len = strlen(text)) + 2)))
		goto out;
	memcpy(line, text, len);
	memcpy(line + len, "\n", 2);
	ret = journal_replace(path, line, len + 1);
out:
	if (ret < 0)
		snprintf(err, err_size, "\"%s/tournament.json\": %s%s", dir, strerror(-ret),
			 ret == -ENOSPC ? ": free space and run the same command again" : "");
	cJSON_free(text);
	free(line);
	return ret;
}
