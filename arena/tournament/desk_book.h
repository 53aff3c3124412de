/*
 * desk_book.h - the lease desk's insides, shared by desk.c (leases handed
 * out, ended, re-handed; workers.jsonl written), desk_read.c (workers.jsonl
 * read back) and desk_results.c (results checked and taken; the documents).
 * Everything here runs under d->lock, but a book being made or read.
 */
#ifndef SKIPBO_DESK_BOOK_H
#define SKIPBO_DESK_BOOK_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "bundle.h"
#include "desk.h"
#include "desk_check.h"
#include "journal.h"

enum desk_lease_state { DESK_LEASE_LIVE, DESK_LEASE_DONE, DESK_LEASE_RELEASED,
			DESK_LEASE_EXPIRED, DESK_LEASE_VOID };
/* A game of a lease: open, being checked (a results call holds it), taken. */
enum desk_game_state { DESK_GAME_OPEN, DESK_GAME_CLAIMED, DESK_GAME_TAKEN };

struct desk_lease_game {
	struct schedule_game g;
	enum desk_game_state state;
};

struct desk_lease_rec {
	char id[24];
	char *worker;
	bool trusted;
	enum desk_lease_state state;
	struct desk_lease_game *games;
	int n, taken;
	double began, heard;  /* desk_now() */
};

struct desk_worker {
	char *name;
	bool trusted, suspended;
	char *why;               /* the suspension's */
	time_t last_heard;       /* 0: not in this desk's time */
	uint64_t games;          /* taken, workers.jsonl's included */
	uint64_t timed_games;    /* taken by the leases that ended in this desk's time */
	double held;             /* seconds those leases were held */
	int leases;              /* live */
	int *lacks;              /* bots (cfg indices) it cannot run */
	size_t nlacks;
	uint64_t replayed;       /* its games the host re-played and judged */
	uint64_t mismatches;     /* of those, played otherwise than the host's two equal plays */
	uint64_t replay_failures;  /* its games the host could not re-play */
};

struct desk_deal {
	uint32_t table, deal;
	char name[32];           /* "t0003-d0001" */
	int games;               /* of its group */
	int failures;
	bool parked;
	char **reasons;
	size_t nreasons;
};

/* A game taken by the desk, for an id sent again: its result. */
struct desk_done {
	char id[SCHEDULE_ID_MAX];
	int placings[ENGINE_MAX_PLAYERS];
	int players, faults;
};

/* A bot's bundle for the attached run, made at its first lease. */
struct desk_bundle {
	bool made, none;          /* none: it runs only system files */
	char sha256[BUNDLE_HASH_LEN + 1];
};

/* A game held for the host's re-play (desk.h): the worker's, checked, not yet taken. */
struct desk_held {
	struct desk_held *next;
	struct desk_lease_rec *l;
	int game;                /* in l */
	struct committed_game cg;
	char *record;            /* the worker's record line, NUL-terminated */
	size_t record_len;
	char *replay;            /* the worker's document, NUL-terminated */
	size_t rlen;
};

struct desk {
	pthread_mutex_t lock;
	pthread_cond_t cond;     /* a lease ended, an ops call returned */
	char *dir;
	char *path;              /* dir/workers.jsonl */
	struct desk_settings set;
	struct journal *journal;
	struct desk_run_ops ops;
	struct desk_bundle *bundles;  /* one per bot of ops.cfg */
	bool *private_bots;      /* one per bot of ops.cfg: for trusted workers only */
	bool attached, detaching;
	int calls;               /* ops calls in flight, made without the lock */
	uint64_t next_lease;
	unsigned rand;           /* rand_r's, for the trusted workers' sample */
	struct desk_lease_rec **leases;
	size_t nleases;
	struct desk_worker *workers;
	size_t nworkers;
	struct desk_deal *deals;
	size_t ndeals;
	struct schedule_game *rehand;
	size_t nrehand, rehand_cap;
	struct desk_done *done;  /* an open-addressed table, done_cap a power of two */
	size_t ndone, done_cap;
	struct desk_held *held;  /* first in, first re-played */
	pthread_t verifier;
	bool verifying, quit;    /* the verifier thread started; asked to end */
};

/* A book of dir with its lock, nothing read and no journal: 0 with *out, or
 * -ENAMETOOLONG, -ENOMEM with err. */
int desk_book_new(const char *dir, const struct desk_settings *set, struct desk **out,
		  char *err, size_t err_size);
/*
 * d's workers.jsonl read into d: the workers' suspensions and games
 * and the lease numbers used; with history also the leases still live, the
 * workers' trust, times and speeds, and the parked deals (desk_read_state).
 * 0, or -ENOENT, -EBADMSG (a damaged line, named), -ENOMEM, with err.
 */
int desk_read_events(struct desk *d, bool history, char *err, size_t err_size);
double desk_now(void);
/* event appended to workers.jsonl with its time, fsync'd, and freed. 0 or a negative errno. */
int desk_journal(struct desk *d, cJSON *event);
/* The same for an event that only counts ("taken", "done"), not fsync'd: the next
 * event fsync'd (a lease is, before it is handed out) syncs it. games.jsonl, not
 * this file, says which games are kept; a crash loses at most the counts after
 * the last lease. */
int desk_journal_count(struct desk *d, cJSON *event);
cJSON *desk_event(const char *name, const char *worker, const struct desk_lease_rec *l);
struct desk_worker *desk_worker_of(struct desk *d, const char *name, bool add);
struct desk_lease_rec *desk_lease_of(struct desk *d, const char *id);
bool desk_parked(struct desk *d, const struct schedule_game *g);
/* One failure of g's deal, for why; parked (and said) at DESK_FAILURES_PARK. */
void desk_fail_deal(struct desk *d, const struct schedule_game *g, const char *why);
/* A live lease ended: its untaken games re-handed, their deals failed once when failure. */
void desk_end_lease(struct desk *d, struct desk_lease_rec *l, enum desk_lease_state state,
		    const char *why, bool failure);
void desk_expire_due(struct desk *d);
/* g on the re-hand list, unless its deal is parked. */
void desk_rehand(struct desk *d, const struct schedule_game *g);
/* The lease document of l (WORKERS.md), malloc'd, or NULL. */
char *desk_lease_document(struct desk *d, const struct desk_lease_rec *l);
void desk_done_release(struct desk *d);
/* A taken game's id and result, for an id sent again. 0 or -ENOMEM. */
int desk_done_add(struct desk *d, const struct committed_game *cg);

/* worker w suspended for why: its live leases end, workers.jsonl says so. 0 or a negative errno. */
int desk_suspend_worker(struct desk *d, struct desk_worker *w, const char *why);

/* desk_verify.c: the host's re-play of held games. */
/* True with probability p, from the system's random source. */
bool desk_draw(double p);
/* Game k of l held, with copies of its record and replay. 0 or -ENOMEM. */
int desk_hold(struct desk *d, struct desk_lease_rec *l, int k, const struct committed_game *cg,
	      const struct desk_sent *s);
/* desk_results.c: outside the lock, games committed through ops with their
 * replays (replays[k], rlens[k] bytes, no newline) made into one frame here.
 * 0 or a negative errno. */
int desk_commit_docs(const struct desk_run_ops *ops, const struct desk_commit *games,
		     const char *const *replays, const size_t *rlens, int n);
/* The held games of worker (NULL: every one) dropped, each handed again unless its lease is void. */
void desk_drop_held(struct desk *d, const char *worker);
/* The verifier thread, when set.replay is: started (0 or a negative errno), stopped. */
int desk_verifier_start(struct desk *d);
void desk_verifier_stop(struct desk *d);

#endif
