/*
 * test_e2e_play_stats.c - `play` prints the bots' move times for bot authors,
 * not to a person: none when a seat is the human player (a program named
 * skipbo-human, here a link to badbot), unless --stats asks for them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

/* play's stdout in dir, with these bots (and --stats when asked). */
static char *play(const char *dir, const char *seat0, int stats)
{
	const char *plain[] = { "play", "--seed", "2", "--stock", "3", "--sandbox", "off", seat0,
				BADBOT_PATH " good", NULL };
	const char *with_stats[] = { "play", "--stats", "--seed", "2", "--stock", "3", "--sandbox",
				     "off", seat0, BADBOT_PATH " good", NULL };
	const char *const *args = stats ? with_stats : plain;
	char path[400];

	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	unlink(path);
	assert_int_equal(e2e_run(dir, args, 60000, NULL), 0);
	return e2e_read(path, NULL);
}

static void test_move_times_only_for_bot_authors(void **state)
{
	char dir[256], link[300], *out;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "play-stats");
	snprintf(link, sizeof(link), "%s/skipbo-human", dir);
	assert_int_equal(symlink(BADBOT_PATH, link), 0);

	out = play(dir, BADBOT_PATH " good", 0);
	assert_non_null(strstr(out, "moves    "));
	assert_non_null(strstr(out, " us  median "));
	free(out);

	out = play(dir, "./skipbo-human good", 0);
	/* named by its hello (badbot's), shown without move times all the same */
	assert_non_null(strstr(out, "  seat 0 badbot-good      placing "));
	assert_null(strstr(out, " us"));
	assert_null(strstr(out, "fault"));
	free(out);

	out = play(dir, "./skipbo-human good", 1);
	assert_non_null(strstr(out, " us  median "));
	free(out);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_move_times_only_for_bot_authors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
