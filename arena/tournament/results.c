/*
 * results.c - the output directory and games.jsonl (contract in results.h).
 */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "durable.h"
#include "json_strict.h"
#include "programs.h"

struct results {
	char *dir;
	int fd;                 /* games.jsonl, O_APPEND */
	pthread_mutex_t lock;
};

static int make_dir(const char *path)
{
	char buf[PATH_MAX];

	if (strlcpy(buf, path, sizeof(buf)) >= sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		/* writable by the arena's user alone, whatever the umask: no bot of another uid writes here */
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Read a whole small file; NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0)
		goto out;
	if (!(text = malloc((size_t)size + 1)))
		goto out;
	*len = fread(text, 1, (size_t)size, f);
	text[*len] = '\0';
out:
	fclose(f);
	return text;
}

/* text and a newline, durably: on the disk before any record refers to it. */
static int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	char *line = malloc(len + 1);
	int ret;

	if (!line)
		return -ENOMEM;
	memcpy(line, text, len);
	line[len] = '\n';
	ret = durable_write(path, line, len + 1);
	free(line);
	return ret;
}

/* The games-only form of an existing tournament.json, printed like config_to_json(). */
static char *games_only(const char *text, size_t len)
{
	static const char *const run_keys[] = { "concurrency", "pin", "output", "stderr_cap",
						"stderr_total_cap", "sandbox", "programs",
						"replays", "started" };
	cJSON *root = NULL;
	char *out;

	json_strict_parse(text, len, &root, NULL);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(run_keys) / sizeof(run_keys[0]); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(root, run_keys[i]);
	out = cJSON_Print(root);
	cJSON_Delete(root);
	return out;
}

/*
 * A resume with the sandbox on where an earlier run had it off, or the other
 * way round, makes tournament.json say "mixed": it records which was used.
 * A tournament.json without the key comes from before sandboxes: "off".
 * One without "programs" (from before they were recorded) gets today's.
 * Returns 1 when was changed, else 0.
 */
static int note_run(cJSON *was, const cJSON *now)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(was, "sandbox");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(now, "sandbox");
	const cJSON *programs = cJSON_GetObjectItemCaseSensitive(now, "programs");
	const char *before = cJSON_IsString(a) ? a->valuestring : "off";
	const char *used = cJSON_IsString(b) && strcmp(before, b->valuestring) != 0 ? "mixed" : before;
	int changed = 0;

	if (!cJSON_IsString(a) || strcmp(before, used) != 0) {
		cJSON_DeleteItemFromObjectCaseSensitive(was, "sandbox");
		cJSON_AddStringToObject(was, "sandbox", used);
		changed = 1;
	}
	if (programs && !cJSON_GetObjectItemCaseSensitive(was, "programs")) {
		cJSON_AddItemToObject(was, "programs", cJSON_Duplicate(programs, 1));
		changed = 1;
	}
	return changed;
}

/* A value for a message: a short scalar as JSON text, anything else by its kind. */
static void short_value(const cJSON *v, char *buf, size_t size)
{
	char *text = NULL;

	if (!v)
		snprintf(buf, size, "absent");
	else if (cJSON_IsArray(v) || cJSON_IsObject(v))
		snprintf(buf, size, "%s", cJSON_IsArray(v) ? "an array" : "an object");
	else if ((text = cJSON_PrintUnformatted(v)) && strlen(text) <= 40)
		snprintf(buf, size, "%s", text);
	else
		snprintf(buf, size, "a long value");
	cJSON_free(text);
}

/* One differing setting into out: "path: A in the directory, B now". */
static void add_difference(const char *path, const cJSON *was, const cJSON *now, char *out,
			   size_t size, int *n)
{
	char a[48], b[48];
	size_t used = strlen(out);

	if (++*n > 6) {
		if (*n == 7 && used < size)
			snprintf(out + used, size - used, "; and more");
		return;
	}
	short_value(was, a, sizeof(a));
	short_value(now, b, sizeof(b));
	if (used < size)
		snprintf(out + used, size - used, "%s%s: %s in the directory, %s now", used ? "; " : "",
			 path, a, b);
}

/* The settings where two tournament trees differ, by key path, into out (a few at most). */
static void differences(const cJSON *was, const cJSON *now, const char *path, char *out,
			size_t size, int *n)
{
	char sub[256];

	if (cJSON_Compare(was, now, 1))
		return;
	if (cJSON_IsObject(was) && cJSON_IsObject(now)) {
		const cJSON *item;

		cJSON_ArrayForEach(item, was) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", item->string);
			differences(item, cJSON_GetObjectItemCaseSensitive(now, item->string), sub, out,
				    size, n);
		}
		cJSON_ArrayForEach(item, now)
			if (!cJSON_GetObjectItemCaseSensitive(was, item->string)) {
				snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "",
					 item->string);
				add_difference(sub, NULL, item, out, size, n);
			}
		return;
	}
	if (cJSON_IsArray(was) && cJSON_IsArray(now) &&
	    cJSON_GetArraySize(was) == cJSON_GetArraySize(now)) {
		for (int i = 0; i < cJSON_GetArraySize(was); i++) {
			snprintf(sub, sizeof(sub), "%s[%d]", path, i);
			differences(cJSON_GetArrayItem(was, i), cJSON_GetArrayItem(now, i), sub, out,
				    size, n);
		}
		return;
	}
	add_difference(path, was, now, out, size, n);
}

/* A new tournament.json: the tournament as resolved, and when it started (UTC). */
static int write_new_tournament(const char *path, const char *tournament_json)
{
	cJSON *root = NULL;
	char started[32], *text = NULL;
	time_t now = time(NULL);
	struct tm tm;
	int ret = -ENOMEM;

	if (!gmtime_r(&now, &tm) || !strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return write_file(path, tournament_json);
	json_strict_parse(tournament_json, strlen(tournament_json), &root, NULL);
	if (root && cJSON_AddStringToObject(root, "started", started) &&
	    (text = cJSON_Print(root)))
		ret = write_file(path, text);
	free(text);
	cJSON_Delete(root);
	return ret;
}

static int check_tournament(const char *dir, const char *tournament_json, const char *games_json,
			    char *err, size_t err_size)
{
	char path[PATH_MAX], *old = NULL, *old_games = NULL, *text = NULL, why[PATH_MAX + 256];
	cJSON *was = NULL, *now = NULL;
	size_t len = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/tournament.json", dir);
	old = read_file(path, &len);
	if (!old) {
		ret = errno == ENOENT ? write_new_tournament(path, tournament_json) : -errno;
		if (ret < 0)
			snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		goto out;
	}
	old_games = games_only(old, len);
	ret = -EEXIST;
	if (!old_games || strcmp(old_games, games_json) != 0) {
		char what[1024] = "";
		int n = 0;

		if (old_games && json_strict_parse(old_games, strlen(old_games), &was, NULL) == 0 &&
		    json_strict_parse(games_json, strlen(games_json), &now, NULL) == 0)
			differences(was, now, "", what, sizeof(what), &n);
		snprintf(err, err_size, "\"%s\" holds a different tournament (%s): resume it with "
			 "the same tournament file and options, or choose another output directory",
			 dir, what[0] ? what : "bots, rules, seed, deals or shard differ");
		goto out;
	}
	json_strict_parse(old, len, &was, NULL);
	json_strict_parse(tournament_json, strlen(tournament_json), &now, NULL);
	ret = -ENOMEM;
	if (!was || !now)
		goto out;
	ret = -ESTALE;
	if (programs_changed(was, now, why, sizeof(why))) {
		snprintf(err, err_size, "\"%s\": %s; its new games would be ranked with the old",
			 dir, why);
		goto out;
	}
	ret = 0;
	if (note_run(was, now) && ((text = cJSON_Print(was)) == NULL ||
				   (ret = write_file(path, text)) < 0)) {
		ret = ret < 0 ? ret : -ENOMEM;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
	}
out:
	free(old);
	free(old_games);
	free(text);
	cJSON_Delete(was);
	cJSON_Delete(now);
	return ret;
}

int results_move_aside(const char *dir, char *moved, size_t size)
{
	char path[PATH_MAX], base[PATH_MAX];
	size_t n;
	struct stat st;

	moved[0] = '\0';
	if (strlcpy(base, dir, sizeof(base)) >= sizeof(base))
		return -ENAMETOOLONG;
	/* "out/" is moved as "out", not into itself */
	for (n = strlen(base); n > 1 && base[n - 1] == '/'; n--)
		base[n - 1] = '\0';
	if (lstat(base, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (snprintf(path, sizeof(path), "%s/tournament.json", base) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (!S_ISDIR(st.st_mode) || lstat(path, &st) < 0)
		return -ENOTEMPTY;
	for (int k = 1; k < 1000; k++) {
		if (snprintf(moved, size, "%s.old-%d", base, k) >= (int)size)
			return -ENAMETOOLONG;
		/* never over anything: an existing name is skipped, not replaced */
		if (renameat2(AT_FDCWD, base, AT_FDCWD, moved, RENAME_NOREPLACE) == 0) {
			int ret = durable_sync_parent(base);

			return ret < 0 ? ret : 1;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Cut a torn last line (no newline) off games.jsonl. */
static int cut_torn_line(int fd)
{
	char buf[4096];
	off_t end = lseek(fd, 0, SEEK_END), pos = end;

	if (end < 0)
		return -errno;
	while (pos > 0) {
		size_t n = pos < (off_t)sizeof(buf) ? (size_t)pos : sizeof(buf);
		ssize_t got = pread(fd, buf, n, pos - (off_t)n);

		if (got != (ssize_t)n)
			return got < 0 ? -errno : -EIO;
		for (size_t i = n; i > 0; i--) {
			if (buf[i - 1] == '\n') {
				off_t keep = pos - (off_t)n + (off_t)i;

				if (keep != end && ftruncate(fd, keep) < 0)
					return -errno;
				return 0;
			}
		}
		pos -= (off_t)n;
	}
	if (end > 0 && ftruncate(fd, 0) < 0)
		return -errno;
	return 0;
}

int results_open(const char *dir, const char *tournament_json, const char *games_json,
		 struct results **out, char *err, size_t err_size)
{
	struct results *r = NULL;
	char path[PATH_MAX];
	int ret;

	*out = NULL;
	if (snprintf(path, sizeof(path), "%s/replays", dir) >= (int)sizeof(path)) {
		ret = -ENAMETOOLONG;
		snprintf(err, err_size, "\"%s\": path too long", dir);
		goto out;
	}
	if ((ret = make_dir(path)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/logs", dir);
	if ((ret = make_dir(path)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		goto out;
	}
	if ((ret = check_tournament(dir, tournament_json, games_json, err, err_size)) < 0)
		goto out;
	ret = -ENOMEM;
	if (!(r = calloc(1, sizeof(*r))) || !(r->dir = strdup(dir)))
		goto out;
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	r->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (r->fd < 0) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		goto out;
	}
	if ((ret = cut_torn_line(r->fd)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
		close(r->fd);
		goto out;
	}
	/* games.jsonl, replays/ and logs/ exist on the disk before any record is appended */
	if ((ret = durable_sync_dir(dir)) < 0 || (ret = durable_sync_parent(dir)) < 0) {
		snprintf(err, err_size, "\"%s\": %s", dir, strerror(-ret));
		close(r->fd);
		goto out;
	}
	pthread_mutex_init(&r->lock, NULL);
	*out = r;
	r = NULL;
	ret = 0;
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	if (r)
		free(r->dir);
	free(r);
	return ret;
}

/* Check the fields a resume relies on; 0, or -EBADMSG with why. */
static int read_record(const cJSON *root, struct results_record *rec, char *why, size_t why_size)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
	const cJSON *placings = cJSON_GetObjectItemCaseSensitive(root, "placings"), *v;
	struct json_strict_error e;
	int64_t n, p;
	char where[32];
	int s = 0;

	if (!cJSON_IsObject(root) || !cJSON_IsString(id)) {
		snprintf(why, why_size, "not a game record (an object with a string \"id\")");
		return -EBADMSG;
	}
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "players"), NULL, "players", 2,
			    ENGINE_MAX_PLAYERS, 0, &n, &e) < 0)
		goto refused;
	if (!cJSON_IsArray(placings) || cJSON_GetArraySize(placings) != n) {
		snprintf(why, why_size, "placings: expected an array of %d integers", (int)n);
		return -EBADMSG;
	}
	cJSON_ArrayForEach(v, placings) {
		snprintf(where, sizeof(where), "placings[%d]", s);
		if (json_strict_int(v, where, NULL, 1, n, 0, &p, &e) < 0)
			goto refused;
		rec->placings[s++] = (int)p;
	}
	rec->id = id->valuestring;
	rec->players = (int)n;
	rec->json = root;
	return 0;
refused:
	snprintf(why, why_size, "%s", e.message);
	return -EBADMSG;
}

int results_scan(struct results *r, int (*fn)(void *ctx, const struct results_record *rec),
		 void *ctx, char *err, size_t err_size)
{
	return results_scan_dir(r->dir, fn, ctx, err, err_size);
}

int results_scan_dir(const char *dir, int (*fn)(void *ctx, const struct results_record *rec),
		     void *ctx, char *err, size_t err_size)
{
	char path[PATH_MAX], *line = NULL, why[JSON_STRICT_MESSAGE_MAX + 32];
	size_t cap = 0, lineno = 0;
	uint64_t offset = 0;
	ssize_t n;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	if (!(f = fopen(path, "r"))) {
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		return -errno;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		struct results_record rec = { 0 };
		struct json_strict_error e;
		cJSON *root = NULL;

		lineno++;
		if (line[n - 1] != '\n')
			break; /* torn: a writer is still at it */
		if (json_strict_parse(line, (size_t)n, &root, &e) < 0) {
			ret = e.code == JSON_STRICT_ENOMEM ? -ENOMEM : -EBADMSG;
			snprintf(why, sizeof(why), "column %lu: %s", e.column, e.message);
		} else if ((ret = read_record(root, &rec, why, sizeof(why))) == 0) {
			rec.offset = offset;
			rec.length = (size_t)n;
			ret = fn(ctx, &rec);
			snprintf(why, sizeof(why), "%s", strerror(-ret));
		}
		cJSON_Delete(root);
		if (ret < 0) {
			snprintf(err, err_size, "\"%s\", line %zu: %s", path, lineno, why);
			break;
		}
		offset += (uint64_t)n;
	}
	free(line);
	fclose(f);
	return ret;
}

/* Drop what differs between machines playing the same games: see results.h. */
static int drop_paths(cJSON *root)
{
	cJSON *bot, *first;

	cJSON_DeleteItemFromObjectCaseSensitive(root, "shard");
	cJSON_ArrayForEach(bot, cJSON_GetObjectItemCaseSensitive(root, "bots")) {
		cJSON_DeleteItemFromObjectCaseSensitive(bot, "cwd");
		first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(bot, "command"), 0);
		if (cJSON_IsString(first) && strrchr(first->valuestring, '/')) {
			cJSON *base = cJSON_CreateString(strrchr(first->valuestring, '/') + 1);

			if (!base)
				return -ENOMEM;
			cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(bot, "command"), 0,
						 base);
		}
	}
	return 0;
}

static int read_shard(const cJSON *item, struct results_tournament *t)
{
	unsigned k, n;
	int end = 0;

	if (!item)
		return 0;
	if (!cJSON_IsString(item) || sscanf(item->valuestring, "%u/%u%n", &k, &n, &end) != 2 ||
	    item->valuestring[end] || k < 1 || k > n)
		return -EBADMSG;
	t->shard = k;
	t->nshards = n;
	return 0;
}

/* "sprt": an object of four numbers, or absent. */
static int read_sprt(const cJSON *item, struct results_sprt *s)
{
	const char *const keys[] = { "elo0", "elo1", "alpha", "beta" };
	double *values[] = { &s->elo0, &s->elo1, &s->alpha, &s->beta };

	if (!item)
		return 0;
	if (!cJSON_IsObject(item) || cJSON_GetArraySize(item) != 4)
		return -EBADMSG;
	for (int k = 0; k < 4; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, keys[k]);

		if (!cJSON_IsNumber(v))
			return -EBADMSG;
		*values[k] = v->valuedouble;
	}
	s->on = 1;
	return 0;
}

/* A gauntlet's "challengers" as flags over "bots" (t->challenger stays NULL for a round robin). */
static int read_challengers(const cJSON *root, struct results_tournament *t)
{
	const cJSON *names = cJSON_GetObjectItemCaseSensitive(root, "challengers"), *name, *bot;

	if (!names)
		return 0;
	if (!cJSON_IsArray(names) || !(t->challenger = calloc(t->nbots + 1, 1)))
		return -1;
	cJSON_ArrayForEach(name, names) {
		size_t b = 0;

		cJSON_ArrayForEach(bot, cJSON_GetObjectItemCaseSensitive(root, "bots")) {
			const cJSON *n = cJSON_GetObjectItemCaseSensitive(bot, "name");

			if (cJSON_IsString(name) && cJSON_IsString(n) &&
			    strcmp(n->valuestring, name->valuestring) == 0)
				break;
			b++;
		}
		if (b >= t->nbots)
			return -1;
		t->challenger[b] = 1;
	}
	return 0;
}

int results_read_tournament(const char *dir, struct results_tournament *t, char *err,
			    size_t err_size)
{
	struct json_strict_error e = { 0 };
	const cJSON *seed;
	cJSON *root = NULL;
	char path[PATH_MAX], *games = NULL, *end;
	int64_t v;
	size_t len = 0;
	int ret = -EBADMSG;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/tournament.json", dir);
	if (!(t->text = read_file(path, &len))) {
		ret = -errno;
		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		return ret;
	}
	if (json_strict_parse(t->text, len, &root, &e) < 0) {
		snprintf(err, err_size, "\"%s\", line %lu: %s", path, e.line, e.message);
		goto out;
	}
	seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "players"), NULL, "players", 2,
			    ENGINE_MAX_PLAYERS, 0, &v, &e) < 0)
		goto refused;
	t->players = (int)v;
	if (json_strict_int(cJSON_GetObjectItemCaseSensitive(root, "deals"), NULL, "deals", 1,
			    UINT32_MAX, 0, &v, &e) < 0)
		goto refused;
	t->deals = (uint32_t)v;
	t->duplicate = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "duplicate"));
	t->nbots = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "bots"));
	errno = 0;
	if (!cJSON_IsString(seed) || seed->valuestring[0] < '0' || seed->valuestring[0] > '9' ||
	    (t->seed = strtoull(seed->valuestring, &end, 10), *end) || errno) {
		snprintf(err, err_size, "\"%s\": seed: expected a decimal string", path);
		goto out;
	}
	if (read_shard(cJSON_GetObjectItemCaseSensitive(root, "shard"), t) < 0) {
		snprintf(err, err_size, "\"%s\": shard: expected \"K/N\" with 1 <= K <= N", path);
		goto out;
	}
	if (read_sprt(cJSON_GetObjectItemCaseSensitive(root, "sprt"), &t->sprt) < 0) {
		snprintf(err, err_size, "\"%s\": sprt: expected elo0, elo1, alpha and beta", path);
		goto out;
	}
	if (read_challengers(root, t) < 0) {
		snprintf(err, err_size, "\"%s\": challengers: expected names of bots", path);
		goto out;
	}
	ret = -ENOMEM;
	if (!(games = cJSON_Print(root)) || !(t->same = games_only(games, strlen(games))))
		goto out;
	cJSON_Delete(root);
	root = NULL;
	json_strict_parse(t->same, strlen(t->same), &root, NULL);
	free(t->same);
	t->same = NULL;
	if (!root || drop_paths(root) < 0 || !(t->same = cJSON_Print(root)))
		goto out;
	ret = 0;
	goto out;
refused:
	snprintf(err, err_size, "\"%s\": %s", path, e.message);
out:
	if (ret == -ENOMEM)
		snprintf(err, err_size, "out of memory");
	cJSON_Delete(root);
	free(games);
	return ret;
}

void results_tournament_release(struct results_tournament *t)
{
	free(t->text);
	free(t->same);
	free(t->challenger);
	memset(t, 0, sizeof(*t));
}

int results_append(struct results *r, const char *line, size_t len)
{
	char *buf = malloc(len + 1);
	size_t done = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	/* one write of the whole line: a crash tears at most the last line */
	memcpy(buf, line, len);
	buf[len] = '\n';
	pthread_mutex_lock(&r->lock);
	while (done < len + 1) {
		ssize_t n = write(r->fd, buf + done, len + 1 - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		done += (size_t)n;
	}
	if (!ret && fsync(r->fd) < 0 && errno != EINVAL)
		ret = -errno;
	pthread_mutex_unlock(&r->lock);
	free(buf);
	return ret;
}

void results_close(struct results *r)
{
	if (!r)
		return;
	close(r->fd);
	pthread_mutex_destroy(&r->lock);
	free(r->dir);
	free(r);
}

static void write_time(struct jsonw *w, const struct referee_time_stats *t)
{
	jsonw_printf(w, "{\"moves\":%" PRIu32 ",\"mean_us\":%.1f,\"median_us\":%" PRId64
		     ",\"p99_us\":%" PRId64 ",\"max_us\":%" PRId64 ",\"cpu_mean_us\":%.1f"
		     ",\"cpu_max_us\":%" PRId64 "}",
		     t->moves, t->mean_us, t->median_us, t->p99_us, t->max_us, t->cpu_mean_us,
		     t->cpu_max_us);
}

static void write_teams(struct jsonw *w, int players, int partnership)
{
	int teams = partnership ? players / 2 : players;

	jsonw_text(w, "[");
	for (int t = 0; t < teams; t++) {
		jsonw_text(w, t ? ",[" : "[");
		for (int s = t, first = 1; s < players; s += teams, first = 0)
			jsonw_printf(w, first ? "%d" : ",%d", s);
		jsonw_text(w, "]");
	}
	jsonw_text(w, "]");
}

int results_format_record(struct jsonw *w, const struct results_game *rg)
{
	const struct schedule_game *g = rg->game;
	const struct referee_outcome *o = rg->outcome;
	int n = o->players;

	jsonw_reset(w);
	jsonw_text(w, "{\"id\":");
	jsonw_string(w, g->id);
	jsonw_printf(w, ",\"table\":%" PRIu32 ",\"deal\":%" PRIu32 ",\"rotation\":%" PRIu32
		     ",\"seed\":%" PRIu64 ",\"players\":%d,\"partnership\":%s,\"teams\":",
		     g->table, g->deal, g->rotation, g->seed, n, o->partnership ? "true" : "false");
	write_teams(w, n, o->partnership);
	jsonw_printf(w, ",\"match\":%s,\"games\":%d,\"bots\":[", o->match ? "true" : "false",
		     o->games);
	for (int s = 0; s < n; s++) {
		if (s)
			jsonw_text(w, ",");
		jsonw_string(w, rg->bots[s]);
	}
	jsonw_text(w, "],\"winners\":");
	jsonw_int_array(w, o->winners, (size_t)o->nwinners);
	jsonw_text(w, ",\"reason\":");
	jsonw_string(w, o->reason ? end_reason_name(o->reason) : "none");
	jsonw_text(w, ",\"placings\":");
	jsonw_int_array(w, o->placings, (size_t)n);
	jsonw_text(w, ",\"stock_left\":");
	jsonw_int_array(w, o->stock_left, (size_t)n);
	jsonw_text(w, ",\"scores\":");
	jsonw_int_array(w, o->scores, (size_t)n);
	jsonw_printf(w, ",\"turns\":%" PRIu32 ",\"moves\":%" PRIu32 ",\"time\":[", o->turns,
		     o->moves);
	for (int s = 0; s < n; s++) {
		if (s)
			jsonw_text(w, ",");
		write_time(w, &o->time[s]);
	}
	jsonw_text(w, "],\"faults\":[");
	for (size_t i = 0; i < o->nfaults; i++) {
		const struct referee_fault *f = &o->faults[i];

		jsonw_printf(w, "%s{\"seat\":%d,\"bot\":", i ? "," : "", f->seat);
		jsonw_string(w, rg->bots[f->seat]);
		jsonw_text(w, ",\"kind\":");
		jsonw_string(w, f->kind);
		jsonw_printf(w, ",\"game\":%d,\"turn\":%" PRIu32 ",\"move\":%" PRIu32 ",\"reason\":",
			     f->game, f->turn, f->move);
		jsonw_string(w, f->reason);
		jsonw_text(w, ",\"line\":");
		jsonw_string(w, f->line);
		jsonw_text(w, "}");
	}
	jsonw_text(w, "]");
	if (rg->replay) {
		jsonw_text(w, ",\"replay\":");
		jsonw_string(w, rg->replay->file);
		jsonw_printf(w, ",\"replay_offset\":%" PRIu64 ",\"replay_line\":%" PRIu64,
			     rg->replay->offset, rg->replay->line);
	}
	jsonw_text(w, "}");
	return jsonw_error(w);
}
