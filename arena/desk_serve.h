/*
 * desk_serve.h - a league's lease desk (desk.h) served to workers over
 * HTTP: what `host DIR` and `league --listen ADDR:PORT DIR` share
 * (arena/WORKERS.md). It opens the desk of DIR with DIR/host.jsonc's
 * lease settings, the host's re-play of an untrusted worker's games (the
 * bots in the league's sandbox, the league's directory hidden but for
 * their own folders, at DESK_SERVE_REPLAY_NICE), and an intake (intake.h)
 * that answers the workers' routes with the tokens of DIR/accounts.jsonl,
 * then starts the server of `serve` with it.
 *
 * The desk logs on stderr, "skipbo-arena: CMD: ...": a re-play that failed.
 */
#ifndef SKIPBO_DESK_SERVE_H
#define SKIPBO_DESK_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "host_config.h"

/* the host's re-plays of workers' games give way to the league's own, as challenges do */
#define DESK_SERVE_REPLAY_NICE 10

struct desk;
struct intake;
struct pipeline;
struct server;

struct desk_serve_setup {
	const char *cmd;       /* "host" or "league": the log's prefix */
	const char *dir;       /* the league's directory */
	const char *listen;    /* ADDR:PORT, NULL: SERVE_DEFAULT_LISTEN */
	const char *cert, *key;  /* HTTPS (PEM files), both or neither */
	const struct host_config *config;
	/* The authors' submissions (the intake's author routes), poked after each
	 * one; NULL: the workers' routes only, with the read-only pages of serve. */
	struct pipeline *pipeline;
};

/* What desk_serve_start started; the caller's, kept until desk_serve_stop. */
struct desk_serve {
	struct desk *desk;
	struct intake *intake;
	struct server *server;
	const char *cmd, *dir;
};

/*
 * The desk of setup->dir opened and served: 0 with *ds filled (ds must
 * stay where it is until desk_serve_stop: the desk's callbacks point at
 * it), or a negative errno with err (nothing left started).
 */
int desk_serve_start(const struct desk_serve_setup *setup, struct desk_serve *ds, char *err,
		     size_t err_size);

/* The server stopped, then the intake and the desk freed. A zeroed ds is fine. */
void desk_serve_stop(struct desk_serve *ds);

#endif
