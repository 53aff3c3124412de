/*
 * challenges.c - the challenges asked through host's API (contract in
 * challenges.h).
 */
#include "challenges.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "protocol_json.h"
#include "records.h"

#define DAY_SECONDS (24 * 3600)

struct reading {
	struct challenges *cs;
	const char *path;
	char *err;
	size_t err_size;
};

static int parse_time(const char *s, time_t *out)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;

	if (!end || *end)
		return -1;
	*out = timegm(&tm);
	return 0;
}

const char *challenge_state_name(enum challenge_state state)
{
	switch (state) {
	case CHALLENGE_QUEUED:
		return "queued";
	case CHALLENGE_PLAYED:
		return "played";
	case CHALLENGE_FAILED:
		return "failed";
	}
	return "?";
}

static struct challenge *find(const struct challenges *cs, uint64_t id)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].id == id)
			return &cs->c[i];
	return NULL;
}

static bool is_count(const cJSON *n)
{
	return cJSON_IsNumber(n) && n->valuedouble >= 0 && n->valuedouble <= 1e12 &&
	       n->valuedouble == (double)(long)n->valuedouble;
}

/* A played or failed event into the queued challenge it names: 0 or -EBADMSG. */
static int apply_end(struct challenges *cs, const cJSON *o, const char *ev)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
	const cJSON *games = cJSON_GetObjectItemCaseSensitive(o, "games");
	const cJSON *won = cJSON_GetObjectItemCaseSensitive(o, "won");
	bool played = !strcmp(ev, "played");
	struct challenge *c;
	time_t t;

	if (!cJSON_IsNumber(id) || !(c = find(cs, (uint64_t)id->valuedouble)) ||
	    c->state != CHALLENGE_QUEUED || parse_time(json_string_at(o, "time"), &t) < 0)
		return -EBADMSG;
	if (played) {
		if (cJSON_GetArraySize(o) != 5 || !is_count(games) || !cJSON_IsArray(won) ||
		    cJSON_GetArraySize(won) != 2 || !is_count(cJSON_GetArrayItem(won, 0)) ||
		    !is_count(cJSON_GetArrayItem(won, 1)))
			return -EBADMSG;
		c->games = (long)games->valuedouble;
		c->won[0] = (long)cJSON_GetArrayItem(won, 0)->valuedouble;
		c->won[1] = (long)cJSON_GetArrayItem(won, 1)->valuedouble;
		c->state = CHALLENGE_PLAYED;
		return 0;
	}
	if (cJSON_GetArraySize(o) != 4 || !json_string_at(o, "why"))
		return -EBADMSG;
	if (!(c->why = strdup(json_string_at(o, "why"))))
		return -ENOMEM;
	c->state = CHALLENGE_FAILED;
	return 0;
}

/* One event into cs: 0, -EBADMSG, -ENOMEM. */
static int apply(struct challenges *cs, const cJSON *o)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
	const cJSON *deals = cJSON_GetObjectItemCaseSensitive(o, "deals");
	const char *ev = json_string_at(o, "event");
	struct challenge c = { 0 }, *grown;

	if (cJSON_IsObject(o) && ev && (!strcmp(ev, "played") || !strcmp(ev, "failed")))
		return apply_end(cs, o, ev);
	if (!cJSON_IsObject(o) || cJSON_GetArraySize(o) != 7 || !ev || strcmp(ev, "asked") ||
	    !cJSON_IsNumber(id) || id->valuedouble < 1 ||
	    id->valuedouble != (double)(uint64_t)id->valuedouble ||
	    (cs->n && (uint64_t)id->valuedouble <= cs->c[cs->n - 1].id) ||
	    !cJSON_IsNumber(deals) || deals->valueint < 1 || deals->valueint > CHALLENGES_DEALS_MAX ||
	    !json_string_at(o, "author") || !json_string_at(o, "bot") || !json_string_at(o, "opponent") ||
	    parse_time(json_string_at(o, "time"), &c.asked) < 0)
		return -EBADMSG;
	if (!(grown = reallocarray(cs->c, cs->n + 1, sizeof(*cs->c))))
		return -ENOMEM;
	cs->c = grown;
	c.id = (uint64_t)id->valuedouble;
	c.deals = deals->valueint;
	c.author = strdup(json_string_at(o, "author"));
	c.bot = strdup(json_string_at(o, "bot"));
	c.opponent = strdup(json_string_at(o, "opponent"));
	cs->c[cs->n++] = c;
	return c.author && c.bot && c.opponent ? 0 : -ENOMEM;
}

static int on_line(void *ctx, const struct records_line *line)
{
	struct reading *rd = ctx;
	cJSON *o = cJSON_ParseWithLengthOpts(line->text, line->len, NULL, 0);
	int ret = apply(rd->cs, o);

	cJSON_Delete(o);
	if (ret == -EBADMSG)
		snprintf(rd->err, rd->err_size, "\"%s\", line %zu: expected {\"event\": \"asked\", "
			 "\"id\", \"author\", \"bot\", \"opponent\", \"deals\", \"time\"} with an id "
			 "above the line before, or a \"played\" (\"id\", \"games\", \"won\", "
			 "\"time\") or \"failed\" (\"id\", \"why\", \"time\") of a queued challenge; "
			 "the file is written only by host: put the line back as it was, or delete "
			 "it, and start host again", rd->path, line->lineno);
	return ret;
}

int challenges_open(struct challenges *cs, const char *dir, char *err, size_t err_size)
{
	char path[PATH_MAX];
	struct reading rd = { cs, path, err, err_size };
	int ret;

	memset(cs, 0, sizeof(*cs));
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, CHALLENGES_FILE) >= sizeof(path))
		return -ENAMETOOLONG;
	if (!(cs->dir = strdup(dir)))
		return -ENOMEM;
	ret = records_read_lines(path, on_line, &rd, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0) {
		if (ret != -EBADMSG)
			snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		challenges_release(cs);
	}
	return ret;
}

void challenges_release(struct challenges *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->c[i].author);
		free(cs->c[i].bot);
		free(cs->c[i].opponent);
		free(cs->c[i].why);
	}
	free(cs->c);
	free(cs->dir);
	memset(cs, 0, sizeof(*cs));
}

static int same_pair(const struct challenge *c, const char *a, const char *b)
{
	return (!strcmp(c->bot, a) && !strcmp(c->opponent, b)) ||
		(!strcmp(c->bot, b) && !strcmp(c->opponent, a));
}

int challenges_ask(struct challenges *cs, const char *author, const char *bot,
		   const char *opponent, int deals, int per_pair_day, time_t now, uint64_t *id,
		   long *retry_after, char *err, size_t err_size)
{
	char path[PATH_MAX], stamp[32], *text = NULL;
	time_t oldest = now;
	cJSON *ev = NULL;
	struct tm tm;
	int counted = 0, ret = -ENOMEM;

	*retry_after = 0;
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].asked > now - DAY_SECONDS && same_pair(&cs->c[i], bot, opponent)) {
			if (!counted++ || cs->c[i].asked < oldest)
				oldest = cs->c[i].asked;
		}
	if (per_pair_day > 0 && counted >= per_pair_day) {
		*retry_after = (long)(oldest + DAY_SECONDS - now);
		if (*retry_after < 1)
			*retry_after = 1;
		snprintf(err, err_size, "%d challenges of %s and %s in the last 24 hours, the most "
			 "there may be (challenges_per_pair_day in host.jsonc): the next in %ld s",
			 counted, bot, opponent, *retry_after);
		return -EAGAIN;
	}
	*id = cs->n ? cs->c[cs->n - 1].id + 1 : 1;
	snprintf(path, sizeof(path), "%s/%s", cs->dir, CHALLENGES_FILE);
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    !(ev = cJSON_CreateObject()) || !cJSON_AddStringToObject(ev, "event", "asked") ||
	    !cJSON_AddNumberToObject(ev, "id", (double)*id) ||
	    !cJSON_AddStringToObject(ev, "author", author) ||
	    !cJSON_AddStringToObject(ev, "bot", bot) ||
	    !cJSON_AddStringToObject(ev, "opponent", opponent) ||
	    !cJSON_AddNumberToObject(ev, "deals", deals) ||
	    !cJSON_AddStringToObject(ev, "time", stamp) || !(text = cJSON_PrintUnformatted(ev))) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if ((ret = journal_append_once(path, text, strlen(text))) < 0) {
		snprintf(err, err_size, "\"%s\": %s%s", path, strerror(-ret), ret == -ENOSPC ?
			 ": nothing was asked; try again later" : "");
		goto out;
	}
	if ((ret = apply(cs, ev)) < 0)
		snprintf(err, err_size, "out of memory");
out:
	cJSON_free(text);
	cJSON_Delete(ev);
	return ret;
}

const struct challenge *challenges_find(const struct challenges *cs, uint64_t id)
{
	return find(cs, id);
}

const struct challenge *challenges_next(const struct challenges *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].state == CHALLENGE_QUEUED)
			return &cs->c[i];
	return NULL;
}

int challenges_finish(struct challenges *cs, uint64_t id, long games, const long won[2],
		      const char *why, char *err, size_t err_size)
{
	const struct challenge *c = find(cs, id);
	char path[PATH_MAX], stamp[32], *text = NULL;
	cJSON *ev = NULL, *pair;
	time_t now = time(NULL);
	struct tm tm;
	int ret = -ENOMEM;

	if (!c || c->state != CHALLENGE_QUEUED) {
		snprintf(err, err_size, "no queued challenge %llu", (unsigned long long)id);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s", cs->dir, CHALLENGES_FILE);
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    !(ev = cJSON_CreateObject()) ||
	    !cJSON_AddStringToObject(ev, "event", why ? "failed" : "played") ||
	    !cJSON_AddNumberToObject(ev, "id", (double)id))
		goto oom;
	if (why ? !cJSON_AddStringToObject(ev, "why", why)
		: (!cJSON_AddNumberToObject(ev, "games", (double)games) ||
		   !(pair = cJSON_AddArrayToObject(ev, "won")) ||
		   !cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)won[0])) ||
		   !cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)won[1]))))
		goto oom;
	if (!cJSON_AddStringToObject(ev, "time", stamp) || !(text = cJSON_PrintUnformatted(ev)))
		goto oom;
	if ((ret = journal_append_once(path, text, strlen(text))) < 0)
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
	else if ((ret = apply(cs, ev)) < 0)
		snprintf(err, err_size, "out of memory");
	goto out;
oom:
	snprintf(err, err_size, "out of memory");
out:
	cJSON_free(text);
	cJSON_Delete(ev);
	return ret;
}
