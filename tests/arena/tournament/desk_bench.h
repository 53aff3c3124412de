/*
 * desk_bench.h - what the lease desk's tests share: a small tournament of
 * badbot played first (play_first, a group setup), whose records and replays
 * the tests' "workers" send back as played or forged, and a desk in a new
 * directory attached to a fake run that hands out the same schedule's deal
 * groups and counts what it is given. Every function fails the test on error.
 */
#ifndef SKIPBO_TEST_DESK_BENCH_H
#define SKIPBO_TEST_DESK_BENCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "desk.h"
#include "schedule.h"

#define PLAYED_MAX 16
#define GROUP 2 /* games of a deal group: two players, duplicate deals */

/* A game of the tournament played first: its record and replay as a worker sends them. */
struct played {
	char id[SCHEDULE_ID_MAX];
	char *record, *replay;
};

/* The run the desk serves: the schedule's deal groups in order, and what it is given. */
struct fake_run {
	uint64_t next_group, groups;
	bool again;          /* hand deal group 0 again, as an earlier lease of it */
	int commits;
	char committed[64][SCHEDULE_ID_MAX];
	const char *frame_at;  /* the frame of the last commit, where the desk had it */
	size_t frame_len;
	pthread_mutex_t lock;
};

/* A desk in a new directory, attached to a new fake run. */
struct bench {
	char dir[128];
	struct desk *desk;
	struct fake_run run;
	struct desk_settings set;
	char leased[16][2][32];  /* worker and lease of each lease asked for */
	int nleased;
};

extern char top[64];                 /* the tests' directory */
extern struct config cfg;            /* the tournament played first */
extern struct schedule *sched;       /* its schedule */
extern struct played played[PLAYED_MAX];
extern int nplayed;
extern const char tournament_text[];

/* cmocka's group setup and teardown: the tournament played, and everything removed. */
int play_first(void **state);
int remove_all(void **state);
const struct played *played_game(const char *id);

/* A desk in a new directory under top (expire_seconds, or the settings set), attached. */
void bench_open(struct bench *b, unsigned expire_seconds);
void bench_open_with(struct bench *b, const struct desk_settings *set);
/* Its leases released, the desk detached and closed. */
void bench_close(struct bench *b);

const char *lease_id(const cJSON *lease);
/* A worker's lease: 1 with its document, else what desk_lease said. */
int ask(struct bench *b, const char *worker, bool trusted, int jobs, cJSON **lease);
const cJSON *lease_games(const cJSON *lease);
const char *game_id(const cJSON *game);
/* A results body (WORKERS.md) of n records and their replays, with a NUL after it. */
char *body_with(bool done, int n, const char *const *records, const char *const *replays);
/* The bytes of a body made here, the NUL after it not counted. */
size_t body_length(const char *body);
/* The frame of a body made here: its replays, in *len bytes. */
const char *body_frame(const char *body, size_t *len);
/* A results body: the games ids (records edited by swap when not NULL: from, to). */
char *body_of(const char *const *ids, int n, bool done, const char *from, const char *to);
/* Every game of lease, sent back. */
char *all_of(const cJSON *lease, bool done);
/* desk_results of worker: its code; *answer the parsed answer on 0. */
int send_results(struct bench *b, const char *worker, const char *lease, const char *body,
		 cJSON **answer);
/* Every game of lease sent back by worker as played, the lease done: each accepted. */
void play_back(struct bench *b, const char *worker, const cJSON *lease);
/* The size of answer's array key. */
int count(const cJSON *answer, const char *key);
/* The why of the first rejected game. */
const char *why0(const cJSON *answer);
/* Does a line of b's workers.jsonl hold text? */
bool journal_has(const struct bench *b, const char *text);

#endif
