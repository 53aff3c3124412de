/*
 * report_html.h - report.html: one self-contained page (inline CSS, SVG and
 * the game list's filter script, no external resources) with the tournament's
 * name and settings (from tournament.json), a warning for each bot that never
 * started, the ranking table, the faults by bot and kind with their reasons,
 * the Elo intervals chart (a far-off bot clipped and marked), the head-to-head
 * heat map, the move-time chart, the paired statistics, the
 * likelihood-of-superiority matrix, the win rate by seat, a section per bot
 * (its results by seat and by opponent, move times, faults) and the game list
 * (gamelist.h).
 *
 * Element ids a reader (or a test) can rely on: table#ranking (one tbody row
 * per bot), svg#elo-chart (one circle.elo per bot), svg#cross-heatmap (one
 * rect.cell per pair of distinct bots), svg#time-chart (one rect.mean per bot
 * with move times), p.never-started (one per bot whose every game is a start
 * fault), table#faults-table, table#fault-reasons (one row per distinct
 * reason of a bot's faults of a kind, with an example game), dl#settings,
 * h3.bot (one per bot, followed by its summary and its table.opponents),
 * table#games (one tbody row per listed game).
 */
#ifndef SKIPBO_REPORT_HTML_H
#define SKIPBO_REPORT_HTML_H

#include <stdio.h>

#include "report.h"
#include "report_html_text.h"

/* Write the page; 0 or a negative errno from the stream. */
int report_write_html(const struct report *r, FILE *out);

#endif
