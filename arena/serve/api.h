/*
 * api.h - the JSON documents of `serve`'s API (arena/schema/serve-*.schema.json
 * describe each; arena/README.md lists the URLs).
 *
 * Each function replaces w's text with one document. Strings from records
 * and tournament files (bot names, fault reasons, directory names) go
 * through jsonw_string, so they arrive as JSON strings whatever they hold;
 * the pages put them on screen as text, never as markup. Records of the
 * game list are the games.jsonl lines themselves (each one read strictly
 * when it was indexed). Numbers that are not finite are written null.
 *
 * The entry functions run under the entry's lock, after catalog_refresh (and
 * catalog_fit for the ranking and a bot).
 * They return 0, -ENOENT (no such bot), or -ENOMEM.
 */
#ifndef SKIPBO_API_H
#define SKIPBO_API_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "jsonw.h"

/* The most records and bytes of records one page of the game list holds. */
#define API_PAGE_MAX 1000
#define API_PAGE_BYTES (4u << 20)

/* Which games a game list shows. */
struct api_games_query {
	size_t offset, limit;   /* of the games that match, in the order asked */
	long bot, vs;           /* games of bot (and of vs too); -1: any */
	int fault;              /* API_FAULT_ANY, API_FAULT_NONE_ASKED or a fault kind */
	bool oldest_first;      /* default: newest first */
	const bool *visible;    /* bot k may be shown when k < nvisible and visible[k]; a game
				   none of whose bots may is left out. NULL: every game */
	size_t nvisible;
};

/* Whether game g may be shown to those who see the bots of visible (NULL: all). */
bool api_game_visible(const struct serve_game *g, const bool *visible, size_t nvisible);
#define API_FAULT_NONE_ASKED (-1)
#define API_FAULT_ANY (-2)

/* Every entry: its name, kind, state, games done and scheduled, games/s, ETA. */
int api_index(struct catalog *c, struct jsonw *w);

/* One entry: progress, each directory's (shard's) status, skipped lines, version; a
 * league's entries with their states, its refused edit and its anchors. */
int api_summary(const struct catalog_entry *e, struct jsonw *w);

/* Each directory's (shard's) status alone. */
int api_shards(const struct catalog_entry *e, struct jsonw *w);

/* The ranking: one row per bot in rank order. */
int api_ranking(const struct catalog_entry *e, struct jsonw *w);

/* Bot k: its row, results by opponent and by seat. */
int api_bot(const struct catalog_entry *e, size_t k, struct jsonw *w);

/* A page of the game list. */
int api_games(const struct catalog_entry *e, const struct api_games_query *q, struct jsonw *w);

/* A league's chart of its entries' Elo over its games: report.html's (league_board_chart),
 * an HTML fragment whose text is escaped by its writer. -ENOENT for a tournament. */
int api_league_chart(const struct catalog_entry *e, struct jsonw *w);

/* The fault kind named name, or -1. */
int api_fault_kind(const char *name);

/* ,"name":"text", or ,"name":null for NULL text. */
void api_string_field(struct jsonw *w, const char *name, const char *text);

#endif
