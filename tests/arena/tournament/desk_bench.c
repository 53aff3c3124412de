/*
 * desk_bench.c - what the lease desk's tests share (desk_bench.h): the games
 * a small tournament of badbot played, a fake run, a desk on it, and the
 * requests of the "workers" that send those games back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "desk_bench.h"
#include "replay_find.h"
#include "replay_pack.h"
#include "tournament.h"

char top[64];
struct config cfg;
struct schedule *sched;
struct played played[PLAYED_MAX];
int nplayed;

const char tournament_text[] =
	"{\"name\":\"desk\",\"bots\":["
	"{\"name\":\"a\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"b\",\"command\":[\"" BADBOT_PATH "\",\"good\"]},"
	"{\"name\":\"c\",\"command\":[\"" BADBOT_PATH "\",\"good\"]}],"
	"\"players\":2,\"deals\":2,\"duplicate\":true,\"rules\":{\"stock_size\":4},"
	"\"seed\":7,\"concurrency\":1,\"replays\":\"all\",\"output\":\"played\"}";

static int keep_played(void *ctx, const struct replay_ref *ref)
{
	struct played *p = &played[nplayed++];
	char err[512], path[256], *line = NULL;
	size_t len, cap = 0;
	FILE *f;

	(void)ctx;
	snprintf(p->id, sizeof(p->id), "%s", ref->id);
	assert_non_null(p->replay = replay_ref_read(ref, NULL, &len, err, sizeof(err)));
	/* the record: its line of games.jsonl, as the worker's run wrote it */
	snprintf(path, sizeof(path), "%s/played/games.jsonl", top);
	assert_non_null(f = fopen(path, "r"));
	while (getline(&line, &cap, f) > 0)
		if (strstr(line, ref->id)) {
			line[strcspn(line, "\n")] = '\0';
			p->record = strdup(line);
		}
	free(line);
	fclose(f);
	assert_non_null(p->record);
	/* a replay document is one line */
	p->replay[strcspn(p->replay, "\n")] = '\0';
	return 0;
}

int play_first(void **state)
{
	struct tournament_options opt = { .quiet = 1 };
	char err[CONFIG_ERR_MAX], path[128];

	(void)state;
	snprintf(top, sizeof(top), "/tmp/test-desk-XXXXXX");
	assert_non_null(mkdtemp(top));
	assert_int_equal(config_parse(tournament_text, strlen(tournament_text), top, &cfg, err,
				      sizeof(err)), 0);
	/* the played games in the test's directory, wherever it runs */
	free(cfg.output);
	assert_non_null(cfg.output = malloc(strlen(top) + 8));
	sprintf(cfg.output, "%s/played", top);
	assert_non_null(opt.progress = fopen("/dev/null", "w"));
	if (tournament_run(&cfg, &opt, err, sizeof(err)) != 0)
		fail_msg("the tournament: %s", err);
	fclose(opt.progress);
	snprintf(path, sizeof(path), "%s/played", top);
	assert_int_equal(replay_each(path, keep_played, NULL, err, sizeof(err)), 0);
	assert_int_equal(nplayed, 12); /* 3 tables, 2 deals, 2 rotations */
	assert_int_equal(schedule_new(cfg.nbots, cfg.players, cfg.deals, cfg.duplicate, cfg.seed,
				      &sched), 0);
	return 0;
}

int remove_all(void **state)
{
	char cmd[128];

	(void)state;
	for (int i = 0; i < nplayed; i++)
		free(played[i].record), free(played[i].replay);
	schedule_free(sched);
	config_release(&cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
	return 0;
}

const struct played *played_game(const char *id)
{
	for (int i = 0; i < nplayed; i++)
		if (strcmp(played[i].id, id) == 0)
			return &played[i];
	fail_msg("no game %s played", id);
	return NULL;
}

static int fake_take(void *run, struct schedule_game *games, int max)
{
	struct fake_run *f = run;
	int n = 0;

	pthread_mutex_lock(&f->lock);
	while (n + GROUP <= max && (f->again || f->next_group < f->groups)) {
		uint64_t p = f->again ? 0 : f->next_group++;

		f->again = false;
		for (uint32_t k = 0; k < GROUP; k++)
			assert_int_equal(schedule_game(sched, schedule_group_index(sched, p, k),
						       &games[n++]), 0);
	}
	pthread_mutex_unlock(&f->lock);
	return n;
}

static int fake_commit(void *run, const struct desk_commit *games, int n, const char *frame,
		       size_t frame_len)
{
	struct fake_run *f = run;
	char *docs, *line;
	size_t dlen;

	/* the frame holds the games' replays, in order */
	assert_int_equal(replay_pack_frame_read(frame, frame_len, 1 << 24, &docs, &dlen), 0);
	line = docs;
	pthread_mutex_lock(&f->lock);
	for (int k = 0; k < n; k++) {
		char id[SCHEDULE_ID_MAX];

		assert_int_equal(replay_document_id(line, strcspn(line, "\n"), id, sizeof(id)), 0);
		assert_string_equal(id, games[k].cg.game.id);
		assert_non_null(strstr(games[k].record, games[k].cg.game.id));
		snprintf(f->committed[f->commits++], SCHEDULE_ID_MAX, "%s", games[k].cg.game.id);
		line = strchr(line, '\n') + 1;
	}
	f->frame_at = frame;
	f->frame_len = frame_len;
	pthread_mutex_unlock(&f->lock);
	assert_int_equal((size_t)(line - docs), dlen);
	free(docs);
	return 0;
}

void bench_open(struct bench *b, unsigned expire_seconds)
{
	struct desk_settings set = { 90, expire_seconds, 0.0, NULL, NULL };

	bench_open_with(b, &set);
}

void bench_open_with(struct bench *b, const struct desk_settings *set)
{
	struct desk_run_ops ops = { &cfg, fake_take, fake_commit, NULL, &b->run };
	char err[256];

	memset(b, 0, sizeof(*b));
	snprintf(b->dir, sizeof(b->dir), "%s/desk-XXXXXX", top);
	assert_non_null(mkdtemp(b->dir));
	b->set = *set;
	assert_int_equal(desk_open(b->dir, &b->set, &b->desk, err, sizeof(err)), 0);
	pthread_mutex_init(&b->run.lock, NULL);
	b->run.groups = schedule_count(sched) / GROUP;
	ops.run = &b->run;
	desk_attach(b->desk, &ops);
}

void bench_close(struct bench *b)
{
	char err[256];

	/* the leases a test leaves live end now: the detach need not wait for their expiry */
	for (int i = 0; i < b->nleased; i++)
		desk_release(b->desk, b->leased[i][0], b->leased[i][1], "stopping", err, sizeof(err));
	desk_detach(b->desk);
	desk_close(b->desk);
	pthread_mutex_destroy(&b->run.lock);
}

const char *lease_id(const cJSON *lease)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(lease, "lease"));
}

int ask(struct bench *b, const char *worker, bool trusted, int jobs, cJSON **lease)
{
	struct desk_ask a = { worker, trusted, SKIPBO_VERSION, 2, jobs, NULL, 0 };
	char err[256], *doc = NULL;
	unsigned retry = 0;
	int ret = desk_lease(b->desk, &a, &doc, &retry, err, sizeof(err));

	*lease = NULL;
	if (ret == 1) {
		assert_non_null(*lease = cJSON_Parse(doc));
		assert_true(b->nleased < 16);
		snprintf(b->leased[b->nleased][0], 32, "%s", worker);
		snprintf(b->leased[b->nleased++][1], 32, "%s", lease_id(*lease));
	}
	else if (ret == 0)
		assert_true(retry > 0);
	free(doc);
	return ret;
}

const cJSON *lease_games(const cJSON *lease)
{
	return cJSON_GetObjectItemCaseSensitive(lease, "games");
}

const char *game_id(const cJSON *game)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(game, "id"));
}

char *body_with(bool done, int n, const char *const *records, const char *const *replays)
{
	char *text = NULL, *docs = NULL, *frame = NULL;
	size_t tlen = 0, dlen = 0, flen = 0;
	FILE *t = open_memstream(&text, &tlen), *d = open_memstream(&docs, &dlen);

	for (int i = 0; i < n; i++)
		fprintf(d, "%s\n", replays[i]);
	fclose(d);
	if (n)
		assert_int_equal(replay_pack_frame(docs, dlen, &frame, &flen), 0);
	fprintf(t, "{\"done\":%s,\"games\":%d,\"replays\":%zu}\n", done ? "true" : "false", n,
		flen);
	for (int i = 0; i < n; i++)
		fprintf(t, "%s\n", records[i]);
	fwrite(frame ? frame : "", 1, flen, t);
	/* a NUL after it, for the tests that read the records as a string */
	fputc('\0', t);
	fclose(t);
	free(docs);
	free(frame);
	return text;
}

size_t body_length(const char *body)
{
	const char *at = strchr(body, '\n') + 1;
	cJSON *head = cJSON_ParseWithLength(body, (size_t)(at - body));
	int n = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(head, "games"));
	size_t frame = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(head,
										      "replays"));

	cJSON_Delete(head);
	for (int i = 0; i < n; i++)
		at = strchr(at, '\n') + 1;
	return (size_t)(at - body) + frame;
}

const char *body_frame(const char *body, size_t *len)
{
	cJSON *head = cJSON_ParseWithLength(body, strcspn(body, "\n"));

	*len = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(head, "replays"));
	cJSON_Delete(head);
	return body + body_length(body) - *len;
}

char *body_of(const char *const *ids, int n, bool done, const char *from, const char *to)
{
	char *records[PLAYED_MAX], *body;
	const char *replays[PLAYED_MAX];

	assert_true(n <= PLAYED_MAX);
	for (int i = 0; i < n; i++) {
		const struct played *p = played_game(ids[i]);
		char *at;

		records[i] = strdup(p->record);
		replays[i] = p->replay;
		if (from && (at = strstr(records[i], from))) {
			assert_int_equal(strlen(from), strlen(to));
			memcpy(at, to, strlen(to));
		}
	}
	body = body_with(done, n, (const char *const *)records, replays);
	for (int i = 0; i < n; i++)
		free(records[i]);
	return body;
}

int send_results(struct bench *b, const char *worker, const char *lease, const char *body,
		cJSON **answer)
{
	char err[256], *text = NULL;
	int ret = desk_results(b->desk, worker, lease, body, body_length(body), &text, err,
			       sizeof(err));

	*answer = NULL;
	if (ret == 0)
		assert_non_null(*answer = cJSON_Parse(text));
	free(text);
	return ret;
}

void play_back(struct bench *b, const char *worker, const cJSON *lease)
{
	char *body = all_of(lease, true);
	cJSON *answer;

	assert_int_equal(send_results(b, worker, lease_id(lease), body, &answer), 0);
	assert_int_equal(count(answer, "accepted"), cJSON_GetArraySize(lease_games(lease)));
	cJSON_Delete(answer);
	free(body);
}

int count(const cJSON *answer, const char *key)
{
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(answer, key));
}

const char *why0(const cJSON *answer)
{
	const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(answer, "rejected"),
					    0);

	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "why"));
}

char *all_of(const cJSON *lease, bool done)
{
	const char *ids[PLAYED_MAX];
	const cJSON *g;
	int n = 0;

	cJSON_ArrayForEach(g, lease_games(lease))
		ids[n++] = game_id(g);
	return body_of(ids, n, done, NULL, NULL);
}

bool journal_has(const struct bench *b, const char *text)
{
	char path[256], line[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", b->dir, DESK_FILE);
	if (!(f = fopen(path, "r")))
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, text) != NULL;
	fclose(f);
	return found;
}
