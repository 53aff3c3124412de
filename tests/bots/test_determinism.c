/*
 * test_determinism.c - the bundled bots depend only on the game: the same
 * small tournament gives the same games.jsonl records (every field but the
 * timings) run with -j 1 on a quiet machine and with -j 2 while busy
 * processes load every CPU. A bot whose search stops on a clock plays
 * differently when it gets less CPU, and this comparison catches it.
 *
 * usage: test_determinism ARENA DEALS_2P DEALS_4P NAME=BOT NAME=BOT
 * Two bots, each named for the tournament: DEALS_2P deals of a 2-player
 * duplicate tournament, and DEALS_4P of a 4-player partnership one (R10) with
 * each bot twice, where searches have more sources and run longer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define BUSY_MAX 64
#define BUSY_MAX_SECONDS 300

static const char *arena;
static int deals_2p, deals_4p;
static char bot_name[2][64];
static const char *bot_path[2];

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len < 4096)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* dir/NAME.json: the two bots (each twice at 4 players), stock 10, the default time rules. */
static void write_tournament(const char *dir, const char *name, int players, int deals)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"name\":\"%s\",\"bots\":[", name);
	for (int i = 0; i < players; i++)
		fprintf(f, "%s{\"name\":\"%s%s\",\"command\":[\"%s\"]}", i ? "," : "", bot_name[i % 2],
			i >= 2 ? "-2" : "", bot_path[i % 2]);
	/* No address-space limit, which sanitizer builds of the bots could not start under;
	 * a move time far above any move's, so that a machine loaded beyond the test's own
	 * busy processes makes no timeout, which would differ between the two runs. */
	fprintf(f, "],\"players\":%d,\"deals\":%d,\"duplicate\":true,\"seed\":77,"
		"\"rules\":{\"stock_size\":10,\"partnership\":%s},"
		"\"time\":{\"move_ms\":30000,\"game_ms\":600000},\"limits\":{\"memory_mb\":0}}\n",
		players, deals, players == 4 ? "true" : "false");
	assert_int_equal(fclose(f), 0);
}

/* `skipbo-arena run -j JOBS` of dir/NAME.json in dir, writing dir/OUT; returns its wait status. */
static int run_arena(const char *dir, const char *name, const char *jobs, const char *out)
{
	char file[128];
	snprintf(file, sizeof(file), "%s.json", name);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* The arena (and with it its bots) does not outlive a killed test. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || chdir(dir) < 0)
			_exit(127);
		execl(arena, arena, "run", "-j", jobs, "--quiet", "--no-report", "-o", out, file,
		      (char *)NULL);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void check_exit(int status, const char *dir, const char *jobs)
{
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("skipbo-arena run -j %s in %s exited with status %d", jobs, dir, status);
}

/*
 * One child per CPU spinning until killed. Each dies with this process too
 * (PR_SET_PDEATHSIG), and on its own after BUSY_MAX_SECONDS, so that no
 * spinning child outlives a test that was killed. Returns how many started.
 */
static int start_busy(pid_t *busy)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cpus < 1 ? 1 : cpus > BUSY_MAX ? BUSY_MAX : (int)cpus;
	pid_t parent = getpid();
	for (int i = 0; i < n; i++) {
		busy[i] = fork();
		if (busy[i] < 0)
			return i;
		if (busy[i] == 0) {
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
				_exit(0);
			time_t end = time(NULL) + BUSY_MAX_SECONDS;
			volatile unsigned long spin = 0;
			while (time(NULL) < end)
				for (int k = 0; k < 1000000; k++)
					spin++;
			_exit(0);
		}
	}
	return n;
}

/* Kill the busy children; returns the CPU seconds they used. */
static double stop_busy(const pid_t *busy, int n)
{
	double cpu = 0;
	for (int i = 0; i < n; i++) {
		struct rusage ru;
		int status;
		kill(busy[i], SIGKILL);
		if (wait4(busy[i], &status, 0, &ru) == busy[i])
			cpu += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	}
	return cpu;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The records of dir/out/games.jsonl without their timing fields ("time")
 * and where their replays are (a pack's name is random, a frame's length
 * holds the times: only whether there is a replay counts), one line each, sorted (the id leads every line, so -j 2's order does not
 * matter). Fails the test on a line that is not a JSON object or on a fault.
 */
static char **canonical_records(const char *dir, const char *out, int *n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s/games.jsonl", dir, out);
	char *text = read_file(path);
	if (!text)
		fail_msg("cannot read %s", path);
	int cap = 64;
	char **lines = malloc((size_t)cap * sizeof(*lines));
	assert_non_null(lines);
	*n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		cJSON *rec = cJSON_Parse(line);
		if (!cJSON_IsObject(rec))
			fail_msg("%s: not a JSON object: %.80s", path, line);
		const cJSON *faults = cJSON_GetObjectItemCaseSensitive(rec, "faults");
		if (cJSON_GetArraySize(faults) != 0)
			fail_msg("%s: a game with a fault, which no bundled bot may cause: %.300s", path, line);
		/* timings, and where a worker's pack put the replay, depend on the run */
		cJSON_DeleteItemFromObjectCaseSensitive(rec, "time");
		cJSON_DeleteItemFromObjectCaseSensitive(rec, "replay_offset");
		cJSON_DeleteItemFromObjectCaseSensitive(rec, "replay_line");
		if (cJSON_GetObjectItemCaseSensitive(rec, "replay"))
			cJSON_ReplaceItemInObjectCaseSensitive(rec, "replay", cJSON_CreateTrue());
		if (*n == cap)
			lines = realloc(lines, (size_t)(cap *= 2) * sizeof(*lines));
		assert_non_null(lines);
		lines[(*n)++] = cJSON_PrintUnformatted(rec);
		cJSON_Delete(rec);
	}
	free(text);
	qsort(lines, (size_t)*n, sizeof(*lines), compare_strings);
	return lines;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/*
 * Tournament NAME quiet at -j 1 and loaded at -j 2: the same records. Fails
 * with the first record that differs.
 */
static void same_games(const char *name, int players, int deals)
{
	char dir[] = "/tmp/skipbo-determinism-XXXXXX";
	assert_non_null(mkdtemp(dir));
	write_tournament(dir, name, players, deals);
	check_exit(run_arena(dir, name, "1", "quiet"), dir, "1");

	/* Nothing may fail the test while the children spin. */
	pid_t busy[BUSY_MAX];
	int n_busy = start_busy(busy), busy_errno = errno;
	int status = run_arena(dir, name, "2", "loaded");
	double busy_cpu = stop_busy(busy, n_busy);
	check_exit(status, dir, "2");
	if (n_busy == 0)
		fail_msg("could not start a busy process: %s", strerror(busy_errno));

	int na, nb;
	char **a = canonical_records(dir, "quiet", &na);
	char **b = canonical_records(dir, "loaded", &nb);
	/* one table, every seat rotation; in partnership under each of the 3 pairings */
	assert_int_equal(na, deals * players * (players == 4 ? 3 : 1));
	assert_int_equal(nb, na);
	int differ = 0;
	for (int i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0 && differ++ == 0)
			print_error("first record that differs:\n  -j 1 quiet:  %s\n  -j 2 loaded: %s\n", a[i], b[i]);
	if (differ)
		fail_msg("%s: %d of %d games differ between a quiet -j 1 run and a loaded -j 2 run: "
			 "a bot's moves depend on time", name, differ, na);
	/* The load was real: the spinning children competed for the CPUs. */
	assert_true(busy_cpu > 0.1);
	for (int i = 0; i < na; i++) {
		cJSON_free(a[i]);
		cJSON_free(b[i]);
	}
	free(a);
	free(b);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void two_players(void **state)
{
	(void)state;
	same_games("two", 2, deals_2p);
}

static void partnership(void **state)
{
	(void)state;
	same_games("partnership", 4, deals_4p);
}

static int parse_deals(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);
	return *s && !*end && n >= 1 && n <= 10000 ? (int)n : -1;
}

int main(int argc, char **argv)
{
	if (argc != 6 || (deals_2p = parse_deals(argv[2])) < 0 || (deals_4p = parse_deals(argv[3])) < 0) {
		fprintf(stderr, "usage: test_determinism ARENA DEALS_2P DEALS_4P NAME=BOT NAME=BOT\n");
		return 2;
	}
	/* The runs chdir into their directory: resolve paths first. */
	arena = realpath(argv[1], NULL);
	if (!arena) {
		fprintf(stderr, "test_determinism: no arena at '%s'\n", argv[1]);
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		const char *eq = strchr(argv[i + 4], '=');
		size_t len = eq ? (size_t)(eq - argv[i + 4]) : 0;
		if (!eq || len == 0 || len >= sizeof(bot_name[i]) - 2) {
			fprintf(stderr, "test_determinism: expected NAME=BOT, got '%s'\n", argv[i + 4]);
			return 2;
		}
		memcpy(bot_name[i], argv[i + 4], len);
		bot_name[i][len] = '\0';
		bot_path[i] = realpath(eq + 1, NULL);
		if (!bot_path[i]) {
			fprintf(stderr, "test_determinism: no bot at '%s'\n", eq + 1);
			return 2;
		}
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_players),
		cmocka_unit_test(partnership),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	free((char *)arena);
	for (int i = 0; i < 2; i++)
		free((char *)bot_path[i]);
	return failed;
}
