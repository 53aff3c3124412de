/*
 * report_html.h - report.html: one self-contained page (inline CSS and SVG, no
 * scripts, no external resources) with the ranking table, the Elo intervals
 * chart, the head-to-head heat map, the move-time chart, the paired
 * statistics, the likelihood-of-superiority matrix and the win rate by seat.
 *
 * Element ids a reader (or a test) can rely on: table#ranking (one tbody row
 * per bot), svg#elo-chart (one circle.elo per bot), svg#cross-heatmap (one
 * rect.cell per pair of distinct bots), svg#time-chart (one rect.mean per bot
 * with move times).
 */
#ifndef SKIPBO_REPORT_HTML_H
#define SKIPBO_REPORT_HTML_H

#include <stdio.h>

#include "report.h"

/* Write the page; 0 or a negative errno from the stream. */
int report_write_html(const struct report *r, FILE *out);

#endif
