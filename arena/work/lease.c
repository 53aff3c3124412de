/*
 * lease.c - a lease's document and its tournament (contract in lease.h).
 */
#include "lease.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The keys of the host's own run, none of the worker's tournament. */
static const char *const host_keys[] = { "seed", "bots", "output", "sandbox", "concurrency",
	"shard", "sprt", "league", "format", "challengers", "programs", "started", NULL };

/* A told id goes to the bots as it is: only the characters of the arena's own ids. */
static int safe_id(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= SCHEDULE_ID_MAX)
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@") == n;
}

static int get_uint(const cJSON *o, const char *key, double max, uint64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	double d = cJSON_GetNumberValue(v);

	if (!cJSON_IsNumber(v) || !(d >= 0 && d <= max) || d != (double)(uint64_t)d)
		return -1;
	*out = (uint64_t)d;
	return 0;
}

static int bad(char *err, size_t err_size, const char *where, const char *what)
{
	snprintf(err, err_size, "the lease's %s: %s", where, what);
	return -EBADMSG;
}

static int parse_bots(const cJSON *bots, struct lease *l, char *err, size_t err_size)
{
	const cJSON *b;
	size_t i = 0;

	if (!cJSON_IsArray(bots) || cJSON_GetArraySize(bots) < 1 ||
	    cJSON_GetArraySize(bots) > CONFIG_MAX_BOTS)
		return bad(err, err_size, "\"bots\"", "expected an array of 1 to 255 bots");
	l->nbots = (size_t)cJSON_GetArraySize(bots);
	if (!(l->bots = calloc(l->nbots, sizeof(*l->bots))))
		return -ENOMEM;
	cJSON_ArrayForEach(b, bots) {
		const cJSON *bundle = cJSON_GetObjectItemCaseSensitive(b, "bundle");
		const char *sha = cJSON_GetStringValue(bundle);

		if (!(l->bots[i].name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b,
											 "name"))))
			return bad(err, err_size, "\"bots\"", "a bot without a \"name\"");
		if (bundle && !cJSON_IsNull(bundle) &&
		    (!sha || strlen(sha) != BUNDLE_HASH_LEN ||
		     strspn(sha, "0123456789abcdef") != BUNDLE_HASH_LEN))
			return bad(err, err_size, "\"bundle\"", "expected null or 64 hex digits");
		if (sha)
			memcpy(l->bots[i].bundle, sha, BUNDLE_HASH_LEN + 1);
		i++;
	}
	return 0;
}

static int bot_named(const struct lease *l, const char *name)
{
	for (size_t i = 0; name && i < l->nbots; i++)
		if (!strcmp(l->bots[i].name, name))
			return (int)i;
	return -1;
}

static int parse_game(const cJSON *o, struct lease *l, struct schedule_game *g, char *err,
		      size_t err_size)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "id"));
	const char *told = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "told"));
	const char *seed = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "seed"));
	const cJSON *seats = cJSON_GetObjectItemCaseSensitive(o, "seats"), *s;
	uint64_t v[5] = { 0 };
	char *end;
	int k = 0;

	if (!id || !safe_id(id) || !told || !safe_id(told))
		return bad(err, err_size, "games", "an \"id\" or a \"told\" that is no game id");
	strlcpy(g->id, id, sizeof(g->id));
	strlcpy(g->told, told, sizeof(g->told));
	if (!seed || strlen(seed) != 16 || strspn(seed, "0123456789abcdefABCDEF") != 16)
		return bad(err, err_size, g->id, "\"seed\" is not 16 hex digits");
	g->seed = strtoull(seed, &end, 16);
	if (get_uint(o, "index", 9007199254740991.0, &v[0]) < 0 ||
	    get_uint(o, "table", UINT32_MAX, &v[1]) < 0 || get_uint(o, "deal", UINT32_MAX, &v[2]) < 0 ||
	    get_uint(o, "rotation", ENGINE_MAX_PLAYERS - 1, &v[3]) < 0 ||
	    (cJSON_HasObjectItem(o, "pairing") && get_uint(o, "pairing", 16, &v[4]) < 0))
		return bad(err, err_size, g->id, "\"index\", \"table\", \"deal\", \"rotation\" "
			   "and \"pairing\" must be whole numbers in range");
	g->index = v[0];
	g->table = (uint32_t)v[1];
	g->deal = (uint32_t)v[2];
	g->rotation = (uint32_t)v[3];
	g->pairing = (uint32_t)v[4];
	if (!cJSON_IsArray(seats) || cJSON_GetArraySize(seats) < 2 ||
	    cJSON_GetArraySize(seats) > ENGINE_MAX_PLAYERS)
		return bad(err, err_size, g->id, "\"seats\" must name 2 to 6 bots");
	for (k = 0; k < ENGINE_MAX_PLAYERS; k++)
		g->bots[k] = -1;
	k = 0;
	cJSON_ArrayForEach(s, seats)
		if ((g->bots[k++] = bot_named(l, cJSON_GetStringValue(s))) < 0)
			return bad(err, err_size, g->id, "a seat names none of the lease's bots");
	return 0;
}

int lease_parse(const char *text, size_t len, struct lease *l, char *err, size_t err_size)
{
	const cJSON *games, *g, *set;
	const char *id;
	uint64_t expires;
	size_t i = 0;
	int ret;

	memset(l, 0, sizeof(*l));
	if (!(l->doc = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1)) || !cJSON_IsObject(l->doc))
		return bad(err, err_size, "document", "not a JSON object");
	id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l->doc, "lease"));
	if (!id || !*id || strlen(id) >= sizeof(l->id) ||
	    strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
	    strlen(id))
		return bad(err, err_size, "\"lease\"", "expected an id of letters, digits, '-', "
			   "'_' and '.'");
	strlcpy(l->id, id, sizeof(l->id));
	if (get_uint(l->doc, "expires_in", 86400, &expires) < 0 || expires == 0)
		return bad(err, err_size, "\"expires_in\"", "expected seconds, 1 to 86400");
	l->expires_in = (unsigned)expires;
	set = cJSON_GetObjectItemCaseSensitive(l->doc, "tournament");
	if (!cJSON_IsObject(set))
		return bad(err, err_size, "\"tournament\"", "expected an object");
	l->sandbox = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(set, "sandbox"));
	if ((ret = parse_bots(cJSON_GetObjectItemCaseSensitive(l->doc, "bots"), l, err,
			      err_size)) < 0)
		return ret;
	games = cJSON_GetObjectItemCaseSensitive(l->doc, "games");
	if (!cJSON_IsArray(games) || cJSON_GetArraySize(games) < 1)
		return bad(err, err_size, "\"games\"", "expected a non-empty array");
	l->ngames = (size_t)cJSON_GetArraySize(games);
	if (!(l->games = calloc(l->ngames, sizeof(*l->games))))
		return -ENOMEM;
	cJSON_ArrayForEach(g, games)
		if ((ret = parse_game(g, l, &l->games[i++], err, err_size)) < 0)
			return ret;
	return 0;
}

void lease_release(struct lease *l)
{
	cJSON_Delete(l->doc);
	free(l->bots);
	free(l->games);
	memset(l, 0, sizeof(*l));
}

static void bot_free(struct config_bot *b)
{
	for (size_t k = 0; b->argv && b->argv[k]; k++)
		free(b->argv[k]);
	free(b->argv);
	free(b->cwd);
	memset(b, 0, sizeof(*b));
}

/* The command and cwd of bundled bot o moved onto its bundle (bundle_place). */
static int place(cJSON *o, const char *cache, const char *sha, char *err, size_t err_size)
{
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(o, "command"), *w;
	const char *cwd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "cwd"));
	struct config_bot b = { 0 };
	cJSON *argv = NULL;
	size_t n = 0;
	int ret = -ENOMEM;

	if (!cJSON_IsArray(command) || !cwd) {
		snprintf(err, err_size, "the lease's bundled bot has no \"command\" or no \"cwd\"");
		return -EINVAL;
	}
	if (!(b.argv = calloc((size_t)cJSON_GetArraySize(command) + 1, sizeof(char *))) ||
	    !(b.cwd = strdup(cwd)))
		goto out;
	cJSON_ArrayForEach(w, command)
		if (!cJSON_IsString(w) || !(b.argv[n++] = strdup(w->valuestring)))
			goto out;
	if ((ret = bundle_place(&b, cache, sha, err, err_size)) < 0)
		goto out;
	ret = -ENOMEM;
	if (!(argv = cJSON_CreateStringArray((const char *const *)b.argv, (int)n)) ||
	    !cJSON_ReplaceItemInObjectCaseSensitive(o, "command", argv))
		goto out;
	argv = NULL;
	if (!cJSON_ReplaceItemInObjectCaseSensitive(o, "cwd", cJSON_CreateString(b.cwd)))
		goto out;
	ret = 0;
out:
	cJSON_Delete(argv);
	bot_free(&b);
	return ret;
}

/*
 * A bot's "env" and "limits" as the tournament file has them: WORKERS.md's
 * example gives them as arrays ("KEY=VALUE" strings; cpu_seconds, memory_mb,
 * open_files, processes), tournament.json as objects; both are taken.
 */
static int as_tournament_bot(cJSON *o)
{
	static const char *const limit_keys[] = { "cpu_seconds", "memory_mb", "open_files",
		"processes" };
	cJSON *env = cJSON_GetObjectItemCaseSensitive(o, "env");
	cJSON *limits = cJSON_GetObjectItemCaseSensitive(o, "limits"), *obj, *item;
	int k = 0;

	if (cJSON_IsArray(env)) {
		if (!(obj = cJSON_CreateObject()))
			return -ENOMEM;
		cJSON_ArrayForEach(item, env) {
			const char *kv = cJSON_GetStringValue(item), *eq = kv ? strchr(kv, '=') : NULL;
			char *key = eq ? strndup(kv, (size_t)(eq - kv)) : NULL;

			/* what is not KEY=VALUE is left for config_parse to name */
			if (!key || !cJSON_AddStringToObject(obj, key, eq + 1)) {
				free(key);
				cJSON_Delete(obj);
				return eq ? -ENOMEM : 0;
			}
			free(key);
		}
		cJSON_ReplaceItemInObjectCaseSensitive(o, "env", obj);
	}
	if (cJSON_IsArray(limits) && cJSON_GetArraySize(limits) == 4) {
		if (!(obj = cJSON_CreateObject()))
			return -ENOMEM;
		cJSON_ArrayForEach(item, limits)
			cJSON_AddItemToObject(obj, limit_keys[k++], cJSON_Duplicate(item, 1));
		cJSON_ReplaceItemInObjectCaseSensitive(o, "limits", obj);
	}
	return 0;
}

/* 1 with the path in missing when bot o's directory or first program is not here. */
static int lacks(const cJSON *o, char *missing, size_t size)
{
	const char *cwd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "cwd"));
	const char *prog = cJSON_GetStringValue(cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(o, "command"), 0));
	char path[PATH_MAX];

	if (cwd && access(cwd, X_OK) < 0) {
		snprintf(missing, size, "%s", cwd);
		return 1;
	}
	/* a bare name is looked up in PATH by config_parse, which says so if it fails */
	if (!prog || !strchr(prog, '/'))
		return 0;
	if (prog[0] == '/' || !cwd)
		snprintf(path, sizeof(path), "%s", prog);
	else
		snprintf(path, sizeof(path), "%s/%s", cwd, prog);
	if (access(path, X_OK) < 0) {
		snprintf(missing, size, "%s", path);
		return 1;
	}
	return 0;
}

int lease_config(const struct lease *l, const char *cache, struct config *cfg,
		 char *missing, size_t missing_size, char *err, size_t err_size)
{
	cJSON *set = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(l->doc, "tournament"), 1);
	cJSON *bots = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(l->doc, "bots"), 1), *o;
	char *text = NULL;
	size_t i = 0;
	int ret = -ENOMEM;

	memset(cfg, 0, sizeof(*cfg));
	if (!set || !bots)
		goto out;
	for (size_t k = 0; host_keys[k]; k++)
		cJSON_DeleteItemFromObjectCaseSensitive(set, host_keys[k]);
	cJSON_ArrayForEach(o, bots) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, "bundle");
		if ((ret = as_tournament_bot(o)) < 0)
			goto out;
		if (l->bots[i].bundle[0] &&
		    (ret = place(o, cache, l->bots[i].bundle, err, err_size)) < 0)
			goto out;
		if (lacks(o, missing, missing_size)) {
			ret = -ENOENT;
			goto out;
		}
		i++;
	}
	cJSON_AddItemToObject(set, "bots", bots);
	bots = NULL;
	ret = -ENOMEM;
	if (!(text = cJSON_PrintUnformatted(set)))
		goto out;
	ret = config_parse(text, strlen(text), "/", cfg, err, err_size);
	if (ret < 0 && ret != -ENOMEM)
		ret = -EINVAL;
out:
	cJSON_Delete(set);
	cJSON_Delete(bots);
	free(text);
	return ret;
}
