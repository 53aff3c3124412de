/*
 * intake_auth.c - who is asking the intake (contract in intake_auth.h).
 */
#include "intake_auth.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "accounts.h"
#include "intake.h"
#include "sessions.h"

time_t intake_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

void intake_client_address(struct MHD_Connection *conn, char *out, size_t size)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn,
		MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;

	snprintf(out, size, "?");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out,
			  (socklen_t)size);
}

const char *intake_header(struct MHD_Connection *conn, const char *name)
{
	return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

bool intake_cross_site(struct MHD_Connection *conn)
{
	const char *site = intake_header(conn, "Sec-Fetch-Site");
	const char *origin = intake_header(conn, "Origin");
	const char *host = intake_header(conn, MHD_HTTP_HEADER_HOST);
	const char *sep;

	if (site && !strcasecmp(site, "cross-site"))
		return true;
	if (!origin)
		return false;
	if (!host || !(sep = strstr(origin, "://")))
		return true; /* "null" (a sandboxed frame, a file), or no Host to compare */
	return strcasecmp(sep + 3, host) != 0;
}

bool intake_account_of(struct intake *in, const char *token, const char *name, struct who *who)
{
	char err[512];
	struct accounts as;
	int i;

	if (accounts_open(&as, in->dir, err, sizeof(err)) < 0)
		return false;
	i = token ? accounts_lookup(&as, token) : accounts_live(&as, name);
	if (i >= 0) {
		snprintf(who->name, sizeof(who->name), "%s", as.a[i].name);
		who->role = as.a[i].role;
		who->trusted = as.a[i].trusted;
	}
	accounts_release(&as);
	return i >= 0;
}

bool intake_blocked(struct intake *in, const char *address, time_t now, struct refusal *r)
{
	if ((r->retry_after = sessions_blocked(in->sessions, address, now)) <= 0)
		return false;
	r->status = MHD_HTTP_TOO_MANY_REQUESTS;
	snprintf(r->why, sizeof(r->why), "too many wrong tokens from %s: at most %d in %d "
		 "minutes (login_failures); try again in %ld s", address,
		 in->config.login_failures, INTAKE_LOGIN_WINDOW_S / 60, r->retry_after);
	return true;
}

/*
 * The live account of a bearer token into *who: 0; -1 with the refusal (429
 * after too many wrong tokens from the address, 401 and counted for a token
 * of no live account, or of a worker when worker is false, or not of one).
 */
static int bearer(struct intake *in, struct MHD_Connection *conn, const char *token,
		  bool worker, struct who *who, struct refusal *r)
{
	char address[INET6_ADDRSTRLEN + 1];
	time_t now = intake_mono_now();

	intake_client_address(conn, address, sizeof(address));
	if (intake_blocked(in, address, now, r))
		return -1;
	if (intake_account_of(in, token, NULL, who) && (worker || who->role != ACCOUNT_WORKER))
		return 0;
	sessions_failed(in->sessions, address, now);
	r->status = MHD_HTTP_UNAUTHORIZED;
	snprintf(r->why, sizeof(r->why), "the token is not a live %s: check the token file, or "
		 "ask the organiser for a new token", worker ? "worker's" :
		 "author's or organiser's");
	return -1;
}

int intake_authenticate(struct intake *in, struct MHD_Connection *conn, struct who *who,
			struct refusal *r)
{
	const char *auth = intake_header(conn, MHD_HTTP_HEADER_AUTHORIZATION);
	const char *cookie = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, INTAKE_COOKIE);
	char name[NAMES_LEN_MAX + 8];

	r->retry_after = 0;
	if (auth && !strncasecmp(auth, "Bearer ", 7))
		return bearer(in, conn, auth + 7, false, who, r);
	if (cookie && sessions_account(in->sessions, cookie, intake_mono_now(), name, sizeof(name)) &&
	    intake_account_of(in, NULL, name, who))
		return 0;
	r->status = MHD_HTTP_UNAUTHORIZED;
	snprintf(r->why, sizeof(r->why), "%s: send \"Authorization: Bearer TOKEN\" with the "
		 "token of your account, or log in on /author", cookie ? "the session has ended "
		 "(a restart or a logout)" : "no token");
	return -1;
}

int intake_authenticate_worker(struct intake *in, struct MHD_Connection *conn,
			       struct who *who, struct refusal *r)
{
	const char *auth = intake_header(conn, MHD_HTTP_HEADER_AUTHORIZATION);

	r->retry_after = 0;
	if (!auth || strncasecmp(auth, "Bearer ", 7)) {
		r->status = MHD_HTTP_UNAUTHORIZED;
		snprintf(r->why, sizeof(r->why), "no token: a worker sends \"Authorization: Bearer "
			 "TOKEN\" with the token of its account (host account add --worker)");
		return -1;
	}
	if (bearer(in, conn, auth + 7, true, who, r) < 0)
		return -1;
	if (who->role == ACCOUNT_WORKER)
		return 0;
	r->status = MHD_HTTP_FORBIDDEN;
	snprintf(r->why, sizeof(r->why), "\"%s\" is an %s's account, not a worker's: the "
		 "organiser adds workers with host account add --worker", who->name,
		 account_role_name(who->role));
	return -1;
}

