/*
 * intake_docs.c - the documents of `host`'s routes (contract in intake_docs.h).
 */
#include "intake_docs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "challenges.h"
#include "jsonw.h"
#include "league_entries.h"
#include "submissions.h"

static void time_field(struct jsonw *w, const char *key, time_t t)
{
	char text[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
	jsonw_printf(w, ",\"%s\":\"%s\"", key, text);
}

/* Whether s is still on its way (received to checking). */
static bool in_flight(const struct submission *s)
{
	return !s->disabled && s->state != SUBMISSION_ENTERED && s->state != SUBMISSION_FAILED;
}

static void submission_doc(struct jsonw *w, const struct submissions *ss,
			   const struct submission *s)
{
	char why[256];
	size_t position;

	jsonw_printf(w, "{\"id\":%llu,\"url\":\"/api/submissions/%llu\"",
		     (unsigned long long)s->id, (unsigned long long)s->id);
	api_string_field(w, "author", s->author);
	api_string_field(w, "bot", s->bot);
	api_string_field(w, "state", submission_state_name(s->state));
	api_string_field(w, "stage", s->state == SUBMISSION_FAILED ?
		     submission_state_name(s->failed_at) : NULL);
	api_string_field(w, "why", s->why);
	api_string_field(w, "entry", s->entry);
	jsonw_printf(w, ",\"disabled\":%s,\"sha256\":\"%s\",\"bytes\":%llu",
		     s->disabled ? "true" : "false", s->sha256, (unsigned long long)s->bytes);
	if (in_flight(s) && submissions_queue(ss, s->id, &position, why, sizeof(why)) == 0) {
		jsonw_printf(w, ",\"queue\":{\"position\":%zu,\"why\":", position);
		jsonw_string(w, why);
		jsonw_text(w, "}");
	} else {
		jsonw_text(w, ",\"queue\":null");
	}
	time_field(w, "received", s->received);
	time_field(w, "changed", s->changed);
	jsonw_printf(w, ",\"logs\":{\"build\":\"/api/submissions/%llu/build.log\","
		     "\"check\":\"/api/submissions/%llu/check.log\"}}",
		     (unsigned long long)s->id, (unsigned long long)s->id);
}

static bool may_see(const struct who *who, const struct submission *s)
{
	return who->role == ACCOUNT_ORGANISER || !strcmp(s->author, who->name);
}

/* Submission id, refreshed, if who may see it; under lock. */
static struct submission *visible(struct submissions *ss, const struct who *who, uint64_t id)
{
	char err[512];
	struct submission *s;

	submissions_refresh(ss, err, sizeof(err));
	s = submissions_find(ss, id);
	return s && may_see(who, s) ? s : NULL;
}

enum MHD_Result intake_docs_received(struct MHD_Connection *conn, uint64_t id)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_printf(&w, "{\"id\":%llu,\"state\":\"received\",\"url\":\"/api/submissions/%llu\"}\n",
		     (unsigned long long)id, (unsigned long long)id);
	return reply_w(conn, MHD_HTTP_ACCEPTED, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_login(struct MHD_Connection *conn, const struct who *who,
				  const struct reply_extra *x)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_text(&w, "{\"account\":");
	jsonw_string(&w, who->name);
	jsonw_printf(&w, ",\"role\":\"%s\"}\n", account_role_name(who->role));
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, x);
}

enum MHD_Result intake_docs_author(struct MHD_Connection *conn, const char *author, size_t n)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_text(&w, "{\"author\":");
	jsonw_string(&w, author);
	jsonw_printf(&w, ",\"state\":\"disabled\",\"submissions\":%zu}\n", n);
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_frozen(struct MHD_Connection *conn, bool frozen)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_printf(&w, "{\"frozen\":%s}\n", frozen ? "true" : "false");
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_challenge_asked(struct MHD_Connection *conn, uint64_t id)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_printf(&w, "{\"id\":%llu,\"state\":\"queued\",\"url\":"
		     "\"/api/challenges/%llu\"}\n", (unsigned long long)id, (unsigned long long)id);
	return reply_w(conn, MHD_HTTP_ACCEPTED, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_challenge(struct MHD_Connection *conn, const char *dir,
				      const struct challenge *c)
{
	char stamp[32], command[PATH_MAX + 2 * LEAGUE_ENTRY_NAME_MAX + 64];
	struct jsonw w;
	struct tm tm;

	gmtime_r(&c->asked, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(command, sizeof(command), "skipbo-arena league challenge --deals %d %s %s %s",
		 c->deals, dir, c->bot, c->opponent);
	jsonw_init(&w);
	jsonw_printf(&w, "{\"id\":%llu,\"author\":", (unsigned long long)c->id);
	jsonw_string(&w, c->author);
	jsonw_text(&w, ",\"bot\":");
	jsonw_string(&w, c->bot);
	jsonw_text(&w, ",\"opponent\":");
	jsonw_string(&w, c->opponent);
	jsonw_printf(&w, ",\"deals\":%d,\"state\":\"%s\",\"asked\":\"%s\",\"play\":",
		     c->deals, challenge_state_name(c->state), stamp);
	jsonw_string(&w, command);
	if (c->state == CHALLENGE_PLAYED)
		jsonw_printf(&w, ",\"games\":%ld,\"won\":[%ld,%ld]", c->games, c->won[0],
			     c->won[1]);
	if (c->state == CHALLENGE_FAILED) {
		jsonw_text(&w, ",\"why\":");
		jsonw_string(&w, c->why);
	}
	jsonw_text(&w, "}\n");
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_missing(struct MHD_Connection *conn, uint64_t id)
{
	char why[128];

	snprintf(why, sizeof(why), "no submission %llu of yours (GET /api/me lists them)",
		 (unsigned long long)id);
	return reply_error(conn, MHD_HTTP_NOT_FOUND, why, NULL);
}

enum MHD_Result intake_docs_submission(struct MHD_Connection *conn, pthread_mutex_t *lock,
				       struct submissions *ss, const struct who *who,
				       uint64_t id)
{
	struct submission *s;
	struct jsonw w;

	jsonw_init(&w);
	pthread_mutex_lock(lock);
	if ((s = visible(ss, who, id)))
		submission_doc(&w, ss, s);
	pthread_mutex_unlock(lock);
	if (!s) {
		jsonw_release(&w);
		return intake_docs_missing(conn, id);
	}
	jsonw_text(&w, "\n");
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_me(struct MHD_Connection *conn, pthread_mutex_t *lock,
			       struct submissions *ss, const struct who *who)
{
	bool first = true;
	char err[512];
	struct jsonw w;

	jsonw_init(&w);
	jsonw_text(&w, "{\"account\":");
	jsonw_string(&w, who->name);
	jsonw_printf(&w, ",\"role\":\"%s\",\"bots\":[", account_role_name(who->role));
	pthread_mutex_lock(lock);
	submissions_refresh(ss, err, sizeof(err));
	/* a bot's first submission names it: list each once, in that order */
	for (size_t i = 0; i < ss->n; i++) {
		const struct submission *s = &ss->s[i];
		size_t k = 0;

		if (strcmp(s->author, who->name))
			continue;
		while (k < i && strcmp(ss->s[k].bot, s->bot))
			k++;
		if (k < i)
			continue;
		jsonw_text(&w, first ? "" : ",");
		jsonw_string(&w, s->bot);
		first = false;
	}
	jsonw_text(&w, "],\"submissions\":[");
	first = true;
	for (size_t i = ss->n; i-- > 0;) {
		if (!may_see(who, &ss->s[i]))
			continue;
		jsonw_text(&w, first ? "" : ",");
		submission_doc(&w, ss, &ss->s[i]);
		first = false;
	}
	pthread_mutex_unlock(lock);
	jsonw_text(&w, "]}\n");
	return reply_w(conn, MHD_HTTP_OK, "application/json", &w, NULL);
}

enum MHD_Result intake_docs_log(struct MHD_Connection *conn, pthread_mutex_t *lock,
				struct submissions *ss, const struct who *who, uint64_t id,
				const char *name)
{
	char path[PATH_MAX], why[256];
	struct submission *s;
	struct stat st;
	const char *state = NULL;
	int fd = -1;

	pthread_mutex_lock(lock);
	if ((s = visible(ss, who, id))) {
		state = submission_state_name(s->state);
		if (submissions_path(ss, id, name, path, sizeof(path)) == 0)
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	pthread_mutex_unlock(lock);
	if (!s)
		return intake_docs_missing(conn, id);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		snprintf(why, sizeof(why), "submission %llu has no %s yet: it is %s",
			 (unsigned long long)id, name, state);
		return reply_error(conn, MHD_HTTP_NOT_FOUND, why, NULL);
	}
	return reply_fd(conn, MHD_HTTP_OK, "text/plain; charset=utf-8", fd, (uint64_t)st.st_size);
}
