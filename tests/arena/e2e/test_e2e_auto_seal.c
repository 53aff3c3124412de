/*
 * test_e2e_auto_seal.c - "sandbox": "auto" seals every field (SECURITY.md,
 * "Sealed by default"), end to end:
 * - a partnership field (R10), a table of three and a 2-player field, with
 *   rotations or without, run sealed: within a game only sealing closes the
 *   kernel's caches between the processes of one table;
 * - "sandbox": "on" stays on, and a partnership run then warns;
 * - a bot whose program is a shell script, which may run any program, is
 *   not sealed by auto: what it needs cannot be derived;
 * - where sealing cannot be done (/dev/shm not a tmpfs, as in a container
 *   that mounts none), auto runs on and says why, what stays open and what
 *   to do; the run is not refused.
 * tournament.json records the mode used. Skipped where bwrap cannot run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define WALL_LIMIT_MS 120000

/* A tournament of n badbots "good" at players seats, with extra members. */
static void write_tournament(const char *dir, int n, int players, const char *extra)
{
	char text[4096];
	size_t used = 0;

	used += (size_t)snprintf(text + used, sizeof(text) - used,
				 "{\"name\":\"a\",\"players\":%d,\"deals\":1,"
				 "\"rules\":{\"stock_size\":3%s},\"output\":\"out\"%s,\"bots\":[",
				 players, players == 4 ? ",\"partnership\":true" : "", extra);
	for (int i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s{\"name\":\"g%d\",\"command\":[\"%s\",\"good\"]}",
					 i ? "," : "", i, BADBOT_PATH);
	snprintf(text + used, sizeof(text) - used, "]}");
	e2e_write(dir, "t.json", text);
}

/* The "sandbox" tournament.json of dir/out records, copied into mode. */
static void recorded_mode(const char *dir, char *mode, size_t size)
{
	char path[400];
	cJSON *root;

	snprintf(path, sizeof(path), "%s/out/tournament.json", dir);
	assert_non_null(root = e2e_read_json(path));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(root, "sandbox")));
	snprintf(mode, size, "%s", cJSON_GetObjectItem(root, "sandbox")->valuestring);
	cJSON_Delete(root);
}

/* What the run printed, stdout then stderr (malloc'ed). */
static char *output_of(const char *dir)
{
	char path[400], *out, *err, *both;

	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	out = e2e_read(path, NULL);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	err = e2e_read(path, NULL);
	assert_true(asprintf(&both, "%s\n%s", out ? out : "", err ? err : "") > 0);
	free(out);
	free(err);
	return both;
}

/* Run a tournament of n bots at players seats; its mode into mode, what it printed returned. */
static char *run_field(const char *tag, int n, int players, const char *extra, char *mode,
		       size_t size)
{
	const char *args[] = { "run", "--quiet", "--no-report", "t.json", NULL };
	char dir[256], *err;

	e2e_tempdir(dir, sizeof(dir), tag);
	write_tournament(dir, n, players, extra);
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
	recorded_mode(dir, mode, size);
	err = output_of(dir);
	e2e_remove(dir);
	return err;
}

/* Skip a test where the machine has no working sandbox (auto then runs off). */
static int sandbox_works(void **state)
{
	char mode[32];
	char *err = run_field("auto-probe", 2, 2, ",\"duplicate\":false", mode, sizeof(mode));

	(void)state;
	free(err);
	if (strcmp(mode, "off") == 0) {
		printf("skipped: no working sandbox on this machine (bwrap)\n");
		return -1;
	}
	return 0;
}

static void test_partnership_sealed(void **state)
{
	char mode[32], *err;

	(void)state;
	err = run_field("auto-partners", 4, 4, "", mode, sizeof(mode));
	assert_string_equal(mode, "sealed");
	assert_null(strstr(err, "partners can pass each other their hands"));
	free(err);
}

static void test_table_of_three_sealed(void **state)
{
	char mode[32], *err;

	(void)state;
	err = run_field("auto-three", 3, 3, "", mode, sizeof(mode));
	assert_string_equal(mode, "sealed");
	free(err);
}

/*
 * Two opponents must not talk either (issue 35): a 2-player field is sealed
 * as root, which drops the caches between rotation phases but not within a
 * game, and as an ordinary user; with rotations or without. Nothing then
 * warns of what a drop would close.
 */
static void test_two_players_sealed(void **state)
{
	char mode[32], *err;

	(void)state;
	err = run_field("auto-two", 3, 2, "", mode, sizeof(mode));
	assert_string_equal(mode, "sealed");
	assert_null(strstr(err, "not dropped"));
	free(err);
	err = run_field("auto-two-once", 3, 2, ",\"duplicate\":false", mode, sizeof(mode));
	assert_string_equal(mode, "sealed");
	free(err);
	err = run_field("auto-two-reuse", 3, 2, ",\"processes\":\"reuse\"", mode, sizeof(mode));
	assert_string_equal(mode, "sealed");
	free(err);
}

static void test_on_stays_on_and_warns(void **state)
{
	char mode[32], *err;

	(void)state;
	err = run_field("auto-on", 4, 4, ",\"sandbox\":\"on\"", mode, sizeof(mode));
	assert_string_equal(mode, "on");
	assert_non_null(strstr(err, "partners can pass each other their hands"));
	free(err);
}

/* A shell script may run any program: what it needs is not derived, so auto stays on. */
static void test_shell_script_runs_on_and_says_why(void **state)
{
	const char *args[] = { "run", "--quiet", "--no-report", "t.json", NULL };
	char dir[256], text[4096], script[300], mode[32], *err;
	size_t used = 0;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "auto-script");
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(script, sizeof(script), "%s/bots/wrap.sh", dir);
	snprintf(text, sizeof(text), "%s/bots", dir);
	assert_int_equal(mkdir(text, 0755), 0);
	snprintf(text, sizeof(text), "#!/bin/sh\nexec \"%s\" good\n", BADBOT_PATH);
	e2e_write(dir, "bots/wrap.sh", text);
	assert_int_equal(chmod(script, 0755), 0);
	used += (size_t)snprintf(text, sizeof(text), "{\"name\":\"a\",\"players\":4,\"deals\":1,"
				 "\"rules\":{\"stock_size\":3,\"partnership\":true},"
				 "\"output\":\"out\",\"bots\":[");
	for (int i = 0; i < 4; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s{\"name\":\"w%d\",\"command\":[\"%s\"]}", i ? "," : "",
					 i, script);
	snprintf(text + used, sizeof(text) - used, "]}");
	e2e_write(dir, "t.json", text);
	assert_int_equal(e2e_run(dir, args, WALL_LIMIT_MS, NULL), 0);
	recorded_mode(dir, mode, sizeof(mode));
	err = output_of(dir);
	assert_string_equal(mode, "on");
	assert_non_null(strstr(err, "sandbox on, not sealed"));
	assert_non_null(strstr(err, "which may run any program"));
	assert_non_null(strstr(err, "name it in \"system\""));
	free(err);
	e2e_remove(dir);
}

/*
 * Without a tmpfs at /dev/shm (a disk's directory mounted there, in a mount
 * namespace of the arena's own; needs root): on, with the reason said.
 */
static void test_no_tmpfs_runs_on_and_says_why(void **state)
{
	const char *argv[] = { ARENA_PATH, "run", "--quiet", "--no-report", "t.json", NULL };
	char dir[256], disk[300], errpath[300], outpath[300], mode[32], *err;
	pid_t pid;

	(void)state;
	if (geteuid() != 0) {
		printf("skipped: replacing /dev/shm in a mount namespace needs root\n");
		return;
	}
	e2e_tempdir(dir, sizeof(dir), "auto-no-tmpfs");
	write_tournament(dir, 4, 4, "");
	snprintf(disk, sizeof(disk), "%s/shm", dir);
	assert_int_equal(mkdir(disk, 01777), 0);
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", dir);
	snprintf(outpath, sizeof(outpath), "%s/stdout.txt", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fe = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fo = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fe < 0 || fo < 0 || chdir(dir) < 0 || unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount(disk, "/dev/shm", NULL, MS_BIND, NULL) < 0)
			_exit(126);
		dup2(fo, 1);
		dup2(fe, 2);
		execv(ARENA_PATH, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(e2e_wait(pid, WALL_LIMIT_MS, NULL), 0);
	recorded_mode(dir, mode, sizeof(mode));
	err = output_of(dir);
	assert_string_equal(mode, "on");
	assert_non_null(strstr(err, "sandbox on, not sealed"));
	assert_non_null(strstr(err, "not a tmpfs"));
	assert_non_null(strstr(err, "the bots of one table can pass each other cards"));
	free(err);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partnership_sealed),
		cmocka_unit_test(test_table_of_three_sealed),
		cmocka_unit_test(test_two_players_sealed),
		cmocka_unit_test(test_on_stays_on_and_warns),
		cmocka_unit_test(test_shell_script_runs_on_and_says_why),
		cmocka_unit_test(test_no_tmpfs_runs_on_and_says_why),
	};

	if (sandbox_works(NULL) < 0)
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
