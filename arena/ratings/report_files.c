/*
 * report_files.c - the report files written into a directory: ratings.json,
 * ratings.csv, report.md and report.html (report.h), each through a
 * temporary name and a rename, so a reader sees the old file or the new one.
 */
#include "report.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_html.h"

typedef int (*report_writer)(const struct report *r, FILE *out);

/*
 * Remove "<name>.tmp.<pid>" in dir where no process <pid> runs: what a report
 * killed between its fopen and its rename left. A running report's own is
 * kept. Best effort: a temporary that stays harms nothing but the listing.
 */
static void remove_dead_temporaries(const char *dir, const char *name)
{
	size_t len = strlen(name);
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, name, len) || strncmp(e->d_name + len, ".tmp.", 5) ||
		    !isdigit((unsigned char)e->d_name[len + 5]))
			continue;
		errno = 0;
		pid = strtol(e->d_name + len + 5, &end, 10);
		if (*end || errno || pid <= 0 || pid > INT_MAX || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/* Write one file through a temporary name and rename(2), so readers see old or new, never half. */
static int write_atomically(const struct report *r, const char *dir, const char *name,
			    report_writer writer, char *err, size_t errsz)
{
	char path[4096], tmp[4200];
	int rc = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp)) {
		snprintf(err, errsz, "path too long: \"%s\"", dir);
		return -ENAMETOOLONG;
	}
	remove_dead_temporaries(dir, name);
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		snprintf(err, errsz, "cannot create \"%s\": %s", tmp, strerror(errno));
		return rc;
	}
	errno = 0;
	rc = writer(r, f);
	/* a stream error is -EIO to the writers; the write that failed says why */
	if (rc == -EIO && errno == ENOSPC)
		rc = -ENOSPC;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc < 0) {
		snprintf(err, errsz, "writing \"%s\": %s", path, strerror(-rc));
		unlink(tmp);
	}
	return rc;
}

int report_generate_opts(const char *const *dirs, size_t ndirs, const char *outdir,
			 const struct report_options *opt, FILE *table, char *err, size_t errsz)
{
	static const struct {
		const char *name;
		report_writer writer;
	} files[] = {
		{ "ratings.json", report_write_json },
		{ "ratings.csv", report_write_csv },
		{ "report.md", report_write_md },
		{ "report.html", report_write_html },
	};
	struct gamelog log;
	struct report r = { 0 };
	int rc;

	gamelog_init(&log);
	if (ndirs == 0 || (!outdir && ndirs > 1)) {
		snprintf(err, errsz, ndirs ? "several directories need an output directory"
					   : "no tournament directory given");
		return -EINVAL;
	}
	if (!outdir)
		outdir = dirs[0];
	rc = report_load_opts(&r, &log, dirs, ndirs, opt, err, errsz);
	if (rc < 0)
		goto out;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (report_stop_requested()) {
			snprintf(err, errsz, "stopped before \"%s\"", files[i].name);
			rc = -EINTR;
			goto out;
		}
		rc = write_atomically(&r, outdir, files[i].name, files[i].writer, err, errsz);
		if (rc < 0)
			goto out;
	}
	if (table)
		report_print_table_wide(&r, table, opt->wide);
	for (size_t i = 0; i < r.nbots; i++)
		rc += report_never_started(&r.bots[i]);
out:
	report_release(&r);
	gamelog_release(&log);
	return rc;
}

int report_generate(const char *const *dirs, size_t ndirs, const char *outdir, FILE *table,
		    char *err, size_t errsz)
{
	struct report_options opt = REPORT_OPTIONS_DEFAULT;

	return report_generate_opts(dirs, ndirs, outdir, &opt, table, err, errsz);
}
