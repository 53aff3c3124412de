/*
 * league_history_report.h - the league section of report.md and report.html:
 * every entry's rating over time (league_history.h) and its version lineage.
 *
 * The caller knows the league's entries (their names, the entry each is a
 * new version of, whether it is active, retired or suspended); the history
 * knows their ratings. An entry with no line in the history yet is listed
 * as not yet rated; an entry of the history the caller does not list is
 * shown as retired.
 *
 * What the section holds:
 *  - one row per entry: its version of (the predecessor), status, the latest
 *    Elo and 95% half-width on record, its games, its first Elo on record and
 *    the change since; rated entries by Elo, best first, then the others;
 *  - the lineage of every entry with versions: NAME -> NAME@2 -> NAME@3;
 *  - the rating over time: report.md a table of the Elo at up to
 *    LEAGUE_REPORT_COLUMNS points of the history, evenly spread from first to
 *    last; report.html a chart of every entry's Elo against the league's
 *    games (plain SVG, no script), with the same table.
 *
 * Both writers return 0, or -EIO when out has an error.
 */
#ifndef SKIPBO_LEAGUE_HISTORY_REPORT_H
#define SKIPBO_LEAGUE_HISTORY_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "league_history.h"

#define LEAGUE_REPORT_COLUMNS 6

enum league_entry_status { LEAGUE_ENTRY_ACTIVE, LEAGUE_ENTRY_HELD, LEAGUE_ENTRY_RETIRED,
			   LEAGUE_ENTRY_SUSPENDED };

/* "playing", "held" (its files changed: out of play until a new version or the old files),
 * "retired", "suspended". */
const char *league_entry_status_name(enum league_entry_status status);

/* One entry as the caller knows it. */
struct league_lineage {
	const char *name;
	const char *predecessor;        /* the entry this is a new version of, or NULL */
	enum league_entry_status status;
	const char *why;                /* NULL, or a short reason shown with the status
					 * ("3 start faults") */
};

int league_history_write_md(FILE *out, const struct league_history_summary *h,
			    const struct league_lineage *entries, size_t n);
int league_history_write_html(FILE *out, const struct league_history_summary *h,
			      const struct league_lineage *entries, size_t n);

/* The chart of report.html's section alone: a <div class="chart"> with its SVG (760 by
 * 320, with a viewBox, so a page may scale it), then its legend; nothing before any entry
 * is rated. */
int league_history_write_chart(FILE *out, const struct league_history_summary *h,
			       const struct league_lineage *entries, size_t n);

#endif
