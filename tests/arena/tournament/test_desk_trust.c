/*
 * test_desk_trust.c - the host's re-play of an untrusted worker's games
 * (desk.h, WORKERS.md "Trust") with real games: each "worker" plays its
 * games by a real run first (honestly, with a bot swapped for another, or
 * with a bot that plays at random), and the desk's replay callback plays
 * them again here with play_here, as the host does. replay_sample is 1:
 * every game is held and re-played. The desk and its fake run are
 * desk_bench.h's, serving this file's tournaments instead of its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "desk_bench.h"
#include "play_here.h"
#include "replay_find.h"
#include "schedule.h"
#include "tournament.h"

#define GAMES 2           /* one deal, two rotations */
/* A wait for the verifier gives up after this long: far above a game's time. */
#define HANG_GUARD_S 120

/* The games of one run as a worker sends them. */
struct games_of_run {
	int n;
	char id[GAMES][SCHEDULE_ID_MAX];
	char *record[GAMES], *replay[GAMES];
};

static struct games_of_run honest, swapped, randomly;
/* the bench's run serves cfg (desk_bench.h): the host's tournament, or this one */
static struct config random_cfg;

/* The tournament of two bots; the second's name, and what it runs. */
static char *two_bots_text(const char *second, const char *program, const char *arg)
{
	char *text;

	assert_true(asprintf(&text, "{\"name\":\"trust\",\"bots\":["
			     "{\"name\":\"skipbo-easy\",\"command\":[\"" EASY_PATH "\"]},"
			     "{\"name\":\"%s\",\"command\":[\"%s\"%s%s%s]}],"
			     "\"players\":2,\"deals\":1,\"duplicate\":true,"
			     "\"rules\":{\"stock_size\":5},\"sandbox\":\"off\","
			     "\"seed\":11,\"concurrency\":1,\"replays\":\"all\","
			     "\"output\":\"played\"}", second, program, arg ? ",\"" : "",
			     arg ? arg : "", arg ? "\"" : "") > 0);
	return text;
}

static void parse(const char *text, struct config *out)
{
	char err[CONFIG_ERR_MAX];

	if (config_parse(text, strlen(text), top, out, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

static int keep(void *ctx, const struct replay_ref *ref)
{
	struct games_of_run *p = ctx;
	char err[512];
	size_t len;

	assert_true(p->n < GAMES);
	snprintf(p->id[p->n], SCHEDULE_ID_MAX, "%s", ref->id);
	assert_non_null(p->replay[p->n] = replay_ref_read(ref, NULL, &len, err, sizeof(err)));
	p->replay[p->n][strcspn(p->replay[p->n], "\n")] = '\0';
	p->n++;
	return 0;
}

/* t's tournament played into top/name, its records and replays kept in p. */
static void play(struct config *t, const char *name, struct games_of_run *p)
{
	struct tournament_options opt = { .quiet = 1 };
	char err[CONFIG_ERR_MAX], path[128], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, name);
	free(t->output);
	assert_non_null(t->output = strdup(path));
	assert_non_null(opt.progress = fopen("/dev/null", "w"));
	if (tournament_run(t, &opt, err, sizeof(err)) != 0)
		fail_msg("the tournament: %s", err);
	fclose(opt.progress);
	assert_int_equal(replay_each(path, keep, p, err, sizeof(err)), 0);
	assert_int_equal(p->n, GAMES);
	snprintf(path, sizeof(path), "%s/%s/games.jsonl", top, name);
	assert_non_null(f = fopen(path, "r"));
	while (getline(&line, &cap, f) > 0)
		for (int i = 0; i < p->n; i++)
			if (strstr(line, p->id[i])) {
				line[strcspn(line, "\n")] = '\0';
				p->record[i] = strdup(line);
			}
	free(line);
	fclose(f);
	for (int i = 0; i < p->n; i++)
		assert_non_null(p->record[i]);
}

static int play_three(void **state)
{
	struct config worker_cfg;
	char *text;

	(void)state;
	snprintf(top, sizeof(top), "/tmp/test-desk-trust-XXXXXX");
	assert_non_null(mkdtemp(top));
	text = two_bots_text("skipbo-medium", MEDIUM_PATH, NULL);
	parse(text, &cfg);
	free(text);
	/* the worker that swaps a bot: "skipbo-medium" is skipbo-easy there */
	text = two_bots_text("skipbo-medium", EASY_PATH, NULL);
	parse(text, &worker_cfg);
	free(text);
	text = two_bots_text("random", BADBOT_PATH, "random");
	parse(text, &random_cfg);
	free(text);
	play(&cfg, "honest", &honest);
	play(&worker_cfg, "swapped", &swapped);
	play(&random_cfg, "random", &randomly);
	config_release(&worker_cfg);
	assert_int_equal(schedule_new(cfg.nbots, cfg.players, cfg.deals,
				      cfg.duplicate, cfg.seed, &sched), 0);
	return 0;
}

static int remove_three(void **state)
{
	struct games_of_run *all[] = { &honest, &swapped, &randomly };

	for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		for (int i = 0; i < all[k]->n; i++)
			free(all[k]->record[i]), free(all[k]->replay[i]);
	config_release(&random_cfg);
	return remove_all(state);
}

/*
 * The host's re-play: play_here, as cmd_host.c gives it. With gate set, the
 * first call waits (at most HANG_GUARD_S) until the test says a lease was
 * answered meanwhile, and notes whether it was.
 */
struct gate {
	bool on, entered, answered, seen;
	int calls;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static struct gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
/* The host's plays so far (from the verifier thread only). */
static int replays;

static int replay_here(void *ctx, const struct config *run, const struct schedule_game *g,
		       char **doc, size_t *len, char *err, size_t err_size)
{
	(void)ctx;
	pthread_mutex_lock(&gate.lock);
	replays++;
	if (gate.on && !gate.calls++) {
		struct timespec until;

		gate.entered = true;
		pthread_cond_broadcast(&gate.cond);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += HANG_GUARD_S;
		while (!gate.answered &&
		       pthread_cond_timedwait(&gate.cond, &gate.lock, &until) != ETIMEDOUT)
			;
		gate.seen = gate.answered;
	}
	pthread_mutex_unlock(&gate.lock);
	return play_here(run, g, 1, NULL, doc, len, err, err_size);
}

/* Wait (at most HANG_GUARD_S) until the host's first re-play is in the gate. */
static void wait_gate_entered(void)
{
	struct timespec until;

	pthread_mutex_lock(&gate.lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HANG_GUARD_S;
	while (!gate.entered && pthread_cond_timedwait(&gate.cond, &gate.lock, &until) != ETIMEDOUT)
		;
	assert_true(gate.entered);
	pthread_mutex_unlock(&gate.lock);
}

/* A desk whose replay is replay_here, every untrusted worker's game held, on the bench's run of cfg. */
static void open_trusting_none(struct bench *b)
{
	struct desk_settings set = { .lease_seconds = 90, .expire_seconds = 120,
				     .replay_sample = 1.0, .replay = replay_here };

	bench_open_with(b, &set);
}

/* An untrusted worker's lease: its id into id, or desk_lease's code. */
static int ask_untrusted(struct bench *b, const char *worker, char *id, size_t size,
			 cJSON **doc)
{
	cJSON *lease;
	int ret = ask(b, worker, false, 1, &lease);

	if (ret == 1)
		snprintf(id, size, "%s", lease_id(lease));
	if (doc)
		*doc = lease;
	else
		cJSON_Delete(lease);
	return ret;
}

/* p's games sent on lease id (done: the last batch): the answer. */
static cJSON *send(struct bench *b, const char *worker, const char *id,
		   const struct games_of_run *p, bool done)
{
	char *body = body_with(done, p->n, (const char *const *)p->record,
			       (const char *const *)p->replay);
	cJSON *answer;

	assert_int_equal(send_results(b, worker, id, body, &answer), 0);
	free(body);
	return answer;
}

/* worker's key in a document of desk_state's shape (booleans 0 or 1); -1: none. */
static double worker_key(const cJSON *st, const char *worker, const char *key)
{
	const cJSON *w;

	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(st, "workers"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "name")),
			    worker)) {
			const cJSON *o = cJSON_GetObjectItemCaseSensitive(w, key);

			return cJSON_IsBool(o) ? cJSON_IsTrue(o) : cJSON_GetNumberValue(o);
		}
	return -1;
}

/* worker's line of desk_state: key as a number (booleans 0 or 1). */
static double state_of(struct bench *b, const char *worker, const char *key)
{
	cJSON *st = desk_state(b->desk);
	double v = worker_key(st, worker, key);

	cJSON_Delete(st);
	return v;
}

/* Until worker's games were all re-played (or it is suspended), within the hang guard. */
static void wait_verified(struct bench *b, const char *worker, int games)
{
	for (int i = 0; i < HANG_GUARD_S * 20; i++) {
		if (state_of(b, worker, "replayed") >= games || state_of(b, worker, "suspended") > 0)
			return;
		usleep(50 * 1000);
	}
	fail_msg("the verifier never finished with \"%s\"'s games", worker);
}

/* worker's key as another process reads dir's workers.jsonl (desk_read_state: `status`). */
static double read_back(const char *dir, const char *worker, const char *key)
{
	char err[512];
	cJSON *st;
	double v;

	if (desk_read_state(dir, 120, &st, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	v = worker_key(st, worker, key);
	cJSON_Delete(st);
	return v;
}

/* worker's key in a desk opened again on dir (a restart of the host). */
static double reopened(const char *dir, const char *worker, const char *key)
{
	struct desk_settings set = { .lease_seconds = 90, .expire_seconds = 120 };
	struct desk *d;
	char err[512];
	cJSON *st;
	double v;

	if (desk_open(dir, &set, &d, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_non_null(st = desk_state(d));
	v = worker_key(st, worker, key);
	cJSON_Delete(st);
	desk_close(d);
	return v;
}

static bool exists(const char *dir, const char *worker, const char *id, const char *whose)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/workers/evidence/%s-%s-%s.json", dir, worker, id, whose);
	return stat(path, &st) == 0 && st.st_size > 0;
}

static void test_swapped_bot_suspends(void **state)
{
	struct bench b;
	char id[32], other[32];
	cJSON *answer, *lease = NULL, *g;
	int found = 0;

	(void)state;
	open_trusting_none(&b);
	assert_int_equal(ask_untrusted(&b, "cheat", id, sizeof(id), NULL), 1);
	answer = send(&b, "cheat", id, &swapped, false);
	/* checked and legal, so held, not taken */
	assert_int_equal(count(answer, "held"), GAMES);
	assert_int_equal(count(answer, "accepted"), 0);
	cJSON_Delete(answer);
	wait_verified(&b, "cheat", GAMES);
	assert_true(state_of(&b, "cheat", "suspended") > 0);
	assert_true(state_of(&b, "cheat", "mismatches") == 1);
	assert_int_equal(b.run.commits, 0);
	assert_true(exists(b.dir, "cheat", swapped.id[0], "worker"));
	assert_true(exists(b.dir, "cheat", swapped.id[0], "host1"));
	assert_true(exists(b.dir, "cheat", swapped.id[0], "host2"));
	/* leased nothing more; its games go to the next worker that asks */
	assert_int_equal(ask_untrusted(&b, "cheat", other, sizeof(other), NULL), -EPERM);
	assert_int_equal(ask_untrusted(&b, "honest", other, sizeof(other), &lease), 1);
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(lease, "games"))
		for (int i = 0; i < GAMES; i++)
			found += !strcmp(cJSON_GetStringValue(
				cJSON_GetObjectItemCaseSensitive(g, "id")), swapped.id[i]);
	assert_int_equal(found, GAMES);
	cJSON_Delete(lease);
	bench_close(&b);
	/* workers.jsonl keeps the re-play and the mismatch for `status` and a restart */
	assert_true(read_back(b.dir, "cheat", "replayed") == 1);
	assert_true(read_back(b.dir, "cheat", "mismatches") == 1);
	assert_true(reopened(b.dir, "cheat", "replayed") == 1);
	assert_true(reopened(b.dir, "cheat", "mismatches") == 1);
	assert_true(reopened(b.dir, "cheat", "suspended") == 1);
}

static void test_honest_worker_counted(void **state)
{
	struct bench b;
	char id[32];
	cJSON *answer;

	(void)state;
	open_trusting_none(&b);
	replays = 0;
	assert_int_equal(ask_untrusted(&b, "box1", id, sizeof(id), NULL), 1);
	answer = send(&b, "box1", id, &honest, false);
	assert_int_equal(count(answer, "held"), GAMES);
	cJSON_Delete(answer);
	/* a held game is claimed: sent again, it is refused */
	answer = send(&b, "box1", id, &honest, true);
	assert_int_equal(count(answer, "rejected"), GAMES);
	cJSON_Delete(answer);
	wait_verified(&b, "box1", GAMES);
	assert_true(state_of(&b, "box1", "suspended") == 0);
	assert_true(state_of(&b, "box1", "replayed") == GAMES);
	assert_true(state_of(&b, "box1", "mismatches") == 0);
	assert_true(state_of(&b, "box1", "games") == GAMES);
	assert_int_equal(b.run.commits, GAMES);
	/* the same play at the first try (the timings are not compared): no second */
	assert_int_equal(replays, GAMES);
	bench_close(&b);
}

/* A host whose bots would not start: each re-play fails. */
static int replay_fails(void *ctx, const struct config *run, const struct schedule_game *g,
			char **doc, size_t *len, char *err, size_t err_size)
{
	(void)ctx, (void)run, (void)g, (void)doc, (void)len;
	snprintf(err, err_size, "the bot would not start");
	return -ENOEXEC;
}

/* The desk's log lines, kept (from the verifier thread). */
static char said[GAMES * 2][512];
static int nsaid;
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;

static void keep_line(void *ctx, const char *line)
{
	(void)ctx;
	pthread_mutex_lock(&said_lock);
	if (nsaid < GAMES * 2)
		snprintf(said[nsaid++], sizeof(said[0]), "%s", line);
	pthread_mutex_unlock(&said_lock);
}

static void test_failed_replay_said_and_counted(void **state)
{
	struct desk_settings set = { .lease_seconds = 90, .expire_seconds = 120,
				     .replay_sample = 1.0, .replay = replay_fails,
				     .log = keep_line };
	struct bench b;
	char id[32];
	cJSON *answer;
	int i;

	(void)state;
	nsaid = 0;
	bench_open_with(&b, &set);
	assert_int_equal(ask_untrusted(&b, "box7", id, sizeof(id), NULL), 1);
	answer = send(&b, "box7", id, &honest, true);
	assert_int_equal(count(answer, "held"), GAMES);
	cJSON_Delete(answer);
	for (i = 0; i < HANG_GUARD_S * 20 && state_of(&b, "box7", "replay_failures") < GAMES; i++)
		usleep(50 * 1000);
	/* dropped, not taken, not judged: each said once, naming the game and the worker */
	assert_true(state_of(&b, "box7", "replay_failures") == GAMES);
	assert_true(state_of(&b, "box7", "replayed") == 0);
	assert_true(state_of(&b, "box7", "suspended") == 0);
	assert_int_equal(b.run.commits, 0);
	pthread_mutex_lock(&said_lock);
	assert_int_equal(nsaid, GAMES);
	for (i = 0; i < GAMES; i++) {
		assert_non_null(strstr(said[i], "\"box7\""));
		assert_non_null(strstr(said[i], "the bot would not start"));
		assert_true(strstr(said[i], honest.id[0]) || strstr(said[i], honest.id[1]));
	}
	pthread_mutex_unlock(&said_lock);
	bench_close(&b);
	assert_true(read_back(b.dir, "box7", "replay_failures") == GAMES);
	assert_true(reopened(b.dir, "box7", "replay_failures") == GAMES);
}

static void test_random_bot_not_judged(void **state)
{
	struct config host = cfg;
	struct bench b;
	char id[32];
	cJSON *answer;

	(void)state;
	cfg = random_cfg;
	open_trusting_none(&b);
	replays = 0;
	assert_int_equal(ask_untrusted(&b, "box2", id, sizeof(id), NULL), 1);
	answer = send(&b, "box2", id, &randomly, true);
	assert_int_equal(count(answer, "held"), GAMES);
	cJSON_Delete(answer);
	wait_verified(&b, "box2", GAMES);
	/* the host's two plays differ: the worker's games count as sent */
	assert_true(state_of(&b, "box2", "suspended") == 0);
	assert_true(state_of(&b, "box2", "mismatches") == 0);
	assert_int_equal(b.run.commits, GAMES);
	assert_int_equal(replays, 2 * GAMES);
	bench_close(&b);
	cfg = host;
}

static void test_replay_outside_lock(void **state)
{
	struct bench b;
	char id[32], other[32];
	cJSON *answer;

	(void)state;
	gate.on = true;
	open_trusting_none(&b);
	assert_int_equal(ask_untrusted(&b, "box3", id, sizeof(id), NULL), 1);
	answer = send(&b, "box3", id, &honest, true);
	cJSON_Delete(answer);
	wait_gate_entered();
	/* the re-play is running: the desk still answers another worker */
	assert_int_equal(ask_untrusted(&b, "box4", other, sizeof(other), NULL), 0);
	pthread_mutex_lock(&gate.lock);
	gate.answered = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	wait_verified(&b, "box3", GAMES);
	assert_true(gate.seen);
	assert_int_equal(b.run.commits, GAMES);
	gate.on = false;
	bench_close(&b);
}

static void *detach_main(void *arg)
{
	desk_detach(arg);
	return NULL;
}

/* Until desk_lease answers 0 although the run has a group to hand: the desk is detaching. */
static void wait_detaching(struct bench *b)
{
	struct desk_ask a = { "box6", false, SKIPBO_VERSION, 1, 1, NULL, 0 };

	for (int i = 0; i < HANG_GUARD_S * 20; i++) {
		char err[256], *doc = NULL;
		unsigned retry;
		cJSON *lease;

		b->run.again = true;
		if (desk_lease(b->desk, &a, &doc, &retry, err, sizeof(err)) == 0)
			return;
		assert_non_null(lease = cJSON_Parse(doc));
		desk_release(b->desk, "box6", lease_id(lease), "stopping", err, sizeof(err));
		cJSON_Delete(lease);
		free(doc);
		usleep(50 * 1000);
	}
	fail_msg("the desk never began detaching");
}

static void test_unverified_dropped_at_detach(void **state)
{
	struct bench b;
	char id[32];
	cJSON *answer;
	pthread_t detacher;

	(void)state;
	gate = (struct gate){ .on = true, .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	replays = 0;
	open_trusting_none(&b);
	assert_int_equal(ask_untrusted(&b, "box5", id, sizeof(id), NULL), 1);
	answer = send(&b, "box5", id, &honest, true);
	assert_int_equal(count(answer, "held"), GAMES);
	cJSON_Delete(answer);
	wait_gate_entered();
	/* the run ends while the first game is re-played: the second is not */
	assert_int_equal(pthread_create(&detacher, NULL, detach_main, b.desk), 0);
	wait_detaching(&b);
	pthread_mutex_lock(&gate.lock);
	gate.answered = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	pthread_join(detacher, NULL);
	assert_int_equal(replays, 1);
	assert_int_equal(b.run.commits, 1);
	gate.on = false;
	b.nleased = 0;
	bench_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swapped_bot_suspends),
		cmocka_unit_test(test_honest_worker_counted),
		cmocka_unit_test(test_failed_replay_said_and_counted),
		cmocka_unit_test(test_random_bot_not_judged),
		cmocka_unit_test(test_replay_outside_lock),
		cmocka_unit_test(test_unverified_dropped_at_detach),
	};

	return cmocka_run_group_tests(tests, play_three, remove_three);
}
