/*
 * work_routes.h - the routes workers speak to `host` (arena/WORKERS.md,
 * "The protocol"), answered from a lease desk (desk.h):
 *
 *   POST /api/work/lease                 desk_lease: 200 a lease, 204 with
 *                                        Retry-After when there is no work
 *   POST /api/work/leases/ID/results     desk_results: JSON lines, at most
 *                                        WORK_RESULTS_MAX bytes, held in memory
 *   POST /api/work/leases/ID/release     desk_release
 *   GET  /api/work/bundles/SHA256        desk_bundle: the archive, from its file
 *
 * and GET /api/workers (desk_state): the names of workers, the reasons of
 * their suspensions and of parked deals to an organiser only; anyone else
 * gets the same document without them.
 *
 * Who asks is the intake's business (intake.h): it authenticates a worker's
 * token and hands each request under /api/work/ here with the account's
 * name and trust. Desk errors become statuses: -EPERM 403, -EPROTO and
 * -ESTALE 409, -ENOENT 404, -EINVAL 400, others 503. Every refusal is
 * {"error": "sentence"}.
 *
 * Thread safety: the daemon's threads call in at once; the desk serialises.
 */
#ifndef SKIPBO_WORK_ROUTES_H
#define SKIPBO_WORK_ROUTES_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

struct desk;
struct work_request;

#define WORK_PREFIX "/api/work/"
/* A results batch: its replays are a few KiB a game. */
#define WORK_RESULTS_MAX ((size_t)256 << 20)
/* A lease's or a release's request. */
#define WORK_ASK_MAX ((size_t)1 << 20)

/*
 * The first call of a request under WORK_PREFIX from worker (trusted or
 * not). Either it is answered now and *req stays NULL, or a body follows:
 * *req holds it for work_routes_body, and work_routes_free drops it.
 */
enum MHD_Result work_routes_begin(struct desk *d, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *worker, bool trusted,
				  struct work_request **req);

/* A chunk of req's body (*size bytes, then taken), or its end (*size 0): the answer. */
enum MHD_Result work_routes_body(struct desk *d, struct MHD_Connection *conn,
				 struct work_request *req, const char *data, size_t *size);

void work_routes_free(struct work_request *req);

/* GET /api/workers: desk_state, whole to an organiser, without names to anyone else. */
enum MHD_Result work_routes_workers(struct desk *d, struct MHD_Connection *conn,
				    bool organiser);

#endif
