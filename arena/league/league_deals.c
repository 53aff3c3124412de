/*
 * league_deals.c - the league's games handed out and counted (contract in
 * league_deals.h).
 */
#include "league_deals.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

#define LEAGUE_DEAL_ID_FORMAT "t%04" PRIu64 "-d0000-r%d"
/*
 * Deals of a block: its rotations are played phase by phase with a barrier
 * between (schedule.h), so a bot's processes of one rotation of a deal never
 * live at the same time as those of another. More deals a block pay the
 * barrier less often; fewer let the ranking choose the next deals sooner.
 */
#define LEAGUE_BLOCK_DEALS 32

int league_deals_init(struct league_deals *d, const struct league_config *cfg, uint64_t seed,
		      char *err, size_t err_size)
{
	memset(d, 0, sizeof(*d));
	d->cfg = cfg;
	d->seed = seed;
	d->players = cfg->base.players;
	d->started = time(NULL);
	d->stop = LEAGUE_STOP_REQUEST;
	d->out = stdout;
	d->fit_due = true;
	pthread_mutex_init(&d->watch, NULL);
	if (league_sched_init(&d->sched, d->players, cfg->floor_deals, seed) < 0) {
		snprintf(err, err_size, "players: a league plays tables of 2 to %d",
			 LEAGUE_SCHED_PLAYERS_MAX);
		return -EINVAL;
	}
	return 0;
}

void league_deals_release(struct league_deals *d)
{
	if (!d->cfg) /* zeroed, never initialised: a league that failed before its deals */
		return;
	if (d->fit_started)
		league_fit_release(&d->fit);
	league_sched_release(&d->sched);
	league_standings_release(&d->st);
	free(d->entry);
	free(d->held);
	free(d->start_faults);
	free(d->open);
	pthread_mutex_destroy(&d->watch);
	memset(d, 0, sizeof(*d));
}

/* The anchors of the entries entered as anchors, at league.jsonc's Elo. */
static int start_fit(struct league_deals *d)
{
	struct league_fit_anchor anchors[LEAGUE_ANCHORS_MAX];
	struct league_fit_options opt = { anchors, 0 };
	int ret;

	for (size_t i = 0; i < d->es->n && opt.nanchors < LEAGUE_ANCHORS_MAX; i++)
		for (size_t k = 0; d->es->e[i].anchor && k < d->cfg->nanchors; k++)
			if (strcmp(d->cfg->anchors[k], d->es->e[i].name) == 0)
				anchors[opt.nanchors++] = (struct league_fit_anchor){
					(uint32_t)i, d->cfg->anchor_elo[k] };
	if ((ret = league_fit_init(&d->fit, &opt)) < 0)
		return ret;
	d->fit_started = true;
	return 0;
}

int league_deals_entries(struct league_deals *d, struct league_entries *es,
			 const struct league_config *cfg)
{
	d->es = es;
	d->cfg = cfg;
	/* as the segment's tournament will be: a barrier only with fresh processes */
	d->phased = cfg->base.processes == CONFIG_PROCESSES_FRESH;
	if (es->n > d->cap) {
		size_t cap = es->n * 2;
		struct league_sched_entry *entry = reallocarray(d->entry, cap, sizeof(*entry));
		bool *held;
		uint32_t *faults;

		if (entry)
			d->entry = entry;
		if (!entry || !(held = reallocarray(d->held, cap, sizeof(*held))))
			return -ENOMEM;
		d->held = held;
		if (!(faults = reallocarray(d->start_faults, cap, sizeof(*faults))))
			return -ENOMEM;
		d->start_faults = faults;
		memset(d->held + d->cap, 0, (cap - d->cap) * sizeof(*held));
		memset(d->start_faults + d->cap, 0, (cap - d->cap) * sizeof(*faults));
		d->cap = cap;
	}
	d->n = es->n;
	if (!d->fit_started && d->n)
		return start_fit(d);
	return 0;
}

/* The scheduler told the entries' state and the standings in d->st. */
static int update_sched(struct league_deals *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct league_entry *e = &d->es->e[i];
		bool rated = i < d->st.n;

		d->entry[i] = (struct league_sched_entry){
			.active = !e->retired && !e->suspended && !d->held[i], .anchor = e->anchor,
			.games = rated ? d->st.games[i] : 0, .elo = rated ? d->st.elo[i] : NAN,
			.ci95 = rated ? d->st.ci95[i] : NAN };
	}
	return league_sched_update(&d->sched, d->entry, d->n);
}

int league_deals_update(struct league_deals *d)
{
	league_standings_release(&d->st);
	if (d->fit_started && league_fit_latest(&d->fit, &d->st) < 0)
		return -ENOMEM;
	return update_sched(d);
}

/*
 * The latest standings taken when a refit published new ones (1), else
 * nothing (0): between refits the scheduler goes on with what it counted
 * (league_sched.h). Negative: no memory.
 */
static int take_refit(struct league_deals *d)
{
	struct league_standings next = { 0 };
	int ret;

	if (!d->fit_started || league_fit_latest(&d->fit, &next) < 0)
		return d->fit_started ? -ENOMEM : 0;
	if (next.generation == d->st.generation) {
		league_standings_release(&next);
		return 0;
	}
	league_standings_release(&d->st);
	d->st = next;
	ret = update_sched(d);
	return ret < 0 ? ret : 1;
}

void league_deals_segment(struct league_deals *d)
{
	d->scanned = 0;
	d->handed = 0;
	d->waiting = false;
	d->over = false;
	atomic_store(&d->moved, false);
	d->phase = 0;
	d->block = 0;
	for (size_t k = 0; k < d->nopen; k++)
		d->open[k].handed = d->open[k].recorded;
}

static struct league_open_deal *find_open(struct league_deals *d, uint64_t deal)
{
	for (size_t k = 0; k < d->nopen; k++)
		if (d->open[k].deal == deal)
			return &d->open[k];
	return NULL;
}

static struct league_open_deal *open_deal(struct league_deals *d, uint64_t deal,
					  const uint32_t *table)
{
	struct league_open_deal *o;

	if (d->nopen == d->open_cap) {
		size_t cap = d->open_cap ? 2 * d->open_cap : 16;

		if (!(o = reallocarray(d->open, cap, sizeof(*o))))
			return NULL;
		d->open = o;
		d->open_cap = cap;
	}
	o = &d->open[d->nopen++];
	memset(o, 0, sizeof(*o));
	o->deal = deal;
	memcpy(o->table, table, (size_t)d->players * sizeof(*table));
	if (deal >= d->next_deal)
		d->next_deal = deal + 1;
	return o;
}

/*
 * An entry with suspend_after games with a start fault ends the segment: the
 * caller first looks whether its files changed (a bot replaced while it runs
 * fails to start too), then suspends it (league_deals_suspend).
 */
static void count_start_fault(struct league_deals *d, uint32_t entry)
{
	if (entry < d->n && ++d->start_faults[entry] >= (uint32_t)d->cfg->suspend_after &&
	    d->cfg->suspend_after && !d->es->e[entry].suspended)
		d->suspend_due = true;
}

int league_deals_suspend(struct league_deals *d)
{
	char why[128], err[512];

	d->suspend_due = false;
	for (size_t i = 0; i < d->n; i++) {
		if (d->held[i])
			d->start_faults[i] = 0;
		if (d->held[i] || !d->cfg->suspend_after || d->es->e[i].suspended ||
		    d->start_faults[i] < (uint32_t)d->cfg->suspend_after)
			continue;
		snprintf(why, sizeof(why), "%u games with a start fault (suspend_after %d)",
			 d->start_faults[i], d->cfg->suspend_after);
		if (league_entries_suspend(d->es, i, why, err, sizeof(err)) < 0) {
			fprintf(d->out, "league: %s\n", err);
			return -EIO;
		}
		fprintf(d->out, "league: \"%s\" is suspended: %s\n", d->es->e[i].name, why);
		fflush(d->out);
	}
	return 0;
}

/*
 * One game of deal `deal` counted: entry[s] at seat s of rotation r. The
 * deal's first game counts the deal for the scheduler; its last closes it.
 */
static int count_game(struct league_deals *d, uint64_t deal, int r, int nseats,
		      const uint32_t *entry, const int *placings, unsigned start_faulted)
{
	struct league_open_deal *o = find_open(d, deal);
	uint32_t team[LEAGUE_SCHED_PLAYERS_MAX] = { 0 };
	int ret;

	d->games++;
	for (int s = 0; s < nseats; s++)
		team[s] = (uint32_t)s;
	if (d->fit_started &&
	    (ret = league_fit_add(&d->fit, deal, nseats, entry, placings, team)) < 0)
		return ret;
	for (int s = 0; s < nseats; s++)
		if (start_faulted >> s & 1)
			count_start_fault(d, entry[s]);
	if (nseats != d->players || r < 0 || r >= d->players)
		return 0;
	if (!o) {
		uint32_t table[LEAGUE_SCHED_PLAYERS_MAX];

		for (int s = 0; s < nseats; s++)
			table[(s + r) % nseats] = entry[s];
		if (!(o = open_deal(d, deal, table)))
			return -ENOMEM;
	}
	if (!o->recorded && (ret = league_sched_played(&d->sched, o->table, d->players)) < 0)
		return ret;
	o->recorded |= 1u << r;
	o->handed |= 1u << r;
	if (o->recorded == (1u << d->players) - 1) {
		*o = d->open[--d->nopen];
		if (d->fit_started)
			league_fit_request(&d->fit);
	}
	return 0;
}

void league_deals_counted(void *ctx, const struct committed_game *cg)
{
	struct league_deals *d = ctx;
	uint32_t entry[LEAGUE_SCHED_PLAYERS_MAX];

	if (d->handed)
		d->handed--;
	for (int s = 0; s < cg->players; s++)
		entry[s] = (uint32_t)cg->game.bots[s];
	if (count_game(d, cg->game.table, (int)cg->game.rotation, cg->players, entry,
		       cg->placings, cg->start_faulted) < 0)
		d->error = -ENOMEM;
}

int league_deals_recorded(void *ctx, const struct results_record *rec, struct schedule_game *g)
{
	struct league_deals *d = ctx;
	const cJSON *tree, *bots, *fault;
	uint32_t entry[LEAGUE_SCHED_PLAYERS_MAX];
	unsigned start = 0;
	double table, rotation;

	(void)g;
	/* a later segment reads again what the league has counted already */
	if (++d->scanned <= d->games)
		return 0;
	if (!(tree = record_tree(rec->reader, rec->line, rec->length - 1)))
		return -ENOMEM;
	bots = cJSON_GetObjectItemCaseSensitive(tree, "bots");
	table = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(tree, "table"));
	rotation = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(tree, "rotation"));
	if (cJSON_GetArraySize(bots) != rec->players || !(table >= 0) || !(rotation >= 0))
		return 0;
	for (int s = 0; s < rec->players; s++) {
		const char *name = cJSON_GetStringValue(cJSON_GetArrayItem(bots, s));
		int i = name ? league_entries_named(d->es, name) : -1;

		/* a record of a bot that is no entry is not the league's */
		if (i < 0 || (size_t)i >= d->n)
			return 0;
		entry[s] = (uint32_t)i;
	}
	cJSON_ArrayForEach(fault, cJSON_GetObjectItemCaseSensitive(tree, "faults")) {
		const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fault,
											"kind"));
		double seat = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(fault, "seat"));

		if (kind && strcmp(kind, "start") == 0 && seat >= 0 && seat < rec->players)
			start |= 1u << (int)seat;
	}
	return count_game(d, (uint64_t)table, (int)rotation, rec->players, entry, rec->placings,
			  start);
}

/* Every active entry is rated, past its floor, and its neighbours apart at 95%. */
static bool separated(const struct league_deals *d)
{
	size_t active = 0;

	if (!d->cfg->stop_when_separated || !d->st.generation || d->st.adjacent == 0 ||
	    !league_standings_all_separated(&d->st))
		return false;
	for (size_t i = 0; i < d->n; i++) {
		if (!d->entry[i].active)
			continue;
		active++;
		if (i >= d->st.n || isnan(d->st.elo[i]) || d->sched.deals[i] < d->cfg->floor_deals)
			return false;
	}
	return active >= (size_t)d->players;
}

/* The games of the open deals not handed out yet: a deal begun is played whole. */
static uint64_t to_hand(const struct league_deals *d)
{
	uint64_t n = 0;

	for (size_t k = 0; k < d->nopen; k++)
		n += (uint64_t)(d->players - __builtin_popcount(d->open[k].handed));
	return n;
}

/* Before a new deal: a stop, a change, or new standings. 1 to go on, else 0. */
static int before_deal(struct league_deals *d)
{
	if (d->error || d->suspend_due)
		return 0;
	if (atomic_load(&d->moved))
		return 0;
	if (d->cfg->max_games && d->games + d->handed + to_hand(d) >= d->cfg->max_games) {
		d->stop = LEAGUE_STOP_GAMES;
		return 0;
	}
	if (d->cfg->max_minutes &&
	    (uint64_t)(time(NULL) - d->started) >= d->cfg->max_minutes * 60) {
		d->stop = LEAGUE_STOP_TIME;
		return 0;
	}
	if (take_refit(d) < 0) {
		d->error = -ENOMEM;
		return 0;
	}
	if (separated(d)) {
		d->stop = LEAGUE_STOP_SEPARATED;
		return 0;
	}
	return 1;
}

/* An open deal without rotation r handed out, or NULL. */
static struct league_open_deal *lacking(struct league_deals *d, int r)
{
	for (size_t k = 0; k < d->nopen; k++)
		if (!(d->open[k].handed >> r & 1))
			return &d->open[k];
	return NULL;
}

/* A new deal from the scheduler, or NULL once the segment is over. */
static struct league_open_deal *new_deal(struct league_deals *d)
{
	uint32_t table[LEAGUE_SCHED_PLAYERS_MAX];
	int ret;

	/* once over, over for every worker until the next segment */
	if (d->over || !before_deal(d)) {
		d->over = true;
		return NULL;
	}
	if ((ret = league_sched_next(&d->sched, table)) < 0) {
		d->waiting = ret == -EAGAIN;
		d->over = true;
		return NULL;
	}
	d->block++;
	return open_deal(d, d->next_deal, table);
}

/*
 * The deal and rotation to hand out next: 1, 0 when there is none, or
 * TOURNAMENT_SOURCE_LATER when the open deals lack only rotations of later
 * phases. Unphased, any rotation of an open deal first, then a new deal.
 */
static int deal_to_hand(struct league_deals *d, struct league_open_deal **o, int *r)
{
	if (!d->phased) {
		for (*r = 0; *r < d->players; (*r)++)
			if ((*o = lacking(d, *r)))
				return 1;
		*r = 0;
		return (*o = new_deal(d)) != NULL;
	}
	*r = d->phase;
	if ((*o = lacking(d, d->phase)))
		return 1;
	if (d->phase == 0 && d->block < LEAGUE_BLOCK_DEALS && (*o = new_deal(d)))
		return 1;
	for (int k = 0; k < d->players; k++)
		if (lacking(d, k))
			return TOURNAMENT_SOURCE_LATER;
	/* the block is handed out whole: the next one starts without a barrier, its deals
	 * being others */
	if (d->over)
		return 0;
	d->phase = *r = 0;
	d->block = 0;
	return (*o = new_deal(d)) != NULL;
}

/* Rotation r of open deal o, handed out, into *g. */
static void hand_game(struct league_deals *d, struct league_open_deal *o, int r,
		      struct schedule_game *g)
{
	o->handed |= 1u << r;
	memset(g, 0, sizeof(*g));
	g->index = o->deal * (uint64_t)d->players + (uint64_t)r;
	g->table = (uint32_t)o->deal;
	g->rotation = (uint32_t)r;
	g->seed = schedule_deal_seed(d->seed, (uint32_t)o->deal, 0);
	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++)
		g->bots[s] = s < d->players ? (int)o->table[(s + r) % d->players] : -1;
	snprintf(g->id, sizeof(g->id), LEAGUE_DEAL_ID_FORMAT, o->deal, r);
	d->handed++;
}

int league_deals_next(void *ctx, struct schedule_game *g)
{
	struct league_deals *d = ctx;
	struct league_open_deal *o = NULL;
	int r = 0, got = deal_to_hand(d, &o, &r);

	if (got == 1)
		hand_game(d, o, r, g);
	return got;
}

/* Every rotation of o not handed out, into games: their number. */
static int hand_rest(struct league_deals *d, struct league_open_deal *o,
		     struct schedule_game *games)
{
	int n = 0;

	for (int r = 0; r < d->players; r++)
		if (!(o->handed >> r & 1))
			hand_game(d, o, r, &games[n++]);
	return n;
}

int league_deals_next_groups(void *ctx, struct schedule_game *games, int max)
{
	struct league_deals *d = ctx;
	struct league_open_deal *o;
	int n = 0;

	/* a deal left open by an earlier segment, none of it in play, is finished first */
	for (size_t k = 0; k < d->nopen; k++)
		if (d->open[k].handed == d->open[k].recorded &&
		    n + d->players - __builtin_popcount(d->open[k].handed) <= max)
			n += hand_rest(d, &d->open[k], games + n);
	while (n + d->players <= max && (o = new_deal(d))) {
		/* played elsewhere, whole: no block counts it, no barrier waits for it */
		d->block--;
		n += hand_rest(d, o, games + n);
	}
	return n;
}

void league_deals_scanned(void *ctx, FILE *out)
{
	struct league_deals *d = ctx;

	(void)out;
	/* the first deal waits for the fit of every game read back (a resume), so it is
	 * chosen as the unbroken league would have chosen it after a refit */
	if (d->fit_due && d->fit_started && d->games) {
		league_fit_request(&d->fit);
		league_fit_wait(&d->fit);
	}
	d->fit_due = false;
}

void league_deals_poll(void *ctx)
{
	struct league_deals *d = ctx;
	struct league_standings st = { 0 };

	pthread_mutex_lock(&d->watch);
	if (d->changed && !atomic_load(&d->moved) && d->changed(d->ctx))
		atomic_store(&d->moved, true);
	/* a refit said once, whichever worker sees it first */
	if (d->on_refit && d->fit_started && league_fit_latest(&d->fit, &st) == 0 &&
	    st.generation != d->said) {
		d->said = st.generation;
		d->on_refit(d->ctx, &st);
	}
	league_standings_release(&st);
	pthread_mutex_unlock(&d->watch);
}

void league_deals_open_phase(void *ctx)
{
	struct league_deals *d = ctx;

	/* the next rotation some open deal lacks; none: a new block, at phase 0 */
	for (int k = 1; k <= d->players; k++) {
		int r = (d->phase + k) % d->players;

		if (lacking(d, r)) {
			d->phase = r;
			return;
		}
	}
	d->phase = 0;
	d->block = 0;
}

static const char *state_of(const struct league_deals *d, size_t i)
{
	const struct league_entry *e = &d->es->e[i];

	return e->retired ? "retired" : e->suspended ? "suspended" : d->held[i] ? "held" :
	       e->anchor ? "anchor" : "";
}

int league_deals_finish(struct league_deals *d, FILE *out)
{
	int ret = 0;

	if (d->fit_started) {
		league_fit_request(&d->fit);
		ret = league_fit_wait(&d->fit);
		league_standings_release(&d->st);
		if (league_fit_latest(&d->fit, &d->st) < 0)
			return -ENOMEM;
	}
	fprintf(out, "%-4s %-24s %8s %7s %8s  %s\n", "rank", "entry", "Elo", "+-95%", "games",
		"state");
	for (size_t k = 0; k < d->st.nranked; k++) {
		uint32_t i = d->st.order[k];

		fprintf(out, "%-4zu %-24s %8.1f %7.1f %8" PRIu64 "  %s\n", k + 1, d->es->e[i].name,
			d->st.elo[i], d->st.ci95[i], d->st.games[i], state_of(d, i));
	}
	for (size_t i = 0; i < d->n; i++)
		if (i >= d->st.n || isnan(d->st.elo[i]))
			fprintf(out, "%-4s %-24s %8s %7s %8d  %s\n", "-", d->es->e[i].name, "-",
				"-", 0, state_of(d, i));
	fflush(out);
	return ret < 0 ? ret : d->error;
}
