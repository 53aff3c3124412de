/*
 * cmd_report.c - `skipbo-arena report [options] DIR...`: regenerate the report
 * files from games.jsonl alone (also while a tournament still runs) and print
 * the ranking table; several directories merge into one ranking.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "jsonw.h"
#include "league_config.h"
#include "league_report.h"
#include "rating.h"
#include "options.h"
#include "replay_find.h"
#include "report.h"
#include "viewer.h"

static void report_usage(FILE *out)
{
	fputs("usage: skipbo-arena report [options] DIR...\n"
	      "Read DIR/games.jsonl (complete lines only), fit the ratings and write\n"
	      "ratings.json, ratings.csv, report.md and report.html, then print the ranking.\n"
	      "\n"
	      "  -o, --output DIR   write the files here, creating it (required with several DIRs)\n"
	      "  -a, --anchor BOT[=ELO]  rate BOT ELO (default 0) instead of making\n"
	      "                     each pool's average 0; the last '=' followed by a\n"
	      "                     number separates ELO from the name\n"
	      "  -p, --prior K      virtual draws of each bot against a 0-rated opponent\n"
	      "                     that keep unbeaten bots finite (default 0.5; 0 is the\n"
	      "                     plain maximum-likelihood fit, which needs every bot\n"
	      "                     to have a win and a loss)\n"
	      "      --plain-intervals  intervals that treat every rated result as\n"
	      "                     independent (default: robust to results grouped by\n"
	      "                     deal: rotations and pairings of a deal, sides of a game)\n"
	      "      --replays      first write the viewer page of every game of each DIR\n"
	      "                     that has a replay (DIR/replays/ID.html, found through\n"
	      "                     its record), which the report's game list then links to\n"
	      "  -q, --quiet        do not print the ranking table\n"
	      "      --wide         print every column of the ranking (default: the\n"
	      "                     columns that fit 80, led by the verdict line)\n"
	      "  -h, --help         this text\n"
	      "Options may come before or after the directories.\n", out);
}

/* "BOT" or "BOT=ELO" (the last '=' when a finite number follows it) into name and *elo. */
static int parse_anchor(const char *arg, char *name, size_t size, double *elo)
{
	const char *eq = strrchr(arg, '=');
	size_t len = strlen(arg);
	char *end;

	*elo = 0;
	if (eq) {
		errno = 0;
		double x = strtod(eq + 1, &end);
		if (!errno && end != eq + 1 && !*end && isfinite(x) && fabs(x) <= 1e6) {
			*elo = x;
			len = (size_t)(eq - arg);
		}
	}
	if (len == 0 || len >= size) {
		warnx("bad --anchor \"%s\": want a bot name, optionally =ELO", arg);
		return -1;
	}
	memcpy(name, arg, len);
	name[len] = '\0';
	return 0;
}

struct pages {
	const char *dir;
	struct jsonw page;
	struct replay_reader rd; /* the frame read last */
	int status, pages;
};

/* One game's page; a replay that cannot be read or re-checked is warned about and skipped. */
static int write_replay_page(void *ctx, const struct replay_ref *ref)
{
	struct pages *p = ctx;
	char pages[4096], path[4096], name[256], err[1024];
	size_t len;
	char *text;

	snprintf(pages, sizeof(pages), "%s/replays", p->dir);
	if (replay_page_path(pages, ref->id, path, sizeof(path)) < 0) {
		warnx("report: --replays: game \"%s\" in \"%s/games.jsonl\": not a name for a page",
		      ref->id, p->dir);
		p->status = 1;
		return 0;
	}
	if (!(text = replay_ref_read(ref, &p->rd, &len, err, sizeof(err)))) {
		warnx("report: --replays: %s", err);
		p->status = 1;
		return 0;
	}
	snprintf(name, sizeof(name), "game %s", ref->id);
	if (viewer_write_page(name, text, len, path, &p->page, err, sizeof(err)) < 0) {
		warnx("report: --replays: \"%s\", %s", ref->path, err);
		p->status = 1;
	} else {
		p->pages++;
	}
	free(text);
	return 0;
}

/* The viewer page of every game of dir with a replay. 0, or 1 after a warning per failed page. */
static int write_replay_pages(const char *dir, int quiet)
{
	struct pages p = { .dir = dir };
	char err[1024];

	jsonw_init(&p.page);
	replay_reader_init(&p.rd);
	if (replay_each(dir, write_replay_page, &p, err, sizeof(err)) < 0) {
		warnx("report: --replays: %s", err);
		p.status = 1;
	}
	replay_reader_release(&p.rd);
	jsonw_release(&p.page);
	if (!quiet)
		printf("%d replay page%s in %s/replays\n", p.pages, p.pages == 1 ? "" : "s", dir);
	return p.status;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "anchor", required_argument, NULL, 'a' },
		{ "prior", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "plain-intervals", no_argument, NULL, 'P' },
		{ "replays", no_argument, NULL, 'R' },
		{ "wide", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		OPTIONS_VERSION_ENTRY,
		{ NULL, 0, NULL, 0 },
	};
	struct report_options opt = REPORT_OPTIONS_DEFAULT;
	struct league_report league = { 0 };
	struct league_config lc = { 0 };
	bool league_config = false;
	const char *outdir = NULL;
	char anchor[256];
	int quiet = 0, replays = 0, status = 0, c;
	char errbuf[512];

	/* 0, not 1: glibc then also forgets state left by an earlier getopt run in main. */
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:a:p:qh", longopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 'a':
			if (parse_anchor(optarg, anchor, sizeof(anchor), &opt.anchor_elo) < 0)
				return 2;
			opt.anchor = anchor;
			break;
		case 'P':
			opt.plain_intervals = true;
			break;
		case 'R':
			replays = 1;
			break;
		case 'p':
			errno = 0;
			opt.prior_draws = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(opt.prior_draws >= 0) ||
			    opt.prior_draws > 1e6) {
				warnx("--prior: expected a number from 0 to 1000000, got \"%s\"",
				      optarg);
				return 2;
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 'W':
			opt.wide = true;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		case OPTIONS_VERSION:
			return options_print_version();
		default:
			report_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		warnx("report: no tournament directory given");
		report_usage(stderr);
		return 2;
	}
	if (argc - optind > 1 && !outdir) {
		warnx("report: several directories are merged into --output DIR; give one");
		return 2;
	}
	if (outdir && options_make_dirs("report: -o", outdir) < 0)
		return 1;
	/* a report of a tournament still running, or stopped, says how far it is */
	if (argc - optind == 1) {
		struct status_progress p;
		char why[PATH_MAX + 512];

		if (status_progress(argv[optind], &p, why, sizeof(why)) == 0 &&
		    p.recorded < p.total) {
			opt.partial = true;
			opt.games_recorded = p.recorded;
			opt.games_expected = p.total;
			opt.eta_s = p.eta_s;
		}
		free(p.same);
		/* a league's report adds its history and its entries' lineage */
		if (p.league && league_report_open(&league, argv[optind], why, sizeof(why)) < 0)
			warnx("report: the league's history is left out: %s", why);
		else if (p.league) {
			opt.section_md = league_report_md;
			opt.section_html = league_report_html;
			opt.section_ctx = &league;
			opt.title = "League report";
		}
		/* a league's anchors are fixed in its ranking, as the league rates them */
		if (p.league && !opt.anchor) {
			char cerr[CONFIG_ERR_MAX];

			if (league_config_load(argv[optind], &lc, cerr, sizeof(cerr)) < 0) {
				warnx("report: the league's anchors are not fixed in the ranking "
				      "(each pool's average is 0): %s", cerr);
			} else {
				league_config = true;
				opt.fixed_names = (const char *const *)lc.anchors;
				opt.fixed_elo = lc.anchor_elo;
				opt.nfixed = lc.nanchors;
			}
		}
	}
	/* pages first: the report's game list links only to pages that exist */
	for (int i = optind; replays && i < argc; i++)
		status |= write_replay_pages(argv[i], quiet);
	int rc = report_generate_opts((const char *const *)(argv + optind), (size_t)(argc - optind),
				      outdir, &opt, quiet ? NULL : stdout, errbuf, sizeof(errbuf));
	league_report_release(&league);
	if (league_config)
		league_config_release(&lc);
	if (rc < 0) {
		warnx("report: %s%s", errbuf,
		      rc == -ENOSPC ? ": free space and run the same command again" : "");
		return 1;
	}
	return status;
}
