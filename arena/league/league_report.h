/*
 * league_report.h - the league section of `report DIR` on a league's
 * directory: its history (league_history.h) and its entries' lineage and
 * status (league_entries.h), written by league_history_report.h, through
 * report_options' section hooks (report.h).
 */
#ifndef SKIPBO_LEAGUE_REPORT_H
#define SKIPBO_LEAGUE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "league_entries.h"
#include "league_history.h"
#include "league_history_report.h"

struct league_report {
	struct league_entries es;
	struct league_history_summary history;
	struct league_lineage *lineage;
	size_t n;
};

/* Read dir's entries and history (none yet: an empty one). 0, or a negative errno with
 * a sentence in err. Release with league_report_release either way. */
int league_report_open(struct league_report *lr, const char *dir, char *err, size_t err_size);
void league_report_release(struct league_report *lr);

/* report_options.section_md and section_html, ctx a struct league_report. */
int league_report_md(void *ctx, FILE *out);
int league_report_html(void *ctx, FILE *out);

#endif
