/*
 * record.h - one line of games.jsonl (results/README.md, schema/game-record.schema.json):
 * its struct, its one writer and its one reader.
 *
 * The writer, record_format(), prints a struct record in the one key order
 * the arena writes. The reader, record_parse(), reads a line in two steps:
 * a fast path that reads the writer's own layout without building a tree, and
 * for anything else (another key order, an older record, escapes it does not
 * take, a value out of range) the strict reader (json_strict.h), which gives
 * the same struct or the refusal naming the field. The fast path accepts only
 * what the strict reader accepts, with the same values, so which path read a
 * line never shows.
 *
 * Two levels of checking:
 * - RECORD_KEYS, what a resume and a merge rely on: an object with a string
 *   "id", "players" an integer from 2 to RECORD_SEATS_MAX and "placings"
 *   that many integers from 1 to players. The other fields are read when the
 *   fast path reads the line, and left at zero (NULL, -1) by the strict reader.
 * - RECORD_FULL, what a rating relies on: also "placings", "stock_left",
 *   "scores", "winners", "bots" (printable ASCII names), "teams", "time" and
 *   "faults" checked (gamelog.h lists the ranges); "id" may be absent.
 *
 * Strings of a parsed record point into the struct record_reader (or the tree
 * it holds) and stay valid until its next record_parse() or its release.
 */
#ifndef SKIPBO_RECORD_H
#define SKIPBO_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "json_strict.h"
#include "jsonw.h"

#define RECORD_SEATS_MAX 6
/* The longest move time a record may carry: 10^13 us, 116 days. */
#define RECORD_TIME_MAX_US 1e13
/* The longest bot name a record may carry (a tournament file allows 64 bytes). */
#define RECORD_NAME_MAX 255
#define RECORD_WHY_MAX 192

/* One seat's move times (microseconds). */
struct record_time {
	uint32_t moves;
	double mean_us;
	int64_t median_us;
	double p99_us, max_us;
	bool has_cpu;       /* records before CPU times have neither field */
	double cpu_mean_us;
	int64_t cpu_max_us;
};

/* One R11 fault. turn and move are -1 when a record lacks them (RECORD_FULL reads them leniently). */
struct record_fault {
	int seat;
	const char *bot;    /* NULL when absent */
	const char *kind;   /* NULL when absent or not a string */
	int64_t game, turn, move;
	const char *reason; /* NULL when absent */
	const char *line;   /* NULL when absent */
};

struct record {
	const char *id;     /* NULL when absent (RECORD_FULL only) */
	uint32_t table, deal, rotation;
	uint64_t seed;
	int players;
	bool partnership, match;
	int games;          /* 1 unless match mode */
	uint8_t team[RECORD_SEATS_MAX];  /* team number of each seat */
	const char *bots[RECORD_SEATS_MAX];
	int winners[RECORD_SEATS_MAX];   /* seats, in the record's order */
	int nwinners;       /* entries in winners[] (a crafted record's extra ones are not kept) */
	bool winner[RECORD_SEATS_MAX];
	const char *reason; /* how the game ended; NULL when absent */
	int placings[RECORD_SEATS_MAX];  /* R7, 1 is best */
	int stock_left[RECORD_SEATS_MAX];
	int32_t scores[RECORD_SEATS_MAX];  /* R8 */
	int64_t turns, moves;  /* -1 when absent */
	bool has_time;
	struct record_time time[RECORD_SEATS_MAX];
	const struct record_fault *faults;
	size_t nfaults;
	/* The replay keys, read by the fast path only: with replay_known false a
	 * caller that needs them reads them from record_tree(). */
	bool replay_known;
	const char *replay;    /* "replays/<pack>.jsonl.zst", or an older run's file; NULL: none */
	bool has_replay_at;    /* replay_offset and replay_line given */
	uint64_t replay_offset, replay_line;
};

enum record_level { RECORD_KEYS, RECORD_FULL };

/* What record_parse() keeps between lines: a copy of the line, faults, a tree. */
struct record_reader {
	char *text;
	size_t text_cap;
	struct record_fault *faults;
	size_t faults_cap;
	cJSON *root;               /* the strict reader's tree of the last line, or NULL */
	struct json_pool pool;
	char why[RECORD_WHY_MAX];  /* why the last line was refused: one sentence, printable ASCII */
};

void record_reader_init(struct record_reader *rd);
void record_reader_release(struct record_reader *rd);

/*
 * Read one line (len bytes, no newline; it need not be NUL-terminated) into
 * *rec. 0; -EBADMSG when it is not a record at that level (rd->why says why,
 * naming the field); -ENOMEM.
 */
int record_parse(struct record_reader *rd, const char *line, size_t len, enum record_level level,
		 struct record *rec);

/*
 * The whole line as a strict tree, for a caller that wants a key this struct
 * does not have: the tree of the last record_parse(), parsed again if the fast
 * path read it. NULL on -ENOMEM. Owned by rd.
 */
const cJSON *record_tree(struct record_reader *rd, const char *line, size_t len);

/*
 * Replace w's text with rec as one games.jsonl line without the newline, in
 * the arena's key order: id, table, deal, rotation, seed, players,
 * partnership, teams, match, games, bots, winners, reason, placings,
 * stock_left, scores, turns, moves, time, faults, and replay, replay_offset
 * and replay_line when there is a replay. 0 or -ENOMEM.
 */
int record_format(struct jsonw *w, const struct record *rec);

/*
 * The same line with another replay place: rec, just read from line (len
 * bytes) by record_parse(), given replay, replay_offset (offset) and
 * replay_line (at), and formatted into w: a line the fast path read that
 * ends as record_format() ends one keeps its bytes up to its replay keys,
 * which are written again (a host writes a worker's record so without
 * formatting it again); any other is formatted whole. 0 or -ENOMEM.
 */
int record_format_replay_at(struct jsonw *w, struct record *rec, const char *line, size_t len,
			    const char *replay, uint64_t offset, uint64_t at);

#endif
