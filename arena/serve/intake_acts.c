/*
 * intake_acts.c - the organiser's acts and the challenges of `host`'s intake
 * (contract in intake_acts.h): disabling a submission or an author, the
 * freeze, challenges asked and read.
 */
#include "intake_acts.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accounts.h"
#include "challenges.h"
#include "freeze.h"
#include "intake_docs.h"
#include "league_entries.h"

/*
 * Disable submission id with why and retire its league entry: 0, -ENOENT
 * for no such submission, or another negative errno with err. One disabled
 * already is left as it is.
 */
static int disable_submission(struct intake *in, uint64_t id, const char *why, char *err,
			      size_t err_size)
{
	struct league_entries es;
	struct submission *s;
	char entry[LEAGUE_ENTRY_NAME_MAX] = "";
	int rc = 0, i;

	pthread_mutex_lock(&in->lock);
	submissions_refresh(&in->ss, err, err_size);
	if (!(s = submissions_find(&in->ss, id)))
		rc = -ENOENT;
	else if (!s->disabled)
		rc = submissions_disable(&in->ss, id, why, err, err_size);
	if (rc == 0 && s->entry)
		snprintf(entry, sizeof(entry), "%s", s->entry);
	pthread_mutex_unlock(&in->lock);
	if (rc < 0 || !entry[0] || (rc = league_entries_open(&es, in->dir, err, err_size)) < 0)
		return rc;
	if ((i = league_entries_named(&es, entry)) >= 0 &&
	    (rc = league_entries_retire(&es, (size_t)i, why, err, err_size)) == -EALREADY)
		rc = 0;
	league_entries_release(&es);
	return rc;
}

static enum MHD_Result disable(struct intake *in, struct MHD_Connection *conn,
			       const struct who *who, uint64_t id)
{
	struct refusal r = { .status = MHD_HTTP_INTERNAL_SERVER_ERROR };
	char err[1024], why[256];
	int rc;

	snprintf(why, sizeof(why), "disabled by the organiser %s", who->name);
	if ((rc = disable_submission(in, id, why, err, sizeof(err))) == -ENOENT)
		return intake_docs_missing(conn, id);
	if (rc < 0) {
		strlcpy(r.why, err, sizeof(r.why));
		return intake_refuse(conn, &r);
	}
	return intake_docs_submission(conn, &in->lock, &in->ss, who, id);
}

/*
 * The organiser who disables author: each of their submissions disabled
 * and its entry retired with the reason, then their token refused from now
 * on (accounts_revoke). Asked again after a failure, it goes on where it
 * stopped.
 */
static enum MHD_Result disable_author(struct intake *in, struct MHD_Connection *conn,
				      const struct who *who, const char *author)
{
	struct refusal r = { .status = MHD_HTTP_INTERNAL_SERVER_ERROR };
	char err[1024], ignored[256], why[256];
	struct accounts as;
	uint64_t *ids = NULL;
	size_t n = 0;
	int rc, live;

	if ((rc = accounts_open(&as, in->dir, err, sizeof(err))) == 0) {
		if ((live = accounts_live(&as, author)) < 0 || as.a[live].role != ACCOUNT_AUTHOR) {
			rc = -ENOENT;
			snprintf(err, sizeof(err), "no live author \"%s\": skipbo-arena host "
				 "account list %s shows the accounts", author, in->dir);
		}
		accounts_release(&as);
	}
	snprintf(why, sizeof(why), "the author %s was disabled by the organiser %s", author,
		 who->name);
	pthread_mutex_lock(&in->lock);
	submissions_refresh(&in->ss, ignored, sizeof(ignored));
	if (rc == 0 && !(ids = calloc(in->ss.n + 1, sizeof(*ids))))
		rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < in->ss.n; i++)
		if (!strcmp(in->ss.s[i].author, author))
			ids[n++] = in->ss.s[i].id;
	pthread_mutex_unlock(&in->lock);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = disable_submission(in, ids[i], why, err, sizeof(err));
	free(ids);
	if (rc == 0 && (rc = accounts_open(&as, in->dir, err, sizeof(err))) == 0) {
		rc = accounts_revoke(&as, author, err, sizeof(err));
		accounts_release(&as);
	}
	if (rc < 0) {
		r.status = rc == -ENOENT ? MHD_HTTP_NOT_FOUND : r.status;
		strlcpy(r.why, rc == -ENOMEM ? "out of memory" : err, sizeof(r.why));
		return intake_refuse(conn, &r);
	}
	return intake_docs_author(conn, author, n);
}

/* The organiser's freeze or unfreeze, durable before the answer. */
static enum MHD_Result freeze(struct intake *in, struct MHD_Connection *conn,
			      const struct who *who, bool frozen)
{
	struct refusal r = { .status = MHD_HTTP_INTERNAL_SERVER_ERROR };

	if (freeze_write(in->dir, frozen, who->name, r.why, sizeof(r.why)) < 0)
		return intake_refuse(conn, &r);
	return intake_docs_frozen(conn, frozen);
}

enum MHD_Result intake_organiser_act(struct intake *in, struct MHD_Connection *conn,
				     const struct who *who, enum organiser_act act, uint64_t id,
				     const char *author)
{
	static const char *const what[] = { [ACT_DISABLE] = "disables a submission",
		[ACT_FREEZE] = "freezes submissions", [ACT_UNFREEZE] = "unfreezes submissions",
		[ACT_AUTHOR] = "disables an author" };
	struct refusal r = { .status = MHD_HTTP_FORBIDDEN };

	if (who->role != ACCOUNT_ORGANISER) {
		snprintf(r.why, sizeof(r.why), "only an organiser %s (an account added with host "
			 "account add --organiser)", what[act]);
		return intake_refuse(conn, &r);
	}
	if (act == ACT_DISABLE)
		return disable(in, conn, who, id);
	if (act == ACT_AUTHOR)
		return disable_author(in, conn, who, author);
	return freeze(in, conn, who, act == ACT_FREEZE);
}

/* {"bot": mine, "opponent": any entry, "deals": N} into the out arguments: NULL, or what
 * is wrong. */
static const char *challenge_body(const char *text, size_t len, char *bot, char *opponent,
				  size_t size, int *deals)
{
	cJSON *o = cJSON_ParseWithLengthOpts(text, len, NULL, 0);
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "bot");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "opponent");
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, "deals");
	const char *wrong = NULL;

	*deals = 10;
	if (!cJSON_IsObject(o) || !cJSON_IsString(b) || !cJSON_IsString(v) ||
	    cJSON_GetArraySize(o) != (d ? 3 : 2))
		wrong = "expected a JSON object {\"bot\": your entry, \"opponent\": an entry, "
			"\"deals\": N}";
	else if (d && (!cJSON_IsNumber(d) || d->valuedouble != (double)d->valueint ||
		       d->valueint < 1 || d->valueint > CHALLENGES_DEALS_MAX))
		wrong = "deals: expected a whole number from 1 to 1000";
	else if (strlen(b->valuestring) >= size || strlen(v->valuestring) >= size)
		wrong = "bot, opponent: expected the name of a league entry";
	if (!wrong) {
		strcpy(bot, b->valuestring);
		strcpy(opponent, v->valuestring);
		*deals = d ? d->valueint : 10;
	}
	cJSON_Delete(o);
	return wrong;
}

/* Whether name is an entry of the league in play (not retired). */
static bool entry_in_play(struct intake *in, const char *name)
{
	struct league_entries es;
	char err[512];
	int i;
	bool yes;

	if (league_entries_open(&es, in->dir, err, sizeof(err)) < 0)
		return false;
	yes = (i = league_entries_named(&es, name)) >= 0 && !es.e[i].retired;
	league_entries_release(&es);
	return yes;
}

enum MHD_Result intake_challenge_ask(struct intake *in, struct MHD_Connection *conn,
				     const struct who *who, const char *body, size_t len)
{
	struct refusal r = { .status = MHD_HTTP_BAD_REQUEST };
	char bot[LEAGUE_ENTRY_NAME_MAX + 1], opponent[LEAGUE_ENTRY_NAME_MAX + 1], err[512];
	struct challenges cs;
	const char *wrong;
	uint64_t id = 0;
	int deals, rc;

	if ((wrong = challenge_body(body, len, bot, opponent, sizeof(bot), &deals))) {
		strlcpy(r.why, wrong, sizeof(r.why));
		return intake_refuse(conn, &r);
	}
	r.status = MHD_HTTP_FORBIDDEN;
	if (!intake_sees_entry(in, who, bot) || !entry_in_play(in, bot)) {
		snprintf(r.why, sizeof(r.why), "bot: \"%s\" is no entry of yours in play: challenge "
			 "with an entry your submissions became (GET /api/me)", bot);
		return intake_refuse(conn, &r);
	}
	r.status = MHD_HTTP_BAD_REQUEST;
	if (!strcmp(bot, opponent) || !entry_in_play(in, opponent)) {
		snprintf(r.why, sizeof(r.why), "opponent: \"%s\" is %s: name another entry of the "
			 "league's ranking", opponent, strcmp(bot, opponent) ? "no entry in play" :
			 "the bot itself");
		return intake_refuse(conn, &r);
	}
	pthread_mutex_lock(&in->lock);
	if ((rc = challenges_open(&cs, in->dir, err, sizeof(err))) == 0) {
		rc = challenges_ask(&cs, who->name, bot, opponent, deals,
				    in->config.challenges_per_pair_day, time(NULL), &id,
				    &r.retry_after, err, sizeof(err));
		challenges_release(&cs);
	}
	pthread_mutex_unlock(&in->lock);
	if (rc < 0) {
		r.status = rc == -EAGAIN ? MHD_HTTP_TOO_MANY_REQUESTS :
			MHD_HTTP_SERVICE_UNAVAILABLE;
		strlcpy(r.why, err, sizeof(r.why));
		return intake_refuse(conn, &r);
	}
	return intake_docs_challenge_asked(conn, id);
}

enum MHD_Result intake_challenge_get(struct intake *in, struct MHD_Connection *conn,
				     const struct who *who, uint64_t id)
{
	const struct challenge *c;
	struct challenges cs;
	char err[512], why[128];
	enum MHD_Result ret;

	pthread_mutex_lock(&in->lock);
	if (challenges_open(&cs, in->dir, err, sizeof(err)) < 0) {
		pthread_mutex_unlock(&in->lock);
		return reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, err, NULL);
	}
	pthread_mutex_unlock(&in->lock);
	if ((c = challenges_find(&cs, id)) &&
	    (who->role == ACCOUNT_ORGANISER || !strcmp(c->author, who->name))) {
		ret = intake_docs_challenge(conn, in->dir, c);
	} else {
		snprintf(why, sizeof(why), "no challenge %llu of yours", (unsigned long long)id);
		ret = reply_error(conn, MHD_HTTP_NOT_FOUND, why, NULL);
	}
	challenges_release(&cs);
	return ret;
}

bool intake_sees_entry(struct intake *in, const struct who *who, const char *name)
{
	char err[256];
	bool mine = who->role == ACCOUNT_ORGANISER;

	pthread_mutex_lock(&in->lock);
	submissions_refresh(&in->ss, err, sizeof(err));
	for (size_t i = 0; !mine && i < in->ss.n; i++)
		mine = in->ss.s[i].entry && !strcmp(in->ss.s[i].entry, name) &&
			!strcmp(in->ss.s[i].author, who->name);
	pthread_mutex_unlock(&in->lock);
	return mine;
}
