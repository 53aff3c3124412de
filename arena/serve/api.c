/*
 * api.c - the JSON documents of the API (contract in api.h).
 */
#include "api.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void number(struct jsonw *w, double x)
{
	if (isfinite(x))
		jsonw_printf(w, "%.6g", x);
	else
		jsonw_text(w, "null");
}

static void key(struct jsonw *w, const char *k)
{
	jsonw_string(w, k);
	jsonw_text(w, ":");
}

/* ,"name":x (null when not finite) */
static void number_field(struct jsonw *w, const char *name, double x)
{
	jsonw_printf(w, ",\"%s\":", name);
	number(w, x);
}

static void progress_fields(const struct catalog_entry *e, struct jsonw *w)
{
	struct catalog_progress p;

	catalog_progress(e, &p);
	jsonw_printf(w, "\"id\":%zu,", e->id);
	key(w, "name");
	jsonw_string(w, e->rec.ndirs ? e->info[0].name : "");
	jsonw_printf(w, ",\"kind\":\"%s\",\"state\":\"%s\",\"games\":%llu,\"scheduled\":%llu,",
		     e->shards ? "shards" : e->league ? "league" : "tournament",
		     catalog_state_names[p.state], (unsigned long long)p.games,
		     (unsigned long long)p.scheduled);
	jsonw_printf(w, "\"last_record\":%lld", (long long)p.last_record);
	if (e->league)
		jsonw_printf(w, ",\"games_today\":%llu", (unsigned long long)p.games_today);
	else
		jsonw_text(w, ",\"games_today\":null");
	number_field(w, "games_per_s", p.games_per_s);
	number_field(w, "eta_s", p.eta_s);
}

int api_index(struct catalog *c, struct jsonw *w)
{
	size_t n;

	catalog_scan(c);
	n = catalog_count(c);
	jsonw_reset(w);
	jsonw_text(w, "{\"tournaments\":[");
	for (size_t i = 0; i < n; i++) {
		struct catalog_entry *e = catalog_entry(c, i);
		catalog_lock(e);
		catalog_refresh(e, false);
		jsonw_text(w, i ? ",{" : "{");
		progress_fields(e, w);
		jsonw_text(w, ",\"dirs\":[");
		for (size_t k = 0; k < e->rec.ndirs; k++) {
			jsonw_text(w, k ? "," : "");
			jsonw_string(w, e->rec.dirs[k].path);
		}
		jsonw_text(w, "]}");
		catalog_unlock(e);
	}
	jsonw_text(w, "]}");
	return jsonw_error(w);
}

static void shards_array(const struct catalog_entry *e, struct jsonw *w)
{
	jsonw_text(w, "[");
	for (size_t k = 0; k < e->rec.ndirs; k++) {
		const struct serve_dir *d = &e->rec.dirs[k];
		const struct serve_dir_info *info = &e->info[k];
		jsonw_text(w, k ? ",{" : "{");
		key(w, "dir");
		jsonw_string(w, d->path);
		if (info->nshards)
			jsonw_printf(w, ",\"shard\":%u,\"shards\":%u", info->shard, info->nshards);
		jsonw_printf(w, ",\"state\":\"%s\",\"games\":%llu,\"scheduled\":%llu,"
			     "\"last_record\":%lld,\"invalid\":%llu,\"torn_bytes\":%llu}",
			     catalog_state_names[catalog_dir_state(e, k)],
			     (unsigned long long)d->records, (unsigned long long)info->scheduled,
			     (long long)d->mtime, (unsigned long long)d->invalid,
			     (unsigned long long)(d->size - d->offset));
	}
	jsonw_text(w, "]");
}

/* ,"sprt": the test of an SPRT directory as its records stand, or null. */
static void sprt_field(const struct catalog_entry *e, struct jsonw *w)
{
	const struct sprt_fold *f = e->rec.sprt;
	const struct sprt *t = f ? &f->test : NULL;
	enum sprt_state st;

	jsonw_text(w, ",\"sprt\":");
	if (!t) {
		jsonw_text(w, "null");
		return;
	}
	st = sprt_status(t);
	jsonw_text(w, "{\"elo0\":");
	number(w, t->elo0);
	number_field(w, "elo1", t->elo1);
	number_field(w, "alpha", t->alpha);
	number_field(w, "beta", t->beta);
	number_field(w, "lower", t->lower);
	number_field(w, "upper", t->upper);
	number_field(w, "llr", t->llr);
	jsonw_printf(w, ",\"decision\":%s,\"pairs\":%.0f,\"pentanomial\":[%.0f,%.0f,%.0f,%.0f,%.0f],"
		     "\"pending_games\":%llu}",
		     st == SPRT_ACCEPT_H1 ? "\"H1\"" : st == SPRT_ACCEPT_H0 ? "\"H0\"" : "null",
		     t->pairs, t->pent[0], t->pent[1], t->pent[2], t->pent[3], t->pent[4],
		     (unsigned long long)sprt_fold_pending(f));
}

void api_string_field(struct jsonw *w, const char *name, const char *text)
{
	jsonw_printf(w, ",\"%s\":", name);
	if (text)
		jsonw_string(w, text);
	else
		jsonw_text(w, "null");
}

/* ,"league": a league's entries, its refused edit, its anchors; null for a tournament. */
static void league_field(const struct catalog_entry *e, struct jsonw *w)
{
	const struct league_board *b = e->league;

	jsonw_text(w, ",\"league\":");
	if (!b) {
		jsonw_text(w, "null");
		return;
	}
	jsonw_printf(w, "{\"history_lines\":%llu", (unsigned long long)b->history.lines);
	api_string_field(w, "refused", b->refused);
	api_string_field(w, "error", e->league_err[0] ? e->league_err : NULL);
	jsonw_text(w, ",\"anchors\":[");
	for (size_t k = 0; b->have_cfg && k < b->cfg.nanchors; k++) {
		jsonw_text(w, k ? ",{\"name\":" : "{\"name\":");
		jsonw_string(w, b->cfg.anchors[k]);
		number_field(w, "elo", b->cfg.anchor_elo[k]);
		jsonw_text(w, "}");
	}
	jsonw_text(w, "],\"entries\":[");
	for (size_t i = 0; i < b->n; i++) {
		const struct league_board_entry *x = &b->entries[i];
		jsonw_printf(w, "%s{\"entry\":%zu,\"name\":", i ? "," : "", i);
		jsonw_string(w, x->name);
		jsonw_printf(w, ",\"version\":%d", x->version);
		api_string_field(w, "previous", x->previous);
		jsonw_printf(w, ",\"state\":\"%s\"", league_entry_status_name(x->status));
		api_string_field(w, "why", x->why);
		jsonw_printf(w, ",\"anchor\":%s", x->anchor ? "true" : "false");
		number_field(w, "anchor_elo", x->anchor_elo);
		jsonw_text(w, "}");
	}
	jsonw_text(w, "]}");
}

int api_summary(const struct catalog_entry *e, struct jsonw *w)
{
	const struct serve_dir_info *info = e->rec.ndirs ? &e->info[0] : NULL;

	jsonw_reset(w);
	jsonw_text(w, "{");
	progress_fields(e, w);
	jsonw_printf(w, ",\"version\":\"%llu.%zu\",\"generation\":%llu,\"indexed\":%zu",
		     (unsigned long long)e->rec.generation, e->rec.ngames,
		     (unsigned long long)e->rec.generation, e->rec.ngames);
	if (info)
		jsonw_printf(w, ",\"players\":%d,\"deals\":%u,\"duplicate\":%s,\"bots\":%zu",
			     info->players, info->deals, info->duplicate ? "true" : "false",
			     info->nbots);
	jsonw_printf(w, ",\"skipped\":{\"invalid\":%zu,\"repeated\":%zu}",
		     e->rec.log.invalid, e->rec.log.repeated);
	sprt_field(e, w);
	league_field(e, w);
	jsonw_text(w, ",\"shards\":");
	shards_array(e, w);
	jsonw_text(w, "}");
	return jsonw_error(w);
}

int api_shards(const struct catalog_entry *e, struct jsonw *w)
{
	jsonw_reset(w);
	jsonw_text(w, "{\"shards\":");
	shards_array(e, w);
	jsonw_text(w, "}");
	return jsonw_error(w);
}

/* The fields of one ranking row of bot k. */
static void bot_fields(const struct report *r, size_t k, struct jsonw *w)
{
	const struct report_bot *b = &r->bots[k];
	char elo[48];

	jsonw_printf(w, "\"index\":%zu,", k);
	key(w, "name");
	jsonw_string(w, b->name);
	jsonw_printf(w, ",\"rank\":%zu,\"pool\":%zu,\"anchor\":%s", b->rank, b->pool + 1,
		     r->fixed && !isnan(r->fixed[k]) ? "true" : "false");
	number_field(w, "elo", b->bound ? b->bound_elo : b->elo);
	number_field(w, "ci95", b->bound ? NAN : b->ci95);
	jsonw_printf(w, ",\"bound\":%d,", b->bound);
	key(w, "elo_text");
	jsonw_string(w, report_elo_text(b, elo, sizeof(elo)));
	number_field(w, "next_diff", b->next_diff);
	number_field(w, "next_ci95", b->next_ci95);
	jsonw_printf(w, ",\"rated_w\":%.1f,\"rated_d\":%.1f,\"rated_l\":%.1f", b->rated_w,
		     b->rated_d, b->rated_l);
	number_field(w, "rated_score", report_rated_score(b));
	jsonw_printf(w, ",\"games\":%ld,\"wins\":%ld", b->games, b->wins);
	number_field(w, "win_rate", report_win_rate(b));
	jsonw_printf(w, ",\"points\":%ld", b->points);
	number_field(w, "avg_stock_left", report_avg_stock(b));
	jsonw_text(w, ",\"faults\":{");
	for (int f = 0; f < GAMELOG_FAULT_KINDS; f++)
		jsonw_printf(w, "%s\"%s\":%ld", f ? "," : "", gamelog_fault_names[f], b->faults[f]);
	jsonw_printf(w, "},\"faults_total\":%ld,\"time\":", b->faults_total);
	if (b->time_moves > 0) {
		jsonw_printf(w, "{\"moves\":%.0f", b->time_moves);
		number_field(w, "mean_us", b->time_mean_us);
		number_field(w, "p99_us", b->time_p99_us);
		number_field(w, "max_us", b->time_max_us);
		number_field(w, "cpu_mean_us", b->time_cpu_mean_us);
		jsonw_text(w, "}");
	} else {
		jsonw_text(w, "null");
	}
}

static void no_report(const struct catalog_entry *e, struct jsonw *w)
{
	jsonw_text(w, "\"records\":0,\"verdict\":null,\"fixed\":null,\"bots\":[],\"error\":");
	jsonw_string(w, e->report_err);
}

int api_ranking(const struct catalog_entry *e, struct jsonw *w)
{
	const struct report *r = &e->report;

	jsonw_reset(w);
	jsonw_printf(w, "{\"version\":\"%llu.%zu\",", (unsigned long long)e->rec.generation,
		     e->report_n);
	if (!e->have_report) {
		no_report(e, w);
	} else {
		char verdict[256];

		report_verdict(r, verdict, sizeof(verdict));
		jsonw_printf(w, "\"records\":%llu,\"pools\":%zu", (unsigned long long)e->report_records,
			     r->pools);
		api_string_field(w, "verdict", verdict[0] ? verdict : NULL);
		api_string_field(w, "fixed", r->fixed_text[0] ? r->fixed_text : NULL);
		jsonw_text(w, ",\"bots\":[");
		for (size_t k = 0; k < r->nbots; k++) {
			jsonw_text(w, k ? ",{" : "{");
			bot_fields(r, r->order[k], w);
			jsonw_text(w, "}");
		}
		jsonw_text(w, "],\"error\":null");
	}
	jsonw_text(w, "}");
	return jsonw_error(w);
}

int api_bot(const struct catalog_entry *e, size_t k, struct jsonw *w)
{
	const struct report *r = &e->report;
	const struct report_bot *b;
	size_t n;

	if (!e->have_report || k >= r->nbots)
		return -ENOENT;
	n = r->nbots;
	b = &r->bots[k];
	jsonw_reset(w);
	jsonw_printf(w, "{\"version\":\"%llu.%zu\",", (unsigned long long)e->rec.generation,
		     e->report_n);
	bot_fields(r, k, w);
	jsonw_text(w, ",\"opponents\":[");
	for (size_t j = 0, any = 0; j < n; j++) {
		double games = r->pairs.games[k * n + j];
		if (j == k || games <= 0)
			continue;
		jsonw_text(w, any++ ? ",{" : "{");
		jsonw_printf(w, "\"index\":%zu,", j);
		key(w, "name");
		jsonw_string(w, r->bots[j].name);
		jsonw_printf(w, ",\"results\":%.1f,\"score\":%.1f", games, r->pairs.score[k * n + j]);
		number_field(w, "los", rating_los(&r->fit, k, j));
		jsonw_text(w, "}");
	}
	jsonw_text(w, "],\"seats\":[");
	for (int s = 0, any = 0; s < GAMELOG_SEATS_MAX; s++) {
		if (!b->seat_games[s])
			continue;
		jsonw_printf(w, "%s{\"seat\":%d,\"games\":%ld,\"wins\":%ld}", any++ ? "," : "", s,
			     b->seat_games[s], b->seat_wins[s]);
	}
	jsonw_text(w, "]}");
	return jsonw_error(w);
}

int api_league_chart(const struct catalog_entry *e, struct jsonw *w)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	if (!e->league)
		return -ENOENT;
	if (!(out = open_memstream(&text, &len)))
		return -ENOMEM;
	rc = league_board_chart(e->league, out);
	if (fclose(out) != 0 || !text)
		rc = -ENOMEM;
	jsonw_reset(w);
	if (rc == 0)
		jsonw_raw(w, text, len);
	free(text);
	return rc < 0 ? -ENOMEM : jsonw_error(w);
}

int api_fault_kind(const char *name)
{
	for (int f = 0; f < GAMELOG_FAULT_KINDS; f++)
		if (!strcmp(name, gamelog_fault_names[f]))
			return f;
	return -1;
}

static bool has_bot(const struct serve_game *g, long bot)
{
	for (int s = 0; s < g->players; s++)
		if ((long)g->bot[s] == bot)
			return true;
	return false;
}

bool api_game_visible(const struct serve_game *g, const bool *visible, size_t nvisible)
{
	if (!visible)
		return true;
	for (int s = 0; s < g->players; s++)
		if (g->bot[s] < nvisible && visible[g->bot[s]])
			return true;
	return false;
}

static bool matches(const struct serve_game *g, const struct api_games_query *q)
{
	if (!api_game_visible(g, q->visible, q->nvisible))
		return false;
	if (q->bot >= 0 && !has_bot(g, q->bot))
		return false;
	if (q->vs >= 0 && !has_bot(g, q->vs))
		return false;
	if (q->fault == API_FAULT_ANY)
		return g->faults != 0;
	return q->fault < 0 || (g->faults >> q->fault & 1);
}

/* One listed game: its number and its record as written. */
static int game_item(const struct catalog_entry *e, size_t n, bool first, struct jsonw *w)
{
	size_t len;
	char *line = serve_records_line(&e->rec, n, &len);

	jsonw_printf(w, "%s{\"n\":%zu,\"record\":", first ? "" : ",", n);
	if (line)
		jsonw_raw(w, line, len);
	else
		jsonw_text(w, "null");
	jsonw_text(w, "}");
	free(line);
	return line ? 0 : -errno;
}

int api_games(const struct catalog_entry *e, const struct api_games_query *q, struct jsonw *w)
{
	size_t total = 0, listed = 0, n = e->rec.ngames;
	size_t limit = q->limit > API_PAGE_MAX ? API_PAGE_MAX : q->limit;

	jsonw_reset(w);
	jsonw_printf(w, "{\"version\":\"%llu.%zu\",\"offset\":%zu,\"games\":[",
		     (unsigned long long)e->rec.generation, n, q->offset);
	for (size_t k = 0; k < n; k++) {
		size_t i = q->oldest_first ? k : n - 1 - k;
		if (!matches(&e->rec.games[i], q))
			continue;
		if (total++ < q->offset || listed >= limit || w->len >= API_PAGE_BYTES)
			continue;
		game_item(e, i, listed++ == 0, w);
	}
	jsonw_printf(w, "],\"listed\":%zu,\"matching\":%zu}", listed, total);
	return jsonw_error(w);
}
