/*
 * challenges.h - the challenges authors ask through host's API
 * (arena/HOSTING.md, "Challenges"): DIR/challenges.jsonl, one event a
 * line, appended through the journal, read strictly by this module only.
 *
 *   {"event":"asked","id":1,"author":"alice","bot":"fast@2","opponent":"bob",
 *    "deals":10,"time":"2026-12-07T13:00:00Z"}
 *   {"event":"played","id":1,"games":20,"won":[12,7],"time":"..."}
 *   {"event":"failed","id":1,"why":"...","time":"..."}
 *
 * A challenge asked is queued until host plays it (challenge_play.h), as
 * `skipbo-arena league challenge --deals N DIR BOT OPPONENT` does
 * (arena/LEAGUE.md), then played (its games and each side's wins) or
 * failed with why. The asks of one pair of entries (either order) are
 * limited per 24 hours.
 *
 * Not for two threads at once: the caller locks.
 */
#ifndef SKIPBO_CHALLENGES_H
#define SKIPBO_CHALLENGES_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define CHALLENGES_FILE "challenges.jsonl"
#define CHALLENGES_DEALS_MAX 1000

enum challenge_state { CHALLENGE_QUEUED, CHALLENGE_PLAYED, CHALLENGE_FAILED };

struct challenge {
	uint64_t id;
	char *author, *bot, *opponent;
	int deals;
	time_t asked;
	enum challenge_state state;
	long games, won[2];  /* played: its games, and the wins of bot and of opponent */
	char *why;           /* failed: why */
};

/* "queued", "played", "failed". */
const char *challenge_state_name(enum challenge_state state);

struct challenges {
	char *dir;
	struct challenge *c;
	size_t n;
};

/*
 * Read dir/challenges.jsonl (none yet: no challenges) into *cs, released
 * with challenges_release() on success. -EBADMSG for a line that is not an
 * event (err: the file, the line, what to do), other codes for I/O.
 */
int challenges_open(struct challenges *cs, const char *dir, char *err, size_t err_size);
void challenges_release(struct challenges *cs);

/*
 * Queue a challenge of bot against opponent for author, durable on return,
 * with its id in *id. -EAGAIN when per_pair_day challenges of the pair were
 * asked in the 24 hours before now (0: no limit), *retry_after the seconds
 * until the oldest of them leaves the window; other codes for I/O. err says
 * why.
 */
int challenges_ask(struct challenges *cs, const char *author, const char *bot,
		   const char *opponent, int deals, int per_pair_day, time_t now, uint64_t *id,
		   long *retry_after, char *err, size_t err_size);

/* Challenge id, or NULL. */
const struct challenge *challenges_find(const struct challenges *cs, uint64_t id);

/* The oldest queued challenge, or NULL. */
const struct challenge *challenges_next(const struct challenges *cs);

/*
 * Challenge id played (why NULL: games and won[2] of bot and opponent) or
 * failed (why), durable on return. -ENOENT for no queued challenge id;
 * other codes for I/O, err saying why.
 */
int challenges_finish(struct challenges *cs, uint64_t id, long games, const long won[2],
		      const char *why, char *err, size_t err_size);

#endif
