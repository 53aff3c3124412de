/*
 * report_html.c - report.html (contract in report_html.h).
 *
 * Charts are plain SVG computed here, so they need no script, and the page
 * works from a file:// URL with the network off; only the game list's filter
 * (gamelist.c) is a few lines of inline script. No chart is shrunk to the
 * page (at 400 px its labels were 5 px): the Elo and move time charts are
 * as wide as the page (below), the heat map keeps its size and scrolls
 * sideways in its own box (div.chart) where the page is narrower.
 */
#include "report_html.h"
#include "gamelist.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CHART_W 760.0
#define LABEL_W 170.0
#define CELL 44.0

/*
 * The Elo and move time charts are fluid: as wide as the page up to CHART_W
 * px, x in percent of that width and text in px, so their labels keep 12 px
 * at any width. Each bot's name stands above its row, so the plot has the
 * whole width; it runs from PLOT_PAD to 100 - PLOT_PAD percent, which leaves
 * room for half a tick label at each end at 400 px. FLUID_ROW_H: px per bot.
 */
#define PLOT_PAD 6.0
#define FLUID_ROW_H 36.0
#define PLOT_PCT(f) (PLOT_PAD + (f) * (100.0 - 2 * PLOT_PAD))

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<style>\n"
	"body{font-family:sans-serif;margin:1em;color:#222;background:#fff}\n"
	"table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"p.warn,div.warn{border:3px solid #d55e00;background:#fff3e6;padding:0.4em 0.6em;"
	"max-width:60em}\np.warn::before,div.warn::before{content:\"\\26A0  \";font-weight:bold}\n"
	"dl.settings{display:grid;grid-template-columns:max-content 1fr;gap:2px 1em;max-width:60em}\n"
	"dl.settings dt{font-weight:bold}\ndl.settings dd{margin:0;overflow-wrap:anywhere}\n"
	"th,td{border:1px solid #bbb;padding:3px 7px;text-align:right}\n"
	"th{background:#eef}\ntd.name,th.name{text-align:left}\n"
	"p.note{max-width:60em;font-size:90%;color:#444}\n"
	"div.chart{overflow-x:auto;max-width:100%;margin:0.5em 0 1.5em}\n"
	"svg{display:block;font-size:12px}\nsvg.fluid{max-width:760px}\n"
	"svg text{fill:#222}\nsvg text.light{fill:#fff}\n"
	"svg text.halo{stroke:#fff;stroke-width:4px;paint-order:stroke}\n"
	"</style>\n";

static void html_ranking(const struct report *r, FILE *out)
{
	fputs("<h2>Ranking</h2>\n<div class=\"scroll\"><table id=\"ranking\">\n<thead><tr><th>rank</th>"
	      "<th class=\"name\">bot</th><th>Elo</th><th>&plusmn;95%</th>"
	      "<th>to next &plusmn;95%</th><th>rated score</th><th>rated W/D/L</th><th>games</th>"
	      "<th>real wins</th><th>real win %</th><th>points</th><th>avg stock left</th>"
	      "<th class=\"name\">faults</th><th>move time mean / p99 / max (&micro;s)</th>"
	      "<th>CPU per move (&micro;s)</th>"
	      "</tr></thead>\n<tbody>\n", out);
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		char elo[48], rank[24];
		/* Disconnected pools: each is its own ranking under its own heading row. */
		if (r->pools > 1 && b->rank == 1)
			fprintf(out, "<tr class=\"pool\"><th colspan=\"15\" class=\"name\">Pool %zu"
				"</th></tr>\n", b->pool + 1);
		fprintf(out, "<tr><td>%s</td><td class=\"name\">",
			report_rank_text(b, rank, sizeof(rank)));
		report_html_text(out, b->name);
		fputs("</td><td>", out);
		report_html_text(out, report_elo_text(b, elo, sizeof(elo)));
		fputs(b->bound ? " *</td><td>-</td>" : "</td>", out);
		if (!b->bound)
			fprintf(out, "<td>%.1f</td>", b->ci95);
		if (isfinite(b->next_diff))
			fprintf(out, "<td>%.1f &plusmn; %.1f</td>", b->next_diff, b->next_ci95);
		else
			fputs("<td>-</td>", out);
		fprintf(out, "<td>%.1f%%</td><td>%.0f / %.0f / %.0f</td><td>%ld</td><td>%ld</td>"
			"<td>%.1f</td><td>%ld</td><td>%.2f</td><td class=\"name\">",
			100.0 * report_rated_score(b), b->rated_w, b->rated_d, b->rated_l,
			b->games, b->wins, 100.0 * report_win_rate(b), b->points,
			report_avg_stock(b));
		if (!b->faults_total)
			fputs("0", out);
		report_write_faults(b, out);
		if (b->time_moves > 0)
			fprintf(out, "</td><td>%.1f / %.0f / %.0f</td><td>%.1f</td></tr>\n",
				b->time_mean_us, b->time_p99_us, b->time_max_us, b->time_cpu_mean_us);
		else
			fputs("</td><td>-</td><td>-</td></tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) giving about 6 ticks over span. */
static double tick_step(double span)
{
	double raw = span / 6.0, p = pow(10.0, floor(log10(raw))), f = raw / p;

	return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * p;
}

/*
 * How many ticks lo, lo + step, ... up to hi are drawn: at most AXIS_TICKS_MAX
 * whatever the numbers, 0 when they are not finite. Every axis loop counts
 * ticks with an integer, never by adding a step to a double (which a huge
 * value or a step below its precision would make endless).
 */
#define AXIS_TICKS_MAX 64

static int axis_ticks(double lo, double hi, double step)
{
	double n;

	if (!isfinite(lo) || !isfinite(hi) || !isfinite(step) || !(step > 0) || hi < lo)
		return 0;
	n = floor((hi - lo) / step + 0.5) + 1;
	return n < 1 ? 0 : n > AXIS_TICKS_MAX ? AXIS_TICKS_MAX : (int)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double bot_elo(const struct report_bot *b)
{
	return b->bound ? b->bound_elo : b->elo;
}

/*
 * The Elo axis: every bot's value and interval, except that one far from the
 * others (a winless bot, say) would squeeze them all into a corner. So the
 * axis spans at most ELO_SPREADS robust spreads (1.4826 median absolute
 * deviations, at least ELO_SPREAD_MIN) each side of the median; a value or
 * interval beyond is drawn clipped at the axis end and labelled.
 */
#define ELO_SPREADS 5.0
#define ELO_SPREAD_MIN 100.0

static void elo_axis(const struct report *r, double *lo, double *hi)
{
	double *v = calloc(r->nbots ? r->nbots : 1, sizeof(*v)), med, spread, core_lo, core_hi;
	size_t n = r->nbots;

	*lo = *hi = 0;
	if (!v)
		return;
	/* a bot that never started is not rated (report.h): not on the axis */
	n = 0;
	for (size_t i = 0; i < r->nbots; i++)
		if (!report_never_started(&r->bots[i]))
			v[n++] = bot_elo(&r->bots[i]);
	qsort(v, n, sizeof(*v), cmp_double);
	med = n ? (v[(n - 1) / 2] + v[n / 2]) / 2 : 0;
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	qsort(v, n, sizeof(*v), cmp_double);
	spread = fmax(1.4826 * (n ? (v[(n - 1) / 2] + v[n / 2]) / 2 : 0), ELO_SPREAD_MIN);
	free(v);
	core_lo = med - ELO_SPREADS * spread;
	core_hi = med + ELO_SPREADS * spread;
	*lo = *hi = fmin(fmax(0, core_lo), core_hi);
	for (size_t i = 0; i < r->nbots; i++) {
		const struct report_bot *b = &r->bots[i];
		double ci = b->bound || !isfinite(b->ci95) ? 0 : b->ci95;

		if (report_never_started(b))
			continue;

		*lo = fmin(*lo, fmax(bot_elo(b) - ci, core_lo));
		*hi = fmax(*hi, fmin(bot_elo(b) + ci, core_hi));
	}
}

static void html_elo_chart(const struct report *r, FILE *out)
{
	double lo, hi;
	int clipped = 0;

	elo_axis(r, &lo, &hi);
	double step = tick_step(hi - lo > 1 ? hi - lo : 1);
	lo = floor(lo / step) * step;
	hi = ceil(hi / step) * step;
	if (hi <= lo)
		hi = lo + step;
	double height = FLUID_ROW_H * (double)r->nbots + 40;
#define ELO_X(e) PLOT_PCT((fmin(fmax((e), lo), hi) - lo) / (hi - lo))
	fprintf(out, "<h2>Elo with 95%% intervals</h2>\n<div class=\"chart\"><svg id=\"elo-chart\" "
		"class=\"fluid\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" "
		"height=\"%.0f\" role=\"img\" aria-label=\"Elo with 95%% intervals\">\n", height);
	for (int i = 0, n = axis_ticks(lo, hi, step); i < n; i++) {
		double t = lo + step * i, x = ELO_X(t);
		fprintf(out, "<line x1=\"%.2f%%\" y1=\"10\" x2=\"%.2f%%\" y2=\"%.1f\" stroke=\"%s\"/>"
			"<text x=\"%.2f%%\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
			x, x, height - 25, fabs(t) < step / 2 ? "#888" : "#ddd", x, height - 10,
			fabs(t) < step / 2 ? 0.0 : t);
	}
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		double y = 10 + FLUID_ROW_H * (double)k + 26;
		char elo[48];

		/* the value in words too: a phone shows no tooltip */
		fprintf(out, "<text class=\"name\" x=\"0\" y=\"%.1f\">", y - 12);
		report_html_text(out, b->name);
		fprintf(out, "</text><text class=\"value\" x=\"100%%\" y=\"%.1f\" "
			"text-anchor=\"end\">", y - 12);
		if (report_never_started(b)) {
			fputs("never started: not rated</text>\n", out);
			continue;
		}
		report_html_text(out, report_elo_text(b, elo, sizeof(elo)));
		if (!b->bound)
			fprintf(out, " &#177; %.1f", b->ci95);
		fputs("</text>", out);
		if (bot_elo(b) < lo || bot_elo(b) > hi) {
			/* Clipped: an arrow at the axis end pointing off it, and the value. */
			int low = bot_elo(b) < lo;

			clipped = 1;
			fprintf(out, "<svg x=\"%.2f%%\" y=\"%.1f\" overflow=\"visible\">"
				"<path class=\"clipped\" d=\"M%d 0l%d -7v14z\" fill=\"#d55e00\"/>"
				"<text class=\"halo\" x=\"%d\" y=\"4\" text-anchor=\"%s\">%.0f off the axis</text>"
				"</svg>", ELO_X(bot_elo(b)), y, low ? -2 : 2, low ? 10 : -10,
				low ? 14 : -14, low ? "start" : "end", bot_elo(b));
		}
		if (b->bound) {
			/* A bound: a hollow marker at it and a line running off the chart. */
			double x = ELO_X(b->bound_elo), end = b->bound < 0 ? 0 : 100;
			fprintf(out, "<line x1=\"%.2f%%\" y1=\"%.1f\" x2=\"%.2f%%\" y2=\"%.1f\" "
				"stroke=\"#999\" stroke-width=\"3\" stroke-dasharray=\"4 3\"/>"
				"<circle class=\"elo\" cx=\"%.2f%%\" cy=\"%.1f\" r=\"5\" fill=\"#fff\" "
				"stroke=\"#204a87\"><title>%s %.1f (prior alone)</title></circle>\n",
				x, y, end, y, x, y, b->bound < 0 ? "&lt;" : "&gt;", b->bound_elo);
			continue;
		}
		fprintf(out, "<line x1=\"%.2f%%\" y1=\"%.1f\" x2=\"%.2f%%\" y2=\"%.1f\" "
			"stroke=\"#3465a4\" stroke-width=\"3\"/><circle class=\"elo\" cx=\"%.2f%%\" "
			"cy=\"%.1f\" r=\"5\" fill=\"#204a87\"><title>%.1f &#177; %.1f</title>"
			"</circle>\n", ELO_X(b->elo - b->ci95), y, ELO_X(b->elo + b->ci95), y,
			ELO_X(b->elo), y, b->elo, b->ci95);
	}
#undef ELO_X
	fputs("</svg></div>\n", out);
	if (clipped)
		fputs("<p class=\"note\">A bot far from the others is drawn at the end of the axis "
		      "with an arrow and its value, so that it does not squeeze the rest.</p>\n", out);
}

/* Orange (0) through light grey (0.5) to blue (1): a diverging scale that
 * people with red-green colour blindness tell apart (ColorBrewer's PuOr ends);
 * every cell also prints its value. */
static void heat_colour(double f, char *buf, size_t size)
{
	static const double loss[3] = { 230, 97, 1 }, even[3] = { 247, 247, 247 },
		win[3] = { 5, 113, 176 };
	const double *end = f < 0.5 ? loss : win;
	double t = fmin(fabs(f - 0.5) / 0.5, 1);
	int c[3];

	for (int k = 0; k < 3; k++)
		c[k] = (int)lround(even[k] + (end[k] - even[k]) * t);
	snprintf(buf, size, "rgb(%d,%d,%d)", c[0], c[1], c[2]);
}

static void html_heatmap(const struct report *r, FILE *out)
{
	size_t n = r->nbots;
	double size_w = LABEL_W + CELL * (double)n + 10, size_h = 30 + CELL * (double)n + 10;

	fprintf(out, "<h2>Head to head</h2>\n<p class=\"note\">Each cell: the row bot's score "
		"against the column bot (wins + draws/2 over results) and the number of results; "
		"columns are numbered by rank. Blue: the row bot scored more, orange: less, grey: "
		"even.</p>\n<div class=\"chart\"><svg id=\"cross-heatmap\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"head to head heat map\">\n",
		size_w, size_h, size_w, size_h);
	for (size_t b = 0; b < n; b++)
		fprintf(out, "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\">%zu</text>\n",
			LABEL_W + CELL * ((double)b + 0.5), b + 1);
	for (size_t a = 0; a < n; a++) {
		size_t i = r->order[a];
		double y = 30 + CELL * (double)a;
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%zu. ", LABEL_W - 8,
			y + CELL / 2 + 4, a + 1);
		report_html_text(out, r->bots[i].name);
		fputs("</text>\n", out);
		for (size_t b = 0; b < n; b++) {
			size_t j = r->order[b];
			double x = LABEL_W + CELL * (double)b, games = r->pairs.games[i * n + j];
			if (i == j) {
				fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
					"fill=\"#ccc\"/>\n", x, y, CELL - 2, CELL - 2);
				continue;
			}
			double f = games > 0 ? r->pairs.score[i * n + j] / games : 0.5;
			char colour[48];
			heat_colour(f, colour, sizeof(colour));
			fprintf(out, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
				"height=\"%.0f\" fill=\"%s\"><title>%g / %g</title></rect>", x, y,
				CELL - 2, CELL - 2, games > 0 ? colour : "#f4f4f4",
				r->pairs.score[i * n + j], games);
			/* white text on the dark ends of the scale */
			const char *ink = fabs(f - 0.5) > 0.3 ? " class=\"light\"" : "";
			if (games > 0)
				fprintf(out, "<text%s x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f%%"
					"</text><text%s x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					"font-size=\"11\">%g</text>", ink, x + CELL / 2 - 1, y + 18, 100 * f,
					ink, x + CELL / 2 - 1, y + 32, games);
			fputc('\n', out);
		}
	}
	fputs("</svg></div>\n", out);
}

static void html_time_chart(const struct report *r, FILE *out)
{
	double lo = INFINITY, hi = 0;
	size_t rows = 0;

	for (size_t i = 0; i < r->nbots; i++) {
		const struct report_bot *b = &r->bots[i];
		if (b->time_moves <= 0)
			continue;
		rows++;
		lo = fmin(lo, fmax(b->time_mean_us, 1));
		hi = fmax(hi, fmax(b->time_max_us, 1));
	}
	if (!rows)
		return;
	/* Log scale: bots differ by orders of magnitude, and max dwarfs the mean. */
	double dlo = floor(log10(lo)), dhi = ceil(log10(hi));
	if (dhi <= dlo)
		dhi = dlo + 1;
	double height = FLUID_ROW_H * (double)rows + 60;
#define TIME_X(us) PLOT_PCT((log10(fmax((us), 1)) - dlo) / (dhi - dlo))
	fprintf(out, "<h2>Move time</h2>\n<p class=\"note\">Bar: mean; tick: p99; dot: max "
		"(&micro;s, log scale).</p>\n<div class=\"chart\"><svg id=\"time-chart\" "
		"class=\"fluid\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" "
		"height=\"%.0f\" role=\"img\" aria-label=\"move time chart\">\n", height);
	for (int i = 0, n = axis_ticks(dlo, dhi, 1); i < n; i++) {
		double d = dlo + i, x = PLOT_PCT((d - dlo) / (dhi - dlo));
		fprintf(out, "<line x1=\"%.2f%%\" y1=\"10\" x2=\"%.2f%%\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%.2f%%\" y=\"%.1f\" text-anchor=\"middle\">%g"
			"</text>\n", x, x, height - 35, x, height - 20, pow(10.0, d));
	}
	size_t row = 0;
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		if (b->time_moves <= 0)
			continue;
		double y = 10 + FLUID_ROW_H * (double)row++ + 14;
		/* the name above its bar, its figures at the right: a phone shows no tooltip */
		fprintf(out, "<text class=\"name\" x=\"0\" y=\"%.1f\">", y - 2);
		report_html_text(out, b->name);
		fprintf(out, "</text><text class=\"value\" x=\"100%%\" y=\"%.1f\" "
			"text-anchor=\"end\">%.1f / %.0f / %.0f</text>", y - 2, b->time_mean_us,
			b->time_p99_us, b->time_max_us);
		fprintf(out, "<rect class=\"mean\" x=\"%.2f%%\" y=\"%.1f\" width=\"%.2f%%\" "
			"height=\"12\" fill=\"#73d216\"><title>mean %.1f</title></rect>"
			"<line x1=\"%.2f%%\" y1=\"%.1f\" x2=\"%.2f%%\" y2=\"%.1f\" stroke=\"#f57900\" "
			"stroke-width=\"3\"><title>p99 %.0f</title></line>"
			"<circle cx=\"%.2f%%\" cy=\"%.1f\" r=\"4\" fill=\"#cc0000\"><title>max %.0f"
			"</title></circle>\n", PLOT_PCT(0), y + 4, TIME_X(b->time_mean_us) - PLOT_PCT(0),
			b->time_mean_us, TIME_X(b->time_p99_us), y + 2, TIME_X(b->time_p99_us), y + 18,
			b->time_p99_us, TIME_X(b->time_max_us), y + 10, b->time_max_us);
	}
	fprintf(out, "<text x=\"50%%\" y=\"%.1f\" text-anchor=\"middle\">&micro;s per move "
		"(mean / p99 / max at the right)</text>\n", height - 4);
#undef TIME_X
	fputs("</svg></div>\n", out);
}

static void html_paired(const struct report *r, FILE *out)
{
	fprintf(out, "<h2>Paired statistics (duplicate deals)</h2>\n<p class=\"note\">%zu "
		"complete pairs. Each pair is both seat rotations of one deal; the pair score "
		"(0 to 2) is the bot's two results summed. Paired Elo is the Elo of the mean "
		"score against its opponents, its 95%% interval from the variance of pair scores "
		"(so the luck of the shared deal is accounted for). It is a separate estimate "
		"from the fitted Elo above.</p>\n<div class=\"scroll\"><table id=\"paired\">\n<thead><tr>"
		"<th class=\"name\">bot</th><th>pairs</th><th>0</th><th>&frac12;</th><th>1</th>"
		"<th>1&frac12;</th><th>2</th><th>mean score</th><th>paired Elo</th>"
		"<th>95%% interval</th></tr></thead>\n<tbody>\n", r->duplicate_pairs);
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		if (b->paired.pairs <= 0)
			continue;
		fputs("<tr><td class=\"name\">", out);
		report_html_text(out, b->name);
		fprintf(out, "</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td>"
			"<td>%.0f</td><td>%.4f</td><td>%.1f</td>", b->paired.pairs, b->pent[0],
			b->pent[1], b->pent[2], b->pent[3], b->pent[4], b->paired.score, b->paired.elo);
		if (isfinite(b->paired.elo_lo))
			fprintf(out, "<td>%.1f to %.1f</td></tr>\n", b->paired.elo_lo, b->paired.elo_hi);
		else
			fputs("<td>-</td></tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
}

/* Per bot: its results against each opponent, its move times and its faults. */
static void html_per_bot(const struct report *r, FILE *out)
{
	size_t n = r->nbots;

	fputs("<h2 id=\"bots\">Each bot</h2>\n", out);
	for (size_t a = 0; a < n; a++) {
		size_t i = r->order[a];
		const struct report_bot *b = &r->bots[i];

		fputs("<h3 class=\"bot\">", out);
		report_html_text(out, b->name);
		fprintf(out, "</h3>\n<p>%ld games, %ld won (%.1f%%), %ld points, %.2f cards left in "
			"the stock on average. ", b->games, b->wins, 100.0 * report_win_rate(b),
			b->points, report_avg_stock(b));
		if (b->time_moves > 0)
			fprintf(out, "Move time: mean %.1f &micro;s, p99 %.0f &micro;s, max %.0f "
				"&micro;s; its own CPU %.1f &micro;s per move. ", b->time_mean_us,
				b->time_p99_us, b->time_max_us, b->time_cpu_mean_us);
		fputs("By seat:", out);
		for (int s = 0, n_seat = 0; s < GAMELOG_SEATS_MAX; s++)
			if (b->seat_games[s])
				fprintf(out, "%s seat %d won %ld of %ld (%.1f%%)", n_seat++ ? "," : "",
					s, b->seat_wins[s], b->seat_games[s],
					100.0 * (double)b->seat_wins[s] / (double)b->seat_games[s]);
		fputs(". Faults: ", out);
		if (!b->faults_total)
			fputs("none", out);
		report_write_faults(b, out);
		fputs(".</p>\n<div class=\"scroll\"><table class=\"opponents\">\n<thead><tr>"
		      "<th class=\"name\">against</th><th>results</th><th>score</th></tr></thead>\n"
		      "<tbody>\n", out);
		for (size_t c = 0; c < n; c++) {
			size_t j = r->order[c];
			double games = r->pairs.games[i * n + j];

			if (j == i || !(games > 0))
				continue;
			fputs("<tr><td class=\"name\">", out);
			report_html_text(out, r->bots[j].name);
			fprintf(out, "</td><td>%g</td><td>%.1f%%</td></tr>\n", games,
				100.0 * r->pairs.score[i * n + j] / games);
		}
		fputs("</tbody>\n</table></div>\n", out);
	}
}

static void html_los_and_seats(const struct report *r, FILE *out)
{
	fputs("<h2>Likelihood of superiority</h2>\n<p class=\"note\">Probability that the row "
	      "bot is stronger than the column bot.</p>\n<div class=\"scroll\"><table id=\"los\">\n<thead><tr>"
	      "<th class=\"name\">bot</th>", out);
	for (size_t b = 0; b < r->nbots; b++)
		fprintf(out, "<th>%zu</th>", b + 1);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t a = 0; a < r->nbots; a++) {
		fprintf(out, "<tr><td class=\"name\">%zu. ", a + 1);
		report_html_text(out, r->bots[r->order[a]].name);
		fputs("</td>", out);
		for (size_t b = 0; b < r->nbots; b++)
			if (a == b || !isfinite(rating_los(&r->fit, r->order[a], r->order[b])))
				fputs("<td>-</td>", out);
			else
				fprintf(out, "<td>%.3f</td>",
					rating_los(&r->fit, r->order[a], r->order[b]));
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n<h2>Win rate by seat</h2>\n<p class=\"note\">Share of records "
	      "won by each seat; seat 0 moves first in tournament games.</p>\n"
	      "<div class=\"scroll\"><table id=\"seats\">\n<thead><tr><th>players</th><th>records</th>", out);
	for (int s = 0; s < GAMELOG_SEATS_MAX; s++)
		fprintf(out, "<th>seat %d</th>", s);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (int p = 2; p <= GAMELOG_SEATS_MAX; p++) {
		if (!r->seat_games[p])
			continue;
		fprintf(out, "<tr><td>%d</td><td>%ld</td>", p, r->seat_games[p]);
		for (int s = 0; s < GAMELOG_SEATS_MAX; s++)
			if (s < p)
				fprintf(out, "<td>%.1f%%</td>", 100.0 * (double)r->seat_wins[p][s] /
								(double)r->seat_games[p]);
			else
				fputs("<td></td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
}

/* A note under the ranking; a bound's note is the footnote of its "*". */
static void html_note(void *out, const char *text)
{
	fputs(strncmp(text, "Warning", 7) ? "<p class=\"note\">" : "<p class=\"note warn\">",
	      out);
	if (text[0] == '<')
		fputs("* ", out);
	report_html_text(out, text);
	fputs("</p>\n", out);
}

/* One setting: a string, a number or a boolean at obj.key (obj.sub.key with sub). */
static void html_setting(FILE *out, const cJSON *obj, const char *sub, const char *key,
			 const char *label, const char *unit)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(sub ?
		cJSON_GetObjectItemCaseSensitive(obj, sub) : obj, key);
	char num[32];

	if (!cJSON_IsString(v) && !cJSON_IsNumber(v) && !cJSON_IsBool(v))
		return;
	fprintf(out, "<dt>%s</dt><dd>", label);
	if (cJSON_IsString(v))
		report_html_text(out, v->valuestring);
	else if (cJSON_IsBool(v))
		fputs(cJSON_IsTrue(v) ? "yes" : "no", out);
	else if (snprintf(num, sizeof(num), "%.15g", v->valuedouble) > 0)
		fputs(num, out);
	fprintf(out, "%s</dd>\n", unit);
}

/* A date as the page writes it, "" when it cannot be told. */
static void date_text(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm))
		buf[0] = '\0';
}

/* dir: the tournament's directory, whose games.jsonl tells when the last game was recorded. */
static void html_settings(const cJSON *t, const char *dir, FILE *out)
{
	const cJSON *bots = cJSON_GetObjectItemCaseSensitive(t, "bots");
	char when[64], path[4096];
	struct stat st;

	fputs("<dl class=\"settings\" id=\"settings\">\n", out);
	if (cJSON_IsArray(bots))
		fprintf(out, "<dt>bots</dt><dd>%d</dd>\n", cJSON_GetArraySize(bots));
	html_setting(out, t, NULL, "players", "players per game", "");
	html_setting(out, t, "rules", "stock_size", "stock", " cards");
	html_setting(out, t, "rules", "partnership", "partnership", "");
	html_setting(out, t, "rules", "mode", "mode", "");
	html_setting(out, t, NULL, "deals", "deals per table", "");
	html_setting(out, t, NULL, "duplicate", "duplicate deals", "");
	html_setting(out, t, "time", "move_ms", "time per move", " ms");
	html_setting(out, t, "time", "game_ms", "time per game", " ms");
	html_setting(out, t, "time", "startup_ms", "time to start", " ms");
	html_setting(out, t, "limits", "cpu_seconds", "CPU limit", " s");
	html_setting(out, t, "limits", "memory_mb", "memory limit", " MiB (0: none)");
	html_setting(out, t, "limits", "open_files", "open files limit", "");
	html_setting(out, t, "limits", "processes", "processes limit", "");
	html_setting(out, t, NULL, "sandbox", "sandbox", "");
	html_setting(out, t, NULL, "processes", "bot processes", "");
	html_setting(out, t, NULL, "seed", "seed", "");
	html_setting(out, t, NULL, "shard", "shard", "");
	html_setting(out, t, NULL, "started", "started", "");
	if (snprintf(path, sizeof(path), "%s/games.jsonl", dir) < (int)sizeof(path) &&
	    stat(path, &st) == 0) {
		date_text(st.st_mtime, when, sizeof(when));
		if (when[0])
			fprintf(out, "<dt>last game recorded</dt><dd>%s</dd>\n", when);
	}
	date_text(time(NULL), when, sizeof(when));
	if (when[0])
		fprintf(out, "<dt>report made</dt><dd>%s by skipbo-arena %s</dd>\n", when,
			SKIPBO_VERSION);
	fputs("</dl>\n", out);
}

/* A bot whose every game is a start fault never ran: said first, in a box. */
static void html_never_started(const struct report *r, FILE *out)
{
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];

		if (!report_never_started(b))
			continue;
		fputs("<p class=\"warn never-started\"><b>", out);
		report_html_text(out, b->name);
		fprintf(out, "</b> never started: all %ld of its games are <b>start</b> faults (no "
			"such program, exec failure, or no hello in time). Its "
			"<code>logs/", b->games);
		report_html_text(out, b->name);
		fputs(".stderr</code> and a <code>skipbo-arena check</code> of its command say "
		      "why.</p>\n", out);
	}
}

static int html_faults(const struct report *r, FILE *out)
{
	long total[GAMELOG_FAULT_KINDS] = { 0 }, all = 0;

	for (size_t i = 0; i < r->nbots; i++)
		for (int k = 0; k < GAMELOG_FAULT_KINDS; k++) {
			total[k] += r->bots[i].faults[k];
			all += r->bots[i].faults[k];
		}
	fputs("<h2 id=\"faults\">Faults</h2>\n", out);
	if (!all) {
		fputs("<p>No bot faulted (R11).</p>\n", out);
		return 0;
	}
	fputs("<p class=\"note\">R11 faults by bot and kind: each removed the bot from its game "
	      "(and in a match from the rest of it). games.jsonl records each fault's reason, "
	      "turn and move; the replays show them at their moment.</p>\n<div class=\"scroll\">"
	      "<table id=\"faults-table\">\n<thead><tr><th class=\"name\">bot</th><th>games</th>"
	      "<th>faults</th>", out);
	for (int k = 0; k < GAMELOG_FAULT_KINDS; k++)
		if (total[k])
			fprintf(out, "<th>%s</th>", gamelog_fault_names[k]);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t n = 0; n < r->nbots; n++) {
		const struct report_bot *b = &r->bots[r->order[n]];

		if (!b->faults_total)
			continue;
		fputs("<tr><td class=\"name\">", out);
		report_html_text(out, b->name);
		fprintf(out, "</td><td>%ld</td><td>%ld</td>", b->games, b->faults_total);
		for (int k = 0; k < GAMELOG_FAULT_KINDS; k++)
			if (total[k])
				fprintf(out, "<td>%ld</td>", b->faults[k]);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
	return r->games ? gamelist_write_fault_reasons(r->games, out) : 0;
}

int report_write_html(const struct report *r, FILE *out)
{
	char method[2048], verdict[256], partial[256];
	const cJSON *t = r->tournaments && r->ndirs ? r->tournaments[0] : NULL;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
	int rc;

	report_method_text(r, method, sizeof(method));
	fputs(page_head, out);
	fprintf(out, "<title>%s</title>\n</head>\n<body>\n<h1>%s", r->title, r->title);
	if (cJSON_IsString(name)) {
		fputs(": ", out);
		report_html_text(out, name->valuestring);
	}
	fputs("</h1>\n", out);
	if (r->partial) {
		report_partial_text(r, partial, sizeof(partial));
		fputs("<p class=\"warn partial\">", out);
		report_html_text(out, partial);
		fputs("</p>\n", out);
	}
	if (r->reused_processes)
		fprintf(out, "<p class=\"warn\">%s.</p>\n", REPORT_REUSED_TEXT);
	html_never_started(r, out);
	report_verdict(r, verdict, sizeof(verdict));
	if (verdict[0]) {
		fputs("<p class=\"verdict\"><b>", out);
		report_html_text(out, verdict);
		fputs("</b></p>\n", out);
	}
	if (r->section_html && (rc = r->section_html(r->section_ctx, out)) < 0)
		return rc;
	/* the ranking first: on a phone the settings would fill the first screen */
	html_ranking(r, out);
	if (t)
		html_settings(t, r->dirs[0], out);
	fputs("<p>", out);
	report_write_sources(r, out, report_html_text);
	fputs(".</p>\n", out);
	report_model_lines(r, html_note, out);
	report_notes(r, html_note, out);
	report_write_gauntlet(r, REPORT_HTML, out, report_html_text);
	if (r->duplicate_pairs)
		fputs("<p class=\"note quote\"><b>Which figure to quote:</b> the Elo of the ranking "
		      "with its &plusmn;95%. It is fitted on every result of every game, so it is "
		      "the most precise; the paired Elo (below) uses only the 2-player duplicate "
		      "deals and takes each deal's luck out, as both bots played it from both "
		      "seats, so it is a check: where the two disagree by more than their "
		      "intervals, the deals or the seats weigh on the result and more deals are "
		      "needed.</p>\n", out);
	else
		fputs("<p class=\"note quote\"><b>Which figure to quote:</b> " REPORT_QUOTE_NOTE
		      "</p>\n", out);
	fputs("<p class=\"note\">", out);
	report_html_text(out, method);
	fputs(" Move times: mean and max over all moves; p99 is the moves-weighted mean of "
	      "the per-game p99s.</p>\n", out);
	if ((rc = html_faults(r, out)) < 0)
		return rc;
	html_elo_chart(r, out);
	html_heatmap(r, out);
	html_time_chart(r, out);
	if (r->duplicate_pairs)
		html_paired(r, out);
	html_los_and_seats(r, out);
	html_per_bot(r, out);
	if (r->games && (rc = gamelist_write_html(r->games, out)) < 0)
		return rc;
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
