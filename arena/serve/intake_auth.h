/*
 * intake_auth.h - who is asking the intake (contract of the routes in
 * intake.h): a bearer token or a session cookie looked up in the
 * accounts, wrong tokens counted per client address, and writes from
 * another site told apart. Shared by intake.c and intake_acts.c; not for
 * other modules.
 */
#ifndef SKIPBO_INTAKE_AUTH_H
#define SKIPBO_INTAKE_AUTH_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "intake_acts.h"

/* CLOCK_MONOTONIC's seconds: the sessions' and the failures' time. */
time_t intake_mono_now(void);

/* The client's address as text into out ("?" when unknown), for the count of failed tokens. */
void intake_client_address(struct MHD_Connection *conn, char *out, size_t size);

/* A request header, or NULL. */
const char *intake_header(struct MHD_Connection *conn, const char *name);

/*
 * Whether a write comes from a page of another site: a browser sends
 * Sec-Fetch-Site, and Origin with every POST; a command-line client
 * sends neither and is not refused.
 */
bool intake_cross_site(struct MHD_Connection *conn);

/* The live account of token (or, token NULL, called name) into *who: true, or false. */
bool intake_account_of(struct intake *in, const char *token, const char *name, struct who *who);

/* Whether address has sent too many wrong tokens: true with the 429 in r. */
bool intake_blocked(struct intake *in, const char *address, time_t now, struct refusal *r);

/*
 * Who sends this request: a bearer token (an author's or an organiser's),
 * else the session cookie. 0 with *who; -1 with the refusal (401 none or
 * wrong, counted; 429 too many wrong).
 */
int intake_authenticate(struct intake *in, struct MHD_Connection *conn, struct who *who,
			struct refusal *r);

/*
 * A worker's request: its bearer token only, of a live worker. 0 with *who;
 * -1 with the refusal (401 none or wrong, counted; 403 another role's; 429).
 */
int intake_authenticate_worker(struct intake *in, struct MHD_Connection *conn,
			       struct who *who, struct refusal *r);

#endif
