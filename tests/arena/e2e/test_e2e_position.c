/*
 * test_e2e_position.c - a recorded position, shown and played again:
 * `replay --move N` / `--turn N` print the table the engine reaches by
 * replaying the recorded decisions here, independently of the arena's
 * reader; `replay --render` shows a table at every turn; and
 * `play --from REPLAY --move N` hands the bot at decision N the request of
 * the recorded game (the same view, legal moves, turn and move number), with
 * every event since the deal, as the bot's own requests up to N carried them.
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
#include "engine.h"
#include "render.h"

#define BOT BADBOT_PATH " good"

static char dir[256];

/* Run skipbo-arena in dir; its stdout and stderr (malloc'ed) in *out and *err. */
static int run_capture(const char *const *args, char **out, char **err)
{
	char path[400];
	int status;

	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	unlink(path);
	status = e2e_run(dir, args, 60000, NULL);
	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	*out = e2e_read(path, NULL);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	*err = e2e_read(path, NULL);
	assert_non_null(*out);
	assert_non_null(*err);
	return status;
}

/* A recorded game of two badbots (a long one: 34 turns, 63 decisions), with its transcript. */
static int setup(void **state)
{
	const char *args[] = { "play", "--seed", "11", "--stock", "5", "--log-io", "--replay",
			       "r.json", BOT, BOT, NULL };
	char *out, *err;

	(void)state;
	e2e_tempdir(dir, sizeof(dir), "position");
	assert_int_equal(run_capture(args, &out, &err), 0);
	e2e_write(dir, "r.txt", out);
	e2e_write(dir, "r.log", err);
	free(out);
	free(err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	e2e_remove(dir);
	return 0;
}

static cJSON *read_json(const char *name)
{
	char path[400], *text;
	cJSON *root;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = e2e_read(path, NULL);
	assert_non_null(text);
	root = cJSON_Parse(text);
	assert_non_null(root);
	free(text);
	return root;
}

static int get_int(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	assert_true(cJSON_IsNumber(v));
	return v->valueint;
}

/* The legal move a recorded decision event names, found here from the engine's list. */
static struct move recorded_move(const struct game *g, const cJSON *ev)
{
	static const char *const from[] = { "", "hand", "stock", "discard" };
	const char *type = cJSON_GetObjectItemCaseSensitive(ev, "type")->valuestring;
	struct move legal[ENGINE_MAX_MOVES];
	int n = game_legal_moves(g, legal);

	for (int i = 0; i < n; i++) {
		const struct move *m = &legal[i];

		if (!strcmp(type, "pass") && m->kind == MOVE_PASS)
			return *m;
		if (!strcmp(type, "discard") && m->kind == MOVE_DISCARD &&
		    m->card == get_int(ev, "card") && m->target == get_int(ev, "pile"))
			return *m;
		if (!strcmp(type, "play") && m->kind == MOVE_PLAY &&
		    !strcmp(from[m->source], cJSON_GetObjectItemCaseSensitive(ev, "from")->valuestring) &&
		    m->card == get_int(ev, "card") && m->target == get_int(ev, "to") &&
		    (m->source == SOURCE_HAND || m->owner == get_int(ev, "owner")) &&
		    (m->source != SOURCE_DISCARD || m->pile == get_int(ev, "pile")))
			return *m;
	}
	fail_msg("recorded %s is not among the legal moves", type);
	return legal[0];
}

static int is_decision(const char *type)
{
	return !strcmp(type, "play") || !strcmp(type, "discard") || !strcmp(type, "pass");
}

/*
 * The table `replay` must print at a position: the recorded game dealt here
 * and its decisions applied until stop() says so, rendered from that state.
 */
static char *expected_table(int (*stop)(const struct game *g, long n), long n)
{
	cJSON *root = read_json("r.json");
	const cJSON *game = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "games"), 0);
	const cJSON *bots = cJSON_GetObjectItemCaseSensitive(root, "bots"), *ev;
	struct game_rules rules = { 0 };
	const char *names[ENGINE_MAX_PLAYERS];
	struct render rd;
	struct game *g;
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	int err = 0;

	rules.players = get_int(root, "players");
	rules.stock_size = get_int(game, "stock_size");
	rules.dealer = get_int(game, "dealer");
	rules.seed = strtoull(cJSON_GetObjectItemCaseSensitive(game, "seed")->valuestring, NULL, 10);
	assert_non_null(g = game_new(&rules, &err));
	for (int s = 0; s < rules.players; s++)
		names[s] = cJSON_GetArrayItem(bots, s)->valuestring;
	cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(game, "events")) {
		const char *type = cJSON_GetObjectItemCaseSensitive(ev, "type")->valuestring;
		struct move m;

		if (stop(g, n))
			break;
		if (!is_decision(type))
			continue;
		m = recorded_move(g, ev);
		assert_int_equal(game_apply(g, &m), 0);
	}
	assert_true(stop(g, n));
	assert_non_null(f = open_memstream(&text, &size));
	render_init(&rd, f, names, rules.players);
	render_table(&rd, g);
	fclose(f);
	game_free(g);
	cJSON_Delete(root);
	return text;
}

static int before_move(const struct game *g, long n)
{
	struct game_result res;

	game_result(g, &res);
	return (long)res.moves + 1 == n;
}

static int at_turn(const struct game *g, long n)
{
	struct seat_view v;

	game_view(g, game_to_move(g), &v);
	return (long)v.turn == n;
}


/* The line under a position's header that says how its piles are numbered. */
#define LEGEND "    (building and discard piles 0-3 from the left, as in the protocol; each " \
	"discard pile [bottom .. top])\n"
static void test_replay_move_shows_the_engine_position(void **state)
{
	static const long moves[] = { 1, 12, 40, 63 };
	char arg[16], header[256], *out, *err, *want;

	(void)state;
	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		const char *args[] = { "replay", "--move", arg, "r.json", NULL };

		snprintf(arg, sizeof(arg), "%ld", moves[i]);
		assert_int_equal(run_capture(args, &out, &err), 0);
		want = expected_table(before_move, moves[i]);
		snprintf(header, sizeof(header), "=== game 1, move %ld\n" LEGEND, moves[i]);
		/* the header, the table, then decision N itself, then the verdict */
		assert_true(strncmp(out, header, strlen(header)) == 0);
		assert_true(strncmp(out + strlen(header), want, strlen(want)) == 0);
		assert_true(strncmp(out + strlen(header) + strlen(want), "    seat ", 9) == 0);
		assert_non_null(strstr(out, "r.json: ok\n"));
		assert_null(strstr(out + strlen(header) + strlen(want), "--- turn"));
		free(want);
		free(out);
		free(err);
	}
}

static void test_replay_turn_shows_the_engine_position(void **state)
{
	const char *args[] = { "replay", "--turn", "20", "r.json", NULL };
	char *out, *err, *want;

	(void)state;
	assert_int_equal(run_capture(args, &out, &err), 0);
	want = expected_table(at_turn, 20);
	assert_true(strncmp(out, "=== game 1, turn 20\n" LEGEND, 20 + strlen(LEGEND)) == 0);
	assert_true(strncmp(out + 20 + strlen(LEGEND), want, strlen(want)) == 0);
	assert_non_null(strstr(want, "--- turn 20: seat 1 (badbot-good-2) to move"));
	free(want);
	free(out);
	free(err);
}

/* --render: one table per turn, as `play --render` prints them. */
static void test_replay_render_every_turn(void **state)
{
	const char *args[] = { "replay", "--render", "r.json", NULL };
	const char *play[] = { "play", "--seed", "11", "--stock", "5", "--render", BOT, BOT, NULL };
	char *out, *err, *played, *p;
	int tables = 0;

	(void)state;
	assert_int_equal(run_capture(args, &out, &err), 0);
	free(err);
	for (p = out; (p = strstr(p, "\n--- turn ")) != NULL; p++)
		tables++;
	assert_int_equal(tables, 34);
	assert_non_null(strstr(out, "--- turn 34: seat 1 (badbot-good-2) to move"));
	assert_non_null(strstr(out, "=== game 1 over: stock_emptied after 34 turns"));
	/* the same tables as the game printed when it was played (times aside) */
	assert_int_equal(run_capture(play, &played, &err), 0);
	free(err);
	{
		char *a = strstr(out, "--- turn 34:"), *b = strstr(played, "--- turn 34:");

		assert_non_null(b);
		assert_memory_equal(a, b, (size_t)(strchr(strstr(a, "    seat 1 (badbot-good-2)"), '[') - a));
	}
	free(played);
	free(out);
}

static void test_replay_position_errors(void **state)
{
	const char *late[] = { "replay", "--move", "64", "r.json", NULL };
	const char *both[] = { "replay", "--move", "3", "--turn", "2", "r.json", NULL };
	const char *game2[] = { "replay", "--game", "2", "--turn", "1", "r.json", NULL };
	const char *game_alone[] = { "replay", "--game", "2", "r.json", NULL };
	char *out, *err;

	(void)state;
	assert_int_equal(run_capture(late, &out, &err), 1);
	assert_non_null(strstr(err, "game 1 has no move 64: it has 63 decisions"));
	free(out);
	free(err);
	assert_int_equal(run_capture(both, &out, &err), 2);
	assert_non_null(strstr(err, "one position at a time"));
	free(out);
	free(err);
	assert_int_equal(run_capture(game2, &out, &err), 1);
	assert_non_null(strstr(err, "no game 2: it holds 1"));
	free(out);
	free(err);
	assert_int_equal(run_capture(game_alone, &out, &err), 2);
	assert_non_null(strstr(err, "--game 2: names the game of --turn N or --move N"));
	free(out);
	free(err);
}

/* The requests to seat of a transcript, up to and including move `upto`, parsed: told
 * apart by their view's seat, as a bot's name changes at its hello. */
static size_t requests(const char *log, int seat, long upto, cJSON **out, size_t max)
{
	const char *p = log;
	size_t n = 0;

	while ((p = strstr(p, " <- {")) != NULL && n < max) {
		const char *line = p + 4, *end = strchr(line, '\n');
		cJSON *msg = cJSON_ParseWithLength(line, (size_t)(end - line));
		const cJSON *view = cJSON_GetObjectItemCaseSensitive(msg, "view");

		p = end;
		if (!msg || strcmp(cJSON_GetObjectItemCaseSensitive(msg, "type")->valuestring,
				   "request") || get_int(msg, "move") > upto ||
		    get_int(view, "seat") != seat) {
			cJSON_Delete(msg);
			continue;
		}
		out[n++] = msg;
	}
	return n;
}

/*
 * play --from <name>.json --move N with players badbots, against the game as
 * played (<name>.log, its transcript; <name>.txt, its output): the request to
 * seat for decision N is the recorded one, and the game ends the same.
 */
static void check_from(const char *name, int players, long move, int seat)
{
	char arg[16], replay[64], *out, *err, *played_log, *played_out, path[400];
	const char *result, *end;
	const char *args[] = { "play", "--from", replay, "--move", arg, "--log-io", "--replay",
			       "again.json", BOT, BOT, players > 2 ? BOT : NULL, NULL };
	const char *recheck[] = { "replay", "--quiet", "again.json", NULL };
	cJSON *was[200], *now[200], *events;
	const cJSON *ev;
	size_t nwas, nnow, k = 0;

	snprintf(arg, sizeof(arg), "%ld", move);
	snprintf(replay, sizeof(replay), "%s.json", name);
	assert_int_equal(run_capture(args, &out, &err), 0);
	snprintf(path, sizeof(path), "%s/%s.log", dir, name);
	played_log = e2e_read(path, NULL);
	snprintf(path, sizeof(path), "%s/%s.txt", dir, name);
	played_out = e2e_read(path, NULL);
	nwas = requests(played_log, seat, move, was, 200);
	nnow = requests(err, seat, move, now, 200);
	/* no request for a replayed decision: the first one asks for decision N */
	assert_int_equal(nnow, 1);
	assert_true(nwas >= 1);
	assert_int_equal(get_int(was[nwas - 1], "move"), move);
	assert_int_equal(get_int(now[0], "move"), move);
	assert_int_equal(get_int(now[0], "turn"), get_int(was[nwas - 1], "turn"));
	assert_true(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(now[0], "view"),
				  cJSON_GetObjectItemCaseSensitive(was[nwas - 1], "view"), 1));
	assert_true(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(now[0], "legal"),
				  cJSON_GetObjectItemCaseSensitive(was[nwas - 1], "legal"), 1));
	assert_true(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(now[0], "game"),
				  cJSON_GetObjectItemCaseSensitive(was[nwas - 1], "game"), 1));
	/* its events: everything the seat's requests up to N carried, in order */
	events = cJSON_GetObjectItemCaseSensitive(now[0], "events");
	for (size_t i = 0; i < nwas; i++)
		cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(was[i], "events"))
			assert_true(cJSON_Compare(ev, cJSON_GetArrayItem(events, (int)k++), 1));
	assert_int_equal(k, cJSON_GetArraySize(events));
	/* the same deterministic bots from there: the same end */
	result = strstr(played_out, "result: ");
	assert_non_null(result);
	end = strchr(result, '\n');
	assert_non_null(end);
	assert_non_null(strstr(out, "result: "));
	assert_memory_equal(strstr(out, "result: "), result, (size_t)(end - result));
	assert_non_null(strstr(out, "decisions replayed, the bots play from decision"));
	/* its own replay, replayed decisions included (with time 0), re-checks */
	free(out);
	free(err);
	assert_int_equal(run_capture(recheck, &out, &err), 0);
	for (size_t i = 0; i < nwas; i++)
		cJSON_Delete(was[i]);
	cJSON_Delete(now[0]);
	free(played_log);
	free(played_out);
	free(out);
	free(err);
}

static void test_play_from_hands_over_the_recorded_request(void **state)
{
	(void)state;
	check_from("r", 2, 12, 0);  /* seat 0, in the middle of its turn */
	check_from("r", 2, 40, 1);
	check_from("r", 2, 1, 0);   /* the deal itself */
}

static void test_play_from_errors(void **state)
{
	const char *three[] = { "play", "--from", "r.json", BOT, BOT, BOT, NULL };
	const char *seed[] = { "play", "--from", "r.json", "--seed", "3", BOT, BOT, NULL };
	const char *late[] = { "play", "--from", "r.json", "--move", "64", BOT, BOT, NULL };
	const char *alone[] = { "play", "--move", "4", BOT, BOT, NULL };
	char *out, *err;

	(void)state;
	assert_int_equal(run_capture(three, &out, &err), 2);
	assert_non_null(strstr(err, "the recorded game has 2 seats, got 3 bots"));
	free(out);
	free(err);
	assert_int_equal(run_capture(seed, &out, &err), 2);
	assert_non_null(strstr(err, "--seed, --stock, --partnership and --match do not go with it"));
	free(out);
	free(err);
	assert_int_equal(run_capture(late, &out, &err), 1);
	assert_non_null(strstr(err, "game 1 has no decision 64: it is over after 63"));
	free(out);
	free(err);
	assert_int_equal(run_capture(alone, &out, &err), 2);
	assert_non_null(strstr(err, "--move: a position of a replay, named with --from"));
	free(out);
	free(err);
}

/*
 * A replay with a fault: seat 1 exits at its fifth request (decision 15).
 * That position shows the removal and is played again from, seat 1 asked
 * again; from a later one, seat 1 is out as it was, and the others get
 * their recorded requests.
 */
static void test_position_of_a_fault(void **state)
{
	const char *record[] = { "play", "--seed", "3", "--log-io", "--replay", "f.json", BOT,
				 BADBOT_PATH " die-midgame 4", BOT, NULL };
	const char *show[] = { "replay", "--move", "15", "f.json", NULL };
	const char *again[] = { "play", "--from", "f.json", "--move", "15", BOT, BOT, BOT, NULL };
	const char *later[] = { "play", "--from", "f.json", "--move", "30", BOT, BOT, BOT, NULL };
	char *out, *err;

	(void)state;
	assert_int_equal(run_capture(record, &out, &err), 0);
	assert_non_null(strstr(out, "exit at game 1, turn 5, move 15"));
	e2e_write(dir, "f.txt", out);
	e2e_write(dir, "f.log", err);
	free(out);
	free(err);
	assert_int_equal(run_capture(show, &out, &err), 0);
	assert_non_null(strstr(out, "to move; draw pile"));
	assert_non_null(strstr(out, "    seat 1 (badbot-die-midgame) removed: exit: exited with "
			       "status 3\n"));
	free(out);
	free(err);
	assert_int_equal(run_capture(again, &out, &err), 0);
	assert_non_null(strstr(out, "14 decisions replayed, the bots play from decision 15"));
	assert_null(strstr(out, "fault:"));
	free(out);
	free(err);
	assert_int_equal(run_capture(later, &out, &err), 0);
	assert_non_null(strstr(out, "29 decisions replayed, the bots play from decision 30"));
	assert_non_null(strstr(out, "fault: seat 1 badbot-good-2: exit at game 1, turn 5, move 15: out "
			       "of the recorded game before this position"));
	free(out);
	free(err);
	check_from("f", 3, 30, 0);
	check_from("f", 3, 39, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_move_shows_the_engine_position),
		cmocka_unit_test(test_replay_turn_shows_the_engine_position),
		cmocka_unit_test(test_replay_render_every_turn),
		cmocka_unit_test(test_replay_position_errors),
		cmocka_unit_test(test_play_from_hands_over_the_recorded_request),
		cmocka_unit_test(test_play_from_errors),
		cmocka_unit_test(test_position_of_a_fault),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
