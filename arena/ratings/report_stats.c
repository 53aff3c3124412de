/*
 * report_stats.c - what a report says about its ratings beyond the fit:
 * ranks within pools, bounds for ratings set by the prior alone, the
 * difference to the next bot, the worst-fitting pair, seat tests, and the
 * notes that explain them (contracts in report.h).
 */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A result this extreme has this chance at the bound. */
#define BOUND_CHANCE 0.05
/* Seat warnings below this p-value. */
#define SEAT_ALPHA 0.01

/* The rating at which the all-or-nothing result of bot i has BOUND_CHANCE (bisection). */
static double bound_rating(const struct report *r, size_t i, int best)
{
	double lo = -20000, hi = 20000, target = log(BOUND_CHANCE);

	for (int it = 0; it < 100; it++) {
		double mid = 0.5 * (lo + hi), f = rating_log_extreme(&r->pairs, r->fit.elo, r->fit.scale, i,
								     mid, best);
		/* Losing everything grows less likely as x rises; winning everything more. */
		if (best ? f < target : f > target)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static void find_bounds(struct report *r)
{
	size_t n = r->nbots;

	for (size_t i = 0; i < n; i++) {
		struct report_bot *b = &r->bots[i];
		double points = 0, games = 0;
		for (size_t j = 0; j < n; j++) {
			points += r->pairs.score[i * n + j];
			games += r->pairs.games[i * n + j];
		}
		/* a fixed rating (a league's anchor) is what it is, not a bound */
		if (games <= 0 || (points > 0 && points < games) || (r->fixed && !isnan(r->fixed[i])))
			continue;
		b->bound = points > 0 ? 1 : -1;
		b->bound_elo = bound_rating(r, i, b->bound > 0);
		r->bounds++;
	}
}

static void rank_and_next(struct report *r)
{
	size_t n = r->nbots, rank = 0;

	for (size_t k = 0; k < n; k++) {
		size_t i = r->order[k];
		struct report_bot *b = &r->bots[i];
		b->pool = r->fit.pool[i];
		/* a bot that never started is in a pool of its own, yet listed on after the
		 * last rated bot: its place counts on, and no new pool starts there */
		rank = k > 0 && (r->fit.pool[r->order[k - 1]] == b->pool ||
				 report_never_started(b)) ? rank + 1 : 1;
		b->rank = rank;
		b->next_diff = b->next_ci95 = NAN;
		/* A bound is no measurement to take a difference from. */
		if (k + 1 < n && r->fit.pool[r->order[k + 1]] == b->pool && !b->bound &&
		    !r->bots[r->order[k + 1]].bound) {
			size_t j = r->order[k + 1];
			double v = r->fit.cov[i * n + i] + r->fit.cov[j * n + j] -
				   2.0 * r->fit.cov[i * n + j];
			b->next_diff = b->elo - r->bots[j].elo;
			b->next_ci95 = v > 0 ? RATING_Z95 * sqrt(v) : 0.0;
		}
	}
}

/* The head-to-head pair furthest from what the ratings expect of it (partners' ratings
 * included where the results were a team's). Without memory for the expectations, none. */
static void worst_pair(struct report *r)
{
	size_t n = r->nbots;
	double *expect = calloc(n * n, sizeof(double)), *var = calloc(n * n, sizeof(double));

	r->fit_i = r->fit_j = -1;
	r->fit_pairs = 0;
	if (expect && var)
		rating_cross_expected(&r->pairs, r->fit.elo, r->fit.scale, expect, var);
	for (size_t i = 0; expect && var && i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double games = r->pairs.games[i * n + j], v = var[i * n + j];
			if (games <= 0 || !(v > 0) || r->bots[i].bound || r->bots[j].bound)
				continue;
			r->fit_pairs++;
			double z = (r->pairs.score[i * n + j] - expect[i * n + j]) / sqrt(v);
			if (r->fit_i < 0 || fabs(z) > fabs(r->fit_z)) {
				r->fit_i = (long)i;
				r->fit_j = (long)j;
				r->fit_z = z;
				r->fit_expected = expect[i * n + j] / games;
			}
		}
	if (r->fit_i >= 0)
		r->fit_p = erfc(fabs(r->fit_z) / M_SQRT2);
	free(expect);
	free(var);
}

void report_count_rated(struct report_bot *bots, const struct rating_result *res)
{
	for (int side = 0; side < 2; side++) {
		const unsigned *b = side ? res->b : res->a;
		double score = side ? 1.0 - res->score_a : res->score_a;
		for (int k = 0; k < (side ? res->nb : res->na); k++) {
			struct report_bot *bot = &bots[b[k]];
			bot->rated_w += score == 1.0;
			bot->rated_d += score == 0.5;
			bot->rated_l += score == 0.0;
		}
	}
}

/* P(chi-square with dof degrees of freedom > x), dof from 1 to 5: closed forms. */
static double chi2_survival(double x, int dof)
{
	double h = x / 2.0, term, sum;

	if (dof % 2 == 0) {
		term = sum = 1.0;
		for (int k = 1; k < dof / 2; k++) {
			term *= h / k;
			sum += term;
		}
		return exp(-h) * sum;
	}
	sum = erfc(sqrt(h));
	term = sqrt(x) * M_SQRT2 / sqrt(M_PI) * exp(-h);
	for (int k = 1; k <= (dof - 1) / 2; k++) {
		sum += term;
		term *= x / (2 * k + 1);
	}
	return sum;
}

/* Equal shares of wins among the sides (seats, or teams in partnership). */
static void seat_tests(struct report *r)
{
	for (int p = 0; p <= GAMELOG_SEATS_MAX; p++) {
		r->seat_p[p] = NAN;
		long games = r->seat_games[p], part = r->seat_partnership[p];
		if (p < 2 || !games || (part && part != games))
			continue;
		/* Team t's first seat is seat t (R10: 0+2, 1+3 or 0+3, 1+4, 2+5). */
		int sides = part ? p / 2 : p;
		double wins = 0, chi2 = 0;
		for (int t = 0; t < sides; t++)
			wins += (double)r->seat_wins[p][t];
		double expect = wins / sides;
		if (expect < 5)
			continue;
		for (int t = 0; t < sides; t++)
			chi2 += ((double)r->seat_wins[p][t] - expect) *
				((double)r->seat_wins[p][t] - expect) / expect;
		r->seat_p[p] = chi2_survival(chi2, sides - 1);
	}
}

void report_compute_stats(struct report *r)
{
	find_bounds(r);
	rank_and_next(r);
	worst_pair(r);
	seat_tests(r);
}

/* Append to line (size bytes) what snprintf would write; stops at the end of the buffer. */
static void append(char *line, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *line, size_t size, const char *fmt, ...)
{
	size_t len = strlen(line);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(line + len, size - len, fmt, ap);
	va_end(ap);
}

/* The kinds of game read: player count, and partnership or not. Returns how many. */
static int game_kinds(const struct report *r, int players[], int partnership[], long records[])
{
	int n = 0;

	for (int p = 2; p <= GAMELOG_SEATS_MAX; p++)
		for (int part = 0; part < 2; part++) {
			long count = part ? r->seat_partnership[p]
					  : r->seat_games[p] - r->seat_partnership[p];
			if (count <= 0)
				continue;
			players[n] = p;
			partnership[n] = part;
			records[n++] = count;
		}
	return n;
}

void report_model_lines(const struct report *r, void (*write_line)(void *ctx, const char *text),
			void *ctx)
{
	int players[2 * GAMELOG_SEATS_MAX], partnership[2 * GAMELOG_SEATS_MAX], any_team = 0;
	long records[2 * GAMELOG_SEATS_MAX];
	int kinds = game_kinds(r, players, partnership, records);
	char line[2048] = "";

	for (int k = 0; k < kinds; k++)
		any_team |= partnership[k];
	append(line, sizeof(line), "Model: %s Bradley-Terry fit of ",
	       any_team ? "team" : "pairwise");
	for (int k = 0; k < kinds; k++)
		append(line, sizeof(line), "%s%d-player%s games (%ld records)",
		       k == 0 ? "" : k + 1 == kinds ? " and " : ", ", players[k],
		       partnership[k] ? " partnership" : "", records[k]);
	append(line, sizeof(line), ": %s.", any_team ?
	       "one result per two teams (a bot alone is a team of one), a team's strength the "
	       "sum of its partners' ratings" : "one result per two players");
	if (kinds > 1 && r->fit.reference_kind >= 0) {
		/* Skip-Bo's Elo differences shrink as tables grow: one beta per kind (rating.h) */
		append(line, sizeof(line), " The kinds of game are joined on the Elo scale of "
		       "%s games: each other kind's Elo differences are multiplied by a fitted "
		       "discrimination (95%% interval):",
		       rating_kind_name(r->fit.reference_kind));
		for (int k = 0, first = 1; k < kinds; k++) {
			int c = rating_kind(players[k], partnership[k]);
			if (c == r->fit.reference_kind)
				continue;
			if (r->fit.scale_lo[c] == r->fit.scale_hi[c])
				append(line, sizeof(line), "%s %s x1 (too few results to fit one)",
				       first ? "" : ",", rating_kind_name(c));
			else
				append(line, sizeof(line), "%s %s x%.2f (%.2f-%.2f)", first ? "" : ",",
				       rating_kind_name(c), r->fit.scale[c], r->fit.scale_lo[c],
				       r->fit.scale_hi[c]);
			first = 0;
		}
		append(line, sizeof(line), ".");
	}
	write_line(ctx, line);
	snprintf(line, sizeof(line), "Ties: %.0f of %.0f rated results (%.1f%%) were ties, each "
		 "counted as half a point (as Ordo and BayesElo count a draw).", r->pairs.ties,
		 r->pairs.results, r->pairs.results > 0 ? 100.0 * r->pairs.ties / r->pairs.results : 0);
	write_line(ctx, line);
}

const char *report_elo_text(const struct report_bot *b, char *buf, size_t size)
{
	if (report_never_started(b))
		snprintf(buf, size, "unrated");
	else if (b->bound)
		snprintf(buf, size, "%s %.1f", b->bound < 0 ? "<" : ">", b->bound_elo);
	else
		snprintf(buf, size, "%.1f", b->elo);
	return buf;
}

const char *report_rank_text(const struct report_bot *b, char *buf, size_t size)
{
	if (report_never_started(b))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%zu", b->rank);
	return buf;
}

void report_notes(const struct report *r, void (*write_line)(void *ctx, const char *text),
		  void *ctx)
{
	void *out = ctx;

	char line[1024];

	if (r->pools > 1) {
		snprintf(line, sizeof(line), "Warning: the bots form %zu pools that never met, "
			 "directly or through other bots. Each pool is ranked on its own (its "
			 "average is 0 unless it holds the anchor); ratings of different pools "
			 "are not comparable.", r->pools);
		write_line(out, line);
	}
	if (r->bounds)
		write_line(out, "< x or > x: a rating set by the prior alone (the bot scored no "
			   "point, or lost none, against its pool). x is the rating at which a "
			   "result that extreme has a 5% chance given its opponents' ratings: the "
			   "true rating is below (above) it with 95% confidence.");
	if (r->fit_i >= 0) {
		const char *a = r->bots[r->fit_i].name, *b = r->bots[r->fit_j].name;
		size_t n = r->nbots, i = (size_t)r->fit_i, j = (size_t)r->fit_j;
		double games = r->pairs.games[i * n + j], adjusted = fmin(1.0, r->fit_p * (double)r->fit_pairs);
		snprintf(line, sizeof(line), "Fit: the largest head-to-head residual is %.64s "
			 "against %.64s, %.1f%% over %g results where the ratings expect %.1f%% "
			 "(z = %.2f, p = %.2g after %zu pairs): %s", a, b,
			 100.0 * r->pairs.score[i * n + j] / games, games,
			 100.0 * r->fit_expected, r->fit_z, adjusted, r->fit_pairs,
			 adjusted < 0.05 ? "the ratings do not explain this result (results that "
					   "go round in a cycle, or a strength that changed)."
					 : "within chance.");
		write_line(out, line);
	}
	for (int p = 2; p <= GAMELOG_SEATS_MAX; p++) {
		if (!(r->seat_p[p] < SEAT_ALPHA) || r->seat_rotated[p])
			continue;
		int sides = r->seat_partnership[p] ? p / 2 : p, len;
		len = snprintf(line, sizeof(line), "Warning: in %d-player games without duplicate "
			       "deals the %s won", p, r->seat_partnership[p] ? "teams" : "seats");
		for (int t = 0; t < sides && len > 0 && (size_t)len < sizeof(line); t++)
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%s %.1f%%",
					t ? "," : "", 100.0 * (double)r->seat_wins[p][t] /
					(double)r->seat_games[p]);
		if (len > 0 && (size_t)len < sizeof(line))
			snprintf(line + len, sizeof(line) - (size_t)len, " of the records, which "
				 "differs beyond chance (chi-square p = %.2g): the ratings do not "
				 "correct for seat order, so a bot that sat more often on a better "
				 "seat is overrated. Duplicate deals balance the seats.",
				 r->seat_p[p]);
		write_line(out, line);
	}
}

void report_partial_text(const struct report *r, char *buf, size_t size)
{
	char eta[64] = "";

	if (!r->games_expected) {
		snprintf(buf, size, "Partial: the run was stopped before every game was played; "
			 "the ranking is of the %zu records so far.", r->log->records);
		return;
	}
	if (r->eta_s >= 0)
		snprintf(eta, sizeof(eta), r->eta_s < 5400 ?
			 ", about %ld min left at the rate so far" :
			 ", about %ld h left at the rate so far", r->eta_s < 5400 ?
			 (r->eta_s + 59) / 60 : (r->eta_s + 1799) / 3600);
	snprintf(buf, size, "Partial: %llu of %llu games recorded (%.1f%%)%s; "
		 "the ranking is of these.", (unsigned long long)r->games_recorded,
		 (unsigned long long)r->games_expected,
		 100.0 * (double)r->games_recorded / (double)r->games_expected, eta);
}

void report_verdict(const struct report *r, char *buf, size_t size)
{
	const struct report_bot *a, *b;
	double los;

	buf[0] = '\0';
	if (r->nbots < 2 || r->pools > 1)
		return;
	a = &r->bots[r->order[0]];
	b = &r->bots[r->order[1]];
	los = rating_los(&r->fit, r->order[0], r->order[1]);
	/* two fixed ratings (a league's anchors) were given, not measured */
	if (r->fixed && !isnan(r->fixed[r->order[0]]) && !isnan(r->fixed[r->order[1]]))
		return;
	if (a->bound || !isfinite(a->next_diff) || !isfinite(a->next_ci95) || !isfinite(los))
		return;
	snprintf(buf, size, "%s leads %s by %.1f \u00b1 %.1f Elo; LOS %.0f%%: %s", a->name, b->name,
		 a->next_diff, a->next_ci95, 100.0 * los, a->next_diff - a->next_ci95 > 0 ?
		 "decided (the 95% interval of the lead is clear of 0)" : "not yet decided");
}
