/*
 * entry_docs.h - what `host` shows of one league entry to its author and to
 * organisers (arena/HOSTING.md, "The author's page"). Who may ask is the
 * intake's question (intake.h); these functions answer for any entry of the
 * league in dir, and 404 for a name that is none.
 *
 *   GET /api/entries/NAME         schema "entry": its rating history (every
 *                                 point league_history.h keeps), its faults
 *                                 by kind, each with the latest game's id,
 *                                 reason and a reproduce line as `check`
 *                                 prints one, and its log's URL
 *   GET /api/entries/NAME/stderr  the end of DIR/logs/NAME.stderr (at most
 *                                 ENTRY_DOCS_LOG_TAIL bytes), as text
 *
 * Each reads the league's files again (history.jsonl, games.jsonl,
 * entries.jsonl, league.jsonc): a page asks now and then, not per game.
 * Functions queue the answer on conn and return what MHD_queue_response did.
 */
#ifndef SKIPBO_ENTRY_DOCS_H
#define SKIPBO_ENTRY_DOCS_H

#include <microhttpd.h>

#define ENTRY_DOCS_LOG_TAIL (256u << 10)

enum MHD_Result entry_docs_entry(struct MHD_Connection *conn, const char *dir, const char *name);
enum MHD_Result entry_docs_stderr(struct MHD_Connection *conn, const char *dir, const char *name);
/* 404: no entry called name that the asker may see. */
enum MHD_Result entry_docs_missing(struct MHD_Connection *conn, const char *name);

#endif
