/*
 * desk_serve.c - a league's lease desk served to workers (contract in
 * desk_serve.h): the desk's callbacks as a host gives them, and the one
 * wiring of desk, intake and server that `host` and `league --listen` use.
 */
#include "desk_serve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "desk.h"
#include "intake.h"
#include "league_hide.h"
#include "pipeline.h"
#include "play_here.h"
#include "server.h"

/* The desk's private_entry: ctx is the league's directory. */
static bool entry_private(void *ctx, const char *name)
{
	return pipeline_entry_private(ctx, name);
}

/*
 * The desk's replay (desk.h): game g of the league's segment cfg played here,
 * its bots in the league's sandbox with the league's directory hidden but for
 * their own folders. ctx is the league's directory. The verifier thread
 * that calls it, and the bots it starts, run at DESK_SERVE_REPLAY_NICE.
 */
static int replay_here(void *ctx, const struct config *cfg, const struct schedule_game *g,
		       char **doc, size_t *len, char *err, size_t err_size)
{
	const char **cwds = calloc(cfg->nbots + 1, sizeof(*cwds));
	struct strlist hide = { 0 };
	struct play_here_setup setup = { 0 };
	int ret = -ENOMEM;

	/* a thread's own nice value (Linux), inherited by what it starts */
	setpriority(PRIO_PROCESS, (id_t)gettid(), DESK_SERVE_REPLAY_NICE);
	for (size_t i = 0; cwds && i < cfg->nbots; i++)
		cwds[i] = cfg->bots[i].cwd;
	if (cwds && (ret = league_hide(ctx, cwds, cfg->nbots, &hide)) < 0)
		snprintf(err, err_size, "the league's directory \"%s\": %s", (const char *)ctx,
			 strerror(-ret));
	free(cwds);
	if (ret < 0) {
		if (ret == -ENOMEM)
			snprintf(err, err_size, "out of memory");
		return ret;
	}
	setup.hide = (const char *const *)hide.v;
	setup.nhide = hide.n;
	ret = play_here(cfg, g, 1, &setup, doc, len, err, err_size);
	strlist_free(&hide);
	return ret;
}

/* The desk's log: ctx is the struct desk_serve. */
static void say(void *ctx, const char *line)
{
	const struct desk_serve *ds = ctx;

	fprintf(stderr, "skipbo-arena: %s: %s\n", ds->cmd, line);
}

int desk_serve_start(const struct desk_serve_setup *setup, struct desk_serve *ds, char *err,
		     size_t err_size)
{
	const struct host_config *c = setup->config;
	struct desk_settings set = {
		.lease_seconds = (unsigned)c->lease_seconds,
		.expire_seconds = (unsigned)c->expire_seconds,
		.replay_sample = c->replay_sample,
		.private_entry = entry_private, .private_ctx = (void *)setup->dir,
		.replay = replay_here, .replay_ctx = (void *)setup->dir,
		.log = say, .log_ctx = ds,
	};
	bool tls = setup->cert != NULL;
	int ret;

	*ds = (struct desk_serve){ .cmd = setup->cmd, .dir = setup->dir };
	if ((ret = desk_open(setup->dir, &set, &ds->desk, err, err_size)) < 0)
		goto fail;
	if (setup->pipeline)
		ret = intake_new(setup->dir, c, setup->pipeline, tls, &ds->intake, err, err_size);
	else
		ret = intake_new_workers(setup->dir, c, ds->desk, tls, &ds->intake, err, err_size);
	if (ret < 0)
		goto fail;
	intake_set_desk(ds->intake, ds->desk);
	if ((ret = server_start_host(setup->dir, setup->listen, setup->cert, setup->key,
				     ds->intake, &ds->server, err, err_size)) < 0)
		goto fail;
	return 0;
fail:
	desk_serve_stop(ds);
	return ret;
}

void desk_serve_stop(struct desk_serve *ds)
{
	server_stop(ds->server);
	intake_free(ds->intake);
	/* after the server (and the caller's league): nothing can reach it now */
	desk_close(ds->desk);
	ds->server = NULL;
	ds->intake = NULL;
	ds->desk = NULL;
}
