/*
 * test_league_entries.c - a league's entries (league_entries.c) and its file
 * (league_config.c): versions linked and their predecessors retired, the same
 * files no new version (an add run again after a crash finishes its work),
 * changed files found, retirements and
 * suspensions read back from entries.jsonl, a torn last line waited for (and
 * cut by the next add when a crash left it), the
 * file's bots and anchors declared, and league.jsonc's errors at their line
 * and column.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "league_config.h"
#include "league_entries.h"

struct fixture {
	char top[64];
	char dir[96];       /* the league's directory, beside the bot's script */
	char bot[PATH_MAX];
};

static void write_text(const char *path, const char *mode, const char *text)
{
	FILE *f = fopen(path, mode);

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	snprintf(fx->top, sizeof(fx->top), "/tmp/test-league-XXXXXX");
	assert_non_null(mkdtemp(fx->top));
	/* a script inside the league's directory would not be hashed (programs.h) */
	snprintf(fx->dir, sizeof(fx->dir), "%s/league", fx->top);
	assert_int_equal(mkdir(fx->dir, 0755), 0);
	snprintf(fx->bot, sizeof(fx->bot), "%s/bot.py", fx->top);
	write_text(fx->bot, "w", "print('one')\n");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", fx->top);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

/* A bot running "python3 bot.py" (the script is hashed with the interpreter). */
static struct config_bot bot_of(struct fixture *fx, char *name, char **argv)
{
	static char *env[1] = { NULL };

	argv[0] = "/bin/sh";
	argv[1] = fx->bot;
	argv[2] = NULL;
	return (struct config_bot){ name, argv, fx->dir, env, { 0, 0, 0, 0 } };
}

static void versions_are_linked(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es, again;
	char *argv[3], name[LEAGUE_ENTRY_NAME_MAX], err[1024], why[1024];
	struct config_bot bot = bot_of(fx, "alpha", argv);

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	assert_string_equal(name, "alpha");
	/* the same files again are no new version: the same add again */
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 1);
	assert_string_equal(name, "alpha");
	assert_int_equal(es.n, 1);
	assert_int_equal(league_entries_changed(&es, 0, NULL, why, sizeof(why)), 0);
	write_text(fx->bot, "a", "print('two')\n");
	assert_int_equal(league_entries_changed(&es, 0, NULL, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "changed since its recorded games"));
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	assert_string_equal(name, "alpha@2");
	assert_int_equal(es.n, 2);
	assert_true(es.e[0].retired);
	assert_string_equal(es.e[0].why, "replaced by alpha@2");
	assert_int_equal(es.e[1].previous, 0);
	assert_int_equal(es.e[1].version, 2);
	/* a bot's name finds its latest version; NAME@K and an exact name find themselves */
	assert_int_equal(league_entries_find(&es, "alpha"), 1);
	assert_int_equal(league_entries_find(&es, "alpha@2"), 1);
	assert_int_equal(league_entries_find(&es, "alph"), -1);
	assert_int_equal(league_entries_named(&es, "alpha"), 0);
	/* a third version follows the second, not the first */
	write_text(fx->bot, "a", "print('three')\n");
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	assert_string_equal(name, "alpha@3");
	assert_true(es.e[1].retired);
	assert_int_equal(es.e[2].previous, 1);
	assert_int_equal(league_entries_suspend(&es, 2, "3 games with a start fault", err,
						sizeof(err)), 0);
	assert_int_equal(league_entries_retire(&es, 0, "again", err, sizeof(err)), -EALREADY);
	/* what another process reads back */
	assert_int_equal(league_entries_open(&again, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(again.n, 3);
	assert_true(again.e[0].retired && again.e[1].retired && !again.e[2].retired);
	assert_true(again.e[2].suspended);
	assert_string_equal(again.e[2].why, "3 games with a start fault");
	assert_string_equal(again.e[2].bot.argv[1], fx->bot);
	assert_int_equal(again.e[1].previous, 0);
	assert_int_equal(again.e[2].previous, 1);
	league_entries_release(&again);
	league_entries_release(&es);
}

static void names_are_checked(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es;
	char *argv[3], name[LEAGUE_ENTRY_NAME_MAX], err[1024];
	struct config_bot at = bot_of(fx, "alpha@3", argv), slash = bot_of(fx, "../x", argv);

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &at, 0, name, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the league adds \"@K\""));
	assert_int_equal(league_entries_add(&es, &slash, 0, name, err, sizeof(err)), -EINVAL);
	assert_int_equal(es.n, 0);
	league_entries_release(&es);
}

/* A line still being written (no newline yet) is read once it is whole. */
static void torn_line_waits(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es;
	char *argv[3], name[LEAGUE_ENTRY_NAME_MAX], err[1024], path[PATH_MAX];
	struct config_bot bot = bot_of(fx, "alpha", argv);

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/%s", fx->dir, LEAGUE_ENTRIES_FILE);
	write_text(path, "a", "{\"event\":\"retire\",\"name\":\"alpha\"");
	assert_int_equal(league_entries_refresh(&es, err, sizeof(err)), 0);
	assert_false(es.e[0].retired);
	write_text(path, "a", ",\"why\":\"by hand\"}\n");
	assert_int_equal(league_entries_refresh(&es, err, sizeof(err)), 1);
	assert_true(es.e[0].retired);
	/* a whole line that is no event is an error naming the line */
	write_text(path, "a", "[1]\n");
	assert_int_equal(league_entries_refresh(&es, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "line 3"));
	league_entries_release(&es);
}

/* A torn line a crash left (no newline, never finished) is cut by the next add, which
 * would otherwise be glued onto it: the file reads back whole, as the add left it. */
static void torn_line_of_a_crash_cut(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es, again;
	char *argv[3], name[LEAGUE_ENTRY_NAME_MAX], err[1024], path[PATH_MAX];
	struct config_bot alpha = bot_of(fx, "alpha", argv), beta = bot_of(fx, "beta", argv);

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &alpha, 0, name, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/%s", fx->dir, LEAGUE_ENTRIES_FILE);
	write_text(path, "a", "{\"event\":\"retire\",\"na");
	league_entries_release(&es);
	/* the league starts again, and an add comes */
	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(es.n, 1);
	assert_int_equal(league_entries_add(&es, &beta, 0, name, err, sizeof(err)), 0);
	assert_int_equal(league_entries_open(&again, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(again.n, 2);
	assert_false(again.e[0].retired);
	assert_string_equal(again.e[1].name, "beta");
	league_entries_release(&again);
	league_entries_release(&es);
}

/* A retire undone: the entry back in play, in this process and in another; refused for
 * one in play, and for one whose later version plays. */
static void retire_returned(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es, again;
	char *argv[3], name[LEAGUE_ENTRY_NAME_MAX], err[1024];
	struct config_bot bot = bot_of(fx, "alpha", argv);

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	assert_int_equal(league_entries_return(&es, 0, err, sizeof(err)), -EALREADY);
	assert_int_equal(league_entries_retire(&es, 0, "by mistake", err, sizeof(err)), 0);
	assert_int_equal(league_entries_return(&es, 0, err, sizeof(err)), 0);
	assert_false(es.e[0].retired);
	assert_null(es.e[0].why);
	assert_int_equal(league_entries_open(&again, fx->dir, err, sizeof(err)), 0);
	assert_false(again.e[0].retired);
	league_entries_release(&again);
	/* alpha@2 retires alpha: alpha comes back only once alpha@2 is out */
	write_text(fx->bot, "a", "print('two')\n");
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	assert_int_equal(league_entries_return(&es, 0, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "\"alpha@2\", a later version of \"alpha\", is in play"));
	assert_int_equal(league_entries_retire(&es, 1, "back to the first", err, sizeof(err)), 0);
	assert_int_equal(league_entries_return(&es, 0, err, sizeof(err)), 0);
	assert_false(es.e[0].retired);
	assert_true(es.e[1].retired);
	league_entries_release(&es);
}

/* An add run again after a crash finds its entry: nothing new, the replacement the crash cut
 * short (the add of alpha@2 on the disk, the retirement of alpha not) finished; a retired
 * version with the same files is refused, saying how to bring it back. */
static void add_again_after_crash(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es;
	char *argv[3], name[LEAGUE_ENTRY_NAME_MAX], err[1024], path[PATH_MAX];
	struct config_bot bot = bot_of(fx, "alpha", argv);
	struct stat st;
	off_t before;

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	write_text(fx->bot, "a", "print('two')\n");
	snprintf(path, sizeof(path), "%s/" LEAGUE_ENTRIES_FILE, fx->dir);
	assert_int_equal(stat(path, &st), 0);
	before = st.st_size;
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	assert_string_equal(name, "alpha@2");
	league_entries_release(&es);
	/* the crash: the retire event after the add is lost */
	{
		FILE *f = fopen(path, "r");
		char line[8192];
		off_t keep = before;

		assert_non_null(f);
		assert_int_equal(fseeko(f, before, SEEK_SET), 0);
		assert_non_null(fgets(line, sizeof(line), f));
		keep += (off_t)strlen(line);
		fclose(f);
		assert_non_null(strstr(line, "\"add\""));
		assert_int_equal(truncate(path, keep), 0);
	}
	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(es.n, 2);
	assert_false(es.e[0].retired);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 1);
	assert_string_equal(name, "alpha@2");
	assert_int_equal(es.n, 2);
	assert_true(es.e[0].retired);
	assert_string_equal(es.e[0].why, "replaced by alpha@2");
	assert_false(es.e[1].retired);
	/* once more: nothing to do */
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 1);
	/* a retired version is no add to repeat */
	assert_int_equal(league_entries_retire(&es, 1, "by its author", err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "league return DIR alpha@2"));
	assert_int_equal(es.n, 2);
	league_entries_release(&es);
}

/* The file's bots are entered once; one taken out of the file is retired. */
static void file_bots_declared(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es;
	char *argv[3], err[1024];
	struct config_bot bots[2] = { bot_of(fx, "a", argv), bot_of(fx, "b", argv) };
	struct config cfg = { .bots = bots, .nbots = 2 };
	char *anchors[1] = { "b" }, *missing[1] = { "no-such-bundled-bot" };

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_declare(&es, &cfg, anchors, 1, err, sizeof(err)), 2);
	assert_true(es.e[0].declared && !es.e[0].anchor);
	assert_true(es.e[1].declared && es.e[1].anchor);
	assert_int_equal(league_entries_declare(&es, &cfg, anchors, 1, err, sizeof(err)), 0);
	cfg.nbots = 1;
	assert_int_equal(league_entries_declare(&es, &cfg, NULL, 0, err, sizeof(err)), 1);
	assert_true(es.e[1].retired);
	assert_string_equal(es.e[1].why, "removed from league.jsonc");
	assert_int_equal(league_entries_declare(&es, &cfg, missing, 1, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "neither a bot of league.jsonc nor a bundled bot"));
	league_entries_release(&es);
}

/* A suspended declared bot whose command is fixed in league.jsonc plays again as its next
 * version; every change is announced. */
static void fixed_command_taken(void **state)
{
	struct fixture *fx = *state;
	struct league_entries es;
	char *argv[3], *fixed[4], err[1024], *text = NULL;
	struct config_bot bot = bot_of(fx, "a", argv);
	struct config cfg = { .bots = &bot, .nbots = 1 };
	unsigned char *mark;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_int_equal(league_entries_open(&es, fx->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_declare(&es, &cfg, NULL, 0, err, sizeof(err)), 1);
	assert_int_equal(league_entries_suspend(&es, 0, "3 games with a start fault", err,
						sizeof(err)), 0);
	/* nothing edited: it stays suspended */
	assert_int_equal(league_entries_declare(&es, &cfg, NULL, 0, err, sizeof(err)), 0);
	assert_true(es.e[0].suspended);
	fixed[0] = argv[0];
	fixed[1] = argv[1];
	fixed[2] = "--fixed";
	fixed[3] = NULL;
	bot.argv = fixed;
	mark = league_entries_mark(&es);
	assert_int_equal(league_entries_declare(&es, &cfg, NULL, 0, err, sizeof(err)), 1);
	assert_int_equal(es.n, 2);
	assert_string_equal(es.e[1].name, "a@2");
	assert_false(es.e[1].suspended || es.e[1].retired);
	assert_true(es.e[0].retired);
	league_entries_announce(&es, mark, 1, out);
	fclose(out);
	assert_string_equal(text, "league: \"a@2\" entered from league.jsonc, the next version "
				  "of a, which is retired\n");
	free(text);
	free(mark);
	league_entries_release(&es);
}

static void config_errors_placed(void **state)
{
	struct fixture *fx = *state;
	struct league_config lc;
	char path[PATH_MAX], err[CONFIG_ERR_MAX];

	snprintf(path, sizeof(path), "%s/%s", fx->dir, LEAGUE_CONFIG_FILE);
	write_text(path, "w", "{\n  \"name\": \"l\",\n  \"bots\": [],\n  \"deals\": 3,\n"
		   "  \"league\": { \"flor\": 2, \"anchors\": { \"x\": \"high\" } }\n}\n");
	assert_int_equal(league_config_load(fx->dir, &lc, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "league.jsonc:4:12: deals: not a key of a league"));
	assert_non_null(strstr(err, "league.jsonc:5:15: league.flor: unknown key; did you mean "
				    "\"floor\"?"));
	assert_non_null(strstr(err, "league.jsonc:5:44: league.anchors.x: expected"));
	write_text(path, "w", "{ \"name\": \"l\", \"bots\": [], \"players\": 3,\n"
		   "  \"league\": { \"floor\": 2, \"anchors\": { \"skipbo-hard\": 50 },"
		   " \"max_games\": 100, \"stop_when_separated\": false } }\n");
	assert_int_equal(league_config_load(fx->dir, &lc, err, sizeof(err)), 0);
	assert_int_equal(lc.base.players, 3);
	assert_int_equal(lc.floor_deals, 2);
	assert_int_equal(lc.max_games, 100);
	assert_int_equal(lc.suspend_after, 3);
	assert_false(lc.stop_when_separated);
	assert_int_equal(lc.nanchors, 1);
	assert_string_equal(lc.anchors[0], "skipbo-hard");
	assert_true(lc.anchor_elo[0] == 50);
	league_config_release(&lc);
	/* without "anchors", the reference bots */
	write_text(path, "w", "{ \"name\": \"l\", \"bots\": [] }\n");
	assert_int_equal(league_config_load(fx->dir, &lc, err, sizeof(err)), 0);
	assert_int_equal(lc.nanchors, 3);
	assert_string_equal(lc.anchors[2], "skipbo-hard");
	assert_true(lc.anchor_elo[2] == LEAGUE_ELO_HARD);
	assert_true(lc.stop_when_separated);
	league_config_release(&lc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(versions_are_linked, setup, teardown),
		cmocka_unit_test_setup_teardown(names_are_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(torn_line_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(torn_line_of_a_crash_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(retire_returned, setup, teardown),
		cmocka_unit_test_setup_teardown(add_again_after_crash, setup, teardown),
		cmocka_unit_test_setup_teardown(file_bots_declared, setup, teardown),
		cmocka_unit_test_setup_teardown(fixed_command_taken, setup, teardown),
		cmocka_unit_test_setup_teardown(config_errors_placed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
