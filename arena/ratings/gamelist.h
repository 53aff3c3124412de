/*
 * gamelist.h - the game list of report.html: a bounded sample of the records
 * of games.jsonl, each with its bots, result, reason, turns and faults, and a
 * link to its replay viewer page (replays/<id>.html, made by `skipbo-arena
 * replay --html --id ID DIR` or `report --replays`) when that page exists.
 *
 * Which records: the first GAMELIST_PER_TABLE of each table (set of bots) and
 * every record with a fault, at most GAMELIST_MAX rows in all; the page says
 * how many records were left out. So report.html stays small and quick for a
 * tournament of 100,000 games, while every fault can be looked at.
 */
#ifndef SKIPBO_GAMELIST_H
#define SKIPBO_GAMELIST_H

#include <stdio.h>

#define GAMELIST_PER_TABLE 3
#define GAMELIST_MAX 2000
#define GAMELIST_REASONS_MAX 200
#define GAMELIST_REASON_CHARS 200

/*
 * Write the game list section (HTML, a heading, a table#games and a small
 * filtering script) of the records in dirs[i]/games.jsonl. Links are written
 * only for a single directory, relative to it: they assume the report sits in
 * that directory, as `run` and `skipbo-arena report DIR` write it.
 * A line that is not a valid record is skipped (the report counts those).
 * Returns 0, or a negative errno (-ENOMEM, or from the stream).
 */
int gamelist_write_html(const char *const *dirs, size_t ndirs, FILE *out);

/*
 * Write the reasons of the faults section (HTML, a table#fault-reasons in a
 * details element, folded when it is long): for each bot and fault kind,
 * every distinct reason (its first GAMELIST_REASON_CHARS bytes) with how many
 * faults gave it and the id of the first game that did, linked as in the game
 * list. At most GAMELIST_REASONS_MAX reasons; the faults past them are
 * counted in a note.
 * Returns 0, or a negative errno (-ENOMEM, or from the stream).
 */
int gamelist_write_fault_reasons(const char *const *dirs, size_t ndirs, FILE *out);

#endif
