/*
 * cmd_report.c - `skipbo-arena report [options] DIR...`: regenerate the report
 * files from games.jsonl alone (also while a tournament still runs) and print
 * the ranking table; several directories merge into one ranking.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "rating.h"
#include "report.h"

static void report_usage(FILE *out)
{
	fputs("usage: skipbo-arena report [options] DIR...\n"
	      "Read DIR/games.jsonl (complete lines only), fit the ratings and write\n"
	      "ratings.json, ratings.csv, report.md and report.html, then print the ranking.\n"
	      "\n"
	      "  -o, --output DIR   write the files here (required with several DIRs)\n"
	      "  -a, --anchor BOT   rate BOT 0 (default: the field average is 0)\n"
	      "  -p, --prior K      virtual draws of each bot against a 0-rated opponent\n"
	      "                     that keep unbeaten bots finite (default 0.5; 0 is the\n"
	      "                     plain maximum-likelihood fit, which needs every bot\n"
	      "                     to have a win and a loss)\n"
	      "  -q, --quiet        do not print the ranking table\n"
	      "  -h, --help         this text\n", out);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "anchor", required_argument, NULL, 'a' },
		{ "prior", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outdir = NULL, *anchor = NULL;
	double prior = RATING_PRIOR_DRAWS;
	int quiet = 0, c;
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
			anchor = optarg;
			break;
		case 'p':
			errno = 0;
			prior = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(prior >= 0) || prior > 1e6) {
				warnx("bad --prior \"%s\": want a number from 0 to 1000000", optarg);
				return 2;
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
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
	int rc = report_generate_with((const char *const *)(argv + optind), (size_t)(argc - optind),
				      outdir, anchor, prior, quiet ? NULL : stdout,
				      errbuf, sizeof(errbuf));
	if (rc < 0) {
		warnx("report: %s", errbuf);
		return 1;
	}
	return 0;
}
