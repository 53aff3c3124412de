/*
 * gamelist.h - the game list of report.html: a bounded sample of the records
 * of games.jsonl, each with its bots, result, reason, turns and faults, and a
 * link to its replay viewer page (replays/<id>.html, made by `skipbo-arena
 * replay --html --id ID DIR` or `report --replays`) when that page exists;
 * and the distinct reasons of the faults section.
 *
 * Which records: the first GAMELIST_PER_TABLE of each table (set of bots) and
 * every record with a fault, at most GAMELIST_MAX rows in all; the page says
 * how many records were left out. So report.html stays small and quick for a
 * tournament of 100,000 games, while every fault can be looked at.
 *
 * It is fed the records the report reads (gamelist_add(), from the one
 * reading of games.jsonl), keeps the rows it lists and the reasons, and
 * writes them when the page is written.
 */
#ifndef SKIPBO_GAMELIST_H
#define SKIPBO_GAMELIST_H

#include <stdio.h>

#include "record.h"

#define GAMELIST_PER_TABLE 3
#define GAMELIST_MAX 2000
#define GAMELIST_REASONS_MAX 200
#define GAMELIST_REASON_CHARS 200

struct gamelist;

/*
 * An empty list in *out. Links are written only when link_dir is given:
 * relative to it, for a report that sits in that directory (as `run` and
 * `skipbo-arena report DIR` write it); link_dir must outlive the list.
 * 0 or -ENOMEM.
 */
int gamelist_new(const char *link_dir, struct gamelist **out);

/* One record, in the order of the records read. 0 or -ENOMEM. */
int gamelist_add(struct gamelist *gl, const struct record *rec);

/* After the last record, before writing. 0 or -ENOMEM. */
int gamelist_finish(struct gamelist *gl);

/* NULL is fine. */
void gamelist_free(struct gamelist *gl);

/*
 * Write the game list section (HTML, a heading, a table#games and a small
 * filtering script). Returns 0, or -EIO from the stream.
 */
int gamelist_write_html(const struct gamelist *gl, FILE *out);

/*
 * Write the reasons of the faults section (HTML, a table#fault-reasons in a
 * details element, folded when it is long): for each bot and fault kind,
 * every distinct reason (its first GAMELIST_REASON_CHARS bytes; reasons alike
 * but for their numbers, such as the turn and move a reason ends with, are
 * one, shown as first given) with how many faults gave it and the id of the
 * first game that did, linked as in the game list. At most
 * GAMELIST_REASONS_MAX reasons; the faults past them are counted in a note. Returns 0, or -EIO from the stream.
 */
int gamelist_write_fault_reasons(const struct gamelist *gl, FILE *out);

/* The same reasons as a Markdown table for report.md, each text through text(). */
void gamelist_write_fault_reasons_md(const struct gamelist *gl, FILE *out,
				     void (*text)(FILE *out, const char *s));

#endif
