/*
 * submissions.c - a hosted competition's submissions (contract in submissions.h).
 */
#include "submissions.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "journal.h"
#include "json_strict.h"
#include "names.h"
#include "protocol_json.h"
#include "records.h"
#include "tree.h"

#define DAY_SECONDS 86400

static const char *const state_names[] = {
	[SUBMISSION_RECEIVED] = "received", [SUBMISSION_UNPACKED] = "unpacked",
	[SUBMISSION_BUILDING] = "building", [SUBMISSION_CHECKING] = "checking",
	[SUBMISSION_ENTERED] = "entered",   [SUBMISSION_FAILED] = "failed",
};

const char *submission_state_name(enum submission_state state)
{
	return state_names[state];
}

int submission_state_parse(const char *name, enum submission_state *out)
{
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++)
		if (strcmp(name, state_names[i]) == 0) {
			*out = (enum submission_state)i;
			return 0;
		}
	return -EINVAL;
}

static bool in_flight(enum submission_state state)
{
	return state == SUBMISSION_UNPACKED || state == SUBMISSION_BUILDING ||
	       state == SUBMISSION_CHECKING;
}

static bool settled(enum submission_state state)
{
	return state == SUBMISSION_ENTERED || state == SUBMISSION_FAILED;
}

static void submission_release(struct submission *s)
{
	free(s->author);
	free(s->bot);
	free(s->why);
	free(s->entry);
}

void submissions_release(struct submissions *ss)
{
	for (size_t i = 0; i < ss->n; i++)
		submission_release(&ss->s[i]);
	free(ss->s);
	free(ss->dir);
	memset(ss, 0, sizeof(*ss));
}

struct submission *submissions_find(const struct submissions *ss, uint64_t id)
{
	/* ids count from 1 without gaps in a file this module wrote */
	if (id >= 1 && id <= ss->n && ss->s[id - 1].id == id)
		return &ss->s[id - 1];
	for (size_t i = 0; i < ss->n; i++)
		if (ss->s[i].id == id)
			return &ss->s[i];
	return NULL;
}

/* The time at key as seconds, or -1 when it is not YYYY-MM-DDTHH:MM:SSZ. */
static time_t time_at(const cJSON *o, const char *key)
{
	const char *s = json_string_at(o, key), *end;
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!s || !(end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm)) || *end)
		return -1;
	return timegm(&tm);
}

/* NULL when ev has exactly the keys of keys (NULL-terminated) and no other; else why. */
static const char *keys_fault(const cJSON *ev, const char *const *keys)
{
	size_t want = 0, have = 0;

	for (; keys[want]; want++)
		if (!cJSON_GetObjectItemCaseSensitive(ev, keys[want]))
			return "a key of the event is missing";
	for (const cJSON *k = ev->child; k; k = k->next)
		have++;
	return have == want ? NULL : "a key that is not part of the event";
}

static bool is_hash(const char *s)
{
	size_t n = s ? strspn(s, "0123456789abcdef") : 0;

	return n == 64 && s[n] == '\0';
}

static const char *apply_received(struct submissions *ss, const cJSON *ev, uint64_t id,
				  time_t when, int *nomem)
{
	static const char *const keys[] = { "event", "id", "author", "bot", "sha256", "bytes",
					    "time", NULL };
	const char *author = json_string_at(ev, "author"), *bot = json_string_at(ev, "bot"), *why;
	struct submission *grown, *s;
	int64_t bytes;

	if ((why = keys_fault(ev, keys)))
		return why;
	if (ss->n && id <= ss->s[ss->n - 1].id)
		return "an id that is not above the ids before it";
	if (!author || !names_valid(author) || !bot || !names_valid(bot))
		return "an author or bot that is not a name (" NAMES_RULE ")";
	if (!is_hash(json_string_at(ev, "sha256")))
		return "a sha256 that is not 64 lower-case hex digits";
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(ev, "bytes"), NULL, "bytes", 0,
			    JSON_STRICT_INT_MAX, 0, &bytes, NULL) < 0)
		return "bytes that are not a count";
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? 2 * ss->cap : 16;

		if (!(grown = reallocarray(ss->s, cap, sizeof(*grown)))) {
			*nomem = 1;
			return NULL;
		}
		ss->s = grown;
		ss->cap = cap;
	}
	s = &ss->s[ss->n];
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->author = strdup(author);
	s->bot = strdup(bot);
	memcpy(s->sha256, json_string_at(ev, "sha256"), sizeof(s->sha256));
	s->bytes = (uint64_t)bytes;
	s->state = SUBMISSION_RECEIVED;
	s->received = s->changed = when;
	ss->n++;
	if (!s->author || !s->bot)
		*nomem = 1;
	return NULL;
}

static const char *apply_state(struct submission *s, const cJSON *ev, time_t when, int *nomem)
{
	static const char *const plain[] = { "event", "id", "state", "time", NULL };
	static const char *const entered[] = { "event", "id", "state", "entry", "time", NULL };
	static const char *const failed[] = { "event", "id", "state", "stage", "why", "time",
					      NULL };
	enum submission_state state, stage = SUBMISSION_RECEIVED;
	const char *name = json_string_at(ev, "state"), *why;

	if (!name || submission_state_parse(name, &state) < 0)
		return "a state that is not one of received, unpacked, building, checking, "
		       "entered, failed";
	if ((why = keys_fault(ev, state == SUBMISSION_ENTERED ? entered :
			      state == SUBMISSION_FAILED ? failed : plain)))
		return why;
	if (settled(s->state))
		return "a state after the submission was entered or failed";
	if (state == SUBMISSION_ENTERED && !json_string_at(ev, "entry"))
		return "an entry that is not a string";
	if (state == SUBMISSION_FAILED &&
	    (!json_string_at(ev, "why") || !json_string_at(ev, "stage") ||
	     submission_state_parse(json_string_at(ev, "stage"), &stage) < 0 || settled(stage) ||
	     stage == SUBMISSION_RECEIVED))
		return "a failure without a stage (unpacked, building or checking) and a why";
	s->state = state;
	s->failed_at = stage;
	s->changed = when;
	if (state == SUBMISSION_ENTERED && !(s->entry = strdup(json_string_at(ev, "entry"))))
		*nomem = 1;
	if (state == SUBMISSION_FAILED && !s->disabled) {
		free(s->why);
		if (!(s->why = strdup(json_string_at(ev, "why"))))
			*nomem = 1;
	}
	return NULL;
}

static const char *apply_disable(struct submission *s, const cJSON *ev, time_t when, int *nomem)
{
	static const char *const keys[] = { "event", "id", "why", "time", NULL };
	const char *why = keys_fault(ev, keys);

	if (why)
		return why;
	if (!json_string_at(ev, "why"))
		return "a why that is not a string";
	if (s->disabled)
		return "a second disable of one submission";
	s->disabled = true;
	s->changed = when;
	free(s->why);
	if (!(s->why = strdup(json_string_at(ev, "why"))))
		*nomem = 1;
	return NULL;
}

/* Apply one line to ss; NULL, or why it is not an event in its place. */
static const char *apply_line(struct submissions *ss, const char *text, size_t len, int *nomem)
{
	const char *kind, *why = "not a JSON object with an \"event\", an \"id\" and a \"time\"";
	struct submission *s;
	cJSON *ev = NULL;
	int64_t id;
	time_t when;

	if (json_strict_parse(text, len, &ev, NULL) < 0 || !cJSON_IsObject(ev) ||
	    !(kind = json_string_at(ev, "event")) || (when = time_at(ev, "time")) < 0 ||
	    json_strict_int(cJSON_GetObjectItemCaseSensitive(ev, "id"), NULL, "id", 1,
			    JSON_STRICT_INT_MAX, 0, &id, NULL) < 0)
		goto out;
	if (strcmp(kind, "received") == 0) {
		why = apply_received(ss, ev, (uint64_t)id, when, nomem);
		goto out;
	}
	why = "an event other than \"received\", \"state\" and \"disable\"";
	if (strcmp(kind, "state") && strcmp(kind, "disable"))
		goto out;
	why = "an event of an id that was not received before it";
	if (!(s = submissions_find(ss, (uint64_t)id)))
		goto out;
	why = kind[0] == 's' ? apply_state(s, ev, when, nomem) : apply_disable(s, ev, when, nomem);
out:
	cJSON_Delete(ev);
	return why;
}

struct reading {
	struct submissions *ss;
	const char *why;
	size_t lineno;
};

static int on_line(void *ctx, const struct records_line *line)
{
	struct reading *rd = ctx;
	int nomem = 0;

	if (line->offset < rd->ss->read_to)
		return 0;
	rd->lineno = line->lineno;
	rd->why = apply_line(rd->ss, line->text, line->len, &nomem);
	if (nomem)
		return -ENOMEM;
	if (rd->why)
		return -EBADMSG;
	rd->ss->read_to = line->offset + line->len + 1;
	return 0;
}

int submissions_refresh(struct submissions *ss, char *err, size_t err_size)
{
	struct reading rd = { ss, NULL, 0 };
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", ss->dir, SUBMISSIONS_FILE);
	ret = records_read_lines(path, on_line, &rd, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret == -EBADMSG)
		snprintf(err, err_size, "\"%s\", line %zu: %s; the file is written only by the "
			 "host: put the line back as it was, or delete it and every line after it, "
			 "and start the host again", path, rd.lineno, rd.why);
	else if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	else if (ret < 0)
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
	return ret;
}

int submissions_open(struct submissions *ss, const char *dir, char *err, size_t err_size)
{
	struct stat st;
	int ret;

	memset(ss, 0, sizeof(*ss));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "\"%s\" is not a directory: name the competition's "
			 "directory", dir);
		return -ENOENT;
	}
	if (!(ss->dir = strdup(dir))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	if ((ret = submissions_refresh(ss, err, err_size)) < 0)
		submissions_release(ss);
	return ret;
}

int submissions_path(const struct submissions *ss, uint64_t id, const char *name, char *out,
		     size_t size)
{
	int n = name ? snprintf(out, size, "%s/%s/%" PRIu64 "/%s", ss->dir, SUBMISSIONS_DIR, id,
				name) :
		       snprintf(out, size, "%s/%s/%" PRIu64, ss->dir, SUBMISSIONS_DIR, id);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* Append ev (consumed; NULL: out of memory) with the time when, durably, and read it back
 * into ss. */
static int append_event(struct submissions *ss, cJSON *ev, time_t when, char *err,
			size_t err_size)
{
	char path[PATH_MAX], stamp[32], *text = NULL;
	struct tm tm;
	int ret;

	if ((ret = submissions_refresh(ss, err, err_size)) < 0)
		goto out;
	ret = -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", ss->dir, SUBMISSIONS_FILE);
	if (!ev || !gmtime_r(&when, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    !cJSON_AddStringToObject(ev, "time", stamp) || !(text = cJSON_PrintUnformatted(ev))) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if ((ret = journal_append_once(path, text, strlen(text))) < 0) {
		snprintf(err, err_size, "\"%s\": %s%s", path, strerror(-ret), ret == -ENOSPC ?
			 ": free space on the disk, then try again" : "");
		goto out;
	}
	/* the line is on disk: read it back as any reader will */
	ret = submissions_refresh(ss, err, err_size);
out:
	cJSON_free(text);
	cJSON_Delete(ev);
	return ret;
}

/* A new event {"event": kind, "id": id}, or NULL. */
static cJSON *event_new(const char *kind, uint64_t id)
{
	cJSON *ev = cJSON_CreateObject();

	if (ev && (!cJSON_AddStringToObject(ev, "event", kind) ||
		   !cJSON_AddNumberToObject(ev, "id", (double)id))) {
		cJSON_Delete(ev);
		ev = NULL;
	}
	return ev;
}

int submissions_set_state(struct submissions *ss, uint64_t id, enum submission_state state,
			  const char *entry, const char *why, char *err, size_t err_size)
{
	struct submission *s = submissions_find(ss, id);
	enum submission_state stage;
	cJSON *ev;

	if (!s || settled(s->state) || (state == SUBMISSION_ENTERED && !entry) ||
	    (state == SUBMISSION_FAILED && (!why || settled(s->state)))) {
		snprintf(err, err_size, "submission %" PRIu64 ": no such submission in that state, "
			 "or a state without its entry or why", id);
		return -EINVAL;
	}
	/* a failure while unpacking is one of the unpacked stage: the first stage of work */
	stage = s->state == SUBMISSION_RECEIVED ? SUBMISSION_UNPACKED : s->state;
	ev = event_new("state", id);
	if (ev && (!cJSON_AddStringToObject(ev, "state", state_names[state]) ||
		   (state == SUBMISSION_ENTERED && !cJSON_AddStringToObject(ev, "entry", entry)) ||
		   (state == SUBMISSION_FAILED &&
		    (!cJSON_AddStringToObject(ev, "stage", state_names[stage]) ||
		     !cJSON_AddStringToObject(ev, "why", why))))) {
		cJSON_Delete(ev);
		ev = NULL;
	}
	return append_event(ss, ev, time(NULL), err, err_size);
}

int submissions_disable(struct submissions *ss, uint64_t id, const char *why, char *err,
			size_t err_size)
{
	struct submission *s = submissions_find(ss, id);
	cJSON *ev;

	if (!s) {
		snprintf(err, err_size, "no submission %" PRIu64 " in \"%s\"", id, ss->dir);
		return -ENOENT;
	}
	if (s->disabled) {
		snprintf(err, err_size, "submission %" PRIu64 " is disabled already", id);
		return -EALREADY;
	}
	ev = event_new("disable", id);
	if (ev && !cJSON_AddStringToObject(ev, "why", why)) {
		cJSON_Delete(ev);
		ev = NULL;
	}
	return append_event(ss, ev, time(NULL), err, err_size);
}

int submissions_restart(struct submissions *ss, char *err, size_t err_size)
{
	int ret, count = 0;

	if ((ret = submissions_refresh(ss, err, err_size)) < 0)
		return ret;
	for (size_t i = 0; i < ss->n; i++) {
		ss->s[i].taken = false;
		if (!in_flight(ss->s[i].state))
			continue;
		if ((ret = submissions_set_state(ss, ss->s[i].id, SUBMISSION_RECEIVED, NULL, NULL,
						 err, err_size)) < 0)
			return ret;
		count++;
	}
	return count;
}

/* The author's submission that is taken or in flight, or NULL. */
static const struct submission *busy_of(const struct submissions *ss, const char *author)
{
	for (size_t i = 0; i < ss->n; i++)
		if ((ss->s[i].taken || in_flight(ss->s[i].state)) &&
		    strcmp(ss->s[i].author, author) == 0)
			return &ss->s[i];
	return NULL;
}

static bool waiting(const struct submission *s)
{
	return s->state == SUBMISSION_RECEIVED && !s->disabled && !s->taken;
}

struct submission *submissions_next(const struct submissions *ss)
{
	for (size_t i = 0; i < ss->n; i++)
		if (waiting(&ss->s[i]) && !busy_of(ss, ss->s[i].author))
			return &ss->s[i];
	return NULL;
}

int submissions_queue(const struct submissions *ss, uint64_t id, size_t *position, char *why,
		      size_t why_size)
{
	const struct submission *s = submissions_find(ss, id), *busy, *first = NULL;
	size_t ahead = 0;

	*position = 0;
	why[0] = '\0';
	if (!s)
		return -ENOENT;
	if (!waiting(s))
		return 0;
	for (size_t i = 0; i < ss->n && ss->s[i].id < id; i++)
		if (waiting(&ss->s[i])) {
			ahead++;
			if (!first && strcmp(ss->s[i].author, s->author) == 0)
				first = &ss->s[i];
		}
	*position = ahead + 1;
	if ((busy = busy_of(ss, s->author)))
		snprintf(why, why_size, "%s's submission %" PRIu64 " is %s: one build at a time "
			 "per author", s->author, busy->id, busy->taken &&
			 busy->state == SUBMISSION_RECEIVED ? "starting" : state_names[busy->state]);
	else if (first)
		snprintf(why, why_size, "%s's submission %" PRIu64 " goes first: one build at a "
			 "time per author", s->author, first->id);
	else if (ahead)
		snprintf(why, why_size, "behind %zu submission%s", ahead, ahead == 1 ? "" : "s");
	else
		snprintf(why, why_size, "next, once a build slot is free (builds in host.jsonc)");
	return 0;
}

/* 0 when author may submit bot now; else the refusal in err. */
static int may_submit(const struct submissions *ss, const char *author, const char *bot,
		      int per_day, time_t now, long *retry_after, char *err, size_t err_size)
{
	time_t oldest = 0;
	int counted = 0;

	if (!names_valid(bot)) {
		snprintf(err, err_size, "\"%.80s\": a bot's name must be " NAMES_RULE, bot);
		return -EINVAL;
	}
	for (size_t i = 0; i < ss->n; i++) {
		const struct submission *s = &ss->s[i];

		if (strcmp(s->bot, bot) == 0 && strcmp(s->author, author)) {
			snprintf(err, err_size, "the bot name \"%s\" belongs to another author, "
				 "who submitted it first: choose another name", bot);
			return -EPERM;
		}
		if (strcmp(s->author, author) || s->state == SUBMISSION_FAILED ||
		    s->received <= now - DAY_SECONDS)
			continue;
		if (!counted++ || s->received < oldest)
			oldest = s->received;
	}
	if (per_day > 0 && counted >= per_day) {
		*retry_after = (long)(oldest + DAY_SECONDS - now);
		if (*retry_after < 1)
			*retry_after = 1;
		snprintf(err, err_size, "%s has made %d submissions in the last 24 hours, the most "
			 "per_day allows (failed ones are not counted): the next is possible in "
			 "%ld s", author, counted, *retry_after);
		return -EAGAIN;
	}
	return 0;
}

/* fsync the file or directory at path. */
static int sync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -errno;
	close(fd);
	return ret;
}

/* The upload moved into a fresh DIR/submissions/ID/upload, made durable. */
static int store_upload(const struct submissions *ss, uint64_t id, const char *upload_path,
			char *err, size_t err_size)
{
	char top[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
	int ret;

	snprintf(top, sizeof(top), "%s/%s", ss->dir, SUBMISSIONS_DIR);
	if (submissions_path(ss, id, NULL, dir, sizeof(dir)) < 0 ||
	    submissions_path(ss, id, "upload", path, sizeof(path)) < 0) {
		snprintf(err, err_size, "\"%s\": path too long", ss->dir);
		return -ENAMETOOLONG;
	}
	if (mkdir(top, 0755) < 0 && errno != EEXIST)
		goto fail;
	/* a directory of this id without its event is an upload a crash left unacknowledged */
	if ((ret = tree_remove(dir)) < 0) {
		errno = -ret;
		goto fail;
	}
	/* 0711: a build's sandbox, as root a uid of its own, must reach the tree below */
	if (mkdir(dir, 0711) < 0 || rename(upload_path, path) < 0)
		goto fail;
	if ((ret = sync_path(path)) < 0 || (ret = sync_path(dir)) < 0 || (ret = sync_path(top)) < 0) {
		errno = -ret;
		goto fail;
	}
	return 0;
fail:
	ret = -errno;
	snprintf(err, err_size, "\"%s\": %s", dir, strerror(errno));
	return ret;
}

int submissions_receive(struct submissions *ss, const char *author, const char *bot,
			const char *upload_path, int per_day, time_t now, uint64_t *id,
			long *retry_after, char *err, size_t err_size)
{
	char hash[65];
	struct stat st;
	cJSON *ev;
	int ret;

	*retry_after = 0;
	if ((ret = submissions_refresh(ss, err, err_size)) < 0 ||
	    (ret = may_submit(ss, author, bot, per_day, now, retry_after, err, err_size)) < 0)
		goto refused;
	errno = 0;
	if (stat(upload_path, &st) < 0 || !S_ISREG(st.st_mode) || !SHA256File(upload_path, hash)) {
		ret = errno ? -errno : -EINVAL;
		snprintf(err, err_size, "\"%s\": %s", upload_path, strerror(-ret));
		goto refused;
	}
	*id = ss->n ? ss->s[ss->n - 1].id + 1 : 1;
	if ((ret = store_upload(ss, *id, upload_path, err, err_size)) < 0)
		goto refused;
	ev = event_new("received", *id);
	if (ev && (!cJSON_AddStringToObject(ev, "author", author) ||
		   !cJSON_AddStringToObject(ev, "bot", bot) ||
		   !cJSON_AddStringToObject(ev, "sha256", hash) ||
		   !cJSON_AddNumberToObject(ev, "bytes", (double)st.st_size))) {
		cJSON_Delete(ev);
		ev = NULL;
	}
	return append_event(ss, ev, now, err, err_size);
refused:
	unlink(upload_path);
	return ret;
}
