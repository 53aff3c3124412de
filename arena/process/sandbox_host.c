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
			h->busy = true;
			found = h->bot;
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return found;
}

int sandbox_host_add(struct sandbox *sb, const char *key, struct bot *host)
{
	char *copy = strdup(key);
	int ret = 0;

	pthread_mutex_lock(&sb->lock);
	if (copy && sb->nhosts == sb->hosts_cap) {
		size_t cap = sb->hosts_cap ? 2 * sb->hosts_cap : 8;
		struct sandbox_host *more = realloc(sb->hosts, cap * sizeof *more);

		if (more) {
			sb->hosts = more;
			sb->hosts_cap = cap;
		}
	}
	if (copy && sb->nhosts < sb->hosts_cap)
		sb->hosts[sb->nhosts++] = (struct sandbox_host){ host, copy, true };
	else
		ret = -ENOMEM;
	pthread_mutex_unlock(&sb->lock);
	if (ret < 0)
		free(copy);
	return ret;
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
	sb->hosts[i] = sb->hosts[--sb->nhosts];
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

struct bot *sandbox_host_take_idle(struct sandbox *sb)
{
	struct bot *found = NULL;

	pthread_mutex_lock(&sb->lock);
	for (size_t i = 0; i < sb->nhosts && !found; i++) {
		if (!sb->hosts[i].busy) {
			found = sb->hosts[i].bot;
			forget(sb, i);
		}
	}
	pthread_mutex_unlock(&sb->lock);
	return found;
}
