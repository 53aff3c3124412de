/*
 * gamelist.c - the game list of report.html (contract in gamelist.h).
 */
#include "gamelist.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gamelog.h"
#include "report_html.h"
#include "json_strict.h"

/* Tables beyond this index are not sampled (their faulted games still are). */
#define TABLES_MAX (1 << 20)

struct sampler {
	unsigned char *seen; /* records listed per table, saturating */
	size_t ntables;
	long listed, skipped;
};

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static long num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 1e15 ?
		(long)v->valuedouble : -1;
}

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
static int sample(struct sampler *s, const cJSON *rec, int faulted)
{
	long table = num(rec, "table");

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

static void write_row(FILE *out, const cJSON *rec, const char *dir)
{
	const cJSON *bots = cJSON_GetObjectItemCaseSensitive(rec, "bots"), *b, *f;
	const cJSON *winners = cJSON_GetObjectItemCaseSensitive(rec, "winners"), *w;
	const cJSON *faults = cJSON_GetObjectItemCaseSensitive(rec, "faults");
	const char *id = str(rec, "id"), *reason = str(rec, "reason");
	char path[4096];
	struct stat st;
	int n = 0;

	/* data-* attributes for the filter: space-separated, names are printable ASCII */
	fputs("<tr data-bots=\" ", out);
	cJSON_ArrayForEach(b, bots)
		if (cJSON_IsString(b)) {
			report_html_text(out, b->valuestring);
			fputc(' ', out);
		}
	fputs("\" data-winners=\" ", out);
	cJSON_ArrayForEach(w, winners) {
		const cJSON *name = cJSON_IsNumber(w) ? cJSON_GetArrayItem(bots, w->valueint) : NULL;

		if (cJSON_IsString(name)) {
			report_html_text(out, name->valuestring);
			fputc(' ', out);
		}
	}
	fputs("\" data-faults=\" ", out);
	cJSON_ArrayForEach(f, faults)
		if (str(f, "kind")) {
			report_html_text(out, str(f, "kind"));
			fputc(' ', out);
		}
	fputs("\"><td class=\"name\">", out);
	if (dir && id && id_is_plain(id) &&
	    snprintf(path, sizeof(path), "%s/replays/%s.html", dir, id) < (int)sizeof(path) &&
	    stat(path, &st) == 0)
		fprintf(out, "<a href=\"replays/%s.html\">%s</a>", id, id);
	else if (id)
		report_html_text(out, id);
	fputs("</td><td class=\"name\">", out);
	cJSON_ArrayForEach(b, bots)
		if (cJSON_IsString(b)) {
			fputs(n++ ? ", " : "", out);
			report_html_text(out, b->valuestring);
		}
	fputs("</td><td class=\"name\">", out);
	n = 0;
	cJSON_ArrayForEach(w, winners) {
		const cJSON *name = cJSON_IsNumber(w) ? cJSON_GetArrayItem(bots, w->valueint) : NULL;

		if (cJSON_IsString(name)) {
			fputs(n++ ? ", " : "", out);
			report_html_text(out, name->valuestring);
		}
	}
	fputs(n ? " won" : "no winner", out);
	fputs("</td><td class=\"name\">", out);
	report_html_text(out, reason ? reason : "?");
	fprintf(out, "</td><td>%ld</td><td class=\"name\">", num(rec, "turns"));
	n = 0;
	cJSON_ArrayForEach(f, faults) {
		const char *bot = str(f, "bot"), *kind = str(f, "kind"), *why = str(f, "reason");

		fputs(n++ ? "; " : "", out);
		report_html_text(out, bot ? bot : "?");
		fputs(": <b>", out);
		report_html_text(out, kind ? kind : "?");
		fputs("</b> ", out);
		report_html_text(out, why ? why : "");
		if (num(f, "turn") > 0)
			fprintf(out, " (turn %ld, move %ld)", num(f, "turn"), num(f, "move"));
	}
	fputs("</td></tr>\n", out);
}

/*
 * Most records of a big tournament are neither faulted nor among the first of
 * their table: skip them without parsing. Text a bot sent is inside JSON
 * strings, where every '"' is escaped, so `"faults":[]` and `"table":` match
 * only the record's own keys.
 */
static int obviously_skipped(const struct sampler *s, const char *line)
{
	const char *t = strstr(line, "\"table\":");
	long table;

	if (!t || !strstr(line, "\"faults\":[]"))
		return 0;
	table = strtol(t + strlen("\"table\":"), NULL, 10);
	return table >= 0 && (size_t)table < s->ntables && s->seen[table] >= GAMELIST_PER_TABLE;
}

/* The records of one games.jsonl: rows for those sampled. */
static int list_file(struct sampler *s, const char *dir, int links, FILE *out)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/games.jsonl", dir) >= (int)sizeof(path) ||
	    !(f = fopen(path, "r")))
		return 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		cJSON *rec = NULL;
		const cJSON *faults;

		if (line[len - 1] != '\n')
			break; /* a torn last line */
		if (obviously_skipped(s, line)) {
			s->skipped++;
			continue;
		}
		if (json_strict_parse(line, (size_t)len - 1, &rec, NULL) < 0 || !cJSON_IsObject(rec)) {
			cJSON_Delete(rec);
			continue;
		}
		faults = cJSON_GetObjectItemCaseSensitive(rec, "faults");
		if (sample(s, rec, cJSON_GetArraySize(faults) > 0)) {
			write_row(out, rec, links ? dir : NULL);
			s->listed++;
		} else {
			s->skipped++;
		}
		cJSON_Delete(rec);
	}
	free(line);
	fclose(f);
	return 0;
}

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

int gamelist_write_html(const char *const *dirs, size_t ndirs, FILE *out)
{
	struct sampler s = { 0 };

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
	for (size_t i = 0; i < ndirs; i++)
		list_file(&s, dirs[i], ndirs == 1, out);
	fputs("</tbody>\n</table></div>\n", out);
	fprintf(out, "<p class=\"note\" id=\"games-note\">%ld games listed: the first %d of each "
		"table (set of bots) and every game with a fault (at most %d rows); %ld more "
		"are in games.jsonl. A game links to its replay viewer page when "
		"<code>replays/ID.html</code> exists: <code>skipbo-arena replay --html "
		"DIR/replays/ID.json.zst</code> makes it.</p>\n", s.listed, GAMELIST_PER_TABLE,
		GAMELIST_MAX, s.skipped);
	fputs(filter_script, out);
	free(s.seen);
	return ferror(out) ? -EIO : 0;
}
