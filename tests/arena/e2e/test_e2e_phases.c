/*
 * test_e2e_phases.c - the barrier between rotation phases (schedule.h,
 * tournament.h), checked from outside: in a duplicate tournament at -j 2
 * with fresh processes, every bot process (badbot lifetime) writes when its
 * main began, when its game ended and that it is still alive after, each
 * with the game id it was told, on CLOCK_MONOTONIC, which every sandbox
 * shares. The test maps each told id back to the real one
 * (referee_opaque_id of the recorded seed), finds its phase
 * (schedule_phase), and checks that no process of a phase began before
 * every process of the phase before had written its last line. It also
 * checks that processes of one phase did live at the same time (the start
 * ahead and -j 2 at work), so that the check has something to catch. A bot
 * that never got a request (its opponent won in one turn) may be stopped
 * before the arena read its lines: most games, not all, show both seats.
 *
 * Sandboxed, the processes come from hosts (sandbox.h), whose games share
 * the host's network namespace, /tmp and /dev/shm: each process also writes
 * its network namespace (its cookie), and no namespace may serve games of two phases
 * (the hosts are stopped at the barrier), while some serve several games
 * of one (the hosts at work).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "referee.h"
#include "schedule.h"

#define WALL_LIMIT_MS 90000
#define BOTS 3
#define DEALS 50 /* 3 tables x 50 deals = 150 deal groups: two blocks, four phases */
#define GAMES (3 * DEALS * 2)

/* What the processes of one game wrote: the earliest start, the latest line. */
struct game_life {
	char told[REFEREE_OPAQUE_ID_SIZE];
	uint64_t phase;
	long long first_start, last_seen;
	int processes;
	char net[2][40];          /* the network namespaces its processes saw */
};

static struct game_life games[GAMES];
static size_t ngames;

static struct game_life *by_told(const char *told)
{
	for (size_t i = 0; i < ngames; i++)
		if (strcmp(games[i].told, told) == 0)
			return &games[i];
	return NULL;
}

/* The recorded seed, and each record's told id and phase. */
static void map_games(const char *out)
{
	char path[400];
	cJSON *root, **recs;
	struct schedule *s;
	uint64_t seed, index;
	size_t n;

	snprintf(path, sizeof(path), "%s/tournament.json", out);
	assert_non_null(root = e2e_read_json(path));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(root, "seed")));
	seed = strtoull(cJSON_GetObjectItem(root, "seed")->valuestring, NULL, 10);
	cJSON_Delete(root);
	assert_int_equal(schedule_new(BOTS, 2, DEALS, 1, seed, &s), 0);
	n = e2e_records(out, &recs);
	assert_int_equal(n, GAMES);
	for (size_t i = 0; i < n; i++) {
		const char *id = cJSON_GetObjectItem(recs[i], "id")->valuestring;
		struct game_life *g = &games[ngames++];

		referee_opaque_id(seed, id, g->told);
		assert_int_equal(schedule_index_of(s, id, &index), 0);
		g->phase = schedule_phase(s, index);
		g->first_start = INT64_MAX;
		g->last_seen = 0;
	}
	e2e_free_records(recs, n);
	schedule_free(s);
}

/* Every "lifetime" line of a bot's log, into its game. */
static void read_log(const char *out, const char *bot)
{
	char path[400], *log, *line, *save = NULL;

	snprintf(path, sizeof(path), "%s/logs/%s.stderr", out, bot);
	assert_non_null(log = e2e_read(path, NULL));
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *at = strstr(line, "lifetime ");
		char what[16], told[64], net[40] = "";
		long long t;
		struct game_life *g;

		if (!at || sscanf(at, "lifetime %15s %63s %lld %39s", what, told, &t, net) < 3)
			continue;
		assert_non_null(g = by_told(told));
		if (strcmp(what, "start") == 0) {
			if (g->processes < 2)
				snprintf(g->net[g->processes], sizeof(g->net[0]), "%s", net);
			g->processes++;
			g->first_start = t < g->first_start ? t : g->first_start;
		}
		g->last_seen = t > g->last_seen ? t : g->last_seen;
	}
	free(log);
}

/*
 * No network namespace serves games of two phases; with hosts, some serve
 * several games. Unsandboxed every process has the machine's: nothing to check.
 */
static void check_hosts_end_with_phases(void)
{
	const char *seen = NULL;
	bool several = false;
	int shared = 0;

	for (size_t i = 0; i < ngames; i++)
		for (int s = 0; s < games[i].processes && s < 2; s++) {
			several = several || (seen && strcmp(seen, games[i].net[s]) != 0);
			seen = games[i].net[s];
		}
	if (!several) {
		printf("one network namespace for every process: no sandbox, no hosts\n");
		return;
	}
	for (size_t i = 0; i < ngames; i++)
		for (size_t j = i + 1; j < ngames; j++)
			for (int s = 0; s < games[i].processes && s < 2; s++)
				for (int k = 0; k < games[j].processes && k < 2; k++) {
					if (strcmp(games[i].net[s], games[j].net[k]) != 0)
						continue;
					if (games[i].phase != games[j].phase)
						fail_msg("%s served games of phases %" PRIu64 " and %"
							 PRIu64, games[i].net[s], games[i].phase,
							 games[j].phase);
					shared++;
				}
	printf("%d pairs of games played in one host\n", shared);
	assert_true(shared > 0);
}

static void test_no_process_spans_two_phases(void **state)
{
	const char *args[] = { "run", "-j", "2", "--quiet", "--no-report", "t.json", NULL };
	char dir[256], text[1024], out[300];
	uint64_t phases;
	int overlaps = 0, both = 0;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "phases");
	snprintf(text, sizeof(text),
		 "{\"name\":\"phases\",\"bots\":[{\"name\":\"a\",\"command\":[\"%s\",\"lifetime\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"lifetime\"]},"
		 "{\"name\":\"c\",\"command\":[\"%s\",\"lifetime\"]}],"
		 "\"deals\":%d,\"rules\":{\"stock_size\":3},\"output\":\"out\"}",
		 BADBOT_PATH, BADBOT_PATH, BADBOT_PATH, DEALS);
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
	snprintf(out, sizeof(out), "%s/out", dir);
	map_games(out);
	read_log(out, "a");
	read_log(out, "b");
	read_log(out, "c");
	phases = 0;
	for (size_t i = 0; i < ngames; i++) {
		/* a fresh process per seat, each writing once at its start */
		assert_true(games[i].processes >= 1 && games[i].processes <= 2);
		both += games[i].processes == 2;
		phases = games[i].phase + 1 > phases ? games[i].phase + 1 : phases;
	}
	assert_int_equal(phases, 4);
	assert_true(both >= GAMES * 9 / 10);
	for (size_t i = 0; i < ngames; i++)
		for (size_t j = 0; j < ngames; j++) {
			const struct game_life *a = &games[i], *b = &games[j];

			if (b->phase > a->phase && b->first_start <= a->last_seen)
				fail_msg("a process of phase %" PRIu64 " began %lld ns before one of "
					 "phase %" PRIu64 " was last seen alive", b->phase,
					 a->last_seen - b->first_start, a->phase);
			overlaps += i != j && b->phase == a->phase && b->first_start < a->last_seen &&
				    a->first_start < b->last_seen;
		}
	printf("%zu games in %" PRIu64 " phases; %d pairs of games of one phase with processes "
	       "alive at once\n", ngames, phases, overlaps);
	assert_true(overlaps > 0);
	check_hosts_end_with_phases();
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_process_spans_two_phases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
