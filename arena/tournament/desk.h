/*
 * desk.h - the lease desk: a run's games played on other machines
 * (arena/WORKERS.md). Whole deal groups are leased to workers, chosen by
 * the run's source at the moment a worker asks; the games sent back are
 * checked (the lease's, the seats and seed, replay_check, the record equal
 * to the replay) and made durable by the run as its own; a lease that hears
 * nothing for its time expires and its games are leased again with the
 * same ids and seeds; a deal whose leases failed three times is parked
 * (not leased again by this run, shown with each failure's reason).
 *
 * The desk outlives the runs that use it (a league's segments): a run
 * attaches while it plays and detaches at its end. Detaching waits until
 * no lease holds a game of the run that could still come back, then voids
 * them: a later result for a voided lease is refused (-ESTALE), and the
 * run's source hands those deals again (a league at its next segment).
 *
 * It owns dir/workers.jsonl (one event a line through the journal: lease,
 * taken, done, expired, released, parked, conflict, suspended, replayed),
 * read back by desk_open for the workers' suspensions and counts (their
 * re-plays among them), and by desk_read_state whole. A line that is not such an event is refused (-EBADMSG), naming it.
 * It owns the evidence of a suspension for another play than the host's
 * (dir/workers/evidence/) too.
 *
 * With a replay callback, each game of an untrusted worker that passes the
 * checks is, in a sample of replay_sample drawn from the system's random
 * source, held instead of taken: its results call answers it "held", and
 * the desk's verifier thread plays it again through the callback, outside
 * every lock. The same play move for move: it is taken. Another: it is
 * played once more; two equal plays of the host's (deterministic bots)
 * suspend the worker (the three replays kept as
 * evidence/WORKER-ID-{worker,host1,host2}.json), and its games held or not
 * yet taken are dropped, their deals handed again; two different ones
 * (bots that play differently each time) take the worker's game as sent.
 * A held game not verified when the run detaches is dropped: the run's
 * source hands its deal again. A game the host could not judge (its play
 * failed: a bot would not start, say) is dropped too, its deal handed
 * again: the desk says so through the log callback and counts it. Each
 * re-play's outcome is a "replayed" event of workers.jsonl.
 *
 * Every function may be called from any thread at any time; the desk
 * serialises what it shares and never calls the run's ops under a lock of
 * its own that a run's thread could wait for.
 */
#ifndef SKIPBO_DESK_H
#define SKIPBO_DESK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "committer.h"
#include "config.h"
#include "schedule.h"

#define DESK_FILE "workers.jsonl"
#define DESK_FAILURES_PARK 3

struct desk;

struct desk_settings {
	unsigned lease_seconds;   /* the work a lease holds, in that worker's time (90) */
	unsigned expire_seconds;  /* a lease heard from less recently expires (120) */
	double replay_sample;     /* the share of an untrusted worker's games re-played */
	/* Whether the entry called name (a bot's name in the run: "alpha@2") is
	 * private (its manifest's "private": true): its bundle is refused to an
	 * untrusted worker (-EPERM) and no deal seating it is leased to one, not
	 * even one handed again. Asked for each bot at desk_attach, without the
	 * desk's lock; NULL: no entry is. */
	bool (*private_entry)(void *ctx, const char *name);
	void *private_ctx;
	/* Game g of cfg played on this machine with its seed, told id and seats:
	 * 0 with its replay document in *doc (malloc'd, *len bytes and a NUL), or
	 * a negative errno with err. Called from the desk's verifier thread with
	 * no lock of the desk's held; cfg stays valid until it returns. NULL:
	 * no game is held nor re-played. */
	int (*replay)(void *ctx, const struct config *cfg, const struct schedule_game *g,
		      char **doc, size_t *len, char *err, size_t err_size);
	void *replay_ctx;
	/* A line for the one who runs the desk (no newline), such as a re-play that
	 * failed. Called from the desk's threads with no lock of the desk's held.
	 * NULL: said nowhere. */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

/* A worker asking for work, as the route read it. */
struct desk_ask {
	const char *worker;       /* its account's name */
	bool trusted;
	const char *version;      /* its skipbo-arena --version */
	int cpus, jobs;
	const char *const *bundles;  /* the bundles it holds (SHA-256, hex) */
	size_t nbundles;
};

/* A game checked, as the desk hands it to the run. */
struct desk_commit {
	struct committed_game cg;
	const char *record;       /* the worker's games.jsonl line, no newline */
	size_t record_len;
};

/* What a run lends the desk while attached. */
struct desk_run_ops {
	/* The run's settings (the bots, limits, time control, sandbox). */
	const struct config *cfg;
	/* Up to max games, every rotation of whole deals the source opens for a
	 * lease now, into games: their number, 0 when none now, or a negative errno. */
	int (*take_groups)(void *run, struct schedule_game *games, int max);
	/* Games checked (n of them): frame, one zstd frame of their replay
	 * documents in games' order, one a line (replay_pack_frame()), appended
	 * to the run's packs as it is, and each record (the worker's games.jsonl
	 * line) written with its replay's place filled in by the run, counted as
	 * the run's own at the next flush. 0 or a negative errno. */
	int (*commit)(void *run, const struct desk_commit *games, int n, const char *frame,
		      size_t frame_len);
	/* The games committed so far durable (on disk) and counted, before a worker hears
	 * they are accepted. 0 or a negative errno (then they are not kept). */
	int (*flush)(void *run);
	void *run;
};

/* The desk of dir (workers.jsonl read back). 0 with *out, or a negative errno with err. */
int desk_open(const char *dir, const struct desk_settings *set, struct desk **out, char *err,
	      size_t err_size);
void desk_close(struct desk *d);

void desk_attach(struct desk *d, const struct desk_run_ops *ops);
void desk_detach(struct desk *d);

/*
 * A worker asks for work. 1 with the lease document (WORKERS.md, malloc'd)
 * in *lease; 0 when there is none now, *retry_after seconds to wait; or
 * -EPERM (suspended), -EPROTO (another version), -ENOMEM, with err.
 */
int desk_lease(struct desk *d, const struct desk_ask *ask, char **lease, unsigned *retry_after,
	       char *err, size_t err_size);

/*
 * Results (and the heartbeat) of lease id from worker: body is the request's
 * JSON. 0 with the answer document (malloc'd: accepted, rejected with why,
 * expires_in, held) in *answer, every game it accepts durable first (ops.flush);
 * -ESTALE (the lease ended: 409), -ENOENT (no such lease of this worker),
 * -EINVAL (not a results document), with err.
 */
int desk_results(struct desk *d, const char *worker, const char *id, const char *body,
		 size_t len, char **answer, char *err, size_t err_size);

/* The worker gives lease id back (why: "stopping", "lacks /usr/bin/java"). 0, -ENOENT. */
int desk_release(struct desk *d, const char *worker, const char *id, const char *why,
		 char *err, size_t err_size);

/*
 * The organiser's word: worker is leased nothing more, its live leases end
 * (their games handed again), and workers.jsonl keeps it for desk_open.
 * 0, or a negative errno with err.
 */
int desk_suspend(struct desk *d, const char *worker, const char *why, char *err,
		 size_t err_size);

/*
 * The archive of bundle sha256 (bundle.h), made for a lease this desk handed
 * out, into path: 0; -ENOENT (no such bundle), -EPERM (a private bot's, and
 * the worker is not trusted).
 */
int desk_bundle(struct desk *d, const char *sha256, bool trusted, char *path, size_t size);

/*
 * Workers, their leases and the parked deals, for status and the dashboard
 * (serve-api.schema.json "workers"). A new object, or NULL without memory:
 *
 *   {"workers": [{"name": "box1", "trusted": false, "suspended": false, "why": null,
 *                 "last_heard": 1796710000, "leases": 1, "games": 812,
 *                 "games_per_second": 2.5, "alive": true, "replayed": 3,
 *                 "mismatches": 0, "replay_failures": 0}],
 *    "parked": [{"deal": "t0203-d0000", "games": 2, "reasons": ["expired", "..."]}],
 *    "leased_games": 24}
 *
 * "alive": heard from within expire_seconds; "games": taken from it;
 * "last_heard": seconds since the epoch, null: never; "why": a suspension's;
 * "replayed": its games the host re-played and judged (workers.jsonl's
 * included), "mismatches": those it played otherwise, "replay_failures":
 * its games the host could not re-play (dropped and handed again).
 */
cJSON *desk_state(struct desk *d);

/*
 * The same document read from dir/workers.jsonl by another process (`status`),
 * "alive" judged against expire_seconds. 0 with *out (a new object); -ENOENT
 * when dir has no such file (no worker ever asked); -EBADMSG naming the file
 * and line, -ENOMEM, with err.
 */
int desk_read_state(const char *dir, unsigned expire_seconds, cJSON **out, char *err,
		    size_t err_size);

#endif
