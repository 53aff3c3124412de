/*
 * harness.h - plays whole games in-process between the reference bots'
 * policies, for the bots' tests and the strength benchmark.
 *
 * Every decision can travel the real way: the arena-side encoder writes the
 * request line (view, events since the seat's last request, legal moves) and
 * the bot-side parser reads it back, so the policy sees exactly what a bot
 * process would. Each answer is checked against the engine before it is
 * applied; an answer that is not legal stops the game and is counted.
 */
#ifndef SKIPBO_TESTS_HARNESS_H
#define SKIPBO_TESTS_HARNESS_H

#include <stdint.h>

#include <stddef.h>

#include "easy.h"
#include "engine.h"
#include "expert.h"
#include "hard.h"

/* HARNESS_SEER cheats, to bound what any player could reach: it sees the
 * whole game, and tries every legal move by playing the rest of the game out
 * with the hard policy at every seat (its own too), exactly as the hard
 * opponents would play; it takes the move whose game ends best for it (R7
 * placings against each other seat), the hard bot's own move among equals. */
enum harness_kind { HARNESS_EASY, HARNESS_MEDIUM, HARNESS_HARD, HARNESS_EXPERT, HARNESS_SEER };

struct harness_player {
	int kind;            /* enum harness_kind */
	struct easy easy;    /* HARNESS_EASY */
	struct hard *hard;   /* HARNESS_HARD, HARNESS_SEER: owned by the caller */
	struct expert *expert; /* HARNESS_EXPERT: owned by the caller, one per seat it plays */
	int keep_times;      /* record every decision's time in times[] */
	int oracle;          /* expert: judge over the true hidden cards (expert_set_oracle) */
	int worlds;          /* seer: deals of the unseen cards per move; 0 = the true one */
	int rollout_medium;  /* seer: play out with the medium policy instead of hard */
	double margin;       /* seer: a move other than hard's must score this much more (0..1) */
	/* Figures collected over every game played. */
	long decisions;
	int64_t max_us, total_us;   /* CPU time of the thread, per decision */
	long cut_short;             /* hard: searches stopped by the node budget or the net */
	long net_hits;              /* hard, expert: searches stopped by the safety net's clock */
	long judged;                /* expert: decisions judged over deals */
	int64_t *times;             /* with keep_times: n_times decision CPU times in µs (caller frees) */
	size_t n_times, cap_times;
};

struct harness_game {
	int via_protocol;            /* encode and parse every request */
	int64_t move_ms, bank_ms;    /* what requests say (bank_ms is not spent) */
	struct game_result result;
	int illegal;                 /* answers the engine refused */
	int protocol_errors;         /* encode/parse failures or legal lists that differ */
	long decisions;
};

/* Set up a player of kind `kind` (hard: with searcher h; expert: set p->expert after). */
void harness_player_init(struct harness_player *p, int kind, uint64_t seed, struct hard *h);

/*
 * Play one game with rules (game_rules_check()ed by the engine) and the
 * player at each seat. An expert player sees the game start and, before each
 * of its decisions, the events since its previous one, as a bot process
 * would; a harness_player of kind expert must sit at one seat only. Returns 0 when the game ran to its end, or a negative
 * engine code; hg->illegal and hg->protocol_errors count what went wrong.
 */
int harness_play(const struct game_rules *rules, struct harness_player *const *seats,
		 struct harness_game *hg);

/*
 * The deal that will happen for the viewer of v in game g, from its hidden
 * state: every other hand, the card under each stock top, and the draws in
 * the order the seats make them (the viewer's first after a refill, else
 * after the others' next draws, R5). A cheat, for expert_set_oracle(): draws
 * made when a hand empties mid-turn and after a reshuffle (R6) are not
 * foreseen.
 */
struct deal;
void harness_oracle_deal(const struct game *g, const struct seat_view *v, int refill, struct deal *out);

/*
 * The cards seat cannot see in c dealt again at random from r, in the same
 * places: the other hands, every card under a stock top, the draw pile; the
 * generator of later reshuffles (R6) is reseeded from r. The seat's view is
 * unchanged.
 */
void harness_determinize(struct game *c, int seat, struct rng *r);

#endif
