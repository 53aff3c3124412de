/*
 * league_history.c - history.jsonl written, read and summarised; the format
 * is in league_history.h.
 */
#include "league_history.h"

#include "journal.h"
#include "json_strict.h"
#include "jsonw.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether a name is one the format allows. */
static bool name_valid(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len > 0 && len <= LEAGUE_HISTORY_NAME_MAX;
}

/* Whether line is one the reader takes: names valid and distinct, numbers finite or NAN
 * together (an unrated entry has neither). */
static bool line_valid(const struct league_history_line *line)
{
	for (size_t i = 0; i < line->n; i++) {
		const struct league_history_entry *e = &line->entries[i];
		if (!name_valid(e->name) || isnan(e->elo) != isnan(e->ci95) || isinf(e->elo) ||
		    isinf(e->ci95) || e->ci95 < 0 || e->games > (uint64_t)JSON_STRICT_INT_MAX)
			return false;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(line->entries[j].name, e->name))
				return false;
	}
	return line->games <= (uint64_t)JSON_STRICT_INT_MAX && line->time >= 0 &&
	       line->time <= JSON_STRICT_INT_MAX;
}

/* A number, or null for NAN; 17 significant digits, so a value reads back as written. */
static void write_number(struct jsonw *w, double x)
{
	if (isnan(x))
		jsonw_text(w, "null");
	else
		jsonw_printf(w, "%.17g", x);
}

/* The line as JSON with its newline into w. */
static void format_line(struct jsonw *w, const struct league_history_line *line)
{
	jsonw_printf(w, "{\"time\":%lld,\"games\":%llu,\"entries\":[", (long long)line->time,
		     (unsigned long long)line->games);
	for (size_t i = 0; i < line->n; i++) {
		const struct league_history_entry *e = &line->entries[i];
		jsonw_text(w, i ? ",{\"name\":" : "{\"name\":");
		jsonw_string(w, e->name);
		jsonw_text(w, ",\"elo\":");
		write_number(w, e->elo);
		jsonw_text(w, ",\"ci95\":");
		write_number(w, e->ci95);
		jsonw_printf(w, ",\"games\":%llu}", (unsigned long long)e->games);
	}
	jsonw_text(w, "]}\n");
}

int league_history_append(const char *path, const struct league_history_line *line)
{
	struct jsonw w;
	int rc;

	if (!line_valid(line))
		return -EINVAL;
	jsonw_init(&w);
	format_line(&w, line);
	/* the journal adds the newline and cuts a torn line a kill left (journal.h) */
	if ((rc = jsonw_error(&w)) == 0)
		rc = journal_append_once(path, w.data, w.len - 1);
	jsonw_release(&w);
	return rc;
}

/* The reader of one file. */
struct reader {
	const char *path;
	unsigned long lineno;
	char *why;
	size_t whysize;
	struct league_history_entry *entries;
	size_t cap;
};

static int refuse(struct reader *rd, unsigned long column, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Refuse the line being read: "path:line:column: sentence" in rd->why; -EBADMSG. */
static int refuse(struct reader *rd, unsigned long column, const char *fmt, ...)
{
	char sentence[LEAGUE_HISTORY_WHY_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sentence, sizeof(sentence), fmt, ap);
	va_end(ap);
	if (rd->why && rd->whysize)
		snprintf(rd->why, rd->whysize, "%s:%lu:%lu: %s", rd->path, rd->lineno, column,
			 sentence);
	return -EBADMSG;
}

/* Whether object o has only the keys of names (a NULL-ended list). */
static const char *unknown_key(const cJSON *o, const char *const *names)
{
	for (const cJSON *k = o->child; k; k = k->next) {
		size_t i = 0;
		while (names[i] && strcmp(names[i], k->string))
			i++;
		if (!names[i])
			return k->string;
	}
	return NULL;
}

/* An entry's Elo or ci95: a finite number, or null (NAN). */
static int read_rating(struct reader *rd, const cJSON *o, const char *prefix, const char *name,
		       double min, double *out)
{
	struct json_strict_error e;
	int rc;

	*out = NAN;
	rc = json_strict_double(cJSON_GetObjectItemCaseSensitive(o, name), prefix, name, min,
				HUGE_VAL, JSON_STRICT_NULLABLE, out, &e);
	return rc < 0 ? refuse(rd, 1, "%s", e.message) : 0;
}

static int read_count(struct reader *rd, const cJSON *o, const char *prefix, const char *name,
		      uint64_t *out)
{
	struct json_strict_error e;
	int64_t v;
	int rc = json_strict_int(cJSON_GetObjectItemCaseSensitive(o, name), prefix, name, 0,
				 JSON_STRICT_INT_MAX, 0, &v, &e);

	if (rc < 0)
		return refuse(rd, 1, "%s", e.message);
	*out = (uint64_t)v;
	return 0;
}

/* Entry k of the array into rd->entries[k]. */
static int read_entry(struct reader *rd, const cJSON *o, size_t k)
{
	static const char *const keys[] = { "name", "elo", "ci95", "games", NULL };
	struct league_history_entry *e = &rd->entries[k];
	char prefix[48];
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const char *extra;
	int rc;

	snprintf(prefix, sizeof(prefix), "entries[%zu].", k);
	if (!cJSON_IsObject(o))
		return refuse(rd, 1, "entries[%zu]: expected an object", k);
	if ((extra = unknown_key(o, keys)))
		return refuse(rd, 1, "%sunknown field \"%s\"", prefix, extra);
	if (!cJSON_IsString(name) || !name_valid(name->valuestring))
		return refuse(rd, 1, "%sname: expected a string of 1 to %d bytes", prefix,
			      LEAGUE_HISTORY_NAME_MAX);
	e->name = name->valuestring;
	for (size_t j = 0; j < k; j++)
		if (!strcmp(rd->entries[j].name, e->name))
			return refuse(rd, 1, "%sname: \"%s\" twice", prefix, e->name);
	if ((rc = read_rating(rd, o, prefix, "elo", -HUGE_VAL, &e->elo)) < 0 ||
	    (rc = read_rating(rd, o, prefix, "ci95", 0, &e->ci95)) < 0 ||
	    (rc = read_count(rd, o, prefix, "games", &e->games)) < 0)
		return rc;
	if (isnan(e->elo) != isnan(e->ci95))
		return refuse(rd, 1, "%selo and ci95: both numbers or both null", prefix);
	return 0;
}

/* The parsed line root into line (its entries in rd->entries). */
static int read_line(struct reader *rd, const cJSON *root, struct league_history_line *line)
{
	static const char *const keys[] = { "time", "games", "entries", NULL };
	const cJSON *entries = cJSON_GetObjectItemCaseSensitive(root, "entries");
	const char *extra;
	uint64_t time;
	size_t n = 0, k = 0;
	int rc;

	if (!cJSON_IsObject(root))
		return refuse(rd, 1, "expected an object");
	if ((extra = unknown_key(root, keys)))
		return refuse(rd, 1, "unknown field \"%s\"", extra);
	if ((rc = read_count(rd, root, NULL, "time", &time)) < 0 ||
	    (rc = read_count(rd, root, NULL, "games", &line->games)) < 0)
		return rc;
	if (!cJSON_IsArray(entries))
		return refuse(rd, 1, "entries: expected an array");
	for (const cJSON *o = entries->child; o; o = o->next)
		n++;
	if (n > rd->cap) {
		struct league_history_entry *e = reallocarray(rd->entries, n, sizeof(*e));
		if (!e)
			return -ENOMEM;
		rd->entries = e;
		rd->cap = n;
	}
	for (const cJSON *o = entries->child; o; o = o->next, k++)
		if ((rc = read_entry(rd, o, k)) < 0)
			return rc;
	line->time = (int64_t)time;
	line->n = n;
	line->entries = rd->entries;
	return 0;
}

/* One text line (without its newline) parsed and handed to fn. */
static int take_line(struct reader *rd, struct json_pool *pool, const char *text, size_t len,
		     int (*fn)(void *ctx, const struct league_history_line *line), void *ctx)
{
	struct json_strict_error e;
	struct league_history_line line;
	cJSON *root;
	int rc;

	if (len > LEAGUE_HISTORY_LINE_MAX)
		return refuse(rd, 1, "line longer than %u bytes", LEAGUE_HISTORY_LINE_MAX);
	if (json_strict_parse_pooled(text, len, pool, &root, &e) < 0)
		return e.code == JSON_STRICT_ENOMEM ? -ENOMEM : refuse(rd, e.column, "%s", e.message);
	if ((rc = read_line(rd, root, &line)) < 0)
		return rc;
	return fn(ctx, &line);
}

int league_history_read(const char *path,
			int (*fn)(void *ctx, const struct league_history_line *line), void *ctx,
			char *why, size_t whysize)
{
	struct reader rd = { path, 0, why, whysize, NULL, 0 };
	struct json_pool pool;
	char *buf = NULL;
	size_t size = 0;
	ssize_t len;
	int rc = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	json_pool_init(&pool);
	while (rc == 0 && (len = getline(&buf, &size, f)) > 0) {
		bool whole = buf[len - 1] == '\n';
		rd.lineno++;
		rc = take_line(&rd, &pool, buf, (size_t)len - whole, fn, ctx);
		/* a torn last line (no newline) that does not parse is a write a kill cut short */
		if (rc == -EBADMSG && !whole)
			rc = 0;
	}
	if (rc == 0 && ferror(f))
		rc = -EIO;
	fclose(f);
	free(buf);
	free(rd.entries);
	json_pool_release(&pool);
	return rc;
}

void league_history_summary_release(struct league_history_summary *s)
{
	for (size_t i = 0; i < s->nseries; i++) {
		free(s->series[i].name);
		free(s->series[i].points);
	}
	free(s->series);
	memset(s, 0, sizeof(*s));
}

const struct league_history_series *
league_history_find(const struct league_history_summary *s, const char *name)
{
	for (size_t i = 0; i < s->nseries; i++)
		if (!strcmp(s->series[i].name, name))
			return &s->series[i];
	return NULL;
}

/* The series of name, added when new. NULL on -ENOMEM. */
static struct league_history_series *series_of(struct league_history_summary *s,
					       const char *name)
{
	struct league_history_series *x = (struct league_history_series *)league_history_find(s, name);

	if (x)
		return x;
	if (s->nseries == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct league_history_series *t = reallocarray(s->series, cap, sizeof(*t));
		if (!t)
			return NULL;
		s->series = t;
		s->cap = cap;
	}
	x = &s->series[s->nseries];
	memset(x, 0, sizeof(*x));
	if (!(x->name = strdup(name)))
		return NULL;
	s->nseries++;
	return x;
}

static int push_point(struct league_history_series *x, const struct league_history_point *p)
{
	if (x->npoints == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 8;
		struct league_history_point *t = reallocarray(x->points, cap, sizeof(*t));
		if (!t)
			return -ENOMEM;
		x->points = t;
		x->cap = cap;
	}
	x->points[x->npoints++] = *p;
	return 0;
}

/* Keep every other kept line: the stride doubles and each series drops the points between
 * (never its first: where the entry came in). */
static void thin(struct league_history_summary *s)
{
	s->stride *= 2;
	for (size_t i = 0; i < s->nseries; i++) {
		struct league_history_series *x = &s->series[i];
		size_t w = 0;
		for (size_t k = 0; k < x->npoints; k++)
			if (k == 0 || x->points[k].line % s->stride == 0)
				x->points[w++] = x->points[k];
		x->npoints = w;
	}
}

/* league_history_read's callback: one line into the summary. */
static int summarise_line(void *ctx, const struct league_history_line *line)
{
	struct league_history_summary *s = ctx;
	uint64_t at = s->lines++;
	bool kept = at % s->stride == 0;

	if (at == 0)
		s->first_time = line->time;
	s->last_time = line->time;
	s->last_games = line->games;
	for (size_t i = 0; i < s->nseries; i++)
		s->series[i].seen_last = 0;
	for (size_t k = 0; k < line->n; k++) {
		const struct league_history_entry *e = &line->entries[k];
		struct league_history_series *x = series_of(s, e->name);
		struct league_history_point p = { line->time, line->games, e->elo, e->ci95,
						  e->games, at };
		if (!x || ((kept || x->npoints == 0) && push_point(x, &p) < 0))
			return -ENOMEM;
		x->last = p;
		x->seen_last = 1;
	}
	if (kept && (s->lines + s->stride - 1) / s->stride > 2 * LEAGUE_HISTORY_POINTS)
		thin(s);
	return 0;
}

int league_history_summarise(const char *path, struct league_history_summary *out, char *why,
			     size_t whysize)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->stride = 1;
	rc = league_history_read(path, summarise_line, out, why, whysize);
	/* every series ends at its latest value, kept or not */
	for (size_t i = 0; rc == 0 && i < out->nseries; i++) {
		struct league_history_series *x = &out->series[i];
		if (!x->npoints || x->points[x->npoints - 1].line != x->last.line)
			rc = push_point(x, &x->last);
	}
	if (rc < 0 && rc != -ENOENT)
		league_history_summary_release(out);
	return rc;
}
