/*
 * league_config.c - DIR/league.jsonc (contract in league_config.h).
 */
#include "league_config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"
#include "jsonc.h"

/* The bundled reference bots and their Elo (2 players, stock 5, LEAGUE.md "Anchors"). */
static const struct { const char *name; double elo; } default_anchors[] = {
	{ "skipbo-easy", LEAGUE_ELO_EASY }, { "skipbo-medium", LEAGUE_ELO_MEDIUM },
	{ "skipbo-hard", LEAGUE_ELO_HARD },
};

/* Keys of a tournament that a league has no use for, and why. */
static const char *const tournament_only[][2] = {
	{ "deals", "a league plays until it is stopped" },
	{ "duplicate", "every league game is a duplicate deal" },
	{ "format", "a league chooses its games as it goes" },
	{ "challengers", "a league chooses its games as it goes" },
	{ "output", "a league writes into its own directory" },
};

static const char *const league_keys[] = { "anchors", "floor", "max_games", "max_minutes",
					   "suspend_after", "stop_when_separated", NULL };

static int first_failure(int ret, int next)
{
	return ret < 0 ? ret : next;
}

/* An integer of "league" into *out when present. */
static int get_count(const cJSON *league, const char *key, int64_t max, int64_t *out,
		     struct jsonc_errors *e)
{
	struct json_strict_error why;
	char path[64];

	snprintf(path, sizeof(path), "league.%s", key);
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(league, key), "league.", key, 0, max,
			    JSON_STRICT_OPTIONAL, out, &why) < 0)
		return jsonc_error_text(e, path, 0, why.message);
	return 0;
}

static int parse_anchors(const cJSON *list, struct league_config *lc, struct jsonc_errors *e)
{
	struct json_strict_error why;
	const cJSON *item;
	char path[160];
	int ret = 0;

	if (!list) {
		for (size_t i = 0; i < sizeof(default_anchors) / sizeof(default_anchors[0]); i++) {
			lc->anchor_elo[lc->nanchors] = default_anchors[i].elo;
			if (!(lc->anchors[lc->nanchors++] = strdup(default_anchors[i].name)))
				return -ENOMEM;
		}
		return 0;
	}
	if (!cJSON_IsObject(list) || cJSON_GetArraySize(list) > LEAGUE_ANCHORS_MAX)
		return jsonc_error(e, "league.anchors", "expected an object of at most %d entry "
				   "names and their Elo, {\"NAME\": ELO, ...}", LEAGUE_ANCHORS_MAX);
	cJSON_ArrayForEach(item, list) {
		snprintf(path, sizeof(path), "league.anchors.%.100s", item->string);
		if (json_strict_double(item, "league.anchors.", item->string, -10000, 10000, 0,
				       &lc->anchor_elo[lc->nanchors], &why) < 0) {
			ret = jsonc_error_text(e, path, 0, why.message);
			continue;
		}
		if (!(lc->anchors[lc->nanchors++] = strdup(item->string)))
			return -ENOMEM;
	}
	return ret;
}

/* config_extension.parse: the keys a league refuses, and "league". */
static int parse_league(void *ctx, const cJSON *root, struct jsonc_errors *e)
{
	struct league_config *lc = ctx;
	const cJSON *league = cJSON_GetObjectItemCaseSensitive(root, "league"), *stop;
	int64_t v[4] = { 4, 0, 0, 3 };
	int ret = 0;

	for (size_t i = 0; i < sizeof(tournament_only) / sizeof(tournament_only[0]); i++)
		if (cJSON_GetObjectItemCaseSensitive(root, tournament_only[i][0]))
			ret = jsonc_error(e, tournament_only[i][0], "not a key of a league: %s",
					  tournament_only[i][1]);
	lc->stop_when_separated = true;
	if (!league)
		return first_failure(ret, parse_anchors(NULL, lc, e));
	if (!cJSON_IsObject(league))
		return jsonc_error(e, "league", "expected an object");
	for (const cJSON *item = league->child; item; item = item->next) {
		char path[160], message[JSONC_MESSAGE_MAX];
		size_t k = 0;
		int near;

		while (league_keys[k] && strcmp(league_keys[k], item->string))
			k++;
		if (league_keys[k])
			continue;
		near = jsonc_nearest(item->string, league_keys);
		snprintf(path, sizeof(path), "league.%.100s", item->string);
		if (near >= 0)
			snprintf(message, sizeof(message), "%s: unknown key; did you mean \"%s\"?",
				 path, league_keys[near]);
		else
			snprintf(message, sizeof(message), "%s: unknown key (expected anchors, "
				 "floor, max_games, max_minutes, suspend_after or "
				 "stop_when_separated)", path);
		/* pointing at the key, as a tournament file's unknown keys are */
		ret = jsonc_error_text(e, path, 1, message);
	}
	ret = first_failure(ret, get_count(league, "floor", 1000000, &v[0], e));
	ret = first_failure(ret, get_count(league, "max_games", JSON_STRICT_INT_MAX, &v[1], e));
	ret = first_failure(ret, get_count(league, "max_minutes", 100000000, &v[2], e));
	ret = first_failure(ret, get_count(league, "suspend_after", 1000000, &v[3], e));
	lc->floor_deals = (uint64_t)v[0];
	lc->max_games = (uint64_t)v[1];
	lc->max_minutes = (uint64_t)v[2];
	lc->suspend_after = (int)v[3];
	stop = cJSON_GetObjectItemCaseSensitive(league, "stop_when_separated");
	if (stop && !cJSON_IsBool(stop))
		ret = jsonc_error(e, "league.stop_when_separated", "expected true or false");
	else if (stop)
		lc->stop_when_separated = cJSON_IsTrue(stop);
	return first_failure(ret, parse_anchors(cJSON_GetObjectItemCaseSensitive(league,
										 "anchors"), lc, e));
}

int league_config_load(const char *dir, struct league_config *lc, char *err, size_t err_size)
{
	struct config_extension ext = { "league", parse_league, lc };
	char path[PATH_MAX], real[PATH_MAX];
	int ret;

	memset(lc, 0, sizeof(*lc));
	if (snprintf(path, sizeof(path), "%s/%s", dir, LEAGUE_CONFIG_FILE) >= (int)sizeof(path)) {
		snprintf(err, err_size, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	if ((ret = config_load_extended(path, &ext, &lc->base, err, err_size)) < 0)
		goto fail;
	ret = -ENOMEM;
	free(lc->base.output);
	if (!realpath(dir, real) || !(lc->base.output = strdup(real)))
		goto fail;
	lc->base.duplicate = 1;
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	league_config_release(lc);
	return ret;
}

int league_config_load_edit(const char *dir, int players, struct league_config *lc, char *err,
			    size_t err_size)
{
	int ret = league_config_load(dir, lc, err, err_size);

	if (ret == 0 && lc->base.players != players) {
		snprintf(err, err_size, "players: %d in the edit, %d in the league: a league keeps "
			 "its table size\n", lc->base.players, players);
		league_config_release(lc);
		ret = -EINVAL;
	}
	return ret;
}

void league_config_release(struct league_config *lc)
{
	config_release(&lc->base);
	for (size_t i = 0; i < lc->nanchors; i++)
		free(lc->anchors[i]);
	memset(lc, 0, sizeof(*lc));
}
