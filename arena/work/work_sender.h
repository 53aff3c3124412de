/*
 * work_sender.h - a lease's results sent while it is played (WORKERS.md,
 * "POST /api/work/leases/ID/results"): a thread of its own reads each game
 * the run has made durable in its directory (its games.jsonl record, and the
 * replay document the record locates, the batch's replays compressed as one
 * frame of a replay pack, replay_pack_frame()) and posts them in batches, every
 * WORK_SEND_MS or WORK_SEND_GAMES games, with an empty batch as the lease's
 * heartbeat when nothing else has been posted for a third of its expiry.
 *
 * A batch that does not reach the host is sent again with the next one, so
 * no finished game is lost to a moment without network. A 409 (the lease
 * has ended) or a 404 (the host knows no such lease) drops the lease: nothing more is sent and the run is asked to
 * stop (tournament_request_stop).
 */
#ifndef SKIPBO_WORK_SENDER_H
#define SKIPBO_WORK_SENDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lease.h"
#include "work_http.h"

#define WORK_SEND_MS 2000
#define WORK_SEND_GAMES 256

struct work_sender {
	struct work_http http;      /* a connection of its own */
	const struct lease *lease;
	const char *dir;            /* the run's output directory */
	FILE *log;                  /* what is said about the host's answers */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint64_t counted;           /* games the run has made durable */
	uint64_t sent;              /* games the host has answered for */
	unsigned expires_in;        /* the latest the host gave */
	bool finishing, done;       /* the run has returned; it played every game */
	bool dropped;               /* the host answered 409 or 404 */
	bool failed;                /* the last batch did not reach the host */
	uint64_t offset;            /* games.jsonl read up to here */
	uint64_t accepted, rejected;
};

/*
 * Start sending lease l's games from dir (both outlive the sender) to the
 * host at url with token and cacert. 0, or a negative errno with err.
 */
int work_sender_start(struct work_sender *s, const struct lease *l, const char *dir,
		      const char *url, const char *token, const char *cacert, FILE *log,
		      char *err, size_t err_size);

/* One more game made durable (the run's on_game hook): a batch may be due. */
void work_sender_counted(struct work_sender *s);

/*
 * The run has returned (done: every game of the lease played): send what is
 * left, the last batch with "done": done, stop the thread, free. 1 when the
 * host has every game, 0 when some could not be sent, -ESTALE when the
 * lease was dropped (409, 404).
 */
int work_sender_finish(struct work_sender *s, bool done);

#endif
