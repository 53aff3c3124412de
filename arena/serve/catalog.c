/*
 * catalog.c - the tournaments under the roots (contract in catalog.h).
 */
#include "catalog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

const char *const catalog_state_names[3] = { "running", "finished", "stopped" };

struct catalog {
	pthread_mutex_t lock;     /* the entries array, the known directories, scanning */
	char **roots;
	size_t nroots;
	bool missing_ok;
	struct catalog_entry **entries;
	size_t nentries;
	char **known;             /* directories already in an entry */
	size_t nknown;
	double scanned;
	size_t walked;            /* directories looked at in this walk */
};

double catalog_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool is_known(const struct catalog *c, const char *dir)
{
	for (size_t i = 0; i < c->nknown; i++)
		if (!strcmp(c->known[i], dir))
			return true;
	return false;
}

/* The shard set dir belongs to, or NULL. */
static struct catalog_entry *shard_set_of(struct catalog *c, const struct serve_dir_info *info)
{
	for (size_t i = 0; i < c->nentries; i++) {
		struct catalog_entry *e = c->entries[i];
		if (e->shards && e->info[0].nshards == info->nshards &&
		    !strcmp(e->info[0].same, info->same))
			return e;
	}
	return NULL;
}

static struct catalog_entry *new_entry(struct catalog *c, bool shards)
{
	struct catalog_entry **entries = reallocarray(c->entries, c->nentries + 1,
						      sizeof(*entries));
	struct catalog_entry *e;

	if (!entries)
		return NULL;
	c->entries = entries;
	if (!(e = calloc(1, sizeof(*e))))
		return NULL;
	e->id = c->nentries;
	e->shards = shards;
	pthread_mutex_init(&e->lock, NULL);
	serve_records_init(&e->rec);
	e->refreshed = -1e9;
	c->entries[c->nentries++] = e;
	return e;
}

/* A league's board: one that cannot be read yet says why and is read again at each refresh. */
static void open_board(struct catalog_entry *e, const char *dir, int players)
{
	if (!(e->league = malloc(sizeof(*e->league))))
		return;
	if (league_board_open(e->league, dir, players, e->league_err,
			      sizeof(e->league_err)) == -ENOMEM) {
		league_board_release(e->league);
		free(e->league);
		e->league = NULL;
	}
}

/* Put directory dir (its tournament.json read into info, taken over) into an entry. */
static int add_dir(struct catalog *c, const char *dir, struct serve_dir_info *info)
{
	struct catalog_entry *e = info->nshards ? shard_set_of(c, info) : NULL;
	struct serve_dir_info *infos;
	char **known = reallocarray(c->known, c->nknown + 1, sizeof(*known));
	int rc = -ENOMEM;

	if (!known)
		return rc;
	c->known = known;
	if (!e && !(e = new_entry(c, info->nshards > 0)))
		return rc;
	pthread_mutex_lock(&e->lock);
	infos = reallocarray(e->info, e->rec.ndirs + 1, sizeof(*infos));
	if (infos) {
		e->info = infos;
		if ((rc = serve_records_add_dir(&e->rec, dir)) == 0) {
			/* an SPRT whose bounds cannot be a test shows no test */
			if (info->sprt.on && !e->shards)
				serve_records_set_sprt(&e->rec, &info->sprt);
			if (info->league && !e->shards)
				open_board(e, dir, info->players);
			infos[e->rec.ndirs - 1] = *info;
			memset(info, 0, sizeof(*info));
			e->refreshed = -1e9;
		}
	}
	pthread_mutex_unlock(&e->lock);
	if (rc == 0 && !(c->known[c->nknown] = strdup(dir)))
		rc = -ENOMEM;
	c->nknown += rc == 0;
	return rc;
}

static bool skipped_name(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "replays") ||
	       !strcmp(name, "logs") || !strcmp(name, "io");
}

static void walk(struct catalog *c, const char *dir, int depth)
{
	struct serve_dir_info info;
	char err[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;

	if (c->walked++ >= CATALOG_DIRS_MAX)
		return;
	if (!is_known(c, dir) && serve_dir_info_read(dir, &info, err, sizeof(err)) == 0) {
		if (add_dir(c, dir, &info) < 0)
			serve_dir_info_release(&info);
	}
	if (depth >= CATALOG_DEPTH || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;
		if (skipped_name(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		walk(c, path, depth + 1);
	}
	closedir(d);
}

static void scan_locked(struct catalog *c)
{
	c->walked = 0;
	for (size_t i = 0; i < c->nroots; i++)
		walk(c, c->roots[i], 0);
	c->scanned = catalog_now();
}

int catalog_new(const char *const *roots, size_t nroots, bool missing_ok, struct catalog **out,
		char *err, size_t err_size)
{
	struct catalog *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c || !(c->roots = calloc(nroots, sizeof(*c->roots))))
		goto nomem;
	pthread_mutex_init(&c->lock, NULL);
	c->missing_ok = missing_ok;
	for (size_t i = 0; i < nroots; i++) {
		struct stat st;
		if (!missing_ok && (stat(roots[i], &st) < 0 || !S_ISDIR(st.st_mode))) {
			snprintf(err, err_size, "\"%s\": not a directory", roots[i]);
			catalog_free(c);
			return -ENOENT;
		}
		if (!(c->roots[c->nroots++] = strdup(roots[i])))
			goto nomem;
	}
	scan_locked(c);
	*out = c;
	return 0;
nomem:
	snprintf(err, err_size, "out of memory");
	catalog_free(c);
	return -ENOMEM;
}

void catalog_free(struct catalog *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nentries; i++) {
		struct catalog_entry *e = c->entries[i];
		if (e->have_report)
			report_release(&e->report);
		if (e->league)
			league_board_release(e->league);
		free(e->league);
		for (size_t k = 0; k < e->rec.ndirs; k++)
			serve_dir_info_release(&e->info[k]);
		free(e->info);
		serve_records_release(&e->rec);
		pthread_mutex_destroy(&e->lock);
		free(e);
	}
	for (size_t i = 0; i < c->nroots; i++)
		free(c->roots[i]);
	for (size_t i = 0; i < c->nknown; i++)
		free(c->known[i]);
	free(c->roots);
	free(c->known);
	free(c->entries);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void catalog_scan(struct catalog *c)
{
	pthread_mutex_lock(&c->lock);
	/* an empty catalog looks more often: `run --serve` makes its directory after starting */
	if (catalog_now() - c->scanned >= (c->nentries ? CATALOG_SCAN_S : CATALOG_SCAN_S / 10))
		scan_locked(c);
	pthread_mutex_unlock(&c->lock);
}

size_t catalog_count(struct catalog *c)
{
	size_t n;

	pthread_mutex_lock(&c->lock);
	n = c->nentries;
	pthread_mutex_unlock(&c->lock);
	return n;
}

struct catalog_entry *catalog_entry(struct catalog *c, size_t id)
{
	struct catalog_entry *e;

	pthread_mutex_lock(&c->lock);
	e = id < c->nentries ? c->entries[id] : NULL;
	pthread_mutex_unlock(&c->lock);
	return e;
}

void catalog_lock(struct catalog_entry *e)
{
	pthread_mutex_lock(&e->lock);
}

void catalog_unlock(struct catalog_entry *e)
{
	pthread_mutex_unlock(&e->lock);
}

static uint64_t records_of(const struct catalog_entry *e)
{
	uint64_t n = 0;

	for (size_t k = 0; k < e->rec.ndirs; k++)
		n += e->rec.dirs[k].records;
	return n;
}

static void take_sample(struct catalog_entry *e, double now)
{
	if (e->nsamples && now - e->sample_t[(e->nsamples - 1) % CATALOG_SAMPLES] < 1.0)
		return;
	e->sample_t[e->nsamples % CATALOG_SAMPLES] = now;
	e->sample_n[e->nsamples % CATALOG_SAMPLES] = records_of(e);
	e->nsamples++;
}

void catalog_refresh(struct catalog_entry *e, bool force)
{
	double now = catalog_now();
	char err[256];

	if (!force && now - e->refreshed < CATALOG_REFRESH_S)
		return;
	e->refreshed = now;
	if (serve_records_update(&e->rec, err, sizeof(err)) < 0)
		snprintf(e->report_err, sizeof(e->report_err), "%s", err);
	if (e->rec.generation != e->sample_generation) {
		/* read again from the start: the old fit names bots of a gamelog that is gone,
		 * and earlier counts mean nothing */
		if (e->have_report)
			report_release(&e->report);
		e->have_report = false;
		e->nsamples = 0;
		e->sample_generation = e->rec.generation;
	}
	take_sample(e, now);
	e->league_err[0] = '\0';
	if (e->league)
		league_board_refresh(e->league, e->league_err, sizeof(e->league_err));
}

/* A league's anchors fixed as `report DIR` fixes them (cmd_report.c), from the board's last
 * good league.jsonc; the defaults otherwise. */
static void fit_options(const struct catalog_entry *e, struct report_options *opt)
{
	*opt = report_defaults;
	if (e->league && e->league->have_cfg) {
		opt->fixed_names = (const char *const *)e->league->cfg.anchors;
		opt->fixed_elo = e->league->cfg.anchor_elo;
		opt->nfixed = e->league->cfg.nanchors;
	}
}

void catalog_fit(struct catalog_entry *e)
{
	double now = catalog_now();
	uint64_t cfg = e->league ? e->league->cfg_generation : 0;
	struct report_options opt;

	if (e->have_report && e->report_cfg == cfg &&
	    (e->report_n == e->rec.ngames || now - e->report_built < CATALOG_REFIT_S))
		return;
	if (!e->have_report && e->report_n == e->rec.ngames && now - e->report_built <
	    CATALOG_REFIT_S)
		return; /* no records yet: asked again soon */
	if (e->have_report)
		report_release(&e->report);
	fit_options(e, &opt);
	e->have_report = serve_records_report(&e->rec, &opt, &e->report, e->report_err,
					      sizeof(e->report_err)) == 0;
	e->report_cfg = cfg;
	e->report_n = e->rec.ngames;
	e->report_records = e->rec.log.records;
	e->report_built = now;
}

/* Games per second over the last half minute of samples (or the oldest kept). */
static double rate(const struct catalog_entry *e)
{
	size_t n = e->nsamples < CATALOG_SAMPLES ? e->nsamples : CATALOG_SAMPLES;
	size_t last = (e->nsamples - 1) % CATALOG_SAMPLES;
	double t1, t0;
	uint64_t n1, n0;

	if (n < 2)
		return NAN;
	t1 = e->sample_t[last];
	n1 = e->sample_n[last];
	t0 = t1;
	n0 = n1;
	for (size_t k = 1; k < n; k++) {
		size_t i = (e->nsamples - 1 - k) % CATALOG_SAMPLES;
		if (t0 != t1 && t1 - e->sample_t[i] > 30.0)
			break;
		t0 = e->sample_t[i];
		n0 = e->sample_n[i];
	}
	return t1 - t0 >= 1.0 && n1 >= n0 ? (double)(n1 - n0) / (t1 - t0) : NAN;
}

enum catalog_state catalog_dir_state(const struct catalog_entry *e, size_t k)
{
	const struct serve_dir *d = &e->rec.dirs[k];

	/* an SPRT ends at its decision, before its last scheduled deal; a league never ends */
	if ((!e->info[k].league && d->records >= e->info[k].scheduled) ||
	    (e->rec.sprt && sprt_status(&e->rec.sprt->test) != SPRT_CONTINUE))
		return CATALOG_FINISHED;
	if (d->mtime && time(NULL) - d->mtime <= CATALOG_RUNNING_S)
		return CATALOG_RUNNING;
	return CATALOG_STOPPED;
}

void catalog_progress(const struct catalog_entry *e, struct catalog_progress *p)
{
	bool running = false, all_finished = true;

	memset(p, 0, sizeof(*p));
	for (size_t k = 0; k < e->rec.ndirs; k++) {
		enum catalog_state s = catalog_dir_state(e, k);
		/* a league's games so far are all it must hold */
		p->scheduled += e->info[k].league ? e->rec.dirs[k].records : e->info[k].scheduled;
		running |= s == CATALOG_RUNNING;
		all_finished &= s == CATALOG_FINISHED;
		if (e->rec.dirs[k].mtime > p->last_record)
			p->last_record = e->rec.dirs[k].mtime;
	}
	p->games = records_of(e);
	if (e->league)
		p->games_today = league_board_games_today(e->league, p->games);
	/* a shard set is finished when every shard of it is there and finished */
	if (e->shards && e->rec.ndirs && e->rec.ndirs < e->info[0].nshards)
		all_finished = false;
	p->state = all_finished ? CATALOG_FINISHED : running ? CATALOG_RUNNING : CATALOG_STOPPED;
	p->games_per_s = p->state == CATALOG_RUNNING ? rate(e) : NAN;
	p->eta_s = NAN;
	if (p->state == CATALOG_RUNNING && p->games_per_s > 0 && p->scheduled > p->games)
		p->eta_s = (double)(p->scheduled - p->games) / p->games_per_s;
}
