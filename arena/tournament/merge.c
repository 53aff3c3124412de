/*
 * merge.c - the shards of one tournament made into one directory (contract
 * in merge.h).
 */
#include "merge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "durable.h"
#include "json_strict.h"
#include "replay_find.h"
#include "records.h"
#include "results.h"
#include "schedule.h"
#include "tournament_file.h"

/* Where a game's record is: directory and line; dir == UINT32_MAX for none yet. */
struct place {
	uint64_t offset;
	uint32_t dir, length;
	uint32_t replay;          /* its replay file (merge.files), or one of these: */
};
#define REPLAY_NONE UINT32_MAX           /* the record has no replay */
#define REPLAY_CHECK (UINT32_MAX - 1)    /* its replay keys are wrong: read again to say why */

struct merge {
	const char *const *dirs;
	size_t ndirs;
	int *fds;                 /* each DIR's games.jsonl */
	int any_io;               /* some DIR has io/ transcripts */
	struct records_tournament *t;
	struct schedule *sched;
	struct place *places;     /* by game index */
	uint32_t current;         /* the directory being scanned */
	uint64_t duplicates, foreign;
	struct record_reader rd;  /* for the records OUT gets */
	/* The distinct replay files the records name (a pack serves many games),
	 * found by hash; linked[k] once file k is in OUT/replays. */
	char **files;
	uint8_t *file_linked;
	size_t nfiles, files_cap;
	uint32_t *slots;          /* file index + 1, 0 for empty; nslots a power of 2 */
	size_t nslots;
	struct window {           /* a block of one DIR's games.jsonl, read ahead */
		char *buf;
		size_t cap, len;
		uint32_t dir;
		uint64_t start;
	} win;
	char err[PATH_MAX + 512];
};

/* Line place of dir as text (malloc'ed, NUL-terminated) or NULL. */
static char *read_line(const struct merge *m, const struct place *p)
{
	char *line = malloc((size_t)p->length + 1);

	if (!line)
		return NULL;
	if (pread(m->fds[p->dir], line, p->length, (off_t)p->offset) != (ssize_t)p->length) {
		free(line);
		return NULL;
	}
	line[p->length] = '\0';
	return line;
}

/*
 * Line place of dir (p->length bytes, its newline included, not
 * NUL-terminated), valid until the next call; NULL on a read error. OUT's
 * records come in schedule order, mostly the order of each DIR's file, so
 * one read serves many lines.
 */
static const char *window_line(struct merge *m, const struct place *p)
{
	struct window *w = &m->win;
	ssize_t n;

	if (w->buf && w->dir == p->dir && p->offset >= w->start &&
	    p->offset + p->length <= w->start + w->len)
		return w->buf + (p->offset - w->start);
	if (p->length > w->cap) {
		size_t cap = p->length > (1 << 20) ? p->length : (1 << 20);

		free(w->buf);
		if (!(w->buf = malloc(cap))) {
			w->cap = 0;
			return NULL;
		}
		w->cap = cap;
	}
	n = pread(m->fds[p->dir], w->buf, w->cap, (off_t)p->offset);
	w->len = n < 0 ? 0 : (size_t)n;
	w->dir = p->dir;
	w->start = p->offset;
	return w->len >= p->length ? w->buf : NULL;
}

/* Two records of one game agree when they are equal without their timings. */
static int same_record(const char *a, const char *b)
{
	cJSON *ra = NULL, *rb = NULL;
	int same;

	json_strict_parse(a, strlen(a), &ra, NULL);
	json_strict_parse(b, strlen(b), &rb, NULL);
	cJSON_DeleteItemFromObjectCaseSensitive(ra, "time");
	cJSON_DeleteItemFromObjectCaseSensitive(rb, "time");
	same = ra && rb && cJSON_Compare(ra, rb, 1);
	cJSON_Delete(ra);
	cJSON_Delete(rb);
	return same;
}

static size_t name_hash(const char *s)
{
	size_t h = 14695981039346656037u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* Room for one more file: the list and a hash twice its size. 0 or -ENOMEM. */
static int files_reserve(struct merge *m)
{
	size_t cap = m->files_cap ? 2 * m->files_cap : 64;
	char **files;
	uint8_t *linked;

	if (m->nfiles < m->files_cap)
		return 0;
	if (!(files = reallocarray(m->files, cap, sizeof(*files))))
		return -ENOMEM;
	m->files = files;
	if (!(linked = realloc(m->file_linked, cap)))
		return -ENOMEM;
	m->file_linked = linked;
	free(m->slots);
	if (!(m->slots = calloc(2 * cap, sizeof(*m->slots))))
		return -ENOMEM;
	m->files_cap = cap;
	m->nslots = 2 * cap;
	for (size_t k = 0; k < m->nfiles; k++) {
		size_t h = name_hash(m->files[k]) & (m->nslots - 1);

		while (m->slots[h])
			h = (h + 1) & (m->nslots - 1);
		m->slots[h] = (uint32_t)k + 1;
	}
	return 0;
}

/* The index of replay file name in m->files, added if new; -ENOMEM. */
static int64_t file_index(struct merge *m, const char *name)
{
	size_t h;

	if (files_reserve(m) < 0)
		return -ENOMEM;
	for (h = name_hash(name) & (m->nslots - 1); m->slots[h]; h = (h + 1) & (m->nslots - 1))
		if (strcmp(m->files[m->slots[h] - 1], name) == 0)
			return m->slots[h] - 1;
	if (m->nfiles >= REPLAY_CHECK || !(m->files[m->nfiles] = strdup(name)))
		return -ENOMEM;
	m->file_linked[m->nfiles] = 0;
	m->slots[h] = (uint32_t)m->nfiles + 1;
	return (int64_t)m->nfiles++;
}

/* Which replay file a record names, as struct place keeps it. */
static int64_t replay_of(struct merge *m, const struct results_record *rec)
{
	struct replay_ref ref;
	char why[PATH_MAX + 256];
	int ret = replay_ref_of_record(m->dirs[m->current], rec, &ref, why, sizeof(why));

	if (ret == -ENOMEM)
		return ret;
	if (ret <= 0)
		return ret == 0 ? REPLAY_NONE : REPLAY_CHECK;
	return file_index(m, ref.file);
}

static int on_record(void *ctx, const struct results_record *rec)
{
	struct merge *m = ctx;
	struct place now = { rec->offset, m->current, (uint32_t)rec->length };
	char *a, *b;
	uint64_t i;
	int same;

	if (schedule_index_of(m->sched, rec->id, &i) < 0 || rec->players != m->t[0].players) {
		m->foreign++;
		return 0;
	}
	if (rec->length > UINT32_MAX)
		return -EFBIG;
	if (m->places[i].dir == UINT32_MAX) {
		int64_t replay = replay_of(m, rec);

		if (replay < 0)
			return (int)replay;
		now.replay = (uint32_t)replay;
		m->places[i] = now;
		return 0;
	}
	a = read_line(m, &m->places[i]);
	b = read_line(m, &now);
	same = a && b && same_record(a, b);
	free(a);
	free(b);
	if (!same) {
		snprintf(m->err, sizeof(m->err), "game %s is recorded differently in \"%s\" and "
			 "\"%s\" (not only in its timings): these are not runs of one tournament, "
			 "or a bot's moves depend on more than its game", rec->id,
			 m->dirs[m->places[i].dir], m->dirs[m->current]);
		return -EEXIST;
	}
	m->duplicates++;
	return 0;
}

/* Read every DIR's tournament.json and games.jsonl; 0 or a negative code with m->err. */
static int read_shards(struct merge *m)
{
	char err[PATH_MAX + 512], path[PATH_MAX];
	const struct records_tournament *t0;
	uint64_t count;
	int ret;

	for (size_t d = 0; d < m->ndirs; d++) {
		if ((ret = records_read_tournament(m->dirs[d], &m->t[d], err, sizeof(err))) < 0) {
			snprintf(m->err, sizeof(m->err), "%s", err);
			return ret;
		}
		/* its games follow no schedule to merge by, and it is never split in shards */
		if (m->t[d].league) {
			snprintf(m->err, sizeof(m->err), "\"%s\" is a league's directory, which is "
				 "not split in shards: `report`, `status` and `serve` read it as it "
				 "is (arena/LEAGUE.md)", m->dirs[d]);
			return -EINVAL;
		}
		if (d && strcmp(m->t[d].same, m->t[0].same) != 0) {
			snprintf(m->err, sizeof(m->err), "\"%s\" is not a shard of the tournament in "
				 "\"%s\": their tournament.json files differ in more than paths, "
				 "output and shard (bots, rules, time, limits, seed or deals)",
				 m->dirs[d], m->dirs[0]);
			return -EINVAL;
		}
	}
	t0 = &m->t[0];
	if (schedule_new_gauntlet(t0->nbots, t0->challenger, t0->players, t0->deals,
				  t0->duplicate, t0->pairings, t0->seed, &m->sched) < 0) {
		snprintf(m->err, sizeof(m->err), "\"%s/tournament.json\": not a schedule of games",
			 m->dirs[0]);
		return -EINVAL;
	}
	count = schedule_count(m->sched);
	if (!(m->places = calloc(count, sizeof(*m->places))))
		return -ENOMEM;
	for (uint64_t i = 0; i < count; i++)
		m->places[i].dir = UINT32_MAX;
	for (size_t d = 0; d < m->ndirs; d++) {
		snprintf(path, sizeof(path), "%s/games.jsonl", m->dirs[d]);
		if ((m->fds[d] = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			ret = -errno;
			snprintf(m->err, sizeof(m->err), "\"%s\": %s", path, strerror(errno));
			return ret;
		}
		snprintf(path, sizeof(path), "%s/io", m->dirs[d]);
		m->any_io |= access(path, F_OK) == 0;
		m->current = (uint32_t)d;
		if ((ret = records_scan_dir(m->dirs[d], on_record, m, err, sizeof(err))) < 0) {
			if (ret != -EEXIST)
				snprintf(m->err, sizeof(m->err), "%s", err);
			return ret;
		}
	}
	return 0;
}

/* Copy from to the end of the file at to (created if need be); a missing from is no error. */
static int append_file(const char *from, const char *to, int flags)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	if (in < 0)
		return errno == ENOENT ? 0 : -errno;
	if ((out = open(to, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644)) < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(out, buf, (size_t)n) != n) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
	}
	if (!ret && fsync(out) < 0 && errno != EINVAL)
		ret = -errno;
	close(in);
	if (close(out) < 0 && !ret)
		ret = -errno;
	return ret;
}

/* One file of a game, hard-linked (copied across file systems); a missing one is no error. */
static int link_or_copy(const char *dir, const char *out, const char *kind, const char *id,
			const char *ext)
{
	char from[PATH_MAX], to[PATH_MAX];

	snprintf(from, sizeof(from), "%s/%s/%s.%s", dir, kind, id, ext);
	snprintf(to, sizeof(to), "%s/%s/%s.%s", out, kind, id, ext);
	/* ENOENT is from's: to's directory exists */
	if (link(from, to) == 0 || errno == ENOENT)
		return 0;
	return append_file(from, to, O_TRUNC);
}

/*
 * The replay file a record names, into OUT/replays once: a pack (named at
 * random, so one name in two directories is one pack) or, from older runs, a
 * file of the game's own. A record without a replay has none to bring.
 */
/* Why a record's replay keys are wrong, into m->err; the negative code. */
static int replay_refused(struct merge *m, const char *dir, const char *line, size_t len)
{
	char why[PATH_MAX + 256];
	struct replay_ref ref = { 0 };
	struct record r;
	struct results_record rec = { .record = &r, .reader = &m->rd, .line = line,
				      .length = len };
	int ret = record_parse(&m->rd, line, len - 1, RECORD_KEYS, &r);

	if (ret == 0)
		ret = replay_ref_of_record(dir, &rec, &ref, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", m->rd.why);
	snprintf(m->err, sizeof(m->err), "\"%s/games.jsonl\", game %s: %s", dir,
		 ref.id ? ref.id : "?", why);
	return ret < 0 ? ret : -EBADMSG;
}

/*
 * The replay file game i's record names, into OUT/replays once: a pack (named
 * at random, so one name in two directories is one pack) or, from older runs,
 * a file of the game's own. A record without a replay has none to bring.
 */
static int link_replay(struct merge *m, uint64_t i, const char *line, const char *out)
{
	const struct place *p = &m->places[i];
	const char *dir = m->dirs[p->dir];
	char from[PATH_MAX], to[PATH_MAX];
	struct schedule_game g;

	if (p->replay == REPLAY_NONE || (p->replay != REPLAY_CHECK && m->file_linked[p->replay]))
		return 0;
	if (p->replay == REPLAY_CHECK)
		return replay_refused(m, dir, line, p->length);
	m->file_linked[p->replay] = 1;
	snprintf(from, sizeof(from), "%s/%s", dir, m->files[p->replay]);
	snprintf(to, sizeof(to), "%s/%s", out, m->files[p->replay]);
	if (link(from, to) == 0)
		return 0;
	if (errno != ENOENT)
		return append_file(from, to, O_TRUNC);
	schedule_game(m->sched, i, &g);
	snprintf(m->err, sizeof(m->err), "game %s: its replay \"%s\" is missing (OUT would "
		 "record a game without it)", g.id, from);
	return -ENOENT;
}

/* Every bot's stderr log: the directories' logs one after the other. */
static int merge_logs(const struct merge *m, const char *out)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct dirent *e;
	int ret = 0;

	for (size_t d = 0; d < m->ndirs && !ret; d++) {
		DIR *logs;

		snprintf(from, sizeof(from), "%s/logs", m->dirs[d]);
		if (!(logs = opendir(from)))
			continue;
		while (!ret && (e = readdir(logs))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(from, sizeof(from), "%s/logs/%s", m->dirs[d], e->d_name);
			snprintf(to, sizeof(to), "%s/logs/%s", out, e->d_name);
			ret = append_file(from, to, O_APPEND);
		}
		closedir(logs);
	}
	return ret;
}

/* tournament.json of the whole tournament into dir: the first shard's without "shard", output OUT. */
static int write_tournament(struct merge *m, const char *dir, const char *out)
{
	struct records_tournament_doc d = { 0 };
	int ret = records_tournament_doc_parse(m->t[0].text, &d);

	if (ret == 0 && (ret = records_tournament_set_shard(&d, 0, 0)) == 0 &&
	    (ret = records_tournament_set_output(&d, out)) == 0)
		ret = records_tournament_write(dir, &d, m->err, sizeof(m->err));
	else
		snprintf(m->err, sizeof(m->err), "out of memory");
	records_tournament_doc_release(&d);
	return ret;
}

/* Write OUT's files into dir: files first, games.jsonl last (renamed into place), so dir never
 * lists a game without its replay. */
static int write_out(struct merge *m, const char *out, const char *name, uint64_t *written)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	uint64_t count = schedule_count(m->sched);
	struct schedule_game g;
	FILE *f = NULL;
	int fd = -1, ret;

	*written = 0;
	if (mkdir(out, 0755) < 0) {
		ret = -errno;
		snprintf(m->err, sizeof(m->err), "\"%s\": %s", out, strerror(errno));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/replays", out);
	snprintf(tmp, sizeof(tmp), "%s/logs", out);
	if (mkdir(path, 0755) < 0 || mkdir(tmp, 0755) < 0) {
		ret = -errno;
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/io", out);
	if (m->any_io && mkdir(path, 0755) < 0) {
		ret = -errno;
		goto fail;
	}
	if ((ret = merge_logs(m, out)) < 0 || (ret = write_tournament(m, out, name)) < 0)
		goto fail;
	snprintf(tmp, sizeof(tmp), "%s/games.jsonl.tmp", out);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0 ||
	    !(f = fdopen(fd, "w"))) {
		ret = -errno;
		goto fail;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	for (uint64_t i = 0; i < count; i++) {
		const struct place *p = &m->places[i];
		const char *line;

		if (p->dir == UINT32_MAX)
			continue;
		if (m->any_io) {
			schedule_game(m->sched, i, &g);
			if ((ret = link_or_copy(m->dirs[p->dir], out, "io", g.id, "log")) < 0)
				goto fail;
		}
		if (!(line = window_line(m, p))) {
			ret = -EIO;
			goto fail;
		}
		if ((ret = link_replay(m, i, line, out)) < 0)
			goto fail;
		if (fwrite(line, 1, p->length, f) != p->length) {
			ret = errno ? -errno : -EIO;
			goto fail_games;
		}
		(*written)++;
	}
	snprintf(path, sizeof(path), "%s/games.jsonl", out);
	snprintf(tmp, sizeof(tmp), "%s/replays", out);
	ret = fflush(f) == 0 && (fsync(fd) == 0 || errno == EINVAL) ? 0 : -errno;
	if (fclose(f) < 0 && !ret)
		ret = -errno;
	f = NULL;
	fd = -1;
	if (ret < 0) {
		snprintf(tmp, sizeof(tmp), "%s/games.jsonl.tmp", out);
		goto fail_games;
	}
	if ((ret = durable_sync_dir(tmp)) < 0)
		goto fail;
	snprintf(tmp, sizeof(tmp), "%s/games.jsonl.tmp", out);
	if (rename(tmp, path) < 0 || (ret = durable_sync_dir(out)) < 0) {
		ret = ret < 0 ? ret : -errno;
		goto fail;
	}
	return 0;
fail_games:
	/* tmp: the games.jsonl being written */
	snprintf(m->err, sizeof(m->err), "writing \"%s\": %s%s", tmp, strerror(-ret),
		 ret == -ENOSPC ? ": free space and run the same command again" : "");
fail:
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	if (!m->err[0])
		snprintf(m->err, sizeof(m->err), "writing \"%s\": %s%s", out, strerror(-ret),
			 ret == -ENOSPC ? ": free space and run the same command again" : "");
	return ret;
}

int merge_open(const char *const *dirs, size_t ndirs, struct merge **out, char *err,
	       size_t err_size)
{
	struct merge *m = calloc(1, sizeof(*m));
	int ret = -ENOMEM;

	*out = NULL;
	if (!m)
		goto fail;
	m->dirs = dirs;
	m->ndirs = ndirs;
	record_reader_init(&m->rd);
	if (!(m->fds = malloc(ndirs * sizeof(*m->fds))) || !(m->t = calloc(ndirs, sizeof(*m->t))))
		goto fail;
	for (size_t d = 0; d < ndirs; d++)
		m->fds[d] = -1;
	if ((ret = read_shards(m)) < 0)
		goto fail;
	*out = m;
	return 0;
fail:
	snprintf(err, err_size, "%s", m && m->err[0] ? m->err : "out of memory");
	merge_free(m);
	return ret;
}

uint64_t merge_count(const struct merge *m)
{
	return schedule_count(m->sched);
}

uint64_t merge_foreign(const struct merge *m)
{
	return m->foreign;
}

uint64_t merge_duplicates(const struct merge *m)
{
	return m->duplicates;
}

uint64_t merge_missing(const struct merge *m, void (*fn)(void *ctx, const char *id, int shard,
							   uint32_t nshards), void *ctx)
{
	uint64_t count = schedule_count(m->sched), missing = 0;
	uint32_t n = m->t[0].nshards;
	struct schedule_game g;

	for (uint64_t i = 0; i < count; i++) {
		if (m->places[i].dir != UINT32_MAX)
			continue;
		missing++;
		schedule_game(m->sched, i, &g);
		fn(ctx, g.id, n ? schedule_shard_of(m->sched, i, n) + 1 : 0, n);
	}
	return missing;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int merge_write(struct merge *m, const char *out, uint64_t *written, char *err, size_t err_size)
{
	char *part = NULL, base[PATH_MAX];
	struct stat st;
	size_t n;
	int ret;

	m->err[0] = '\0';
	*written = 0;
	if (strlcpy(base, out, sizeof(base)) >= sizeof(base))
		base[0] = '\0';
	/* "out/" is "out", whose partial copy is "out.merging", not "out/.merging" */
	for (n = strlen(base); n > 1 && base[n - 1] == '/'; n--)
		base[n - 1] = '\0';
	if (!base[0] || asprintf(&part, "%s.merging", base) < 0) {
		snprintf(err, err_size, "\"%s\": path too long", out);
		return -ENAMETOOLONG;
	}
	if (lstat(base, &st) == 0) {
		snprintf(err, err_size, "\"%s\" exists: merge writes a new directory (an earlier merge "
			 "that finished made it?): remove it or name another OUT", out);
		ret = -EEXIST;
		goto out;
	}
	/* what a merge that stopped (a crash, a full disk) left: merge's own, started over */
	if (nftw(part, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s: an unfinished merge; remove it", part,
			 strerror(errno));
		goto out;
	}
	ret = write_out(m, part, base, written);
	/* the whole directory appears at once, its files already on the disk */
	if (ret == 0 && rename(part, base) < 0) {
		ret = -errno;
		snprintf(m->err, sizeof(m->err), "renaming \"%s\" to \"%s\": %s", part, base,
			 strerror(errno));
	}
	if (ret == 0 && (ret = durable_sync_parent(base)) < 0)
		snprintf(m->err, sizeof(m->err), "\"%s\": %s", base, strerror(-ret));
	if (ret < 0)
		snprintf(err, err_size, "%s", m->err);
out:
	free(part);
	return ret;
}

void merge_free(struct merge *m)
{
	if (!m)
		return;
	for (size_t d = 0; m->fds && d < m->ndirs; d++)
		if (m->fds[d] >= 0)
			close(m->fds[d]);
	for (size_t d = 0; m->t && d < m->ndirs; d++)
		records_tournament_release(&m->t[d]);
	free(m->fds);
	free(m->t);
	free(m->places);
	for (size_t k = 0; k < m->nfiles; k++)
		free(m->files[k]);
	free(m->files);
	free(m->file_linked);
	free(m->slots);
	free(m->win.buf);
	record_reader_release(&m->rd);
	schedule_free(m->sched);
	free(m);
}
