/*
 * test_human.c - the human player, driven through its SKIPBO_TTY override
 * with a pseudo-terminal: it shows the table, lists the moves on request,
 * explains a bad entry and asks again, answers the arena with the move the
 * person chose, and tells the opponent's winning turn at the end.
 * tests/bots/human_tmux.sh plays it in a real terminal.
 *
 * usage: test_human SKIPBO_HUMAN
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "protocol.h"

#define WAIT_MS 5000

static const char *human_path;

struct session {
	pid_t pid;
	int master;        /* the person's side of the terminal */
	int to_bot, from_bot; /* the arena's side of the pipes */
	char screen[65536]; /* everything shown on the terminal so far */
	size_t shown;
};

static void start(struct session *s)
{
	int in[2], out[2];
	s->master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(s->master >= 0);
	assert_int_equal(grantpt(s->master), 0);
	assert_int_equal(unlockpt(s->master), 0);
	const char *slave = ptsname(s->master);
	assert_non_null(slave);
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		setenv("SKIPBO_TTY", slave, 1);
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		close(s->master);
		execl(human_path, human_path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	s->to_bot = in[1];
	s->from_bot = out[0];
	s->shown = 0;
	s->screen[0] = '\0';
}

/* Read the terminal until `text` appears after position `from`; fail after WAIT_MS. */
static void expect_screen(struct session *s, size_t from, const char *text)
{
	for (int waited = 0; !strstr(s->screen + from, text); waited += 50) {
		if (waited > WAIT_MS)
			fail_msg("terminal never showed \"%s\"; it shows:\n%s", text, s->screen + from);
		struct pollfd p = { .fd = s->master, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		ssize_t n = read(s->master, s->screen + s->shown, sizeof(s->screen) - s->shown - 1);
		if (n <= 0)
			continue;
		s->shown += (size_t)n;
		s->screen[s->shown] = '\0';
	}
}

static void type(struct session *s, const char *keys)
{
	assert_int_equal(write(s->master, keys, strlen(keys)), (ssize_t)strlen(keys));
}

static void send_line(struct session *s, const char *line)
{
	size_t n = strlen(line);
	assert_int_equal(write(s->to_bot, line, n), (ssize_t)n);
	assert_int_equal(write(s->to_bot, "\n", 1), 1);
}

/* One line from the bot's stdout, within WAIT_MS. */
static void read_answer(struct session *s, char *buf, size_t size)
{
	size_t len = 0;
	for (int waited = 0; len == 0 || buf[len - 1] != '\n'; waited += 50) {
		if (waited > WAIT_MS)
			fail_msg("no answer from the bot");
		struct pollfd p = { .fd = s->from_bot, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		ssize_t n = read(s->from_bot, buf + len, 1);
		assert_true(n == 1);
		len++;
		assert_true(len < size);
	}
	buf[len - 1] = '\0';
}

static int finish(struct session *s)
{
	int status;
	close(s->to_bot);
	for (int waited = 0; waitpid(s->pid, &status, WNOHANG) == 0; waited += 10) {
		if (waited > WAIT_MS) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &status, 0);
			break;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	close(s->from_bot);
	close(s->master);
	return status;
}

static void play_one_move(void **state)
{
	(void)state;
	struct session s;
	char answer[512];
	struct game_rules rules = { .players = 2, .seed = 99, .dealer = 0 };
	struct game *g = game_new(&rules, NULL);
	struct seat_view *v = malloc(sizeof(*v));
	struct move legal[ENGINE_MAX_MOVES];
	struct protocol_buf b;
	assert_non_null(g);
	assert_non_null(v);
	protocol_buf_init(&b);

	/* Seat 0 moves first (dealer 0 makes seat 1 first: let it discard). */
	int n = game_legal_moves(g, legal);
	for (int i = 0; i < n; i++)
		if (legal[i].kind == MOVE_DISCARD) {
			assert_int_equal(game_apply(g, &legal[i]), 0);
			break;
		}
	assert_int_equal(game_to_move(g), 0);

	start(&s);
	send_line(&s, "{\"type\":\"hello\",\"protocol\":1,\"arena\":\"test\"}");
	read_answer(&s, answer, sizeof(answer));
	assert_non_null(strstr(answer, "\"name\":\"human\""));
	send_line(&s, "{\"type\":\"game_start\",\"game\":\"g7\",\"seat\":0,\"players\":2,\"names\":[\"ann\",\"robot\"],"
		      "\"partnership\":false,\"teams\":[[0],[1]],\"partner\":null,"
		      "\"rules\":{\"stock_size\":30,\"building_piles\":4,\"discard_piles\":4,\"hand_size\":5},"
		      "\"time\":{\"move_ms\":0,\"game_ms\":0}}");

	size_t count;
	const struct event *ev = game_events(g, &count);
	game_view(g, 0, v);
	n = game_legal_moves(g, legal);
	struct protocol_request_args args = { .game = "g7", .turn = v->turn, .move = 2, .view = v,
		.events = ev, .n_events = count, .legal = legal, .n_legal = n };
	assert_int_equal(protocol_encode_request(&b, &args), 0);
	send_line(&s, b.data);

	/* The table: piles, players, the hand, what the robot did. */
	expect_screen(&s, 0, "Your move (? help, l list): ");
	assert_non_null(strstr(s.screen, "Building piles:"));
	assert_non_null(strstr(s.screen, "Your hand:"));
	assert_non_null(strstr(s.screen, "robot"));
	assert_non_null(strstr(s.screen, "robot: discarded"));
	assert_non_null(strstr(s.screen, "stock"));

	/* The moves numbered on request, as the commands that make them. */
	size_t mark = s.shown;
	type(&s, "l\n");
	expect_screen(&s, mark, "  1) ");
	char last[16];
	snprintf(last, sizeof(last), "%3d) ", n);
	expect_screen(&s, mark, last);

	/* Bad entries are explained and asked again. */
	mark = s.shown;
	type(&s, "seven\n");
	expect_screen(&s, mark, "is not a move I know");
	expect_screen(&s, mark, "Your move");
	mark = s.shown;
	type(&s, "999\n");
	expect_screen(&s, mark, "there is no move 999");
	expect_screen(&s, mark, "Your move");

	/* A good entry: the arena gets exactly that move. */
	type(&s, "2\n");
	read_answer(&s, answer, sizeof(answer));
	struct move got;
	struct protocol_diag diag;
	assert_int_equal(protocol_decode_move(answer, strlen(answer), legal, n, g, &got, &diag), 0);
	assert_true(move_equal(&got, &legal[1]));

	send_line(&s, "{\"type\":\"game_end\",\"game\":\"g7\",\"reason\":\"stock_emptied\",\"winners\":[1],"
		      "\"placings\":[2,1],\"stock_left\":[4,0],\"scores\":[0,45],\"turns\":80,\"moves\":300,\"faults\":[]}");
	mark = s.shown;
	/* The robot's last turns came with no request: told from its stock. */
	expect_screen(&s, mark, "robot played 30 stock cards since your last move, emptying the stock");
	expect_screen(&s, mark, "robot won");
	send_line(&s, "{\"type\":\"quit\"}");
	int status = finish(&s);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	protocol_buf_release(&b);
	free(v);
	game_free(g);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_human SKIPBO_HUMAN\n");
		return 2;
	}
	human_path = argv[1];
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(play_one_move),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
