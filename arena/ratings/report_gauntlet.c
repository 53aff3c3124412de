/*
 * report_gauntlet.c - a gauntlet's challengers ranked against the field
 * (contract in report.h).
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tournament_file.h"

int report_find_challengers(struct report *r)
{
	/* each directory's tournament.json, read once for every part of the report */
	if (!(r->tournaments = calloc(r->ndirs, sizeof(*r->tournaments))))
		return -ENOMEM;
	for (size_t d = 0; d < r->ndirs; d++)
		r->tournaments[d] = records_tournament_tree(r->dirs[d]);
	for (size_t d = 0; r->tournaments && d < r->ndirs; d++) {
		const cJSON *t = r->tournaments[d], *name;
		const cJSON *processes = cJSON_GetObjectItemCaseSensitive(t, "processes");

		/* read here, with the tournament.json read anyway */
		if (cJSON_IsString(processes) && strcmp(processes->valuestring, "reuse") == 0)
			r->reused_processes = true;
		cJSON_ArrayForEach(name, cJSON_GetObjectItemCaseSensitive(t, "challengers")) {
			long b = cJSON_IsString(name) ? gamelog_find_bot(r->log, name->valuestring) : -1;

			if (b < 0)
				continue;
			if (!r->challenger && !(r->challenger = calloc(r->nbots, sizeof(bool))))
				return -ENOMEM;
			r->challenger[b] = true;
		}
	}
	return 0;
}

size_t report_challengers(const struct report *r, struct report_challenger *out)
{
	double field_elo = 0.0;
	size_t n = 0, nfield = 0;

	if (!r->challenger)
		return 0;
	for (size_t i = 0; i < r->nbots; i++)
		if (!r->challenger[i]) {
			field_elo += r->bots[i].elo;
			nfield++;
		}
	field_elo = nfield ? field_elo / (double)nfield : NAN;
	/* r->order is by Elo: the challengers keep it */
	for (size_t k = 0; k < r->nbots; k++) {
		size_t i = r->order[k];
		struct report_challenger *c = &out[n];

		if (!r->challenger[i])
			continue;
		memset(c, 0, sizeof(*c));
		c->bot = &r->bots[i];
		for (size_t j = 0; j < r->nbots; j++)
			if (!r->challenger[j]) {
				c->score += r->pairs.score[i * r->nbots + j];
				c->results += r->pairs.games[i * r->nbots + j];
			}
		c->field_diff = c->bot->elo - field_elo;
		n++;
	}
	return n;
}

/* One row's cells as text: Elo, interval, score against the field, difference. */
static void cells(const struct report_challenger *c, char elo[48], char ci[16], char score[16],
		  char diff[24])
{
	report_elo_text(c->bot, elo, 48);
	snprintf(ci, 16, c->bot->bound ? "-" : "%.1f", c->bot->ci95);
	if (c->results > 0)
		snprintf(score, 16, "%.1f%%", 100.0 * c->score / c->results);
	else
		snprintf(score, 16, "-");
	snprintf(diff, 24, isfinite(c->field_diff) ? "%+.1f" : "-", c->field_diff);
}

void report_write_gauntlet(const struct report *r, enum report_style style, FILE *out,
			   void (*write_text)(FILE *out, const char *s))
{
	struct report_challenger *c = calloc(r->nbots, sizeof(*c));
	size_t n = c ? report_challengers(r, c) : 0;
	static const char *const head[] = {
		[REPORT_TEXT] = "challengers against the field (gauntlet):\n"
			"rank  challenger                  elo   +-95%  field results  field score"
			"  elo - field mean\n",
		[REPORT_MD] = "\n## Challengers against the field\n\nA gauntlet: each challenger "
			"played every other bot. The score counts its rated results against the "
			"field's bots only.\n\n| rank | challenger | Elo | ±95% | results against "
			"the field | score against the field | Elo − field mean |\n"
			"|---:|:---|---:|---:|---:|---:|---:|\n",
		[REPORT_HTML] = "<h2 id=\"gauntlet\">Challengers against the field</h2>\n"
			"<p class=\"note\">A gauntlet: each challenger played every other bot. The "
			"score counts its rated results against the field's bots only.</p>\n"
			"<div class=\"scroll\"><table id=\"challengers\">\n<thead><tr><th>rank</th>"
			"<th class=\"name\">challenger</th><th>Elo</th><th>&plusmn;95%</th>"
			"<th>results against the field</th><th>score against the field</th>"
			"<th>Elo &minus; field mean</th></tr></thead>\n<tbody>\n",
	};

	if (n)
		fputs(head[style], out);
	for (size_t k = 0; k < n; k++) {
		char elo[48], ci[16], score[16], diff[24];

		cells(&c[k], elo, ci, score, diff);
		if (style == REPORT_TEXT) {
			fprintf(out, "%4zu  %-22.22s %9s %7s %14.0f %12s %17s\n", k + 1,
				c[k].bot->name, elo, ci, c[k].results, score, diff);
			continue;
		}
		fprintf(out, style == REPORT_MD ? "| %zu | " : "<tr><td>%zu</td><td class=\"name\">",
			k + 1);
		write_text(out, c[k].bot->name);
		fputs(style == REPORT_MD ? " | " : "</td><td>", out);
		write_text(out, elo); /* a bound starts with '<' */
		fprintf(out, style == REPORT_MD ? " | %s | %.0f | %s | %s |\n" :
			"</td><td>%s</td><td>%.0f</td><td>%s</td><td>%s</td></tr>\n",
			ci, c[k].results, score, diff);
	}
	if (n && style == REPORT_HTML)
		fputs("</tbody>\n</table></div>\n", out);
	free(c);
}
