/*
 * record_strict.c - a games.jsonl line read through the strict JSON reader
 * (json_strict.h): every refusal names the field (contract in record.h and
 * record_internal.h).
 */
#include "record_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Refuse the record being read with a sentence in rd->why; -EBADMSG. */
static int refuse(struct record_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int refuse(struct record_reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->why, sizeof(rd->why), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/*
 * Every number of a record goes through the strict readers: an integer
 * written as one (7, not 7.0 or 7e0), in range; a finite number in range.
 * 0, 1 when absent or null and flags allow it, or -EBADMSG with rd->why.
 */
static int read_int(struct record_reader *rd, const cJSON *item, const char *prefix,
		    const char *name, int64_t lo, int64_t hi, unsigned flags, int64_t *out)
{
	struct json_strict_error e;
	int rc = json_strict_int(item, prefix, name, lo, hi, flags, out, &e);

	return rc < 0 ? refuse(rd, "%s", e.message) : rc;
}

static int read_double(struct record_reader *rd, const cJSON *item, const char *prefix,
		       const char *name, double lo, double hi, unsigned flags, double *out)
{
	struct json_strict_error e;

	if (json_strict_double(item, prefix, name, lo, hi, flags, out, &e) < 0)
		return refuse(rd, "%s", e.message);
	return 0;
}

static const cJSON *field(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static const char *string_or_null(const cJSON *obj, const char *key)
{
	const cJSON *v = field(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A count a record need not have (turns, a fault's turn): -1 when absent or not a plain integer. */
static int64_t lenient_int(const cJSON *obj, const char *key)
{
	int64_t v = -1;

	if (json_strict_int(field(obj, key), NULL, key, 0, JSON_STRICT_INT_MAX, 0, &v, NULL) < 0)
		return -1;
	return v;
}

/* An optional integer field: def when absent. */
static int optional_int(struct record_reader *rd, const cJSON *obj, const char *key, int64_t lo,
			int64_t hi, int64_t def, int64_t *out)
{
	*out = def;
	return read_int(rd, field(obj, key), NULL, key, lo, hi, JSON_STRICT_OPTIONAL, out) < 0 ?
		-EBADMSG : 0;
}

/* An optional boolean field: false when absent. */
static int optional_bool(struct record_reader *rd, const cJSON *obj, const char *key, bool *out)
{
	const cJSON *v = field(obj, key);

	if (v && !cJSON_IsBool(v))
		return refuse(rd, "%s: expected true or false", key);
	*out = cJSON_IsTrue(v);
	return 0;
}

/* An array of exactly n integers in [lo, hi]. */
static int int_array(struct record_reader *rd, const cJSON *obj, const char *key, int n,
		     int64_t lo, int64_t hi, int64_t *out)
{
	const cJSON *arr = field(obj, key), *v;
	char where[32];
	int i = 0;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != n)
		return refuse(rd, "%s: expected an array of %d integers", key, n);
	cJSON_ArrayForEach(v, arr) {
		snprintf(where, sizeof(where), "%s[%d]", key, i);
		if (read_int(rd, v, where, NULL, lo, hi, 0, &out[i++]) < 0)
			return -EBADMSG;
	}
	return 0;
}

static int parse_teams(struct record_reader *rd, const cJSON *root, struct record *g)
{
	const cJSON *teams = field(root, "teams"), *team, *seat;
	bool seen[RECORD_SEATS_MAX] = { false };
	char where[32];
	int t = 0;

	if (!teams || cJSON_IsNull(teams)) {
		for (int s = 0; s < g->players; s++)
			g->team[s] = (uint8_t)s;
		return 0;
	}
	if (!cJSON_IsArray(teams) || cJSON_GetArraySize(teams) > g->players)
		return refuse(rd, "teams: expected an array of at most %d teams", g->players);
	cJSON_ArrayForEach(team, teams) {
		int k = 0;

		if (!cJSON_IsArray(team))
			return refuse(rd, "teams[%d]: expected an array of seats", t);
		cJSON_ArrayForEach(seat, team) {
			int64_t s;

			snprintf(where, sizeof(where), "teams[%d][%d]", t, k++);
			if (read_int(rd, seat, where, NULL, 0, g->players - 1, 0, &s) < 0)
				return -EBADMSG;
			if (seen[s])
				return refuse(rd, "%s: seat %d is in two teams", where, (int)s);
			seen[s] = true;
			g->team[s] = (uint8_t)t;
		}
		t++;
	}
	for (int s = 0; s < g->players; s++)
		if (!seen[s])
			return refuse(rd, "teams: seat %d is in no team", s);
	return 0;
}

static int parse_time(struct record_reader *rd, const cJSON *root, struct record *g)
{
	static const char *const keys[] = { "mean_us", "p99_us", "max_us" };
	const cJSON *time = field(root, "time"), *t;
	char where[32];
	int s = 0;

	if (!time || cJSON_IsNull(time))
		return 0;
	if (!cJSON_IsArray(time) || cJSON_GetArraySize(time) != g->players)
		return refuse(rd, "time: expected an array of %d objects", g->players);
	cJSON_ArrayForEach(t, time) {
		struct record_time *rt = &g->time[s];
		int64_t moves;
		double v[3], cpu = 0;

		snprintf(where, sizeof(where), "time[%d].", s);
		if (!cJSON_IsObject(t))
			return refuse(rd, "time[%d]: expected an object", s);
		if (read_int(rd, field(t, "moves"), where, "moves", 0, UINT32_MAX, 0, &moves) < 0)
			return -EBADMSG;
		for (int k = 0; k < 3; k++)
			if (read_double(rd, field(t, keys[k]), where, keys[k], 0, RECORD_TIME_MAX_US,
					0, &v[k]) < 0)
				return -EBADMSG;
		if (read_double(rd, field(t, "cpu_mean_us"), where, "cpu_mean_us", 0,
				RECORD_TIME_MAX_US, JSON_STRICT_OPTIONAL, &cpu) < 0)
			return -EBADMSG;
		*rt = (struct record_time){ .moves = (uint32_t)moves, .mean_us = v[0],
					    .p99_us = v[1], .max_us = v[2], .cpu_mean_us = cpu,
					    .has_cpu = field(t, "cpu_mean_us") != NULL };
		s++;
	}
	g->has_time = true;
	return 0;
}

static int parse_faults(struct record_reader *rd, const cJSON *root, struct record *g)
{
	const cJSON *faults = field(root, "faults"), *f;
	char where[32];
	size_t i = 0, n;

	if (!faults || cJSON_IsNull(faults))
		return 0;
	if (!cJSON_IsArray(faults))
		return refuse(rd, "faults: expected an array");
	n = (size_t)cJSON_GetArraySize(faults);
	if (record_reserve_faults(rd, n) < 0)
		return -ENOMEM;
	cJSON_ArrayForEach(f, faults) {
		struct record_fault *rf = &rd->faults[i];
		int64_t seat;

		snprintf(where, sizeof(where), "faults[%zu].", i++);
		if (!cJSON_IsObject(f))
			return refuse(rd, "%.30s: expected an object", where);
		if (read_int(rd, field(f, "seat"), where, "seat", 0, g->players - 1, 0, &seat) < 0)
			return -EBADMSG;
		*rf = (struct record_fault){ (int)seat, string_or_null(f, "bot"),
					     string_or_null(f, "kind"), lenient_int(f, "game"),
					     lenient_int(f, "turn"), lenient_int(f, "move"),
					     string_or_null(f, "reason"), string_or_null(f, "line") };
	}
	g->faults = rd->faults;
	g->nfaults = n;
	return 0;
}

static int parse_bots(struct record_reader *rd, const cJSON *root, struct record *g)
{
	const cJSON *bots = field(root, "bots"), *b;
	int s = 0;

	if (!cJSON_IsArray(bots) || cJSON_GetArraySize(bots) != g->players)
		return refuse(rd, "bots: expected an array of %d names", g->players);
	cJSON_ArrayForEach(b, bots) {
		if (!cJSON_IsString(b) || !record_printable_name(b->valuestring,
								 strlen(b->valuestring)))
			return refuse(rd, "bots[%d]: expected a name of 1 to %d printable ASCII "
				      "characters", s, RECORD_NAME_MAX);
		g->bots[s++] = b->valuestring;
	}
	return 0;
}

static int parse_winners(struct record_reader *rd, const cJSON *root, struct record *g)
{
	const cJSON *winners = field(root, "winners"), *w;
	char where[32];
	int64_t v;
	int s = 0;

	if (!cJSON_IsArray(winners))
		return refuse(rd, "winners: expected an array of seats");
	cJSON_ArrayForEach(w, winners) {
		snprintf(where, sizeof(where), "winners[%d]", s++);
		if (read_int(rd, w, where, NULL, 0, g->players - 1, 0, &v) < 0)
			return -EBADMSG;
		g->winner[v] = true;
		if (g->nwinners < RECORD_SEATS_MAX)
			g->winners[g->nwinners++] = (int)v;
	}
	return 0;
}

/* The per-seat arrays: placings, stock left, scores. */
static int parse_seats(struct record_reader *rd, const cJSON *root, struct record *g)
{
	int64_t arr[RECORD_SEATS_MAX];
	int n = g->players;

	if (int_array(rd, root, "placings", n, 1, n, arr) < 0)
		return -EBADMSG;
	for (int s = 0; s < n; s++)
		g->placings[s] = (int)arr[s];
	if (int_array(rd, root, "stock_left", n, 0, 162, arr) < 0)
		return -EBADMSG;
	for (int s = 0; s < n; s++)
		g->stock_left[s] = (int)arr[s];
	if (int_array(rd, root, "scores", n, 0, INT32_MAX, arr) < 0)
		return -EBADMSG;
	for (int s = 0; s < n; s++)
		g->scores[s] = (int32_t)arr[s];
	return 0;
}

/* RECORD_FULL: every field a rating uses, checked. */
static int parse_full(struct record_reader *rd, const cJSON *root, struct record *g)
{
	int64_t v[4];
	int rc;

	if (!cJSON_IsObject(root))
		return refuse(rd, "expected a JSON object");
	if (read_int(rd, field(root, "players"), NULL, "players", 2, RECORD_SEATS_MAX, 0, &v[0]) < 0)
		return -EBADMSG;
	g->players = (int)v[0];
	if (optional_int(rd, root, "table", 0, INT32_MAX, 0, &v[0]) < 0 ||
	    optional_int(rd, root, "deal", 0, INT32_MAX, 0, &v[1]) < 0 ||
	    optional_int(rd, root, "rotation", 0, INT32_MAX, 0, &v[2]) < 0 ||
	    optional_int(rd, root, "games", 1, INT32_MAX, 1, &v[3]) < 0 ||
	    optional_bool(rd, root, "partnership", &g->partnership) < 0 ||
	    optional_bool(rd, root, "match", &g->match) < 0)
		return -EBADMSG;
	g->table = (uint32_t)v[0];
	g->deal = (uint32_t)v[1];
	g->rotation = (uint32_t)v[2];
	g->games = (int)v[3];
	if (parse_seats(rd, root, g) < 0 || parse_winners(rd, root, g) < 0 ||
	    parse_teams(rd, root, g) < 0 || parse_time(rd, root, g) < 0)
		return -EBADMSG;
	if ((rc = parse_faults(rd, root, g)) < 0)
		return rc;
	if (parse_bots(rd, root, g) < 0)
		return -EBADMSG;
	g->id = string_or_null(root, "id");
	g->reason = string_or_null(root, "reason");
	g->turns = lenient_int(root, "turns");
	g->moves = lenient_int(root, "moves");
	return 0;
}

/* RECORD_KEYS: the fields a resume relies on. */
static int parse_keys(struct record_reader *rd, const cJSON *root, struct record *g)
{
	const cJSON *placings = field(root, "placings"), *v;
	char where[32];
	int64_t n, p;
	int s = 0;

	if (!cJSON_IsObject(root) || !cJSON_IsString(field(root, "id")))
		return refuse(rd, "not a game record (an object with a string \"id\")");
	if (read_int(rd, field(root, "players"), NULL, "players", 2, RECORD_SEATS_MAX, 0, &n) < 0)
		return -EBADMSG;
	if (!cJSON_IsArray(placings) || cJSON_GetArraySize(placings) != n)
		return refuse(rd, "placings: expected an array of %d integers", (int)n);
	cJSON_ArrayForEach(v, placings) {
		snprintf(where, sizeof(where), "placings[%d]", s);
		if (read_int(rd, v, where, NULL, 1, n, 0, &p) < 0)
			return -EBADMSG;
		g->placings[s++] = (int)p;
	}
	g->id = field(root, "id")->valuestring;
	g->players = (int)n;
	g->turns = g->moves = -1;
	return 0;
}

int record_parse_strict(struct record_reader *rd, const char *line, size_t len,
			enum record_level level, struct record *rec)
{
	struct json_strict_error e;

	memset(rec, 0, sizeof(*rec));
	rd->root = NULL;
	/* strict: a key twice, a raw control character or trailing text is refused */
	if (json_strict_parse_pooled(line, len, &rd->pool, &rd->root, &e) < 0)
		return e.code == JSON_STRICT_ENOMEM ? -ENOMEM :
			refuse(rd, "column %lu: %s", e.column, e.message);
	return level == RECORD_FULL ? parse_full(rd, rd->root, rec) : parse_keys(rd, rd->root, rec);
}
