/*
 * check.h - the diagnosis behind `skipbo-arena check`: a referee observer
 * that watches one bot (the bot under check) through a series of games and
 * prints, for its author, what it did wrong and how fast it was.
 *
 * For every fault of the checked bot the report names the game, turn and
 * move, the fault kind and the referee's reason, quotes the offending line
 * and its last CHECK_STDERR_LINES stderr lines (a traceback shows at once),
 * and says what was expected instead; a timeout asks whether the bot
 * flushed its output. An illegal move also gets the position
 * it was played in (hand, building piles, every stock top and discard top)
 * and the list of legal alternatives. Times of the bot's answered decisions
 * are collected over all games for the summary (median, p99, max against the
 * limits). Faults of the other seats (the opponents) are reported and counted
 * too: a check with a misbehaving opponent proves nothing.
 *
 * A fault of the same kind and reason as an earlier one (numbers aside) is
 * shown in one line naming the first; the summary counts each group. The
 * slowest decisions are kept for the caller to name (check_slowest()).
 *
 * Use: check_init(), then for each game check_begin_game(), referee_play()
 * with setup.observer = &check.observer (and the pool's observer too, so the
 * hello lines are seen), check_end_game(); finally check_summary() and
 * check_release(). Everything is printed to the stream given at init, as it
 * happens. One thread only.
 */
#ifndef SKIPBO_CHECK_H
#define SKIPBO_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "echo.h"
#include "referee.h"
#include "transcript.h"

/* The checked bot's last stderr lines quoted with each of its faults, and
 * the bytes kept of each. */
#define CHECK_STDERR_LINES 10
#define CHECK_STDERR_KEEP 200
/* How long a fault waits for the bot's last stderr (referee_setup.fault_stderr_ms):
 * a bot that fails to find a file says so after its deadline has passed. */
#define CHECK_STDERR_WAIT_MS 500

/* Room for one move in the protocol encoding, NUL included. */
#define CHECK_MOVE_MAX 96

/* Fault kinds and reasons told apart (CHECK_GROUPS), and slowest decisions kept. */
#define CHECK_GROUPS 16
#define CHECK_SLOWEST 3

/* One of the checked bot's slowest answered decisions. */
struct check_slow {
	uint32_t us;     /* its time */
	int game;        /* 1-based game number */
	uint32_t move;   /* its decision number in that game (play --move N) */
};

/* The time control of the checked games, in ms (0 = no limit). */
struct check_limits {
	int startup_ms, move_ms, game_ms;
};

struct check {
	FILE *out;
	struct check_limits limits;
	const char *bot;             /* the checked bot's name; lines are matched by this pointer */
	int seat;                    /* its seat in the game being played, -1 between games */
	int game;                    /* 1-based number of the game being played */
	int problems;                /* faults of the checked bot so far */
	int opponent_faults;         /* faults of any other seat so far */
	int failed_starts;           /* games in a row, up to the last, the bot could not start in */
	int hello_shown;             /* the bot's first good hello has been quoted */
	char hello[REFEREE_LINE_KEEP + 4]; /* the last line the bot sent before its game (cut) */
	int have_hello;
	/* The checked bot's pending decision: the position and its legal moves. */
	int have_position;
	struct seat_view view;
	struct move legal[ENGINE_MAX_MOVES];
	int nlegal;
	/* Times of its answered decisions, all games; and this game's total. */
	uint32_t *us;
	size_t nus, cap;
	int out_of_memory;           /* a time could not be kept: the statistics miss some */
	int64_t game_us, max_game_us;
	struct transcript transcript;/* --verbose: every line, to out */
	/* The checked bot's stderr since its game began or its last fault was shown: a ring. */
	char err_lines[CHECK_STDERR_LINES][CHECK_STDERR_KEEP + 4];
	size_t err_count;            /* lines seen; the ring holds the last CHECK_STDERR_LINES */
	int answers;                 /* lines the checked bot sent in this game */
	struct echo echo;            /* every bot's stderr shown live, when on */
	int echo_on;
	struct referee_observer observer; /* ctx = this check */
	/* The checked bot's faults grouped by kind and reason with its numbers
	 * blotted out: the first of a group is shown in full, the others in a
	 * line that names it. */
	struct {
		char key[REFEREE_REASON_MAX + 16];
		int first, count;         /* the first one's PROBLEM number; how many */
	} groups[CHECK_GROUPS];
	int ngroups;
	/* Its slowest answered decisions, slowest first; nslow of them. */
	struct check_slow slow[CHECK_SLOWEST];
	int nslow;
};

/* Print to out; bot is the checked bot's name (borrowed, compared by pointer
 * with the names the referee and the pool report); limits are quoted in the
 * diagnoses. verbose: also print every line between the arena and the bots. */
void check_init(struct check *c, FILE *out, const char *bot, const struct check_limits *limits,
		int verbose);

/* Show every bot's stderr live on to (echo.h). Its last lines are quoted
 * with each fault of the checked bot whether or not they are shown. */
void check_show_stderr(struct check *c, FILE *to);

/* Free the times. The stream is not closed. */
void check_release(struct check *c);

/* Game number game (1-based) is about to be set up, the checked bot in seat. */
void check_begin_game(struct check *c, int game, int seat);

/* The game is over: print its outcome (names: by seat). */
void check_end_game(struct check *c, const struct referee_outcome *o,
		    const char *const *names);

/* The checked bot's slowest answered decisions so far, slowest first: their
 * number (at most CHECK_SLOWEST) and *out pointing into c. */
int check_slowest(const struct check *c, const struct check_slow **out);

/*
 * Print the time statistics against the limits and the verdict line, "PASS"
 * or "FAIL: N problem(s)". Returns the exit status: 0 when nothing faulted,
 * 1 otherwise.
 */
int check_summary(struct check *c);

/* The move in the protocol's move encoding (PROTOCOL.md 4.1), e.g.
 * {"action":"play","from":"hand","card":7,"to":2}, into buf. */
void check_format_move(const struct move *m, char *buf, size_t size);

/* The position as seen by v->seat: hand, building piles, stock tops and
 * discard tops of every seat; each line starts with indent. */
void check_print_position(FILE *out, const struct seat_view *v, const char *indent);

#endif
