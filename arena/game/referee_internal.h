/*
 * referee_internal.h - what the two halves of the referee share: the state of
 * one game or match in play (referee.c plays the games and the match,
 * referee_turn.c one seat's turn: the lines to and from its bot, their times,
 * its faults and its stderr). Not for callers: referee.h is the contract.
 */
#ifndef SKIPBO_REFEREE_INTERNAL_H
#define SKIPBO_REFEREE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"
#include "referee.h"

struct seat_times {
	uint32_t *us, *cpu_us;     /* charged wall time and CPU time of each answered decision */
	size_t n, cap, cpu_n, cpu_cap;
};

/* A seat's stderr while the referee has its bot: where its lines go. */
struct seat_stderr {
	struct ref *r;
	int seat;
	struct bot_stderr_handler saved;   /* the handler before the referee's, put back */
	char *text;                        /* keep_stderr: lines since its last decision */
	size_t len, lines, left_out;
};

struct ref {
	const struct referee_setup *setup;
	struct referee_outcome *out;
	struct protocol_buf buf;
	struct game *g;
	struct referee_game_log *log;      /* the game being played */
	char game_id[PROTOCOL_ID_MAX];     /* the real one: log tags */
	char bot_id[PROTOCOL_ID_MAX];      /* what the bots are told */
	int game_no;                       /* 1-based */
	int removed[ENGINE_MAX_PLAYERS];   /* out of the match (R11) */
	int at_start;                      /* faults now are the start's: removed together */
	const char *fault_kind[ENGINE_MAX_PLAYERS];
	size_t seen[ENGINE_MAX_PLAYERS];   /* events already sent to each seat in this game */
	int64_t bank_us[ENGINE_MAX_PLAYERS];       /* never below 0 */
	int64_t cpu_us[ENGINE_MAX_PLAYERS];        /* the bot's CPU clock at its last answer, -1 unknown */
	uint32_t answered[ENGINE_MAX_PLAYERS];     /* its last answered move number in this game, 0 none */
	struct seat_times times[ENGINE_MAX_PLAYERS];
	size_t log_moves_cap, log_cpu_cap, log_stderr_cap;
	struct seat_stderr err[ENGINE_MAX_PLAYERS];
};

/* A fault of seat (R11), with the line that caused it (or NULL) and the reason;
 * the seat leaves the game now, or with the start's faults (at_start). */
int referee_add_fault(struct ref *r, int seat, enum protocol_fault_kind kind, const char *line,
		      size_t len, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* game_start to seat, game_end to every seat still in: a short allowance each. */
int referee_send_game_start(struct ref *r, int seat);
int referee_send_game_end(struct ref *r, const struct game_result *res);
/* The last decision into the game's log (seat -1: a recorded step, no time). */
int referee_log_decision(struct ref *r, int seat, int64_t charged_us, int64_t cpu_us);
/* The stderr a seat wrote since its last decision, malloc'ed (NULL: none). */
char *referee_take_stderr(struct seat_stderr *e);
/* The referee's stderr handler of a seat (ctx: its struct seat_stderr). */
void referee_on_stderr(void *ctx, const char *line, size_t len);
/* One decision of the seat to move. Returns 0 (played or faulted) or a negative code. */
int referee_play_decision(struct ref *r, int seat);

#endif
