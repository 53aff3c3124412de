/*
 * bot_host.c - bot_start() (contract in bot.h): a sandboxed bot's process
 * comes from a host kept between games where the sandbox has hosts
 * (sandbox_host.h), otherwise from a start of its own (bot_spawn.c).
 *
 * A host is claimed for one game and given back by bot_stop() once every
 * process of the game is gone; a host found dead is stopped and replaced.
 * Hosts are started by one thread of their own, which lives as long as
 * they do: a process's parent-death signal fires when the thread that
 * started it ends (bot.h), and the threads that start bots (a pool's) come
 * and go.
 */
#include "bot_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox_host.h"

/* What a host is for: the bot's command, environment, directory, limits and CPU. */
static char *host_key(const struct bot_spec *spec)
{
	char *key = NULL, num[128];
	size_t len = 0;
	FILE *f = open_memstream(&key, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; spec->argv[i]; i++)
		fprintf(f, "a%zu:%s%c", strlen(spec->argv[i]), spec->argv[i], 0x1f);
	for (size_t i = 0; spec->env && spec->env[i]; i++)
		fprintf(f, "e%zu:%s%c", strlen(spec->env[i]), spec->env[i], 0x1f);
	if (spec->cwd)
		fprintf(f, "d%zu:%s%c", strlen(spec->cwd), spec->cwd, 0x1f);
	snprintf(num, sizeof num, "c%d l%ld,%ld,%ld,%ld", spec->cpu, spec->limits.cpu_seconds,
		 spec->limits.memory_mb, spec->limits.open_files, spec->limits.processes);
	fputs(num, f);
	if (fclose(f) != 0) {
		free(key);
		return NULL;
	}
	return key;
}

/* One host start asked of the starter thread. */
struct host_request {
	const struct bot_spec *spec;
	struct bot *host;
	char *why;
	size_t why_size;
	int ret;
	bool done;
	struct host_request *next;
};

struct bot_hosts {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct host_request *queue;
	bool closing;
};

static void *starter_main(void *arg)
{
	struct bot_hosts *hs = arg;

	pthread_mutex_lock(&hs->lock);
	for (;;) {
		struct host_request *rq = hs->queue;
		struct bot_spec spec;

		if (!rq && hs->closing)
			break;
		if (!rq) {
			pthread_cond_wait(&hs->work, &hs->lock);
			continue;
		}
		hs->queue = rq->next;
		pthread_mutex_unlock(&hs->lock);
		/* the host says nothing of its own: each game's messages go to its bot's log */
		spec = *rq->spec;
		spec.stderr_path = NULL;
		rq->ret = bot_spawn(&spec, SANDBOX_START_HOST, -1, &rq->host, rq->why, rq->why_size);
		pthread_mutex_lock(&hs->lock);
		rq->done = true;
		pthread_cond_broadcast(&hs->done);
	}
	pthread_mutex_unlock(&hs->lock);
	return NULL;
}

int bot_hosts_open(struct bot_hosts **out)
{
	struct bot_hosts *hs = calloc(1, sizeof *hs);
	int ret;

	if (!hs)
		return -ENOMEM;
	pthread_mutex_init(&hs->lock, NULL);
	pthread_cond_init(&hs->work, NULL);
	pthread_cond_init(&hs->done, NULL);
	if ((ret = -pthread_create(&hs->thread, NULL, starter_main, hs)) < 0) {
		bot_hosts_close(hs, false);
		return ret;
	}
	*out = hs;
	return 0;
}

void bot_hosts_close(struct bot_hosts *hs, bool running)
{
	if (!hs)
		return;
	if (running) {
		pthread_mutex_lock(&hs->lock);
		hs->closing = true;
		pthread_cond_signal(&hs->work);
		pthread_mutex_unlock(&hs->lock);
		pthread_join(hs->thread, NULL);
	}
	pthread_mutex_destroy(&hs->lock);
	pthread_cond_destroy(&hs->work);
	pthread_cond_destroy(&hs->done);
	free(hs);
}

/* A host started by the starter thread. */
static int start_host(struct bot_hosts *hs, const struct bot_spec *spec, struct bot **host,
		      char *why, size_t why_size)
{
	struct host_request rq = { spec, NULL, why, why_size, 0, false, NULL };
	struct host_request **tail;

	pthread_mutex_lock(&hs->lock);
	for (tail = &hs->queue; *tail; tail = &(*tail)->next)
		;
	*tail = &rq;
	pthread_cond_signal(&hs->work);
	while (!rq.done)
		pthread_cond_wait(&hs->done, &hs->lock);
	pthread_mutex_unlock(&hs->lock);
	*host = rq.host;
	return rq.ret;
}

/* A live host for spec, busy: claimed, else started. */
static int take_host(const struct bot_spec *spec, const char *key, struct bot **host, char *why,
		     size_t why_size)
{
	int ret;

	while ((*host = sandbox_host_claim(spec->sandbox, key))) {
		if (!bot_peek_exited(*host))
			return 0;
		sandbox_host_drop(spec->sandbox, *host);
		bot_stop(*host, 0);
	}
	if ((ret = start_host(sandbox_host_starter(spec->sandbox), spec, host, why, why_size)) < 0)
		return ret;
	if ((ret = sandbox_host_add(spec->sandbox, key, *host)) < 0) {
		bot_stop(*host, 0);
		*host = NULL;
	}
	return ret;
}

int bot_start(const struct bot_spec *spec, struct bot **out, char *why, size_t why_size)
{
	struct bot *host = NULL;
	char *key;
	int ret;

	if (!spec->sandbox || !sandbox_hosts_on(spec->sandbox))
		return bot_spawn(spec, SANDBOX_START_ALONE, -1, out, why, why_size);
	if (!(key = host_key(spec))) {
		snprintf(why, why_size, "bot \"%s\": out of memory", spec->name ? spec->name :
			 spec->argv[0]);
		return -ENOMEM;
	}
	ret = take_host(spec, key, &host, why, why_size);
	free(key);
	if (ret < 0)
		return ret;
	ret = bot_spawn(spec, SANDBOX_START_GAME, host->in_fd, out, why, why_size);
	if (ret < 0)
		sandbox_host_put(spec->sandbox, host);
	else
		(*out)->host = host;
	return ret;
}
