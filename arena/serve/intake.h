/*
 * intake.h - the write side of `skipbo-arena host` (arena/HOSTING.md
 * "Routes"): submissions taken over HTTP, the author's documents and logs,
 * logging in and out, the organiser's disable. `serve` alone has none of it:
 * its server is read only; `host` hands server_start_host() an intake, and
 * `league --listen` one of the workers' routes only (intake_new_workers).
 *
 * Routes (every body of a refusal is {"error": "sentence"}):
 *   POST /api/bots/NAME/submissions  the archive as the body, streamed into
 *                                    DIR/incoming/ and fsync'd, then
 *                                    submissions_receive(); 202 after it returns
 *   GET  /api/me                     the account, its bots and submissions
 *   GET  /api/submissions/N          one submission, its queue place and why
 *   GET  /api/submissions/N/build.log, /check.log   its logs, as text
 *   POST /api/submissions/N/disable  the organiser's: retired from the league
 *   POST /api/authors/NAME/disable   the organiser's: the account revoked, each of its
 *                                    submissions disabled and its entry retired
 *   POST /api/freeze, /api/unfreeze  the organiser's: submissions refused or taken
 *                                    again, kept in DIR/freeze.jsonl (freeze.h)
 *   POST /login                      token=... (a form): a session cookie
 *   POST /logout                     the cookie forgotten
 *   GET  /author                     the author's page
 *
 *   /api/work/..., GET /api/workers  a worker's routes (work_routes.h), when a
 *                                    desk was given (intake_set_desk)
 *
 * Who: "Authorization: Bearer TOKEN" (accounts_lookup, constant time), or
 * the session cookie of /login (HttpOnly, SameSite=Strict, Secure under
 * TLS). An author sees and submits only their own; an organiser sees all.
 * A worker's routes take a worker's token only: none or a wrong one 401, an
 * author's or an organiser's 403.
 * Failed tokens are counted per client address: after login_failures in 10
 * minutes every token of that address is refused 429 with Retry-After.
 * A write whose Origin is another host, or whose Sec-Fetch-Site is
 * cross-site, is refused 403 before anything else.
 *
 * Thread safety: the daemon's threads call in at once; the intake locks
 * what it shares.
 */
#ifndef SKIPBO_INTAKE_H
#define SKIPBO_INTAKE_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#include "host_config.h"

struct desk;
struct intake;
struct pipeline;

/* Login failures are counted over this many seconds. */
#define INTAKE_LOGIN_WINDOW_S 600
/* A session cookie lives this long. */
#define INTAKE_SESSION_S (7 * 24 * 3600)
#define INTAKE_COOKIE "skipbo_session"

/*
 * The intake of the competition in dir with its settings; pipeline (may be
 * NULL) is poked after each submission. Files left in dir/incoming/ by a
 * stop are removed: none of them was acknowledged. 0 with *out, or a
 * negative errno with err.
 */
int intake_new(const char *dir, const struct host_config *config, struct pipeline *pipeline,
	       bool tls, struct intake **out, char *err, size_t err_size);
void intake_free(struct intake *in);

/*
 * The intake of `league --listen` (arena/WORKERS.md): only the workers'
 * routes, answered from desk (which must outlive the server), with the
 * worker accounts of dir/accounts.jsonl and config's login_failures; every
 * other request is left to the server's read-only routes, which show all
 * the games. No incoming/ and no submissions are made. 0 with *out, or
 * -ENOMEM with err.
 */
int intake_new_workers(const char *dir, const struct host_config *config, struct desk *desk,
		       bool tls, struct intake **out, char *err, size_t err_size);

/*
 * The lease desk that the workers' routes answer from (desk.h); NULL (the
 * default): those routes are 404. Set before the server starts; the desk
 * must outlive the server.
 */
void intake_set_desk(struct intake *in, struct desk *desk);

/*
 * One call of the daemon's access handler. *handled is false when url and
 * method are none of the intake's (the server's read-only routes go on);
 * else the result is the handler's.
 */
enum MHD_Result intake_request(struct intake *in, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *upload_data,
			       size_t *upload_data_size, void **con_cls, bool *handled);

/*
 * Who may see which games of the league (public_games in host.jsonc): all
 * of them (public_games true, or an organiser asking), else the games of
 * the entries in names (those of the asking author's submissions; none for
 * a visitor who is not logged in).
 */
struct intake_viewer {
	bool all;
	char **names;
	size_t n;
};

/* The viewer behind conn's token or cookie into *v: 0, or -ENOMEM. */
int intake_viewer(struct intake *in, struct MHD_Connection *conn, struct intake_viewer *v);
void intake_viewer_release(struct intake_viewer *v);

/* The daemon's notice that a request ended: an upload not taken is removed. */
void intake_completed(struct intake *in, void **con_cls);

#endif
