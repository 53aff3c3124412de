/*
 * league_report.c - the league section of a report (contract in league_report.h).
 */
#include "league_report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int league_report_open(struct league_report *lr, const char *dir, char *err, size_t err_size)
{
	char path[PATH_MAX + 32];
	int ret;

	memset(lr, 0, sizeof(*lr));
	if ((ret = league_entries_open(&lr->es, dir, err, err_size)) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", dir, LEAGUE_HISTORY_FILE);
	ret = league_history_summarise(path, &lr->history, err, err_size);
	if (ret < 0 && ret != -ENOENT)
		return ret;
	if (!(lr->lineage = calloc(lr->es.n + 1, sizeof(*lr->lineage)))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < lr->es.n; i++) {
		const struct league_entry *e = &lr->es.e[i];

		lr->lineage[i] = (struct league_lineage){
			e->name, e->previous >= 0 ? lr->es.e[e->previous].name : NULL,
			e->suspended ? LEAGUE_ENTRY_SUSPENDED : e->retired ? LEAGUE_ENTRY_RETIRED
									    : LEAGUE_ENTRY_ACTIVE,
			e->why };
	}
	lr->n = lr->es.n;
	return 0;
}

void league_report_release(struct league_report *lr)
{
	league_history_summary_release(&lr->history);
	league_entries_release(&lr->es);
	free(lr->lineage);
	memset(lr, 0, sizeof(*lr));
}

int league_report_md(void *ctx, FILE *out)
{
	struct league_report *lr = ctx;

	return league_history_write_md(out, &lr->history, lr->lineage, lr->n);
}

int league_report_html(void *ctx, FILE *out)
{
	struct league_report *lr = ctx;

	return league_history_write_html(out, &lr->history, lr->lineage, lr->n);
}
