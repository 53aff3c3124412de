/*
 * test_desk_state.c - the lease desk (desk.h) on what it shows and keeps
 * back, with the games of desk_bench.h: a private bot's deals and bundle
 * never reach an untrusted worker and do reach a trusted one, and the
 * workers' document read from workers.jsonl by another process is the one
 * the desk itself gives.
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

#include "desk.h"
#include "desk_bench.h"

/* private_entry: "a" only, or every bot. */
static bool a_private(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "a") == 0;
}

static bool all_private(void *ctx, const char *name)
{
	(void)ctx, (void)name;
	return true;
}

/* The games of lease seating bot name, and the lease's bots called name. */
static int seating(const cJSON *lease, const char *name)
{
	const cJSON *g, *seat, *bot;
	int n = 0;

	cJSON_ArrayForEach(g, lease_games(lease))
		cJSON_ArrayForEach(seat, cJSON_GetObjectItemCaseSensitive(g, "seats"))
			n += strcmp(cJSON_GetStringValue(seat), name) == 0;
	cJSON_ArrayForEach(bot, cJSON_GetObjectItemCaseSensitive(lease, "bots"))
		n += strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(bot, "name")),
			    name) == 0;
	return n;
}

/*
 * An untrusted worker is leased only the deals without the private bot, those
 * handed again included; the others wait for a trusted worker, unparked.
 */
static void test_private_bot_to_trusted_only(void **state)
{
	struct desk_settings set = { 90, 60, 0.0, a_private, NULL };
	struct bench b;
	cJSON *lease, *st;
	char err[256];
	int untrusted = 0, games;

	(void)state;
	bench_open_with(&b, &set);
	/* more asks than the run has deal groups: every group is offered to it */
	for (uint64_t k = 0; k < b.run.groups + 2; k++) {
		if (ask(&b, "w1", false, 1, &lease) != 1)
			continue;
		assert_int_equal(seating(lease, "a"), 0);
		untrusted += cJSON_GetArraySize(lease_games(lease));
		cJSON_Delete(lease);
	}
	/* three bots two at a table: one table of three leaves "a" out */
	assert_int_equal(untrusted, (int)(b.run.groups / 3 * GROUP));
	/* the trusted worker gets the others, handed again */
	assert_int_equal(ask(&b, "w2", true, 8, &lease), 1);
	games = cJSON_GetArraySize(lease_games(lease));
	assert_int_equal(games, (int)(b.run.groups * 2 / 3 * GROUP));
	/* each game seats it once, and its bots hold it */
	assert_int_equal(seating(lease, "a"), games + 1);
	/* given back, they go to no untrusted worker either */
	assert_int_equal(desk_release(b.desk, "w2", lease_id(lease), "stopping", err,
				      sizeof(err)), 0);
	cJSON_Delete(lease);
	assert_int_equal(ask(&b, "w1", false, 8, &lease), 0);
	assert_int_equal(ask(&b, "w3", true, 8, &lease), 1);
	assert_int_equal(cJSON_GetArraySize(lease_games(lease)), games);
	cJSON_Delete(lease);
	st = desk_state(b.desk);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(st, "parked")), 0);
	cJSON_Delete(st);
	assert_false(journal_has(&b, "\"parked\""));
	bench_close(&b);
}

/* A private bot's bundle: to a trusted worker, never to an untrusted one. */
static void test_private_bundle_refused(void **state)
{
	struct desk_settings set = { 90, 60, 0.0, all_private, NULL };
	struct bench b;
	cJSON *lease;
	const char *sha;
	char path[512];

	(void)state;
	bench_open_with(&b, &set);
	assert_int_equal(ask(&b, "w1", false, 8, &lease), 0);
	assert_int_equal(ask(&b, "w2", true, 1, &lease), 1);
	sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(lease, "bots"), 0), "bundle"));
	assert_non_null(sha);
	assert_int_equal(desk_bundle(b.desk, sha, false, path, sizeof(path)), -EPERM);
	assert_int_equal(desk_bundle(b.desk, sha, true, path, sizeof(path)), 0);
	assert_int_equal(access(path, R_OK), 0);
	cJSON_Delete(lease);
	bench_close(&b);
}

/* The document without what moves with the clock. */
static void timeless(cJSON *doc)
{
	cJSON *w;

	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(doc, "workers")) {
		cJSON_DeleteItemFromObjectCaseSensitive(w, "games_per_second");
		cJSON_DeleteItemFromObjectCaseSensitive(w, "last_heard");
	}
}

static cJSON *read_state(const struct bench *b, unsigned expire_seconds)
{
	char err[512];
	cJSON *doc = NULL;

	if (desk_read_state(b->dir, expire_seconds, &doc, err, sizeof(err)) != 0)
		fail_msg("desk_read_state: %s", err);
	return doc;
}

/*
 * Workers done, holding a lease, failing a deal until it parks, suspended:
 * status's document from workers.jsonl is the desk's own, and a lease silent
 * for expire_seconds is held no more.
 */
static void test_state_read_back(void **state)
{
	struct bench b;
	cJSON *lease, *held, *mine, *back;
	char err[512], path[256];
	FILE *f;
	int lines = 0, c;

	(void)state;
	/* no worker ever asked */
	assert_int_equal(desk_read_state(top, 60, &back, err, sizeof(err)), -ENOENT);
	bench_open(&b, 60);
	assert_int_equal(ask(&b, "w1", false, 1, &lease), 1);
	play_back(&b, "w1", lease);
	cJSON_Delete(lease);
	assert_int_equal(ask(&b, "w2", true, 1, &held), 1);
	for (int k = 0; k < DESK_FAILURES_PARK; k++) {
		assert_int_equal(ask(&b, "w3", false, 1, &lease), 1);
		assert_int_equal(desk_release(b.desk, "w3", lease_id(lease), "the bundle is torn",
					      err, sizeof(err)), 0);
		cJSON_Delete(lease);
	}
	assert_int_equal(desk_suspend(b.desk, "w1", "forged replays", err, sizeof(err)), 0);
	mine = desk_state(b.desk);
	back = read_state(&b, 60);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(mine, "parked")), 1);
	assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(mine,
				 "leased_games")), GROUP);
	assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(back, "workers"), 0), "last_heard")));
	timeless(mine);
	timeless(back);
	if (!cJSON_Compare(mine, back, true)) {
		char *a = cJSON_Print(mine), *r = cJSON_Print(back);

		fail_msg("the desk's state:\n%s\nread back:\n%s", a, r);
	}
	cJSON_Delete(back);
	/* silent for longer than 0 s: no lease is held */
	back = read_state(&b, 0);
	assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(back,
				 "leased_games")), 0);
	cJSON_Delete(back);
	cJSON_Delete(mine);
	cJSON_Delete(held);
	/* a damaged line is named */
	snprintf(path, sizeof(path), "%s/%s", b.dir, DESK_FILE);
	assert_non_null(f = fopen(path, "r+"));
	while ((c = fgetc(f)) != EOF)
		lines += c == '\n';
	fseek(f, 0, SEEK_END);
	fputs("{\"event\": \"lease\"}\n", f);
	fclose(f);
	assert_int_equal(desk_read_state(b.dir, 60, &back, err, sizeof(err)), -EBADMSG);
	snprintf(path, sizeof(path), "%s\" line %d:", DESK_FILE, lines + 1);
	if (!strstr(err, path))
		fail_msg("\"%s\" not in: %s", path, err);
	bench_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_private_bot_to_trusted_only),
		cmocka_unit_test(test_private_bundle_refused),
		cmocka_unit_test(test_state_read_back),
	};

	return cmocka_run_group_tests(tests, play_first, remove_all);
}
