/*
 * test_attacks.c - each attack bot of this folder in a small tournament
 * beside two `badbot good`, run through the built skipbo-arena, with the
 * sandbox on and, for the attacks the arena's own hardening answers, off
 * (SECURITY.md says which). For every run:
 * - the tournament finishes in bounded time, exit status 0;
 * - every scheduled game is recorded once (the forger's copies aside, which
 *   readers must not count twice);
 * - the two good bots' games are untouched: no fault, played to the end;
 * - no process the attacker started is left once the arena has exited;
 * - no zombie piles up under the arena while it runs;
 * - the attack failed: the bot's own report in its log says "blocked", and
 *   what the test can see for itself agrees (no connection to its port, no
 *   file where the bot tried to write, the log within its caps, ...).
 *
 * usage: test_attacks [--user]
 * SKIPBO_ATTACK=PATTERN runs only the tests whose names match (cmocka's filter);
 * SKIPBO_KEEP=1 keeps the cases' directories (logs, records) for a look.
 * With --user (when run as root), the arena runs as the ordinary user
 * SKIPBO_TEST_USER names, else nobody; the program exits 77 (skipped, for
 * ctest) when there is no such user or it cannot reach the build.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define WALL_LIMIT_MS 300000   /* a hang guard: an attack's tournament takes seconds at idle */
#define GAMES 6                 /* 3 tables x 1 deal x 2 rotations */
/* The longest a zombie may stay under the arena. The arena reaps at once (a
 * few ms at idle, under 0.5 s on a loaded machine); attack_zombies lingers 4 s
 * after making its zombies, so one nobody reaps stays that long. The bound
 * tells "reaped" from "left" and never judges speed. */
#define ZOMBIE_AGE_MS 2000
#define STDERR_CAP 16384
#define STDERR_TOTAL_CAP 65536
#define MEMORY_MB 64
#define PROCESSES 32
#define OTHER_PROCESSES (2 * PROCESSES) /* the arena's user's, held during the fork bomb */
#define KILL_ROUNDS 12            /* arenas killed, each KILL_STEP_MS later into its start */
#define KILL_STEP_MS 15

enum verdict {
	NOT_RUN,             /* this mode does not run the case */
	ANY,                 /* run; the bot's own verdict is not asserted */
	BLOCKED,             /* its report says blocked */
	BLOCKED_IF_NONROOT,  /* blocked unless the arena runs as root */
	BLOCKED_IF_CGROUPS,  /* blocked where the sandbox has cgroups */
};

struct attack_case {
	const char *name;          /* tests/attacks/attack_<name>; the report's name with '_' as '-' */
	const char *args;          /* after the token; %D is the test's directory, %P its port */
	enum verdict on, off;
	bool restarts;             /* the attacker exits at its first request, in every game */
};

static const struct attack_case cases[] = {
	{ "arena_memory", "", BLOCKED, BLOCKED_IF_NONROOT, false },
	{ "opponent_memory", "badbot", BLOCKED, NOT_RUN, false },
	{ "signal", "badbot", BLOCKED, NOT_RUN, false },
	{ "process_group", "", BLOCKED, NOT_RUN, false },
	{ "daemon", "", ANY, ANY, false },
	{ "zombies", "", ANY, ANY, false },
	{ "forge", "%D/out/games.jsonl", BLOCKED, ANY, false },
	{ "log_swap", "%D/out/logs/attacker.stderr fifo", BLOCKED, ANY, true },
	{ "log_swap", "%D/out/logs/attacker.stderr symlink %D/link-target", BLOCKED, ANY, true },
	{ "stderr_flood", "1048576", ANY, ANY, true },
	{ "fork_bomb", "32", BLOCKED, NOT_RUN, false },
	{ "memory_hog", "64", BLOCKED_IF_CGROUPS, NOT_RUN, false },
	{ "tcp", "%P", BLOCKED, NOT_RUN, false },
	{ "read_output", "%D/out/games.jsonl %D/out/tournament.json %D/t.json", BLOCKED, NOT_RUN,
	  false },
	{ "write_outside", "%D/planted %D/out/planted %D/planted-in-cwd", BLOCKED, NOT_RUN, false },
	{ "siblings", "%D", BLOCKED, NOT_RUN, false },
	{ "keyring", "", BLOCKED, NOT_RUN, false },
	{ "cgroup_channel", "", BLOCKED, NOT_RUN, false },
	{ "affinity", "", BLOCKED, NOT_RUN, false },
	{ "bwrap_argv", "", BLOCKED, NOT_RUN, false },
	{ "log_bytes", "", ANY, ANY, false },
	{ "shared_folder", "", BLOCKED, NOT_RUN, false },
	{ "shared_state", "", BLOCKED, NOT_RUN, false },
	{ "counters", "", BLOCKED, ANY, false },
};

/* The key the test puts in its session keyring, which the arena and its bots inherit. */
#define KEY_DESC "skipbo-attack-secret"
#define KEY_PAYLOAD "the organiser's secret"
static long key_id = -1;

/* The user the arena runs as (NULL: the test's own), and what the run found. */
static const struct passwd *user;
static int listen_fd = -1, port;
/* The bots' programs, copied where any uid may run them (the sandbox's uids must reach
 * them, wherever the build directory is). */
static char bin[600], badbot[700];
/*
 * Where every case's directory is made: beside the build, not under /tmp, so
 * that a sandbox hiding only /tmp would not pass the tests that look for
 * other tournaments' files and other bots' programs.
 */
static char work[400];

/* A fresh directory under work, mode 0755 (the sandbox's uids must reach it). */
static void attack_tempdir(char *out, size_t size, const char *tag)
{
	snprintf(out, size, "%s/%s.XXXXXX", work, tag);
	if (!mkdtemp(out) || chmod(out, 0755) < 0)
		fail_msg("cannot make %s: %s", out, strerror(errno));
}

/* ---- running the arena ---- */

static void start_arena(const char *dir, pid_t *pid)
{
	char out[800], errp[800];
	char *const argv[] = { ARENA_PATH, "run", "--quiet", "t.json", NULL };

	snprintf(out, sizeof out, "%s/stdout.txt", dir);
	snprintf(errp, sizeof errp, "%s/stderr.txt", dir);
	*pid = fork();
	if (*pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fo < 0 || fe < 0 || chdir(dir) < 0)
			_exit(126);
		dup2(fo, 1);
		dup2(fe, 2);
		if (user && (setgroups(0, NULL) < 0 || setgid(user->pw_gid) < 0 ||
			     setuid(user->pw_uid) < 0))
			_exit(125);
		execv(ARENA_PATH, argv);
		_exit(127);
	}
}

/* Zombies whose parent is pid, now: up to max into out. */
static size_t zombies_under(pid_t pid, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char path[300], buf[512], state, *paren;
		int ppid;
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(buf, sizeof buf, f) && (paren = strrchr(buf, ')')) &&
		    sscanf(paren + 1, " %c %d", &state, &ppid) == 2 && state == 'Z' && ppid == pid &&
		    n < max)
			out[n++] = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Processes alive with marker in their command line. */
static int processes_with(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], cmd[4096];
		ssize_t len;
		int fd;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
		if ((fd = open(path, O_RDONLY)) < 0)
			continue;
		len = read(fd, cmd, sizeof cmd - 1);
		close(fd);
		for (ssize_t i = 0; i < len; i++)
			if (cmd[i] == '\0')
				cmd[i] = ' ';
		if (len > 0) {
			cmd[len] = '\0';
			n += strstr(cmd, marker) != NULL;
		}
	}
	if (d)
		closedir(d);
	return n;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Zombies seen under the arena, with when each was first seen. */
struct zombie_watch {
	pid_t pid[4096];
	int64_t first_ms[4096];
	size_t n;
	int64_t oldest_ms;          /* the longest one stayed */
};

/*
 * Wait for the arena, watching the zombies under it: a burst is fine (a bot
 * that dies leaves its unreaped children to the arena, which reaps them at
 * once), one that stays is not. The arena's exit status, -1 past the limit.
 */
static int wait_arena(pid_t pid, struct zombie_watch *zw)
{
	struct timespec pause = { 0, 5000000 };
	int64_t start = now_ms();
	int status;

	zw->n = 0;
	zw->oldest_ms = 0;
	for (;;) {
		pid_t seen[4096];
		size_t n = zombies_under(pid, seen, 4096);
		int64_t now = now_ms();

		for (size_t i = 0; i < n; i++) {
			size_t k = 0;

			while (k < zw->n && zw->pid[k] != seen[i])
				k++;
			if (k == zw->n && zw->n < 4096) {
				zw->pid[zw->n] = seen[i];
				zw->first_ms[zw->n++] = now;
			} else if (k < zw->n && now - zw->first_ms[k] > zw->oldest_ms) {
				zw->oldest_ms = now - zw->first_ms[k];
			}
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (now - start > WALL_LIMIT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		nanosleep(&pause, NULL);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- one case ---- */

/* args with %D and %P replaced, as JSON array items after the token. */
static void json_args(const char *args, const char *dir, char *out, size_t size)
{
	char expanded[2048] = "", *word, *save = NULL;
	size_t len = 0;

	for (const char *p = args; *p && len + 600 < sizeof expanded; p++) {
		if (p[0] == '%' && p[1] == 'D')
			len += (size_t)snprintf(expanded + len, sizeof expanded - len, "%s", dir), p++;
		else if (p[0] == '%' && p[1] == 'P')
			len += (size_t)snprintf(expanded + len, sizeof expanded - len, "%d", port), p++;
		else
			expanded[len++] = *p;
	}
	expanded[len] = '\0';
	out[0] = '\0';
	for (word = strtok_r(expanded, " ", &save); word; word = strtok_r(NULL, " ", &save))
		snprintf(out + strlen(out), size - strlen(out), ",\"%s\"", word);
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* Every scheduled game once, and the good bots' games untouched. */
static void check_records(const char *dir, bool forged)
{
	char out[800];
	cJSON **recs;
	size_t n, good = 0, unique = 0;
	const char *ids[64];

	snprintf(out, sizeof out, "%s/out", dir);
	n = e2e_records(out, &recs);
	for (size_t i = 0; i < n && i < 64; i++) {
		const cJSON *bots = cJSON_GetObjectItem(recs[i], "bots");
		bool seen = false;

		for (size_t k = 0; k < unique; k++)
			seen |= strcmp(ids[k], str(recs[i], "id")) == 0;
		if (seen)
			continue;
		ids[unique++] = str(recs[i], "id");
		if (strcmp(cJSON_GetArrayItem(bots, 0)->valuestring, "attacker") == 0 ||
		    strcmp(cJSON_GetArrayItem(bots, 1)->valuestring, "attacker") == 0)
			continue;
		good++;
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(recs[i], "faults")), 0);
		assert_string_equal(str(recs[i], "reason"), "stock_emptied");
	}
	assert_int_equal(unique, GAMES);
	/* only the forger's own copies may be more */
	if (!forged)
		assert_int_equal(n, GAMES);
	assert_int_equal(good, 2);
	e2e_free_records(recs, n);
}

/*
 * Unsandboxed, the forger's copies are in games.jsonl: the report counts each
 * game once and says how many it skipped, and a resume plays nothing again
 * and warns.
 */
static void check_forgeries_not_counted(const char *dir)
{
	char path[800], *text, *out;
	cJSON **recs, *ratings;
	static struct zombie_watch zw;
	size_t n;
	pid_t pid;
	int status;

	snprintf(path, sizeof path, "%s/out", dir);
	n = e2e_records(path, &recs);
	e2e_free_records(recs, n);
	assert_true(n > GAMES);
	snprintf(path, sizeof path, "%s/out/ratings.json", dir);
	text = e2e_read(path, NULL);
	assert_non_null(text);
	ratings = cJSON_Parse(text);
	free(text);
	assert_int_equal(cJSON_GetObjectItem(ratings, "records")->valueint, GAMES);
	assert_int_equal(cJSON_GetObjectItem(ratings, "skipped_repeated")->valueint, (int)n - GAMES);
	cJSON_Delete(ratings);
	start_arena(dir, &pid);
	status = wait_arena(pid, &zw);
	assert_int_equal(status, 0);
	snprintf(path, sizeof path, "%s/stdout.txt", dir);
	out = e2e_read(path, NULL);
	if (!out || !strstr(out, "record(s) with the id of a game recorded before")) {
		free(out);
		fail_msg("the resume did not warn of the repeated records");
	}
	free(out);
	snprintf(path, sizeof path, "%s/out", dir);
	assert_int_equal(e2e_records(path, &recs), n);
	e2e_free_records(recs, n);
}

/* The attacker's report line: blocked when expected so, never SUCCEEDED then. */
static void check_report(const char *dir, const char *name, enum verdict v, bool cgroups)
{
	char path[800], want[128], report_name[64], *log;
	bool expect_blocked = v == BLOCKED || (v == BLOCKED_IF_NONROOT && (user || geteuid())) ||
			      (v == BLOCKED_IF_CGROUPS && cgroups);

	if (!expect_blocked)
		return;
	snprintf(report_name, sizeof report_name, "%s", name);
	for (char *p = report_name; *p; p++)
		if (*p == '_')
			*p = '-';
	snprintf(path, sizeof path, "%s/out/logs/attacker.stderr", dir);
	log = e2e_read(path, NULL);
	snprintf(want, sizeof want, "ATTACK %s: blocked", report_name);
	if (!log || !strstr(log, want) || strstr(log, ": SUCCEEDED:")) {
		char shown[2048];

		snprintf(shown, sizeof shown, "%s", log ? log : "(no log)");
		free(log);
		fail_msg("attack %s: expected \"%s\" in the attacker's log, got:\n%s", name, want,
			 shown);
	}
	free(log);
}

/* dir/t.json: two good bots and the attacker of c (its program at attacker, NULL: in bin). */
static void write_tournament(const char *dir, const struct attack_case *c, const char *token,
			     const char *mode, const char *attacker)
{
	char text[4096], args[2048], program[800];

	if (attacker)
		snprintf(program, sizeof program, "%s", attacker);
	else
		snprintf(program, sizeof program, "%s/attack_%s", bin, c->name);
	json_args(c->args, dir, args, sizeof args);
	snprintf(text, sizeof text,
		 "{\"name\":\"a\",\"bots\":["
		 "{\"name\":\"good1\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"good2\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"attacker\",\"command\":[\"%s\",\"%s\"%s],"
		 "\"limits\":{\"memory_mb\":%d,\"processes\":%d}}],"
		 "\"players\":2,\"deals\":1,\"rules\":{\"stock_size\":3},"
		 "\"time\":{\"startup_ms\":10000,\"move_ms\":10000,\"game_ms\":60000},"
		 "\"stderr_cap\":%d,\"stderr_total_cap\":%d,\"concurrency\":2,"
		 "\"seed\":1,\"output\":\"out\",\"sandbox\":\"%s\"}",
		 badbot, badbot, program, token, args, MEMORY_MB, PROCESSES,
		 STDERR_CAP, STDERR_TOTAL_CAP, mode);
	e2e_write(dir, "t.json", text);
}

/* Other tournaments' results in this one's folder and beside it: what attack_siblings looks for. */
static void plant_siblings(const char *dir)
{
	static const char *const dirs[] = { "/out.old-1", "/out.old-1/replays", "/shard2", "/other",
					    "-shard2", "-other" };
	static const char *const files[] = { "/out.old-1/games.jsonl", "/out.old-1/replays/r.json",
					     "/shard2/games.jsonl", "/other/tournament.json",
					     "-shard2/games.jsonl", "-other/tournament.json" };
	char path[800];

	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		snprintf(path, sizeof path, "%s%s", dir, dirs[i]);
		if (mkdir(path, 0755) < 0)
			fail_msg("mkdir %s: %s", path, strerror(errno));
	}
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		FILE *f;

		snprintf(path, sizeof path, "%s%s", dir, files[i]);
		if (!(f = fopen(path, "w")) || fputs("{\"seed\": 12345, \"deck\": [1, 2, 3]}\n", f) < 0 ||
		    fclose(f) != 0)
			fail_msg("cannot write %s", path);
		chmod(path, 0644);
	}
}

/* The log holds no control byte of the bot's: every line ends at its newline, nothing else below 0x20. */
static void check_log_clean(const char *dir)
{
	char path[800], *log;
	size_t len = 0;

	snprintf(path, sizeof path, "%s/out/logs/attacker.stderr", dir);
	log = e2e_read(path, &len);
	assert_non_null(log);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)log[i] < 0x20 && log[i] != '\n')
			fail_msg("raw control byte 0x%02x at %zu of %s", (unsigned char)log[i], i, path);
	if (!strstr(log, "\\033]0;owned"))
		fail_msg("the escape is not in the log, escaped: %.500s", log);
	free(log);
}

/*
 * n processes of the arena's user that sleep (at most a minute, and not past
 * the test): what else that user runs on the machine.
 */
static void hold_user_processes(pid_t *pids, int n)
{
	pid_t test = getpid();

	for (int i = 0; i < n; i++) {
		if ((pids[i] = fork()) < 0)
			fail_msg("fork: %s", strerror(errno));
		if (pids[i] > 0)
			continue;
		if (user && (setgroups(0, NULL) < 0 || setgid(user->pw_gid) < 0 ||
			     setuid(user->pw_uid) < 0))
			_exit(125);
		/* after the change of user, which clears it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == test)
			sleep(60);
		_exit(0);
	}
}

static void release_user_processes(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/*
 * Each attacker process forked exactly PROCESSES - 1 children: its limit
 * counts its sandbox alone, whatever else its user runs (sandbox_start.h).
 */
static void check_fork_bomb_count(const char *dir)
{
	char path[800], want[96], *log, *at;
	int reports = 0;

	snprintf(path, sizeof path, "%s/out/logs/attacker.stderr", dir);
	log = e2e_read(path, NULL);
	assert_non_null(log);
	snprintf(want, sizeof want, "ATTACK fork-bomb: blocked: %d children,", PROCESSES - 1);
	for (at = strstr(log, "ATTACK fork-bomb: "); at; at = strstr(at + 1, "ATTACK fork-bomb: ")) {
		if (strncmp(at, want, strlen(want)) != 0)
			fail_msg("expected \"%s\", got: %.120s", want, at);
		reports++;
	}
	free(log);
	assert_true(reports > 0);
}

/*
 * attack_counters' sysinfo line: in the sandbox, sysinfo must succeed and
 * show nothing of the machine (the launcher's view, launcher.h): no shared
 * or buffer memory, no load, one process, and neither the process count
 * nor the free memory moved by the processes and memory it added.
 */
static bool sysinfo_fault(const char *at, char *what, size_t size)
{
	unsigned long total, free0, free1, shared, buffer, loads;
	unsigned unit, procs0, procs1;

	if (sscanf(at, "COUNTERS sysinfo unit %u total %lu free %lu %lu shared %lu buffer %lu procs "
		   "%u %u loads %lu", &unit, &total, &free0, &free1, &shared, &buffer, &procs0,
		   &procs1, &loads) != 9) {
		snprintf(what, size, "sysinfo failed: %.80s", at + strlen("COUNTERS sysinfo "));
		return true;
	}
	snprintf(what, size, "sysinfo shows the machine: free %lu then %lu, procs %u then %u",
		 free0, free1, procs0, procs1);
	return free0 != free1 || procs0 != 1 || procs1 != 1 || shared || buffer || loads;
}

/*
 * A line of attack_counters that shows, inside the sandbox, what it must not:
 * true, and what it shows, briefly, in what.
 */
static bool counters_fault(const char *at, char *what, size_t size)
{
	char name[256];
	unsigned uid, gid;
	long bytes;

	snprintf(what, size, "%.100s", at + strlen("COUNTERS "));
	if (sscanf(at, "COUNTERS host %255s", name) == 1)
		return strcmp(name, "skipbo") != 0;
	if (sscanf(at, "COUNTERS ids %u %u", &uid, &gid) == 2)
		return uid != 1000 || gid != 1000;
	if (strncmp(at, "COUNTERS init ", 14) == 0) {
		snprintf(what, size, "/proc/1/cmdline names a launcher option (-H, -p)");
		return strstr(at, " [-H]") || strstr(at, " [-p]");
	}
	if (strncmp(at, "COUNTERS sysinfo ", 17) == 0)
		return sysinfo_fault(at, what, size);
	if (sscanf(at, "COUNTERS read %255s %ld", name, &bytes) == 2 && bytes > 0) {
		snprintf(what, size, "%.80s: %ld bytes", name, bytes);
		return true;
	}
	return false;
}

/*
 * What attack_counters saw. With the sandbox on: the names every sandbox
 * shares (host "skipbo", uid and gid 1000, as root and as an ordinary user),
 * no launcher option in /proc/1/cmdline, and no machine-wide counter with
 * content; the faults of the first report that has any are named. With it
 * off nothing hides them: the first process's report is printed. The block
 * device a mount names is printed either way, not judged.
 */
static void check_counters(const char *dir, bool sandbox)
{
	char path[800], faults[4096] = "", what[128], *log, *line, *save = NULL;
	int reports = 0, named = 0, found = 0;

	snprintf(path, sizeof path, "%s/out/logs/attacker.stderr", dir);
	assert_non_null(log = e2e_read(path, NULL));
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *at = strstr(line, "COUNTERS ");

		if (!at)
			continue;
		reports += strncmp(at, "COUNTERS host ", 14) == 0;
		if (reports == 1 && (!sandbox || strncmp(at, "COUNTERS block-device ", 22) == 0))
			printf("  (sandbox %s) %s\n", sandbox ? "on" : "off", at);
		if (!sandbox || !counters_fault(at, what, sizeof what))
			continue;
		found++;
		/* the first report with faults names them */
		if (!named || named == reports) {
			named = reports;
			strlcat(faults, "\n  ", sizeof faults);
			strlcat(faults, what, sizeof faults);
		}
	}
	free(log);
	assert_true(reports > 0);
	if (found)
		fail_msg("inside the sandbox, %d line(s) of %d report(s) show too much; the first "
			 "report's:%s", found, reports, faults);
}

/* The organiser's key is still there, payload and all. */
static void check_key_kept(void)
{
	char payload[128];
	long n = syscall(SYS_keyctl, KEYCTL_READ, key_id, (long)payload, (long)sizeof payload, 0L);

	assert_int_equal(n, (long)strlen(KEY_PAYLOAD));
}

static void run_case(const struct attack_case *c, bool sandbox)
{
	char dir[512], token[96], path[700], *err_text;
	static struct zombie_watch zw;
	bool fork_bomb = sandbox && strcmp(c->name, "fork_bomb") == 0;
	pid_t pid, others[OTHER_PROCESSES];
	int status;
	bool cgroups;

	attack_tempdir(dir, sizeof dir, "attack");
	if (user && chown(dir, user->pw_uid, user->pw_gid) < 0)
		fail_msg("chown %s: %s", dir, strerror(errno));
	snprintf(token, sizeof token, "skipbo-attack-token-%d-%s-%d", (int)getpid(), c->name,
		 sandbox);
	write_tournament(dir, c, token, sandbox ? "on" : "off", NULL);
	snprintf(path, sizeof path, "%s/t.json", dir);
	if (user)
		chown(path, user->pw_uid, user->pw_gid);
	if (strcmp(c->name, "siblings") == 0)
		plant_siblings(dir);
	if (fork_bomb)
		hold_user_processes(others, OTHER_PROCESSES);
	start_arena(dir, &pid);
	status = wait_arena(pid, &zw);
	if (fork_bomb)
		release_user_processes(others, OTHER_PROCESSES);
	snprintf(path, sizeof path, "%s/stderr.txt", dir);
	err_text = e2e_read(path, NULL);
	if (status != 0)
		fail_msg("attack %s (sandbox %s): skipbo-arena exited %d; stderr:\n%.2000s", c->name,
			 sandbox ? "on" : "off", status, err_text ? err_text : "");
	cgroups = sandbox && err_text && !strstr(err_text, "without cgroups");
	free(err_text);

	check_records(dir, strcmp(c->name, "forge") == 0 && !sandbox);
	if (processes_with(token))
		fail_msg("attack %s (sandbox %s): %d process(es) of the attacker outlived the "
			 "tournament", c->name, sandbox ? "on" : "off", processes_with(token));
	if (zw.oldest_ms > ZOMBIE_AGE_MS)
		fail_msg("attack %s (sandbox %s): a zombie stayed %lld ms under the arena",
			 c->name, sandbox ? "on" : "off", (long long)zw.oldest_ms);
	/* before the report, which says less */
	if (strcmp(c->name, "counters") == 0)
		check_counters(dir, sandbox);
	check_report(dir, c->name, sandbox ? c->on : c->off, cgroups);
	/* what the test sees for itself */
	if (c->restarts) {
		struct stat st;

		snprintf(path, sizeof path, "%s/out/logs/attacker.stderr", dir);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			assert_true(st.st_size <= STDERR_TOTAL_CAP);
		snprintf(path, sizeof path, "%s/link-target", dir);
		assert_int_equal(access(path, F_OK), -1);
	}
	if (sandbox && strcmp(c->name, "write_outside") == 0) {
		static const char *const planted[] = { "planted", "out/planted", "planted-in-cwd" };

		for (size_t i = 0; i < 3; i++) {
			snprintf(path, sizeof path, "%s/%s", dir, planted[i]);
			assert_int_equal(access(path, F_OK), -1);
		}
	}
	if (!sandbox && strcmp(c->name, "forge") == 0)
		check_forgeries_not_counted(dir);
	if (strcmp(c->name, "log_bytes") == 0)
		check_log_clean(dir);
	if (strcmp(c->name, "keyring") == 0)
		check_key_kept();
	if (fork_bomb)
		check_fork_bomb_count(dir);
	if (sandbox && strcmp(c->name, "tcp") == 0) {
		int conn = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (conn >= 0)
			close(conn);
		assert_int_equal(conn, -1);
	}
	e2e_remove(dir);
}

static void test_case(void **state)
{
	const struct attack_case *c = *state;

	if (c->on != NOT_RUN)
		run_case(c, true);
	if (c->off != NOT_RUN)
		run_case(c, false);
}


/*
 * kill -9 of the arena at moments spread over its start (the sandboxes being
 * made, bots started, games on): no process of the attacker, a daemon that
 * leaves its group, nor any of its sandbox's, is left a moment later.
 */
static void test_kill_arena(void **state)
{
	static const struct attack_case daemon = { "daemon", "", ANY, NOT_RUN, false };

	(void)state;
	for (int round = 0; round < KILL_ROUNDS; round++) {
		char dir[512], token[96];
		struct timespec delay = { 0, (long)round * KILL_STEP_MS * 1000000L };
		struct timespec settle = { 0, 500000000L };
		int left;
		pid_t pid;

		attack_tempdir(dir, sizeof dir, "attack-kill");
		if (user && chown(dir, user->pw_uid, user->pw_gid) < 0)
			fail_msg("chown %s: %s", dir, strerror(errno));
		snprintf(token, sizeof token, "skipbo-attack-token-%d-kill-%d", (int)getpid(), round);
		write_tournament(dir, &daemon, token, "on", NULL);
		start_arena(dir, &pid);
		nanosleep(&delay, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		nanosleep(&settle, NULL);
		if ((left = processes_with(token)) > 0)
			fail_msg("%d process(es) outlived the arena killed after %d ms", left,
				 round * KILL_STEP_MS);
		e2e_remove(dir);
	}
}

/*
 * The downgrade: as root, one bot the sandbox's uids cannot reach (its program
 * in a 0700 folder) must not turn the sandbox off for all; with "auto" the
 * arena refuses before the first game and names the bot and the path.
 */
static void test_unreachable_bot_refused(void **state)
{
	static const struct attack_case hidden = { "read_output", "%D/t.json", ANY, NOT_RUN, false };
	char dir[512], private_dir[600], program[700], cmd[1600], path[700], *err_text;
	static struct zombie_watch zw;
	int status;
	pid_t pid;

	(void)state;
	if (user || geteuid() != 0)
		skip();
	attack_tempdir(dir, sizeof dir, "attack-downgrade");
	snprintf(private_dir, sizeof private_dir, "%s/private", dir);
	snprintf(program, sizeof program, "%s/attack_read_output", private_dir);
	if (mkdir(private_dir, 0700) < 0)
		fail_msg("mkdir %s: %s", private_dir, strerror(errno));
	snprintf(cmd, sizeof cmd, "cp '%s/attack_read_output' '%s'", bin, program);
	assert_int_equal(system(cmd), 0);
	write_tournament(dir, &hidden, "skipbo-attack-token-downgrade", "auto", program);
	start_arena(dir, &pid);
	status = wait_arena(pid, &zw);
	snprintf(path, sizeof path, "%s/stderr.txt", dir);
	err_text = e2e_read(path, NULL);
	assert_int_not_equal(status, 0);
	if (!err_text || !strstr(err_text, "attacker") || !strstr(err_text, private_dir))
		fail_msg("the refusal names neither the bot nor the path: %s",
			 err_text ? err_text : "(nothing)");
	free(err_text);
	snprintf(path, sizeof path, "%s/out/games.jsonl", dir);
	assert_int_equal(access(path, F_OK), -1);
	e2e_remove(dir);
}

/* Without a user, the forged copies must not count twice in the report either. */
static void listen_on_loopback(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof addr;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
	    listen(listen_fd, 16) < 0 || getsockname(listen_fd, (struct sockaddr *)&addr, &len) < 0)
		abort();
	port = ntohs(addr.sin_port);
}

/* Copy the bots' programs into bin (mode 0755). */
static void copy_programs(void)
{
	char cmd[1024];

	snprintf(work, sizeof work, "%s/work.XXXXXX", ATTACKS_DIR);
	snprintf(bin, sizeof bin, "%s/bin", work);
	if (!mkdtemp(work) || chmod(work, 0755) < 0 ||
	    (snprintf(bin, sizeof bin, "%s/bin", work), mkdir(bin, 0755) < 0))
		abort();
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'/attack_* '%s'/", BADBOT_PATH, ATTACKS_DIR, bin);
	if (system(cmd) != 0)
		abort();
	snprintf(badbot, sizeof badbot, "%s/badbot", bin);
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof cases / sizeof cases[0] + 2];
	char names[sizeof cases / sizeof cases[0]][96];
	int failed, ret;

	if (argc > 1 && strcmp(argv[1], "--user") == 0 && (ret = e2e_ordinary_user(&user)) >= 0)
		return ret;
	if (getenv("SKIPBO_ATTACK"))
		cmocka_set_test_filter(getenv("SKIPBO_ATTACK"));
	listen_on_loopback();
	copy_programs();
	/* a session keyring of the test's own, holding a key readable by its possessor */
	syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0L, 0L, 0L, 0L);
	key_id = syscall(SYS_add_key, "user", KEY_DESC, KEY_PAYLOAD, strlen(KEY_PAYLOAD),
			 KEY_SPEC_SESSION_KEYRING);
	if (key_id < 0)
		abort();
	syscall(SYS_keyctl, KEYCTL_SETPERM, key_id, 0x3f3f3f3fL, 0L, 0L);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(names[i], sizeof names[i], "%s%s%s", cases[i].name,
			 cases[i].args[0] ? " " : "", cases[i].args);
		tests[i] = (struct CMUnitTest){ names[i], test_case, NULL, NULL, (void *)&cases[i] };
	}
	tests[sizeof cases / sizeof cases[0]] = (struct CMUnitTest){ "kill -9 of the arena",
		test_kill_arena, NULL, NULL, NULL };
	tests[sizeof cases / sizeof cases[0] + 1] = (struct CMUnitTest){ "unreachable bot refused",
		test_unreachable_bot_refused, NULL, NULL, NULL };
	failed = _cmocka_run_group_tests(user ? "attacks as an ordinary user" : "attacks", tests,
					 sizeof tests / sizeof tests[0], NULL, NULL);
	if (!getenv("SKIPBO_KEEP"))
		e2e_remove(work);
	return failed;
}
