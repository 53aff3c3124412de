/*
 * entry_docs.c - one league entry's history, faults and log for its author
 * (contract in entry_docs.h).
 */
#include "entry_docs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gamelog.h"
#include "jsonw.h"
#include "league_config.h"
#include "league_entries.h"
#include "league_history.h"
#include "protocol.h"
#include "record.h"
#include "records.h"
#include "reply.h"

/* The latest game in which the entry made a fault of one kind. */
struct fault_kind {
	uint64_t count;
	char *game;                    /* its id; NULL when the record had none */
	char *reason;                  /* NULL when absent */
	uint64_t seed;
	int players;
	char *bots[RECORD_SEATS_MAX];  /* the entries by seat */
};

struct fault_scan {
	const char *name;
	struct record_reader rd;
	struct fault_kind kinds[GAMELOG_FAULT_KINDS];
};

static void kind_clear(struct fault_kind *k)
{
	free(k->game);
	free(k->reason);
	for (int s = 0; s < k->players; s++)
		free(k->bots[s]);
	k->game = k->reason = NULL;
	k->players = 0;
}

static int keep_latest(struct fault_kind *k, const struct record *rec,
		       const struct record_fault *f)
{
	kind_clear(k);
	k->seed = rec->seed;
	if ((rec->id && !(k->game = strdup(rec->id))) ||
	    (f->reason && !(k->reason = strdup(f->reason))))
		return -ENOMEM;
	for (; k->players < rec->players; k->players++)
		if (!(k->bots[k->players] = strdup(rec->bots[k->players])))
			return -ENOMEM;
	return 0;
}

/* A record of games.jsonl: the entry's faults counted; a line that is no record skipped. */
static int on_game(void *ctx, const struct records_line *line)
{
	struct fault_scan *fs = ctx;
	struct record rec;

	if (record_parse(&fs->rd, line->text, line->len, RECORD_FULL, &rec) < 0)
		return 0;
	for (size_t i = 0; i < rec.nfaults; i++) {
		const struct record_fault *f = &rec.faults[i];
		const char *bot = f->bot ? f->bot : f->seat >= 0 && f->seat < rec.players ?
			rec.bots[f->seat] : NULL;
		int kind = f->kind ? protocol_fault_kind_from_name(f->kind) : -1;
		struct fault_kind *k;

		if (!bot || strcmp(bot, fs->name))
			continue;
		k = &fs->kinds[kind < 0 ? GAMELOG_FAULT_OTHER : kind];
		k->count++;
		if (keep_latest(k, &rec, f) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* A word for /bin/sh, quoted when it needs it (as `check` prints one). */
static void shell_word(struct jsonw *out, const char *w)
{
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			 "_./=:,+-@%") == strlen(w)) {
		jsonw_text(out, w);
		return;
	}
	jsonw_text(out, "'");
	for (; *w; w++)
		jsonw_text(out, *w == '\'' ? "'\\''" : (char[]){ *w, '\0' });
	jsonw_text(out, "'");
}

/* `skipbo-arena play` dealing k's game again with the same bots in the same seats. */
static void reproduce(struct jsonw *out, const struct fault_kind *k,
		      const struct league_entries *es, const struct league_config *lc)
{
	const struct config *c = &lc->base;

	jsonw_text(out, "skipbo-arena play");
	if (k->game) {
		jsonw_text(out, " --game-id ");
		shell_word(out, k->game);
	}
	jsonw_printf(out, " --seed %" PRIu64 " --stock %d%s --move-ms %d --game-ms %d "
		     "--startup-ms %d", k->seed, c->stock_size, c->partnership ? " --partnership" :
		     "", c->move_ms, c->game_ms, c->startup_ms);
	for (int s = 0; s < k->players; s++) {
		int i = league_entries_named(es, k->bots[s]);
		jsonw_text(out, " --");
		if (i < 0) {
			jsonw_text(out, " ");
			shell_word(out, k->bots[s]); /* an entry no longer in the file: its name */
			continue;
		}
		for (char *const *w = es->e[i].bot.argv; *w; w++) {
			jsonw_text(out, " ");
			shell_word(out, *w);
		}
	}
}

static void number_or_null(struct jsonw *w, double v)
{
	if (isfinite(v))
		jsonw_printf(w, "%.2f", v);
	else
		jsonw_text(w, "null");
}

static void history(struct jsonw *w, const char *dir, const char *name)
{
	struct league_history_summary sum;
	const struct league_history_series *se;
	char path[PATH_MAX], why[LEAGUE_HISTORY_WHY_MAX];

	jsonw_text(w, ",\"history\":[");
	snprintf(path, sizeof(path), "%s/%s", dir, LEAGUE_HISTORY_FILE);
	if (league_history_summarise(path, &sum, why, sizeof(why)) < 0) {
		jsonw_text(w, "]");
		return;
	}
	if ((se = league_history_find(&sum, name)))
		for (size_t i = 0; i < se->npoints; i++) {
			const struct league_history_point *p = &se->points[i];
			jsonw_printf(w, "%s{\"time\":%" PRId64 ",\"games\":%" PRIu64 ",\"elo\":",
				     i ? "," : "", p->time, p->entry_games);
			number_or_null(w, p->elo);
			jsonw_text(w, ",\"ci95\":");
			number_or_null(w, p->ci95);
			jsonw_text(w, "}");
		}
	league_history_summary_release(&sum);
	jsonw_text(w, "]");
}

static int faults(struct jsonw *w, const char *dir, const char *name,
		  const struct league_entries *es, const struct league_config *lc)
{
	struct fault_scan fs = { .name = name };
	char path[PATH_MAX];
	struct jsonw line;
	bool first = true;
	int rc;

	record_reader_init(&fs.rd);
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	rc = records_read_lines(path, on_game, &fs, NULL, NULL);
	record_reader_release(&fs.rd);
	jsonw_text(w, ",\"faults\":[");
	jsonw_init(&line);
	for (int k = 0; k < GAMELOG_FAULT_KINDS; k++) {
		const struct fault_kind *f = &fs.kinds[k];
		if (!f->count)
			continue;
		jsonw_printf(w, "%s{\"kind\":\"%s\",\"count\":%" PRIu64 ",\"game\":",
			     first ? "" : ",", gamelog_fault_names[k], f->count);
		first = false;
		if (f->game)
			jsonw_string(w, f->game);
		else
			jsonw_text(w, "null");
		jsonw_text(w, ",\"reason\":");
		if (f->reason)
			jsonw_string(w, f->reason);
		else
			jsonw_text(w, "null");
		jsonw_reset(&line);
		reproduce(&line, f, es, lc);
		jsonw_text(w, ",\"reproduce\":");
		jsonw_string_n(w, line.data ? line.data : "", line.len);
		jsonw_text(w, "}");
	}
	jsonw_text(w, "]");
	rc = rc == -ENOENT ? 0 : rc < 0 ? rc : jsonw_error(&line);
	jsonw_release(&line);
	for (int k = 0; k < GAMELOG_FAULT_KINDS; k++)
		kind_clear(&fs.kinds[k]);
	return rc;
}

/* Whether name is an entry of the league in dir (the only names put in a path). */
static bool is_entry(const char *dir, const char *name, struct league_entries *es)
{
	char err[512];

	if (league_entries_open(es, dir, err, sizeof(err)) < 0)
		return false;
	if (league_entries_named(es, name) >= 0)
		return true;
	league_entries_release(es);
	return false;
}

enum MHD_Result entry_docs_missing(struct MHD_Connection *conn, const char *name)
{
	char why[256];

	snprintf(why, sizeof(why), "no entry \"%.*s\" of yours (GET /api/me lists your "
		 "submissions and the entries they became)", LEAGUE_ENTRY_NAME_MAX, name);
	return reply_error(conn, MHD_HTTP_NOT_FOUND, why, NULL);
}

enum MHD_Result entry_docs_entry(struct MHD_Connection *conn, const char *dir, const char *name)
{
	char *err = malloc(CONFIG_ERR_MAX), url[LEAGUE_ENTRY_NAME_MAX + 32];
	struct league_entries es;
	struct league_config lc;
	enum MHD_Result ret;
	struct jsonw w;
	int rc = -ENOMEM;

	if (!is_entry(dir, name, &es)) {
		free(err);
		return entry_docs_missing(conn, name);
	}
	jsonw_init(&w);
	jsonw_text(&w, "{\"entry\":");
	jsonw_string(&w, name);
	history(&w, dir, name);
	if (err && (rc = league_config_load(dir, &lc, err, CONFIG_ERR_MAX)) == 0) {
		rc = faults(&w, dir, name, &es, &lc);
		league_config_release(&lc);
	}
	league_entries_release(&es);
	snprintf(url, sizeof(url), "/api/entries/%s/stderr", name);
	jsonw_text(&w, ",\"stderr\":");
	jsonw_string(&w, url);
	jsonw_text(&w, "}\n");
	if (rc < 0 || jsonw_error(&w) < 0) {
		jsonw_release(&w);
		ret = reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, rc == -ENOMEM || !err ?
				  "out of memory" : err, NULL);
	} else {
		ret = reply_w(conn, MHD_HTTP_OK, "application/json", &w, NULL);
	}
	free(err);
	return ret;
}

enum MHD_Result entry_docs_stderr(struct MHD_Connection *conn, const char *dir, const char *name)
{
	struct league_entries es;
	char path[PATH_MAX], *text;
	struct stat st;
	off_t from;
	ssize_t got;
	int fd;

	if (!is_entry(dir, name, &es))
		return entry_docs_missing(conn, name);
	league_entries_release(&es);
	snprintf(path, sizeof(path), "%s/logs/%s.stderr", dir, name);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return reply(conn, MHD_HTTP_OK, "text/plain; charset=utf-8", (char *)"", 0,
			     MHD_RESPMEM_PERSISTENT, NULL);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    !(text = malloc(ENTRY_DOCS_LOG_TAIL))) {
		close(fd);
		return reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "the log could not be "
				   "read", NULL);
	}
	from = st.st_size > (off_t)ENTRY_DOCS_LOG_TAIL ? st.st_size - ENTRY_DOCS_LOG_TAIL : 0;
	got = pread(fd, text, ENTRY_DOCS_LOG_TAIL, from);
	close(fd);
	return reply(conn, MHD_HTTP_OK, "text/plain; charset=utf-8", text,
		     got > 0 ? (size_t)got : 0, MHD_RESPMEM_MUST_FREE, NULL);
}
