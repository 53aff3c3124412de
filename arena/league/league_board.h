/*
 * league_board.h - a league's directory as a reader shows it while the
 * league runs (serve's dashboard, arena/LEAGUE.md): every entry's state
 * (playing, held, suspended, retired) with why and the version it follows;
 * league.jsonc as the league takes it (the last good file, its anchors, and
 * the errors of an edit the league refuses); the history of its ratings and
 * its chart; the games played since midnight.
 *
 * It reads through the league's own readers and rules, so it says what the
 * league does: an entry is held by league_entries_held against the last good
 * league.jsonc, and an edit is refused by league_config_load_edit, as the
 * league holds and refuses them (league_run.h). It writes nothing.
 *
 * league_board_refresh reads again only the files whose size or modification
 * time changed, and hashes the entries' files (to find held ones) at most
 * every LEAGUE_BOARD_PROGRAMS_S seconds. Not thread-safe: one caller at a
 * time. Functions return 0 or a negative errno with a sentence in err, and
 * never exit.
 */
#ifndef SKIPBO_LEAGUE_BOARD_H
#define SKIPBO_LEAGUE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "league_config.h"
#include "league_entries.h"
#include "league_history.h"
#include "league_history_report.h"

#define LEAGUE_BOARD_PROGRAMS_S 5

/* One entry as the board shows it. */
struct league_board_entry {
	const char *name;        /* the entry's name (owned by the board's entries) */
	const char *previous;    /* the version it follows ("b" for "b@2"), or NULL */
	int version;             /* 1 for NAME, K for NAME@K */
	bool anchor;             /* entered as an anchor */
	double anchor_elo;       /* its frozen Elo in the last good league.jsonc; NAN if none */
	enum league_entry_status status;
	char *why;               /* why it is out of play, or NULL (owned) */
};

/* A file as last read: its size (-1: missing) and modification time. */
struct league_board_stamp {
	long long size;
	struct timespec mtime;
};

struct league_board {
	char *dir;
	int players;                   /* the league's table size (tournament.json) */
	struct league_entries es;
	struct league_config cfg;      /* the last good league.jsonc, when have_cfg */
	bool have_cfg;
	uint64_t cfg_generation;       /* +1 each time another good league.jsonc is taken */
	char *refused;                 /* league.jsonc's errors while the league refuses it */
	struct league_board_entry *entries; /* es.n of them, in entry order */
	struct league_lineage *lineage;     /* the same, for the chart */
	size_t n;
	struct league_history_summary history;
	int64_t today;                 /* Unix time of the last local midnight */
	uint64_t games_before_today;   /* games of the last history line before it */
	struct league_board_stamp config_at, entries_at, history_at;
	int64_t programs_at;           /* when the entries' files were last hashed */
};

/* Read dir's league (players: its table size). Release with league_board_release either
 * way. */
int league_board_open(struct league_board *b, const char *dir, int players, char *err,
		      size_t err_size);
void league_board_release(struct league_board *b);

/* Read again what changed. 0, or a negative errno with err (-ENOMEM; a file that cannot
 * be read keeps what was read of it before, and says why in err). */
int league_board_refresh(struct league_board *b, char *err, size_t err_size);

/* Games played since the last local midnight, of records games recorded now. */
uint64_t league_board_games_today(const struct league_board *b, uint64_t records);

/* report.html's chart of the entries' Elo over the league's games, into out. 0 or -EIO,
 * -ENOMEM. */
int league_board_chart(const struct league_board *b, FILE *out);

#endif
