/*
 * league_entries.h - a league's entries: DIR/entries.jsonl, the one record
 * of who plays in the league (arena/LEAGUE.md, "Entries").
 *
 * The file is a log, one JSON object a line, appended through the journal
 * (journal.h), so `league add`, `retire` and `return` may append while the
 * league runs, and a kill -9 leaves at most a torn last line (ignored until
 * it is whole, cut by the next append). Events:
 *   {"event": "add", "name": "alpha@2", "previous": "alpha", "anchor": false,
 *    "declared": true, "command": [...], "cwd": "/abs", "env": ["K=V"],
 *    "limits": [cpu_seconds, memory_mb, open_files, processes],
 *    "programs": [{"file": ..., "sha256": ...}], "time": "...Z"}
 *   {"event": "retire", "name": "alpha", "why": "...", "time": "...Z"}
 *   {"event": "suspend", "name": "alpha", "why": "...", "time": "...Z"}
 *   {"event": "return", "name": "alpha", "time": "...Z"}: a retired entry back in play
 * An entry's number is its place among the adds (0, 1, ...), so it never
 * changes; a second add of a name already entered is ignored.
 *
 * Versions: a bot entered under a name that is taken becomes a new entry
 * NAME@K (K one more than the latest version), linked to that version, which
 * is retired in the same breath; retired entries stay on the board. The
 * files an entry runs are hashed when it is entered (programs.h); an entry
 * whose files differ later is "changed": the league holds it out of play
 * and says how to enter the new version.
 *
 * Functions return 0 or a negative errno-style code with a sentence in err
 * and never exit.
 */
#ifndef SKIPBO_LEAGUE_ENTRIES_H
#define SKIPBO_LEAGUE_ENTRIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "config.h"

#define LEAGUE_ENTRIES_FILE "entries.jsonl"
#define LEAGUE_ENTRY_NAME_MAX 80

struct league_entry {
	char *name;             /* "alpha", "alpha@2" */
	int version;            /* 1 for NAME, K for NAME@K */
	int previous;           /* the entry number of the version before, -1 for none */
	bool anchor;            /* its rating is frozen */
	bool declared;          /* entered from league.jsonc (not by `league add`) */
	bool retired, suspended;
	char *why;              /* why it was retired or suspended, or NULL */
	struct config_bot bot;  /* bot.name is name; argv[0] absolute */
	cJSON *programs;        /* the files it ran when entered */
};

struct league_entries {
	char *dir;
	struct league_entry *e;
	size_t n, cap;
	off_t read_to;          /* bytes of entries.jsonl read */
};

enum { LEAGUE_ENTRY_ANCHOR = 1, LEAGUE_ENTRY_DECLARED = 2 };

/* Read dir/entries.jsonl (none yet: no entries). */
int league_entries_open(struct league_entries *es, const char *dir, char *err, size_t err_size);
void league_entries_release(struct league_entries *es);

/* Read what was appended since: 1 when entries changed, 0 when not. */
int league_entries_refresh(struct league_entries *es, char *err, size_t err_size);

/* The entry called name exactly; -1 for none. */
int league_entries_named(const struct league_entries *es, const char *name);

/* The entry NAME@K for a name with '@', else the latest version of the bot called name
 * (NAME itself when it has no other); -1 for none. */
int league_entries_find(const struct league_entries *es, const char *name);

/*
 * Enter bot (bot->name a name without '@': the bot's name) with flags: as
 * NAME, or as the next version when NAME is taken (above). The entry's
 * name into name (LEAGUE_ENTRY_NAME_MAX bytes). Returns 0 when entered.
 * Returns 1 when the latest version runs the same files with the same
 * command and is not retired: the same add made again (a command run again
 * after a crash), nothing entered, name that version's, and the retirement
 * of the version before it made if a crash cut it short. -EEXIST when that
 * version is retired (`league return` brings it back); -EINVAL for a name
 * with '@'.
 */
int league_entries_add(struct league_entries *es, const struct config_bot *bot, unsigned flags,
		       char *name, char *err, size_t err_size);

/* Retire entry i, or suspend it, with why. Retiring a retired entry is -EALREADY
 * (a command run again after a crash meets it: its work is done). */
int league_entries_retire(struct league_entries *es, size_t i, const char *why, char *err,
			  size_t err_size);
int league_entries_suspend(struct league_entries *es, size_t i, const char *why, char *err,
			   size_t err_size);

/* Retired entry i back in play (a retire undone): -EALREADY when it is not retired, -EBUSY
 * when a later version of it is in play (two versions of a bot never play at once). */
int league_entries_return(struct league_entries *es, size_t i, char *err, size_t err_size);

/*
 * 1 when the files of bot (NULL: entry i's own command) differ now from
 * those entry i was entered with, why saying how; else 0.
 */
int league_entries_changed(const struct league_entries *es, size_t i, const struct config_bot *bot,
			   char *why, size_t size);

/*
 * 1 when entry i is held out of play: it is neither retired nor suspended
 * and its files differ from those it was entered with (league_entries_changed
 * with its bot of declared, when it is a declared entry that declared names,
 * else with its own command), why saying how; else 0. The league's rule, for
 * the league and for readers that show it (league_board.h).
 */
int league_entries_held(const struct league_entries *es, size_t i, const struct config *declared,
			char *why, size_t size);

/*
 * The entries in a few lines on out: how many there are, how many play,
 * and each retired or suspended one with why.
 */
void league_entries_summary(const struct league_entries *es, FILE *out);

/*
 * Each entry's state now (retired, suspended), es->n bytes to free, for
 * league_entries_announce(); NULL without memory.
 */
unsigned char *league_entries_mark(const struct league_entries *es);

/*
 * A line on out for each change since mark (of n entries; NULL: none
 * known): an entry entered (from league.jsonc, as an anchor, as the next
 * version of which), retired, back in play or suspended, with why.
 */
void league_entries_announce(const struct league_entries *es, const unsigned char *mark,
			     size_t n, FILE *out);

/*
 * Bring the entries in line with league.jsonc's bots and anchors: a bot not
 * entered yet is entered (declared; an anchor when named so), a declared
 * entry whose command, working directory or environment was edited is
 * entered again as its next version (which retires it: a suspended bot
 * fixed in the file plays again), a bundled
 * anchor not entered yet is entered with limits, a declared entry whose bot
 * left the file is retired. Returns the number of changes, or a negative
 * errno.
 */
int league_entries_declare(struct league_entries *es, const struct config *declared,
			   char *const *anchors, size_t nanchors, char *err, size_t err_size);

#endif
