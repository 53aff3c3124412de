/*
 * serve_records.c - a tournament's records read incrementally (contract in
 * serve_records.h).
 */
#include "serve_records.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay_find.h"
#include "results.h"
#include "tournament_file.h"
#include "schedule.h"

#define READ_CHUNK (1u << 20)

int serve_dir_info_read(const char *dir, struct serve_dir_info *info, char *err, size_t err_size)
{
	struct records_tournament t = { 0 };
	struct schedule *sched = NULL;
	char path[PATH_MAX];
	struct stat st;
	int rc;

	memset(info, 0, sizeof(*info));
	memset(&t, 0, sizeof(t));
	if ((size_t)snprintf(path, sizeof(path), "%s/tournament.json", dir) >= sizeof(path)) {
		snprintf(err, err_size, "\"%s\": path too long", dir);
		return -ENAMETOOLONG;
	}
	if (lstat(path, &st) < 0) {
		rc = -errno;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, err_size, "\"%s\": not a regular file", path);
		return -EINVAL;
	}
	if ((rc = records_read_tournament(dir, &t, err, err_size)) < 0)
		goto out;
	rc = t.league ? 0 : schedule_new_gauntlet(t.nbots, t.challenger, t.players, t.deals,
						  t.duplicate, t.pairings, t.seed, &sched);
	if (rc < 0) {
		snprintf(err, err_size, "\"%s\": not a schedule of games", path);
		goto out;
	}
	info->league = t.league;
	info->scheduled = t.league ? 0 : t.nshards ? schedule_shard_count(sched, t.shard - 1,
									  t.nshards)
						    : schedule_count(sched);
	info->shard = t.shard;
	info->nshards = t.nshards;
	info->players = t.players;
	info->duplicate = t.duplicate;
	info->deals = t.deals;
	info->nbots = t.nbots;
	info->sprt = t.sprt;
	info->name = strdup(t.name);
	info->same = strdup(t.same);
	if (!info->name || !info->same) {
		rc = -ENOMEM;
		snprintf(err, err_size, "out of memory");
	}
out:
	schedule_free(sched);
	records_tournament_release(&t);
	if (rc < 0)
		serve_dir_info_release(info);
	return rc;
}

void serve_dir_info_release(struct serve_dir_info *info)
{
	free(info->name);
	free(info->same);
	memset(info, 0, sizeof(*info));
}

/* An SPRT's game into its test: rotation r seats bot A at r (schedule.h). */
static int fold_sprt(struct serve_records *s, const struct gamelog_game *g)
{
	int a, b, rc;

	if (!s->sprt || g->players != 2 || g->rotation < 0 || g->rotation > 1 || g->deal < 0)
		return 0;
	a = g->placing[g->rotation];
	b = g->placing[1 - g->rotation];
	if ((rc = sprt_fold_add(s->sprt, (uint32_t)g->deal, g->rotation,
				a < b ? 2 : a > b ? 0 : 1)) < 0)
		return rc == -EINVAL ? 0 : rc;
	while (sprt_fold_next(s->sprt))
		;
	return 0;
}

/* The test started again, empty. */
static int start_sprt(struct serve_records *s)
{
	const struct records_sprt *p = &s->sprt_params;

	if (!p->on)
		return 0;
	if (!s->sprt && !(s->sprt = calloc(1, sizeof(*s->sprt))))
		return -ENOMEM;
	sprt_fold_release(s->sprt);
	return sprt_fold_init(s->sprt, p->elo0, p->elo1, p->alpha, p->beta);
}

int serve_records_set_sprt(struct serve_records *s, const struct records_sprt *sprt)
{
	int rc;

	s->sprt_params = *sprt;
	if ((rc = start_sprt(s)) < 0) {
		free(s->sprt);
		s->sprt = NULL;
		s->sprt_params.on = 0;
	}
	return rc;
}

/* gamelog_sink_fn: fold a record into the ranking's sums and index it. */
static int on_record(void *ctx, const struct gamelog *log, const struct gamelog_game *g)
{
	struct serve_records *s = ctx;
	struct serve_game *e;
	int rc;

	if (s->ngames == s->games_cap) {
		size_t cap = s->games_cap ? s->games_cap + s->games_cap / 2 : 1024;
		struct serve_game *games = reallocarray(s->games, cap, sizeof(*games));
		if (!games)
			return -ENOMEM;
		s->games = games;
		s->games_cap = cap;
	}
	if ((rc = report_fold_add(s->fold, log, g)) < 0 || (rc = fold_sprt(s, g)) < 0)
		return rc;
	e = &s->games[s->ngames++];
	memset(e, 0, sizeof(*e));
	e->offset = s->at_offset;
	e->length = s->at_length;
	e->dir = s->at_dir;
	e->players = g->players;
	for (int k = 0; k < g->players && k < SERVE_SEATS_MAX; k++) {
		e->bot[k] = g->bot[k];
		if (g->fault[k] >= 0)
			e->faults |= (uint8_t)(1u << g->fault[k]);
		if (g->winner[k])
			e->winners |= (uint8_t)(1u << k);
	}
	s->dirs[s->at_dir].records++;
	return 0;
}

static int start_sums(struct serve_records *s)
{
	gamelog_init(&s->log);
	if (report_fold_new(&s->fold) < 0)
		return -ENOMEM;
	gamelog_set_sink(&s->log, on_record, s);
	return 0;
}

void serve_records_init(struct serve_records *s)
{
	memset(s, 0, sizeof(*s));
	gamelog_init(&s->log);
}

static void close_dir(struct serve_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

void serve_records_release(struct serve_records *s)
{
	for (size_t i = 0; i < s->ndirs; i++) {
		close_dir(&s->dirs[i]);
		free(s->dirs[i].path);
		free(s->dirs[i].real);
	}
	free(s->dirs);
	free(s->games);
	report_fold_free(s->fold);
	if (s->sprt)
		sprt_fold_release(s->sprt);
	free(s->sprt);
	gamelog_release(&s->log);
	memset(s, 0, sizeof(*s));
}

int serve_records_add_dir(struct serve_records *s, const char *path)
{
	struct serve_dir *dirs = reallocarray(s->dirs, s->ndirs + 1, sizeof(*dirs));
	struct serve_dir *d;

	if (!dirs)
		return -ENOMEM;
	s->dirs = dirs;
	d = &dirs[s->ndirs];
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = strdup(path);
	d->real = realpath(path, NULL);
	if (!d->path || !d->real) {
		free(d->path);
		free(d->real);
		return -ENOMEM;
	}
	s->ndirs++;
	return 0;
}

/* Everything read again from the start: the file changed under the index. */
static int restart(struct serve_records *s)
{
	report_fold_free(s->fold);
	s->fold = NULL;
	gamelog_release(&s->log);
	s->ngames = 0;
	s->generation++;
	for (size_t i = 0; i < s->ndirs; i++) {
		struct serve_dir *d = &s->dirs[i];
		close_dir(d);
		d->offset = d->size = 0;
		d->records = d->invalid = 0;
		d->skipping = false;
	}
	if (start_sprt(s) < 0)
		return -ENOMEM;
	return start_sums(s);
}

static int fold_line(struct serve_records *s, uint32_t dir, char *line, size_t len,
		     uint64_t offset)
{
	int rc;

	s->at_offset = offset;
	s->at_length = (uint32_t)len;
	s->at_dir = dir;
	line[len] = '\0';
	rc = gamelog_add_line(&s->log, line, len, dir);
	if (rc == -EBADMSG) {
		s->dirs[dir].invalid++;
		rc = 0;
	}
	return rc;
}

/* Fold the complete lines of buf (got bytes read at d->offset); how many bytes they take. */
static long fold_lines(struct serve_records *s, uint32_t dir, char *buf, size_t got)
{
	struct serve_dir *d = &s->dirs[dir];
	size_t start = 0;
	char *nl;

	while ((nl = memchr(buf + start, '\n', got - start))) {
		size_t len = (size_t)(nl - (buf + start));
		int rc = 0;
		if (d->skipping)
			d->skipping = false; /* the end of an over-long line */
		else if (len)
			rc = fold_line(s, dir, buf + start, len, d->offset + start);
		if (rc < 0)
			return rc;
		start += len + 1;
	}
	return (long)start;
}

/* Read d's new bytes up to size through fd. */
static int read_new(struct serve_records *s, uint32_t dir, int fd, uint64_t size)
{
	struct serve_dir *d = &s->dirs[dir];
	size_t cap = READ_CHUNK;
	char *buf = malloc(cap + 1);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	while (d->offset < size) {
		size_t want = size - d->offset < cap ? (size_t)(size - d->offset) : cap;
		ssize_t got = pread(fd, buf, want, (off_t)d->offset);
		long used;
		if (got <= 0) {
			rc = got < 0 ? -errno : 0;
			break;
		}
		if ((used = fold_lines(s, dir, buf, (size_t)got)) < 0) {
			rc = (int)used;
			break;
		}
		if (used > 0) {
			d->offset += (uint64_t)used;
			continue;
		}
		if ((size_t)got < cap)
			break; /* a torn last line: read whole next time */
		if (d->skipping || cap >= SERVE_LINE_MAX) {
			d->invalid += !d->skipping;
			d->skipping = true;
			d->offset += (uint64_t)got;
			continue;
		}
		char *bigger = realloc(buf, cap * 2 + 1);
		if (!bigger) {
			rc = -ENOMEM;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	free(buf);
	return rc;
}

/* Open d's games.jsonl: 1 with *fd and *st, 0 when there is none (or not a regular file). */
static int open_log(const struct serve_dir *d, int *fd, struct stat *st)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/games.jsonl", d->path) >= sizeof(path))
		return -ENAMETOOLONG;
	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return errno == ENOENT || errno == ELOOP ? 0 : -errno;
	if (fstat(*fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(*fd);
		return 0;
	}
	return 1;
}

/* Whether d's file is not the one its index was made of. */
static bool replaced(const struct serve_dir *d, int found, const struct stat *st)
{
	if (d->fd < 0)
		return false;
	return !found || st->st_dev != d->dev || st->st_ino != d->ino ||
	       (uint64_t)st->st_size < d->offset;
}

long serve_records_update(struct serve_records *s, char *err, size_t err_size)
{
	size_t before = s->ngames;
	uint64_t generation = s->generation;
	int rc = 0;

	if (!s->fold && (rc = start_sums(s)) < 0)
		goto out;
	for (uint32_t i = 0; i < s->ndirs && rc >= 0; i++) {
		struct serve_dir *d = &s->dirs[i];
		struct stat st;
		int fd = -1, found = open_log(d, &fd, &st);
		if (found < 0) {
			rc = found;
			break;
		}
		if (replaced(d, found, &st)) {
			if (found)
				close(fd);
			if ((rc = restart(s)) < 0)
				break;
			i = (uint32_t)-1; /* every directory again */
			continue;
		}
		if (!found)
			continue;
		if (d->fd >= 0) {
			close(fd);
		} else {
			d->fd = fd;
			d->dev = st.st_dev;
			d->ino = st.st_ino;
		}
		d->size = (uint64_t)st.st_size;
		d->mtime = (int64_t)st.st_mtime;
		rc = read_new(s, i, d->fd, d->size);
	}
out:
	if (rc < 0) {
		snprintf(err, err_size, "reading records: %s", strerror(-rc));
		return rc;
	}
	return s->generation != generation ? (long)s->ngames + 1 : (long)(s->ngames - before);
}

int serve_records_report(const struct serve_records *s, const struct report_options *opt,
			 struct report *r, char *err, size_t err_size)
{
	if (!s->fold) {
		memset(r, 0, sizeof(*r));
		snprintf(err, err_size, "no complete game records yet");
		return -ENODATA;
	}
	return report_fold_build(r, s->fold, &s->log, opt ? opt : &report_defaults, err, err_size);
}

char *serve_records_line(const struct serve_records *s, size_t n, size_t *len)
{
	const struct serve_game *g;
	const struct serve_dir *d;
	char *line;
	ssize_t got;

	if (n >= s->ngames) {
		errno = ENOENT;
		return NULL;
	}
	g = &s->games[n];
	d = &s->dirs[g->dir];
	if (d->fd < 0) {
		errno = ESTALE;
		return NULL;
	}
	if (!(line = malloc((size_t)g->length + 1)))
		return NULL;
	got = pread(d->fd, line, (size_t)g->length + 1, (off_t)g->offset);
	if (got != (ssize_t)g->length + 1 || line[g->length] != '\n') {
		free(line);
		errno = got < 0 ? errno : ESTALE;
		return NULL;
	}
	line[g->length] = '\0';
	*len = g->length;
	return line;
}

/* Whether path's real path lies inside the directory whose real path is real. */
static bool inside(const char *path, const char *real)
{
	char *p = realpath(path, NULL);
	size_t n = strlen(real);
	bool ok = p && strncmp(p, real, n) == 0 && p[n] == '/';

	free(p);
	return ok;
}

char *serve_records_replay(const struct serve_records *s, size_t n, size_t *len, int *code,
			   char *err, size_t err_size)
{
	const struct serve_dir *d = n < s->ngames ? &s->dirs[s->games[n].dir] : NULL;
	struct replay_ref ref;
	size_t line_len;
	char *line = serve_records_line(s, n, &line_len), *text = NULL;
	cJSON *record = line ? cJSON_ParseWithLengthOpts(line, line_len + 1, NULL, 1) : NULL;
	int rc;

	*code = -EIO;
	if (!record) {
		*code = !d ? -ENOENT : -EIO;
		snprintf(err, err_size, !d ? "no game %zu" : "game %zu: its record cannot be read",
			 n);
		goto out;
	}
	rc = replay_ref_of(d->path, record, &ref, err, err_size);
	if (rc <= 0) {
		*code = rc == 0 ? -ENOENT : rc;
		if (rc == 0)
			snprintf(err, err_size, "game %zu has no replay", n);
		goto out;
	}
	if (!inside(ref.path, d->real)) {
		*code = -EACCES;
		snprintf(err, err_size, "game %zu: its replay lies outside its directory", n);
		goto out;
	}
	text = replay_ref_read(&ref, NULL, len, err, err_size);
out:
	cJSON_Delete(record);
	free(line);
	return text;
}
