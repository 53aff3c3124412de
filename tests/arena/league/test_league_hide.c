/*
 * test_league_hide.c - what of a league's directory its sandboxed bots may
 * not see (league_hide.h): all of it, but the way down to an entry's folder
 * inside it, every sibling on that way hidden and no link followed.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "league_hide.h"

static char dir[256]; /* short, so that every path made of it fits */

static void make(const char *rel, int is_dir)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (is_dir) {
		assert_int_equal(mkdir(path, 0755), 0);
		return;
	}
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
}

/* A hosted league's directory: its files, two submissions, a link into them. */
static int setup(void **state)
{
	char tmpl[] = "/tmp/skipbo-hide.XXXXXX", link[PATH_MAX], real[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(realpath(tmpl, real));
	assert_true(strlen(real) < sizeof(dir));
	memcpy(dir, real, strlen(real) + 1);
	make("league.jsonc", 0);
	make("games.jsonl", 0);
	make("accounts.jsonl", 0);
	make("submissions", 1);
	make("submissions/1", 1);
	make("submissions/1/upload", 0);
	make("submissions/1/build.log", 0);
	make("submissions/1/tree", 1);
	make("submissions/1/tree/bot.py", 0);
	make("submissions/2", 1);
	make("submissions/2/upload", 0);
	make("submissions/2/tree", 1);
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink("submissions/1/tree", link), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int has(const struct strlist *l, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), rel[0] ? "%s/%s" : "%s", dir, rel);
	return strlist_has(l, path);
}

static void test_no_entry_inside_hides_all(void **state)
{
	const char *cwds[] = { "/usr", NULL, dir };
	struct strlist hide;

	(void)state;
	/* a folder elsewhere, none, and the league's directory itself open nothing */
	assert_int_equal(league_hide(dir, cwds, 3, &hide), 0);
	assert_int_equal(hide.n, 1);
	assert_true(has(&hide, ""));
	strlist_free(&hide);
}

static void test_way_down_to_an_entry(void **state)
{
	char tree[PATH_MAX];
	const char *cwds[] = { tree };
	struct strlist hide;

	(void)state;
	snprintf(tree, sizeof(tree), "%s/submissions/1/tree", dir);
	assert_int_equal(league_hide(dir, cwds, 1, &hide), 0);
	/* every sibling on the way, and the link, which leads nowhere */
	assert_true(has(&hide, "league.jsonc"));
	assert_true(has(&hide, "games.jsonl"));
	assert_true(has(&hide, "accounts.jsonl"));
	assert_true(has(&hide, "link"));
	assert_true(has(&hide, "submissions/2"));
	assert_true(has(&hide, "submissions/1/upload"));
	assert_true(has(&hide, "submissions/1/build.log"));
	assert_int_equal(hide.n, 7);
	/* not the way itself, nor the entry's own folder */
	assert_false(has(&hide, ""));
	assert_false(has(&hide, "submissions"));
	assert_false(has(&hide, "submissions/1/tree"));
	strlist_free(&hide);
}

static void test_two_entries_and_a_relative_dir(void **state)
{
	char t1[PATH_MAX], t2[PATH_MAX], cwd[PATH_MAX];
	const char *cwds[] = { t1, t2 };
	struct strlist hide;

	(void)state;
	snprintf(t1, sizeof(t1), "%s/submissions/1/tree", dir);
	snprintf(t2, sizeof(t2), "%s/link/../../2/tree", dir); /* through the link: the same tree */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(league_hide("submissions/..", cwds, 2, &hide), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_false(has(&hide, "submissions/2"));
	assert_false(has(&hide, "submissions/2/tree"));
	assert_true(has(&hide, "submissions/2/upload"));
	assert_true(has(&hide, "submissions/1/upload"));
	assert_true(has(&hide, "league.jsonc"));
	strlist_free(&hide);
}

static void test_missing_dir(void **state)
{
	struct strlist hide;

	(void)state;
	assert_int_equal(league_hide("/nonexistent/league", NULL, 0, &hide), -ENOENT);
	assert_int_equal(hide.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_entry_inside_hides_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_way_down_to_an_entry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_entries_and_a_relative_dir, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_dir, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
