/*
 * sandbox_host.c - the list of a sandbox's hosts (contract in
 * sandbox_host.h), under the sandbox's lock.
 */
#include "sandbox_host.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox_internal.h"
#include "strlist.h"

bool sandbox_hosts_on(const struct sandbox *sb)
{
	return sb->starter != NULL;
}

struct bot_hosts *sandbox_host_starter(const struct sandbox *sb)
{
	return sb->starter;
}

struct bot *sandbox_host_claim(struct sandbox *sb, const char *key)
{
	struct bot *found = NULL;

	pthread_mutex_lock(&sb->lock);
	for (size_t i = 0; i < sb->nhosts && !found; i++) {
		struct sandbox_host *h = &sb->hosts[i];

		if (!h->busy && strcmp(h->key, key) == 0) {
			h->busy = h->served = true;
			found = h->bot;
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return found;
}

/* A copy of v (NULL-terminated) owning its strings, as the sandbox's lists do; NULL: no memory. */
static char **strv_dup(char *const *v)
{
	struct strlist l = { 0 };

	for (size_t i = 0; v[i]; i++)
		strlist_add(&l, v[i]);
	/* an empty list still ends in its NULL */
	if (!l.error && !l.v && !(l.v = calloc(1, sizeof *l.v)))
		l.error = -ENOMEM;
	if (l.error) {
		strlist_free(&l);
		return NULL;
	}
	return l.v;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void sandbox_host_spec_free(struct bot_spec *spec)
{
	strv_free((char **)spec->argv);
	strv_free((char **)spec->env);
	free((char *)spec->cwd);
	free((char *)spec->name);
	memset(spec, 0, sizeof *spec);
}

/* A copy of from that owns its strings (no log): 0, or -ENOMEM. */
static int spec_dup(const struct bot_spec *from, struct bot_spec *to)
{
	*to = *from;
	to->stderr_path = NULL;
	to->argv = strv_dup(from->argv);
	to->env = from->env ? strv_dup(from->env) : NULL;
	to->cwd = from->cwd ? strdup(from->cwd) : NULL;
	to->name = from->name ? strdup(from->name) : NULL;
	if (!to->argv || (from->env && !to->env) || (from->cwd && !to->cwd) ||
	    (from->name && !to->name)) {
		sandbox_host_spec_free(to);
		return -ENOMEM;
	}
	return 0;
}

/* Under the lock: room for one more host; false without. */
static bool room(struct sandbox *sb)
{
	if (sb->nhosts == sb->hosts_cap) {
		size_t cap = sb->hosts_cap ? 2 * sb->hosts_cap : 8;
		struct sandbox_host *more = realloc(sb->hosts, cap * sizeof *more);

		if (more) {
			sb->hosts = more;
			sb->hosts_cap = cap;
		}
	}
	return sb->nhosts < sb->hosts_cap;
}

/* Under the lock: host's index, or nhosts. */
static size_t find(const struct sandbox *sb, const struct bot *host)
{
	size_t i = 0;

	while (i < sb->nhosts && sb->hosts[i].bot != host)
		i++;
	return i;
}

/* Under the lock: forget entry i. */
static void forget(struct sandbox *sb, size_t i)
{
	free(sb->hosts[i].key);
	sandbox_host_spec_free(&sb->hosts[i].spec);
	sb->hosts[i] = sb->hosts[--sb->nhosts];
}

int sandbox_host_add(struct sandbox *sb, const char *key, const struct bot_spec *spec,
		      struct bot *host)
{
	char *copy = strdup(key);
	struct bot_spec own;
	int ret = copy ? spec_dup(spec, &own) : -ENOMEM;

	if (ret < 0) {
		free(copy);
		return ret;
	}
	pthread_mutex_lock(&sb->lock);
	if (room(sb))
		sb->hosts[sb->nhosts++] = (struct sandbox_host){ host, copy, own, true, true,
								 sb->next_host_id++ };
	else
		ret = -ENOMEM;
	pthread_mutex_unlock(&sb->lock);
	if (ret < 0) {
		free(copy);
		sandbox_host_spec_free(&own);
	}
	return ret;
}

/* Under the lock: hosts of key, serving and not (idle or starting). */
static void count(const struct sandbox *sb, const char *key, size_t *serving, size_t *spare)
{
	*serving = *spare = 0;
	for (size_t i = 0; i < sb->nhosts; i++)
		if (strcmp(sb->hosts[i].key, key) == 0)
			++*(sb->hosts[i].served ? serving : spare);
}

size_t sandbox_host_plan_ahead(struct sandbox *sb, struct sandbox_ahead *out, size_t max)
{
	size_t n = 0, nhosts;

	pthread_mutex_lock(&sb->lock);
	nhosts = sb->nhosts;
	for (size_t i = 0; i < nhosts && n < max; i++) {
		size_t serving, spare;
		bool first = true;

		/* each bot once: at its first host */
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(sb->hosts[j].key, sb->hosts[i].key) != 0;
		if (!first)
			continue;
		count(sb, sb->hosts[i].key, &serving, &spare);
		for (; spare < serving && n < max; spare++) {
			char *copy = strdup(sb->hosts[i].key), *theirs = strdup(sb->hosts[i].key);
			struct bot_spec own, yours;
			bool ok = copy && theirs && room(sb);

			if (ok && spec_dup(&sb->hosts[i].spec, &own) < 0)
				ok = false;
			else if (ok && spec_dup(&sb->hosts[i].spec, &yours) < 0) {
				sandbox_host_spec_free(&own);
				ok = false;
			}
			if (!ok) {
				free(copy);
				free(theirs);
				break;
			}
			out[n] = (struct sandbox_ahead){ sb->next_host_id++, theirs, yours };
			sb->hosts[sb->nhosts++] = (struct sandbox_host){ NULL, copy, own, true, false,
									 out[n].id };
			n++;
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return n;
}

void sandbox_host_started(struct sandbox *sb, unsigned long long id, struct bot *host)
{
	pthread_mutex_lock(&sb->lock);
	for (size_t i = 0; i < sb->nhosts; i++) {
		if (sb->hosts[i].id != id)
			continue;
		if (host) {
			sb->hosts[i].bot = host;
			sb->hosts[i].busy = false;
		} else {
			forget(sb, i);
		}
		break;
	}
	pthread_mutex_unlock(&sb->lock);
}

void sandbox_host_put(struct sandbox *sb, struct bot *host)
{
	size_t i;

	pthread_mutex_lock(&sb->lock);
	if ((i = find(sb, host)) < sb->nhosts)
		sb->hosts[i].busy = false;
	pthread_mutex_unlock(&sb->lock);
}

void sandbox_host_drop(struct sandbox *sb, struct bot *host)
{
	size_t i;

	pthread_mutex_lock(&sb->lock);
	if ((i = find(sb, host)) < sb->nhosts)
		forget(sb, i);
	pthread_mutex_unlock(&sb->lock);
}

struct bot *sandbox_host_take_idle(struct sandbox *sb, bool served_only)
{
	struct bot *found = NULL;

	pthread_mutex_lock(&sb->lock);
	for (size_t i = 0; i < sb->nhosts && !found; i++) {
		if (!sb->hosts[i].busy && (sb->hosts[i].served || !served_only)) {
			found = sb->hosts[i].bot;
			forget(sb, i);
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return found;
}
