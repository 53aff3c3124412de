/*
 * tournament.c - workers and pools over a source of games (contract in tournament.h).
 */
#include "tournament.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "desk.h"
#include "durable.h"
#include "jsonw.h"
#include "pool.h"
#include "programs.h"
#include "record.h"
#include "progress.h"
#include "referee.h"
#include "replay.h"
#include "replay_file.h"
#include "committer.h"
#include "results.h"
#include "sandbox.h"
#include "schedule_source.h"
#include "transcript.h"

/* Games a worker holds with fresh processes: its next game and those after,
 * whose bot processes start while it plays (pool.h). A sandbox of its own
 * takes milliseconds (tens under load) to start; a process from a host
 * (sandbox.h) one or two, and each process alive at once holds a host. */
#define TOURNAMENT_AHEAD 4
#define TOURNAMENT_AHEAD_HOSTS 2
/* take_game(): the next game to play is of a later rotation phase. */
#define TAKE_LATER (-2)

static volatile sig_atomic_t stop_requested;

void tournament_request_stop(void)
{
	stop_requested = 1;
}

struct run {
	const struct config *cfg;
	const struct tournament_options *opt;
	const struct tournament_source *src;
	struct results *results;
	struct progress *progress;
	struct bot_spec *specs;
	char **log_paths;
	const char **names;
	uint64_t recorded;          /* games found recorded by the resume */
	pthread_mutex_t lock;       /* the source, progress, error, the barrier */
	/* the barrier between rotation phases (tournament.h), with fresh processes */
	int phased;
	int hosts;                  /* fresh processes come from the sandbox's hosts */
	int active, idle;           /* workers not finished; those waiting at the barrier */
	uint64_t passes;            /* times the barrier opened */
	uint64_t ahead_passes;      /* passes + 1 once the next phase's hosts were started */
	pthread_cond_t barrier;
	uint64_t played;            /* games played by this run */
	int error;
	char err[PATH_MAX + 512];
	int cpus[CPU_SETSIZE];
	int ncpus;
	/* the desk's games (tournament_options.desk) */
	struct committer *desk_com;
	pthread_mutex_t desk_lock;  /* desk_com, one game at a time */
	int desk_dry;               /* the source's next_groups last answered 0 */
	pthread_cond_t desk_took;   /* under lock: next_groups answered */
};

struct worker {
	struct run *run;
	int index;
	pthread_t thread;
};

/* A record found on resume (checked by results_scan): counted when the source says so. */
static int on_record(void *ctx, const struct results_record *rec)
{
	struct run *r = ctx;
	struct schedule_game g;
	int ret;

	if (stop_requested)
		return -EINTR;
	if ((ret = r->src->recorded(r->src->ctx, rec, &g)) <= 0)
		return ret;
	r->recorded++;
	progress_game(r->progress, g.bots, rec->placings, rec->players, 0);
	if (r->opt->on_game) {
		/* the resume reads only the keys; the faults from the record's tree */
		const cJSON *tree = record_tree(rec->reader, rec->line, rec->length - 1);

		r->opt->on_game(r->opt->game_ctx, &g, rec->placings,
				cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tree, "faults")));
	}
	return 0;
}

/* Neither stopped nor failed: a game a worker holds may still be played. */
static int still_running(struct run *r)
{
	int going;

	pthread_mutex_lock(&r->lock);
	going = !stop_requested && !r->error;
	pthread_mutex_unlock(&r->lock);
	return going;
}

/* The source's next game into *g: 1, or 0 when none is left; TAKE_LATER when it is
 * of a phase after the open one. */
static int take_game(struct run *r, struct schedule_game *g)
{
	int got = 0;

	if (r->src->poll)
		r->src->poll(r->src->ctx);
	pthread_mutex_lock(&r->lock);
	if (!stop_requested && !r->error) {
		got = r->src->next(r->src->ctx, g);
		/* a source without a barrier to wait at has no later phase */
		got = got == TOURNAMENT_SOURCE_LATER ? (r->phased ? TAKE_LATER : 0) : got > 0;
	}
	pthread_mutex_unlock(&r->lock);
	return got;
}

/* Under the lock: once every worker still running waits at the barrier, open the phase
 * of the next game and let them go. */
static void open_phase(struct run *r)
{
	if (!r->phased || r->idle < r->active)
		return;
	/* no bot runs: nothing a host kept crosses into the next phase (sandbox.h) */
	sandbox_end_phase(r->opt->sandbox);
	r->src->open_phase(r->src->ctx);
	r->idle = 0;
	r->passes++;
	pthread_cond_broadcast(&r->barrier);
}

/*
 * The barrier between two phases, for a worker holding no game, whose
 * processes are all reaped (pool_drain): it waits until every other worker
 * is there too (or has finished), so no process of the next phase starts
 * while one of the last is alive. A stop or failure ends the wait when the
 * other workers finish.
 */
static void pass_barrier(struct run *r)
{
	uint64_t passes;

	pthread_mutex_lock(&r->lock);
	passes = r->passes;
	r->idle++;
	open_phase(r);
	while (passes == r->passes && !stop_requested && !r->error)
		pthread_cond_wait(&r->barrier, &r->lock);
	if (passes == r->passes)
		r->idle--;
	pthread_mutex_unlock(&r->lock);
}

/*
 * The phase's last games are handed out: the first worker to see it has
 * the next phase's hosts started while they are played (sandbox.h).
 */
static void hosts_ahead(struct run *r)
{
	bool first;

	if (!r->hosts)
		return;
	pthread_mutex_lock(&r->lock);
	first = r->ahead_passes != r->passes + 1;
	r->ahead_passes = r->passes + 1;
	pthread_mutex_unlock(&r->lock);
	if (first)
		sandbox_start_hosts_ahead(r->opt->sandbox);
}

/* A worker is finished (its processes reaped): the barrier waits for it no more. */
static void leave_barrier(struct run *r, int workers)
{
	pthread_mutex_lock(&r->lock);
	r->active -= workers;
	open_phase(r);
	pthread_mutex_unlock(&r->lock);
}

static void fail_run(struct run *r, int code, const char *what, const char *detail)
{
	pthread_mutex_lock(&r->lock);
	if (!r->error) {
		r->error = code;
		snprintf(r->err, sizeof(r->err), "%.*s: %.400s", PATH_MAX, what, detail);
	}
	pthread_mutex_unlock(&r->lock);
}

/* Games made durable by a worker's committer (committer.h): counted, and the ranking
 * printed when its interval comes, since games.jsonl now holds them. */
static void on_counted(void *ctx, const struct committed_game *games, int n)
{
	struct run *r = ctx;

	pthread_mutex_lock(&r->lock);
	for (int i = 0; i < n; i++) {
		progress_game(r->progress, games[i].game.bots, games[i].placings, games[i].players, 1);
		if (r->src->counted)
			r->src->counted(r->src->ctx, &games[i]);
		if (r->opt->on_game)
			r->opt->on_game(r->opt->game_ctx, &games[i].game, games[i].placings,
					games[i].faults);
		if (r->opt->rating_interval && ++r->played % r->opt->rating_interval == 0 &&
		    r->opt->on_interval) {
			progress_break(r->progress);
			r->opt->on_interval(r->opt->interval_ctx, r->played);
		}
	}
	progress_tick(r->progress);
	pthread_mutex_unlock(&r->lock);
}

static void on_commit_failed(void *ctx, int code, const char *what, const char *detail)
{
	fail_run(ctx, code, what, detail);
}

/*
 * Would processes started ahead crowd a bot's process limit? Not in a
 * sandbox, where the limit counts the sandbox's processes alone, nor
 * unsandboxed as root, whose RLIMIT_NPROC is not enforced (bot.h).
 * Unsandboxed as another user the limit counts every process of the user:
 * the games held ahead, the games played and the processes being ended must
 * fit under the smallest limit, or no process is started ahead.
 */
static int crowds_process_limit(const struct config *cfg, bool sandboxed)
{
	long need = (long)cfg->concurrency * (TOURNAMENT_AHEAD + 2) * cfg->players;

	if (sandboxed || geteuid() == 0)
		return 0;
	for (size_t i = 0; i < cfg->nbots; i++)
		if (cfg->bots[i].limits.processes > 0 && cfg->bots[i].limits.processes < need)
			return 1;
	return 0;
}

/* Have the bots of game g started (fresh processes; nothing when they are reused). */
static void prepare_game(struct pool *pool, const struct schedule_game *g, int players)
{
	for (int s = 0; s < players; s++)
		pool_prepare(pool, (size_t)g->bots[s]);
}

/* The seats of out whose bot never started, a bit each. */
static unsigned start_faulted(const struct referee_outcome *out)
{
	unsigned seats = 0;

	for (size_t i = 0; i < out->nfaults; i++)
		if (out->faults[i].kind == PROTOCOL_FAULT_START)
			seats |= 1u << out->faults[i].seat;
	return seats;
}

/* Play one scheduled game and hand its replay and record to the worker's committer. */
static int play_one(struct worker *w, struct pool *pool, struct transcript *tr,
		    struct jsonw *doc, struct jsonw *buf, struct committer *com,
		    const struct schedule_game *game)
{
	struct run *r = w->run;
	const struct config *cfg = r->cfg;
	struct referee_setup setup = { 0 };
	struct game_rules rules;
	struct referee_outcome out = { 0 };
	struct schedule_game g = *game;
	const char *names[ENGINE_MAX_PLAYERS];
	struct replay_location at;
	char path[PATH_MAX], err[256], told[SCHEDULE_ID_MAX];
	int ret, replay;

	/* the bots are told an id that names no table, deal or rotation: the source's
	 * when it has one (a lease's, made by the host with its seed), else ours */
	if (g.told[0])
		strlcpy(told, g.told, sizeof(told));
	else
		referee_opaque_id(cfg->seed, g.id, told);
	if (r->opt->log_io) {
		snprintf(path, sizeof(path), "%s/io/%s.log", cfg->output, g.id);
		if ((ret = transcript_open(tr, path)) < 0) {
			fail_run(r, ret, path, strerror(-ret));
			return ret;
		}
	}
	rules = (struct game_rules){ .players = cfg->players, .stock_size = cfg->stock_size,
				     .partnership = cfg->partnership, .seed = g.seed };
	referee_setup_init(&setup, g.id, &rules, cfg->move_ms, cfg->game_ms);
	setup.bot_id = told;
	setup.match = cfg->match;
	setup.observer = r->opt->log_io ? &tr->observer : r->opt->observer;
	setup.keep_stderr = r->opt->log_io;
	for (int s = 0; s < cfg->players; s++) {
		if ((ret = pool_acquire(pool, (size_t)g.bots[s], &setup.seats[s])) < 0) {
			fail_run(r, ret, "starting bots", strerror(-ret));
			goto out;
		}
		names[s] = setup.seats[s].name;
	}
	if ((ret = referee_play(&setup, &out, err, sizeof(err))) < 0) {
		fail_run(r, ret, g.id, err);
		goto out;
	}
	for (int s = 0; s < cfg->players; s++)
		pool_release(pool, (size_t)g.bots[s], out.faulted[s]);
	replay = cfg->replays == CONFIG_REPLAYS_ALL ||
		 (cfg->replays == CONFIG_REPLAYS_FAULTS && out.nfaults > 0);
	{
		struct replay_info info = { g.id, names, cfg->move_ms, cfg->game_ms, &out };
		struct results_game rg = { &g, names, &out, replay ? &at : NULL };

		struct committed_game cg = { .game = g, .faults = (int)out.nfaults,
					     .start_faulted = start_faulted(&out),
					     .players = out.players };

		/* the replay first: where it will be goes into the record */
		if (replay && (ret = replay_format_line(doc, &info)) < 0) {
			fail_run(r, ret, "replays", strerror(-ret));
			goto out;
		}
		if (replay && (ret = committer_add_replay(com, doc->data, doc->len, &at)) < 0)
			goto out;
		if ((ret = results_format_record(buf, &rg)) < 0) {
			fail_run(r, ret, "games.jsonl", strerror(-ret));
			goto out;
		}
		memcpy(cg.placings, out.placings, sizeof(cg.placings));
		ret = committer_add_game(com, &cg, buf->data, buf->len);
	}
out:
	transcript_close(tr);
	referee_outcome_release(&out);
	return ret;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	struct transcript tr;
	struct pool_config pc = { 0 };
	struct pool *pool = NULL;
	struct jsonw doc;
	struct jsonw buf;
	struct committer *com = NULL;
	struct committer_ops ops = { on_counted, on_commit_failed, r };
	struct schedule_game ahead[TOURNAMENT_AHEAD];
	int nahead = 0, depth;

	transcript_init(&tr);
	jsonw_init(&doc);
	jsonw_init(&buf);
	pc.specs = r->specs;
	pc.nbots = r->cfg->nbots;
	pc.cpu = -1;
	pc.startup_ms = r->cfg->startup_ms;
	pc.observer = r->opt->log_io ? &tr.observer : r->opt->observer;
	pc.fresh = r->cfg->processes == CONFIG_PROCESSES_FRESH;
	if (r->cfg->pin && r->ncpus > 0) {
		cpu_set_t set;

		/* the worker thread and its bots share one CPU: pipe round trips stay local */
		pc.cpu = r->cpus[w->index % r->ncpus];
		CPU_ZERO(&set);
		CPU_SET(pc.cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	if (pool_new(&pc, &pool) < 0 || committer_start(r->results, r->cfg->output, &ops, &com) < 0) {
		fail_run(r, -ENOMEM, "worker", "out of memory");
		goto out;
	}
	/* with fresh processes each worker holds its next games, whose bots start meanwhile */
	depth = pc.fresh && !crowds_process_limit(r->cfg, r->opt->sandbox != NULL) ?
		(r->hosts ? TOURNAMENT_AHEAD_HOSTS : TOURNAMENT_AHEAD) : 1;
	for (;;) {
		struct schedule_game g;
		int took = 0;

		while (nahead < depth && (took = take_game(r, &ahead[nahead])) > 0) {
			if (depth > 1)
				prepare_game(pool, &ahead[nahead], r->cfg->players);
			nahead++;
		}
		if (took == TAKE_LATER)
			hosts_ahead(r);
		if (!nahead && took == TAKE_LATER) {
			/* the games of this phase played: its processes end before the next's start */
			pool_drain(pool);
			pass_barrier(r);
			continue;
		}
		if (!nahead || !still_running(r))
			break;
		g = ahead[0];
		memmove(ahead, ahead + 1, (size_t)--nahead * sizeof(*ahead));
		if (play_one(w, pool, &tr, &doc, &buf, com, &g) < 0)
			break;
	}
out:
	/* the games finished before a stop or another worker's failure still count */
	committer_finish(com);
	pool_free(pool);
	leave_barrier(r, 1);
	jsonw_release(&doc);
	jsonw_release(&buf);
	return NULL;
}

static int make_specs(struct run *r)
{
	const struct config *cfg = r->cfg;

	r->specs = calloc(cfg->nbots, sizeof(*r->specs));
	r->log_paths = calloc(cfg->nbots, sizeof(*r->log_paths));
	r->names = calloc(cfg->nbots, sizeof(*r->names));
	if (!r->specs || !r->log_paths || !r->names)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->nbots; i++) {
		const struct config_bot *b = &cfg->bots[i];
		struct bot_spec *s = &r->specs[i];

		if ((r->opt->stderr_dir ? asprintf(&r->log_paths[i], "%s/%s.stderr",
						   r->opt->stderr_dir, b->name)
					: asprintf(&r->log_paths[i], "%s/logs/%s.stderr", cfg->output,
						   b->name)) < 0) {
			r->log_paths[i] = NULL;
			return -ENOMEM;
		}
		s->name = b->name;
		s->argv = b->argv;
		s->cwd = b->cwd;
		s->env = b->env;
		s->stderr_path = r->log_paths[i];
		s->stderr_cap = cfg->stderr_cap;
		s->stderr_total_cap = cfg->stderr_total_cap;
		s->sandbox = r->opt->sandbox;
		s->cpu = -1;
		s->limits = b->limits;
		r->names[i] = b->name;
	}
	return 0;
}

static void find_cpus(struct run *r)
{
	cpu_set_t set;

	r->ncpus = 0;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			r->cpus[r->ncpus++] = c;
}

/* desk_run_ops.take_groups: whole deal groups from the source, under the run's lock. */
static int desk_take(void *ctx, struct schedule_game *games, int max)
{
	struct run *r = ctx;
	int n = 0;

	pthread_mutex_lock(&r->lock);
	if (!stop_requested && !r->error && r->src->next_groups)
		n = r->src->next_groups(r->src->ctx, games, max);
	r->desk_dry = n <= 0;
	pthread_cond_broadcast(&r->desk_took);
	pthread_mutex_unlock(&r->lock);
	return n < 0 ? 0 : n;
}

/* The record of a desk's game (the worker's line) with its replay's place here: one
 * games.jsonl line in w. */
static int place_record(const char *record, size_t len, const struct replay_location *at,
			struct jsonw *w)
{
	struct record_reader rd;
	struct record rec;
	int ret;

	record_reader_init(&rd);
	if ((ret = record_parse(&rd, record, len, RECORD_FULL, &rec)) == 0)
		ret = record_format_replay_at(w, &rec, record, len, at->file, at->offset, at->line);
	record_reader_release(&rd);
	return ret;
}

/* desk_run_ops.commit: the replays' frame into the desk's pack as it is, then the records
 * pointing at it. */
static int desk_commit(void *ctx, const struct desk_commit *games, int n, const char *frame,
		       size_t frame_len)
{
	struct run *r = ctx;
	struct replay_location at;
	struct jsonw line;
	int ret;

	jsonw_init(&line);
	pthread_mutex_lock(&r->desk_lock);
	ret = committer_add_frame(r->desk_com, frame, frame_len, &at);
	for (int k = 0; ret == 0 && k < n; k++) {
		at.line = (uint64_t)k;
		if ((ret = place_record(games[k].record, games[k].record_len, &at, &line)) == 0)
			ret = committer_add_game(r->desk_com, &games[k].cg, line.data, line.len);
	}
	pthread_mutex_unlock(&r->desk_lock);
	jsonw_release(&line);
	return ret;
}

/* desk_run_ops.flush: the desk's games committed so far durable and counted. */
static int desk_flush(void *ctx)
{
	struct run *r = ctx;
	int ret;

	pthread_mutex_lock(&r->desk_lock);
	ret = committer_flush(r->desk_com);
	pthread_mutex_unlock(&r->desk_lock);
	return ret;
}

/*
 * With a desk and no workers of the run's own: wait until the source has
 * nothing for the desk, or a stop or failure.
 */
static void wait_for_desk(struct run *r)
{
	pthread_mutex_lock(&r->lock);
	while (!stop_requested && !r->error && !r->desk_dry) {
		struct timespec at;

		/* a stop is a signal's flag: looked at every second */
		clock_gettime(CLOCK_REALTIME, &at);
		at.tv_sec += 1;
		pthread_cond_timedwait(&r->desk_took, &r->lock, &at);
	}
	pthread_mutex_unlock(&r->lock);
}

/* The desk attached with the run's ops and a committer of its own: 0 or a negative errno. */
static int attach_desk(struct run *r)
{
	/* desk_results flushes every call: one group, one pair of fsyncs, a call */
	struct committer_ops ops = { on_counted, on_commit_failed, r, true };
	struct desk_run_ops dops = { r->cfg, desk_take, desk_commit, desk_flush, r };
	int ret;

	if ((ret = committer_start(r->results, r->cfg->output, &ops, &r->desk_com)) < 0)
		return ret;
	desk_attach(r->opt->desk, &dops);
	return 0;
}

/* The desk's leases back or void, then its games made durable and counted. */
static void detach_desk(struct run *r)
{
	if (!r->desk_com)
		return;
	desk_detach(r->opt->desk);
	committer_finish(r->desk_com);
	r->desk_com = NULL;
}

static void release_run(struct run *r)
{
	for (size_t i = 0; r->log_paths && i < r->cfg->nbots; i++)
		free(r->log_paths[i]);
	free(r->log_paths);
	free(r->specs);
	free(r->names);
	progress_free(r->progress);
	results_close(r->results);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->barrier);
	pthread_mutex_destroy(&r->desk_lock);
	pthread_cond_destroy(&r->desk_took);
}

int tournament_run(const struct config *cfg, const struct tournament_options *opt, char *err,
		   size_t err_size)
{
	struct schedule_source own = { 0 };
	struct run r = { .cfg = cfg, .opt = opt, .src = opt->source };
	struct worker *workers = NULL;
	char path[PATH_MAX];
	FILE *out = opt->progress ? opt->progress : stdout;
	int ret, started = 0;

	err[0] = '\0';
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.barrier, NULL);
	pthread_mutex_init(&r.desk_lock, NULL);
	pthread_cond_init(&r.desk_took, NULL);
	stop_requested = 0;
	find_cpus(&r);
	if (!r.src) {
		if ((ret = schedule_source_init(&own, cfg, opt, err, err_size)) < 0)
			goto out;
		r.src = &own.source;
	}
	/* reused processes live across phases anyway: the order stays, the barrier goes */
	r.phased = cfg->processes == CONFIG_PROCESSES_FRESH && r.src->open_phase;
	if ((ret = make_specs(&r)) < 0)
		goto out;
	if ((ret = results_open(cfg->output, r.src->doc, &r.results, err, err_size)) < 0)
		goto out;
	ret = -ENOMEM;
	if (!(r.progress = progress_new(out, opt->quiet, r.src->games, 0, r.names, cfg->nbots)))
		goto out;
	if ((ret = results_scan(r.results, on_record, &r, err, err_size)) == -EINTR) {
		ret = 1; /* stopped while reading what is already recorded */
		goto out;
	}
	if (ret < 0)
		goto out;
	if (opt->log_io) {
		snprintf(path, sizeof(path), "%s/io", cfg->output);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			ret = -errno;
			snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
			goto out;
		}
	}
	if (!opt->quiet && r.recorded)
		fprintf(out, "resuming: %llu of %llu games already recorded\n",
			(unsigned long long)r.recorded, (unsigned long long)r.src->games);
	if (r.src->scanned)
		r.src->scanned(r.src->ctx, out);
	/* fresh processes from hosts, which end between phases; where hosts do not work, each
	 * process has a sandbox of its own */
	r.hosts = opt->sandbox && sandbox_use_hosts(opt->sandbox, r.phased) == 0 && r.phased;
	if (opt->desk && (ret = attach_desk(&r)) < 0) {
		snprintf(err, err_size, "the desk's games: %s", strerror(-ret));
		goto out;
	}
	ret = -ENOMEM;
	if (!(workers = calloc((size_t)cfg->concurrency + 1, sizeof(*workers))))
		goto out;
	r.active = cfg->concurrency;
	for (int i = 0; i < cfg->concurrency; i++) {
		workers[i].run = &r;
		workers[i].index = i;
		if ((ret = -pthread_create(&workers[i].thread, NULL, worker_main, &workers[i])) < 0) {
			fail_run(&r, ret, "starting workers", strerror(-ret));
			break;
		}
		started++;
	}
	leave_barrier(&r, cfg->concurrency - started);
	for (int i = 0; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	if (r.desk_com && !cfg->concurrency)
		wait_for_desk(&r);
	/* the games out on leases may still come back and be counted */
	detach_desk(&r);
	sandbox_stop_hosts(opt->sandbox);
	progress_finish(r.progress);
	ret = r.error;
	if (ret < 0) {
		snprintf(err, err_size, "%s", r.err);
		goto out;
	}
	ret = stop_requested ? 1 : 0;
out:
	if (ret == -ENOMEM && !*err)
		snprintf(err, err_size, "out of memory");
	detach_desk(&r);
	free(workers);
	release_run(&r);
	schedule_source_release(&own);
	return ret;
}
