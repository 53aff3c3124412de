/*
 * sessions.c - sessions and failed tokens in memory (contract in sessions.h).
 * Linear scans: a few thousand entries at most, each a compare.
 */
#include "sessions.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define ACCOUNT_MAX 72
#define ADDRESS_MAX 64

struct session {
	char id[SESSIONS_ID_SIZE];
	char account[ACCOUNT_MAX];
	time_t expires;
};

struct failures {
	char address[ADDRESS_MAX];
	time_t first;  /* the window's start */
	int count;
};

struct sessions {
	pthread_mutex_t lock;
	long lifetime, window;
	int limit;
	struct session s[SESSIONS_MAX];
	size_t ns;
	struct failures f[SESSIONS_ADDRESSES_MAX];
	size_t nf;
};

struct sessions *sessions_new(long lifetime, int failures, long window)
{
	struct sessions *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	pthread_mutex_init(&ss->lock, NULL);
	ss->lifetime = lifetime;
	ss->limit = failures;
	ss->window = window;
	return ss;
}

void sessions_free(struct sessions *ss)
{
	if (!ss)
		return;
	pthread_mutex_destroy(&ss->lock);
	explicit_bzero(ss->s, sizeof(ss->s));
	free(ss);
}

/* Whether a and b (SESSIONS_ID_SIZE - 1 hex digits each) are equal; every byte compared. */
static bool same_id(const char *a, const char *b)
{
	unsigned char diff = 0;

	for (size_t i = 0; i < SESSIONS_ID_SIZE - 1; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

/* The session of id, or -1; expired ones are dropped on the way. */
static long find(struct sessions *ss, const char *id, time_t now)
{
	long found = -1;

	for (size_t i = 0; i < ss->ns;) {
		if (ss->s[i].expires <= now) {
			ss->s[i] = ss->s[--ss->ns];
			continue;
		}
		if (same_id(ss->s[i].id, id))
			found = (long)i;
		i++;
	}
	return found;
}

int sessions_open(struct sessions *ss, const char *account, time_t now,
		  char id[SESSIONS_ID_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[(SESSIONS_ID_SIZE - 1) / 2];
	struct session *s;
	size_t oldest = 0;

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return errno ? -errno : -EIO;
	for (size_t i = 0; i < sizeof(raw); i++) {
		id[2 * i] = hex[raw[i] >> 4];
		id[2 * i + 1] = hex[raw[i] & 15];
	}
	id[SESSIONS_ID_SIZE - 1] = '\0';
	explicit_bzero(raw, sizeof(raw));
	pthread_mutex_lock(&ss->lock);
	find(ss, id, now);
	if (ss->ns == SESSIONS_MAX) {
		for (size_t i = 1; i < ss->ns; i++)
			if (ss->s[i].expires < ss->s[oldest].expires)
				oldest = i;
		s = &ss->s[oldest];
	} else {
		s = &ss->s[ss->ns++];
	}
	memcpy(s->id, id, SESSIONS_ID_SIZE);
	strlcpy(s->account, account, sizeof(s->account));
	s->expires = now + ss->lifetime;
	pthread_mutex_unlock(&ss->lock);
	return 0;
}

bool sessions_account(struct sessions *ss, const char *id, time_t now, char *account,
		      size_t size)
{
	long i;

	if (strlen(id) != SESSIONS_ID_SIZE - 1)
		return false;
	pthread_mutex_lock(&ss->lock);
	i = find(ss, id, now);
	if (i >= 0)
		strlcpy(account, ss->s[i].account, size);
	pthread_mutex_unlock(&ss->lock);
	return i >= 0;
}

void sessions_close(struct sessions *ss, const char *id)
{
	long i;

	if (strlen(id) != SESSIONS_ID_SIZE - 1)
		return;
	pthread_mutex_lock(&ss->lock);
	if ((i = find(ss, id, 0)) >= 0) {
		explicit_bzero(&ss->s[i], sizeof(ss->s[i]));
		ss->s[i] = ss->s[--ss->ns];
	}
	pthread_mutex_unlock(&ss->lock);
}

/* address's record, windows over at now dropped; -1 for none. */
static long failures_of(struct sessions *ss, const char *address, time_t now)
{
	long found = -1;

	for (size_t i = 0; i < ss->nf;) {
		if (ss->f[i].first + ss->window <= now) {
			ss->f[i] = ss->f[--ss->nf];
			continue;
		}
		if (!strcmp(ss->f[i].address, address))
			found = (long)i;
		i++;
	}
	return found;
}

long sessions_blocked(struct sessions *ss, const char *address, time_t now)
{
	long i, wait = 0;

	pthread_mutex_lock(&ss->lock);
	i = failures_of(ss, address, now);
	if (i >= 0 && ss->f[i].count >= ss->limit)
		wait = (long)(ss->f[i].first + ss->window - now);
	pthread_mutex_unlock(&ss->lock);
	return wait;
}

void sessions_failed(struct sessions *ss, const char *address, time_t now)
{
	size_t oldest = 0;
	long i;

	pthread_mutex_lock(&ss->lock);
	if ((i = failures_of(ss, address, now)) >= 0) {
		ss->f[i].count++;
	} else {
		if (ss->nf == SESSIONS_ADDRESSES_MAX) {
			for (size_t k = 1; k < ss->nf; k++)
				if (ss->f[k].first < ss->f[oldest].first)
					oldest = k;
			i = (long)oldest;
		} else {
			i = (long)ss->nf++;
		}
		strlcpy(ss->f[i].address, address, sizeof(ss->f[i].address));
		ss->f[i].first = now;
		ss->f[i].count = 1;
	}
	pthread_mutex_unlock(&ss->lock);
}
