/*
 * referee.h - plays one game, or one R9 match, between bots that are already
 * started and past the hello handshake (see pool.h for getting them).
 *
 * The referee speaks protocol v1 (protocol/PROTOCOL.md): game_start to every
 * seat, a request to the seat to move (its view, the events since its last
 * request in this game, the legal moves, its time), the answer decoded and
 * checked, and game_end to every seat still in the game. Every decision is
 * timed with the monotonic clock from the request's write (the clock starts
 * just before the write call, because a bot pinned to our CPU often runs and
 * answers before that call returns) to the reading of the answer's newline,
 * and enforced against the time control (protocol/PROTOCOL.md, "Time"): the
 * limit is move_ms or what is left of the seat's game bank (game_ms at
 * game_start, minus each move's charged time; never below 0). An answer past
 * the limit is a timeout even when it is read, unless the delay can be the
 * arena's: within REFEREE_MARGIN_MS past it, or after a stop of the arena
 * (own_delay.h), with the bot's CPU time for the move within the limit; such
 * an answer is charged the whole limit. A write that blocks because the bot
 * does not read counts against the same deadline. Output a bot writes while
 * no request is outstanding (before its first request, or after its answer)
 * is a protocol fault before the next request, never taken as its answer.
 *
 * A seat's stderr lines go to the observer as they are read, and each log
 * line of its process is tagged with the game id (bot_set_stderr_tag); the
 * bots' own stderr handlers are put back when referee_play() returns.
 *
 * R11: a seat that times out, exits, closes its stdout, sends a malformed
 * line, breaks the protocol or answers an illegal move is removed with
 * game_remove_seat() and the fault is recorded (kind, reason, game, turn,
 * move number and the offending line, truncated). The referee never stops
 * or frees a bot: it reports which seats faulted, and the caller (the pool)
 * replaces those processes. In a match a faulted seat stays removed for the
 * match's remaining games (it is removed as each game is dealt), and never
 * wins the match with its team. The faults of a game's start (no process,
 * no hello, game_start not delivered) are simultaneous: those seats leave
 * together (game_remove_seats()), so none of them is left to win, and a
 * game (or a match) without a seat left has no winner and no score.
 *
 * Thread safety: referee_play() touches only its arguments; any number may
 * run at once on different bots.
 */
#ifndef SKIPBO_REFEREE_H
#define SKIPBO_REFEREE_H

#include <stddef.h>
#include <stdint.h>

#include "bot.h"
#include "engine.h"
#include "protocol.h"

/* the version of project() in CMakeLists.txt, its one source */
#define REFEREE_ARENA_VERSION SKIPBO_VERSION
#define REFEREE_ARENA_NAME "skipbo-arena " REFEREE_ARENA_VERSION /* in the arena's hello */
#define REFEREE_LINE_KEEP 200   /* bytes of an offending line kept in a fault */
#define REFEREE_REASON_MAX 256
/* A decision's stderr kept in its game log (setup.keep_stderr): at most so
 * many bytes and lines, then a count of the lines left out. */
#define REFEREE_STDERR_KEEP 4096
#define REFEREE_STDERR_LINES 50
/* How long past its limit an answer is still read (PROTOCOL.md, "Time"). */
#define REFEREE_MARGIN_MS 100

/*
 * A late answer (read past the limit and the margin) stays a timeout, but its
 * reason adds REFEREE_MACHINE_NOTE when the delay is likely the machine's
 * (PROTOCOL.md, "Time"): the bot used at
 * most half its limit in CPU time (cpu_us, -1 unknown), so it spent most of
 * the decision not running, and the machine was loaded: its 1-minute load
 * average load1 at least its ncpu CPUs online. referee_machine_delay_likely()
 * is that rule; referee_machine_delay() tells a fault reason that carries
 * the note, for check's hint.
 */
#define REFEREE_MACHINE_NOTE "probably the machine, not the bot"
int referee_machine_delay_likely(int64_t cpu_us, int64_t limit_us, double load1, long ncpu);
int referee_machine_delay(const char *reason);

enum referee_dir {
	REFEREE_TO_BOT = 0,   /* a line the arena wrote ("name <- line" in a transcript) */
	REFEREE_FROM_BOT = 1, /* a line the bot wrote ("name -> line") */
};

struct referee_fault {
	int seat;
	int game;                      /* 1-based game within a match; 1 in game mode */
	enum protocol_fault_kind kind; /* protocol.h: timeout, exit, closed, malformed, protocol, illegal, start */
	uint32_t turn;                 /* turn number when it happened (0: before the first turn) */
	uint32_t move;                 /* decisions made so far in that game, the faulty one included */
	char reason[REFEREE_REASON_MAX];   /* a sentence for a bot author (referee_fault_placed) */
	char line[REFEREE_LINE_KEEP + 4];  /* the offending line, cut at REFEREE_LINE_KEEP bytes + "..." */
};

/*
 * Whether the reason of a fault of kind ends with where in its game the
 * fault happened, " (at turn T, move M)" as in the request it answered: the
 * faults in what a bot wrote (malformed, protocol, illegal), which its author
 * looks for by that position in records, reports and replays. What prints
 * turn and move of its own (check, play) leaves them out for these kinds.
 */
int referee_fault_placed(enum protocol_fault_kind kind);

/*
 * Watches a game as it is played; every callback may be NULL and runs on the
 * referee's thread. `name` is the bot's name; seat is -1 for lines outside a
 * game (the hello handshake, quit). at_us is clock_now_us().
 */
struct referee_observer {
	void *ctx;
	void (*line)(void *ctx, const char *name, int seat, enum referee_dir dir,
		     const char *line, size_t len, int64_t at_us);
	void (*game_start)(void *ctx, int game, const struct game *g);
	/* After a decision is applied; elapsed_us is its measured time. */
	void (*move)(void *ctx, int seat, const struct move *m, int64_t elapsed_us,
		     const struct game *g);
	/* After a faulty seat was removed. */
	void (*fault)(void *ctx, const struct referee_fault *f, const struct game *g);
	void (*game_end)(void *ctx, int game, const struct game *g);
	/* A line the bot wrote on stderr (bot.h: newline removed, long lines in
	 * pieces), as it is read; seat -1 outside a game (the pool's). */
	void (*stderr_line)(void *ctx, const char *name, int seat, const char *line, size_t len);
};

struct referee_seat {
	const char *name;        /* the bot's name (game_start "names", faults, transcripts) */
	struct bot *bot;         /* started and handshaken; NULL if it could not start */
	const char *start_error; /* with bot NULL: why, in plain words (recorded as a "start" fault) */
	int compact;             /* its hello asked for compact requests ("compact_legal") */
};

/* One step of a recorded position (referee_setup.start): a decision, or a seat's removal. */
struct referee_step {
	struct move move;         /* the decision, when removed is -1 */
	int removed;              /* the seat removed here (R11), or -1 */
	enum protocol_fault_kind kind; /* with removed: its fault kind */
};

struct referee_setup {
	const char *id;           /* the game (match) id: the log tags; a match's games "<id>-g<k>" */
	/* The id the bots are told in game_start, requests and game_end (a match's games
	 * "<bot_id>-g<k>"); NULL: id. A tournament tells an opaque one (referee_opaque_id). */
	const char *bot_id;
	struct game_rules rules;  /* players, stock_size (0 = R3 default), partnership, dealer, seed */
	int match;                /* 1: play an R9 match to MATCH_TARGET points */
	int move_ms, game_ms;     /* time control; both 0 = no limits (debugging) */
	int margin_ms;            /* how long past a limit an answer is still read; 0: REFEREE_MARGIN_MS */
	struct referee_seat seats[ENGINE_MAX_PLAYERS];
	const struct referee_observer *observer; /* may be NULL */
	/*
	 * A recorded position to start from (`play --from`): these steps are
	 * applied to the first game as it is dealt, before game_start reaches the
	 * observer and before any request. A removal is a fault of that seat,
	 * recorded with its kind and told to the observer, and the seat gets no
	 * game_start. Each seat's first request then carries every event since
	 * the deal (the replayed steps' too, redacted for it as always), as a
	 * first request does; the bots get no request for the replayed
	 * decisions, and their game banks are full. The game log records those
	 * with time 0. nstart 0: an ordinary game.
	 */
	const struct referee_step *start;
	size_t nstart;
	int keep_stderr;          /* keep each decision's stderr in the game log */
	/* After a fault, wait up to this long (ms) for the bot's stderr to end, so its
	 * last words reach the observer before the fault (check); 0: what is there. */
	int fault_stderr_ms;
};

struct referee_time_stats {
	uint32_t moves;                  /* decisions answered in time */
	double mean_us;                  /* charged wall time */
	int64_t median_us, p99_us, max_us; /* nearest-rank percentiles; 0 when moves is 0 */
	double cpu_mean_us;              /* the bot's CPU time per answered decision */
	int64_t cpu_max_us;
};

/* One game as played: everything a replay needs. */
struct referee_game_log {
	struct game_rules rules;          /* resolved: stock size filled in, this game's seed and dealer */
	uint8_t deck[ENGINE_DECK_SIZE];   /* game_initial_deck() */
	struct event *events;             /* the engine's full event log (nothing redacted) */
	size_t nevents;
	uint32_t *move_us;                /* charged time of each decision in order: the k-th play/discard/pass event */
	uint32_t *move_cpu_us;            /* the bot's CPU time for each, the same order */
	char **move_stderr;               /* with setup.keep_stderr: the stderr lines that arrived
	                                     since the seat's previous decision in the game, up to
	                                     its answer, '\n'-separated; NULL none; the same order */
	size_t nmoves;
	struct game_result result;
};

struct referee_outcome {
	struct game_rules rules;          /* as set up, resolved; in a match its seed and first dealer */
	int players, partnership, match;
	int games;                        /* games played: 1 in game mode */
	struct referee_game_log *log;     /* `games` entries, owned */
	/* The record: in game mode the game's result; in a match the totals (R9). */
	int reason;                       /* enum end_reason of the (last) game */
	int nwinners;
	int winners[ENGINE_MAX_PLAYERS];  /* seats of the winning side, ascending */
	int placings[ENGINE_MAX_PLAYERS]; /* R7, or match totals ranked; faulted seats last */
	int stock_left[ENGINE_MAX_PLAYERS]; /* at the end of the (last) game */
	int scores[ENGINE_MAX_PLAYERS];   /* R8; in a match the totals */
	uint32_t turns, moves;            /* summed over a match's games */
	struct referee_fault *faults;     /* owned, in the order they happened */
	size_t nfaults;
	int faulted[ENGINE_MAX_PLAYERS];  /* 1: that seat's bot faulted; do not reuse its process */
	struct referee_time_stats time[ENGINE_MAX_PLAYERS];
};

/* R3's dealer as the arena deals: the last seat, so that seat 0 moves first in every game. */
int referee_dealer(int players);

/*
 * An ordinary game's setup in *s: all zero (no seats yet, no observer, no
 * start steps, the default margin, a game and not a match) but the id, the
 * rules with referee_dealer() as their dealer, and the time control (move_ms
 * and game_ms, both 0 for none).
 */
void referee_setup_init(struct referee_setup *s, const char *id, const struct game_rules *rules,
			int move_ms, int game_ms);

/*
 * Play the game or match described by setup. Returns 0 and fills *out (the
 * caller releases it with referee_outcome_release) whatever the bots did:
 * bot misbehaviour is a result, not an error. Returns a negative code only
 * for the arena's own trouble (-ENOMEM, or the engine refusing the rules:
 * an ENGINE_E* code), with a sentence in err; *out is then empty.
 */
int referee_play(const struct referee_setup *setup, struct referee_outcome *out,
		 char *err, size_t err_size);

/*
 * The id a tournament's bots are told for the game with the real id `id`:
 * "g" and 16 hex digits of SHA-256(key as 8 little-endian bytes, the domain
 * "skipbo-arena game id", id), into out (REFEREE_OPAQUE_ID_SIZE bytes). With
 * a key nobody else knows (one derived from the tournament's random seed),
 * it names no table, deal or rotation, and no two games share it; the same
 * key and id always give the same one, so a bot that seeds its choices with
 * its game id plays the same game in a rerun with that seed.
 */
#define REFEREE_OPAQUE_ID_SIZE 18
void referee_opaque_id(uint64_t key, const char *id, char out[REFEREE_OPAQUE_ID_SIZE]);

/* Free what an outcome owns and zero it. Safe on a zeroed outcome. */
void referee_outcome_release(struct referee_outcome *out);

/*
 * After a wait for a line timed out: a hint for the bot's author in out, ""
 * if there is none. Bytes without a newline usually mean an unflushed or
 * unterminated line; with nothing at all, as_hello adds the flush question
 * (a bot that never answers its first line has usually not flushed it).
 */
void referee_unflushed_hint(struct bot *b, int as_hello, char *out, size_t size);

/* Nearest-rank statistics of n times (us may be reordered). */
void referee_time_stats(uint32_t *us, size_t n, struct referee_time_stats *out);

/* The cpu_* fields of out from n CPU times; the others are left alone. */
void referee_cpu_stats(const uint32_t *cpu_us, size_t n, struct referee_time_stats *out);

#endif
