/*
 * league_history_report.c - the league section of the report; what it shows
 * is in league_history_report.h.
 */
#include "league_history_report.h"

#include "report.h"
#include "report_html_text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHART_W 760.0
#define CHART_H 320.0
#define CHART_PAD 44.0

/* Okabe-Ito: told apart by every common kind of colour blindness */
static const char *const palette[] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7",
				       "#e69f00", "#56b4e9", "#000000", "#f0e442" };

const char *league_entry_status_name(enum league_entry_status status)
{
	switch (status) {
	case LEAGUE_ENTRY_ACTIVE: return "playing";
	case LEAGUE_ENTRY_HELD: return "held";
	case LEAGUE_ENTRY_RETIRED: return "retired";
	case LEAGUE_ENTRY_SUSPENDED: return "suspended";
	}
	return "?";
}

/* An entry of the section: the caller's, or one only the history holds. */
struct row {
	struct league_lineage lin;
	const struct league_history_series *x; /* NULL: never on record */
	size_t index;                           /* the caller's order, for ties */
};

/* The latest Elo on record, NAN when none. */
static double latest_elo(const struct row *r)
{
	return r->x ? r->x->last.elo : NAN;
}

/* The first Elo on record, NAN when none. */
static double first_elo(const struct row *r)
{
	for (size_t k = 0; r->x && k < r->x->npoints; k++)
		if (!isnan(r->x->points[k].elo))
			return r->x->points[k].elo;
	return NAN;
}

/* Rated rows by their latest Elo, best first; then the rest in the caller's order. */
static int by_latest_elo(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	double ea = latest_elo(a), eb = latest_elo(b);

	if (isnan(ea) != isnan(eb))
		return isnan(ea) ? 1 : -1;
	if (!isnan(ea) && ea != eb)
		return ea > eb ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The rows of the section, sorted; NULL when out of memory. */
static struct row *make_rows(const struct league_history_summary *h,
			     const struct league_lineage *entries, size_t n, size_t *count)
{
	struct row *rows = calloc(n + h->nseries + 1, sizeof(*rows));
	size_t k = 0;

	if (!rows)
		return NULL;
	for (size_t i = 0; i < n; i++, k++)
		rows[k] = (struct row){ entries[i], league_history_find(h, entries[i].name), k };
	for (size_t i = 0; i < h->nseries; i++) {
		bool listed = false;
		for (size_t j = 0; j < n && !listed; j++)
			listed = !strcmp(entries[j].name, h->series[i].name);
		if (!listed)
			rows[k++] = (struct row){ { h->series[i].name, NULL, LEAGUE_ENTRY_RETIRED, NULL },
						  &h->series[i], k };
	}
	qsort(rows, k, sizeof(*rows), by_latest_elo);
	*count = k;
	return rows;
}

static void utc_text(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, size, "%lld", (long long)t);
}

/* The sentence under the section's title. */
static void summary_text(const struct league_history_summary *h, char *buf, size_t size)
{
	char from[40], to[40];

	if (h->lines == 0) {
		snprintf(buf, size, "No rating on record yet.");
		return;
	}
	utc_text(h->first_time, from, sizeof(from));
	utc_text(h->last_time, to, sizeof(to));
	snprintf(buf, size, "%llu refits on record from %s to %s; the last over %llu games.",
		 (unsigned long long)h->lines, from, to, (unsigned long long)h->last_games);
}

/* The column points: up to LEAGUE_REPORT_COLUMNS lines of the history evenly spread. */
static size_t columns(const struct league_history_summary *h, uint64_t *line)
{
	size_t c = h->lines < LEAGUE_REPORT_COLUMNS ? (size_t)h->lines : LEAGUE_REPORT_COLUMNS;

	for (size_t k = 0; k < c; k++)
		line[k] = c > 1 ? (h->lines - 1) * k / (c - 1) : 0;
	return c;
}

/* The latest point of x at or before line, or NULL. */
static const struct league_history_point *point_at(const struct league_history_series *x,
						   uint64_t line)
{
	const struct league_history_point *p = NULL;

	for (size_t k = 0; x && k < x->npoints && x->points[k].line <= line; k++)
		p = &x->points[k];
	return p;
}

/* The league's games and time at a column: those of the latest point any entry has there. */
static const struct league_history_point *column_point(const struct row *rows, size_t count,
						       uint64_t line)
{
	const struct league_history_point *best = NULL;

	for (size_t i = 0; i < count; i++) {
		const struct league_history_point *p = point_at(rows[i].x, line);
		if (p && (!best || p->line > best->line))
			best = p;
	}
	return best;
}

/* "12.5" or "-" for NAN, with a sign when signed. */
static const char *number_text(double x, bool sign, char *buf, size_t size)
{
	if (isnan(x))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.1f" : "%.1f", x);
	return buf;
}


/* How one format writes a table: a name escaped, and the strings around cells. */
struct format {
	void (*name)(FILE *out, const char *s);
	const char *row_open;    /* before the first cell (a name) */
	const char *name_next;   /* between cells, before a name cell */
	const char *number_next; /* between cells, before a number cell */
	const char *row_close;
	const char *arrow;       /* between versions of a lineage */
};

static const struct format md = { report_md_text, "| ", " | ", " | ", " |\n", " → " };
static const struct format html = { report_html_text, "<tr><td class=\"name\">",
				    "</td><td class=\"name\">", "</td><td>", "</td></tr>\n",
				    " &rarr; " };

/* One row of the entries' table. */
static void entry_row(FILE *out, const struct format *f, const struct row *r)
{
	char a[32], b[32], c[32], d[32];
	double last = latest_elo(r), first = first_elo(r);

	fputs(f->row_open, out);
	f->name(out, r->lin.name);
	fputs(f->name_next, out);
	if (r->lin.predecessor)
		f->name(out, r->lin.predecessor);
	fputs(f->name_next, out);
	fputs(league_entry_status_name(r->lin.status), out);
	if (r->lin.why) {
		fputs(" (", out);
		f->name(out, r->lin.why);
		fputc(')', out);
	}
	fprintf(out, "%s%s%s%s%s%llu%s%s%s%s%s", f->number_next, number_text(last, false, a, 32),
		f->number_next, number_text(r->x ? r->x->last.ci95 : NAN, false, b, 32),
		f->number_next, (unsigned long long)(r->x ? r->x->last.entry_games : 0),
		f->number_next, number_text(first, false, c, 32), f->number_next,
		number_text(last - first, true, d, 32), f->row_close);
}

/* One row of the rating over time: the entry's Elo at each of the c column lines. */
static void over_time_row(FILE *out, const struct format *f, const struct row *r,
			  const uint64_t *line, size_t c)
{
	char text[32];

	fputs(f->row_open, out);
	f->name(out, r->lin.name);
	for (size_t k = 0; k < c; k++) {
		const struct league_history_point *p = point_at(r->x, line[k]);
		fputs(f->number_next, out);
		fputs(number_text(p ? p->elo : NAN, false, text, sizeof(text)), out);
	}
	fputs(f->row_close, out);
}

/* The games of each column, each after `before`. */
static void over_time_head(FILE *out, const struct row *rows, size_t count,
			   const uint64_t *line, size_t c, const char *before, const char *after)
{
	for (size_t k = 0; k < c; k++) {
		const struct league_history_point *p = column_point(rows, count, line[k]);
		fprintf(out, "%s%llu games%s", before, (unsigned long long)(p ? p->games : 0), after);
	}
}

/* Index of the row of name, or count. */
static size_t row_of(const struct row *rows, size_t count, const char *name)
{
	size_t i = 0;

	while (i < count && strcmp(rows[i].lin.name, name))
		i++;
	return i;
}

/* The first successor of rows[cur] (a row naming it as predecessor), from row `from`; count
 * when none. */
static size_t successor(const struct row *rows, size_t count, size_t cur, size_t from)
{
	for (size_t j = from; j < count; j++)
		if (rows[j].lin.predecessor && !strcmp(rows[j].lin.predecessor, rows[cur].lin.name))
			return j;
	return count;
}

/*
 * Each lineage from its first version: NAME -> NAME@2 -> NAME@3 (several successors of one
 * version are joined by commas, and the chain goes on from the first), each between before
 * and after, in the format f. Returns the lineages written.
 */
static size_t lineages(FILE *out, const struct row *rows, size_t count,
		       const struct format *f, const char *before, const char *after)
{
	size_t written = 0;

	for (size_t i = 0; i < count; i++) {
		const char *p = rows[i].lin.predecessor;
		size_t cur = i, next = successor(rows, count, i, 0);
		if ((p && row_of(rows, count, p) < count) || next == count)
			continue; /* not the first version of a lineage with versions */
		fputs(before, out);
		f->name(out, rows[i].lin.name);
		/* count steps at most: a cycle of predecessors ends too */
		for (size_t step = 0; next < count && step < count; step++) {
			for (size_t j = next; j < count; j = successor(rows, count, cur, j + 1)) {
				fputs(j == next ? f->arrow : ", ", out);
				f->name(out, rows[j].lin.name);
			}
			cur = next;
			next = successor(rows, count, cur, 0);
		}
		fputs(after, out);
		written++;
	}
	return written;
}

/* What both formats show: the rows, the column lines of the rating over time, the sentence. */
struct section {
	struct row *rows;
	size_t count;
	uint64_t line[LEAGUE_REPORT_COLUMNS];
	size_t c;
	char text[256];
};

static void over_time_rows(FILE *out, const struct format *f, const struct section *sec)
{
	for (size_t i = 0; i < sec->count; i++)
		over_time_row(out, f, &sec->rows[i], sec->line, sec->c);
}

static int section_make(struct section *sec, const struct league_history_summary *h,
			const struct league_lineage *entries, size_t n)
{
	if (!(sec->rows = make_rows(h, entries, n, &sec->count)))
		return -ENOMEM;
	sec->c = columns(h, sec->line);
	summary_text(h, sec->text, sizeof(sec->text));
	return 0;
}

int league_history_write_md(FILE *out, const struct league_history_summary *h,
			    const struct league_lineage *entries, size_t n)
{
	struct section sec;

	if (section_make(&sec, h, entries, n) < 0)
		return -ENOMEM;
	fprintf(out, "## League\n\n%s\n\n", sec.text);
	fputs("| entry | version of | status | Elo | ±95% | games | first Elo on record | change |\n"
	      "|:---|:---|:---|---:|---:|---:|---:|---:|\n", out);
	for (size_t i = 0; i < sec.count; i++)
		entry_row(out, &md, &sec.rows[i]);
	fputs("\n### Versions\n\n", out);
	if (!lineages(out, sec.rows, sec.count, &md, "- ", "\n"))
		fputs("No entry has a new version.\n", out);
	if (sec.c > 0) {
		fputs("\n### Rating over time\n\nElo after the games shown.\n\n| entry |", out);
		over_time_head(out, sec.rows, sec.count, sec.line, sec.c, " ", " |");
		fputs("\n|:---|", out);
		for (size_t k = 0; k < sec.c; k++)
			fputs("---:|", out);
		fputc('\n', out);
		over_time_rows(out, &md, &sec);
	}
	fputc('\n', out);
	free(sec.rows);
	return ferror(out) ? -EIO : 0;
}

static bool elo_range(const struct row *rows, size_t count, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < count; i++)
		for (size_t k = 0; rows[i].x && k < rows[i].x->npoints; k++) {
			double e = rows[i].x->points[k].elo;
			if (!isnan(e)) {
				*lo = fmin(*lo, e);
				*hi = fmax(*hi, e);
			}
		}
	return *lo <= *hi;
}

/* One entry's Elo against the league's games: a polyline of its rated points, and a dot
 * at its last one, so an entry rated once shows too. */
static void html_series(FILE *out, const struct row *r, const char *colour, double games,
			double lo, double hi)
{
	double plot_w = CHART_W - 2 * CHART_PAD, plot_h = CHART_H - 2 * CHART_PAD;
	double x = NAN, y = NAN;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
	for (size_t k = 0; k < r->x->npoints; k++) {
		const struct league_history_point *p = &r->x->points[k];
		if (isnan(p->elo))
			continue;
		x = CHART_PAD + plot_w * (double)p->games / games;
		y = CHART_PAD + plot_h * (hi - p->elo) / (hi - lo);
		fprintf(out, "%.1f,%.1f ", x, y);
	}
	fputs("\"><title>", out);
	report_html_text(out, r->lin.name);
	fputs("</title></polyline>\n", out);
	if (!isnan(x))
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x, y,
			colour);
}

/* The chart of every rated entry's Elo against the league's games, and its legend. */
static void html_chart(FILE *out, const struct row *rows, size_t count,
		       const struct league_history_summary *h)
{
	double lo, hi, games = h->last_games > 0 ? (double)h->last_games : 1;
	size_t colours = sizeof(palette) / sizeof(palette[0]), drawn = 0;

	if (!elo_range(rows, count, &lo, &hi))
		return;
	double step = 25;
	while ((hi - lo) / step > 5)
		step *= 2;
	lo = floor(lo / step) * step - step;
	hi = ceil(hi / step) * step + step;
	fprintf(out, "<div class=\"chart\"><svg id=\"league-history\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-label=\"Elo over the league's games\">\n", CHART_W, CHART_H, CHART_W, CHART_H);
	for (double t = lo; t <= hi + step / 2; t += step) {
		double y = CHART_PAD + (CHART_H - 2 * CHART_PAD) * (hi - t) / (hi - lo);
		fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", CHART_PAD, y,
			CHART_W - CHART_PAD, y, CHART_PAD - 4, y + 4, t);
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%llu games</text>\n",
		CHART_W - CHART_PAD, CHART_H - 12, (unsigned long long)h->last_games);
	for (size_t i = 0; i < count; i++)
		if (!isnan(latest_elo(&rows[i])))
			html_series(out, &rows[i], palette[drawn++ % colours], games, lo, hi);
	fputs("</svg></div>\n<p class=\"note\">", out);
	drawn = 0;
	for (size_t i = 0; i < count; i++) {
		if (isnan(latest_elo(&rows[i])))
			continue;
		fprintf(out, "%s<span style=\"color:%s\">&#9632;</span> ", drawn ? ", " : "",
			palette[drawn % colours]);
		report_html_text(out, rows[i].lin.name);
		drawn++;
	}
	fputs("</p>\n", out);
}

int league_history_write_html(FILE *out, const struct league_history_summary *h,
			      const struct league_lineage *entries, size_t n)
{
	struct section sec;

	if (section_make(&sec, h, entries, n) < 0)
		return -ENOMEM;
	fputs("<h2 id=\"league\">League</h2>\n<p>", out);
	report_html_text(out, sec.text);
	fputs("</p>\n", out);
	fputs("<div class=\"scroll\"><table id=\"league-entries\">\n<thead><tr>"
	      "<th class=\"name\">entry</th><th class=\"name\">version of</th>"
	      "<th class=\"name\">status</th><th>Elo</th><th>&plusmn;95%</th><th>games</th>"
	      "<th>first Elo on record</th><th>change</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < sec.count; i++)
		entry_row(out, &html, &sec.rows[i]);
	fputs("</tbody></table></div>\n<h3>Versions</h3>\n", out);
	if (!lineages(out, sec.rows, sec.count, &html, "<p>", "</p>\n"))
		fputs("<p>No entry has a new version.</p>\n", out);
	fputs("<h3>Rating over time</h3>\n", out);
	html_chart(out, sec.rows, sec.count, h);
	if (sec.c > 0) {
		fputs("<div class=\"scroll\"><table id=\"league-over-time\">\n<thead><tr>"
		      "<th class=\"name\">entry</th>", out);
		over_time_head(out, sec.rows, sec.count, sec.line, sec.c, "<th>", "</th>");
		fputs("</tr></thead>\n<tbody>\n", out);
		over_time_rows(out, &html, &sec);
		fputs("</tbody></table></div>\n", out);
	}
	free(sec.rows);
	return ferror(out) ? -EIO : 0;
}

int league_history_write_chart(FILE *out, const struct league_history_summary *h,
			       const struct league_lineage *entries, size_t n)
{
	struct section sec;

	if (section_make(&sec, h, entries, n) < 0)
		return -ENOMEM;
	html_chart(out, sec.rows, sec.count, h);
	free(sec.rows);
	return ferror(out) ? -EIO : 0;
}
