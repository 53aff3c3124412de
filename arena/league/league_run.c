/*
 * league_run.c - the league's loop (contract in league_run.h): segments of
 * play, each a tournament_run() over the current entries with the league as
 * its source of games, and between them the changes taken in.
 */
#include "league_run.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "league_config.h"
#include "league_deals.h"
#include "league_entries.h"
#include "league_hide.h"
#include "league_history.h"
#include "programs.h"
#include "sandbox.h"
#include "strlist.h"
#include "tournament.h"
#include "tournament_file.h"

static volatile sig_atomic_t league_stop_requested;

struct league {
	char dir[PATH_MAX];            /* absolute: the first cfg.base.output */
	FILE *out;
	int jobs;
	struct desk *desk;
	struct league_config cfg;      /* the last good league.jsonc */
	struct timespec config_time;   /* league.jsonc's mtime when last read */
	struct timespec entries_time;  /* entries.jsonl's when last read */
	struct league_entries es;
	struct league_deals deals;
	int sandbox_said;
	struct strlist unseen_said;    /* sandbox_unseen() sentences printed */
	time_t programs_checked;       /* when the entries' files were last looked at */
	struct timespec *programs_time; /* per entry: its files' latest mtime then */
	size_t nprograms;
	time_t refit_said;             /* when a refit was last printed */
	time_t history_said;           /* when history.jsonl last got a line */
	uint64_t history_generation;   /* of the standings it got */
};

/* How often the entries' files are looked at for a change (s), and refits printed. */
#define LEAGUE_PROGRAMS_EVERY 1
#define LEAGUE_REFIT_EVERY 10
/* A refit goes into history.jsonl at most this often (s), and the last one when the league stops. */
#define LEAGUE_HISTORY_EVERY 60

void league_request_stop(void)
{
	league_stop_requested = 1;
	tournament_request_stop();
}

int league_challenge_dir(char *out, size_t size, const char *dir, const char *a, const char *b,
			 long long deals)
{
	return (size_t)snprintf(out, size, "%s/challenges/%s-vs-%s-%lld", dir, a, b, deals) >= size
		       ? -ENAMETOOLONG : 0;
}

void league_seed(const char *dir, int has_seed, uint64_t *seed)
{
	struct records_tournament t = { 0 };
	char err[PATH_MAX + 256];

	if (!has_seed && records_read_tournament(dir, &t, err, sizeof(err)) == 0)
		*seed = t.seed;
	records_tournament_release(&t);
}

/* When a file last changed, or zeros when it does not exist. */
static struct timespec changed_at(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st) < 0)
		return (struct timespec){ 0 };
	return st.st_mtim;
}

static int same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* The latest modification time of the files entry i was entered with. */
static struct timespec programs_time(const struct league_entry *e)
{
	struct timespec latest = { 0 };
	const cJSON *f;
	struct stat st;

	cJSON_ArrayForEach(f, e->programs) {
		const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "file"));

		if (path && stat(path, &st) == 0 &&
		    (st.st_mtim.tv_sec > latest.tv_sec ||
		     (st.st_mtim.tv_sec == latest.tv_sec && st.st_mtim.tv_nsec > latest.tv_nsec)))
			latest = st.st_mtim;
	}
	return latest;
}

/* Whether some entry in play has files changed since they were looked at; records the times. */
static int programs_changed_since(struct league *lg, int record)
{
	int changed = 0;

	if (record) {
		struct timespec *t = reallocarray(lg->programs_time, lg->es.n + 1, sizeof(*t));

		if (!t)
			return 0;
		lg->programs_time = t;
		lg->nprograms = lg->es.n;
	}
	for (size_t i = 0; i < lg->nprograms; i++) {
		struct timespec now;

		if (lg->es.e[i].retired || lg->es.e[i].suspended)
			continue;
		now = programs_time(&lg->es.e[i]);
		if (record)
			lg->programs_time[i] = now;
		else
			changed |= !same_time(now, lg->programs_time[i]);
	}
	lg->programs_checked = time(NULL);
	return changed;
}

/*
 * league.jsonc or entries.jsonl changed since the league last read them, or
 * (looked at every LEAGUE_PROGRAMS_EVERY seconds) the files of an entry.
 * From a worker's poll while a segment plays, one call at a time.
 */
static int files_changed(void *ctx)
{
	struct league *lg = ctx;

	return !same_time(changed_at(lg->dir, LEAGUE_CONFIG_FILE), lg->config_time) ||
	       !same_time(changed_at(lg->dir, LEAGUE_ENTRIES_FILE), lg->entries_time) ||
	       (time(NULL) - lg->programs_checked >= LEAGUE_PROGRAMS_EVERY &&
		programs_changed_since(lg, 0));
}

/*
 * league.jsonc read again: taken when it loads, else refused with its
 * errors, said once per edit, and the last good settings kept.
 */
static int reload_config(struct league *lg, char *err, size_t err_size)
{
	struct league_config next;
	struct timespec at = changed_at(lg->dir, LEAGUE_CONFIG_FILE);
	int ret;

	if (same_time(at, lg->config_time))
		return 0;
	lg->config_time = at;
	ret = league_config_load_edit(lg->dir, lg->cfg.base.players, &next, err, err_size);
	if (ret < 0) {
		if (ret == -ENOMEM)
			return ret;
		fprintf(lg->out, "league: %s/%s: the edit is refused; the league goes on with its "
			"last good settings:\n%s", lg->dir, LEAGUE_CONFIG_FILE, err);
		fflush(lg->out);
		err[0] = '\0';
		return 0;
	}
	league_config_release(&lg->cfg);
	lg->cfg = next;
	return 1;
}

/* Each entry's files checked again: a changed one is held out, said once. */
static void check_programs(struct league *lg)
{
	char why[PATH_MAX + 512];

	for (size_t i = 0; i < lg->es.n; i++) {
		const struct league_entry *e = &lg->es.e[i];
		int changed = league_entries_held(&lg->es, i, &lg->cfg.base, why, sizeof(why));

		if (e->retired || e->suspended)
			continue;
		if (changed && !lg->deals.held[i]) {
			char base[LEAGUE_ENTRY_NAME_MAX];

			snprintf(base, sizeof(base), "%.*s", (int)strcspn(e->name, "@"), e->name);
			fprintf(lg->out, "league: %s; \"%s\" is held out of play: enter the new "
				"version with `skipbo-arena league add %s %s=COMMAND` (it becomes a "
				"new entry, %s@%d, and \"%s\" retires), or put the old files back\n",
				why, e->name, lg->dir, base, base, e->version + 1, e->name);
			fflush(lg->out);
		}
		lg->deals.held[i] = changed;
	}
}

/* The entries brought in line with league.jsonc, and the scheduler with the entries. */
static int take_changes(struct league *lg, char *err, size_t err_size)
{
	unsigned char *mark;
	size_t before = lg->es.n;
	int ret;

	if ((ret = reload_config(lg, err, err_size)) < 0)
		return ret;
	if (!(mark = league_entries_mark(&lg->es))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	if ((ret = league_entries_refresh(&lg->es, err, err_size)) < 0) {
		free(mark);
		return ret;
	}
	ret = league_entries_declare(&lg->es, &lg->cfg.base, lg->cfg.anchors, lg->cfg.nanchors,
				     err, err_size);
	/* adds, retires and edits taken, whoever made them (league add, league.jsonc) */
	league_entries_announce(&lg->es, mark, before, lg->out);
	free(mark);
	if (ret < 0) {
		/* an anchor that cannot be found is the file's error, not the league's end */
		fprintf(lg->out, "league: %s\n", err);
		err[0] = '\0';
	}
	lg->entries_time = changed_at(lg->dir, LEAGUE_ENTRIES_FILE);
	if ((ret = league_deals_entries(&lg->deals, &lg->es, &lg->cfg)) < 0) {
		snprintf(err, err_size, "out of memory");
		return ret;
	}
	check_programs(lg);
	programs_changed_since(lg, 1);
	if ((ret = league_deals_suspend(&lg->deals)) < 0) {
		snprintf(err, err_size, "%s/%s: cannot be written", lg->dir, LEAGUE_ENTRIES_FILE);
		return ret;
	}
	return league_deals_update(&lg->deals);
}

/*
 * tournament.json for this segment: the tournament as run writes it, with
 * every entry as a bot, "deals" 1 (a league has no fixed number), the
 * league's settings under "league", the start the directory recorded
 * first, and "sandbox" "mixed" once runs with and without one have played.
 */
static int write_tournament_json(struct league *lg, const struct config *seg, char *err,
				 size_t err_size)
{
	const struct records_league_keys keys = {
		.floor = lg->cfg.floor_deals,
		.max_games = lg->cfg.max_games,
		.max_minutes = lg->cfg.max_minutes,
		.suspend_after = lg->cfg.suspend_after,
		.stop_when_separated = lg->cfg.stop_when_separated,
	};
	struct records_tournament_doc d = { 0 }, old = { 0 };
	char *settings = config_to_json(seg, 0), why[PATH_MAX + 64];
	const char *was;
	int ret = records_tournament_doc_new(settings, &d);

	/* a directory without a readable one starts its record here */
	records_tournament_doc_load(lg->dir, &old, why, sizeof(why));
	was = old.root ? records_tournament_sandbox(&old) : NULL;
	if (ret == 0 && (ret = records_tournament_set_programs(&d, programs_of_config(seg))) == 0 &&
	    (ret = records_tournament_set_league(&d, &keys)) == 0 &&
	    (!was || (ret = records_tournament_note_sandbox(&d, was)) >= 0) &&
	    (ret = records_tournament_set_started(&d, old.root ? &old : NULL)) == 0)
		ret = records_tournament_write(lg->dir, &d, err, err_size);
	else
		snprintf(err, err_size, "out of memory");
	free(settings);
	records_tournament_doc_release(&d);
	records_tournament_doc_release(&old);
	return ret;
}

/*
 * Each entry in play that the sandbox cannot run (sandbox_open's -EACCES: a
 * program outside what a bot sees, a file the sandbox's uids cannot read)
 * suspended with the reason: the league never stops for a bot. How many.
 */
static int suspend_unsandboxable(struct league *lg, const struct config *seg,
				 const struct sandbox_setup *all)
{
	char note[1024], err[512];
	int found = 0;

	for (size_t i = 0; i < seg->nbots; i++) {
		struct bot_spec one = { .name = seg->bots[i].name, .argv = seg->bots[i].argv,
					.cwd = seg->bots[i].cwd };
		struct sandbox_setup setup = *all;
		struct sandbox *sb = NULL;

		if (!lg->deals.entry[i].active)
			continue;
		setup.bots = &one;
		setup.nbots = 1;
		/* whether it can run is all this asks: nothing copied or kept cached for it */
		if (setup.mode == SANDBOX_SEALED || setup.mode == SANDBOX_AUTO)
			setup.mode = SANDBOX_ON;
		note[0] = '\0';
		if (sandbox_open(&setup, &sb, note, sizeof(note)) == -EACCES) {
			if (league_entries_suspend(&lg->es, i, note, err, sizeof(err)) < 0)
				return -EIO;
			fprintf(lg->out, "league: \"%s\" is suspended: %s\n", seg->bots[i].name, note);
			lg->deals.entry[i].active = false;
			found++;
		}
		sandbox_close(sb);
	}
	return found;
}

/* The sandbox of this segment's entries in play, the league's directory hidden from them
 * but for their own folders in it (league_hide.h). */
static int open_sandbox(struct league *lg, const struct config *seg, struct sandbox **sb,
			char *err, size_t err_size)
{
	struct bot_spec *specs = calloc(seg->nbots + 1, sizeof(*specs));
	const char **cwds = calloc(seg->nbots + 1, sizeof(*cwds));
	struct strlist hide = { 0 };
	struct sandbox_setup setup = { 0 };
	char note[4096];
	int ret;

	*sb = NULL;
	config_sandbox_setup(seg, &setup);
	setup.bots = specs;
	ret = -ENOMEM;
	for (size_t i = 0; cwds && i < seg->nbots; i++)
		cwds[i] = seg->bots[i].cwd;
	if (specs && cwds)
		ret = league_hide(lg->dir, cwds, seg->nbots, &hide);
	free(cwds);
	if (ret < 0) {
		free(specs);
		snprintf(err, err_size, "sandbox: the league's directory \"%s\": %s", lg->dir,
			 strerror(-ret));
		return ret;
	}
	setup.hide = (const char *const *)hide.v;
	setup.nhide = hide.n;
	do {
		setup.nbots = 0;
		for (size_t i = 0; i < seg->nbots; i++)
			if (lg->deals.entry[i].active)
				specs[setup.nbots++] = (struct bot_spec){
					.name = seg->bots[i].name, .argv = seg->bots[i].argv,
					.cwd = seg->bots[i].cwd };
		note[0] = '\0';
		ret = sandbox_open(&setup, sb, note, sizeof(note));
	} while (ret == -EACCES && suspend_unsandboxable(lg, seg, &setup) > 0);
	if (ret < 0)
		snprintf(err, err_size, "sandbox: %s", note[0] ? note : strerror(-ret));
	else if (!lg->sandbox_said && (note[0] || sandbox_cache_warning(*sb))) {
		lg->sandbox_said = 1;
		if (note[0])
			fprintf(lg->out, "league: %s\n", note);
		if (sandbox_cache_warning(*sb))
			fprintf(lg->out, "league: warning: %s\n", sandbox_cache_warning(*sb));
	}
	for (size_t i = 0; ret >= 0 && sandbox_unseen(*sb, i); i++)
		if (!strlist_has(&lg->unseen_said, sandbox_unseen(*sb, i))) {
			strlist_add(&lg->unseen_said, sandbox_unseen(*sb, i));
			fprintf(lg->out, "league: %s\n", sandbox_unseen(*sb, i));
		}
	free(specs);
	strlist_free(&hide);
	if (ret >= 0)
		ret = league_deals_update(&lg->deals);
	return ret;
}

/* One segment: the current entries play until a change, a stop or a wait. */
static int play_segment(struct league *lg, char *err, size_t err_size)
{
	struct tournament_source src = {
		.recorded = league_deals_recorded, .next = league_deals_next,
		.counted = league_deals_counted, .open_phase = league_deals_open_phase,
		.scanned = league_deals_scanned, .poll = league_deals_poll,
		.next_groups = league_deals_next_groups, .ctx = &lg->deals };
	struct tournament_options topt = { .quiet = 1, .source = &src, .desk = lg->desk };
	struct config seg = lg->cfg.base;
	struct sandbox *sb = NULL;
	/* the entries the deals know: a suspension appends to entries.jsonl and reads what
	 * others appended (a `league add`, host's pipeline), so lg->es may have more,
	 * which the next segment takes */
	size_t n = lg->deals.n;
	struct config_bot *bots = calloc(n + 1, sizeof(*bots));
	int ret = -ENOMEM;

	if (!bots)
		goto out;
	for (size_t i = 0; i < n; i++)
		bots[i] = lg->es.e[i].bot;
	seg.bots = bots;
	seg.nbots = n;
	seg.challenger = NULL;
	seg.deals = 1;
	seg.seed = lg->deals.seed;
	seg.has_seed = 1;
	seg.partnership = 0;
	if (lg->jobs > 0)
		seg.concurrency = lg->jobs;
	else if (lg->jobs < 0 && lg->desk)
		seg.concurrency = 0; /* every game on the desk's workers */
	if ((ret = open_sandbox(lg, &seg, &sb, err, err_size)) < 0)
		goto out;
	seg.sandbox = sb ? (int)sandbox_mode_of(sb) : SANDBOX_OFF;
	if ((ret = write_tournament_json(lg, &seg, err, err_size)) < 0)
		goto out;
	topt.sandbox = sb;
	league_deals_segment(&lg->deals);
	ret = tournament_run(&seg, &topt, err, err_size);
out:
	if (ret == -ENOMEM && !err[0])
		snprintf(err, err_size, "out of memory");
	sandbox_close(sb);
	free(bots);
	return ret;
}

/* The standings as a line of history.jsonl (league_history.h); a failure is said, not fatal. */
static void record_history(struct league *lg, const struct league_standings *st)
{
	struct league_history_entry *entries = calloc(st->n + 1, sizeof(*entries));
	struct league_history_line line = { time(NULL), st->games_counted, 0, entries };
	char path[PATH_MAX + 64];
	int ret = -ENOMEM;

	if (!st->generation || st->generation == lg->history_generation)
		goto out;
	for (size_t i = 0; entries && i < st->n && i < lg->es.n; i++)
		entries[line.n++] = (struct league_history_entry){ lg->es.e[i].name, st->elo[i],
								    st->ci95[i], st->games[i] };
	snprintf(path, sizeof(path), "%s/%s", lg->dir, LEAGUE_HISTORY_FILE);
	if (entries && (ret = league_history_append(path, &line)) == 0) {
		lg->history_said = line.time;
		lg->history_generation = st->generation;
	}
	if (ret < 0)
		fprintf(lg->out, "league: %s: %s\n", path, strerror(-ret));
out:
	free(entries);
}

/* A new fit, from a worker's poll (league_deals.h): the entries stay as they are while
 * a segment plays, and the league's lock keeps the calls one at a time. */
static void on_refit(void *ctx, const struct league_standings *st)
{
	struct league *lg = ctx;
	const char **names;
	char leader[LEAGUE_ENTRY_NAME_MAX + 96];

	if (!lg->history_generation || time(NULL) - lg->history_said >= LEAGUE_HISTORY_EVERY)
		record_history(lg, st);
	if (time(NULL) - lg->refit_said < LEAGUE_REFIT_EVERY)
		return;
	names = calloc(st->n + 1, sizeof(*names));
	lg->refit_said = time(NULL);
	leader[0] = '\0';
	if (names && st->n <= lg->es.n) {
		for (size_t i = 0; i < st->n; i++)
			names[i] = lg->es.e[i].name;
		league_standings_leader(st, names, leader, sizeof(leader));
	}
	free(names);
	fprintf(lg->out, "league: %" PRIu64 " games, refit %" PRIu64 ": %zu of %zu adjacent "
		"pairs apart at 95%%%s\n", st->games_counted, st->generation, st->separated,
		st->adjacent, leader);
	fflush(lg->out);
}

/* Wait (a second at a time) until the files change or a stop comes. */
static void wait_for_entries(struct league *lg)
{
	fprintf(lg->out, "league: fewer than %d entries can play; waiting for `skipbo-arena "
		"league add` or an edit of %s\n", lg->cfg.base.players, LEAGUE_CONFIG_FILE);
	fflush(lg->out);
	/* the time budget runs on while it waits: the next deal's check then stops the league */
	while (!league_stop_requested && !files_changed(lg) &&
	       !(lg->cfg.max_minutes &&
		 (uint64_t)(time(NULL) - lg->deals.started) >= lg->cfg.max_minutes * 60))
		sleep(1);
}

int league_run(const struct league_run_options *opt, enum league_stop *why, char *err,
	       size_t err_size)
{
	struct league lg = { .out = opt->out ? opt->out : stdout, .jobs = opt->jobs,
			  .desk = opt->desk };
	int ret;

	err[0] = '\0';
	league_stop_requested = 0;
	*why = LEAGUE_STOP_REQUEST;
	if ((ret = league_config_load(opt->dir, &lg.cfg, err, err_size)) < 0)
		return ret;
	snprintf(lg.dir, sizeof(lg.dir), "%s", lg.cfg.base.output);
	lg.config_time = changed_at(lg.dir, LEAGUE_CONFIG_FILE);
	if (lg.cfg.base.partnership) {
		snprintf(err, err_size, "%s/%s: rules.partnership: a league plays without "
			 "partnerships", lg.dir, LEAGUE_CONFIG_FILE);
		ret = -EINVAL;
		goto out;
	}
	league_seed(lg.dir, lg.cfg.base.has_seed, &lg.cfg.base.seed);
	if ((ret = league_entries_open(&lg.es, lg.dir, err, err_size)) < 0)
		goto out;
	if ((ret = league_deals_init(&lg.deals, &lg.cfg, lg.cfg.base.seed, err, err_size)) < 0)
		goto out;
	lg.deals.changed = files_changed;
	lg.deals.on_refit = on_refit;
	lg.deals.ctx = &lg;
	lg.deals.out = lg.out;
	while (!league_stop_requested) {
		if ((ret = take_changes(&lg, err, err_size)) < 0)
			break;
		ret = play_segment(&lg, err, err_size);
		if (ret < 0 || league_stop_requested || lg.deals.stop != LEAGUE_STOP_REQUEST)
			break;
		if (lg.deals.waiting)
			wait_for_entries(&lg);
	}
	*why = league_stop_requested ? LEAGUE_STOP_REQUEST : lg.deals.stop;
	if (ret >= 0 && (ret = league_deals_finish(&lg.deals, lg.out)) >= 0)
		record_history(&lg, &lg.deals.st);
out:
	league_deals_release(&lg.deals);
	league_entries_release(&lg.es);
	strlist_free(&lg.unseen_said);
	free(lg.programs_time);
	league_config_release(&lg.cfg);
	return ret < 0 ? ret : 0;
}
