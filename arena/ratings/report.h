/*
 * report.h - ranking reports from games.jsonl: the terminal table,
 * ratings.json, ratings.csv, report.md and (report_html.h) report.html.
 *
 * Everything is computed from the game records alone (gamelog.h), so a report
 * can be made of a tournament that is still running, and of several
 * directories merged (bots are matched by name).
 *
 * Records are folded into sums as they are read and not kept, so the memory a
 * report takes does not grow with the number of records: bots^2 sums plus the
 * duplicate halves whose other rotation has not been read yet (a handful, as
 * the arena writes the rotations of a deal one after the other).
 *
 * What the numbers are:
 * - Elo +- 95%: the joint Bradley-Terry fit of rating.h on R7 results (each
 *   two sides of a record, a bot alone or a team, are one result), each pool's
 *   average 0 unless an anchor bot is named (then it is rated anchor_elo).
 *   The interval, the chart and LOS are cluster-robust by default (cluster.h:
 *   the cluster is a deal, every rotation of it: the record's source, table
 *   and deal); plain_intervals selects the model's own, which treat results
 *   as independent.
 * - pools: bots linked by results; each is ranked on its own (rank restarts),
 *   and ratings of different pools are never compared.
 * - bound: a bot with no points, or no points lost, against its pool has a
 *   rating set by the prior alone; it is shown as a bound ("< x" or "> x"),
 *   x the rating at which a result that extreme has a 5% chance given its
 *   opponents' ratings, and no interval.
 * - rated W/D/L and rated score: the results the fit uses, a team's counted
 *   for each partner (a
 *   stalemate ranks by stock left, so it can be a rated win), score (W +
 *   D/2) / (W + D + L). "real wins" are records whose winners include the
 *   bot's seat; "points" are R8 Skip-Bo points, not the rated score.
 * - next: the Elo difference to the bot ranked next in the same pool, with
 *   its 95% half-width from the covariance (which no anchor choice changes).
 * - fit: the head-to-head pair whose score is furthest from what the ratings
 *   expect (z = residual / binomial sd); flagged when its two-sided p-value
 *   is below 0.05 / pairs (Bonferroni).
 * - games / wins / win %: records the bot played / records whose winners
 *   include its seat (real wins). In match mode a record is a whole match.
 * - points: R8 scores summed; avg stock left: mean of stock_left at the end.
 * - faults by kind: R11 faults recorded against the bot's seats.
 * - move time: mean = moves-weighted mean of the per-game means; max = the
 *   largest per-game max; p99 = moves-weighted mean of the per-game p99s (the
 *   records keep only per-game summaries, so the exact percentile over all
 *   moves cannot be recovered; this estimate equals it when every game has the
 *   same time distribution and is never above the true maximum).
 * - paired (2-player duplicate deals only): the two rotations of a deal (same
 *   source, table and deal, rotations 0 and 1, the two bots swapping seats)
 *   form a pair; the bot's pair score is its R7 result summed over both games
 *   (0, 0.5, 1, 1.5 or 2). Paired Elo is the Elo of its mean score against its
 *   opponents, and its interval comes from the variance of the pair scores
 *   (rating_paired_stats), which accounts for the luck of the shared deal.
 *   It is a second, independent estimate, not the fitted Elo.
 * - win rate by seat: for each player count, the share of records won by
 *   each seat. In tournament games seat 0 moves first (seat players-1 deals,
 *   R3), so this shows the first player's advantage; in match mode the dealer
 *   moves on after each game (R9) and seats even out. Without duplicate
 *   deals (no record of that player count has a rotation above 0) seat
 *   order is not balanced per deal, and the report warns when the sides'
 *   wins differ beyond chance (chi-square test of equal shares, p < 0.01;
 *   in partnership the sides are the teams).
 */
#ifndef SKIPBO_REPORT_H
#define SKIPBO_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "gamelog.h"
#include "rating.h"

struct report_bot {
	const char *name;        /* borrowed from the gamelog */
	double elo, ci95;        /* ci95: half-width (robust unless plain_intervals) */
	size_t pool, rank;       /* pool number; rank within it, from 1 (never started: its
	                            place after the rated bots; report_rank_text) */
	int bound;               /* 0, or -1: "< bound_elo", +1: "> bound_elo" (prior alone) */
	double bound_elo;
	double rated_w, rated_d, rated_l; /* results as rated */
	double next_diff, next_ci95; /* to the next bot in the pool; NAN for the last */
	long games, wins;
	long seat_games[GAMELOG_SEATS_MAX], seat_wins[GAMELOG_SEATS_MAX]; /* by its seat */
	long points;
	double stock_left_sum;
	long faults[GAMELOG_FAULT_KINDS];
	long faults_total;
	double time_moves;       /* 0 when no record carried times */
	double time_mean_us, time_p99_us, time_max_us;
	double time_cpu_mean_us; /* the bot's CPU time per move */
	double pent[5];          /* duplicate pair scores 0, 0.5, 1, 1.5, 2 */
	struct rating_paired paired;
};

struct report {
	const struct gamelog *log; /* bot names and record counts */
	size_t nbots;            /* == log->nbots */
	struct report_bot *bots; /* gamelog order */
	size_t *order;           /* order[r]: bot at rank r + 1 (Elo, then name) */
	struct rating_fit fit;
	/* the fit's pools of bots that started: a bot that never did (report_never_started)
	 * is a pool of its own, ranked last, counted in none */
	size_t pools;
	struct rating_pairs pairs; /* the cross table: score and games for each pair */
	double *pair_pent;       /* nbots x nbots x 5: pair-score counts of i against j */
	long seat_games[GAMELOG_SEATS_MAX + 1];                  /* by player count */
	long seat_partnership[GAMELOG_SEATS_MAX + 1];            /* of those, partnership */
	long seat_rotated[GAMELOG_SEATS_MAX + 1];                /* of those, rotation > 0 */
	double seat_p[GAMELOG_SEATS_MAX + 1]; /* p-value of equal sides; NAN when not tested */
	long seat_wins[GAMELOG_SEATS_MAX + 1][GAMELOG_SEATS_MAX]; /* by player count, seat */
	size_t duplicate_pairs;  /* complete duplicate pairs found */
	long anchor;             /* -1 = field average */
	double anchor_elo;
	double *fixed;           /* NULL, or nbots: a bot's fixed Elo (report_options), NAN if fitted */
	char fixed_text[256];    /* "" or the fixed ratings named */
	double prior_draws;
	bool plain_intervals;
	size_t bounds;           /* bots with bound != 0 */
	/* The worst-fitting head-to-head pair (fit_i, fit_j: -1 without any pair). */
	long fit_i, fit_j;
	double fit_z, fit_p, fit_expected; /* fit_p: two-sided, not yet multiplied by pairs */
	size_t fit_pairs;
	const char *const *dirs; /* the directories read, for titles; may be NULL */
	size_t ndirs;
	bool *challenger;        /* a gauntlet's challengers (tournament.json); NULL: none */
	bool partial;            /* the tournament was stopped before every game was played */
	uint64_t games_recorded, games_expected; /* report_options' */
	long eta_s;
	bool reused_processes;   /* a tournament.json says "processes": "reuse" */
	/* report_options' section and title */
	int (*section_md)(void *ctx, FILE *out);
	int (*section_html)(void *ctx, FILE *out);
	void *section_ctx;
	const char *title;
	/* Kept by report_load_opts from its one reading of each directory, for
	 * report.html (NULL from report_fold_build): each directory's tournament.json
	 * (records_tournament_tree(), NULL when it has none), and the game list
	 * and fault reasons (gamelist.h). */
	struct cJSON **tournaments;
	struct gamelist *games;
};

/* Said by every format when a tournament reused bot processes (TOURNAMENT.md, "Processes"). */
#define REPORT_REUSED_TEXT "processes reused: a bot played several games in one process " \
	"(\"processes\": \"reuse\"), so it could carry what it saw from one game into the next"

/* What a report is asked for (REPORT_OPTIONS_DEFAULT: field average, default prior, robust). */
struct report_options {
	const char *anchor;   /* bot rated anchor_elo, NULL for each pool's average 0 */
	double anchor_elo;
	/* Without anchor: bots whose Elo is fixed, not fitted (a league's frozen
	 * anchors, rating.h), nfixed names and their Elo; names that played no
	 * game are left out. */
	const char *const *fixed_names;
	const double *fixed_elo;
	size_t nfixed;
	double prior_draws;   /* >= 0 */
	bool plain_intervals; /* intervals treating results as independent */
	bool partial;         /* the run was stopped: every format says the ranking is partial */
	bool wide;            /* the printed table has every column, not 80 columns */
	/* How far the tournament is, when the caller knows (games_expected 0: unknown): a
	 * partial report says "N of M" and the time left (eta_s, -1 unknown). */
	uint64_t games_recorded, games_expected;
	long eta_s;
	/* A section of the caller's (a league's history, arena/league/league_history_report.h),
	 * for rooms the ratings may not use: each returns 0 or -EIO. NULL: none. It comes
	 * first in report.md and report.html, after the title and the verdict: what the
	 * report is of (a league) before its games. */
	int (*section_md)(void *ctx, FILE *out);
	int (*section_html)(void *ctx, FILE *out);
	void *section_ctx;
	const char *title;    /* the reports' title; NULL: "Tournament report" */
};

#define REPORT_OPTIONS_DEFAULT { NULL, 0.0, NULL, NULL, 0, RATING_PRIOR_DRAWS, false, false, false, \
	0, 0, -1 }
extern const struct report_options report_defaults; /* REPORT_OPTIONS_DEFAULT */

/*
 * What a partial report says of itself, one sentence into buf: "Partial: 67 of
 * 360 games recorded (18.6%), about 12 min left at the rate so far; the
 * ranking is of these." with the progress known, else that the run was
 * stopped before every game was played.
 */
void report_partial_text(const struct report *r, char *buf, size_t size);

/*
 * Read dirs[i]/games.jsonl for every i (source i) into the empty gamelog log
 * through a sink, so log ends up with the bot names and counters but no
 * records, and compute the report from them. log must outlive r. Errors: -ENOENT
 * if the anchor bot is not in the log, or a games.jsonl is missing (and the
 * other errors of gamelog_read); -EDOM (with a sentence) for prior 0 when a
 * bot has no finite rating; -ENODATA if the log holds no records; -ENOMEM.
 * err gets a sentence on failure.
 */
int report_load_opts(struct report *r, struct gamelog *log, const char *const *dirs,
		     size_t ndirs, const struct report_options *opt, char *err, size_t errsz);
void report_release(struct report *r);

/*
 * An incremental fold: the sums report_load_opts keeps, fed one record at a time
 * by report_fold_add (a gamelog_sink_fn: gamelog_set_sink(log,
 * report_fold_add, fold)) and turned into a report at any moment by
 * report_fold_build, which leaves the fold as it was, so a reader of a file
 * that grows folds only its new records. A record of another source than the
 * last closes every open deal (cluster.h), as a new file does for
 * report_load_opts. report_fold_new: 0 and *out, or -ENOMEM.
 * report_fold_build: the report of the records folded so far, as
 * report_load_opts makes it from the same records, with its errors (log the
 * gamelog that handed them; r->dirs is left NULL).
 */
struct report_fold;
int report_fold_new(struct report_fold **out);
void report_fold_free(struct report_fold *f);
int report_fold_add(void *fold, const struct gamelog *log, const struct gamelog_game *g);
int report_fold_build(struct report *r, const struct report_fold *f, const struct gamelog *log,
		      const struct report_options *opt, char *err, size_t errsz);

/* "The first invalid line: ..." of r's records into buf (size >= 4200 +
 * GAMELOG_WHY_MAX): the directory, the line and why; returns buf. */
const char *report_first_invalid_text(const struct report *r, char *buf, size_t size);

/* The ranking table as aligned text (what `run` and `report` print): the
 * verdict line, then rank, bot, Elo, its interval, score, games, win rate and
 * faults in 80 columns; with wide every column (report_print_table_wide). */
void report_print_table(const struct report *r, FILE *out);
void report_print_table_wide(const struct report *r, FILE *out, bool wide);

/*
 * The one line a reader wants first, into buf ("" when there is no such line:
 * fewer than 2 bots, several pools, a leader rated by the prior alone):
 * "hard leads medium by 49.5 ± 68.4 Elo; LOS 92%: not yet decided", from the
 * leader's difference to the second and its 95% interval; "decided" when the
 * interval is clear of 0.
 */
void report_verdict(const struct report *r, char *buf, size_t size);

/* Which Elo to quote, for every format: one sentence. */
#define REPORT_QUOTE_NOTE "Quote a bot's Elo with its \u00b195% interval; \"next\" is " \
	"the gap to the bot ranked below, not a second rating."

/* Every game of b is a start fault: its program never ran (no such file, exec
 * failure, no hello in time). A report and `run` say so first. Such a bot is left
 * out of the fit (its forfeits would lift its opponents): it is a pool of its own,
 * rated by the prior alone, and report.html's Elo chart lists it apart, unrated. */
bool report_never_started(const struct report_bot *b);

/* Text (a name, a sentence) in report.md, plain for a pager: only what Markdown would
 * read as markup or a table cell break is escaped, by a backslash; a newline is a space. */
void report_md_text(FILE *out, const char *s);

/* The file formats; each returns 0 or a negative errno from writing. */
int report_write_json(const struct report *r, FILE *out);
int report_write_csv(const struct report *r, FILE *out);
int report_write_md(const struct report *r, FILE *out);

/*
 * Read dirs[i]/games.jsonl for every i, merge them, and write ratings.json,
 * ratings.csv, report.md and report.html into outdir (NULL: dirs[0], allowed
 * only with one directory). Each file is written to a temporary name and
 * renamed, so a reader never sees half a report; a temporary that a report
 * killed on the way left (its process gone) is removed. If table is not NULL the
 * ranking table is printed to it, with a warning line for each bot that
 * never started. Returns the number of bots that never started
 * (report_never_started(); 0 normally) or a negative errno-style code
 * with a sentence in err (-ENOENT: a games.jsonl is missing; -ENODATA: no
 * complete record yet; -EINTR: report_request_stop() was called).
 */
int report_generate(const char *const *dirs, size_t ndirs, const char *outdir, FILE *table,
		    char *err, size_t errsz);

/*
 * From now on report_load_opts and report_generate stop at the next record or file
 * with -EINTR ("stopped" in err), leaving no temporary file behind: for a
 * SIGINT or SIGTERM handler (async-signal-safe; it only sets a flag).
 */
void report_request_stop(void);

/* Whether report_request_stop() was called. */
bool report_stop_requested(void);

/* report_generate() with options (struct report_options). */
int report_generate_opts(const char *const *dirs, size_t ndirs, const char *outdir,
			 const struct report_options *opt, FILE *table, char *err, size_t errsz);

/* Text for the methods notes shared by the writers: how Elo and its interval were made. */
void report_method_text(const struct report *r, char *buf, size_t size);

/*
 * The notes every format prints under the ranking, one per call of
 * write_line(ctx, text) (sentences naming bots, which the writer escapes):
 * disconnected pools, bounds, the fit line, seat warnings.
 */
void report_notes(const struct report *r, void (*write_line)(void *ctx, const char *text),
		  void *ctx);

/*
 * The lines every format prints in its header (report_stats.c), one per call
 * of write_line(ctx, text): the model, the kinds of game it joined (player
 * counts, partnership) with each kind's discrimination against the kind of
 * fewest players (rating.h), and how many rated results were ties.
 */
void report_model_lines(const struct report *r, void (*write_line)(void *ctx, const char *text),
			void *ctx);

/* b's Elo for people: "12.3", or "< -1200.0" / "> 830.2" for a bound. */
const char *report_elo_text(const struct report_bot *b, char *buf, size_t size);

/* b's rank for people: its rank in its pool, or "-" for a bot that never started
 * (report_never_started(): unrated, listed after every rated bot). */
const char *report_rank_text(const struct report_bot *b, char *buf, size_t size);

/* The statistics computed after the fit (report_stats.c): pools' ranks,
 * bounds, differences to the next bot, the fit line, the seat tests. */
void report_compute_stats(struct report *r);

/* Count one rated result (rating.h) into the rated W/D/L of each bot of its sides. */
void report_count_rated(struct report_bot *bots, const struct rating_result *res);

/*
 * A gauntlet (report_gauntlet.c). report_load_opts finds the challengers named by
 * the "challengers" of each directory's tournament.json (bots by name), and
 * there whether its "processes" were reused (reused_processes);
 * report_challengers fills out (r->nbots entries) with them in ranking order
 * and returns how many: each with its rated score and number of results
 * against the field's bots (those not challengers) and its Elo less the
 * field's mean Elo.
 */
struct report_challenger {
	const struct report_bot *bot;
	double score, results;   /* rated points and results against field bots */
	double field_diff;       /* Elo - the field's mean Elo */
};
/* Reads r->tournaments, then finds the challengers. 0 or -ENOMEM. */
int report_find_challengers(struct report *r);
size_t report_challengers(const struct report *r, struct report_challenger *out);

enum report_style { REPORT_TEXT, REPORT_MD, REPORT_HTML };
/* The challengers' table in a format (nothing without challengers); write_text
 * escapes a name for it (unused for REPORT_TEXT). */
void report_write_gauntlet(const struct report *r, enum report_style style, FILE *out,
			   void (*write_text)(FILE *out, const char *s));

/* Formatting helpers shared by the writers. */
double report_win_rate(const struct report_bot *b);
double report_rated_score(const struct report_bot *b); /* (W + D/2) / (W + D + L) */
double report_avg_stock(const struct report_bot *b);

/* b's faults by kind, "timeout 2, exit 1" (fault names need no escaping).
 * Writes nothing when there are none; returns the number of kinds written. */
int report_write_faults(const struct report_bot *b, FILE *out);

/* "Source: a, b. 12 records (skipped: ...)", without a final full stop; the
 * directory names go through write_text, which escapes them for the format. */
void report_write_sources(const struct report *r, FILE *out,
			  void (*write_text)(FILE *out, const char *s));

#endif
