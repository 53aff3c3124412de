/*
 * desk_read.c - workers.jsonl read back (contract in desk.h): by desk_open,
 * for the workers' suspensions and counts; by desk_read_state, whole, into a
 * book of its own whose document desk_state makes, as the host would.
 */
#include "desk_book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"

struct reading {
	struct desk *d;
	const char *path;
	bool history;
	double mono, wall;  /* desk_now() and time(NULL) at the reading */
	char *err;
	size_t err_size;
};

static const char *string_of(const cJSON *e, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, key));
}

static double number_of(const cJSON *e, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ? v->valuedouble : 0;
}

/* A time of the file (seconds since the epoch) in desk_now()'s time. */
static double mono_of(const struct reading *r, double at)
{
	return r->mono - (r->wall - at);
}

/* A lease as the host holds it: its games' own are not known here, so none is re-handed. */
static int lease_read(struct reading *r, struct desk_worker *w, const char *id, int games,
		      bool trusted, double at)
{
	struct desk *d = r->d;
	struct desk_lease_rec *l = calloc(1, sizeof(*l)), **ls;

	if (!l || !(l->worker = strdup(w->name)) ||
	    !(l->games = calloc((size_t)games + 1, sizeof(*l->games))) ||
	    !(ls = reallocarray(d->leases, d->nleases + 1, sizeof(*ls)))) {
		if (l)
			free(l->worker), free(l->games);
		free(l);
		return -ENOMEM;
	}
	for (int i = 0; i < games; i++)
		l->games[i].state = DESK_GAME_TAKEN;
	d->leases = ls;
	d->leases[d->nleases++] = l;
	snprintf(l->id, sizeof(l->id), "%s", id);
	l->trusted = w->trusted = trusted;
	l->n = games;
	l->began = l->heard = mono_of(r, at);
	w->leases++;
	return 0;
}

/* A lease ended at at: its time and games to its worker's speed, and it forgotten. */
static void lease_ended(struct reading *r, struct desk_worker *w, const char *id, double at)
{
	struct desk *d = r->d;

	for (size_t i = 0; i < d->nleases; i++) {
		struct desk_lease_rec *l = d->leases[i];

		if (strcmp(l->id, id) != 0)
			continue;
		w->held += mono_of(r, at) - l->began;
		w->timed_games += (uint64_t)l->taken;
		w->leases--;
		free(l->games);
		free(l->worker);
		free(l);
		d->leases[i] = d->leases[--d->nleases];
		return;
	}
}

static int parked_read(struct desk *d, const cJSON *e)
{
	const cJSON *reasons = cJSON_GetObjectItemCaseSensitive(e, "reasons"), *why;
	struct desk_deal *p;

	if (!(p = reallocarray(d->deals, d->ndeals + 1, sizeof(*p))))
		return -ENOMEM;
	d->deals = p;
	p = &d->deals[d->ndeals++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", string_of(e, "deal"));
	p->games = (int)number_of(e, "games");
	p->parked = true;
	p->failures = DESK_FAILURES_PARK;
	if (!(p->reasons = calloc((size_t)cJSON_GetArraySize(reasons) + 1, sizeof(*p->reasons))))
		return -ENOMEM;
	cJSON_ArrayForEach(why, reasons)
		if (cJSON_IsString(why) && !(p->reasons[p->nreasons++] = strdup(why->valuestring)))
			return -ENOMEM;
	return 0;
}

/* What only desk_read_state needs: leases, their times and trust, the parked deals. */
static int history_read(struct reading *r, const cJSON *e, const char *name,
			struct desk_worker *w, const char *lease)
{
	double at = number_of(e, "at");
	struct desk_lease_rec *l = lease ? desk_lease_of(r->d, lease) : NULL;

	if (strcmp(name, "parked") == 0)
		return parked_read(r->d, e);
	if (!w)
		return 0;
	/* the worker's own requests; an expiry or a suspension is not its word */
	if (strcmp(name, "expired") != 0 && strcmp(name, "suspended") != 0 && at > w->last_heard)
		w->last_heard = (time_t)at;
	if (strcmp(name, "lease") == 0)
		return lease_read(r, w, lease, (int)number_of(e, "games"),
				  cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "trusted")), at);
	if (!l)
		return 0;
	if (strcmp(name, "taken") == 0) {
		l->taken += (int)number_of(e, "games");
		l->heard = mono_of(r, at);
	} else if (strcmp(name, "done") == 0 || strcmp(name, "expired") == 0 ||
		   strcmp(name, "released") == 0) {
		lease_ended(r, w, lease, at);
	}
	return 0;
}

/* The fields an event must have: "worker", "lease", "deal", a re-play's "result". */
static const struct { const char *event, *fields; } shapes[] = {
	{ "lease", "wl" }, { "taken", "wl" }, { "done", "wl" }, { "expired", "wl" },
	{ "released", "wl" }, { "conflict", "wl" }, { "suspended", "w" }, { "parked", "d" },
	{ "replayed", "wlr" },
};

/* A "replayed" event's result: 0 taken, 1 mismatch, 2 failed; -1 none of them. */
static int replay_result(const cJSON *e)
{
	static const char *const results[] = { "taken", "mismatch", "failed" };
	const char *r = string_of(e, "result");

	for (int i = 0; r && i < 3; i++)
		if (strcmp(r, results[i]) == 0)
			return i;
	return -1;
}

/* Is e an event with the fields its name asks for? Names not known are left alone. */
static bool event_whole(const cJSON *e, const char *name)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		if (strcmp(shapes[i].event, name) != 0)
			continue;
		return (!strchr(shapes[i].fields, 'w') || string_of(e, "worker")) &&
		       (!strchr(shapes[i].fields, 'l') || string_of(e, "lease")) &&
		       (!strchr(shapes[i].fields, 'd') || string_of(e, "deal")) &&
		       (!strchr(shapes[i].fields, 'r') || replay_result(e) >= 0);
	}
	return true;
}

static int read_event(void *ctx, const struct records_line *line)
{
	struct reading *r = ctx;
	struct desk *d = r->d;
	cJSON *e = cJSON_ParseWithLengthOpts(line->text, line->len, NULL, 0);
	const char *name = string_of(e, "event"), *worker = string_of(e, "worker");
	const char *lease = string_of(e, "lease");
	struct desk_worker *w = NULL;
	int ret = -ENOMEM;

	if (!cJSON_IsObject(e) || !name || !event_whole(e, name)) {
		snprintf(r->err, r->err_size, "\"%s\" line %zu: not an event of the lease desk "
			 "(the file is damaged: remove that line, or restore the file)", r->path,
			 line->lineno);
		ret = -EBADMSG;
		goto out;
	}
	if (worker && !(w = desk_worker_of(d, worker, true)))
		goto out;
	ret = 0;
	if (lease && lease[0] == 'L' && strtoull(lease + 1, NULL, 10) >= d->next_lease)
		d->next_lease = strtoull(lease + 1, NULL, 10) + 1;
	if (w && strcmp(name, "taken") == 0)
		w->games += (uint64_t)number_of(e, "games");
	if (w && strcmp(name, "replayed") == 0) {
		int result = replay_result(e);

		w->replayed += result != 2;
		w->mismatches += result == 1;
		w->replay_failures += result == 2;
	}
	if (w && strcmp(name, "suspended") == 0) {
		const char *why = string_of(e, "why");

		free(w->why);
		w->suspended = true;
		if (!(w->why = strdup(why ? why : "suspended")))
			ret = -ENOMEM;
	}
	if (ret == 0 && r->history)
		ret = history_read(r, e, name, w, lease);
out:
	if (ret == -ENOMEM)
		snprintf(r->err, r->err_size, "out of memory");
	cJSON_Delete(e);
	return ret;
}

int desk_read_events(struct desk *d, bool history, char *err, size_t err_size)
{
	struct reading r = { d, d->path, history, desk_now(), (double)time(NULL), err, err_size };
	int ret;

	err[0] = '\0';
	ret = records_read_lines(d->path, read_event, &r, NULL, NULL);
	if (ret < 0 && !err[0])
		snprintf(err, err_size, "\"%s\": %s", d->path, strerror(-ret));
	return ret;
}

int desk_read_state(const char *dir, unsigned expire_seconds, cJSON **out, char *err,
		    size_t err_size)
{
	struct desk_settings set = { .expire_seconds = expire_seconds };
	struct desk *d;
	int ret;

	*out = NULL;
	if ((ret = desk_book_new(dir, &set, &d, err, err_size)) < 0)
		return ret;
	if ((ret = desk_read_events(d, true, err, err_size)) == 0 && !(*out = desk_state(d))) {
		snprintf(err, err_size, "out of memory");
		ret = -ENOMEM;
	}
	desk_close(d);
	return ret;
}
