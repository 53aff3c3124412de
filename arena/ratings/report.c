/*
 * report.c - computing a report from game records (the files are written
 * by report_files.c, in the formats of report_write.c and
 * report_html.c).
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gamelist.h"

const struct report_options report_defaults = REPORT_OPTIONS_DEFAULT;

static volatile sig_atomic_t stop_requested;

void report_request_stop(void)
{
	stop_requested = 1;
}

bool report_stop_requested(void)
{
	return stop_requested;
}

double report_win_rate(const struct report_bot *b)
{
	return b->games ? (double)b->wins / (double)b->games : 0.0;
}

double report_avg_stock(const struct report_bot *b)
{
	return b->games ? b->stock_left_sum / (double)b->games : 0.0;
}

/*
 * Aggregation. Everything a report shows is a sum over records, so records are
 * folded in one at a time as they are read (struct acc) and none is kept: the
 * memory is bounded by the number of bots squared plus the duplicate halves
 * still waiting for their other rotation, not by the number of records.
 */

/* One rotation of a 2-player duplicate deal: the bots by seat and seat 0's R7 result, doubled. */
struct dup_half {
	uint32_t bot[2];
	uint8_t result2; /* 2 won, 1 tied, 0 lost */
};

/* A deal (source, table, deal) with one or both rotations seen but not yet counted as a pair. */
struct dup_slot {
	bool used;
	uint8_t has; /* bit r: half[r] holds rotation r */
	uint32_t source;
	int32_t table, deal;
	struct dup_half half[2];
};

struct acc {
	size_t cap;                /* bots the arrays below have room for */
	struct report_bot *bots;   /* cap */
	struct rating_pairs pairs; /* cap x cap */
	double *pair_pent;         /* cap x cap x 5 */
	long seat_games[GAMELOG_SEATS_MAX + 1];
	long seat_wins[GAMELOG_SEATS_MAX + 1][GAMELOG_SEATS_MAX];
	long seat_partnership[GAMELOG_SEATS_MAX + 1];
	long seat_rotated[GAMELOG_SEATS_MAX + 1];
	size_t duplicate_pairs;
	struct cluster_sums clusters; /* for the robust intervals: a deal is a cluster */
	uint32_t source;              /* of the last record */
	struct dup_slot *slots;    /* open addressing with linear probing; nslots is 0 or a power of 2 */
	size_t nslots, npending;
	struct gamelist *games;    /* fed the whole records too, when reading files */
};

static void acc_release(struct acc *a)
{
	free(a->bots);
	rating_pairs_release(&a->pairs);
	free(a->pair_pent);
	free(a->slots);
	cluster_sums_release(&a->clusters);
	memset(a, 0, sizeof(*a));
}

/* Make room for n bots, keeping every sum. Capacity doubles, so growing costs O(n^2) in all. -ENOMEM. */
static int acc_reserve(struct acc *a, size_t n)
{
	size_t cap = a->cap ? a->cap : 8;
	struct rating_pairs pairs;
	struct report_bot *bots;
	double *pent;

	if (n <= a->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	bots = calloc(cap, sizeof(*bots));
	pent = calloc(cap * cap * 5, sizeof(*pent));
	if (!bots || !pent ||
	    (a->cap ? rating_pairs_copy(&pairs, &a->pairs, cap) : rating_pairs_init(&pairs, cap)) < 0) {
		free(bots);
		free(pent);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->cap; i++) {
		bots[i] = a->bots[i];
		memcpy(&pent[i * cap * 5], &a->pair_pent[i * a->cap * 5], a->cap * 5 * sizeof(double));
	}
	free(a->bots);
	rating_pairs_release(&a->pairs);
	free(a->pair_pent);
	a->bots = bots;
	a->pairs = pairs;
	a->pair_pent = pent;
	a->cap = cap;
	return 0;
}

static void add_seat_stats(struct acc *a, const struct gamelog_game *g)
{
	a->seat_games[g->players]++;
	a->seat_partnership[g->players] += g->partnership;
	a->seat_rotated[g->players] += g->rotation > 0;
	for (int s = 0; s < g->players; s++) {
		struct report_bot *b = &a->bots[g->bot[s]];
		b->games++;
		b->wins += g->winner[s];
		b->seat_games[s]++;
		b->seat_wins[s] += g->winner[s];
		b->points += g->score[s];
		b->stock_left_sum += g->stock_left[s];
		a->seat_wins[g->players][s] += g->winner[s];
		if (g->fault[s] >= 0) {
			b->faults[g->fault[s]]++;
			b->faults_total++;
		}
		if (g->has_time && g->time[s].moves > 0) {
			double m = g->time[s].moves;
			b->time_moves += m;
			b->time_mean_us += g->time[s].mean_us * m;
			b->time_cpu_mean_us += g->time[s].cpu_mean_us * m;
			b->time_p99_us += g->time[s].p99_us * m;
			b->time_max_us = fmax(b->time_max_us, g->time[s].max_us);
		}
	}
}

static size_t dup_hash(uint32_t source, int32_t table, int32_t deal)
{
	uint64_t h = (uint64_t)source * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)(uint32_t)table << 32 | (uint32_t)deal;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (size_t)h;
}

/* The slot holding the deal, or the empty slot where it belongs. nslots must be > npending. */
static size_t dup_lookup(const struct acc *a, uint32_t source, int32_t table, int32_t deal)
{
	size_t mask = a->nslots - 1, i = dup_hash(source, table, deal) & mask;

	while (a->slots[i].used && (a->slots[i].source != source || a->slots[i].table != table ||
				    a->slots[i].deal != deal))
		i = (i + 1) & mask;
	return i;
}

/* Double the table (at least 64 slots) and rehash. -ENOMEM. */
static int dup_grow(struct acc *a)
{
	size_t nslots = a->nslots ? a->nslots * 2 : 64;
	struct dup_slot *old = a->slots, *slots = calloc(nslots, sizeof(*slots));
	size_t oldn = a->nslots;

	if (!slots)
		return -ENOMEM;
	a->slots = slots;
	a->nslots = nslots;
	for (size_t k = 0; k < oldn; k++)
		if (old[k].used)
			slots[dup_lookup(a, old[k].source, old[k].table, old[k].deal)] = old[k];
	free(old);
	return 0;
}

/* Empty slot i, shifting later entries of its probe run back so lookups need no tombstones. */
static void dup_remove(struct acc *a, size_t i)
{
	size_t mask = a->nslots - 1, j = i;

	a->slots[i].used = false;
	for (;;) {
		j = (j + 1) & mask;
		if (!a->slots[j].used)
			break;
		size_t home = dup_hash(a->slots[j].source, a->slots[j].table, a->slots[j].deal) & mask;
		/* The entry at j may move to i only if its home is not cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		a->slots[i] = a->slots[j];
		a->slots[j].used = false;
		i = j;
	}
	a->npending--;
}

/* Forget every waiting half: called after each file, as rotations pair only within one file. */
static void dup_clear(struct acc *a)
{
	if (a->slots)
		memset(a->slots, 0, a->nslots * sizeof(*a->slots));
	a->npending = 0;
}

/*
 * A 2-player record that may be half of a duplicate pair. A deal pairs its
 * latest rotation 0 with its first rotation 1 when the two bots swapped seats,
 * and the pair is counted the moment both are there. The arena writes each
 * rotation once; a rotation of a deal already counted that turns up again
 * waits for a new partner of its own.
 */
static int add_duplicate_half(struct acc *a, const struct gamelog_game *g)
{
	if (g->players != 2 || g->partnership || g->rotation > 1 || g->bot[0] == g->bot[1])
		return 0;
	if ((a->npending + 1) * 2 > a->nslots) {
		int rc = dup_grow(a);
		if (rc < 0)
			return rc;
	}
	size_t i = dup_lookup(a, g->source, g->table, g->deal);
	struct dup_slot *slot = &a->slots[i];
	int rot = g->rotation;

	if (!slot->used) {
		*slot = (struct dup_slot){ .used = true, .source = g->source, .table = g->table,
					   .deal = g->deal };
		a->npending++;
	}
	if (rot == 0 || !(slot->has & 2)) {
		int result2 = g->placing[0] < g->placing[1] ? 2 : g->placing[0] > g->placing[1] ? 0 : 1;
		slot->half[rot] = (struct dup_half){ { g->bot[0], g->bot[1] }, (uint8_t)result2 };
		slot->has |= (uint8_t)(1u << rot);
	}
	const struct dup_half *h0 = &slot->half[0], *h1 = &slot->half[1];
	if (slot->has != 3 || h0->bot[0] != h1->bot[1] || h0->bot[1] != h1->bot[0])
		return 0;
	size_t x = h0->bot[0], y = h0->bot[1], n = a->cap;
	int score = h0->result2 + 2 - h1->result2; /* x's pair score, doubled */
	a->bots[x].pent[score]++;
	a->bots[y].pent[4 - score]++;
	a->pair_pent[(x * n + y) * 5 + (size_t)score]++;
	a->pair_pent[(y * n + x) * 5 + (size_t)(4 - score)]++;
	a->duplicate_pairs++;
	dup_remove(a, i);
	return 0;
}

/* gamelog_sink_fn: fold one record in. -ENOMEM. */
static int acc_add(void *ctx, const struct gamelog *log, const struct gamelog_game *g)
{
	struct acc *a = ctx;
	int placing[GAMELOG_SEATS_MAX];
	unsigned team[GAMELOG_SEATS_MAX];
	struct rating_result res[RATING_GAME_RESULTS_MAX];
	int rc = acc_reserve(a, log->nbots);

	if (rc < 0)
		return rc;
	add_seat_stats(a, g);
	for (int s = 0; s < g->players; s++) {
		placing[s] = g->placing[s];
		team[s] = g->team[s];
	}
	/* A deal is its table and deal number within one file: a new file closes every deal, in
	 * stored records as in a stream. */
	if (g->source != a->source) {
		rc = cluster_sums_close_all(&a->clusters);
		if (rc < 0)
			return rc;
		a->source = g->source;
	}
	rc = rating_add_clustered(&a->pairs, &a->clusters,
				  (uint64_t)(uint32_t)g->table << 32 | (uint32_t)g->deal,
				  g->players, g->bot, placing, team);
	if (rc < 0)
		return rc;
	size_t nres = rating_game_results(g->players, g->bot, placing, team, res);
	for (size_t k = 0; k < nres; k++)
		report_count_rated(a->bots, &res[k]);
	if (a->games && log->current && (rc = gamelist_add(a->games, log->current)) < 0)
		return rc;
	return add_duplicate_half(a, g);
}

/* Rank order: pool, then Elo descending, then name, so equal ratings list the same way every time. */
struct rank_key {
	bool apart; /* never started: after every rated bot */
	size_t pool;
	double elo;
	const char *name;
	size_t index;
};

static int rank_cmp(const void *pa, const void *pb)
{
	const struct rank_key *a = pa, *b = pb;

	if (a->apart != b->apart)
		return a->apart ? 1 : -1;
	if (a->pool != b->pool)
		return a->pool < b->pool ? -1 : 1;
	if (a->elo != b->elo)
		return a->elo > b->elo ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int rank_bots(struct report *r)
{
	struct rank_key *keys = reallocarray(NULL, r->nbots, sizeof(*keys));

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < r->nbots; i++)
		keys[i] = (struct rank_key){ report_never_started(&r->bots[i]), r->fit.pool[i],
					     r->bots[i].elo, r->bots[i].name, i };
	qsort(keys, r->nbots, sizeof(*keys), rank_cmp);
	for (size_t k = 0; k < r->nbots; k++)
		r->order[k] = keys[k].index;
	free(keys);
	return 0;
}

/*
 * The fixed ratings of ropt for the bots of log into r->fixed, a new array
 * of n (NAN for a fitted bot), and the sentence naming them into
 * r->fixed_text; NULL and "" when none played. -ENOMEM.
 */
static int fixed_ratings(struct report *r, const struct gamelog *log,
			 const struct report_options *ropt)
{
	size_t n = log->nbots, len = 0, named = 0;
	double *fixed;

	r->fixed_text[0] = '\0';
	if (!ropt->nfixed || ropt->anchor)
		return 0;
	if (!(fixed = malloc(n * sizeof(*fixed))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		fixed[i] = NAN;
	for (size_t k = 0; k < ropt->nfixed; k++) {
		long i = gamelog_find_bot(log, ropt->fixed_names[k]);

		if (i < 0)
			continue;
		fixed[i] = ropt->fixed_elo[k];
		if (len < sizeof(r->fixed_text))
			len += (size_t)snprintf(r->fixed_text + len, sizeof(r->fixed_text) - len,
						"%s%.40s %g", named ? ", " : "",
						ropt->fixed_names[k], ropt->fixed_elo[k]);
		named++;
	}
	if (!named) {
		free(fixed);
		return 0;
	}
	r->fixed = fixed;
	return 0;
}

/* The fit's pools that hold a bot that started (report.h, pools). */
static size_t rated_pools(const struct report *r)
{
	size_t n = 0;

	for (size_t p = 0; p < r->fit.npools; p++)
		for (size_t i = 0; i < r->nbots; i++)
			if (r->fit.pool[i] == p && !report_never_started(&r->bots[i])) {
				n++;
				break;
			}
	return n;
}

/* Turn the sums of a into the report: copy them at the log's size, fit, rank. */
static int acc_finish(struct report *r, const struct acc *a, const struct gamelog *log,
		      const struct report_options *ropt, char *err, size_t errsz)
{
	struct rating_options opt = { ropt->prior_draws, -1, NULL, NULL };
	const char *anchor = ropt->anchor;
	double prior_draws = ropt->prior_draws;
	size_t n = log->nbots;
	int rc;

	memset(r, 0, sizeof(*r));
	r->log = log;
	r->anchor = -1;
	r->prior_draws = prior_draws;
	r->plain_intervals = ropt->plain_intervals;
	r->partial = ropt->partial;
	r->games_recorded = ropt->games_recorded;
	r->games_expected = ropt->games_expected;
	r->eta_s = ropt->eta_s;
	r->section_md = ropt->section_md;
	r->section_html = ropt->section_html;
	r->section_ctx = ropt->section_ctx;
	r->title = ropt->title ? ropt->title : "Tournament report";
	if (!ropt->plain_intervals)
		opt.clusters = &a->clusters;
	if (log->records == 0 || n == 0 || a->cap < n) {
		snprintf(err, errsz, "no complete game records yet");
		return -ENODATA;
	}
	if (anchor) {
		opt.anchor = gamelog_find_bot(log, anchor);
		if (opt.anchor < 0) {
			snprintf(err, errsz, "anchor bot \"%s\" played no game", anchor);
			return -ENOENT;
		}
		r->anchor = opt.anchor;
		r->anchor_elo = ropt->anchor_elo;
	}
	r->nbots = n;
	if ((rc = fixed_ratings(r, log, ropt)) < 0)
		goto out;
	opt.fixed = r->fixed;
	rc = -ENOMEM;
	r->bots = calloc(n, sizeof(*r->bots));
	r->order = calloc(n, sizeof(*r->order));
	r->pair_pent = calloc(n * n * 5, sizeof(double));
	if (!r->bots || !r->order || !r->pair_pent || rating_pairs_copy(&r->pairs, &a->pairs, n) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		r->bots[i] = a->bots[i];
		r->bots[i].name = log->bots[i];
		memcpy(&r->pair_pent[i * n * 5], &a->pair_pent[i * a->cap * 5], n * 5 * sizeof(double));
	}
	memcpy(r->seat_games, a->seat_games, sizeof(r->seat_games));
	memcpy(r->seat_wins, a->seat_wins, sizeof(r->seat_wins));
	memcpy(r->seat_partnership, a->seat_partnership, sizeof(r->seat_partnership));
	memcpy(r->seat_rotated, a->seat_rotated, sizeof(r->seat_rotated));
	r->duplicate_pairs = a->duplicate_pairs;
	/* a bot that never started is listed apart, unrated: its forfeits are no results */
	for (size_t i = 0; i < n; i++)
		if (report_never_started(&r->bots[i]))
			rating_pairs_drop(&r->pairs, i);
	rc = rating_fit(&r->pairs, &opt, &r->fit);
	if (rc < 0)
		goto out;
	r->pools = rated_pools(r);
	for (size_t i = 0; i < n; i++) {
		struct report_bot *b = &r->bots[i];
		/* The anchor's rating moves its pool only. */
		if (r->anchor >= 0 && r->fit.pool[i] == r->fit.pool[r->anchor])
			r->fit.elo[i] += r->anchor_elo;
		b->elo = r->fit.elo[i];
		b->ci95 = rating_ci95(&r->fit, i);
		if (b->time_moves > 0) {
			b->time_mean_us /= b->time_moves;
			b->time_cpu_mean_us /= b->time_moves;
			b->time_p99_us /= b->time_moves;
		}
		rating_paired_stats(b->pent, &b->paired);
	}
	rc = rank_bots(r);
	if (rc == 0)
		report_compute_stats(r);
out:
	if (rc < 0) {
		if (rc == -EINVAL)
			snprintf(err, errsz, "bad rating options (prior draws must be >= 0)");
		else if (rc == -EDOM && prior_draws == 0)
			snprintf(err, errsz, "with no prior (--prior 0) a rating is finite only when "
				 "every bot has scored against and lost points to bots that link it "
				 "to the rest of its pool; a bot without a win or without a loss "
				 "needs a prior > 0");
		else
			snprintf(err, errsz, "computing ratings: %s", strerror(-rc));
		report_release(r);
	}
	return rc;
}

int report_load_opts(struct report *r, struct gamelog *log, const char *const *dirs,
		     size_t ndirs, const struct report_options *opt, char *err, size_t errsz)
{
	struct acc a = { 0 };
	int rc;

	memset(r, 0, sizeof(*r));
	/* links to replay pages only for a report that sits in the one directory it reads */
	if ((rc = gamelist_new(ndirs == 1 ? dirs[0] : NULL, &a.games)) < 0) {
		snprintf(err, errsz, "out of memory");
		return rc;
	}
	gamelog_set_sink(log, acc_add, &a);
	log->stop = &stop_requested;
	for (size_t i = 0; i < ndirs; i++) {
		char path[4096];
		if ((size_t)snprintf(path, sizeof(path), "%s/games.jsonl", dirs[i]) >= sizeof(path)) {
			snprintf(err, errsz, "path too long: \"%s\"", dirs[i]);
			rc = -ENAMETOOLONG;
			goto out;
		}
		rc = gamelog_read(log, path, err, errsz);
		if (rc == 0)
			rc = cluster_sums_close_all(&a.clusters);
		if (rc < 0)
			goto out;
		dup_clear(&a);
	}
	if ((rc = gamelist_finish(a.games)) < 0) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	rc = acc_finish(r, &a, log, opt, err, errsz);
	if (rc == 0) {
		r->dirs = dirs;
		r->ndirs = ndirs;
		r->games = a.games;
		a.games = NULL;
		if ((rc = report_find_challengers(r)) < 0) {
			snprintf(err, errsz, "out of memory");
			report_release(r);
		}
	}
out:
	gamelog_set_sink(log, NULL, NULL);
	log->stop = NULL;
	gamelist_free(a.games);
	acc_release(&a);
	return rc;
}

struct report_fold {
	struct acc a;
};

int report_fold_new(struct report_fold **out)
{
	return (*out = calloc(1, sizeof(**out))) ? 0 : -ENOMEM;
}

void report_fold_free(struct report_fold *f)
{
	if (f)
		acc_release(&f->a);
	free(f);
}

int report_fold_add(void *fold, const struct gamelog *log, const struct gamelog_game *g)
{
	return acc_add(&((struct report_fold *)fold)->a, log, g);
}

int report_fold_build(struct report *r, const struct report_fold *f, const struct gamelog *log,
		      const struct report_options *opt, char *err, size_t errsz)
{
	return acc_finish(r, &f->a, log, opt, err, errsz);
}

void report_release(struct report *r)
{
	free(r->bots);
	free(r->order);
	free(r->pair_pent);
	free(r->challenger);
	free(r->fixed);
	for (size_t d = 0; r->tournaments && d < r->ndirs; d++)
		cJSON_Delete(r->tournaments[d]);
	free(r->tournaments);
	gamelist_free(r->games);
	rating_fit_release(&r->fit);
	rating_pairs_release(&r->pairs);
	memset(r, 0, sizeof(*r));
}

void report_method_text(const struct report *r, char *buf, size_t size)
{
	char anchor[320];

	if (r->anchor >= 0)
		snprintf(anchor, sizeof(anchor), "%.64s is rated %g (the other pools' averages "
			 "are 0)", r->bots[r->anchor].name, r->anchor_elo);
	else if (r->fixed_text[0])
		snprintf(anchor, sizeof(anchor), "fixed, not fitted: %.200s (pools without "
			 "them average 0)", r->fixed_text);
	else
		snprintf(anchor, sizeof(anchor), "each pool's average is 0");
	snprintf(buf, size,
		 "Elo: joint maximum-likelihood Bradley-Terry fit on the logistic Elo scale "
		 "(E = 1/(1+10^(-d/400))) of the results between the sides of every game (R7 "
		 "placings; a bot alone is a side; partners are one side, whose rating is the sum "
		 "of theirs and which places as its best-placed partner; equal placings are ties, "
		 "worth half a point; several kinds of game, by player count and partnership, "
		 "on the scale of the kind of fewest players, each other kind's differences "
		 "multiplied by a fitted discrimination), with a "
		 "prior of %g virtual draws of each bot against a 0-rated opponent; %s. "
		 "+-95%%: 1.96 standard errors under the anchor constraint, %s. "
		 "Next: the Elo difference to the bot ranked next, +- its own 95%% half-width. "
		 "LOS(A>B) = Phi((Elo_A - Elo_B) / sd(Elo_A - Elo_B)) from the same covariance. "
		 "Rated W/D/L and rated score: the results the fit uses, a team's counted for "
		 "each partner (a stalemate "
		 "places by stock left, so it can be a rated win); real wins: records the bot's "
		 "side won; points: R8 Skip-Bo points.",
		 r->prior_draws, anchor, r->plain_intervals ?
		 "from the inverse of the observed information matrix (results treated as "
		 "independent)" :
		 "cluster-robust (sandwich) with each deal, all its rotations, as a cluster, so "
		 "that results sharing a deal or a game may be correlated");
}

int report_write_faults(const struct report_bot *b, FILE *out)
{
	int written = 0;

	for (int k = 0; k < GAMELOG_FAULT_KINDS; k++) {
		if (!b->faults[k])
			continue;
		fprintf(out, "%s%s %ld", written++ ? ", " : "", gamelog_fault_names[k], b->faults[k]);
	}
	return written;
}

/* "The first invalid line: games.jsonl line 7 of DIR: why" (why is printable ASCII). */
const char *report_first_invalid_text(const struct report *r, char *buf, size_t size)
{
	const struct gamelog *log = r->log;

	if (r->dirs && log->first_invalid_source < r->ndirs)
		snprintf(buf, size, "The first invalid line: %.4000s/games.jsonl, line %zu: %s",
			 r->dirs[log->first_invalid_source], log->first_invalid_line,
			 log->first_invalid);
	else
		snprintf(buf, size, "The first invalid line: line %zu: %s", log->first_invalid_line,
			 log->first_invalid);
	return buf;
}

void report_write_sources(const struct report *r, FILE *out,
			  void (*write_text)(FILE *out, const char *s))
{
	for (size_t i = 0; i < r->ndirs; i++) {
		fputs(i ? ", " : "Source: ", out);
		write_text(out, r->dirs[i]);
	}
	if (r->ndirs)
		fputs(". ", out);
	fprintf(out, "%zu records", r->log->records);
	if (r->log->torn || r->log->invalid || r->log->repeated)
		fprintf(out, " (skipped: %zu incomplete last line(s), %zu invalid line(s), "
			"%zu record(s) with a repeated id)", r->log->torn, r->log->invalid,
			r->log->repeated);
	if (r->log->invalid) {
		char first[GAMELOG_WHY_MAX + 4200];

		fputs(". ", out);
		write_text(out, report_first_invalid_text(r, first, sizeof(first)));
	}
}

double report_rated_score(const struct report_bot *b)
{
	double n = b->rated_w + b->rated_d + b->rated_l;

	return n > 0 ? (b->rated_w + b->rated_d / 2.0) / n : 0.0;
}

bool report_never_started(const struct report_bot *b)
{
	return b->games > 0 && b->faults[GAMELOG_FAULT_START] >= b->games;
}
