/*
 * rating_fixture.h - what the rating tests share: one scratch directory per
 * test program, the games.jsonl files written into it, and the report of
 * records held in memory.
 */
#ifndef RATING_FIXTURE_H
#define RATING_FIXTURE_H

#include <stddef.h>
#include <stdio.h>

#include "gamelog.h"
#include "report.h"

/* The scratch directory, /tmp/<program name>.XXXXXX, once made. */
extern char fixture_dir[64];

/*
 * cmocka group setup and teardown: make fixture_dir, and remove it with all
 * that the tests wrote into it. 0 on success, -1 otherwise.
 */
int fixture_dir_make(void **state);
int fixture_dir_remove(void **state);

/* Write text to fixture_dir/name, failing the test on any error. */
void fixture_write_file(const char *name, const char *text);

/* Make directory dir (it must not exist) and open dir/games.jsonl for
 * writing; fails the test on any error. The caller closes the stream. */
FILE *fixture_games_create(const char *dir);

/*
 * The report of the records stored in log (which must outlive r), as
 * report_load_opts() makes it from the same records in files. It goes through
 * the public fold API that serve uses (report_fold_add(), report_fold_build()),
 * so the library keeps no entry point for tests alone. Returns and fills err
 * as report_fold_build(); -ENOMEM.
 */
int fixture_report_build(struct report *r, const struct gamelog *log,
			 const struct report_options *opt, char *err, size_t errsz);

#endif
