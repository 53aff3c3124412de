/*
 * bot_host.c - bot_start() (contract in bot.h): a sandboxed bot's process
 * comes from a host kept between games where the sandbox has hosts
 * (sandbox_host.h), otherwise from a start of its own (bot_spawn.c).
 *
 * A host is claimed for one game and given back by bot_stop() once every
 * process of the game is gone; a host found dead is stopped and replaced.
 * The arena starts a game itself: it sends the host the bot's pipes and a
 * socket of the game's, on which the game's pid 1 says it is there (its
 * pid comes with it as a credential, which the kernel gives in the arena's
 * numbering) and later the bot's status (launcher.h).
 * Hosts are started by threads of their own, which live as long as they
 * do: a process's parent-death signal fires when the thread that started it
 * ends (bot.h), and the threads that start bots (a pool's) come and go.
 * Several, since a phase's first games wait for their hosts, which start
 * mostly asleep on the kernel.
 */
#include "bot_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

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
/* One host start asked of the starters: waited for, or ahead (then the starter's to free). */
struct host_request {
	struct bot_spec spec;
	struct bot *host;
	char *why;
	size_t why_size;
	int ret;
	bool done;
	struct sandbox_ahead ahead; /* ahead.key NULL: a start waited for */
	char why_ahead[256];
	struct host_request *next;
};

/* Threads that start hosts. */
#define HOST_STARTERS 4

struct bot_hosts {
	pthread_t threads[HOST_STARTERS];
	int nthreads;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct host_request *queue;
	int starting;           /* requests taken, not done */
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
		hs->starting++;
		pthread_mutex_unlock(&hs->lock);
		/* the host says nothing of its own: each game's messages go to its bot's log */
		spec = rq->spec;
		spec.stderr_path = NULL;
		rq->ret = bot_spawn(&spec, SANDBOX_START_HOST, &rq->host, rq->why, rq->why_size);
		if (rq->ahead.key) {
			sandbox_host_started(spec.sandbox, rq->ahead.id, rq->ret == 0 ? rq->host : NULL);
			free(rq->ahead.key);
			sandbox_host_spec_free(&rq->ahead.spec);
			free(rq);
			rq = NULL;
		}
		pthread_mutex_lock(&hs->lock);
		hs->starting--;
		if (rq)
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
	for (int i = 0; i < HOST_STARTERS; i++) {
		if ((ret = -pthread_create(&hs->threads[i], NULL, starter_main, hs)) < 0) {
			bot_hosts_close(hs);
			return ret;
		}
		hs->nthreads++;
	}
	*out = hs;
	return 0;
}

void bot_hosts_close(struct bot_hosts *hs)
{
	if (!hs)
		return;
	pthread_mutex_lock(&hs->lock);
	hs->closing = true;
	pthread_cond_broadcast(&hs->work);
	pthread_mutex_unlock(&hs->lock);
	for (int i = 0; i < hs->nthreads; i++)
		pthread_join(hs->threads[i], NULL);
	pthread_mutex_destroy(&hs->lock);
	pthread_cond_destroy(&hs->work);
	pthread_cond_destroy(&hs->done);
	free(hs);
}

/* Under the lock: rq last in the queue, a starter woken. */
static void enqueue(struct bot_hosts *hs, struct host_request *rq)
{
	struct host_request **tail;

	for (tail = &hs->queue; *tail; tail = &(*tail)->next)
		;
	*tail = rq;
	pthread_cond_signal(&hs->work);
}

/* A host started by a starter. */
static int start_host(struct bot_hosts *hs, const struct bot_spec *spec, struct bot **host,
		      char *why, size_t why_size)
{
	struct host_request rq = { .spec = *spec, .why = why, .why_size = why_size };

	pthread_mutex_lock(&hs->lock);
	enqueue(hs, &rq);
	while (!rq.done)
		pthread_cond_wait(&hs->done, &hs->lock);
	pthread_mutex_unlock(&hs->lock);
	*host = rq.host;
	return rq.ret;
}

/* Most hosts started ahead at once. */
#define AHEAD_MAX 256

void bot_hosts_ahead(struct sandbox *sb)
{
	struct bot_hosts *hs = sandbox_host_starter(sb);
	struct sandbox_ahead *plan = hs ? calloc(AHEAD_MAX, sizeof *plan) : NULL;
	size_t n = plan ? sandbox_host_plan_ahead(sb, plan, AHEAD_MAX) : 0;

	for (size_t i = 0; i < n; i++) {
		struct host_request *rq = calloc(1, sizeof *rq);

		if (!rq) {
			sandbox_host_started(sb, plan[i].id, NULL);
			free(plan[i].key);
			sandbox_host_spec_free(&plan[i].spec);
			continue;
		}
		rq->spec = plan[i].spec;
		rq->ahead = plan[i];
		rq->why = rq->why_ahead;
		rq->why_size = sizeof rq->why_ahead;
		pthread_mutex_lock(&hs->lock);
		enqueue(hs, rq);
		pthread_mutex_unlock(&hs->lock);
	}
	free(plan);
}

void bot_hosts_wait(struct bot_hosts *hs)
{
	if (!hs)
		return;
	pthread_mutex_lock(&hs->lock);
	while (hs->queue || hs->starting)
		pthread_cond_wait(&hs->done, &hs->lock);
	pthread_mutex_unlock(&hs->lock);
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
	if ((ret = sandbox_host_add(spec->sandbox, key, spec, *host)) < 0) {
		bot_stop(*host, 0);
		*host = NULL;
	}
	return ret;
}

/* The descriptors of a game's start: the bot's ends, then the arena's; -1 when closed. */
struct game_fds {
	int bot[4];   /* stdin, stdout, stderr, the game's socket: the host's */
	int own[4];   /* their other ends: the arena's */
};

static void close_four(int fds[4])
{
	for (int i = 0; i < 4; i++)
		bot_close_fd(&fds[i]);
}

/* Pipes and the game's socket, close-on-exec, the arena's ends non-blocking but the socket's. */
static int game_fds_open(struct game_fds *g)
{
	int p[2], one = 1;

	for (int i = 0; i < 3; i++) {
		if (pipe2(p, O_CLOEXEC) < 0)
			return -errno;
		/* stdin: the bot reads; stdout and stderr: the arena does */
		g->bot[i] = i == 0 ? p[0] : p[1];
		g->own[i] = i == 0 ? p[1] : p[0];
		if (bot_fd_nonblock(g->own[i]) < 0)
			return -errno;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p) < 0)
		return -errno;
	g->own[3] = p[0];
	g->bot[3] = p[1];
	/* the pid of the game's pid 1 comes as a credential */
	if (setsockopt(g->own[3], SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0)
		return -errno;
	return 0;
}

/* The game's four descriptors to the host. */
static int send_game(int ctl, const int fds[4])
{
	char what = 'G';
	struct iovec iov = { &what, 1 };
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} c;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.space,
			    .msg_controllen = sizeof c.space };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	ssize_t n;

	memset(&c, 0, sizeof c);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(4 * sizeof(int));
	memcpy(CMSG_DATA(h), fds, 4 * sizeof(int));
	while ((n = sendmsg(ctl, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -EPIPE;
}

/* The game's pid 1 says "P", its pid as a credential: the pid, or 0 (it failed, or too late). */
static pid_t game_pid(int sock)
{
	int64_t end = clock_now_us() + (int64_t)SANDBOX_START_MS * 1000;
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	char what = 0;
	struct iovec iov = { &what, 1 };
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(struct ucred))];
	} c;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.space,
			    .msg_controllen = sizeof c.space };
	struct cmsghdr *h;
	struct ucred cred;
	int64_t left;

	while ((left = (end - clock_now_us()) / 1000) > 0 && poll(&pfd, 1, (int)left) < 0 &&
	       errno == EINTR)
		;
	if (recvmsg(sock, &m, MSG_DONTWAIT) != 1 || what != 'P' || !(h = CMSG_FIRSTHDR(&m)) ||
	    h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_CREDENTIALS)
		return 0;
	memcpy(&cred, CMSG_DATA(h), sizeof cred);
	return cred.pid;
}

/* A game of spec in host: the bot started there, *out its process. */
static int start_game(const struct bot_spec *spec, struct bot *host, struct bot **out, char *why,
		      size_t why_size)
{
	const char *name = spec->name ? spec->name : spec->argv[0];
	struct game_fds g = { { -1, -1, -1, -1 }, { -1, -1, -1, -1 } };
	struct bot *b = calloc(1, sizeof *b);
	pid_t pid;
	int ret;

	if (!b || (ret = game_fds_open(&g)) < 0 || (ret = send_game(host->in_fd, g.bot)) < 0) {
		ret = b ? ret : -ENOMEM;
		snprintf(why, why_size, "bot \"%s\": cannot start it in its sandbox's host: %s", name,
			 strerror(-ret));
		goto fail;
	}
	/* the bot's ends are the host's now: the arena sees the bot's EOF */
	close_four(g.bot);
	if ((pid = game_pid(g.own[3])) <= 0) {
		bot_sandbox_failure(g.own[2], name, why, why_size);
		ret = -EPERM;
		goto fail;
	}
	b->pid = b->init_pid = pid;
	b->init_fd = (int)syscall(SYS_pidfd_open, pid, 0);
	b->in_fd = g.own[0];
	b->out_fd = g.own[1];
	b->err_fd = g.own[2];
	b->game_fd = g.own[3];
	b->log_fd = spec->stderr_path ? bot_open_log(spec->stderr_path) : -1;
	b->log_cap = spec->stderr_cap;
	b->log_total_cap = spec->stderr_total_cap;
	b->sandbox = spec->sandbox;
	b->host = host;
	b->sbx.slot = -1;
	b->sbx.args_fd = b->sbx.seccomp_fd = -1;
	bot_set_stderr_tag(b, NULL);
	*out = b;
	return 0;
fail:
	close_four(g.bot);
	close_four(g.own);
	free(b);
	return ret;
}

int bot_start(const struct bot_spec *spec, struct bot **out, char *why, size_t why_size)
{
	struct bot *host = NULL;
	char *key;
	int ret;

	if (!spec->sandbox || !sandbox_hosts_on(spec->sandbox))
		return bot_spawn(spec, SANDBOX_START_ALONE, out, why, why_size);
	if (!(key = host_key(spec))) {
		snprintf(why, why_size, "bot \"%s\": out of memory", spec->name ? spec->name :
			 spec->argv[0]);
		return -ENOMEM;
	}
	/* a host that died since its last game may look alive until bwrap has exited: one
	 * whose socket is closed is stopped, and another taken */
	for (int tries = 0; tries < 2; tries++) {
		if ((ret = take_host(spec, key, &host, why, why_size)) < 0)
			break;
		if ((ret = start_game(spec, host, out, why, why_size)) != -EPIPE || tries) {
			if (ret < 0)
				sandbox_host_put(spec->sandbox, host);
			break;
		}
		sandbox_host_drop(spec->sandbox, host);
		bot_stop(host, 0);
	}
	free(key);
	return ret;
}
