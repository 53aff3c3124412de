/*
 * league_board.c - a league's directory as a reader shows it (contract in
 * league_board.h).
 */
#include "league_board.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether the file changed since *at (which is updated); size -1: missing, -2: not looked at. */
static bool stamp_changed(const char *dir, const char *name, struct league_board_stamp *at)
{
	char path[PATH_MAX];
	struct stat st;
	struct league_board_stamp now = { -1, { 0, 0 } };

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st) == 0)
		now = (struct league_board_stamp){ (long long)st.st_size, st.st_mtim };
	if (at->size == now.size && at->mtime.tv_sec == now.mtime.tv_sec &&
	    at->mtime.tv_nsec == now.mtime.tv_nsec)
		return false;
	*at = now;
	return true;
}

static void free_entries(struct league_board *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->entries[i].why);
	free(b->entries);
	free(b->lineage);
	b->entries = NULL;
	b->lineage = NULL;
	b->n = 0;
}

static double anchor_elo(const struct league_board *b, const char *name)
{
	for (size_t k = 0; b->have_cfg && k < b->cfg.nanchors; k++)
		if (strcmp(b->cfg.anchors[k], name) == 0)
			return b->cfg.anchor_elo[k];
	return NAN;
}

/* The entries' states again: from entries.jsonl, and held ones when check_files. */
static int make_entries(struct league_board *b, bool check_files)
{
	size_t n = b->es.n;
	struct league_board_entry *e = calloc(n + 1, sizeof(*e));
	struct league_lineage *lin = calloc(n + 1, sizeof(*lin));
	char why[PATH_MAX + 512];

	if (!e || !lin) {
		free(e);
		free(lin);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct league_entry *x = &b->es.e[i];
		/* a held entry stays held until the files are hashed again */
		bool held = check_files ? league_entries_held(&b->es, i, b->have_cfg ?
					  &b->cfg.base : NULL, why, sizeof(why)) == 1 :
					  i < b->n && b->entries[i].status == LEAGUE_ENTRY_HELD;

		if (!check_files && held)
			snprintf(why, sizeof(why), "%s", b->entries[i].why ? b->entries[i].why : "");
		e[i] = (struct league_board_entry){
			.name = x->name,
			.previous = x->previous >= 0 ? b->es.e[x->previous].name : NULL,
			.version = x->version,
			.anchor = x->anchor,
			.anchor_elo = anchor_elo(b, x->name),
			.status = x->suspended ? LEAGUE_ENTRY_SUSPENDED : x->retired ?
				LEAGUE_ENTRY_RETIRED : held ? LEAGUE_ENTRY_HELD : LEAGUE_ENTRY_ACTIVE,
		};
		if ((held || x->why) && !(e[i].why = strdup(held ? why : x->why))) {
			while (i > 0)
				free(e[--i].why);
			free(e);
			free(lin);
			return -ENOMEM;
		}
		lin[i] = (struct league_lineage){ e[i].name, e[i].previous, e[i].status, e[i].why };
	}
	free_entries(b);
	b->entries = e;
	b->lineage = lin;
	b->n = n;
	return 0;
}

/* league.jsonc read again: taken when the league would take it, else its errors kept. */
static int read_config(struct league_board *b)
{
	struct league_config next;
	char err[CONFIG_ERR_MAX];
	int ret = league_config_load_edit(b->dir, b->players, &next, err, sizeof(err));

	if (ret == -ENOMEM)
		return ret;
	free(b->refused);
	b->refused = NULL;
	if (ret < 0)
		return (b->refused = strdup(err)) ? 0 : -ENOMEM;
	if (b->have_cfg)
		league_config_release(&b->cfg);
	b->cfg = next;
	b->have_cfg = true;
	b->cfg_generation++;
	return 0;
}

struct before_today {
	int64_t today;
	uint64_t games;
};

static int line_before_today(void *ctx, const struct league_history_line *line)
{
	struct before_today *t = ctx;

	if (line->time < t->today)
		t->games = line->games;
	return 0;
}

static int64_t last_midnight(void)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

static int read_history(struct league_board *b, char *err, size_t err_size)
{
	char path[PATH_MAX];
	struct before_today t = { last_midnight(), 0 };
	int ret;

	snprintf(path, sizeof(path), "%s/%s", b->dir, LEAGUE_HISTORY_FILE);
	league_history_summary_release(&b->history);
	ret = league_history_summarise(path, &b->history, err, err_size);
	if (ret == 0)
		ret = league_history_read(path, line_before_today, &t, err, err_size);
	b->today = t.today;
	b->games_before_today = t.games;
	return ret == -ENOENT ? 0 : ret;
}

int league_board_open(struct league_board *b, const char *dir, int players, char *err,
		      size_t err_size)
{
	memset(b, 0, sizeof(*b));
	b->players = players;
	b->config_at.size = b->entries_at.size = b->history_at.size = -2;
	if (!(b->dir = strdup(dir))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	return league_board_refresh(b, err, err_size);
}

void league_board_release(struct league_board *b)
{
	free_entries(b);
	league_entries_release(&b->es);
	if (b->have_cfg)
		league_config_release(&b->cfg);
	league_history_summary_release(&b->history);
	free(b->refused);
	free(b->dir);
	memset(b, 0, sizeof(*b));
}

int league_board_refresh(struct league_board *b, char *err, size_t err_size)
{
	int64_t now = (int64_t)time(NULL);
	bool config = stamp_changed(b->dir, LEAGUE_CONFIG_FILE, &b->config_at);
	bool entries = stamp_changed(b->dir, LEAGUE_ENTRIES_FILE, &b->entries_at);
	bool files = now - b->programs_at >= LEAGUE_BOARD_PROGRAMS_S;
	int ret = 0;

	if (config && (ret = read_config(b)) < 0)
		goto out;
	if (entries && !b->es.dir)
		ret = league_entries_open(&b->es, b->dir, err, err_size);
	else if (entries)
		ret = league_entries_refresh(&b->es, err, err_size);
	if (ret < 0)
		goto out;
	if (config || entries || files) {
		if ((ret = make_entries(b, files)) < 0)
			goto out;
		b->programs_at = files ? now : b->programs_at;
	}
	if (stamp_changed(b->dir, LEAGUE_HISTORY_FILE, &b->history_at) ||
	    last_midnight() != b->today)
		ret = read_history(b, err, err_size);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	return ret;
}

uint64_t league_board_games_today(const struct league_board *b, uint64_t records)
{
	return records > b->games_before_today ? records - b->games_before_today : 0;
}

int league_board_chart(const struct league_board *b, FILE *out)
{
	return league_history_write_chart(out, &b->history, b->lineage, b->n);
}
