/*
 * sessions.h - what `host` keeps in memory of its visitors: the sessions
 * of logged-in authors (a random id in a cookie, mapped to the account's
 * name) and the failed tokens per client address. Nothing is written to
 * disk: a restart logs everyone out, which costs a login, and forgets the
 * failures, which a restart by an attacker cannot cause.
 *
 * Times are seconds of any clock that does not go back (the caller's now).
 * Functions lock the struct: the daemon's threads call in at once.
 */
#ifndef SKIPBO_SESSIONS_H
#define SKIPBO_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* A session id: 32 random bytes in hex, and its NUL. */
#define SESSIONS_ID_SIZE 65
/* Sessions and addresses kept at most; the oldest are forgotten first. */
#define SESSIONS_MAX 4096
#define SESSIONS_ADDRESSES_MAX 4096

struct sessions;

/*
 * Sessions lasting lifetime seconds; at most failures failed tokens per
 * address in any window seconds from its first. NULL: no memory.
 */
struct sessions *sessions_new(long lifetime, int failures, long window);
void sessions_free(struct sessions *ss);

/* A new session of account into id: 0, or -errno (getrandom). */
int sessions_open(struct sessions *ss, const char *account, time_t now,
		  char id[SESSIONS_ID_SIZE]);

/* The account of session id, live at now, into account: true; false for none.
 * Ids are compared in constant time. */
bool sessions_account(struct sessions *ss, const char *id, time_t now, char *account,
		      size_t size);

/* Forget session id (a logout). */
void sessions_close(struct sessions *ss, const char *id);

/* Seconds until address may try a token again; 0 when it may now. */
long sessions_blocked(struct sessions *ss, const char *address, time_t now);

/* A wrong token from address at now. */
void sessions_failed(struct sessions *ss, const char *address, time_t now);

#endif
