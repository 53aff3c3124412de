/*
 * report_table.c - the ranking table as aligned text, what `run` and `report`
 * print: 80 columns by default, every column with --wide.
 */
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Columns of a note: the terminal's width, or 80 where out is no terminal. */
static size_t note_width(FILE *out)
{
	struct winsize ws;
	int fd = fileno(out);

	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* Characters in n bytes of UTF-8 (continuation bytes not counted). */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* A note wrapped at spaces to the width of out; a word longer than a line stands alone. */
static void print_line(void *stream, const char *text)
{
	FILE *out = stream;
	size_t width = note_width(out), at = 0;

	while (*text) {
		size_t word = strcspn(text, " "), cols = columns(text, word);

		if (at && at + 1 + cols > width) {
			fputc('\n', out);
			at = 0;
		} else if (at) {
			fputc(' ', out);
			at++;
		}
		fwrite(text, 1, word, out);
		at += cols;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void report_print_table(const struct report *r, FILE *out)
{
	report_print_table_wide(r, out, false);
}

/*
 * A name in exactly width columns (width >= 8): a longer one keeps its start
 * and its end around "...", as versions ("expert-v2-2024") differ at the end.
 */
static void narrow_name(const char *name, int width, char *buf, size_t size)
{
	int len = (int)strlen(name), tail = (width - 3) / 2, head = width - 3 - tail;

	if (len <= width)
		snprintf(buf, size, "%-*s", width, name);
	else
		snprintf(buf, size, "%.*s...%s", head, name, name + len - tail);
}

/*
 * The faults column from column `at` on: kinds that would pass column 80 go
 * on lines of their own, under the column, broken after a comma.
 */
static void narrow_faults(const struct report_bot *b, FILE *out, int at)
{
	char text[512];
	FILE *mem = fmemopen(text, sizeof(text), "w");
	const char *p = text;
	int col = at;

	if (!mem || !report_write_faults(b, mem)) {
		if (mem)
			fclose(mem);
		fputs("-\n", out);
		return;
	}
	fclose(mem);
	while (*p) {
		const char *comma = strstr(p, ", ");
		int len = comma ? (int)(comma - p) + 1 : (int)strlen(p);

		if (col > at && col + 1 + len > 80) {
			fprintf(out, "\n%*s", at, "");
			col = at;
		} else if (col > at) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, p);
		col += len;
		p += comma ? len + 1 : len;
	}
	fputc('\n', out);
}

/* The ranking in 80 columns: rank, bot, Elo, interval, score, games, win rate, faults. */
static void print_narrow(const struct report *r, FILE *out, int width)
{
	fprintf(out, "%4s  %-*s %8s %7s %6s %7s %6s  %s\n", "rank", width, "bot", "elo", "+-95%",
		"score", "games", "win%", "faults");
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		char elo[48], ci[16], name[64], rank[24];

		if (r->pools > 1 && b->rank == 1)
			fprintf(out, "pool %zu:\n", b->pool + 1);
		snprintf(ci, sizeof(ci), b->bound ? "-" : "%.1f", b->ci95);
		narrow_name(b->name, width, name, sizeof(name));
		fprintf(out, "%4s  %s %8s %7s %5.1f%% %7ld %5.1f%%  ",
			report_rank_text(b, rank, sizeof(rank)), name,
			report_elo_text(b, elo, sizeof(elo)), ci, 100.0 * report_rated_score(b),
			b->games, 100.0 * report_win_rate(b));
		narrow_faults(b, out, 47 + width);
	}
	fputs("(--wide: every column: gap to the next bot, W/D/L, points, move times)\n", out);
}

void report_print_table_wide(const struct report *r, FILE *out, bool wide)
{
	int width = 3;
	char verdict[256];

	for (size_t i = 0; i < r->nbots; i++) {
		int len = (int)strlen(r->bots[i].name);
		width = len > width ? (len < 64 ? len : 64) : width;
	}
	report_verdict(r, verdict, sizeof(verdict));
	if (verdict[0])
		fprintf(out, "%s\n", verdict);
	if (!wide) {
		print_narrow(r, out, width < 16 ? width : 16);
		goto notes;
	}
	fprintf(out, "%4s  %-*s %9s %7s %15s %6s %20s %7s %9s %6s %8s %6s %9s %9s %9s  %s\n",
		"rank", width, "bot", "elo", "+-95%", "next +-95%", "rated", "rated W/D/L",
		"games", "real_wins", "win%", "points", "stock", "mean_us", "p99_us", "max_us",
		"faults");
	for (size_t k = 0; k < r->nbots; k++) {
		const struct report_bot *b = &r->bots[r->order[k]];
		char elo[48], ci[16], next[48], wdl[64], rank[24];
		if (r->pools > 1 && b->rank == 1)
			fprintf(out, "pool %zu:\n", b->pool + 1);
		snprintf(ci, sizeof(ci), b->bound ? "-" : "%.1f", b->ci95);
		if (isfinite(b->next_diff))
			snprintf(next, sizeof(next), "%.1f+-%.1f", b->next_diff, b->next_ci95);
		else
			snprintf(next, sizeof(next), "-");
		snprintf(wdl, sizeof(wdl), "%.0f/%.0f/%.0f", b->rated_w, b->rated_d, b->rated_l);
		fprintf(out, "%4s  %-*.*s %9s %7s %15s %5.1f%% %20s %7ld %9ld %5.1f%% %8ld %6.2f ",
			report_rank_text(b, rank, sizeof(rank)), width, width, b->name,
			report_elo_text(b, elo, sizeof(elo)), ci, next,
			100.0 * report_rated_score(b), wdl, b->games, b->wins,
			100.0 * report_win_rate(b), b->points, report_avg_stock(b));
		if (b->time_moves > 0)
			fprintf(out, "%9.1f %9.0f %9.0f", b->time_mean_us, b->time_p99_us, b->time_max_us);
		else
			fprintf(out, "%9s %9s %9s", "-", "-", "-");
		fputs("  ", out);
		if (!report_write_faults(b, out))
			fputs("-", out);
		fputc('\n', out);
	}
notes:
	{
		char model[1024], scale[600];

		if (r->anchor >= 0)
			snprintf(scale, sizeof(scale), "anchor %s = %g", r->bots[r->anchor].name,
				 r->anchor_elo);
		else
			snprintf(scale, sizeof(scale), "%s%s", r->fixed ? "fixed " : "field average 0",
				 r->fixed ? r->fixed_text : "");
		snprintf(model, sizeof(model), "%zu records%s; Elo: Bradley-Terry fit, %s; +-95%%: %s",
			 r->log->records, r->log->nsources > 1 ? " (merged)" : "", scale,
			 r->plain_intervals ? "plain (results taken as independent)" :
			 "robust to the grouping of results by deal");
		print_line(out, model);
	}
	/* after the table: the model's sentences are longer than a narrow line */
	report_model_lines(r, print_line, out);
	report_notes(r, print_line, out);
	report_write_gauntlet(r, REPORT_TEXT, out, NULL);
	if (r->partial) {
		char partial[256];

		report_partial_text(r, partial, sizeof(partial));
		print_line(out, partial);
	}
	if (r->reused_processes)
		print_line(out, REPORT_REUSED_TEXT);
	for (size_t k = 0; k < r->nbots; k++)
		if (report_never_started(&r->bots[r->order[k]])) {
			char warning[512];

			snprintf(warning, sizeof(warning), "warning: bot \"%s\" never started: all %ld "
				 "of its games are start faults, left out of the ratings "
				 "(logs/%s.stderr and \"skipbo-arena check\" say why)",
				 r->bots[r->order[k]].name, r->bots[r->order[k]].games,
				 r->bots[r->order[k]].name);
			print_line(out, warning);
		}
	if (r->log->torn || r->log->invalid || r->log->repeated)
		fprintf(out, "skipped: %zu incomplete last line(s), %zu invalid line(s), "
			"%zu record(s) with a repeated id\n", r->log->torn, r->log->invalid,
			r->log->repeated);
	if (r->log->invalid) {
		char first[GAMELOG_WHY_MAX + 4200];

		fprintf(out, "%s\n", report_first_invalid_text(r, first, sizeof(first)));
	}
}
