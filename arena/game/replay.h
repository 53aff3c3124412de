/*
 * replay.h - replay files (results/README.md, "Replays"): one JSON document per
 * game or match with the rules, seed, seats, the full initial deck order,
 * every event with full information, each decision's time, the faults and
 * the result; and the re-check of such a file against the engine.
 */
#ifndef SKIPBO_REPLAY_H
#define SKIPBO_REPLAY_H

#include <stddef.h>
#include <stdio.h>

#include "jsonw.h"
#include "referee.h"

#define REPLAY_FORMAT "skipbo-replay"
#define REPLAY_VERSION 1

struct replay_info {
	const char *id;
	const char *const *bots;   /* name at each seat */
	int move_ms, game_ms;      /* the time control played */
	const struct referee_outcome *outcome;
};

/* Replace w's text with the replay document. 0 or -ENOMEM. */
int replay_format(struct jsonw *w, const struct replay_info *info);

/* The same with a newline after it: the document as a file or a pack holds it. */
int replay_format_line(struct jsonw *w, const struct replay_info *info);

/* Write the document to path (replaced if it exists), durably (durable.h): on
 * the disk under its name when this returns. 0 or a negative errno. */
int replay_write(const char *path, const struct replay_info *info, struct jsonw *scratch);

/*
 * Re-check a replay document: deal each game again from its rules and seed,
 * compare the deck, apply every recorded decision and removal to the engine
 * (each must be legal for the seat to move) and require the engine's events
 * and result to equal the recorded ones, field by field; in a match also the
 * seed and dealer of each next game (match_record) and the totals. With print
 * non-NULL the game is printed turn by turn as it is checked.
 * Returns 0 if everything matches; 1 on the first mismatch, described in err
 * (game, event number and what differs); a negative code if the document is
 * not a replay at all (err says why).
 */
int replay_check(const char *text, size_t len, FILE *print, char *err, size_t err_size);

/* Room for a seat's name from a replay file, escaped for a terminal. */
#define REPLAY_NAME_SHOWN 256

struct replay_seats {
	int players;
	char names[ENGINE_MAX_PLAYERS][REPLAY_NAME_SHOWN]; /* escaped (termsafe.h) */
};

/*
 * replay_check() that also tells obs (referee.h; NULL for none) of each game
 * as the check replays it, as the referee tells of a game being played:
 * game_start when a game is dealt (its rules in game_rules(g)), move after
 * each recorded decision is applied (elapsed_us its recorded time, 0 when it
 * has none), fault after a seat is removed (seat, game, kind and reason from
 * the replay's "faults", the reason as recorded: escape it to print it; turn
 * and move 0), game_end when a
 * game's result matches. The line callback is never called. seats (may be
 * NULL) gets the seats' names once the document's header is read, before
 * any callback. Callbacks made before a mismatch stand: a caller that acts on
 * them looks at the return value, which is replay_check()'s.
 */
int replay_walk(const char *text, size_t len, FILE *print, const struct referee_observer *obs,
		struct replay_seats *seats, char *err, size_t err_size);

#endif
