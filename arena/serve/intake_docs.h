/*
 * intake_docs.h - the documents `host`'s routes answer with (intake.h):
 * a submission, an account's submissions, a log, an acknowledgement. Their
 * shapes are in schema/serve-api.schema.json ("submission", "me",
 * "received", "author_disabled", "frozen", "challenge"). A submission is shown only to
 * its author and to organisers; to anyone else it does not exist (404, as
 * for an unknown id).
 *
 * Functions take the submissions under lock, refreshed from the file, and
 * queue the answer on conn (what MHD_queue_response returned).
 */
#ifndef SKIPBO_INTAKE_DOCS_H
#define SKIPBO_INTAKE_DOCS_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accounts.h"
#include "names.h"
#include "reply.h"

struct submissions;

/* Who sent a request: a live account. */
struct who {
	char name[NAMES_LEN_MAX + 1];
	enum account_role role;
	bool trusted;  /* a trusted worker's */
};

/* 202 {"id":N,"state":"received","url":"/api/submissions/N"} */
enum MHD_Result intake_docs_received(struct MHD_Connection *conn, uint64_t id);
/* 200 {"account":NAME,"role":ROLE}, with x's headers (the cookie). */
enum MHD_Result intake_docs_login(struct MHD_Connection *conn, const struct who *who,
				  const struct reply_extra *x);
/* 200 {"author":NAME,"state":"disabled","submissions":N}: N of theirs disabled. */
enum MHD_Result intake_docs_author(struct MHD_Connection *conn, const char *author, size_t n);
/* 200 {"frozen":true|false}. */
enum MHD_Result intake_docs_frozen(struct MHD_Connection *conn, bool frozen);
/* 202 {"id":N,"state":"queued","url":"/api/challenges/N"} */
enum MHD_Result intake_docs_challenge_asked(struct MHD_Connection *conn, uint64_t id);
struct challenge;
/* 200, challenge c of the competition in dir: who asked, the pair, its state and the
 * command that plays it. */
enum MHD_Result intake_docs_challenge(struct MHD_Connection *conn, const char *dir,
				      const struct challenge *c);
/* 404 for submission id. */
enum MHD_Result intake_docs_missing(struct MHD_Connection *conn, uint64_t id);
/* 200, submission id's document. */
enum MHD_Result intake_docs_submission(struct MHD_Connection *conn, pthread_mutex_t *lock,
				       struct submissions *ss, const struct who *who,
				       uint64_t id);
/* 200, the account, its bots and its submissions (an organiser: every one), newest first. */
enum MHD_Result intake_docs_me(struct MHD_Connection *conn, pthread_mutex_t *lock,
			       struct submissions *ss, const struct who *who);
/* 200, submission id's log called name ("build.log", "check.log"), as text. */
enum MHD_Result intake_docs_log(struct MHD_Connection *conn, pthread_mutex_t *lock,
				struct submissions *ss, const struct who *who, uint64_t id,
				const char *name);

#endif
