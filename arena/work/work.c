/*
 * work.c - the worker's loop: ask, fetch, play, send (contract in work.h).
 */
#include "work.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bundle.h"
#include "config.h"
#include "lease.h"
#include "lease_source.h"
#include "play_here.h"
#include "sandbox.h"
#include "tournament.h"
#include "work_http.h"
#include "work_sender.h"

/* The longest wait between two asks, whatever the host says. */
#define WORK_RETRY_MAX_S 60
/* The wait after a failure the host did not time (no answer, an error). */
#define WORK_RETRY_FAILED_S 10
/* play_lease(): a lease that could not be played (released), asked again after a wait. */
#define WORK_NOT_PLAYED 1

static volatile sig_atomic_t stopping;

void work_request_stop(void)
{
	stopping = 1;
	tournament_request_stop();
}

/* What one lease needs while it is played. */
struct play {
	const struct work_settings *set;
	struct work_http *http;
	struct lease lease;
	struct work_sender sender;
	char dir[PATH_MAX];         /* the run's directory, "" before it is made */
};

/*
 * Sleep about s seconds (at most WORK_RETRY_MAX_S), a quarter more or less at
 * random so that workers started together spread out; a stop ends it.
 */
static void nap(long s)
{
	unsigned r = 0;
	uint64_t ms;
	struct timespec t;

	if (s < 1)
		s = 1;
	if (s > WORK_RETRY_MAX_S)
		s = WORK_RETRY_MAX_S;
	(void)getrandom(&r, sizeof(r), GRND_NONBLOCK);
	ms = (uint64_t)s * 750 + r % ((uint64_t)s * 500 + 1);
	if (ms > WORK_RETRY_MAX_S * 1000)
		ms = WORK_RETRY_MAX_S * 1000;
	/* in steps, so a stop is seen within one */
	while (ms > 0 && !stopping) {
		uint64_t step = ms < 200 ? ms : 200;

		t.tv_sec = 0;
		t.tv_nsec = (long)step * 1000000;
		nanosleep(&t, NULL);
		ms -= step;
	}
}

/* The bundles in the cache, as the ask lists them: a new array, or NULL. */
static cJSON *cached_bundles(const char *cache)
{
	cJSON *list = cJSON_CreateArray();
	DIR *d = opendir(cache);
	struct dirent *e;

	if (!list || !d) {
		if (d)
			closedir(d);
		return list;
	}
	while ((e = readdir(d)))
		if (strlen(e->d_name) == BUNDLE_HASH_LEN &&
		    strspn(e->d_name, "0123456789abcdef") == BUNDLE_HASH_LEN &&
		    bundle_present(cache, e->d_name))
			cJSON_AddItemToArray(list, cJSON_CreateString(e->d_name));
	closedir(d);
	return list;
}

/* POST /api/work/lease: 0 with the answer in *a, or -EIO after saying why. */
static int ask(const struct work_settings *set, struct work_http *http, struct work_answer *a)
{
	cJSON *doc = cJSON_CreateObject();
	char *body = NULL, err[PATH_MAX];
	int ret = -EIO;

	if (doc) {
		cJSON_AddStringToObject(doc, "version", SKIPBO_VERSION);
		cJSON_AddNumberToObject(doc, "cpus", set->cpus);
		cJSON_AddNumberToObject(doc, "jobs", set->jobs);
		cJSON_AddItemToObject(doc, "bundles", cached_bundles(set->cache));
		body = cJSON_PrintUnformatted(doc);
		cJSON_Delete(doc);
	}
	if (!body)
		fprintf(set->log, "work: out of memory\n");
	else if ((ret = work_http_request(http, "POST", "api/work/lease", "application/json",
					  body, strlen(body), WORK_HTTP_ANSWER_MAX, a, err,
					  sizeof(err))) < 0)
		fprintf(set->log, "work: asking for work: %s\n", err);
	free(body);
	return ret < 0 ? -EIO : 0;
}

/* POST .../release with why; what goes wrong is only said (the lease then expires). */
static void release(struct play *p, const char *why)
{
	struct work_answer a;
	char path[LEASE_ID_MAX + 64], err[512], *body;
	cJSON *doc = cJSON_CreateObject();

	cJSON_AddStringToObject(doc, "why", why);
	body = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	snprintf(path, sizeof(path), "api/work/leases/%s/release", p->lease.id);
	if (!body || work_http_request(p->http, "POST", path, "application/json", body,
				       strlen(body), WORK_HTTP_ANSWER_MAX, &a, err,
				       sizeof(err)) < 0) {
		fprintf(p->set->log, "work: lease %s not released (it expires): %s\n",
			p->lease.id, body ? err : "out of memory");
	} else {
		if (a.status != 200 && a.status != 204) {
			work_answer_reason(&a, err, sizeof(err));
			fprintf(p->set->log, "work: lease %s: release refused (HTTP %ld): %s\n",
				p->lease.id, a.status, err);
		}
		work_answer_release(&a);
	}
	free(body);
}

/* Each bundle of the lease that the cache lacks, fetched and unpacked: 0, or
 * -1 with why in why. */
static int fetch_bundles(struct play *p, char *why, size_t size)
{
	for (size_t i = 0; i < p->lease.nbots; i++) {
		const char *sha = p->lease.bots[i].bundle;
		struct work_answer a;
		char path[BUNDLE_HASH_LEN + 64], err[512];
		int ret;

		if (!sha[0] || bundle_present(p->set->cache, sha))
			continue;
		snprintf(path, sizeof(path), "api/work/bundles/%s", sha);
		if (work_http_request(p->http, "GET", path, NULL, NULL, 0, BUNDLE_MAX_BYTES, &a,
				      err, sizeof(err)) < 0) {
			snprintf(why, size, "bundle %s not fetched: %s", sha, err);
			return -1;
		}
		if (a.status != 200) {
			work_answer_reason(&a, err, sizeof(err));
			snprintf(why, size, "bundle %s refused (HTTP %ld): %s", sha, a.status, err);
			work_answer_release(&a);
			return -1;
		}
		ret = bundle_unpack(p->set->cache, sha, a.body, a.len, err, sizeof(err));
		work_answer_release(&a);
		if (ret < 0) {
			snprintf(why, size, "bundle %s: %s", sha, err);
			return -1;
		}
	}
	return 0;
}

static void on_game(void *ctx, const struct schedule_game *g, const int *placings, int faults)
{
	(void)g;
	(void)placings;
	(void)faults;
	/* a stop that came before the run began listening for one */
	if (stopping)
		tournament_request_stop();
	work_sender_counted(ctx);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * The lease's tournament (cfg, its directory made) played and sent. 0 when
 * the lease is over (played, dropped, or released), or a negative errno
 * after the message when the worker must stop (no sandbox, no memory).
 */
static int play_games(struct play *p, struct config *cfg)
{
	struct tournament_options topt = { 0 };
	struct lease_source src;
	const char *hide[] = { p->dir };
	struct timespec t0;
	char err[CONFIG_ERR_MAX];
	int ret, sent;

	if ((ret = p->set->open_sandbox(cfg, hide, 1, &topt.sandbox)) >= 0) {
		release(p, "no sandbox on this worker");
		return -ENOTSUP;
	}
	if ((ret = lease_source_init(&src, &p->lease, cfg, err, sizeof(err))) < 0) {
		fprintf(p->set->log, "work: lease %s: %s\n", p->lease.id, err);
		release(p, err);
		sandbox_close(topt.sandbox);
		return ret == -ENOMEM ? ret : 0;
	}
	if ((ret = work_sender_start(&p->sender, &p->lease, p->dir, p->set->url, p->set->token,
				     p->set->cacert, p->set->log, err, sizeof(err))) < 0) {
		fprintf(p->set->log, "work: %s\n", err);
		release(p, "the worker could not start sending");
		lease_source_release(&src);
		sandbox_close(topt.sandbox);
		return ret;
	}
	topt.quiet = 1;
	topt.source = &src.source;
	topt.on_game = on_game;
	topt.game_ctx = &p->sender;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = stopping ? 1 : tournament_run(cfg, &topt, err, sizeof(err));
	sent = work_sender_finish(&p->sender, ret == 0);
	if (ret < 0)
		fprintf(p->set->log, "work: lease %s: %s\n", p->lease.id, err);
	/* a lease the host has ended (409) is neither released nor counted */
	if (sent != -ESTALE && ret != 0)
		release(p, ret < 0 ? err : "stopping");
	else if (sent != -ESTALE)
		fprintf(p->set->log, "work: lease %s: %zu games in %.1f s, %.2f games/s%s\n",
			p->lease.id, p->lease.ngames, seconds_since(&t0),
			(double)p->lease.ngames / seconds_since(&t0),
			sent ? "" : "; some were not sent: the host plays them again");
	lease_source_release(&src);
	sandbox_close(topt.sandbox);
	return 0;
}

/* The settings' sandbox unless --sandbox says otherwise. */
static void choose_sandbox(const struct play *p, struct config *cfg)
{
	enum sandbox_mode mode = SANDBOX_AUTO;

	if (p->set->sandbox >= 0)
		mode = (enum sandbox_mode)p->set->sandbox;
	else if (p->lease.sandbox && sandbox_mode_parse(p->lease.sandbox, &mode) < 0)
		mode = SANDBOX_AUTO;
	cfg->sandbox = (int)mode;
}

/*
 * One lease (its answer's body) played: 0; WORK_NOT_PLAYED when it was
 * released unplayed for a reason that a lease of other bots does not remove
 * (a lease that cannot be read, a bundle that cannot be had); or a negative
 * errno when the worker must stop.
 */
static int play_lease(const struct work_settings *set, struct work_http *http,
		      const struct work_answer *a)
{
	struct play p = { .set = set, .http = http };
	struct config cfg = { 0 };
	char err[CONFIG_ERR_MAX], missing[PATH_MAX], why[PATH_MAX + 64];
	const char *tmp = getenv("TMPDIR");
	int ret, gone;

	if ((ret = lease_parse(a->body, a->len, &p.lease, err, sizeof(err))) < 0) {
		fprintf(set->log, "work: %s\n", err);
		if (p.lease.id[0])
			release(&p, err);
		lease_release(&p.lease);
		return ret == -ENOMEM ? ret : WORK_NOT_PLAYED;
	}
	if (fetch_bundles(&p, why, sizeof(why)) < 0) {
		fprintf(set->log, "work: lease %s: %s\n", p.lease.id, why);
		release(&p, why);
		ret = WORK_NOT_PLAYED;
		goto out;
	}
	ret = lease_config(&p.lease, set->cache, &cfg, missing, sizeof(missing), err, sizeof(err));
	if (ret == -ENOENT) {
		snprintf(why, sizeof(why), "lacks %s", missing);
		fprintf(set->log, "work: lease %s: this machine %s\n", p.lease.id, why);
		release(&p, why);
		ret = 0;
		goto out;
	}
	if (ret < 0) {
		fprintf(set->log, "work: lease %s: its tournament: %s\n", p.lease.id, err);
		release(&p, err);
		ret = ret == -ENOMEM ? ret : WORK_NOT_PLAYED;
		goto out;
	}
	cfg.concurrency = set->jobs;
	/* pinned only when its games fill every CPU it may use: workers that share
	 * a machine would each pin their first game to the same CPU */
	cfg.pin = set->jobs >= set->cpus;
	/* the host takes a game only with its replay */
	cfg.replays = CONFIG_REPLAYS_ALL;
	choose_sandbox(&p, &cfg);
	snprintf(p.dir, sizeof(p.dir), "%s/skipbo-work-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	free(cfg.output);
	if (!mkdtemp(p.dir) || !(cfg.output = strdup(p.dir))) {
		ret = -errno;
		snprintf(why, sizeof(why), "no directory to play in (TMPDIR): %s", strerror(errno));
		fprintf(set->log, "work: %s\n", why);
		p.dir[0] = '\0';
		release(&p, why);
		goto out;
	}
	ret = play_games(&p, &cfg);
out:
	if (p.dir[0] && (gone = play_here_remove(p.dir)) < 0)
		fprintf(set->log, "work: %s not removed: %s\n", p.dir, strerror(-gone));
	config_release(&cfg);
	lease_release(&p.lease);
	return ret;
}

/* A refusal of the ask that ends the worker, said in err: the code, or 0 when not one. */
static int refused(const struct work_answer *a, char *err, size_t err_size)
{
	char why[512];

	work_answer_reason(a, why, sizeof(why));
	switch (a->status) {
	case 401:
		snprintf(err, err_size, "the host does not know this token: %s (ask its organiser "
			 "for a worker's token: skipbo-arena host account add --worker)", why);
		return -EACCES;
	case 403:
		snprintf(err, err_size, "the host refuses this worker: %s (ask its organiser)", why);
		return -EPERM;
	case 409:
		snprintf(err, err_size, "the host runs another version: %s (this worker is %s: "
			 "install the host's version of skipbo-arena)", why, SKIPBO_VERSION);
		return -EPROTO;
	default:
		return 0;
	}
}

int work_run(const struct work_settings *set, char *err, size_t err_size)
{
	struct work_http http;
	int ret;

	if (mkdir(set->cache, 0700) < 0 && errno != EEXIST) {
		ret = -errno;
		snprintf(err, err_size, "the bundles' cache \"%s\": %s (--cache DIR chooses "
			 "another)", set->cache, strerror(errno));
		return ret;
	}
	if ((ret = work_http_init(&http, set->url, set->token, set->cacert, err, err_size)) < 0)
		return ret;
	while (!stopping) {
		struct work_answer a;

		if (ask(set, &http, &a) < 0) {
			nap(WORK_RETRY_FAILED_S);
			continue;
		}
		if ((ret = refused(&a, err, err_size)) < 0) {
			work_answer_release(&a);
			break;
		}
		if (a.status == 204) {
			nap(a.retry_after >= 0 ? a.retry_after : WORK_RETRY_FAILED_S);
		} else if (a.status != 200) {
			char why[512];

			work_answer_reason(&a, why, sizeof(why));
			fprintf(set->log, "work: asking for work: HTTP %ld: %s\n", a.status, why);
			nap(WORK_RETRY_FAILED_S);
		} else if ((ret = play_lease(set, &http, &a)) < 0) {
			if (ret == -ENOTSUP)
				snprintf(err, err_size, "no sandbox for the bots on this machine (said "
					 "above): fix that, or choose --sandbox auto or off");
			else
				snprintf(err, err_size, "%s", strerror(-ret));
			work_answer_release(&a);
			break;
		} else if (set->once) {
			work_answer_release(&a);
			break;
		} else if (ret == WORK_NOT_PLAYED) {
			/* the host may hand the same again: not at once */
			nap(WORK_RETRY_FAILED_S);
		}
		work_answer_release(&a);
	}
	work_http_release(&http);
	return ret < 0 ? ret : 0;
}
