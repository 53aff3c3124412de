/*
 * league_entries.c - DIR/entries.jsonl (contract in league_entries.h).
 */
#include "league_entries.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "names.h"
#include "json_strict.h"
#include "programs.h"
#include "protocol_json.h"
#include "records.h"

/* A NULL-terminated copy of a JSON array of strings; NULL when it is not one or without memory. */
static char **strings_of(const cJSON *array)
{
	int n = cJSON_GetArraySize(array), i = 0;
	char **v;
	const cJSON *item;

	if (!cJSON_IsArray(array) || !(v = calloc((size_t)n + 1, sizeof(*v))))
		return NULL;
	cJSON_ArrayForEach(item, array)
		if (!cJSON_IsString(item) || !(v[i++] = strdup(item->valuestring)))
			goto fail;
	return v;
fail:
	for (int k = 0; k < n; k++)
		free(v[k]);
	free(v);
	return NULL;
}

static void strings_free(char **v)
{
	for (size_t k = 0; v && v[k]; k++)
		free(v[k]);
	free(v);
}

static cJSON *json_of_strings(char *const *v)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t k = 0; a && v && v[k]; k++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(v[k]))) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

static void entry_release(struct league_entry *e)
{
	free(e->name);
	free(e->why);
	strings_free(e->bot.argv);
	strings_free(e->bot.env);
	free(e->bot.cwd);
	cJSON_Delete(e->programs);
}

void league_entries_release(struct league_entries *es)
{
	for (size_t i = 0; i < es->n; i++)
		entry_release(&es->e[i]);
	free(es->e);
	free(es->dir);
	memset(es, 0, sizeof(*es));
}

int league_entries_named(const struct league_entries *es, const char *name)
{
	for (size_t i = 0; i < es->n; i++)
		if (strcmp(es->e[i].name, name) == 0)
			return (int)i;
	return -1;
}

int league_entries_find(const struct league_entries *es, const char *name)
{
	int latest = -1;
	size_t len = strlen(name);

	if (strchr(name, '@'))
		return league_entries_named(es, name);
	for (size_t i = 0; i < es->n; i++) {
		const char *n = es->e[i].name;

		if (strncmp(n, name, len) == 0 && (n[len] == '\0' || n[len] == '@') &&
		    (latest < 0 || es->e[i].version > es->e[latest].version))
			latest = (int)i;
	}
	return latest;
}

/* An "add" event as a new entry (a name already entered is ignored). */
static int apply_add(struct league_entries *es, const cJSON *ev)
{
	const char *name = json_string_at(ev, "name"), *cwd = json_string_at(ev, "cwd");
	const char *previous = json_string_at(ev, "previous"), *at;
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(ev, "limits");
	long *lim[4];
	struct league_entry *e;
	int k = 0;

	if (!name || !cwd || strlen(name) >= LEAGUE_ENTRY_NAME_MAX)
		return -EBADMSG;
	for (size_t i = 0; i < es->n; i++)
		if (strcmp(es->e[i].name, name) == 0)
			return 0;
	if (es->n == es->cap) {
		size_t cap = es->cap ? 2 * es->cap : 16;
		struct league_entry *more = reallocarray(es->e, cap, sizeof(*more));

		if (!more)
			return -ENOMEM;
		es->e = more;
		es->cap = cap;
	}
	e = &es->e[es->n];
	memset(e, 0, sizeof(*e));
	at = strchr(name, '@');
	e->version = at ? atoi(at + 1) : 1;
	e->previous = previous ? league_entries_named(es, previous) : -1;
	e->anchor = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "anchor"));
	e->declared = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "declared"));
	e->name = strdup(name);
	e->bot.cwd = strdup(cwd);
	e->bot.argv = strings_of(cJSON_GetObjectItemCaseSensitive(ev, "command"));
	e->bot.env = strings_of(cJSON_GetObjectItemCaseSensitive(ev, "env"));
	e->programs = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ev, "programs"), 1);
	lim[0] = &e->bot.limits.cpu_seconds;
	lim[1] = &e->bot.limits.memory_mb;
	lim[2] = &e->bot.limits.open_files;
	lim[3] = &e->bot.limits.processes;
	for (const cJSON *v = cJSON_IsArray(limits) ? limits->child : NULL; v && k < 4; v = v->next)
		*lim[k++] = cJSON_IsNumber(v) ? (long)v->valuedouble : 0;
	if (!e->name || !e->bot.cwd || !e->bot.argv || !e->bot.argv[0] || !e->bot.env) {
		entry_release(e);
		return -EBADMSG;
	}
	e->bot.name = e->name;
	es->n++;
	return 1;
}

/* One event of the log; 1 when it changed an entry. */
static int apply_event(struct league_entries *es, const char *line, size_t len)
{
	cJSON *ev = NULL;
	const char *kind, *name;
	int ret = -EBADMSG, i;

	if (json_strict_parse(line, len, &ev, NULL) < 0 || !(kind = json_string_at(ev, "event")) ||
	    !(name = json_string_at(ev, "name")))
		goto out;
	if (strcmp(kind, "add") == 0) {
		ret = apply_add(es, ev);
		goto out;
	}
	ret = 0;
	if ((i = league_entries_named(es, name)) < 0)
		goto out;
	if (strcmp(kind, "return") == 0) {
		struct league_entry *e = &es->e[i];

		ret = e->retired;
		e->retired = false;
		if (!e->suspended) {
			free(e->why);
			e->why = NULL;
		}
	} else if (strcmp(kind, "retire") == 0 || strcmp(kind, "suspend") == 0) {
		struct league_entry *e = &es->e[i];

		ret = !(kind[0] == 'r' ? e->retired : e->suspended);
		*(kind[0] == 'r' ? &e->retired : &e->suspended) = true;
		if (!e->why && json_string_at(ev, "why"))
			e->why = strdup(json_string_at(ev, "why"));
	} else {
		ret = -EBADMSG;
	}
out:
	cJSON_Delete(ev);
	return ret;
}

struct reading {
	struct league_entries *es;
	int changed;
	uint64_t end;    /* after the last complete line */
	size_t lineno;
};

static int on_line(void *ctx, const struct records_line *line)
{
	struct reading *rd = ctx;
	int ret;

	rd->end = line->offset + line->len + 1;
	if ((uint64_t)rd->es->read_to > line->offset || line->len == 0)
		return 0;
	if ((ret = apply_event(rd->es, line->text, line->len)) < 0) {
		rd->lineno = line->lineno;
		return ret;
	}
	rd->changed |= ret;
	return 0;
}

int league_entries_refresh(struct league_entries *es, char *err, size_t err_size)
{
	struct reading rd = { es, 0, (uint64_t)es->read_to, 0 };
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", es->dir, LEAGUE_ENTRIES_FILE);
	ret = records_read_lines(path, on_line, &rd, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0) {
		if (ret == -EBADMSG)
			snprintf(err, err_size, "\"%s\", line %zu: not an entry event (the file is "
				 "written by `league add`, `retire` and the league only): put that line "
				 "back as it was, or delete it, and run the command again", path,
				 rd.lineno);
		else
			snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		return ret;
	}
	es->read_to = (off_t)rd.end;
	return rd.changed;
}

int league_entries_open(struct league_entries *es, const char *dir, char *err, size_t err_size)
{
	int ret;

	memset(es, 0, sizeof(*es));
	if (!(es->dir = strdup(dir))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	ret = league_entries_refresh(es, err, err_size);
	if (ret < 0)
		league_entries_release(es);
	return ret < 0 ? ret : 0;
}

/* Append ev (consumed) with its time as one line, durably, then read it back. */
static int append_event(struct league_entries *es, cJSON *ev, char *err, size_t err_size)
{
	char path[PATH_MAX], stamp[32], *text = NULL;
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	int ret = -ENOMEM;

	snprintf(path, sizeof(path), "%s/%s", es->dir, LEAGUE_ENTRIES_FILE);
	if (gmtime_r(&now, &tm) && strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm))
		cJSON_AddStringToObject(ev, "time", stamp);
	if (!(text = cJSON_PrintUnformatted(ev)))
		goto out;
	len = strlen(text);
	/* a torn line a crash left is cut first, and a line the disk cannot take whole is
	 * undone; a running league may append at the same time (journal.h) */
	if ((ret = journal_append_once(path, text, len)) < 0) {
		snprintf(err, err_size, "\"%s\": %s%s", path, strerror(-ret), ret == -ENOSPC ?
			 ": nothing was added; free space and run the same command again" : "");
		goto out;
	}
	ret = league_entries_refresh(es, err, err_size);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	cJSON_free(text);
	cJSON_Delete(ev);
	return ret < 0 ? ret : 0;
}

static int name_event(struct league_entries *es, const char *kind, size_t i, const char *why,
		      char *err, size_t err_size)
{
	cJSON *ev = cJSON_CreateObject();

	if (!ev || !cJSON_AddStringToObject(ev, "event", kind) ||
	    !cJSON_AddStringToObject(ev, "name", es->e[i].name) ||
	    (why && !cJSON_AddStringToObject(ev, "why", why))) {
		cJSON_Delete(ev);
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	return append_event(es, ev, err, err_size);
}

int league_entries_retire(struct league_entries *es, size_t i, const char *why, char *err,
			  size_t err_size)
{
	if (es->e[i].retired) {
		snprintf(err, err_size, "\"%s\" is retired already", es->e[i].name);
		return -EALREADY;
	}
	return name_event(es, "retire", i, why, err, err_size);
}

int league_entries_suspend(struct league_entries *es, size_t i, const char *why, char *err,
			   size_t err_size)
{
	return name_event(es, "suspend", i, why, err, err_size);
}

int league_entries_return(struct league_entries *es, size_t i, char *err, size_t err_size)
{
	if (!es->e[i].retired) {
		snprintf(err, err_size, "\"%s\" is not retired", es->e[i].name);
		return -EALREADY;
	}
	for (size_t j = 0; j < es->n; j++) {
		/* a later version: i is somewhere before it in its line */
		for (int k = es->e[j].previous; k >= 0 && !es->e[j].retired; k = es->e[k].previous) {
			if ((size_t)k == i) {
				snprintf(err, err_size, "\"%s\", a later version of \"%s\", is in "
					 "play: retire it first (`skipbo-arena league retire DIR %s`)",
					 es->e[j].name, es->e[i].name, es->e[j].name);
				return -EBUSY;
			}
		}
	}
	return name_event(es, "return", i, NULL, err, err_size);
}

/* Entry i's recorded files against files, as programs_changed() compares them. */
static int files_differ(const struct league_entry *e, const cJSON *files, char *why, size_t size)
{
	cJSON *was = cJSON_CreateObject(), *now = cJSON_CreateObject(), *a, *b;
	int ret = 0;

	if ((a = cJSON_AddObjectToObject(was, "programs")) &&
	    (b = cJSON_AddObjectToObject(now, "programs")) &&
	    cJSON_AddItemToObject(a, e->name, cJSON_Duplicate(e->programs, 1)) &&
	    cJSON_AddItemToObject(b, e->name, cJSON_Duplicate(files, 1)))
		ret = programs_changed(was, now, why, size);
	cJSON_Delete(was);
	cJSON_Delete(now);
	return ret;
}

int league_entries_changed(const struct league_entries *es, size_t i, const struct config_bot *bot,
			   char *why, size_t size)
{
	cJSON *files = programs_of_bot(bot ? bot : &es->e[i].bot, es->dir);
	int ret = files && files_differ(&es->e[i], files, why, size);

	cJSON_Delete(files);
	return ret;
}

static int strings_differ(char *const *a, char *const *b)
{
	size_t i = 0;

	for (; a && b && a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 1;
	return (a && a[i]) != (b && b[i]);
}

/* Does b run another command than a (its words, working directory or environment)? */
static int command_differs(const struct config_bot *a, const struct config_bot *b)
{
	return strings_differ(a->argv, b->argv) || strings_differ(a->env, b->env) ||
	       strcmp(a->cwd ? a->cwd : "", b->cwd ? b->cwd : "") != 0;
}

static cJSON *add_event(const struct config_bot *bot, const char *name, const char *previous,
			unsigned flags, cJSON *files)
{
	const struct bot_limits *l = &bot->limits;
	double lim[4] = { (double)l->cpu_seconds, (double)l->memory_mb, (double)l->open_files,
			  (double)l->processes };
	cJSON *ev = cJSON_CreateObject();

	if (!ev || !cJSON_AddStringToObject(ev, "event", "add") ||
	    !cJSON_AddStringToObject(ev, "name", name) ||
	    (previous && !cJSON_AddStringToObject(ev, "previous", previous)) ||
	    !cJSON_AddBoolToObject(ev, "anchor", flags & LEAGUE_ENTRY_ANCHOR) ||
	    !cJSON_AddBoolToObject(ev, "declared", flags & LEAGUE_ENTRY_DECLARED) ||
	    !cJSON_AddItemToObject(ev, "command", json_of_strings(bot->argv)) ||
	    !cJSON_AddStringToObject(ev, "cwd", bot->cwd) ||
	    !cJSON_AddItemToObject(ev, "env", json_of_strings(bot->env)) ||
	    !cJSON_AddItemToObject(ev, "limits", cJSON_CreateDoubleArray(lim, 4)) ||
	    !cJSON_AddItemToObject(ev, "programs", files)) {
		cJSON_Delete(ev);
		return NULL;
	}
	return ev;
}

/*
 * The same bot added again, as entry latest runs it: the same command run
 * again after a crash finds its add on the disk. A replacement the crash cut
 * short (the version before still in play) is finished. A retired entry is no
 * add to repeat: that one is refused with the way back.
 */
static int entered_already(struct league_entries *es, size_t latest, char *name, char *err,
			   size_t err_size)
{
	char why[LEAGUE_ENTRY_NAME_MAX + 16];
	int previous = es->e[latest].previous, ret;

	snprintf(name, LEAGUE_ENTRY_NAME_MAX, "%s", es->e[latest].name);
	if (es->e[latest].retired) {
		snprintf(err, err_size, "\"%s\" runs these files with this command already, and "
			 "is retired: bring it back with `skipbo-arena league return DIR %s`, or "
			 "change its files or command for a new version", name, name);
		return -EEXIST;
	}
	if (previous < 0 || es->e[previous].retired)
		return 1;
	snprintf(why, sizeof(why), "replaced by %s", name);
	ret = league_entries_retire(es, (size_t)previous, why, err, err_size);
	return ret < 0 ? ret : 1;
}

int league_entries_add(struct league_entries *es, const struct config_bot *bot, unsigned flags,
		       char *name, char *err, size_t err_size)
{
	int latest = league_entries_find(es, bot->name), ret;
	cJSON *files, *ev;
	char why[PATH_MAX + 256];

	if (!names_valid(bot->name)) {
		snprintf(err, err_size, "\"%.80s\": expected a name of " NAMES_RULE
			 " (the league adds \"@K\" to new versions itself)", bot->name);
		return -EINVAL;
	}
	if (!(files = programs_of_bot(bot, es->dir))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	if (latest >= 0 && !files_differ(&es->e[latest], files, why, sizeof(why)) &&
	    !command_differs(&es->e[latest].bot, bot)) {
		cJSON_Delete(files);
		return entered_already(es, (size_t)latest, name, err, err_size);
	}
	if (latest < 0)
		snprintf(name, LEAGUE_ENTRY_NAME_MAX, "%s", bot->name);
	else
		snprintf(name, LEAGUE_ENTRY_NAME_MAX, "%s@%d", bot->name,
			 es->e[latest].version + 1);
	if (!(ev = add_event(bot, name, latest >= 0 ? es->e[latest].name : NULL, flags, files))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	if ((ret = append_event(es, ev, err, err_size)) < 0 || latest < 0 || es->e[latest].retired)
		return ret;
	snprintf(why, sizeof(why), "replaced by %s", name);
	return league_entries_retire(es, (size_t)latest, why, err, err_size);
}

static int is_anchor(const char *name, char *const *anchors, size_t nanchors)
{
	for (size_t k = 0; k < nanchors; k++)
		if (strcmp(anchors[k], name) == 0)
			return 1;
	return 0;
}

/* A bundled anchor entered as itself, with the league's limits. */
static int add_bundled(struct league_entries *es, const char *anchor,
		       const struct bot_limits *limits, char *err, size_t err_size)
{
	char path[PATH_MAX], where[PATH_MAX], dir[PATH_MAX], name[LEAGUE_ENTRY_NAME_MAX];
	char *argv[2] = { path, NULL }, *env[1] = { NULL };
	struct config_bot bot = { (char *)anchor, argv, dir, env, *limits };

	if (config_bundled_bot(anchor, path, sizeof(path), where, sizeof(where)) < 0) {
		snprintf(err, err_size, "league.anchors: \"%s\" is neither a bot of %s nor a "
			 "bundled bot (looked in %s)", anchor, "league.jsonc", where);
		return -ENOENT;
	}
	/* it runs where it lies, as a bot of a tournament file runs in the file's directory */
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
	return league_entries_add(es, &bot, LEAGUE_ENTRY_ANCHOR, name, err, err_size);
}

/* Whether the bot called base (the name before any '@') is among cfg's. */
static int declares(const struct config *cfg, const char *name)
{
	size_t len = strcspn(name, "@");

	for (size_t b = 0; b < cfg->nbots; b++)
		if (strlen(cfg->bots[b].name) == len && strncmp(cfg->bots[b].name, name, len) == 0)
			return 1;
	return 0;
}

int league_entries_declare(struct league_entries *es, const struct config *declared,
			   char *const *anchors, size_t nanchors, char *err, size_t err_size)
{
	char name[LEAGUE_ENTRY_NAME_MAX];
	int changes = 0, ret;

	for (size_t b = 0; b < declared->nbots; b++) {
		const struct config_bot *bot = &declared->bots[b];
		unsigned flags = LEAGUE_ENTRY_DECLARED |
				 (is_anchor(bot->name, anchors, nanchors) ? LEAGUE_ENTRY_ANCHOR : 0);

		int latest = league_entries_find(es, bot->name);

		/* a declared entry whose command was edited (a suspended one fixed): a new version */
		if (latest >= 0 && (!es->e[latest].declared || es->e[latest].retired ||
				    !command_differs(&es->e[latest].bot, bot)))
			continue;
		if ((ret = league_entries_add(es, bot, flags, name, err, err_size)) < 0)
			return ret;
		changes += ret == 0;
	}
	for (size_t k = 0; k < nanchors; k++) {
		if (league_entries_find(es, anchors[k]) >= 0)
			continue;
		if ((ret = add_bundled(es, anchors[k], &declared->limits, err, err_size)) < 0)
			return ret;
		changes += ret == 0;
	}
	for (size_t i = 0; i < es->n; i++) {
		if (!es->e[i].declared || es->e[i].retired || declares(declared, es->e[i].name))
			continue;
		if ((ret = league_entries_retire(es, i, "removed from league.jsonc", err,
						 err_size)) < 0)
			return ret;
		changes++;
	}
	return changes;
}

int league_entries_held(const struct league_entries *es, size_t i, const struct config *declared,
			char *why, size_t size)
{
	const struct league_entry *e = &es->e[i];
	const struct config_bot *bot = NULL;

	if (e->retired || e->suspended)
		return 0;
	for (size_t b = 0; e->declared && declared && b < declared->nbots; b++)
		if (strcmp(declared->bots[b].name, e->name) == 0)
			bot = &declared->bots[b];
	return league_entries_changed(es, i, bot, why, size);
}

void league_entries_summary(const struct league_entries *es, FILE *out)
{
	size_t playing = 0;

	for (size_t i = 0; i < es->n; i++)
		playing += !es->e[i].retired && !es->e[i].suspended;
	fprintf(out, "  entries: %zu, %zu in play\n", es->n, playing);
	for (size_t i = 0; i < es->n; i++)
		if (es->e[i].retired || es->e[i].suspended)
			fprintf(out, "  %s: %s (%s)\n", es->e[i].name,
				es->e[i].suspended ? "suspended" : "retired",
				es->e[i].why ? es->e[i].why : "no reason given");
}

unsigned char *league_entries_mark(const struct league_entries *es)
{
	unsigned char *mark = calloc(es->n + 1, 1);

	for (size_t i = 0; mark && i < es->n; i++)
		mark[i] = (unsigned char)((es->e[i].retired ? 1 : 0) | (es->e[i].suspended ? 2 : 0));
	return mark;
}

/* Was entry i replaced by a version entered since there were n entries? */
static bool replaced_since(const struct league_entries *es, size_t i, size_t n)
{
	for (size_t j = n; j < es->n; j++)
		if (es->e[j].previous == (int)i)
			return true;
	return false;
}

void league_entries_announce(const struct league_entries *es, const unsigned char *mark,
			     size_t n, FILE *out)
{
	for (size_t i = 0; i < es->n; i++) {
		const struct league_entry *e = &es->e[i];
		int was = i < n && mark ? mark[i] : -1;
		const char *why = e->why ? e->why : "no reason given";

		if (was < 0)
			fprintf(out, "league: \"%s\" entered%s%s%s%s%s\n", e->name,
				e->declared ? " from league.jsonc" : "", e->anchor ? " as an anchor" : "",
				e->previous >= 0 ? ", the next version of " : "",
				e->previous >= 0 ? es->e[e->previous].name : "",
				e->previous >= 0 && es->e[e->previous].retired ? ", which is retired" :
				"");
		else if (e->retired && !(was & 1) && !replaced_since(es, i, n))
			fprintf(out, "league: \"%s\" retired: %s\n", e->name, why);
		else if (!e->retired && (was & 1))
			fprintf(out, "league: \"%s\" is back in play\n", e->name);
		else if (e->suspended && !(was & 2))
			fprintf(out, "league: \"%s\" suspended: %s\n", e->name, why);
	}
}
