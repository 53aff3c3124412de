/*
 * gamelog.c - reading games.jsonl (results/README.md) into memory or through a sink.
 */
#include "gamelog.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

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

/* The seat number v holds, or -1 if it is not an integer in [0, n). */
static int seat_of(const cJSON *v, int n)
{
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= n ||
	    v->valuedouble != (double)v->valueint)
		return -1;
	return v->valueint;
}

/* Integer field, or -1 if absent or not an integral number in [lo, hi]. */
static int get_int(const cJSON *obj, const char *key, long lo, long hi, long *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!cJSON_IsNumber(v))
		return -1;
	double d = v->valuedouble;
	if (d < (double)lo || d > (double)hi || d != (double)(long)d)
		return -1;
	*out = (long)d;
	return 0;
}

/* An array of exactly n integers in [lo, hi]. */
static int get_int_array(const cJSON *obj, const char *key, int n, long lo, long hi, long *out)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != n)
		return -1;
	int i = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, arr) {
		if (!cJSON_IsNumber(v))
			return -1;
		double d = v->valuedouble;
		if (d < (double)lo || d > (double)hi || d != (double)(long)d)
			return -1;
		out[i++] = (long)d;
	}
	return 0;
}

static int parse_teams(const cJSON *root, struct gamelog_game *g)
{
	const cJSON *teams = cJSON_GetObjectItemCaseSensitive(root, "teams");
	if (!teams || cJSON_IsNull(teams)) {
		for (int s = 0; s < g->players; s++)
			g->team[s] = (unsigned)s;
		return 0;
	}
	if (!cJSON_IsArray(teams))
		return -1;
	bool seen[GAMELOG_SEATS_MAX] = { false };
	uint8_t t = 0;
	const cJSON *team;
	cJSON_ArrayForEach(team, teams) {
		const cJSON *seat;
		if (!cJSON_IsArray(team))
			return -1;
		cJSON_ArrayForEach(seat, team) {
			int s = seat_of(seat, g->players);
			if (s < 0 || seen[s])
				return -1;
			seen[s] = true;
			g->team[s] = t;
		}
		t++;
	}
	for (int s = 0; s < g->players; s++)
		if (!seen[s])
			return -1;
	return 0;
}

static int parse_time(const cJSON *root, struct gamelog_game *g)
{
	const cJSON *time = cJSON_GetObjectItemCaseSensitive(root, "time");
	if (!time || cJSON_IsNull(time))
		return 0;
	if (!cJSON_IsArray(time) || cJSON_GetArraySize(time) != g->players)
		return -1;
	int s = 0;
	const cJSON *t;
	cJSON_ArrayForEach(t, time) {
		static const char *const keys[] = { "moves", "mean_us", "p99_us", "max_us" };
		double vals[4];
		if (!cJSON_IsObject(t))
			return -1;
		for (int k = 0; k < 4; k++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, keys[k]);
			if (!cJSON_IsNumber(v) || v->valuedouble < 0)
				return -1;
			vals[k] = v->valuedouble;
		}
		g->time[s] = (struct gamelog_seat_time){ (float)vals[0], (float)vals[1],
							 (float)vals[2], (float)vals[3] };
		s++;
	}
	g->has_time = true;
	return 0;
}

static int parse_faults(const cJSON *root, struct gamelog_game *g)
{
	const cJSON *faults = cJSON_GetObjectItemCaseSensitive(root, "faults");
	if (!faults || cJSON_IsNull(faults))
		return 0;
	if (!cJSON_IsArray(faults))
		return -1;
	const cJSON *f;
	cJSON_ArrayForEach(f, faults) {
		long seat;
		if (!cJSON_IsObject(f) || get_int(f, "seat", 0, g->players - 1, &seat) < 0)
			return -1;
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(f, "kind");
		int k = GAMELOG_FAULT_OTHER;
		if (cJSON_IsString(kind))
			for (int i = 0; i < GAMELOG_FAULT_OTHER; i++)
				if (strcmp(kind->valuestring, gamelog_fault_names[i]) == 0)
					k = i;
		g->fault[seat] = (int8_t)k;
	}
	return 0;
}

/* Fill g from a parsed record; bot names are interned into log. -EBADMSG, -ENOMEM. */
static int parse_record(struct gamelog *log, const cJSON *root, struct gamelog_game *g)
{
	long v, arr[GAMELOG_SEATS_MAX];

	if (!cJSON_IsObject(root) || get_int(root, "players", 2, GAMELOG_SEATS_MAX, &v) < 0)
		return -EBADMSG;
	g->players = (uint8_t)v;
	int n = g->players;
	g->table = get_int(root, "table", 0, INT32_MAX, &v) == 0 ? (int32_t)v : 0;
	g->deal = get_int(root, "deal", 0, INT32_MAX, &v) == 0 ? (int32_t)v : 0;
	g->rotation = get_int(root, "rotation", 0, INT32_MAX, &v) == 0 ? (int32_t)v : 0;
	g->games = get_int(root, "games", 1, INT32_MAX, &v) == 0 ? (int32_t)v : 1;
	g->partnership = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "partnership"));
	g->match = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "match"));

	if (get_int_array(root, "placings", n, 1, n, arr) < 0)
		return -EBADMSG;
	for (int s = 0; s < n; s++)
		g->placing[s] = (uint8_t)arr[s];
	if (get_int_array(root, "stock_left", n, 0, 162, arr) < 0)
		return -EBADMSG;
	for (int s = 0; s < n; s++)
		g->stock_left[s] = (uint8_t)arr[s];
	if (get_int_array(root, "scores", n, 0, INT32_MAX, arr) < 0)
		return -EBADMSG;
	for (int s = 0; s < n; s++)
		g->score[s] = (int32_t)arr[s];

	const cJSON *winners = cJSON_GetObjectItemCaseSensitive(root, "winners");
	const cJSON *w;
	if (!cJSON_IsArray(winners))
		return -EBADMSG;
	cJSON_ArrayForEach(w, winners) {
		int seat = seat_of(w, n);
		if (seat < 0)
			return -EBADMSG;
		g->winner[seat] = true;
	}
	for (int s = 0; s < n; s++)
		g->fault[s] = -1;
	if (parse_teams(root, g) < 0 || parse_time(root, g) < 0 || parse_faults(root, g) < 0)
		return -EBADMSG;

	const cJSON *bots = cJSON_GetObjectItemCaseSensitive(root, "bots");
	if (!cJSON_IsArray(bots) || cJSON_GetArraySize(bots) != n)
		return -EBADMSG;
	int s = 0;
	const cJSON *b;
	cJSON_ArrayForEach(b, bots)
		if (!cJSON_IsString(b) || b->valuestring[0] == '\0')
			return -EBADMSG;
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
	/* len + 1 takes in the terminating NUL, so trailing garbage is refused. */
	cJSON *root = cJSON_ParseWithLengthOpts(line, len + 1, NULL, 1);
	int rc = -EBADMSG;

	if (!root)
		goto out;
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
	size_t cap = 0;
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
			log->invalid++;
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
