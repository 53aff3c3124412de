/*
 * rating_score.h - scores and Elo differences on the logistic scale, in
 * closed form: the expected score of a difference, its inverse, and the
 * score of duplicate game pairs with its interval. No fit: rating.h fits
 * ratings to many results and reports on this scale.
 *
 * Functions are pure; they never fail.
 */
#ifndef SKIPBO_RATING_SCORE_H
#define SKIPBO_RATING_SCORE_H

/* The two-sided 95% quantile of the standard normal distribution. */
#define RATING_Z95 1.959963984540054

/* Expected score for an Elo difference, and its inverse (score clamped to
 * [0.001, 0.999], so a perfect score reads as +-1200 Elo rather than infinity). */
double rating_expected(double elo_diff);
double rating_elo_from_score(double score);

/*
 * Duplicate game pairs (2 players, both seat rotations of one deal). Pair
 * scores of one bot take the values 0, 0.5, 1, 1.5, 2 (the pentanomial);
 * counts[k] is the number of pairs that scored k / 2.
 *
 * rating_paired_stats: mean score per game s = mean pair score / 2, its
 * standard error from the sample variance of the pair scores (so the
 * correlation of the two games of a deal is accounted for), Elo =
 * rating_elo_from_score(s), and the 95% interval as the Elo of s -+ 1.96 SE
 * (lo, hi; asymmetric). Fewer than 2 pairs, or all pair scores equal: no
 * error bar (lo = -inf, hi = +inf).
 */
struct rating_paired {
	double pairs;
	double score;   /* mean per game */
	double score_se;
	double elo, elo_lo, elo_hi;
};

void rating_paired_stats(const double counts[5], struct rating_paired *out);

#endif
