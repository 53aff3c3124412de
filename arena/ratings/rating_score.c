/*
 * rating_score.c - the Elo scale in closed form (rating_score.h).
 */
#include "rating_score.h"

#include <math.h>
#include <string.h>

/* Scores this close to 0 or 1 read as +-1200 Elo, not infinity. */
#define SCORE_CLAMP 0.001

double rating_expected(double elo_diff)
{
	return 1.0 / (1.0 + pow(10.0, -elo_diff / 400.0));
}

double rating_elo_from_score(double score)
{
	if (score < SCORE_CLAMP)
		score = SCORE_CLAMP;
	if (score > 1.0 - SCORE_CLAMP)
		score = 1.0 - SCORE_CLAMP;
	return 400.0 * log10(score / (1.0 - score));
}

void rating_paired_stats(const double counts[5], struct rating_paired *out)
{
	double n = 0, sum = 0, ss = 0;

	for (int k = 0; k < 5; k++) {
		n += counts[k];
		sum += counts[k] * (k / 2.0);
	}
	memset(out, 0, sizeof(*out));
	out->pairs = n;
	out->elo_lo = -INFINITY;
	out->elo_hi = INFINITY;
	if (n <= 0) {
		out->score = 0.5;
		return;
	}
	double mean = sum / n;
	out->score = mean / 2.0;
	out->elo = rating_elo_from_score(out->score);
	if (n < 2)
		return;
	for (int k = 0; k < 5; k++)
		ss += counts[k] * (k / 2.0 - mean) * (k / 2.0 - mean);
	out->score_se = sqrt(ss / (n - 1.0) / n) / 2.0;
	/* Identical pair scores give a zero-width interval that would claim certainty. */
	if (!(ss > 0))
		return;
	out->elo_lo = rating_elo_from_score(out->score - RATING_Z95 * out->score_se);
	out->elo_hi = rating_elo_from_score(out->score + RATING_Z95 * out->score_se);
}
