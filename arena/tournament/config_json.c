/*
 * config_json.c - the resolved tournament as JSON: tournament.json, the words
 * of its keys, and its seed when none is given (contract in config.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "sandbox.h"

const char *const config_replays_names[] = {
	[CONFIG_REPLAYS_ALL] = "all", [CONFIG_REPLAYS_FAULTS] = "faults", [CONFIG_REPLAYS_NONE] = "none",
};

int config_replays_parse(const char *word)
{
	for (int k = CONFIG_REPLAYS_ALL; k <= CONFIG_REPLAYS_NONE; k++)
		if (strcmp(word, config_replays_names[k]) == 0)
			return k;
	return -1;
}

const char *const config_processes_names[] = {
	[CONFIG_PROCESSES_FRESH] = "fresh", [CONFIG_PROCESSES_REUSE] = "reuse",
};

int config_processes_parse(const char *word)
{
	for (int k = CONFIG_PROCESSES_FRESH; k <= CONFIG_PROCESSES_REUSE; k++)
		if (strcmp(word, config_processes_names[k]) == 0)
			return k;
	return -1;
}

int config_random_seed(uint64_t *out)
{
	ssize_t n;

	do
		n = getrandom(out, sizeof(*out), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof(*out) ? 0 : -EIO;
}

static cJSON *limits_json(const struct bot_limits *l)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "cpu_seconds", (double)l->cpu_seconds);
	cJSON_AddNumberToObject(o, "memory_mb", (double)l->memory_mb);
	cJSON_AddNumberToObject(o, "open_files", (double)l->open_files);
	cJSON_AddNumberToObject(o, "processes", (double)l->processes);
	return o;
}

char *config_to_json(const struct config *cfg, int games_only)
{
	cJSON *root = cJSON_CreateObject(), *bots, *o;
	char seed[32], *text = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "name", cfg->name);
	bots = cJSON_AddArrayToObject(root, "bots");
	for (size_t i = 0; i < cfg->nbots; i++) {
		const struct config_bot *b = &cfg->bots[i];
		cJSON *bot = cJSON_CreateObject(), *argv, *env;

		cJSON_AddItemToArray(bots, bot);
		cJSON_AddStringToObject(bot, "name", b->name);
		argv = cJSON_AddArrayToObject(bot, "command");
		for (size_t k = 0; b->argv[k]; k++)
			cJSON_AddItemToArray(argv, cJSON_CreateString(b->argv[k]));
		cJSON_AddStringToObject(bot, "cwd", b->cwd);
		env = cJSON_AddObjectToObject(bot, "env");
		for (size_t k = 0; b->env[k]; k++) {
			const char *eq = strchr(b->env[k], '=');
			/* the whole name, however long */
			char *key = strndup(b->env[k], (size_t)(eq - b->env[k]));

			if (!key || !cJSON_AddStringToObject(env, key, eq + 1)) {
				free(key);
				cJSON_Delete(root);
				return NULL;
			}
			free(key);
		}
		cJSON_AddItemToObject(bot, "limits", limits_json(&b->limits));
	}
	if (cfg->challenger) {
		cJSON *names;

		cJSON_AddStringToObject(root, "format", "gauntlet");
		names = cJSON_AddArrayToObject(root, "challengers");
		for (size_t i = 0; i < cfg->nbots; i++)
			if (cfg->challenger[i])
				cJSON_AddItemToArray(names, cJSON_CreateString(cfg->bots[i].name));
	}
	cJSON_AddNumberToObject(root, "players", cfg->players);
	cJSON_AddNumberToObject(root, "deals", cfg->deals);
	cJSON_AddBoolToObject(root, "duplicate", cfg->duplicate);
	/* only partnership schedules changed: any other tournament.json reads as it always did */
	if (cfg->partnership && cfg->schedule > 1)
		cJSON_AddNumberToObject(root, "schedule", cfg->schedule);
	o = cJSON_AddObjectToObject(root, "rules");
	cJSON_AddNumberToObject(o, "stock_size", cfg->stock_size);
	cJSON_AddBoolToObject(o, "partnership", cfg->partnership);
	cJSON_AddStringToObject(o, "mode", cfg->match ? "match" : "game");
	o = cJSON_AddObjectToObject(root, "time");
	cJSON_AddNumberToObject(o, "startup_ms", cfg->startup_ms);
	cJSON_AddNumberToObject(o, "move_ms", cfg->move_ms);
	cJSON_AddNumberToObject(o, "game_ms", cfg->game_ms);
	cJSON_AddItemToObject(root, "limits", limits_json(&cfg->limits));
	/* a string keeps all 64 bits exactly */
	snprintf(seed, sizeof(seed), "%" PRIu64, cfg->seed);
	cJSON_AddStringToObject(root, "seed", seed);
	/* fresh or reused processes: what a bot could remember, so part of the games */
	cJSON_AddStringToObject(root, "processes", config_processes_names[cfg->processes]);
	if (!games_only) {
		cJSON_AddNumberToObject(root, "concurrency", cfg->concurrency);
		cJSON_AddBoolToObject(root, "pin", cfg->pin);
		cJSON_AddStringToObject(root, "output", cfg->output);
		cJSON_AddNumberToObject(root, "stderr_cap", (double)cfg->stderr_cap);
		cJSON_AddNumberToObject(root, "stderr_total_cap", (double)cfg->stderr_total_cap);
		cJSON_AddStringToObject(root, "sandbox", sandbox_mode_name(cfg->sandbox));
		if (cfg->system)
			cJSON_AddItemToObject(root, "system", cJSON_CreateStringArray(
				(const char *const *)cfg->system, (int)cfg->nsystem));
		cJSON_AddStringToObject(root, "replays", config_replays_names[cfg->replays]);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}
