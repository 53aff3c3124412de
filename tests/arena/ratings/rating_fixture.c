/*
 * rating_fixture.c - the rating tests' scratch directory and in-memory
 * reports (rating_fixture.h).
 */
#include "rating_fixture.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

char fixture_dir[64];

int fixture_dir_make(void **state)
{
	(void)state;
	/* Named after the program, so a directory left behind says whose it is. */
	snprintf(fixture_dir, sizeof(fixture_dir), "/tmp/%s.XXXXXX", program_invocation_short_name);
	return mkdtemp(fixture_dir) ? 0 : -1;
}

int fixture_dir_remove(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture_dir);
	return system(cmd) == 0 ? 0 : -1;
}

void fixture_write_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fixture_dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

FILE *fixture_games_create(const char *dir)
{
	char path[256];
	FILE *f;

	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	return f;
}

int fixture_report_build(struct report *r, const struct gamelog *log,
			 const struct report_options *opt, char *err, size_t errsz)
{
	struct report_fold *fold;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = report_fold_new(&fold)) < 0) {
		snprintf(err, errsz, "out of memory");
		return rc;
	}
	for (size_t i = 0; i < log->ngames && rc == 0; i++)
		rc = report_fold_add(fold, log, &log->games[i]);
	if (rc < 0)
		snprintf(err, errsz, "computing ratings: %s", strerror(-rc));
	else
		rc = report_fold_build(r, fold, log, opt, err, errsz);
	report_fold_free(fold);
	return rc;
}
