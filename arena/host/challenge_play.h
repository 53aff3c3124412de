/*
 * challenge_play.h - the challenges authors ask through host's API
 * (challenges.h) played, one at a time, in a thread of host's own: each as
 * `skipbo-arena league challenge --deals N DIR BOT OPPONENT` plays it
 * (arena/LEAGUE.md), in a process of its own at a low priority, so the
 * league's games keep their CPUs; its output in DIR/challenges/ID.log.
 * Once it ends, its games are counted from its records and the challenge is
 * played (its games, each side's wins) or failed with why
 * (challenges_finish).
 *
 * A stop kills the challenge in play; it stays queued, and the next start
 * plays it again, finding its games already recorded (the directory of a
 * challenge resumes like a tournament's).
 */
#ifndef SKIPBO_CHALLENGE_PLAY_H
#define SKIPBO_CHALLENGE_PLAY_H

#include <stddef.h>

struct challenge_play;

/* Start playing the challenges of dir with the program arena. 0 with *out, or a
 * negative errno with err. */
int challenge_play_start(const char *dir, const char *arena, struct challenge_play **out,
			 char *err, size_t err_size);

/* Stop: the challenge in play is killed (and played again at the next start); waits for
 * the thread. NULL is fine. */
void challenge_play_stop(struct challenge_play *cp);

#endif
