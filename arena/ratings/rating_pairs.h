/*
 * rating_pairs.h - a game's results between sides, and their sums for the
 * Elo fit (rating.h).
 *
 * Results (R7): a game's sides are its teams (a player alone is a team of
 * one). Every two sides are one result: the better placing scores 1, the
 * worse 0, equal placings 0.5 each. A team places as its best-placed
 * partner: R7 places both partners of the winning team first, and after a
 * stalemate the team closest to winning is the one with a partner nearest to
 * an empty stock. A result in which one bot sits on both sides, or twice on
 * one side, is not counted (bots are matched by name, so merged directories
 * could seat one twice).
 *
 * Kinds: a game's kind is its player count and whether it is a partnership
 * game (rating_kind). Skip-Bo gives each kind an Elo scale of its own (the
 * same bots are further apart at 2 players than at 4), so results are summed
 * by kind, and the fit (rating.h) gives each kind a discrimination.
 *
 * Results are aggregated, so the fit does not depend on the order of games
 * and costs nothing per game: by kind and sides (results between single bots
 * into an n x n matrix per kind, team results in a hash by their sides), and
 * into the cross table a reader sees (each result spread over it, every
 * member of a side against every member of the other).
 *
 * Functions return 0 or a negative errno-style code and never exit.
 */
#ifndef SKIPBO_RATING_PAIRS_H
#define SKIPBO_RATING_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#define RATING_SIDE_MAX 3          /* bots of one side; R2 teams have 2 */
#define RATING_GAME_RESULTS_MAX 15 /* results of one game: 6 sides, 15 pairs */
#define RATING_KINDS 10            /* players 2..6, free-for-all or partnership */

/* The kind of a game: (players - 2) * 2 + partnership, for players 2..6. */
int rating_kind(int players, int partnership);

/* "3-player" or "4-player partnership" (a static string; "?" outside the kinds). */
const char *rating_kind_name(int kind);

/* One result of a game: side a against side b. */
struct rating_result {
	unsigned a[RATING_SIDE_MAX], b[RATING_SIDE_MAX];
	int na, nb;
	int kind;       /* rating_kind of the game */
	double score_a; /* 1, 0.5 or 0 (an expected score in between is summed alike) */
};

/*
 * The R7 results of one game (above): seats 0..nseats-1 (2..6) with bot[s],
 * placing[s] (lower is better) and team[s]; a game is a partnership game
 * when a team holds two seats or more. Writes at most
 * RATING_GAME_RESULTS_MAX results to out and returns their number; a game
 * with a team of more than RATING_SIDE_MAX seats gives none.
 */
size_t rating_game_results(int nseats, const unsigned *bot, const int *placing,
			   const unsigned *team, struct rating_result *out);

/* Results of one kind with the same two sides, summed (sides sorted, a before b). */
struct rating_group {
	uint32_t a[RATING_SIDE_MAX], b[RATING_SIDE_MAX];
	uint8_t na, nb, kind;
	double s, n; /* points of side a, results */
};

/* Aggregated results for n bots. */
struct rating_pairs {
	size_t n;
	/* Row-major n x n, every result between opponents: the cross table.
	 * score[i*n+j]: points of i against j (wins + ties / 2); games[i*n+j] ==
	 * games[j*n+i]: results between i and j. */
	double *score;
	double *games;
	/* What the fit reads (rating_pairs_each): results between single bots by kind, n x n
	 * like the cross table (NULL for a kind without any), and team results. */
	double *kind_score[RATING_KINDS], *kind_games[RATING_KINDS];
	struct rating_group *groups;
	size_t ngroups, capgroups;
	uint32_t *slots;             /* hash of groups: index + 1, 0 empty; nslots a power of 2 */
	size_t nslots;
	double results, ties;        /* every result added, and those that were ties */
	double kind_results[RATING_KINDS];
};

/* Zeroed sums for n bots. -ENOMEM, -EINVAL if n is 0. */
int rating_pairs_init(struct rating_pairs *p, size_t n);
void rating_pairs_release(struct rating_pairs *p);

/*
 * dst (uninitialised) = the sums of src for n bots: the cross table cut or
 * padded with zeros, every group (whose bots must all be below n).
 * -ENOMEM, -EINVAL.
 */
int rating_pairs_copy(struct rating_pairs *dst, const struct rating_pairs *src, size_t n);

/* count results of 2-player games between i and j in which i scored score_i points in all
 * (0 <= score_i <= count). 0 or -ENOMEM. */
int rating_pairs_add(struct rating_pairs *p, size_t i, size_t j, double score_i, double count);

/*
 * One game's results (rating_game_results), each bot[s] < p->n. Returns the
 * number of results added, or 0 when memory for a new group ran out (a
 * caller that must know uses rating_pairs_add_results).
 */
size_t rating_pairs_add_placings(struct rating_pairs *p, int nseats, const unsigned *bot,
				 const int *placing, const unsigned *team);

/* The same for results already made: 0 or -ENOMEM. */
int rating_pairs_add_results(struct rating_pairs *p, const struct rating_result *res, size_t count);

/* Every result of bot i taken out of what the fit reads (its results by kind, its team
 * groups emptied; the cross table kept for the head-to-head tables): a bot whose program
 * never ran must not lift its opponents. */
void rating_pairs_drop(struct rating_pairs *p, size_t i);

/*
 * Call fn(ctx, group) for every group of results of p (an emptied one left out): the results between
 * single bots of each kind (i < j), then the team results, in one order
 * whatever order the games were added in.
 */
void rating_pairs_each(const struct rating_pairs *p,
		       void (*fn)(void *ctx, const struct rating_group *group), void *ctx);

/*
 * What the ratings elo[] (Elo, any anchor) and the kinds' discriminations
 * scale[RATING_KINDS] (rating.h) expect of the cross table: expect[i*n+j]
 * the points of i against j, var[i*n+j] their binomial variance (sum of N E
 * (1 - E) over the results). Both n x n, overwritten.
 */
void rating_cross_expected(const struct rating_pairs *p, const double *elo, const double *scale,
			   double *expect, double *var);

/*
 * ln P(bot i scores no point, or with best every point, in all its results |
 * its rating x, every other bot at elo[], the kinds at scale[]).
 */
double rating_log_extreme(const struct rating_pairs *p, const double *elo, const double *scale,
			  size_t i, double x, int best);

#endif
