/*
 * league_config.h - a league's file, DIR/league.jsonc (arena/LEAGUE.md).
 *
 * The file is a tournament file (config.h, arena/TOURNAMENT.md) without the
 * keys of a fixed tournament ("deals", "duplicate", "format",
 * "challengers", "output": a league plays duplicate deals until it stops,
 * into its own directory), with one more object, "league":
 *   "anchors"        {"NAME": ELO, ...}: entries whose ratings are frozen at
 *                    those Elo: bots of the file, or bundled bots
 *                    (config_bundled_bot), which the league enters itself;
 *                    default the bundled reference bots skipbo-easy,
 *                    skipbo-medium and skipbo-hard at LEAGUE_ELO_* ({} for
 *                    none: each pool's average is then 0, as in `report`)
 *   "floor"          deals a new entry plays before the ranking chooses its
 *                    games (default 4)
 *   "max_games"      stop after this many games in all (0, the default: none)
 *   "max_minutes"    stop after this many minutes of this run (0: none)
 *   "suspend_after"  games with a start fault after which an entry is
 *                    suspended (default 3; 0: never)
 *   "stop_when_separated"  stop once every two entries adjacent in the
 *                    ranking are apart at 95% (default true)
 * Every error comes as FILE:LINE:COLUMN with the line and a caret, like a
 * tournament file's. The top-level "seed" is the league's seed; without
 * it the league draws one when it starts and records it (league_run.h).
 */
#ifndef SKIPBO_LEAGUE_CONFIG_H
#define SKIPBO_LEAGUE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define LEAGUE_CONFIG_FILE "league.jsonc"
#define LEAGUE_ANCHORS_MAX 16
/* The reference bots' Elo, measured against each other (2 players, stock 5,
 * 300 duplicate deals of each pair: hard 72.8 +- 24.1 above medium; easy won
 * none of its 1200 games, so its rating is only bounded: it sits far below). */
#define LEAGUE_ELO_EASY (-1000.0)
#define LEAGUE_ELO_MEDIUM 0.0
#define LEAGUE_ELO_HARD 73.0

struct league_config {
	struct config base;        /* settings and declared bots; base.output is the league's directory */
	char *anchors[LEAGUE_ANCHORS_MAX];
	double anchor_elo[LEAGUE_ANCHORS_MAX];
	size_t nanchors;
	uint64_t floor_deals;
	uint64_t max_games;
	uint64_t max_minutes;
	int suspend_after;
	bool stop_when_separated;
};

/*
 * Load dir/league.jsonc into *lc (release with league_config_release).
 * 0, or a negative errno with every error in err (CONFIG_ERR_MAX bytes).
 */
int league_config_load(const char *dir, struct league_config *lc, char *err, size_t err_size);

void league_config_release(struct league_config *lc);

/*
 * dir/league.jsonc as an edit a running league of `players` seats takes
 * (arena/LEAGUE.md, "Running"): league_config_load, and the same table size.
 * 0 and *lc; else a negative errno with every reason in err: the load's
 * errors, or -EINVAL for another "players". The one rule of the league's
 * reload and of the readers that show a refused edit (serve).
 */
int league_config_load_edit(const char *dir, int players, struct league_config *lc, char *err,
			    size_t err_size);

#endif
