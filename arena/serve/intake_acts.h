/*
 * intake_acts.h - what intake.c shares with intake_acts.c: the intake's
 * state and the routes of the organiser's acts and of challenges
 * (arena/HOSTING.md, "Routes"). Not for other modules: intake.h is the
 * intake's contract.
 */
#ifndef SKIPBO_INTAKE_ACTS_H
#define SKIPBO_INTAKE_ACTS_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "host_config.h"
#include "intake_docs.h"
#include "submissions.h"

struct desk;
struct pipeline;
struct sessions;

struct intake {
	char *dir;
	struct host_config config;
	struct pipeline *pipeline;
	bool tls;
	struct sessions *sessions;
	pthread_mutex_t lock;      /* guards ss */
	struct submissions ss;
	struct desk *desk;         /* the workers' routes' (work_routes.h), or NULL: none */
	bool workers_only;         /* intake_new_workers(): no author routes, no submissions */
};

/* A refusal's sentence and status, answered by intake_refuse(). */
struct refusal {
	unsigned status;
	long retry_after;
	char why[512];
};

enum MHD_Result intake_refuse(struct MHD_Connection *conn, const struct refusal *r);

enum organiser_act { ACT_NONE, ACT_DISABLE, ACT_FREEZE, ACT_UNFREEZE, ACT_AUTHOR };

/*
 * An organiser's act by who, refused 403 to anyone else: ACT_DISABLE of
 * submission id (its entry retired), ACT_AUTHOR of author (the account
 * revoked, each of their submissions disabled), ACT_FREEZE, ACT_UNFREEZE
 * (freeze.h).
 */
enum MHD_Result intake_organiser_act(struct intake *in, struct MHD_Connection *conn,
				     const struct who *who, enum organiser_act act, uint64_t id,
				     const char *author);

/* POST /api/challenges with body (len bytes of JSON) by who: checked, limited per
 * pair (challenges_per_pair_day), queued in challenges.jsonl; 202. */
enum MHD_Result intake_challenge_ask(struct intake *in, struct MHD_Connection *conn,
				     const struct who *who, const char *body, size_t len);

/* GET /api/challenges/N: to the author who asked it and to organisers; else 404. */
enum MHD_Result intake_challenge_get(struct intake *in, struct MHD_Connection *conn,
				     const struct who *who, uint64_t id);

/* Whether who may see the league entry called name: an organiser, or the author of a
 * submission that became it. */
bool intake_sees_entry(struct intake *in, const struct who *who, const char *name);

#endif
