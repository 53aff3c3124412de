/*
 * test_desk.c - the lease desk (desk.h) with real games (desk_bench.h): a
 * small tournament of badbot is played first, and its records and replays are
 * what the "workers" of these tests send back, as sent or forged. The run the
 * desk serves is a fake that hands out the same schedule's deal groups and
 * counts what it is given; the last test attaches a desk to a real
 * tournament_run that plays nothing itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "desk.h"
#include "desk_bench.h"
#include "referee.h"
#include "replay_find.h"
#include "replay_pack.h"
#include "schedule.h"
#include "tournament.h"

static void test_lease_holds_whole_deals(void **state)
{
	struct bench b;
	cJSON *lease, *tour, *bots, *bot;
	const cJSON *g;
	char *text, err[CONFIG_ERR_MAX], told[REFEREE_OPAQUE_ID_SIZE];
	struct config back;
	int per_deal[64] = { 0 };

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", true, 2, &lease), 1);
	/* one deal group per job at a worker's first lease */
	assert_int_equal(cJSON_GetArraySize(lease_games(lease)), 2 * GROUP);
	cJSON_ArrayForEach(g, lease_games(lease)) {
		const char *seed = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g, "seed"));
		int table = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(g, "table"));
		int deal = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(g, "deal"));

		per_deal[table * 4 + deal]++;
		assert_int_equal(strlen(seed), 16);
		referee_opaque_id(cfg.seed, game_id(g), told);
		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g, "told")),
				    told);
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g, "seats")), 2);
	}
	for (int k = 0; k < 64; k++)
		assert_true(per_deal[k] == 0 || per_deal[k] == GROUP);
	/* the worker rebuilds the tournament from "tournament" and "bots" */
	tour = cJSON_GetObjectItemCaseSensitive(lease, "tournament");
	assert_null(cJSON_GetObjectItemCaseSensitive(tour, "seed"));
	assert_null(cJSON_GetObjectItemCaseSensitive(tour, "output"));
	assert_null(cJSON_GetObjectItemCaseSensitive(tour, "bots"));
	bots = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(lease, "bots"), 1);
	cJSON_ArrayForEach(bot, bots) {
		const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(bot,
											 "bundle"));
		char path[512];

		/* badbot is no system file: its bundle is made, and served */
		assert_non_null(sha);
		assert_int_equal(strlen(sha), 64);
		assert_int_equal(desk_bundle(b.desk, sha, false, path, sizeof(path)), 0);
		assert_int_equal(access(path, R_OK), 0);
		cJSON_DeleteItemFromObjectCaseSensitive(bot, "bundle");
	}
	assert_int_equal(desk_bundle(b.desk, "00", false, err, sizeof(err)), -ENOENT);
	cJSON_AddItemToObject(tour, "bots", bots);
	text = cJSON_PrintUnformatted(tour);
	assert_int_equal(config_parse(text, strlen(text), top, &back, err, sizeof(err)), 0);
	assert_int_equal(back.players, cfg.players);
	assert_int_equal(back.stock_size, cfg.stock_size);
	assert_int_equal(back.move_ms, cfg.move_ms);
	assert_true(back.nbots >= 2 && back.nbots <= cfg.nbots);
	config_release(&back);
	free(text);
	cJSON_Delete(lease);
	bench_close(&b);
}

static void test_results_counted_once(void **state)
{
	struct bench b;
	cJSON *lease, *answer;
	char *body;
	const char *frame;
	size_t flen;

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", false, 1, &lease), 1);
	body = all_of(lease, false);
	assert_int_equal(send_results(&b, "w1", lease_id(lease), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), GROUP);
	assert_int_equal(count(answer, "rejected"), 0);
	assert_int_equal(b.run.commits, GROUP);
	/* every game taken: the worker's frame goes to the pack as it is, not compressed again */
	frame = body_frame(body, &flen);
	assert_ptr_equal(b.run.frame_at, frame);
	assert_int_equal(b.run.frame_len, flen);
	cJSON_Delete(answer);
	/* an old result sent again */
	assert_int_equal(send_results(&b, "w1", lease_id(lease), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 0);
	assert_int_equal(count(answer, "rejected"), GROUP);
	assert_non_null(strstr(why0(answer), "already sent"));
	assert_int_equal(b.run.commits, GROUP);
	cJSON_Delete(answer);
	free(body);
	cJSON_Delete(lease);
	bench_close(&b);
}

/* A body of the records of ids (n) and a frame of the replays of rids (m), then tail. */
static char *body_mixed(const char *const *ids, int n, const char *const *rids, int m,
			const char *tail, size_t *len)
{
	char *text = NULL, *docs = NULL, *frame = NULL;
	size_t tlen = 0, dlen = 0, flen = 0;
	FILE *t = open_memstream(&text, &tlen), *d = open_memstream(&docs, &dlen);

	for (int i = 0; i < m; i++)
		fprintf(d, "%s\n", played_game(rids[i])->replay);
	fclose(d);
	assert_int_equal(replay_pack_frame(docs, dlen, &frame, &flen), 0);
	fprintf(t, "{\"done\":false,\"games\":%d,\"replays\":%zu}\n", n, flen);
	for (int i = 0; i < n; i++)
		fprintf(t, "%s\n", played_game(ids[i])->record);
	fwrite(frame, 1, flen, t);
	fputs(tail, t);
	fclose(t);
	free(docs);
	free(frame);
	*len = tlen;
	return text;
}

static void test_bodies_refused(void **state)
{
	static const char *const no_frame = "{\"done\":false,\"games\":1}\n{}\n{}\n";
	struct bench b;
	cJSON *lease;
	const char *ids[GROUP];
	char err[256], *body, *text = NULL;
	size_t len;
	int n = 0;
	const cJSON *g;

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", false, 1, &lease), 1);
	cJSON_ArrayForEach(g, lease_games(lease))
		ids[n++] = game_id(g);
	/* the head must say the frame's size */
	assert_int_equal(desk_results(b.desk, "w1", lease_id(lease), no_frame, strlen(no_frame),
				      &text, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "\"replays\": BYTES"));
	/* a replay fewer than the records */
	body = body_mixed(ids, GROUP, ids, GROUP - 1, "", &len);
	assert_int_equal(desk_results(b.desk, "w1", lease_id(lease), body, len, &text, err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "fewer lines than the 2 records"));
	free(body);
	/* bytes after the frame */
	body = body_mixed(ids, GROUP, ids, GROUP, "{}\n", &len);
	assert_int_equal(desk_results(b.desk, "w1", lease_id(lease), body, len, &text, err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bytes after them"));
	free(body);
	/* not a frame */
	body = strdup("{\"done\":false,\"games\":1,\"replays\":4}\n{}\nzstd");
	assert_int_equal(desk_results(b.desk, "w1", lease_id(lease), body, strlen(body), &text,
				      err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not one zstd frame"));
	free(body);
	assert_null(text);
	assert_int_equal(b.run.commits, 0);
	/* the same games whole: taken */
	body = body_mixed(ids, GROUP, ids, GROUP, "", &len);
	assert_int_equal(desk_results(b.desk, "w1", lease_id(lease), body, len, &text, err,
				      sizeof(err)), 0);
	assert_int_equal(b.run.commits, GROUP);
	free(text);
	free(body);
	cJSON_Delete(lease);
	bench_close(&b);
}

/* The body of game id with its record's placings swapped: the other seat won. */
static char *swapped_placings(const char *id)
{
	static const char first[] = "\"placings\":[1,2]", second[] = "\"placings\":[2,1]";
	bool won = strstr(played_game(id)->record, first) != NULL;

	assert_true(won || strstr(played_game(id)->record, second));
	return body_of(&id, 1, false, won ? first : second, won ? second : first);
}

static void test_forgeries_rejected(void **state)
{
	struct bench b;
	cJSON *l1, *l2, *answer;
	const char *id1, *other;
	char *body, err[256], *text;

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", false, 1, &l1), 1);
	assert_int_equal(ask(&b, "w2", false, 1, &l2), 1);
	id1 = game_id(cJSON_GetArrayItem(lease_games(l1), 0));
	other = game_id(cJSON_GetArrayItem(lease_games(l2), 0));
	/* a forged winner: the placings swapped in the record */
	body = swapped_placings(id1);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 0);
	assert_non_null(strstr(why0(answer), "placings"));
	free(body);
	cJSON_Delete(answer);
	/* a game of another worker's lease */
	body = body_of(&other, 1, false, NULL, NULL);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 0);
	assert_non_null(strstr(why0(answer), "no game of lease"));
	cJSON_Delete(answer);
	/* that lease is not this worker's */
	assert_int_equal(desk_results(b.desk, "w1", lease_id(l2), body, body_length(body), &text, err,
				      sizeof(err)), -ENOENT);
	free(body);
	/* an invented game: a played game no lease holds, its id changed */
	{
		const char *ids[1];
		char *rec;
		const struct played *p;

		for (int i = 0; i < nplayed; i++) {
			bool leased = false;
			const cJSON *g;

			cJSON_ArrayForEach(g, lease_games(l1))
				leased |= strcmp(game_id(g), played[i].id) == 0;
			cJSON_ArrayForEach(g, lease_games(l2))
				leased |= strcmp(game_id(g), played[i].id) == 0;
			if (!leased)
				ids[0] = played[i].id;
		}
		p = played_game(ids[0]);
		rec = strdup(p->record);
		body = body_of(ids, 1, false, NULL, NULL);
		assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), 0);
		assert_int_equal(count(answer, "accepted"), 0);
		assert_non_null(strstr(why0(answer), "no game of lease"));
		cJSON_Delete(answer);
		free(body);
		free(rec);
	}
	/* the same game as it was played: taken */
	body = body_of(&id1, 1, false, NULL, NULL);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 1);
	assert_int_equal(b.run.commits, 1);
	cJSON_Delete(answer);
	free(body);
	cJSON_Delete(l1);
	cJSON_Delete(l2);
	bench_close(&b);
}

static void test_game_of_another_seed_rejected(void **state)
{
	struct bench b;
	cJSON *lease, *answer;
	const char *id;
	char *body;
	const struct played *p;
	char seed[40], other[40];

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", true, 1, &lease), 1);
	id = game_id(cJSON_GetArrayItem(lease_games(lease), 0));
	p = played_game(id);
	/* the record's seed changed in its first digit */
	snprintf(seed, sizeof(seed), "\"seed\":%.1s", strstr(p->record, "\"seed\":") + 7);
	snprintf(other, sizeof(other), "\"seed\":%c", seed[7] == '1' ? '2' : '1');
	body = body_of(&id, 1, false, seed, other);
	assert_int_equal(send_results(&b, "w1", lease_id(lease), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 0);
	assert_non_null(strstr(why0(answer), "seed"));
	cJSON_Delete(answer);
	free(body);
	cJSON_Delete(lease);
	bench_close(&b);
}

static void test_duplicate_compared(void **state)
{
	struct bench b;
	cJSON *l1, *l2, *l3, *answer;
	const char *id;
	char *body;

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", true, 1, &l1), 1);
	id = game_id(cJSON_GetArrayItem(lease_games(l1), 0));
	body = body_of(&id, 1, false, NULL, NULL);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 1);
	cJSON_Delete(answer);
	/* the same deal leased again: the same result is dropped */
	b.run.again = true;
	assert_int_equal(ask(&b, "w2", true, 1, &l2), 1);
	assert_string_equal(game_id(cJSON_GetArrayItem(lease_games(l2), 0)), id);
	assert_int_equal(send_results(&b, "w2", lease_id(l2), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 0);
	assert_non_null(strstr(why0(answer), "same result"));
	assert_false(journal_has(&b, "\"conflict\""));
	cJSON_Delete(answer);
	free(body);
	/* another result for it (a trusted worker, not re-played) is a conflict */
	b.run.again = true;
	assert_int_equal(ask(&b, "w3", true, 1, &l3), 1);
	body = swapped_placings(id);
	assert_int_equal(send_results(&b, "w3", lease_id(l3), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), 0);
	assert_non_null(strstr(why0(answer), "conflict"));
	assert_true(journal_has(&b, "\"conflict\""));
	assert_int_equal(b.run.commits, 1);
	cJSON_Delete(answer);
	free(body);
	cJSON_Delete(l1);
	cJSON_Delete(l2);
	cJSON_Delete(l3);
	bench_close(&b);
}

/* The ids and seeds of a lease's games, in order, as one string. */
static void games_of(const cJSON *lease, char *out, size_t size)
{
	const cJSON *g;
	size_t len = 0;

	out[0] = '\0';
	cJSON_ArrayForEach(g, lease_games(lease)) {
		len += (size_t)snprintf(out + len, size - len, "%s %s ", game_id(g),
					cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g,
											"seed")));
		assert_true(len < size);
	}
}

static void test_expiry_rehands(void **state)
{
	struct bench b;
	cJSON *l1, *l2, *answer, *st;
	char first[512], again[512], *body;

	(void)state;
	bench_open(&b, 1);
	assert_int_equal(ask(&b, "w1", false, 1, &l1), 1);
	sleep(2);
	st = desk_state(b.desk);
	assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st,
									      "leased_games")), 0);
	cJSON_Delete(st);
	assert_int_equal(ask(&b, "w2", false, 1, &l2), 1);
	games_of(l1, first, sizeof(first));
	games_of(l2, again, sizeof(again));
	assert_string_equal(first, again);
	body = all_of(l1, false);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), -ESTALE);
	assert_int_equal(send_results(&b, "w2", lease_id(l2), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), GROUP);
	assert_true(journal_has(&b, "\"expired\""));
	cJSON_Delete(answer);
	free(body);
	cJSON_Delete(l1);
	cJSON_Delete(l2);
	bench_close(&b);
}

static void test_three_failures_park(void **state)
{
	struct bench b;
	cJSON *lease, *st, *parked;
	char first[512], now[512];

	(void)state;
	bench_open(&b, 1);
	for (int k = 0; k < DESK_FAILURES_PARK; k++) {
		assert_int_equal(ask(&b, "w1", false, 1, &lease), 1);
		games_of(lease, now, sizeof(now));
		if (k == 0)
			strcpy(first, now);
		assert_string_equal(now, first);
		cJSON_Delete(lease);
		sleep(2);
	}
	st = desk_state(b.desk);
	parked = cJSON_GetObjectItemCaseSensitive(st, "parked");
	assert_int_equal(cJSON_GetArraySize(parked), 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
				 cJSON_GetArrayItem(parked, 0), "reasons")), DESK_FAILURES_PARK);
	cJSON_Delete(st);
	/* never leased again: the next lease is another deal */
	assert_int_equal(ask(&b, "w1", false, 1, &lease), 1);
	games_of(lease, now, sizeof(now));
	assert_string_not_equal(now, first);
	assert_true(journal_has(&b, "\"parked\""));
	cJSON_Delete(lease);
	bench_close(&b);
}

static void test_release_rehands(void **state)
{
	struct bench b;
	cJSON *l1, *l2, *l3, *st;
	char first[512], again[512], err[256];

	(void)state;
	bench_open(&b, 60);
	/* stopping, many times: handed again at once, never a failure */
	for (int k = 0; k < DESK_FAILURES_PARK + 1; k++) {
		assert_int_equal(ask(&b, "w1", false, 1, &l1), 1);
		games_of(l1, again, sizeof(again));
		if (k == 0)
			strcpy(first, again);
		assert_string_equal(again, first);
		assert_int_equal(desk_release(b.desk, "w1", lease_id(l1), "stopping", err,
					      sizeof(err)), 0);
		cJSON_Delete(l1);
	}
	st = desk_state(b.desk);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(st, "parked")), 0);
	cJSON_Delete(st);
	/* a worker that lacks what these bots need is leased no deal seating them */
	assert_int_equal(ask(&b, "w1", false, 1, &l1), 1);
	assert_int_equal(desk_release(b.desk, "w1", lease_id(l1), "lacks /usr/bin/java", err,
				      sizeof(err)), 0);
	/* with three bots two at a table, every deal seats one of them */
	assert_int_equal(ask(&b, "w1", false, 4, &l2), 0);
	/* and another worker gets that deal */
	assert_int_equal(ask(&b, "w2", false, 1, &l3), 1);
	games_of(l1, first, sizeof(first));
	games_of(l3, again, sizeof(again));
	assert_string_equal(first, again);
	assert_int_equal(desk_release(b.desk, "w3", lease_id(l3), "stopping", err, sizeof(err)),
			 -ENOENT);
	cJSON_Delete(l1);
	cJSON_Delete(l3);
	bench_close(&b);
}

static void test_detach_voids(void **state)
{
	struct bench b;
	cJSON *l1, *l2, *answer;
	char *body;
	time_t began;

	(void)state;
	bench_open(&b, 1);
	assert_int_equal(ask(&b, "w1", false, 1, &l1), 1);
	assert_int_equal(ask(&b, "w2", false, 1, &l2), 1);
	body = all_of(l1, true);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), GROUP);
	cJSON_Delete(answer);
	free(body);
	/* l2 is heard from no more: the detach waits for its expiry, not for ever */
	began = time(NULL);
	desk_detach(b.desk);
	assert_true(time(NULL) - began < 30);
	body = all_of(l2, false);
	assert_int_equal(send_results(&b, "w2", lease_id(l2), body, &answer), -ESTALE);
	free(body);
	body = all_of(l1, false);
	assert_int_equal(send_results(&b, "w1", lease_id(l1), body, &answer), -ESTALE);
	free(body);
	/* detached: nothing to lease */
	cJSON_Delete(l1);
	assert_int_equal(ask(&b, "w1", false, 1, &l1), 0);
	cJSON_Delete(l2);
	bench_close(&b);
}

static void test_suspension_read_back(void **state)
{
	struct bench b;
	struct desk_ask a = { "w1", false, SKIPBO_VERSION, 2, 1, NULL, 0 };
	cJSON *lease, *st;
	char err[256], *doc;
	unsigned retry;

	(void)state;
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", false, 1, &lease), 1);
	play_back(&b, "w1", lease);
	cJSON_Delete(lease);
	assert_int_equal(desk_suspend(b.desk, "w1", "forged replays", err, sizeof(err)), 0);
	bench_close(&b);
	assert_int_equal(desk_open(b.dir, &b.set, &b.desk, err, sizeof(err)), 0);
	assert_int_equal(desk_lease(b.desk, &a, &doc, &retry, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "forged replays"));
	st = desk_state(b.desk);
	{
		const cJSON *w = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(st, "workers"),
						    0);

		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "name")),
				    "w1");
		assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "suspended")));
		assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(w, "games")),
				 GROUP);
	}
	cJSON_Delete(st);
	/* another version is refused, naming both */
	a.worker = "w2";
	a.version = "0.0.1";
	assert_int_equal(desk_lease(b.desk, &a, &doc, &retry, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "0.0.1"));
	assert_non_null(strstr(err, SKIPBO_VERSION));
	desk_close(b.desk);
	pthread_mutex_destroy(&b.run.lock);
}

/* A source of the schedule's first two deal groups, for a desk only. */
struct desk_source {
	uint64_t next_group;
	int counted;
};

static int none_recorded(void *ctx, const struct results_record *rec, struct schedule_game *g)
{
	(void)ctx, (void)rec, (void)g;
	return 0;
}

static int none_next(void *ctx, struct schedule_game *g)
{
	(void)ctx, (void)g;
	return 0;
}

static void desk_counted(void *ctx, const struct committed_game *g)
{
	struct desk_source *s = ctx;

	(void)g;
	s->counted++;
}

static int two_groups(void *ctx, struct schedule_game *games, int max)
{
	struct desk_source *s = ctx;
	int n = 0;

	while (n + GROUP <= max && s->next_group < 2) {
		for (uint32_t k = 0; k < GROUP; k++)
			assert_int_equal(schedule_game(sched, schedule_group_index(sched, s->next_group,
										    k), &games[n++]), 0);
		s->next_group++;
	}
	return n;
}

struct run_thread {
	struct config cfg;
	struct tournament_options opt;
	int ret;
	char err[512];
};

static void *run_main(void *arg)
{
	struct run_thread *t = arg;

	t->ret = tournament_run(&t->cfg, &t->opt, t->err, sizeof(t->err));
	return NULL;
}

static int count_replays(void *ctx, const struct replay_ref *ref)
{
	char err[512], *doc;
	size_t len;

	assert_non_null(doc = replay_ref_read(ref, NULL, &len, err, sizeof(err)));
	doc[strcspn(doc, "\n")] = '\0';
	/* the worker's replay, now in the run's own pack */
	assert_string_equal(doc, played_game(ref->id)->replay);
	free(doc);
	(*(int *)ctx)++;
	return 0;
}

/* The games answer accepted that dir's games.jsonl holds now. */
static int accepted_on_disk(const char *dir, const cJSON *answer)
{
	char path[256], *line = NULL;
	const cJSON *id;
	size_t cap = 0;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (getline(&line, &cap, f) > 0)
		cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(answer, "accepted"))
			n += strstr(line, id->valuestring) != NULL;
	free(line);
	fclose(f);
	return n;
}

/*
 * A real run with a desk and no workers of its own: the games sent back are
 * in its games.jsonl when the answer says they are accepted, with their
 * replays in its packs, and counted by its source; once the source has no
 * more, the run detaches and ends.
 */
static void test_run_with_desk(void **state)
{
	struct desk_source src = { 0 };
	struct tournament_source ts = { .recorded = none_recorded, .next = none_next,
					.counted = desk_counted, .next_groups = two_groups,
					.ctx = &src };
	struct run_thread t = { .opt = { .quiet = 1, .source = &ts } };
	struct desk_ask a = { "w1", false, SKIPBO_VERSION, 2, 1, NULL, 0 };
	struct bench b = { 0 };
	pthread_t thread;
	char err[CONFIG_ERR_MAX], *doc, *body;
	unsigned retry;
	int leases = 0, replays = 0;
	(void)state;

	snprintf(b.dir, sizeof(b.dir), "%s/run-XXXXXX", top);
	assert_non_null(mkdtemp(b.dir));
	b.set = (struct desk_settings){ 90, 60, 0.0 };
	assert_int_equal(desk_open(b.dir, &b.set, &b.desk, err, sizeof(err)), 0);
	assert_int_equal(config_parse(tournament_text, strlen(tournament_text), top, &t.cfg, err,
				      sizeof(err)), 0);
	free(t.cfg.output);
	assert_non_null(t.cfg.output = strdup(b.dir));
	t.cfg.concurrency = 0;
	t.opt.desk = b.desk;
	assert_non_null(t.opt.progress = fopen("/dev/null", "w"));
	assert_int_equal(pthread_create(&thread, NULL, run_main, &t), 0);
	/* the worker: a lease while there is one (hang guard far above a run's start) */
	for (int tries = 0; tries < 6000 && leases < 3; tries++) {
		int ret = desk_lease(b.desk, &a, &doc, &retry, err, sizeof(err));
		cJSON *lease, *answer;

		assert_true(ret >= 0);
		if (ret == 0) {
			/* not attached yet, or the source has no more: then the run ends */
			if (leases == 2)
				break;
			usleep(10000);
			continue;
		}
		leases++;
		assert_non_null(lease = cJSON_Parse(doc));
		free(doc);
		body = all_of(lease, true);
		assert_int_equal(send_results(&b, "w1", lease_id(lease), body, &answer), 0);
		assert_int_equal(count(answer, "accepted"), GROUP);
		assert_int_equal(accepted_on_disk(b.dir, answer), GROUP);
		cJSON_Delete(answer);
		cJSON_Delete(lease);
		free(body);
	}
	assert_int_equal(leases, 2);
	assert_int_equal(pthread_join(thread, NULL), 0);
	if (t.ret != 0)
		fail_msg("the run: %d %s", t.ret, t.err);
	assert_int_equal(src.counted, 2 * GROUP);
	assert_int_equal(replay_each(b.dir, count_replays, &replays, err, sizeof(err)), 0);
	assert_int_equal(replays, 2 * GROUP);
	fclose(t.opt.progress);
	config_release(&t.cfg);
	desk_close(b.desk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lease_holds_whole_deals),
		cmocka_unit_test(test_results_counted_once),
		cmocka_unit_test(test_bodies_refused),
		cmocka_unit_test(test_forgeries_rejected),
		cmocka_unit_test(test_game_of_another_seed_rejected),
		cmocka_unit_test(test_duplicate_compared),
		cmocka_unit_test(test_expiry_rehands),
		cmocka_unit_test(test_three_failures_park),
		cmocka_unit_test(test_release_rehands),
		cmocka_unit_test(test_detach_voids),
		cmocka_unit_test(test_suspension_read_back),
		cmocka_unit_test(test_run_with_desk),
	};

	return cmocka_run_group_tests(tests, play_first, remove_all);
}
