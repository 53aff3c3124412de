/*
 * sprt.h - sequential probability ratio test on duplicate game pairs.
 *
 * Two bots play duplicate pairs: one deal, played twice with the seats
 * swapped. Bot A's pair score is its two R7 results summed: 0, 0.5, 1, 1.5 or
 * 2, so pair outcomes are pentanomial; counting pairs (not games) keeps the
 * correlation between the two games of a deal out of the variance.
 *
 * It is a test between two bots at 2-player tables, where the pairwise and
 * the team model of rating.h are one model; partnership and multi-player
 * tables are rated by report (rating.h), not tested here.
 *
 * Hypotheses on A's Elo advantage (logistic scale, score s(elo) =
 * 1 / (1 + 10^(-elo/400)) per game): H0: elo <= elo0 against H1: elo >= elo1.
 *
 * The statistic is the generalised log-likelihood ratio (GSPRT) of the
 * pentanomial, as fishtest computes it. With n_k pairs of outcome k, per-game
 * scores x_k = k/4 (k = 0..4), N = sum n_k and the empirical frequencies
 * p_k = n_k / N (a zero count is replaced by 1e-3 so every outcome stays
 * possible), the most likely distribution with mean score s is
 *     q_k(s) = p_k / (1 + lambda (x_k - s)),
 * lambda being the root of sum p_k (x_k - s) / (1 + lambda (x_k - s)) = 0
 * (found by bisection). Then
 *     LLR = N * sum p_k ln(q_k(s1) / q_k(s0)),  s0 = s(elo0), s1 = s(elo1).
 *
 * Wald's bounds: lower A = ln(beta / (1 - alpha)), upper B = ln((1 - beta) /
 * alpha). LLR >= B accepts H1, LLR <= A accepts H0, otherwise play on.
 * alpha bounds the chance of accepting H1 when elo <= elo0, beta that of
 * accepting H0 when elo >= elo1.
 */
#ifndef SKIPBO_SPRT_H
#define SKIPBO_SPRT_H

enum sprt_state { SPRT_CONTINUE = 0, SPRT_ACCEPT_H0 = -1, SPRT_ACCEPT_H1 = 1 };

struct sprt {
	double elo0, elo1, alpha, beta;
	double lower, upper;  /* Wald's bounds A and B */
	double pent[5];       /* pairs with A's pair score 0, 0.5, 1, 1.5, 2 */
	double pairs;
	double llr;
};

/*
 * Set up a test. -EINVAL unless elo0 < elo1 and 0 < alpha, beta < 0.5
 * and |elo| < 2000.
 */
int sprt_init(struct sprt *t, double elo0, double elo1, double alpha, double beta);

/* Count one pair (pair_score in {0, 0.5, 1, 1.5, 2}, A's points) and update the LLR. */
void sprt_add_pair(struct sprt *t, double pair_score);

/* Where the test stands. */
enum sprt_state sprt_status(const struct sprt *t);

/* The GSPRT LLR of counts pent[0..4] for elo0 against elo1; 0 without pairs. */
double sprt_llr(const double pent[5], double elo0, double elo1);

#endif
