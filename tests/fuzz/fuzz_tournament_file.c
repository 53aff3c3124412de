/*
 * fuzz_tournament_file - config_parse() (arena/tournament/config.h) on any
 * bytes, the way `run` reads a tournament file: comments and trailing commas
 * blanked, then read strictly. A refusal is one line per error naming the
 * position or the key, as a terminal may show it (textesc.h: printable
 * ASCII and whole UTF-8 characters but controls and reordering marks) but
 * for the newlines that end its lines, with the config left empty. A file it accepts resolves to a tournament whose every
 * number is in its documented range, and whose resolved form
 * (tournament.json) loads again to the same text.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "engine.h"
#include "fuzz_target.h"
#include "textesc.h"

static void check_resolved(const struct config *cfg)
{
	struct config again;
	char err[CONFIG_ERR_MAX];
	char *json, *json_again;

	FUZZ_CHECK(cfg->players >= 2 && cfg->players <= ENGINE_MAX_PLAYERS);
	FUZZ_CHECK(cfg->nbots >= (size_t)cfg->players && cfg->nbots <= CONFIG_MAX_BOTS);
	FUZZ_CHECK(cfg->deals >= 1 && cfg->deals <= 100000000);
	FUZZ_CHECK(cfg->stock_size >= 1 && cfg->stock_size <= 30);
	FUZZ_CHECK(cfg->move_ms >= 0 && cfg->game_ms >= 0 && cfg->startup_ms >= 1);
	FUZZ_CHECK(cfg->concurrency >= 1 && cfg->concurrency <= 1024);
	json = config_to_json(cfg, 0);
	FUZZ_CHECK(json != NULL);
	if (config_parse(json, strlen(json), cfg->base_dir, &again, err, sizeof(err)) != 0) {
		fprintf(stderr, "the resolved tournament does not load again: %s\n%s\n", err, json);
		abort();
	}
	json_again = config_to_json(&again, 0);
	FUZZ_CHECK(json_again && strcmp(json, json_again) == 0);
	free(json);
	free(json_again);
	config_release(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	char err[CONFIG_ERR_MAX] = "";
	int rc = config_parse((const char *)data, size, "/", &cfg, err, sizeof(err));

	if (rc < 0) {
		FUZZ_CHECK(err[0] && err[0] != '\n');
		for (size_t i = 0, n = strlen(err), k; i < n; i += k) {
			k = err[i] == '\n' ? 1 : textesc_plain(err + i, n - i, TEXTESC_UTF8);
			FUZZ_CHECK(k > 0);
		}
		FUZZ_CHECK(cfg.bots == NULL && cfg.name == NULL);
		return 0;
	}
	FUZZ_CHECK(rc == 0);
	check_resolved(&cfg);
	config_release(&cfg);
	return 0;
}
