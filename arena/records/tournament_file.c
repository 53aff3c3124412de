/*
 * tournament_file.c - tournament.json read back (contract in tournament_file.h).
 */
#include "tournament_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"
#include "record.h"

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

char *records_tournament_games_only(const char *text, size_t len)
{
	static const char *const run_keys[] = { "concurrency", "pin", "output", "stderr_cap",
						"stderr_total_cap", "sandbox", "programs",
						"replays", "started" };
	cJSON *root = NULL;
	char *out;

	json_strict_parse(text, len, &root, NULL);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(run_keys) / sizeof(run_keys[0]); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(root, run_keys[i]);
	out = cJSON_Print(root);
	cJSON_Delete(root);
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
