/*
 * gamelist.c - the game list of report.html and the reasons of its faults
 * section (contract in gamelist.h).
 */
#include "gamelist.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gamelog.h"
#include "report_html_text.h"

/* Tables beyond this index are not sampled (their faulted games still are). */
#define TABLES_MAX (1 << 20)

struct sampler {
	unsigned char *seen; /* records listed per table, saturating */
	size_t ntables;
	long listed, skipped;
};

/* An id safe to put in a URL as it is: the arena's ids are t0001-d0002-r0. */
static int id_is_plain(const char *id)
{
	if (!*id || strlen(id) > 100)
		return 0;
	for (; *id; id++)
		if (!((*id >= 'a' && *id <= 'z') || (*id >= 'A' && *id <= 'Z') ||
		      (*id >= '0' && *id <= '9') || *id == '-' || *id == '_' || *id == '.'))
			return 0;
	return 1;
}

/* 1 if the record is listed: the first few of its table, or any with a fault. */
static int sample(struct sampler *s, const struct record *rec, int faulted)
{
	long table = (long)rec->table;

	if (s->listed >= GAMELIST_MAX)
		return 0;
	if (faulted)
		return 1;
	if (table < 0 || table >= TABLES_MAX)
		return 0;
	if ((size_t)table >= s->ntables) {
		size_t n = (size_t)table + 1 > 2 * s->ntables ? (size_t)table + 1 : 2 * s->ntables;
		unsigned char *grown = realloc(s->seen, n);

		if (!grown)
			return 0;
		memset(grown + s->ntables, 0, n - s->ntables);
		s->seen = grown;
		s->ntables = n;
	}
	if (s->seen[table] >= GAMELIST_PER_TABLE)
		return 0;
	s->seen[table]++;
	return 1;
}

/* A game's id, linked to its viewer page when dir is given and the page exists. */
static void write_game_link(FILE *out, const char *id, const char *dir)
{
	char path[4096];
	struct stat st;

	if (dir && id && id_is_plain(id) &&
	    snprintf(path, sizeof(path), "%s/replays/%s.html", dir, id) < (int)sizeof(path) &&
	    stat(path, &st) == 0)
		fprintf(out, "<a href=\"replays/%s.html\">%s</a>", id, id);
	else if (id)
		report_html_text(out, id);
}

/* Names separated by sep: the bots of seats, or of the winners' seats. */
static int write_names(FILE *out, const struct record *rec, const int *seats, int n,
		       const char *sep)
{
	for (int i = 0; i < n; i++) {
		fputs(i ? sep : "", out);
		report_html_text(out, rec->bots[seats ? seats[i] : i]);
	}
	return n;
}

static void write_row(FILE *out, const struct record *rec, const char *dir)
{
	/* data-* attributes for the filter: space-separated, names are printable ASCII */
	fputs("<tr data-bots=\" ", out);
	write_names(out, rec, NULL, rec->players, " ");
	fputs(rec->players ? " \" data-winners=\" " : "\" data-winners=\" ", out);
	write_names(out, rec, rec->winners, rec->nwinners, " ");
	fputs(rec->nwinners ? " \" data-faults=\" " : "\" data-faults=\" ", out);
	for (size_t i = 0; i < rec->nfaults; i++)
		if (rec->faults[i].kind) {
			report_html_text(out, rec->faults[i].kind);
			fputc(' ', out);
		}
	fputs("\"><td class=\"name\">", out);
	write_game_link(out, rec->id, dir);
	fputs("</td><td class=\"name\">", out);
	write_names(out, rec, NULL, rec->players, ", ");
	fputs("</td><td class=\"name\">", out);
	fputs(write_names(out, rec, rec->winners, rec->nwinners, ", ") ? " won" : "no winner", out);
	fputs("</td><td class=\"name\">", out);
	report_html_text(out, rec->reason ? rec->reason : "?");
	fprintf(out, "</td><td>%ld</td><td class=\"name\">", (long)rec->turns);
	for (size_t i = 0; i < rec->nfaults; i++) {
		const struct record_fault *f = &rec->faults[i];

		fputs(i ? "; " : "", out);
		report_html_text(out, f->bot ? f->bot : "?");
		fputs(": <b>", out);
		report_html_text(out, f->kind ? f->kind : "?");
		fputs("</b> ", out);
		report_html_text(out, f->reason ? f->reason : "");
		if (f->turn > 0)
			fprintf(out, " (turn %ld, move %ld)", (long)f->turn, (long)f->move);
	}
	fputs("</td></tr>\n", out);
}

/* Up to this many reasons are shown unfolded. */
#define REASONS_OPEN_MAX 10

/* One distinct reason of the faults section and the first game it was given in. */
struct reason {
	char *bot, *kind, *why, *id;
	long count;
};

struct reasons {
	struct reason *v;
	size_t n, cap;
	long others; /* faults whose reason came after GAMELIST_REASONS_MAX others */
};

/* What the report's one reading of the records leaves for the game list and the fault reasons. */
struct gamelist {
	const char *link_dir;  /* where replays/<id>.html pages are, or NULL */
	struct sampler s;
	FILE *rows_stream;     /* the listed rows, written as they come */
	char *rows;
	size_t rows_len;
	struct reasons reasons;
};

static const char filter_script[] =
	"<script>\n"
	"(function () {\n"
	"  var rows = document.querySelectorAll('#games tbody tr');\n"
	"  function shown(r) {\n"
	"    var bot = document.getElementById('f-bot').value.trim();\n"
	"    var res = document.getElementById('f-result').value;\n"
	"    var kind = document.getElementById('f-fault').value.trim();\n"
	"    var pad = ' ' + bot + ' ';\n"
	"    if (bot && r.dataset.bots.indexOf(pad) < 0) return false;\n"
	"    if (res === 'won' && (!bot || r.dataset.winners.indexOf(pad) < 0)) return false;\n"
	"    if (res === 'lost' && (!bot || r.dataset.winners.indexOf(pad) >= 0)) return false;\n"
	"    if (res === 'none' && r.dataset.winners.trim()) return false;\n"
	"    if (kind === 'any' && !r.dataset.faults.trim()) return false;\n"
	"    if (kind && kind !== 'any' && r.dataset.faults.indexOf(' ' + kind + ' ') < 0) return false;\n"
	"    return true;\n"
	"  }\n"
	"  function apply() {\n"
	"    var n = 0;\n"
	"    rows.forEach(function (r) { var s = shown(r); r.hidden = !s; n += s; });\n"
	"    document.getElementById('f-count').textContent = n + ' shown';\n"
	"  }\n"
	"  ['f-bot', 'f-result', 'f-fault'].forEach(function (id) {\n"
	"    document.getElementById(id).addEventListener('input', apply);\n"
	"  });\n"
	"  apply();\n"
	"})();\n"
	"</script>\n";

int gamelist_write_html(const struct gamelist *gl, FILE *out)
{

	fputs("<h2 id=\"game-list\">Games</h2>\n", out);
	fputs("<p class=\"filters\"><label>bot <input id=\"f-bot\" size=\"12\"></label> "
	      "<label>result <select id=\"f-result\"><option value=\"\">any</option>"
	      "<option value=\"won\">bot won</option><option value=\"lost\">bot did not win"
	      "</option><option value=\"none\">no winner</option></select></label> "
	      "<label>fault <select id=\"f-fault\"><option value=\"\">any or none</option>"
	      "<option value=\"any\">with a fault</option>", out);
	for (int k = 0; k < GAMELOG_FAULT_OTHER; k++)
		fprintf(out, "<option>%s</option>", gamelog_fault_names[k]);
	fputs("</select></label> <span id=\"f-count\"></span></p>\n<div class=\"scroll\">"
	      "<table id=\"games\">\n<thead><tr><th class=\"name\">game</th>"
	      "<th class=\"name\">bots (by seat)</th><th class=\"name\">result</th>"
	      "<th class=\"name\">reason</th><th>turns</th><th class=\"name\">faults</th>"
	      "</tr></thead>\n<tbody>\n", out);
	if (gl->rows_len && fwrite(gl->rows, 1, gl->rows_len, out) != gl->rows_len)
		return -EIO;
	fputs("</tbody>\n</table></div>\n", out);
	fprintf(out, "<p class=\"note\" id=\"games-note\">%ld games listed: the first %d of each "
		"table (set of bots) and every game with a fault (at most %d rows); %ld more "
		"are in games.jsonl. A game links to its replay viewer page when "
		"<code>replays/ID.html</code> exists: <code>skipbo-arena replay --html --id ID "
		"DIR</code> makes it, <code>skipbo-arena report --replays DIR</code> every "
		"game's.</p>\n", gl->s.listed, GAMELIST_PER_TABLE,
		GAMELIST_MAX, gl->s.skipped);
	fputs(filter_script, out);
	return ferror(out) ? -EIO : 0;
}

/*
 * Do reasons a and b say the same but for their numbers, in their first
 * GAMELIST_REASON_CHARS bytes? A run of digits matches any other: a reason
 * that says where its fault happened, or how long a bot took, is one reason.
 */
static bool alike_but_numbers(const char *a, const char *b)
{
	const char *a_end = a + strnlen(a, GAMELIST_REASON_CHARS);
	const char *b_end = b + strnlen(b, GAMELIST_REASON_CHARS);

	while (a < a_end && b < b_end) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (a < a_end && isdigit((unsigned char)*a))
				a++;
			while (b < b_end && isdigit((unsigned char)*b))
				b++;
		} else if (*a++ != *b++) {
			return false;
		}
	}
	return a == a_end && b == b_end;
}

static int reasons_add(struct reasons *rs, const char *bot, const char *kind, const char *why,
		       const char *id)
{
	struct reason r;

	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->v[i].bot, bot) && !strcmp(rs->v[i].kind, kind) &&
		    alike_but_numbers(rs->v[i].why, why)) {
			rs->v[i].count++;
			return 0;
		}
	if (rs->n >= GAMELIST_REASONS_MAX) {
		rs->others++;
		return 0;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct reason *grown = reallocarray(rs->v, cap, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		rs->v = grown;
		rs->cap = cap;
	}
	r = (struct reason){ strdup(bot), strdup(kind), strndup(why, GAMELIST_REASON_CHARS),
			     strdup(id), 1 };
	if (!r.bot || !r.kind || !r.why || !r.id) {
		free(r.bot);
		free(r.kind);
		free(r.why);
		free(r.id);
		return -ENOMEM;
	}
	rs->v[rs->n++] = r;
	return 0;
}

static int reasons_use(struct reasons *rs, const struct record *rec)
{
	int rc = 0;

	for (size_t i = 0; i < rec->nfaults && rc == 0; i++) {
		const struct record_fault *f = &rec->faults[i];

		if (f->bot && f->kind && f->reason && rec->id)
			rc = reasons_add(rs, f->bot, f->kind, f->reason, rec->id);
	}
	return rc;
}

/* By bot, then kind, then the most frequent reason first. */
static int reason_cmp(const void *a, const void *b)
{
	const struct reason *x = a, *y = b;
	int c = strcmp(x->bot, y->bot);

	if (!c)
		c = strcmp(x->kind, y->kind);
	return c ? c : (x->count < y->count) - (x->count > y->count);
}

static void reasons_write(const struct reasons *rs, const char *link_dir, FILE *out)
{
	/* a long list starts folded, so that the charts below stay near the top */
	fprintf(out, "<details id=\"fault-reasons-box\"%s><summary>%zu distinct reason%s, each "
		"with how often it was given and the first game it was given in</summary>\n",
		rs->n <= REASONS_OPEN_MAX ? " open" : "", rs->n, rs->n == 1 ? "" : "s");
	fputs("<div class=\"scroll\"><table "
	      "id=\"fault-reasons\">\n<thead><tr><th class=\"name\">bot</th><th class=\"name\">"
	      "kind</th><th>faults</th><th class=\"name\">reason</th><th class=\"name\">example "
	      "game</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < rs->n; i++) {
		const struct reason *r = &rs->v[i];

		fputs("<tr><td class=\"name\">", out);
		report_html_text(out, r->bot);
		fputs("</td><td class=\"name\">", out);
		report_html_text(out, r->kind);
		fprintf(out, "</td><td>%ld</td><td class=\"name\">", r->count);
		report_html_text(out, r->why);
		fputs("</td><td class=\"name\">", out);
		write_game_link(out, r->id, link_dir);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n</details>\n", out);
	if (rs->others)
		fprintf(out, "<p class=\"note\" id=\"fault-reasons-more\">%ld more faults gave "
			"other reasons, past the first %d distinct ones listed; games.jsonl has "
			"them all.</p>\n", rs->others, GAMELIST_REASONS_MAX);
}

int gamelist_write_fault_reasons(const struct gamelist *gl, FILE *out)
{
	reasons_write(&gl->reasons, gl->link_dir, out);
	return ferror(out) ? -EIO : 0;
}

void gamelist_write_fault_reasons_md(const struct gamelist *gl, FILE *out,
				     void (*text)(FILE *out, const char *s))
{
	const struct reasons *rs = &gl->reasons;

	if (!rs->n)
		return;
	fputs("\n| bot | kind | faults | reason | first game |\n|:---|:---|---:|:---|:---|\n", out);
	for (size_t i = 0; i < rs->n; i++) {
		fputs("| ", out);
		text(out, rs->v[i].bot);
		fputs(" | ", out);
		text(out, rs->v[i].kind);
		fprintf(out, " | %ld | ", rs->v[i].count);
		text(out, rs->v[i].why);
		fputs(" | ", out);
		text(out, rs->v[i].id);
		fputs(" |\n", out);
	}
	if (rs->others)
		fprintf(out, "\n%ld more faults gave other reasons, past the first %d distinct ones "
			"listed; games.jsonl has them all.\n", rs->others, GAMELIST_REASONS_MAX);
}

int gamelist_new(const char *link_dir, struct gamelist **out)
{
	struct gamelist *gl = calloc(1, sizeof(*gl));

	*out = NULL;
	if (!gl)
		return -ENOMEM;
	gl->link_dir = link_dir;
	if (!(gl->rows_stream = open_memstream(&gl->rows, &gl->rows_len))) {
		free(gl);
		return -ENOMEM;
	}
	*out = gl;
	return 0;
}

int gamelist_add(struct gamelist *gl, const struct record *rec)
{
	if (sample(&gl->s, rec, rec->nfaults > 0)) {
		write_row(gl->rows_stream, rec, gl->link_dir);
		gl->s.listed++;
	} else {
		gl->s.skipped++;
	}
	if (ferror(gl->rows_stream))
		return -ENOMEM;
	return reasons_use(&gl->reasons, rec);
}

int gamelist_finish(struct gamelist *gl)
{
	int rc = 0;

	if (gl->rows_stream && fclose(gl->rows_stream) != 0)
		rc = -ENOMEM;
	gl->rows_stream = NULL;
	if (gl->reasons.n)
		qsort(gl->reasons.v, gl->reasons.n, sizeof(*gl->reasons.v), reason_cmp);
	return rc;
}

void gamelist_free(struct gamelist *gl)
{
	if (!gl)
		return;
	gamelist_finish(gl);
	for (size_t i = 0; i < gl->reasons.n; i++) {
		free(gl->reasons.v[i].bot);
		free(gl->reasons.v[i].kind);
		free(gl->reasons.v[i].why);
		free(gl->reasons.v[i].id);
	}
	free(gl->reasons.v);
	free(gl->rows);
	free(gl->s.seen);
	free(gl);
}
