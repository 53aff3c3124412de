/*
 * challenge_play.c - the challenges asked through host's API played one at
 * a time (challenge_play.h).
 */
#include "challenge_play.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "challenges.h"
#include "league_entries.h"
#include "league_run.h"
#include "reaper.h"
#include "records.h"

#define IDLE_US 500000
#define POLL_US 50000
/* the challenge's processes give way to the league's games */
#define CHALLENGE_NICE 10

extern char **environ;

struct challenge_play {
	pthread_t thread;
	atomic_bool stop;
	char *dir, *arena;
};

struct tally {
	const char *names[2];
	long games, won[2];
};

static int count_game(void *ctx, const struct results_record *rec)
{
	struct tally *t = ctx;
	const struct record *r = rec->record;

	t->games++;
	for (int s = 0; s < r->players; s++)
		for (int k = 0; k < 2; k++)
			if (r->winner[s] && r->bots[s] && !strcmp(r->bots[s], t->names[k]))
				t->won[k]++;
	return 0;
}

/* Run the challenge's command until it ends: its exit status, or -1 when stopped or
 * not started. */
static int run(struct challenge_play *cp, const struct challenge *c, const char *log)
{
	char deals[16], *argv[] = { cp->arena, "league", "challenge", "--deals", deals,
				    "-j", "1", cp->dir, c->bot, c->opponent, NULL };
	int fd, status = 0;
	pid_t pid;

	snprintf(deals, sizeof(deals), "%d", c->deals);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -1;
	/* the arena's reaper takes any child it does not know for an orphan */
	reaper_hold();
	if ((pid = fork()) == 0) {
		setpgid(0, 0);
		if (setpriority(PRIO_PROCESS, 0, CHALLENGE_NICE) < 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0)
			_exit(127);
		execve(cp->arena, argv, environ);
		_exit(127);
	}
	if (pid > 0 && reaper_track(pid) < 0)
		kill(pid, SIGKILL);
	reaper_release();
	close(fd);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (atomic_load(&cp->stop)) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			reaper_forget(pid);
			return -1;
		}
		usleep(POLL_US);
	}
	reaper_forget(pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Play challenge c and write how it ended. */
static void play(struct challenge_play *cp, struct challenges *cs, const struct challenge *c)
{
	char log[PATH_MAX], out[PATH_MAX], why[2 * PATH_MAX], err[PATH_MAX + 256];
	struct tally t = { { NULL, NULL }, 0, { 0, 0 } };
	struct league_entries es;
	uint64_t id = c->id;
	int status, found[2] = { -1, -1 };

	snprintf(out, sizeof(out), "%s/challenges", cp->dir);
	mkdir(out, 0755);
	snprintf(log, sizeof(log), "%s/challenges/%llu.log", cp->dir, (unsigned long long)id);
	status = run(cp, c, log);
	if (status < 0 && atomic_load(&cp->stop))
		return;
	why[0] = '\0';
	if (status != 0) {
		snprintf(why, sizeof(why), "the challenge ended with status %d: see "
			 "challenges/%llu.log", status, (unsigned long long)id);
	} else if (league_entries_open(&es, cp->dir, err, sizeof(err)) < 0) {
		snprintf(why, sizeof(why), "its games cannot be counted: %s", err);
	} else {
		/* the names its directory was made of: the versions the challenge played */
		for (int k = 0; k < 2; k++)
			found[k] = league_entries_find(&es, k ? c->opponent : c->bot);
		if (found[0] < 0 || found[1] < 0 ||
		    league_challenge_dir(out, sizeof(out), cp->dir, es.e[found[0]].name,
					 es.e[found[1]].name, c->deals) < 0)
			snprintf(why, sizeof(why), "an entry of the challenge is gone");
		else {
			t.names[0] = es.e[found[0]].name;
			t.names[1] = es.e[found[1]].name;
			if (records_scan_dir(out, count_game, &t, err, sizeof(err)) < 0)
				snprintf(why, sizeof(why), "its games cannot be counted: %s", err);
		}
		league_entries_release(&es);
	}
	if (challenges_finish(cs, id, t.games, t.won, why[0] ? why : NULL, err, sizeof(err)) < 0)
		fprintf(stderr, "host: challenge %llu: %s\n", (unsigned long long)id, err);
}

static void *loop(void *arg)
{
	struct challenge_play *cp = arg;

	while (!atomic_load(&cp->stop)) {
		struct challenges cs;
		const struct challenge *c = NULL;
		char err[PATH_MAX + 256];

		if (challenges_open(&cs, cp->dir, err, sizeof(err)) < 0) {
			usleep(IDLE_US);
			continue;
		}
		if ((c = challenges_next(&cs)))
			play(cp, &cs, c);
		challenges_release(&cs);
		if (!c)
			usleep(IDLE_US);
	}
	return NULL;
}

int challenge_play_start(const char *dir, const char *arena, struct challenge_play **out,
			 char *err, size_t err_size)
{
	struct challenge_play *cp = calloc(1, sizeof(*cp));
	int ret;

	*out = NULL;
	if (!cp || !(cp->dir = strdup(dir)) || !(cp->arena = strdup(arena))) {
		ret = -ENOMEM;
		goto fail;
	}
	atomic_init(&cp->stop, false);
	if ((ret = -pthread_create(&cp->thread, NULL, loop, cp)) < 0)
		goto fail;
	*out = cp;
	return 0;
fail:
	snprintf(err, err_size, "cannot start playing challenges: %s", strerror(-ret));
	if (cp) {
		free(cp->dir);
		free(cp->arena);
	}
	free(cp);
	return ret;
}

void challenge_play_stop(struct challenge_play *cp)
{
	if (!cp)
		return;
	atomic_store(&cp->stop, true);
	pthread_join(cp->thread, NULL);
	free(cp->dir);
	free(cp->arena);
	free(cp);
}
