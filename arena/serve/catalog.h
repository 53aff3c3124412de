/*
 * catalog.h - the tournaments `serve` shows: every directory holding a
 * tournament.json under the given roots, a tournament each, except that the
 * shard directories of one tournament (same tournament.json apart from the
 * shard and the paths, results.h) make one entry, a shard set.
 *
 * The walk never follows a symbolic link below a root, does not enter a
 * tournament's replays/, logs/ or io/, goes at most CATALOG_DEPTH levels
 * down and looks at most CATALOG_DIRS_MAX directories. It is made again at
 * most every CATALOG_SCAN_S seconds when asked (catalog_scan), so a
 * tournament that starts later appears; an entry, once found, stays. An
 * entry's number (its id in URLs) never changes.
 *
 * A league's directory (arena/LEAGUE.md) is an entry of its own, never
 * finished, with its board (league_board.h) read with its records.
 *
 * Each entry has a lock of its own: hold it (catalog_lock) while reading or
 * refreshing the entry. Entries live as long as the catalog.
 */
#ifndef SKIPBO_CATALOG_H
#define SKIPBO_CATALOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "league_board.h"
#include "report.h"
#include "serve_records.h"

#define CATALOG_DEPTH 4
#define CATALOG_DIRS_MAX 20000
#define CATALOG_SCAN_S 2.0
/* Records are read at most this often per entry, however many ask. */
#define CATALOG_REFRESH_S 0.2
/* The ranking is refitted at most this often, and only when asked for. */
#define CATALOG_REFIT_S 0.5
/* A tournament whose games.jsonl grew within this many seconds is running. */
#define CATALOG_RUNNING_S 60
#define CATALOG_SAMPLES 32

enum catalog_state { CATALOG_RUNNING, CATALOG_FINISHED, CATALOG_STOPPED };

/* "running", "finished", "stopped". */
extern const char *const catalog_state_names[3];

struct catalog_entry {
	size_t id;
	pthread_mutex_t lock;
	bool shards;                 /* a shard set (else one directory) */
	struct serve_dir_info *info; /* by directory, parallel to rec.dirs */
	struct serve_records rec;
	struct report report;        /* of report_n records, when have_report */
	bool have_report;
	size_t report_n;             /* rec.ngames when it was fitted */
	uint64_t report_records;     /* valid records it counts */
	double report_built;         /* monotonic seconds of the fit */
	char report_err[256];        /* why there is none */
	double refreshed;            /* monotonic seconds of the last refresh */
	/* (monotonic seconds, records) at most one a second, for games/s */
	double sample_t[CATALOG_SAMPLES];
	uint64_t sample_n[CATALOG_SAMPLES];
	size_t nsamples;
	uint64_t sample_generation;  /* rec.generation the samples are of */
	/* a league's directory (serve_dir_info.league): its board, NULL otherwise; the ranking
	 * fixes the anchors of its last good league.jsonc, as `report` and the league do */
	struct league_board *league;
	char league_err[512];        /* why the board's last refresh failed, "" if it did not */
	uint64_t report_cfg;         /* league->cfg_generation of the ranking fitted */
};

struct catalog;

/*
 * A catalog of roots (copied), scanned once. -ENOMEM, or -ENOENT with err
 * when a root is no directory and missing_ok is false (with it, a root that
 * does not exist yet is looked for again at each scan).
 */
int catalog_new(const char *const *roots, size_t nroots, bool missing_ok, struct catalog **out,
		char *err, size_t err_size);
void catalog_free(struct catalog *c);

/* Walk the roots again if the last walk is CATALOG_SCAN_S old. Thread-safe. */
void catalog_scan(struct catalog *c);

/* The number of entries; entry id, or NULL. Thread-safe. */
size_t catalog_count(struct catalog *c);
struct catalog_entry *catalog_entry(struct catalog *c, size_t id);

void catalog_lock(struct catalog_entry *e);
void catalog_unlock(struct catalog_entry *e);

/* Read e's new records, at most every CATALOG_REFRESH_S (force: now). Under e's lock. */
void catalog_refresh(struct catalog_entry *e, bool force);

/*
 * Make e->report cover the records read, refitting at most every
 * CATALOG_REFIT_S: a ranking asked for sooner is the last one fitted, which
 * says how many records it covers (report_n). Under e's lock, after a refresh.
 */
void catalog_fit(struct catalog_entry *e);

/* What e shows; under its lock, after a refresh. */
struct catalog_progress {
	uint64_t games, scheduled;  /* records, each id once; games to play */
	enum catalog_state state;
	double games_per_s;         /* NAN when not yet known */
	double eta_s;               /* NAN when not running or not known */
	int64_t last_record;        /* Unix time games.jsonl last grew, 0: never */
	uint64_t games_today;       /* a league's games since local midnight; 0 otherwise */
};
void catalog_progress(const struct catalog_entry *e, struct catalog_progress *p);

/* The state of directory k of e. */
enum catalog_state catalog_dir_state(const struct catalog_entry *e, size_t k);

/* Monotonic seconds. */
double catalog_now(void);

#endif
