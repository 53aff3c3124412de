/*
 * test_lease_source.c - a lease read (lease.h) and its games handed out as
 * the tournament takes them (lease_source.h): rotation phases with fresh
 * processes, none with reused ones, the host's ids, seeds and told ids kept;
 * leases that are not refused by what is wrong in them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lease.h"
#include "lease_source.h"

/* Three deals of two rotations, listed rotation 1 first, to be put in phases. */
static const char games[] =
	"[{\"index\": 11, \"id\": \"t0000-d0002-r1\", \"told\": \"g0000000000000005\", "
	"\"seed\": \"00000000000000c3\", \"table\": 0, \"deal\": 2, \"rotation\": 1, "
	"\"seats\": [\"b\", \"a\"]},"
	"{\"index\": 7, \"id\": \"t0000-d0000-r1\", \"told\": \"g0000000000000001\", "
	"\"seed\": \"00000000000000c1\", \"table\": 0, \"deal\": 0, \"rotation\": 1, "
	"\"seats\": [\"b\", \"a\"]},"
	"{\"index\": 6, \"id\": \"t0000-d0000-r0\", \"told\": \"g0000000000000000\", "
	"\"seed\": \"00000000000000c1\", \"table\": 0, \"deal\": 0, \"rotation\": 0, "
	"\"seats\": [\"a\", \"b\"]},"
	"{\"index\": 9, \"id\": \"t0000-d0001-r1\", \"told\": \"g0000000000000003\", "
	"\"seed\": \"00000000000000c2\", \"table\": 0, \"deal\": 1, \"rotation\": 1, "
	"\"seats\": [\"b\", \"a\"]},"
	"{\"index\": 10, \"id\": \"t0000-d0002-r0\", \"told\": \"g0000000000000004\", "
	"\"seed\": \"00000000000000c3\", \"table\": 0, \"deal\": 2, \"rotation\": 0, "
	"\"seats\": [\"a\", \"b\"]},"
	"{\"index\": 8, \"id\": \"t0000-d0001-r0\", \"told\": \"g0000000000000002\", "
	"\"seed\": \"00000000000000c2\", \"table\": 0, \"deal\": 1, \"rotation\": 0, "
	"\"seats\": [\"a\", \"b\"]}]";

static char *lease_text(const char *processes, const char *game_list)
{
	char *text;

	assert_true(asprintf(&text,
		"{\"lease\": \"L1\", \"expires_in\": 90, \"tournament\": {\"name\": \"t\", "
		"\"players\": 2, \"deals\": 1, \"seed\": \"7\", \"sandbox\": \"off\", "
		"\"processes\": \"%s\", \"league\": {\"floor\": 1}}, \"bots\": ["
		"{\"name\": \"a\", \"command\": [\"%s\", \"good\"], \"cwd\": \"/\", \"bundle\": null},"
		"{\"name\": \"b\", \"command\": [\"%s\", \"good\"], \"cwd\": \"/\"}], "
		"\"games\": %s}", processes, BADBOT_PATH, BADBOT_PATH, game_list) > 0);
	return text;
}

struct played {
	struct lease lease;
	struct config cfg;
	struct lease_source src;
};

static void open_lease(struct played *p, const char *processes)
{
	char err[CONFIG_ERR_MAX], missing[256], *text = lease_text(processes, games);

	assert_int_equal(lease_parse(text, strlen(text), &p->lease, err, sizeof(err)), 0);
	free(text);
	assert_string_equal(p->lease.id, "L1");
	assert_int_equal(p->lease.expires_in, 90);
	assert_string_equal(p->lease.sandbox, "off");
	if (lease_config(&p->lease, "/nonexistent", &p->cfg, missing, sizeof(missing), err,
			 sizeof(err)) < 0)
		fail_msg("lease_config: %s", err);
	assert_int_equal(p->cfg.nbots, 2);
	assert_int_equal(lease_source_init(&p->src, &p->lease, &p->cfg, err, sizeof(err)), 0);
}

static void close_lease(struct played *p)
{
	lease_source_release(&p->src);
	config_release(&p->cfg);
	lease_release(&p->lease);
}

static void phases_with_fresh_processes(void **state)
{
	const struct tournament_source *s;
	struct schedule_game g;
	struct played p;

	(void)state;
	open_lease(&p, "fresh");
	s = &p.src.source;
	assert_int_equal(s->games, 6);
	for (uint32_t r = 0; r < 2; r++) {
		for (uint32_t d = 0; d < 3; d++) {
			char id[32], told[32];

			assert_int_equal(s->next(s->ctx, &g), 1);
			snprintf(id, sizeof(id), "t0000-d%04u-r%u", d, r);
			snprintf(told, sizeof(told), "g%016x", 2 * d + r);
			assert_string_equal(g.id, id);
			assert_string_equal(g.told, told);
			assert_int_equal(g.index, 6 + 2 * d + r);
			assert_int_equal(g.seed, 0xc1 + d);
			assert_int_equal(g.rotation, r);
			/* seat 0 holds a at rotation 0, b at rotation 1 */
			assert_int_equal(g.bots[0], (int)r);
			assert_int_equal(g.bots[1], 1 - (int)r);
			assert_int_equal(g.bots[2], -1);
		}
		/* the phase's games handed out: the next waits for the barrier */
		assert_int_equal(s->next(s->ctx, &g), r == 0 ? TOURNAMENT_SOURCE_LATER : 0);
		assert_int_equal(s->next(s->ctx, &g), r == 0 ? TOURNAMENT_SOURCE_LATER : 0);
		s->open_phase(s->ctx);
	}
	close_lease(&p);
}

static void no_barrier_with_reused_processes(void **state)
{
	const struct tournament_source *s;
	struct schedule_game g;
	struct played p;
	int n = 0;

	(void)state;
	open_lease(&p, "reuse");
	s = &p.src.source;
	/* the run has no barrier: a later phase must not end it */
	while (s->next(s->ctx, &g) == 1)
		n++;
	assert_int_equal(n, 6);
	close_lease(&p);
}

/* A lease with one game, wrong in one way: refused, the reason naming it. */
static void refused(const char *game, const char *why)
{
	char list[1024], err[512], *text;
	struct lease l;

	snprintf(list, sizeof(list), "[%s]", game);
	text = lease_text("fresh", list);
	assert_int_equal(lease_parse(text, strlen(text), &l, err, sizeof(err)), -EBADMSG);
	if (!strstr(err, why))
		fail_msg("\"%s\" does not say \"%s\"", err, why);
	lease_release(&l);
	free(text);
}

static void bad_leases_refused(void **state)
{
	(void)state;
	refused("{\"index\": 1, \"id\": \"t0-d0-r0\", \"told\": \"g\\\"; rm\", \"seed\": "
		"\"00000000000000c1\", \"table\": 0, \"deal\": 0, \"rotation\": 0, "
		"\"seats\": [\"a\", \"b\"]}", "\"told\"");
	refused("{\"index\": 1, \"id\": \"t0-d0-r0\", \"told\": \"g1\", \"seed\": \"c1\", "
		"\"table\": 0, \"deal\": 0, \"rotation\": 0, \"seats\": [\"a\", \"b\"]}", "seed");
	refused("{\"index\": 1, \"id\": \"t0-d0-r0\", \"told\": \"g1\", \"seed\": "
		"\"00000000000000c1\", \"table\": 0, \"deal\": 0, \"rotation\": 0, "
		"\"seats\": [\"a\", \"zed\"]}", "none of the lease's bots");
	refused("{\"index\": -1, \"id\": \"t0-d0-r0\", \"told\": \"g1\", \"seed\": "
		"\"00000000000000c1\", \"table\": 0, \"deal\": 0, \"rotation\": 0, "
		"\"seats\": [\"a\", \"b\"]}", "\"index\"");
}

/* A lease of one game between bot a (its JSON object's keys after its name) and
 * badbot b, read: 0 or lease_config's code, missing and cfg filled in. */
static int one_game(const char *bot_a, struct config *cfg, char *missing, size_t size)
{
	char err[CONFIG_ERR_MAX], *text;
	struct lease l;
	int ret;

	assert_true(asprintf(&text,
		"{\"lease\": \"L2\", \"expires_in\": 9, \"tournament\": {\"name\": \"t\", "
		"\"players\": 2}, \"bots\": [{\"name\": \"a\", %s}, {\"name\": \"b\", "
		"\"command\": [\"%s\"], \"cwd\": \"/\"}], \"games\": [{\"index\": 1, \"id\": "
		"\"x\", \"told\": \"g1\", \"seed\": \"00000000000000c1\", \"table\": 0, "
		"\"deal\": 0, \"rotation\": 0, \"seats\": [\"a\", \"b\"]}]}", bot_a,
		BADBOT_PATH) > 0);
	assert_int_equal(lease_parse(text, strlen(text), &l, err, sizeof(err)), 0);
	ret = lease_config(&l, "/nonexistent", cfg, missing, size, err, sizeof(err));
	if (ret < 0 && ret != -ENOENT)
		print_message("lease_config: %s\n", err);
	lease_release(&l);
	free(text);
	return ret;
}

static void missing_program_named(void **state)
{
	struct config cfg;
	char missing[256];

	(void)state;
	assert_int_equal(one_game("\"command\": [\"/nonexistent/java\", \"-jar\", \"a.jar\"], "
				  "\"cwd\": \"/\", \"bundle\": null", &cfg, missing,
				  sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "/nonexistent/java");
}

/* env and limits as arrays (WORKERS.md's example) read as the tournament file's objects. */
static void array_env_and_limits(void **state)
{
	char bot[512], missing[256];
	struct config cfg;

	(void)state;
	snprintf(bot, sizeof(bot), "\"command\": [\"%s\"], \"cwd\": \"/\", \"env\": "
		 "[\"LEVEL=3\"], \"limits\": [10, 512, 64, 16], \"bundle\": null", BADBOT_PATH);
	assert_int_equal(one_game(bot, &cfg, missing, sizeof(missing)), 0);
	assert_string_equal(cfg.bots[0].env[0], "LEVEL=3");
	assert_null(cfg.bots[0].env[1]);
	assert_int_equal(cfg.bots[0].limits.cpu_seconds, 10);
	assert_int_equal(cfg.bots[0].limits.memory_mb, 512);
	assert_int_equal(cfg.bots[0].limits.open_files, 64);
	assert_int_equal(cfg.bots[0].limits.processes, 16);
	config_release(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(phases_with_fresh_processes),
		cmocka_unit_test(no_barrier_with_reused_processes),
		cmocka_unit_test(bad_leases_refused),
		cmocka_unit_test(missing_program_named),
		cmocka_unit_test(array_env_and_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
