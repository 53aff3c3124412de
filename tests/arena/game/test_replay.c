/*
 * test_replay.c - replays of real games re-check with the engine, and any
 * tampering (deck, a move, the result, a cut-off log) is caught and named.
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

#include <cjson/cJSON.h>

#include "pool.h"
#include "referee.h"
#include "replay.h"
#include "replay_file.h"

static char *good_argv[] = { BADBOT_PATH, "good", NULL };
static char *illegal_argv[] = { BADBOT_PATH, "illegal", NULL };

/* Play one game (or match) of n bots and return its replay text (malloc'ed);
 * with paths, also write it to each with replay_write_file(). */
static char *play_replay_to(char **argvs[], int n, int stock, int partnership, int match,
			    const char *const *paths)
{
	static const char *const names[] = { "p0", "p1", "p2", "p3", "p4", "p5" };
	struct bot_spec specs[ENGINE_MAX_PLAYERS] = { 0 };
	struct pool_config pc = { 0 };
	struct referee_setup setup = { 0 };
	struct referee_outcome out;
	struct replay_info info;
	struct pool *pool;
	struct jsonw w;
	char err[256], *text;

	for (int i = 0; i < n; i++)
		specs[i] = (struct bot_spec){ .name = names[i], .argv = argvs[i], .cpu = -1 };
	pc = (struct pool_config){ specs, (size_t)n, -1, 2000, NULL };
	assert_int_equal(pool_new(&pc, &pool), 0);
	setup.id = "r";
	setup.rules = (struct game_rules){ n, stock, partnership, n - 1, 99 };
	setup.match = match;
	setup.move_ms = 1000;
	setup.game_ms = 10000;
	for (int i = 0; i < n; i++)
		assert_int_equal(pool_acquire(pool, (size_t)i, &setup.seats[i]), 0);
	assert_int_equal(referee_play(&setup, &out, err, sizeof(err)), 0);
	info = (struct replay_info){ "r", names, 1000, 10000, &out };
	jsonw_init(&w);
	assert_int_equal(replay_format(&w, &info), 0);
	text = strdup(w.data);
	jsonw_release(&w);
	for (; paths && *paths; paths++) {
		jsonw_init(&w);
		assert_int_equal(replay_write_file(*paths, &info, &w), 0);
		jsonw_release(&w);
	}
	referee_outcome_release(&out);
	pool_free(pool);
	return text;
}

static char *play_replay(char **argvs[], int n, int stock, int partnership, int match)
{
	return play_replay_to(argvs, n, stock, partnership, match, NULL);
}

static void expect_ok(const char *text)
{
	char err[512] = "";
	int ret = replay_check(text, strlen(text), NULL, err, sizeof(err));

	if (ret != 0)
		fail_msg("replay should re-check: %s", err);
}

static void expect_mismatch(cJSON *doc, const char *needle)
{
	char *text = cJSON_PrintUnformatted(doc), err[512] = "";
	int ret = replay_check(text, strlen(text), NULL, err, sizeof(err));

	free(text);
	if (ret != 1 || !strstr(err, needle))
		fail_msg("expected a mismatch naming \"%s\", got %d: \"%s\"", needle, ret, err);
}

static void test_good_game_rechecks(void **state)
{
	char **argvs[] = { good_argv, good_argv };
	char *text = play_replay(argvs, 2, 5, 0, 0);
	FILE *devnull = fopen("/dev/null", "w");
	char err[256];

	(void)state;
	expect_ok(text);
	/* printing turn by turn does not change the verdict */
	assert_int_equal(replay_check(text, strlen(text), devnull, err, sizeof(err)), 0);
	fclose(devnull);
	free(text);
}

static void test_fault_game_rechecks(void **state)
{
	char **argvs[] = { good_argv, illegal_argv };
	char *text = play_replay(argvs, 2, 5, 0, 0);

	(void)state;
	assert_non_null(strstr(text, "\"type\":\"removed\",\"seat\":1,\"fault\":\"illegal\""));
	expect_ok(text);
	free(text);
}

/* A result object with "reason" moved to the front, as replays were written
 * before the result fragment had one writer (result_json.h). */
static void reason_first(cJSON *result)
{
	cJSON *reason = cJSON_DetachItemFromObjectCaseSensitive(result, "reason");

	assert_non_null(reason);
	assert_true(cJSON_InsertItemInArray(result, 0, reason));
}

static void test_result_key_order(void **state)
{
	char **argvs[] = { good_argv, illegal_argv };
	char *text = play_replay(argvs, 2, 5, 0, 0), *old;
	cJSON *doc = cJSON_Parse(text);

	(void)state;
	/* the games.jsonl record's order: winners, then reason (record.h) */
	assert_non_null(strstr(text, "\"result\":{\"winners\":[0],\"reason\":\"forfeit\",\"placings\":"));
	assert_null(strstr(text, "\"result\":{\"reason\""));
	/* a replay written with the older order still re-checks */
	assert_non_null(doc);
	reason_first(cJSON_GetObjectItem(doc, "result"));
	reason_first(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "games"), 0),
					 "result"));
	old = cJSON_PrintUnformatted(doc);
	assert_non_null(strstr(old, "\"result\":{\"reason\":\"forfeit\",\"winners\":[0],"));
	expect_ok(old);
	free(old);
	cJSON_Delete(doc);
	free(text);
}

static void test_match_and_partnership_recheck(void **state)
{
	char **two[] = { good_argv, good_argv };
	char **four[] = { good_argv, good_argv, good_argv, good_argv };
	char *match = play_replay(two, 2, 2, 0, 1);
	char *teams = play_replay(four, 4, 3, 1, 0);

	(void)state;
	assert_non_null(strstr(match, "\"game\":2,")); /* R9: more than one game */
	expect_ok(match);
	expect_ok(teams);
	free(match);
	free(teams);
}

static cJSON *events_of(cJSON *doc)
{
	return cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "games"), 0), "events");
}

static void test_tampering_is_named(void **state)
{
	char **argvs[] = { good_argv, good_argv };
	char *text = play_replay(argvs, 2, 5, 0, 0);
	cJSON *doc, *game, *ev, *deck, *scores;
	int n;

	(void)state;
	/* a different deck */
	doc = cJSON_Parse(text);
	game = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "games"), 0);
	deck = cJSON_GetObjectItem(game, "deck");
	cJSON_SetNumberValue(cJSON_GetArrayItem(deck, 5),
			     ((cJSON_GetArrayItem(deck, 5)->valueint + 1) % 13));
	expect_mismatch(doc, "deck card 5");
	cJSON_Delete(doc);

	/* a discard of another card: the engine deals differently */
	doc = cJSON_Parse(text);
	cJSON_ArrayForEach(ev, events_of(doc)) {
		if (!strcmp(cJSON_GetObjectItem(ev, "type")->valuestring, "discard")) {
			cJSON_SetNumberValue(cJSON_GetObjectItem(ev, "card"), 13);
			break;
		}
	}
	expect_mismatch(doc, "event");
	cJSON_Delete(doc);

	/* a draw of a card that was not on top */
	doc = cJSON_Parse(text);
	cJSON_ArrayForEach(ev, events_of(doc)) {
		if (!strcmp(cJSON_GetObjectItem(ev, "type")->valuestring, "draw")) {
			cJSON *card = cJSON_GetObjectItem(ev, "card");

			cJSON_SetNumberValue(card, ((card->valueint + 1) % 13));
			break;
		}
	}
	expect_mismatch(doc, "differs from the engine's draw in \"card\"");
	cJSON_Delete(doc);

	/* a result that does not follow from the moves */
	doc = cJSON_Parse(text);
	game = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "games"), 0);
	scores = cJSON_GetObjectItem(cJSON_GetObjectItem(game, "result"), "scores");
	cJSON_SetNumberValue(cJSON_GetArrayItem(scores, 0), 999);
	expect_mismatch(doc, "result \"scores\"");
	cJSON_Delete(doc);

	/* a log cut short */
	doc = cJSON_Parse(text);
	n = cJSON_GetArraySize(events_of(doc));
	for (int i = 0; i < 4; i++)
		cJSON_DeleteItemFromArray(events_of(doc), n - 1 - i);
	expect_mismatch(doc, "stops before the game ends");
	cJSON_Delete(doc);
	free(text);
}

/* text with the first (or, with last, the last) occurrence of from replaced by to; malloc'ed. */
static char *replace(const char *text, const char *from, const char *to, int last)
{
	const char *at = strstr(text, from), *next;
	char *out;

	assert_non_null(at);
	while (last && (next = strstr(at + 1, from)) != NULL)
		at = next;
	out = malloc(strlen(text) + strlen(to) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* ret and a needle in err, for a changed replay text. */
static void expect_refused(char *text, int want, const char *needle)
{
	char err[512] = "";
	int ret = replay_check(text, strlen(text), NULL, err, sizeof(err));

	if (ret != want || !strstr(err, needle))
		fail_msg("expected %d naming \"%s\", got %d: \"%s\"", want, needle, ret, err);
	free(text);
}

/* Numbers are read strictly: 7.0, 1e400 or a huge value is named, never cast. */
static void test_strict_numbers(void **state)
{
	char **argvs[] = { good_argv, good_argv };
	char *text = play_replay(argvs, 2, 5, 0, 0), first[16];
	const char *deck = strstr(text, "\"deck\":[");
	int card;

	(void)state;
	assert_non_null(deck);
	assert_int_equal(sscanf(deck, "\"deck\":[%d", &card), 1);
	snprintf(first, sizeof(first), "\"deck\":[%d,", card);
	{
		char to[32];

		snprintf(to, sizeof(to), "\"deck\":[%d.0,", card);
		expect_refused(replace(text, first, to, 0), 1, "deck[0]: expected an integer from 0 "
			       "to 12, found");
	}
	expect_refused(replace(text, first, "\"deck\":[1e400,", 0), 1, "found 1e400");
	{
		/* the last "scores" is the whole record's */
		const char *at = strstr(text, "\"scores\":["), *next;
		char from[32];
		int score;

		while ((next = strstr(at + 1, "\"scores\":[")) != NULL)
			at = next;
		assert_int_equal(sscanf(at, "\"scores\":[%d", &score), 1);
		snprintf(from, sizeof(from), "\"scores\":[%d,", score);
		expect_refused(replace(text, from, "\"scores\":[1e400,", 1), 1,
			       "scores[0]: expected an integer");
		expect_refused(replace(text, from, "\"scores\":[-9223372036854775809,", 1), 1,
			       "scores[0]");
		expect_refused(replace(text, from, "\"scores\":[70.0,", 1), 1, "found 70.0");
	}
	expect_refused(replace(text, "\"turns\":", "\"turns\":4294967296.5,\"x\":", 1), 1,
		       "turns/moves");
	expect_refused(replace(text, "\"dealer\":1,", "\"dealer\":1.0,", 0), 1,
		       "dealer: expected an integer from 0 to 1, found 1.0");
	expect_refused(replace(text, "\"seed\":\"", "\"seed\":\"x", 0), 1,
		       "seed: expected a decimal string");
	/* a key twice is not a replay at all */
	expect_refused(replace(text, "\"players\":2,", "\"players\":2,\"players\":3,", 0), -EINVAL,
		       "duplicate key \"players\"");
	expect_refused(replace(text, "\"type\":\"draw\",", "\"type\":\"draw\",\"type\":\"pass\",",
			       0), -EINVAL, "duplicate key \"type\"");
	free(text);
}

/* A replay written compressed and plain reads back as the same text; a
 * damaged compressed file is refused, not taken for text. */
static void test_compressed_file(void **state)
{
	char dir[] = "/tmp/test_replay.XXXXXX", zst[64], plain[64], cmd[96];
	const char *paths[] = { zst, plain, NULL };
	char **argvs[] = { good_argv, good_argv };
	char *text, *a, *b;
	size_t alen, blen, tlen;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(zst, sizeof(zst), "%s/r.json.zst", dir);
	snprintf(plain, sizeof(plain), "%s/r.json", dir);
	text = play_replay_to(argvs, 2, 30, 0, 0, paths);
	tlen = strlen(text);
	a = replay_read_file(zst, &alen);
	b = replay_read_file(plain, &blen);
	assert_non_null(a);
	assert_non_null(b);
	/* the file is the document and a newline, whichever way it was written */
	assert_int_equal(alen, tlen + 1);
	assert_int_equal(blen, tlen + 1);
	assert_memory_equal(a, text, tlen);
	assert_string_equal(a, b);
	expect_ok(a);
	free(a);
	free(b);
	f = fopen(zst, "r+");
	assert_non_null(f);
	assert_int_equal(fgetc(f), 0x28); /* zstd's magic number, not the JSON */
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true(ftell(f) < (long)tlen / 4);
	/* cut in the middle: the frame is damaged */
	assert_int_equal(ftruncate(fileno(f), ftell(f) / 2), 0);
	fclose(f);
	errno = 0;
	assert_null(replay_read_file(zst, &alen));
	assert_int_equal(errno, EBADMSG);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_not_a_replay(void **state)
{
	char err[256];

	(void)state;
	assert_true(replay_check("{\"x\":1}", 7, NULL, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "not a replay"));
	assert_true(replay_check("nope", 4, NULL, err, sizeof(err)) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_game_rechecks),
		cmocka_unit_test(test_fault_game_rechecks),
		cmocka_unit_test(test_result_key_order),
		cmocka_unit_test(test_match_and_partnership_recheck),
		cmocka_unit_test(test_tampering_is_named),
		cmocka_unit_test(test_strict_numbers),
		cmocka_unit_test(test_compressed_file),
		cmocka_unit_test(test_not_a_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
