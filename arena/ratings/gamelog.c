/*
 * gamelog.c - reading games.jsonl (results/README.md) into memory or through a sink.
 */
#include "gamelog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_strict.h"

const char *const gamelog_fault_names[GAMELOG_FAULT_KINDS] = {
	"timeout", "exit", "closed", "malformed", "protocol", "illegal", "start", "other",
};

void gamelog_init(struct gamelog *log)
{
	memset(log, 0, sizeof(*log));
}

void gamelog_set_sink(struct gamelog *log, gamelog_sink_fn sink, void *ctx)
{
	log->sink = sink;
	log->sink_ctx = ctx;
}

void gamelog_release(struct gamelog *log)
{
	for (size_t i = 0; i < log->nbots; i++)
		free(log->bots[i]);
	free(log->bots);
	free(log->games);
	idset_free(log->ids);
	memset(log, 0, sizeof(*log));
}

long gamelog_find_bot(const struct gamelog *log, const char *name)
{
	for (size_t i = 0; i < log->nbots; i++)
		if (strcmp(log->bots[i], name) == 0)
			return (long)i;
	return -1;
}

/* Index of name, added if new. -ENOMEM. */
static long intern_bot(struct gamelog *log, const char *name)
{
	long found = gamelog_find_bot(log, name);
	if (found >= 0)
		return found;
	char **bots = reallocarray(log->bots, log->nbots + 1, sizeof(*bots));
	if (!bots)
		return -ENOMEM;
	log->bots = bots;
	bots[log->nbots] = strdup(name);
	if (!bots[log->nbots])
		return -ENOMEM;
	return (long)log->nbots++;
}

/* Refuse the record being read with a sentence in log->why; -EBADMSG. */
static int refuse(struct gamelog *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(struct gamelog *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log->why, sizeof(log->why), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/*
 * Every number of a record goes through the strict readers: an integer
 * written as one (7, not 7.0 or 7e0), in range; a finite number in range.
 * 0, 1 when absent or null and flags allow it, or -EBADMSG with log->why.
 */
static int read_int(struct gamelog *log, const cJSON *item, const char *prefix, const char *name,
		    int64_t lo, int64_t hi, unsigned flags, int64_t *out)
{
	struct json_strict_error e;
	int rc = json_strict_int(item, prefix, name, lo, hi, flags, out, &e);

	return rc < 0 ? refuse(log, "%s", e.message) : rc;
}

static int read_double(struct gamelog *log, const cJSON *item, const char *prefix,
		       const char *name, double lo, double hi, double *out)
{
	struct json_strict_error e;

	if (json_strict_double(item, prefix, name, lo, hi, 0, out, &e) < 0)
		return refuse(log, "%s", e.message);
	return 0;
}

static const cJSON *field(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* An optional integer field: def when absent. */
static int optional_int(struct gamelog *log, const cJSON *obj, const char *key, int64_t lo,
			int64_t hi, int64_t def, int32_t *out)
{
	int64_t v = def;
	int rc = read_int(log, field(obj, key), NULL, key, lo, hi, JSON_STRICT_OPTIONAL, &v);

	*out = (int32_t)v;
	return rc < 0 ? rc : 0;
}

/* An optional boolean field: false when absent. */
static int optional_bool(struct gamelog *log, const cJSON *obj, const char *key, bool *out)
{
	const cJSON *v = field(obj, key);

	if (v && !cJSON_IsBool(v))
		return refuse(log, "%s: expected true or false", key);
	*out = cJSON_IsTrue(v);
	return 0;
}

/* An array of exactly n integers in [lo, hi]. */
static int int_array(struct gamelog *log, const cJSON *obj, const char *key, int n, int64_t lo,
		     int64_t hi, int64_t *out)
{
	const cJSON *arr = field(obj, key), *v;
	char where[32];
	int i = 0;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != n)
		return refuse(log, "%s: expected an array of %d integers", key, n);
	cJSON_ArrayForEach(v, arr) {
		snprintf(where, sizeof(where), "%s[%d]", key, i);
		if (read_int(log, v, where, NULL, lo, hi, 0, &out[i++]) < 0)
			return -EBADMSG;
	}
	return 0;
}

static int parse_teams(struct gamelog *log, const cJSON *root, struct gamelog_game *g)
{
	const cJSON *teams = field(root, "teams"), *team, *seat;
	bool seen[GAMELOG_SEATS_MAX] = { false };
	char where[32];
	int t = 0;

	if (!teams || cJSON_IsNull(teams)) {
		for (int s = 0; s < g->players; s++)
			g->team[s] = (uint8_t)s;
		return 0;
	}
	if (!cJSON_IsArray(teams) || cJSON_GetArraySize(teams) > g->players)
		return refuse(log, "teams: expected an array of at most %d teams", g->players);
	cJSON_ArrayForEach(team, teams) {
		int k = 0;

		if (!cJSON_IsArray(team))
			return refuse(log, "teams[%d]: expected an array of seats", t);
		cJSON_ArrayForEach(seat, team) {
			int64_t s;

			snprintf(where, sizeof(where), "teams[%d][%d]", t, k++);
			if (read_int(log, seat, where, NULL, 0, g->players - 1, 0, &s) < 0)
				return -EBADMSG;
			if (seen[s])
				return refuse(log, "%s: seat %d is in two teams", where, (int)s);
			seen[s] = true;
			g->team[s] = (uint8_t)t;
		}
		t++;
	}
	for (int s = 0; s < g->players; s++)
		if (!seen[s])
			return refuse(log, "teams: seat %d is in no team", s);
	return 0;
}

static int parse_time(struct gamelog *log, const cJSON *root, struct gamelog_game *g)
{
	static const char *const keys[] = { "mean_us", "p99_us", "max_us" };
	const cJSON *time = field(root, "time"), *t;
	char where[32];
	int s = 0;

	if (!time || cJSON_IsNull(time))
		return 0;
	if (!cJSON_IsArray(time) || cJSON_GetArraySize(time) != g->players)
		return refuse(log, "time: expected an array of %d objects", g->players);
	cJSON_ArrayForEach(t, time) {
		struct json_strict_error e;
		int64_t moves;
		double v[3], cpu;

		snprintf(where, sizeof(where), "time[%d].", s);
		if (!cJSON_IsObject(t))
			return refuse(log, "time[%d]: expected an object", s);
		if (read_int(log, field(t, "moves"), where, "moves", 0, UINT32_MAX, 0, &moves) < 0)
			return -EBADMSG;
		for (int k = 0; k < 3; k++)
			if (read_double(log, field(t, keys[k]), where, keys[k], 0,
					GAMELOG_TIME_MAX_US, &v[k]) < 0)
				return -EBADMSG;
		cpu = 0;
		if (json_strict_double(field(t, "cpu_mean_us"), where, "cpu_mean_us", 0,
				       GAMELOG_TIME_MAX_US, JSON_STRICT_OPTIONAL, &cpu, &e) < 0)
			return refuse(log, "%s", e.message);
		g->time[s++] = (struct gamelog_seat_time){ (float)moves, (float)v[0], (float)v[1],
							   (float)v[2], (float)cpu };
	}
	g->has_time = true;
	return 0;
}

static int parse_faults(struct gamelog *log, const cJSON *root, struct gamelog_game *g)
{
	const cJSON *faults = field(root, "faults"), *f, *kind;
	char where[32];
	int i = 0;

	if (!faults || cJSON_IsNull(faults))
		return 0;
	if (!cJSON_IsArray(faults))
		return refuse(log, "faults: expected an array");
	cJSON_ArrayForEach(f, faults) {
		int64_t seat;
		int k = GAMELOG_FAULT_OTHER;

		snprintf(where, sizeof(where), "faults[%d].", i++);
		if (!cJSON_IsObject(f))
			return refuse(log, "%.30s: expected an object", where);
		if (read_int(log, field(f, "seat"), where, "seat", 0, g->players - 1, 0, &seat) < 0)
			return -EBADMSG;
		kind = field(f, "kind");
		if (cJSON_IsString(kind))
			for (int n = 0; n < GAMELOG_FAULT_OTHER; n++)
				if (strcmp(kind->valuestring, gamelog_fault_names[n]) == 0)
					k = n;
		g->fault[seat] = (int8_t)k;
	}
	return 0;
}

/* A bot name is printed on terminals and in reports: printable ASCII only. */
static bool printable_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] > 0x7e)
			return false;
	return n >= 1 && n <= GAMELOG_NAME_MAX;
}

/* Fill g from a parsed record; bot names are interned into log. -EBADMSG (log->why), -ENOMEM. */
static int parse_record(struct gamelog *log, const cJSON *root, struct gamelog_game *g)
{
	int64_t v, arr[GAMELOG_SEATS_MAX];
	const cJSON *winners, *w, *bots, *b;
	char where[32];
	int n, s = 0;

	if (!cJSON_IsObject(root))
		return refuse(log, "expected a JSON object");
	if (read_int(log, field(root, "players"), NULL, "players", 2, GAMELOG_SEATS_MAX, 0, &v) < 0)
		return -EBADMSG;
	g->players = (uint8_t)v;
	n = g->players;
	if (optional_int(log, root, "table", 0, INT32_MAX, 0, &g->table) < 0 ||
	    optional_int(log, root, "deal", 0, INT32_MAX, 0, &g->deal) < 0 ||
	    optional_int(log, root, "rotation", 0, INT32_MAX, 0, &g->rotation) < 0 ||
	    optional_int(log, root, "games", 1, INT32_MAX, 1, &g->games) < 0 ||
	    optional_bool(log, root, "partnership", &g->partnership) < 0 ||
	    optional_bool(log, root, "match", &g->match) < 0)
		return -EBADMSG;

	if (int_array(log, root, "placings", n, 1, n, arr) < 0)
		return -EBADMSG;
	for (s = 0; s < n; s++)
		g->placing[s] = (uint8_t)arr[s];
	if (int_array(log, root, "stock_left", n, 0, 162, arr) < 0)
		return -EBADMSG;
	for (s = 0; s < n; s++)
		g->stock_left[s] = (uint8_t)arr[s];
	if (int_array(log, root, "scores", n, 0, INT32_MAX, arr) < 0)
		return -EBADMSG;
	for (s = 0; s < n; s++)
		g->score[s] = (int32_t)arr[s];

	winners = field(root, "winners");
	if (!cJSON_IsArray(winners))
		return refuse(log, "winners: expected an array of seats");
	s = 0;
	cJSON_ArrayForEach(w, winners) {
		snprintf(where, sizeof(where), "winners[%d]", s++);
		if (read_int(log, w, where, NULL, 0, n - 1, 0, &v) < 0)
			return -EBADMSG;
		g->winner[v] = true;
	}
	for (s = 0; s < n; s++)
		g->fault[s] = -1;
	if (parse_teams(log, root, g) < 0 || parse_time(log, root, g) < 0 ||
	    parse_faults(log, root, g) < 0)
		return -EBADMSG;

	bots = field(root, "bots");
	if (!cJSON_IsArray(bots) || cJSON_GetArraySize(bots) != n)
		return refuse(log, "bots: expected an array of %d names", n);
	s = 0;
	cJSON_ArrayForEach(b, bots) {
		if (!cJSON_IsString(b) || !printable_name(b->valuestring))
			return refuse(log, "bots[%d]: expected a name of 1 to %d printable ASCII "
				      "characters", s, GAMELOG_NAME_MAX);
		s++;
	}
	s = 0;
	cJSON_ArrayForEach(b, bots) {
		long idx = intern_bot(log, b->valuestring);
		if (idx < 0)
			return (int)idx;
		g->bot[s++] = (uint32_t)idx;
	}
	return 0;
}

int gamelog_add_line(struct gamelog *log, const char *line, size_t len, unsigned source)
{
	struct gamelog_game g = { .source = source };
	struct json_strict_error e;
	const cJSON *id;
	cJSON *root = NULL;
	int rc = -EBADMSG;

	log->why[0] = '\0';
	/* strict: a key twice, a raw control character or trailing text is refused */
	if (json_strict_parse(line, len, &root, &e) < 0) {
		rc = e.code == JSON_STRICT_ENOMEM ? -ENOMEM :
			refuse(log, "column %lu: %s", e.column, e.message);
		goto out;
	}
	if (!log->sink && log->ngames == log->games_cap) {
		/* Grow by half: a million records should not need twice their size while copying. */
		size_t cap = log->games_cap ? log->games_cap + log->games_cap / 2 : 256;
		struct gamelog_game *games = reallocarray(log->games, cap, sizeof(*games));
		if (!games) {
			rc = -ENOMEM;
			goto out;
		}
		log->games = games;
		log->games_cap = cap;
	}
	rc = parse_record(log, root, &g);
	if (rc < 0)
		goto out;
	id = cJSON_GetObjectItemCaseSensitive(root, "id");
	if (cJSON_IsString(id)) {
		if (!log->ids && (rc = idset_new(&log->ids)) < 0)
			goto out;
		if ((rc = idset_add(log->ids, source, id->valuestring)) != 0) {
			/* a game counts once, whatever else claims its id */
			log->repeated += rc > 0;
			rc = rc > 0 ? 0 : rc;
			goto out;
		}
	}
	if (log->sink) {
		rc = log->sink(log->sink_ctx, log, &g);
		if (rc < 0)
			goto out;
	} else {
		log->games[log->ngames++] = g;
	}
	log->records++;
out:
	cJSON_Delete(root);
	return rc;
}

int gamelog_read(struct gamelog *log, const char *path, char *err, size_t errsz)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;
	unsigned source = log->nsources;
	FILE *f = fopen(path, "r");

	if (!f) {
		rc = -errno;
		snprintf(err, errsz, "cannot open \"%s\": %s", path, strerror(errno));
		return rc;
	}
	errno = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (log->stop && *log->stop) {
			rc = -EINTR;
			snprintf(err, errsz, "reading \"%s\": stopped", path);
			goto out;
		}
		if (line[len - 1] != '\n') {
			/* A record still being written: skip it, a later read will see it whole. */
			log->torn++;
			break;
		}
		if (len == 1)
			continue;
		line[len - 1] = '\0';
		rc = gamelog_add_line(log, line, (size_t)len - 1, source);
		if (rc == -EBADMSG) {
			if (!log->invalid++) {
				log->first_invalid_source = source;
				log->first_invalid_line = lineno;
				memcpy(log->first_invalid, log->why, sizeof(log->first_invalid));
			}
			rc = 0;
		} else if (rc < 0) {
			snprintf(err, errsz, "reading \"%s\": %s", path, strerror(-rc));
			goto out;
		}
	}
	if (ferror(f)) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errsz, "reading \"%s\": %s", path, strerror(-rc));
		goto out;
	}
	log->nsources++;
out:
	free(line);
	fclose(f);
	return rc;
}
