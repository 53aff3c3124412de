/*
 * accounts.h - the accounts of a hosted competition: DIR/accounts.jsonl,
 * one event a line, appended through the journal (journal.h: flock, a torn
 * last line cut, fsync) and created 0600. This module is the file's one
 * writer and one reader (arena/HOSTING.md).
 *
 *   {"event": "add", "name": "alice", "role": "author",
 *    "token_sha256": "<64 hex digits>", "time": "2026-12-07T06:00:00Z"}
 *   {"event": "add", "name": "box1", "role": "worker", "trusted": true, ...}
 *   {"event": "revoke", "name": "alice", "time": "2026-12-08T09:30:00Z"}
 *
 * A token is 32 bytes from getrandom(2), written "sbt_" and 64 lower-case
 * hex digits (ACCOUNTS_TOKEN_LEN characters). It is shown once, by
 * accounts_add(), and never stored: the file keeps the SHA-256 of the
 * token's text. Tokens carry 256 random bits, so an unsalted hash cannot
 * be reversed by trying tokens.
 *
 * A name follows names.h's rule. A name is live from its add to its
 * revoke; a revoked name may be added again, with a new token. The reader
 * is strict: a line that is not an event of this list, a second add of a
 * live name or a revoke of a name that is not live is an error naming the
 * file and the line. A torn last line (a crash in the middle of an add) is
 * not read, and the next add cuts it off.
 *
 * Two commands changing one file at once are serialised by a lock on
 * DIR/accounts.lock, held from the reading of the file to the append, so
 * two adds of one name never both pass the check.
 *
 * Functions return 0 or a negative errno-style code, with a sentence in
 * err (what was wrong, where, what to do); they never print or exit.
 */
#ifndef SKIPBO_ACCOUNTS_H
#define SKIPBO_ACCOUNTS_H

#include <stdbool.h>
#include <stddef.h>

#define ACCOUNTS_FILE "accounts.jsonl"
#define ACCOUNTS_TOKEN_PREFIX "sbt_"
/* "sbt_" and 64 hex digits, without the terminating NUL */
#define ACCOUNTS_TOKEN_LEN 68
/* a SHA-256 in hex with its NUL */
#define ACCOUNTS_HASH_SIZE 65

enum account_role {
	ACCOUNT_AUTHOR, /* submits bots of their own */
	ACCOUNT_WORKER, /* a machine that plays or builds for the host */
	ACCOUNT_ORGANISER, /* sees every submission and its logs, disables them */
};

struct account {
	char *name;
	enum account_role role;
	char token_sha256[ACCOUNTS_HASH_SIZE];
	char *added;   /* the add's time, as written */
	char *revoked; /* the revoke's time; NULL while live */
	bool trusted;  /* a worker given private bots and fewer re-checks (arena/WORKERS.md) */
};

/* The accounts in the order of their adds; a name added again after a revoke has
 * an account for each add. */
struct accounts {
	char *dir;
	struct account *a;
	size_t n;
};

/* "author", "worker" or "organiser". */
const char *account_role_name(enum account_role role);

/*
 * Read dir/accounts.jsonl (none yet: no accounts) into *as, which the
 * caller releases with accounts_release() on success. -EBADMSG for a line
 * that is not an event (err: the file, the line, the fault, what to do),
 * -ENOENT when dir is not a directory, other codes for I/O.
 */
int accounts_open(struct accounts *as, const char *dir, char *err, size_t err_size);

/*
 * Add the account name with role (a worker trusted or not), its token made and written into token
 * (ACCOUNTS_TOKEN_LEN characters and a NUL): the only copy. The event is
 * durable on return, and *as is read again with it. -EINVAL for a name
 * that breaks the rule or trusted without ACCOUNT_WORKER, -EEXIST for a live name (err says to revoke it
 * first), other codes for I/O (-ENOSPC: nothing was added).
 */
int accounts_add(struct accounts *as, const char *name, enum account_role role, bool trusted,
		 char token[ACCOUNTS_TOKEN_LEN + 1], char *err, size_t err_size);

/* Revoke the live account name: its token is refused from now on. -ENOENT when no
 * live account has that name, -EINVAL for a name that breaks the rule. */
int accounts_revoke(struct accounts *as, const char *name, char *err, size_t err_size);

/*
 * The live account whose token is token (a NUL-terminated string of any
 * length), or -1. The token's hash is compared with every account's in
 * constant time, the whole list through, so the time taken says nothing
 * of which account matched or how much of a hash did.
 */
int accounts_lookup(const struct accounts *as, const char *token);

/* The live account called name, or -1. */
int accounts_live(const struct accounts *as, const char *name);

void accounts_release(struct accounts *as);

#endif
