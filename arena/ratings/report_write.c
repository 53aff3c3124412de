/*
 * report_write.c - ratings.json, ratings.csv and report.md (contracts in report.h).
 */
#include "report.h"
#include "gamelist.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define PAIRED_NOTE "Paired: duplicate deals only; each pair is both seat rotations of one deal, " \
	"the pair score (0..2) is the sum of the bot's two results; Elo of the mean score, " \
	"95% interval from the variance of pair scores (accounts for the shared deal). " \
	"A separate estimate from the fitted Elo."

static int stream_status(FILE *out)
{
	return ferror(out) ? -EIO : 0;
}

/* Numbers rounded for people: a JSON report with 17 digits helps nobody. */
static double round_to(double x, double unit)
{
	return round(x / unit) * unit;
}

/* A finite number, or null (JSON has no infinity). */
static cJSON *json_number(double x, double unit)
{
	return isfinite(x) ? cJSON_CreateNumber(round_to(x, unit)) : cJSON_CreateNull();
}

static void json_put(cJSON *obj, const char *key, double x, double unit)
{
	cJSON_AddItemToObject(obj, key, json_number(x, unit));
}

static cJSON *json_bot(const struct report *r, size_t rank, const struct report_bot *b)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *faults = cJSON_CreateObject();

	/* A bound has no interval: null rather than a number that would look measured. */
	double ci = b->bound ? NAN : b->ci95;

	cJSON_AddNumberToObject(o, "rank", (double)rank);
	cJSON_AddNumberToObject(o, "pool", (double)(b->pool + 1));
	cJSON_AddNumberToObject(o, "pool_rank", (double)b->rank);
	cJSON_AddStringToObject(o, "bot", b->name);
	json_put(o, "elo", b->elo, 0.01);
	if (b->bound) {
		cJSON_AddStringToObject(o, "elo_bound", b->bound < 0 ? "<" : ">");
		json_put(o, "elo_bound_value", b->bound_elo, 0.01);
	} else {
		cJSON_AddNullToObject(o, "elo_bound");
		cJSON_AddNullToObject(o, "elo_bound_value");
	}
	json_put(o, "ci95", ci, 0.01);
	json_put(o, "elo_lo", b->elo - ci, 0.01);
	json_put(o, "elo_hi", b->elo + ci, 0.01);
	if (isfinite(b->next_diff)) {
		cJSON *next = cJSON_AddObjectToObject(o, "next");
		json_put(next, "diff", b->next_diff, 0.01);
		json_put(next, "ci95", b->next_ci95, 0.01);
	} else {
		cJSON_AddNullToObject(o, "next");
	}
	cJSON *rated = cJSON_AddObjectToObject(o, "rated");
	cJSON_AddNumberToObject(rated, "wins", b->rated_w);
	cJSON_AddNumberToObject(rated, "draws", b->rated_d);
	cJSON_AddNumberToObject(rated, "losses", b->rated_l);
	json_put(rated, "score", report_rated_score(b), 0.0001);
	cJSON_AddNumberToObject(o, "games", (double)b->games);
	cJSON_AddNumberToObject(o, "real_wins", (double)b->wins);
	cJSON_AddNumberToObject(o, "wins", (double)b->wins);
	json_put(o, "win_rate", report_win_rate(b), 0.0001);
	cJSON_AddNumberToObject(o, "points", (double)b->points);
	json_put(o, "avg_stock_left", report_avg_stock(b), 0.001);
	for (int k = 0; k < GAMELOG_FAULT_KINDS; k++)
		cJSON_AddNumberToObject(faults, gamelog_fault_names[k], (double)b->faults[k]);
	cJSON_AddItemToObject(o, "faults", faults);
	cJSON_AddNumberToObject(o, "faults_total", (double)b->faults_total);
	if (b->time_moves > 0) {
		cJSON *t = cJSON_AddObjectToObject(o, "time");
		cJSON_AddNumberToObject(t, "moves", b->time_moves);
		json_put(t, "mean_us", b->time_mean_us, 0.1);
		json_put(t, "p99_us", b->time_p99_us, 0.1);
		json_put(t, "max_us", b->time_max_us, 0.1);
		json_put(t, "cpu_mean_us", b->time_cpu_mean_us, 0.1);
	} else {
		cJSON_AddNullToObject(o, "time");
	}
	if (r->duplicate_pairs && b->paired.pairs > 0) {
		cJSON *p = cJSON_AddObjectToObject(o, "paired");
		cJSON *pent = cJSON_AddArrayToObject(p, "pentanomial");
		cJSON_AddNumberToObject(p, "pairs", b->paired.pairs);
		for (int k = 0; k < 5; k++)
			cJSON_AddItemToArray(pent, cJSON_CreateNumber(b->pent[k]));
		json_put(p, "score", b->paired.score, 0.0001);
		json_put(p, "elo", b->paired.elo, 0.01);
		json_put(p, "elo_lo", b->paired.elo_lo, 0.01);
		json_put(p, "elo_hi", b->paired.elo_hi, 0.01);
	} else {
		cJSON_AddNullToObject(o, "paired");
	}
	return o;
}

/* The n x n matrices in rank order: cross-table scores and games, LOS, paired Elo. */
static void json_matrices(const struct report *r, cJSON *root)
{
	size_t n = r->nbots;
	cJSON *cross = cJSON_AddObjectToObject(root, "cross");
	cJSON *names = cJSON_AddArrayToObject(cross, "bots");
	cJSON *score = cJSON_AddArrayToObject(cross, "score");
	cJSON *games = cJSON_AddArrayToObject(cross, "games");
	cJSON *los = cJSON_AddArrayToObject(root, "los");

	for (size_t a = 0; a < n; a++) {
		size_t i = r->order[a];
		cJSON *srow = cJSON_CreateArray(), *grow = cJSON_CreateArray();
		cJSON *lrow = cJSON_CreateArray();
		cJSON_AddItemToArray(names, cJSON_CreateString(r->bots[i].name));
		for (size_t b = 0; b < n; b++) {
			size_t j = r->order[b];
			cJSON_AddItemToArray(srow, cJSON_CreateNumber(r->pairs.score[i * n + j]));
			cJSON_AddItemToArray(grow, cJSON_CreateNumber(r->pairs.games[i * n + j]));
			cJSON_AddItemToArray(lrow, json_number(rating_los(&r->fit, i, j), 0.0001));
		}
		cJSON_AddItemToArray(score, srow);
		cJSON_AddItemToArray(games, grow);
		cJSON_AddItemToArray(los, lrow);
	}
	if (!r->duplicate_pairs)
		return;
	cJSON *paired = cJSON_AddArrayToObject(root, "paired_pairs");
	for (size_t a = 0; a < n; a++) {
		for (size_t b = a + 1; b < n; b++) {
			size_t i = r->order[a], j = r->order[b];
			const double *pent = &r->pair_pent[(i * n + j) * 5];
			struct rating_paired st;
			rating_paired_stats(pent, &st);
			if (st.pairs <= 0)
				continue;
			cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "pentanomial");
			cJSON_AddStringToObject(o, "bot", r->bots[i].name);
			cJSON_AddStringToObject(o, "opponent", r->bots[j].name);
			cJSON_AddNumberToObject(o, "pairs", st.pairs);
			for (int k = 0; k < 5; k++)
				cJSON_AddItemToArray(arr, cJSON_CreateNumber(pent[k]));
			json_put(o, "score", st.score, 0.0001);
			json_put(o, "elo", st.elo, 0.01);
			json_put(o, "elo_lo", st.elo_lo, 0.01);
			json_put(o, "elo_hi", st.elo_hi, 0.01);
			cJSON_AddItemToArray(paired, o);
		}
	}
}

static void json_seats(const struct report *r, cJSON *root)
{
	cJSON *seats = cJSON_AddArrayToObject(root, "seats");

	for (int p = 2; p <= GAMELOG_SEATS_MAX; p++) {
		if (!r->seat_games[p])
			continue;
		cJSON *o = cJSON_CreateObject(), *rates = cJSON_AddArrayToObject(o, "win_rate");
		cJSON_AddNumberToObject(o, "players", p);
		cJSON_AddNumberToObject(o, "games", (double)r->seat_games[p]);
		cJSON_AddNumberToObject(o, "partnership", (double)r->seat_partnership[p]);
		cJSON_AddBoolToObject(o, "duplicate", r->seat_rotated[p] > 0);
		json_put(o, "equal_sides_p", r->seat_p[p], 1e-6);
		for (int s = 0; s < p; s++)
			cJSON_AddItemToArray(rates, json_number((double)r->seat_wins[p][s] /
								(double)r->seat_games[p], 0.0001));
		cJSON_AddItemToArray(seats, o);
	}
}

static void json_note(void *array, const char *text)
{
	cJSON_AddItemToArray(array, cJSON_CreateString(text));
}

static void json_fit(const struct report *r, cJSON *root)
{
	size_t n = r->nbots;

	if (r->fit_i < 0) {
		cJSON_AddNullToObject(root, "fit");
		return;
	}
	size_t i = (size_t)r->fit_i, j = (size_t)r->fit_j;
	cJSON *o = cJSON_AddObjectToObject(root, "fit");
	cJSON_AddStringToObject(o, "bot", r->bots[i].name);
	cJSON_AddStringToObject(o, "opponent", r->bots[j].name);
	cJSON_AddNumberToObject(o, "results", r->pairs.games[i * n + j]);
	json_put(o, "score", r->pairs.score[i * n + j] / r->pairs.games[i * n + j], 0.0001);
	json_put(o, "expected", r->fit_expected, 0.0001);
	json_put(o, "z", r->fit_z, 0.01);
	cJSON_AddNumberToObject(o, "pairs", (double)r->fit_pairs);
	json_put(o, "p_adjusted", fmin(1.0, r->fit_p * (double)r->fit_pairs), 1e-6);
}

/* A gauntlet's "challengers": each with its score against the field; absent otherwise. */
static void json_challengers(const struct report *r, cJSON *root)
{
	struct report_challenger *c;
	cJSON *list;
	size_t n;

	if (!r->challenger || !(c = calloc(r->nbots, sizeof(*c))))
		return;
	n = report_challengers(r, c);
	list = cJSON_AddArrayToObject(root, "challengers");
	for (size_t k = 0; k < n; k++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToArray(list, o);
		cJSON_AddStringToObject(o, "bot", c[k].bot->name);
		json_put(o, "field_results", c[k].results, 0.5);
		json_put(o, "field_score", c[k].results > 0 ? c[k].score / c[k].results : NAN,
			 0.0001);
		json_put(o, "elo_minus_field_mean", c[k].field_diff, 0.01);
	}
	free(c);
}

int report_write_json(const struct report *r, FILE *out)
{
	cJSON *json_notes;
	char method[2048];
	cJSON *root = cJSON_CreateObject();
	cJSON *bots;
	char *text = NULL;
	int rc = -ENOMEM;

	if (!root)
		goto out;
	report_method_text(r, method, sizeof(method));
	cJSON_AddStringToObject(root, "format", "skipbo-arena ratings 1");
	cJSON_AddStringToObject(root, "method", method);
	cJSON_AddBoolToObject(root, "partial", r->partial);
	if (r->games_expected) {
		cJSON_AddNumberToObject(root, "games_recorded", (double)r->games_recorded);
		cJSON_AddNumberToObject(root, "games_expected", (double)r->games_expected);
		if (r->eta_s >= 0)
			cJSON_AddNumberToObject(root, "eta_s", (double)r->eta_s);
	}
	cJSON_AddBoolToObject(root, "processes_reused", r->reused_processes);
	if (r->anchor >= 0)
		cJSON_AddStringToObject(root, "anchor", r->bots[r->anchor].name);
	else
		cJSON_AddNullToObject(root, "anchor");
	cJSON_AddNumberToObject(root, "anchor_elo", r->anchor_elo);
	if (r->fixed) {
		cJSON *fixed = cJSON_AddObjectToObject(root, "fixed");

		for (size_t i = 0; fixed && i < r->nbots; i++)
			if (!isnan(r->fixed[i]))
				cJSON_AddNumberToObject(fixed, r->bots[i].name, r->fixed[i]);
	}
	cJSON_AddStringToObject(root, "intervals", r->plain_intervals ? "plain" : "robust");
	cJSON_AddNumberToObject(root, "pools", (double)r->pools);
	cJSON_AddNumberToObject(root, "prior_draws", r->prior_draws);
	cJSON_AddNumberToObject(root, "records", (double)r->log->records);
	cJSON_AddNumberToObject(root, "skipped_torn", (double)r->log->torn);
	cJSON_AddNumberToObject(root, "skipped_invalid", (double)r->log->invalid);
	cJSON_AddNumberToObject(root, "skipped_repeated", (double)r->log->repeated);
	cJSON_AddNumberToObject(root, "duplicate_pairs", (double)r->duplicate_pairs);
	cJSON_AddNumberToObject(root, "rated_results", r->pairs.results);
	cJSON_AddNumberToObject(root, "rated_ties", r->pairs.ties);
	if (r->duplicate_pairs)
		cJSON_AddStringToObject(root, "paired_method", PAIRED_NOTE);
	bots = cJSON_AddArrayToObject(root, "bots");
	for (size_t k = 0; k < r->nbots; k++)
		cJSON_AddItemToArray(bots, json_bot(r, k + 1, &r->bots[r->order[k]]));
	json_challengers(r, root);
	json_matrices(r, root);
	json_seats(r, root);
	json_fit(r, root);
	json_notes = cJSON_AddArrayToObject(root, "notes");
	report_model_lines(r, json_note, json_notes);
	report_notes(r, json_note, json_notes);
	text = cJSON_Print(root);
	if (!text)
		goto out;
	fputs(text, out);
	fputc('\n', out);
	rc = stream_status(out);
out:
	free(text);
	cJSON_Delete(root);
	return rc;
}

/* RFC 4180 quoting when the field needs it. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

int report_write_csv(const struct report *r, FILE *out)
{
	fputs("rank,bot,elo,ci95,elo_lo,elo_hi,games,wins,win_rate,points,avg_stock_left,faults", out);
	for (int k = 0; k < GAMELOG_FAULT_KINDS; k++)
		fprintf(out, ",fault_%s", gamelog_fault_names[k]);
	fputs(",time_moves,time_mean_us,time_p99_us,time_max_us,time_cpu_mean_us,"
	      "paired_pairs,paired_score,paired_elo,paired_elo_lo,paired_elo_hi,"
	      "pool,pool_rank,elo_bound,elo_bound_value,next_diff,next_ci95,"
	      "rated_wins,rated_draws,rated_losses,rated_score,real_wins\n", out);
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		fprintf(out, "%zu,", k + 1);
		csv_field(out, b->name);
		fprintf(out, ",%.2f,", b->elo);
		/* A bound has no interval: empty fields rather than numbers that look measured. */
		if (!b->bound)
			fprintf(out, "%.2f,%.2f,%.2f", b->ci95, b->elo - b->ci95, b->elo + b->ci95);
		else
			fputs(",,", out);
		fprintf(out, ",%ld,%ld,%.4f,%ld,%.3f,%ld", b->games, b->wins, report_win_rate(b),
			b->points, report_avg_stock(b), b->faults_total);
		for (int f = 0; f < GAMELOG_FAULT_KINDS; f++)
			fprintf(out, ",%ld", b->faults[f]);
		if (b->time_moves > 0)
			fprintf(out, ",%.0f,%.1f,%.1f,%.1f,%.1f", b->time_moves, b->time_mean_us,
				b->time_p99_us, b->time_max_us, b->time_cpu_mean_us);
		else
			fputs(",0,,,,", out);
		if (b->paired.pairs > 0) {
			fprintf(out, ",%.0f,%.4f,%.2f,", b->paired.pairs, b->paired.score,
				b->paired.elo);
			if (isfinite(b->paired.elo_lo))
				fprintf(out, "%.2f,%.2f", b->paired.elo_lo, b->paired.elo_hi);
			else
				fputs(",", out);
		} else {
			fputs(",0,,,,", out);
		}
		fprintf(out, ",%zu,%zu,", b->pool + 1, b->rank);
		if (b->bound)
			fprintf(out, "%s,%.2f", b->bound < 0 ? "<" : ">", b->bound_elo);
		else
			fputs(",", out);
		if (isfinite(b->next_diff))
			fprintf(out, ",%.2f,%.2f", b->next_diff, b->next_ci95);
		else
			fputs(",,", out);
		fprintf(out, ",%.0f,%.0f,%.0f,%.4f,%ld\n", b->rated_w, b->rated_d, b->rated_l,
			report_rated_score(b), b->wins);
	}
	return stream_status(out);
}

/* A word character, across which GitHub's Markdown reads no '_' as emphasis. */
static bool md_word(char c)
{
	return isalnum((unsigned char)c) || (unsigned char)c >= 0x80;
}

void report_md_text(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '\n' || *p == '\r') {
			fputc(' ', out);
			continue;
		}
		if (strchr("\\`*[]<>|~", *p) ||
		    (*p == '_' && (p == s || !md_word(p[-1]) || !md_word(p[1]))))
			fputc('\\', out);
		fputc(*p, out);
	}
}

static void md_text(FILE *out, const char *s)
{
	report_md_text(out, s);
}

static void md_ranking_head(FILE *out)
{
	fputs("| rank | bot | Elo | ±95% | to next ±95% | rated score | rated W/D/L | games "
	      "| real wins | real win % | points | avg stock left "
	      "| faults | move time mean / p99 / max (µs) | CPU per move (µs) |\n", out);
	fputs("|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|:---|---:|\n",
	      out);
}

static void md_ranking(const struct report *r, FILE *out)
{
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		char elo[48], rank[24];
		if (b->rank == 1) {
			if (r->pools > 1)
				fprintf(out, "%s### Pool %zu\n\n", k ? "\n" : "", b->pool + 1);
			md_ranking_head(out);
		}
		fprintf(out, "| %s | ", report_rank_text(b, rank, sizeof(rank)));
		md_text(out, b->name);
		fprintf(out, " | %s%s | ", report_elo_text(b, elo, sizeof(elo)), b->bound ? " *" : "");
		if (b->bound)
			fputs("- | ", out);
		else
			fprintf(out, "%.1f | ", b->ci95);
		if (isfinite(b->next_diff))
			fprintf(out, "%.1f ± %.1f | ", b->next_diff, b->next_ci95);
		else
			fputs("- | ", out);
		fprintf(out, "%.1f%% | %.0f / %.0f / %.0f | %ld | %ld | %.1f | %ld | %.2f | ",
			100.0 * report_rated_score(b), b->rated_w, b->rated_d, b->rated_l,
			b->games, b->wins, 100.0 * report_win_rate(b), b->points,
			report_avg_stock(b));
		if (!b->faults_total)
			fputs("0", out);
		report_write_faults(b, out);
		if (b->time_moves > 0)
			fprintf(out, " | %.1f / %.0f / %.0f | %.1f |\n", b->time_mean_us,
				b->time_p99_us, b->time_max_us, b->time_cpu_mean_us);
		else
			fputs(" | - | - |\n", out);
	}
}

static void md_paired(const struct report *r, FILE *out)
{
	fprintf(out, "\n## Paired statistics (duplicate deals)\n\n%s\n\n%zu complete pairs.\n\n",
		PAIRED_NOTE, r->duplicate_pairs);
	fputs("| bot | pairs | 0 | ½ | 1 | 1½ | 2 | mean score | paired Elo | 95% interval |\n", out);
	fputs("|:---|---:|---:|---:|---:|---:|---:|---:|---:|:---|\n", out);
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		if (b->paired.pairs <= 0)
			continue;
		fputs("| ", out);
		md_text(out, b->name);
		fprintf(out, " | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.4f | %.1f | ",
			b->paired.pairs, b->pent[0], b->pent[1], b->pent[2], b->pent[3], b->pent[4],
			b->paired.score, b->paired.elo);
		if (isfinite(b->paired.elo_lo))
			fprintf(out, "%.1f to %.1f |\n", b->paired.elo_lo, b->paired.elo_hi);
		else
			fputs("- |\n", out);
	}
}

/* The head of an n x n table in rank order, columns numbered by rank, after its title. */
static void md_matrix_head(size_t n, FILE *out)
{
	fputs("| bot |", out);
	for (size_t b = 0; b < n; b++)
		fprintf(out, " %zu |", b + 1);
	fputs("\n|:---|", out);
	for (size_t b = 0; b < n; b++)
		fputs("---:|", out);
	fputc('\n', out);
}

/* The row label of the bot at rank a + 1. */
static void md_matrix_row_label(const struct report *r, size_t a, FILE *out)
{
	fprintf(out, "| %zu. ", a + 1);
	md_text(out, r->bots[r->order[a]].name);
	fputs(" |", out);
}

static void md_cross(const struct report *r, FILE *out)
{
	size_t n = r->nbots;

	fputs("\n## Head to head\n\nEach cell: the row bot's score against the column bot "
	      "(wins + draws/2) / results.\n\n", out);
	md_matrix_head(n, out);
	for (size_t a = 0; a < n; a++) {
		size_t i = r->order[a];
		md_matrix_row_label(r, a, out);
		for (size_t b = 0; b < n; b++) {
			size_t j = r->order[b];
			if (i == j || r->pairs.games[i * n + j] <= 0)
				fputs(" - |", out);
			else
				fprintf(out, " %g/%g |", r->pairs.score[i * n + j],
					r->pairs.games[i * n + j]);
		}
		fputc('\n', out);
	}
	fputs("\n## Likelihood of superiority\n\nEach cell: the probability that the row bot "
	      "is stronger than the column bot.\n\n", out);
	md_matrix_head(n, out);
	for (size_t a = 0; a < n; a++) {
		md_matrix_row_label(r, a, out);
		for (size_t b = 0; b < n; b++)
			if (a == b || !isfinite(rating_los(&r->fit, r->order[a], r->order[b])))
				fputs(" - |", out);
			else
				fprintf(out, " %.3f |", rating_los(&r->fit, r->order[a], r->order[b]));
		fputc('\n', out);
	}
}

static void md_seats(const struct report *r, FILE *out)
{
	fputs("\n## Win rate by seat\n\nShare of records won by each seat (seat 0 moves first "
	      "in tournament games).\n\n| players | records |", out);
	for (int s = 0; s < GAMELOG_SEATS_MAX; s++)
		fprintf(out, " seat %d |", s);
	fputs("\n|---:|---:|", out);
	for (int s = 0; s < GAMELOG_SEATS_MAX; s++)
		fputs("---:|", out);
	fputc('\n', out);
	for (int p = 2; p <= GAMELOG_SEATS_MAX; p++) {
		if (!r->seat_games[p])
			continue;
		fprintf(out, "| %d | %ld |", p, r->seat_games[p]);
		for (int s = 0; s < GAMELOG_SEATS_MAX; s++)
			if (s < p)
				fprintf(out, " %.1f%% |", 100.0 * (double)r->seat_wins[p][s] /
							(double)r->seat_games[p]);
			else
				fputs(" |", out);
		fputc('\n', out);
	}
}

/* A note as its own paragraph; a bound's note is the footnote of its "*". */
static void md_note(void *out, const char *text)
{
	fputc('\n', out);
	if (text[0] == '<')
		fputs("\\* ", out);
	md_text(out, text);
	fputc('\n', out);
}

/* Every bot's faults by kind (R11), or a line saying there were none. */
static void md_faults(const struct report *r, FILE *out)
{
	int any = 0;

	fputs("\n## Faults\n\n", out);
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];

		if (!b->faults_total)
			continue;
		if (!any++)
			fputs("| bot | games | faults | by kind |\n|:---|---:|---:|:---|\n", out);
		fputs("| ", out);
		md_text(out, b->name);
		fprintf(out, " | %ld | %ld | ", b->games, b->faults_total);
		report_write_faults(b, out);
		fputs(" |\n", out);
	}
	fputs(any ? "\nEach fault removed the bot from its game (R11); games.jsonl records its "
	      "reason, turn and move.\n" : "No bot faulted (R11).\n", out);
	if (any && r->games)
		gamelist_write_fault_reasons_md(r->games, out, md_text);
}

int report_write_md(const struct report *r, FILE *out)
{
	char method[2048], verdict[256];

	report_method_text(r, method, sizeof(method));
	fprintf(out, "# %s\n\n", r->title);
	report_verdict(r, verdict, sizeof(verdict));
	if (verdict[0]) {
		fputs("**", out);
		md_text(out, verdict);
		fputs("**\n\n", out);
	}
	if (r->partial) {
		char partial[256];

		report_partial_text(r, partial, sizeof(partial));
		fputs("**", out);
		md_text(out, partial);
		fputs("**\n\n", out);
	}
	if (r->reused_processes)
		fprintf(out, "**%s**.\n\n", REPORT_REUSED_TEXT);
	if (r->section_md && r->section_md(r->section_ctx, out) < 0)
		return -EIO;
	report_write_sources(r, out, md_text);
	fputs(".\n", out);
	report_model_lines(r, md_note, out);
	fputs("\n## Ranking\n\n", out);
	md_ranking(r, out);
	fputs("\n" REPORT_QUOTE_NOTE "\n", out);
	report_notes(r, md_note, out);
	report_write_gauntlet(r, REPORT_MD, out, md_text);
	fprintf(out, "\n%s\n\nMove times: mean and max over all moves; p99 is the moves-weighted "
		"mean of the per-game p99s.\n", method);
	if (r->duplicate_pairs)
		md_paired(r, out);
	md_cross(r, out);
	md_seats(r, out);
	md_faults(r, out);
	return stream_status(out);
}
