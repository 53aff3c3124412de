/*
 * test_sandbox_view.c - the files next to a sandboxed bot
 * (arena/process/sandbox_view.h): a bot sees the folder of its program or
 * script when that folder is of its own, less the other bots' own files;
 * where the folder is not, sandbox_unseen() names what it cannot see and
 * how to show it. With "system" naming fewer system directories, a bot sees
 * those alone, and the usual links (/bin, /lib64) that lead into them.
 *
 * The tree, under TEST_DIR/view.<pid>/proj (the bots' working directory, as
 * `run` gives it: it holds the hidden output directory out/):
 *   bots/mine/bot.sh, run.sh, choose.txt, theirs.txt (named by "other")
 *   bots/other/other.sh, book.txt
 *   flat.sh, flat.txt (a bot straight in the project's folder)
 *
 * Without a working sandbox the program says why and exits 77 (skipped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "reaper.h"
#include "sandbox.h"

#define DEADLINE_US (10 * 1000000)
#define SKIP_STATUS 77

static char root[PATH_MAX / 4], proj[PATH_MAX / 2], out[PATH_MAX];
static struct sandbox *sb;
static struct bot_spec specs[5];
static char *mine_argv[] = { "/bin/sh", "bots/mine/bot.sh", NULL };
static char *run_argv[] = { "bots/mine/run.sh", NULL };
static char *other_argv[] = { "/bin/sh", "bots/other/other.sh", "bots/mine/theirs.txt", NULL };
static char *flat_argv[] = { "/bin/sh", "flat.sh", NULL };
static char *entrant_argv[] = { "/bin/sh", "bots/all/a.sh", NULL };

/* What each bot prints: the files beside it, and what it must not see. */
static const char reader[] =
	"d=$(dirname \"$0\"); cat \"$d/choose.txt\" 2>/dev/null || echo no-choose; "
	"cat \"$d/theirs.txt\" 2>/dev/null || echo no-theirs; "
	"cat \"$d/../other/book.txt\" 2>/dev/null || echo no-book\n";

static void write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f) != 0 || chmod(path, mode))
		abort();
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) < 0 || chmod(path, 0755) < 0)
		abort();
}

static void make_tree(void)
{
	char dir[PATH_MAX + 32];

	snprintf(root, sizeof root, "%s/view.%d", TEST_DIR, (int)getpid());
	snprintf(proj, sizeof proj, "%s/proj", root);
	snprintf(out, sizeof out, "%s/out", proj);
	make_dir(root);
	make_dir(proj);
	make_dir(out);
	write_file(out, "games.jsonl", "{}\n", 0644);
	snprintf(dir, sizeof dir, "%s/bots", proj);
	make_dir(dir);
	snprintf(dir, sizeof dir, "%s/bots/mine", proj);
	make_dir(dir);
	write_file(dir, "bot.sh", reader, 0644);
	{
		char run[sizeof reader + 16];

		snprintf(run, sizeof run, "#!/bin/sh\n%s", reader);
		write_file(dir, "run.sh", run, 0755);
	}
	write_file(dir, "choose.txt", "my choice\n", 0644);
	write_file(dir, "theirs.txt", "their secret\n", 0644);
	snprintf(dir, sizeof dir, "%s/bots/other", proj);
	make_dir(dir);
	write_file(dir, "other.sh", "cat\n", 0644);
	write_file(dir, "book.txt", "their book\n", 0644);
	write_file(proj, "flat.sh", "cat flat.txt 2>/dev/null || echo no-flat\n", 0644);
	/* every entrant's script in one folder, most of them in no tournament now */
	snprintf(dir, sizeof dir, "%s/bots/all", proj);
	make_dir(dir);
	write_file(dir, "a.sh", "cat \"$(dirname \"$0\")/a.txt\" 2>/dev/null || echo no-a\n", 0644);
	write_file(dir, "a.txt", "a's book\n", 0644);
	write_file(dir, "b.sh", "echo b\n", 0644);
	write_file(proj, "flat.txt", "flat book\n", 0644);
}

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

static void expect_lines(const struct bot_spec *spec, const char *const *want, size_t n)
{
	struct bot *b = NULL;
	char why[512];

	if (bot_start(spec, &b, why, sizeof why) < 0)
		fail_msg("bot_start: %s", why);
	for (size_t i = 0; i < n; i++) {
		const char *line;
		size_t len;
		int r = bot_read_line(b, &line, &len, clock_now_us() + DEADLINE_US);

		if (r < 0)
			fail_msg("no line %zu from the sandboxed bot: %s", i, strerror(-r));
		assert_int_equal(len, strlen(want[i]));
		assert_memory_equal(line, want[i], len);
	}
	bot_stop(b, 100);
}

/* `sh bots/mine/bot.sh`: its folder is its own, less the file the other bot names. */
static void test_script_sees_its_folder(void **state)
{
	static const char *const want[] = { "my choice", "no-theirs", "no-book" };

	(void)state;
	expect_lines(&specs[0], want, 3);
}

/* `bots/mine/run.sh` (a program with #!): the same. */
static void test_program_sees_its_folder(void **state)
{
	static const char *const want[] = { "my choice", "no-theirs", "no-book" };

	(void)state;
	expect_lines(&specs[1], want, 3);
}

/* A bot in the project's folder (which holds the output): its files hidden, and said so. */
static void test_unsafe_folder_said(void **state)
{
	static const char *const want[] = { "no-flat" };
	const char *said = NULL;

	(void)state;
	expect_lines(&specs[3], want, 1);
	for (size_t i = 0; sandbox_unseen(sb, i); i++) {
		assert_null(strstr(sandbox_unseen(sb, i), "\"mine\""));
		if (strstr(sandbox_unseen(sb, i), "\"flat\""))
			said = sandbox_unseen(sb, i);
	}
	assert_non_null(said);
	assert_non_null(strstr(said, "\"flat.txt\""));
	assert_null(strstr(said, "\"out\""));        /* the hidden output is no file of its own */
	assert_null(strstr(said, "\"bots\""));       /* nor the other bots' folders */
	assert_non_null(strstr(said, "output"));
	assert_non_null(strstr(said, "folder of their own"));
}

/* A folder that holds the programs of entrants out of the tournament is not shown:
 * their code is no bot's business (attack_shared_folder); the arena says why. */
static void test_folder_of_entrants_said(void **state)
{
	static const char *const want[] = { "no-a" };
	const char *said = NULL;

	(void)state;
	expect_lines(&specs[4], want, 1);
	for (size_t i = 0; sandbox_unseen(sb, i); i++)
		if (strstr(sandbox_unseen(sb, i), "\"entrant\""))
			said = sandbox_unseen(sb, i);
	assert_non_null(said);
	assert_non_null(strstr(said, "\"a.txt\""));
	assert_non_null(strstr(said, "other programs, such as b.sh"));
}

/* "system": /usr/bin, /usr/lib, /usr/lib64 and /etc shown, /usr/share not; /bin and /lib64
 * still the links into them. */
static void test_system_narrowed(void **state)
{
	static char *argv[] = { "/bin/sh", "-c",
		"for p in /usr/lib /bin/sh /usr/share /usr/include; do "
		"test -e $p && echo $p || echo no-$p; done", NULL };
	static const char *const system[] = { "/usr/bin", "/usr/lib", "/usr/lib64", "/etc" };
	const char *const want[] = { "/usr/lib", "/bin/sh", "no-/usr/share", "no-/usr/include" };
	struct bot_spec spec = { .name = "narrow", .argv = argv, .cwd = proj, .cpu = -1 };
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = &spec, .nbots = 1,
				       .system = system, .nsystem = 4 };
	struct sandbox *narrow = NULL;
	char note[1024];

	(void)state;
	if (access("/usr/lib64", F_OK) != 0 || access("/usr/share", F_OK) != 0)
		skip();
	if (sandbox_open(&setup, &narrow, note, sizeof note) < 0)
		fail_msg("sandbox_open: %s", note);
	spec.sandbox = narrow;
	expect_lines(&spec, want, 4);
	sandbox_close(narrow);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_sees_its_folder),
		cmocka_unit_test(test_program_sees_its_folder),
		cmocka_unit_test(test_unsafe_folder_said),
		cmocka_unit_test(test_folder_of_entrants_said),
		cmocka_unit_test(test_system_narrowed),
	};
	const char *hide[1];
	struct sandbox_setup setup = { .mode = SANDBOX_ON, .bots = specs, .nbots = 5, .hide = hide,
				       .nhide = 1 };
	char note[1024];
	int failed;

	if (reaper_start() < 0)
		abort();
	make_tree();
	specs[0] = (struct bot_spec){ .name = "mine", .argv = mine_argv, .cwd = proj, .cpu = -1 };
	specs[1] = (struct bot_spec){ .name = "run", .argv = run_argv, .cwd = proj, .cpu = -1 };
	specs[2] = (struct bot_spec){ .name = "other", .argv = other_argv, .cwd = proj, .cpu = -1 };
	specs[3] = (struct bot_spec){ .name = "flat", .argv = flat_argv, .cwd = proj, .cpu = -1 };
	specs[4] = (struct bot_spec){ .name = "entrant", .argv = entrant_argv, .cwd = proj,
				      .cpu = -1 };
	hide[0] = out;
	if (sandbox_open(&setup, &sb, note, sizeof note) < 0) {
		printf("skipped: %s\n", note);
		remove_tree();
		return SKIP_STATUS;
	}
	for (size_t i = 0; i < 5; i++)
		specs[i].sandbox = sb;
	failed = cmocka_run_group_tests_name("the files next to a bot", tests, NULL, NULL);
	sandbox_close(sb);
	remove_tree();
	return failed;
}
