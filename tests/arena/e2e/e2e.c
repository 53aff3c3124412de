/*
 * e2e.c - helpers for the end-to-end tests (contract in e2e.h).
 */
#include "e2e.h"
#include "replay_file.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void e2e_tempdir(char *out, size_t size, const char *tag)
{
	snprintf(out, size, "/tmp/arena-e2e-%s.XXXXXX", tag);
	if (!mkdtemp(out)) {
		perror("mkdtemp");
		abort();
	}
	/* As root the sandbox runs bots as other uids: they must reach the tournament's files. */
	if (chmod(out, 0755) < 0) {
		perror("chmod");
		abort();
	}
}

void e2e_remove(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

void e2e_write(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

pid_t e2e_start(const char *dir, const char *const *args)
{
	return e2e_start_as(dir, args, NULL);
}

pid_t e2e_start_as(const char *dir, const char *const *args, const struct passwd *user)
{
	char out[512], errpath[512];
	const char *argv[64];
	size_t n = 0;
	pid_t pid;

	argv[n++] = ARENA_PATH;
	for (size_t i = 0; args[i] && n < 63; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	snprintf(out, sizeof(out), "%s/stdout.txt", dir);
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", dir);
	pid = fork();
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
		int fe = open(errpath, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fo < 0 || fe < 0 || chdir(dir) < 0)
			_exit(126);
		dup2(fo, 1);
		dup2(fe, 2);
		if (user && (setgroups(0, NULL) < 0 || setgid(user->pw_gid) < 0 ||
			     setuid(user->pw_uid) < 0))
			_exit(125);
		execv(ARENA_PATH, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

int e2e_ordinary_user(const struct passwd **user)
{
	const char *name = getenv("SKIPBO_TEST_USER") ? getenv("SKIPBO_TEST_USER") : "nobody";
	const struct passwd *pw;
	pid_t pid;
	int status;

	if (geteuid() != 0) {
		printf("skipped: running as an ordinary user needs root to change user\n");
		return 77;
	}
	if (!(pw = getpwnam(name)) || pw->pw_uid == 0) {
		printf("skipped: no ordinary user \"%s\" on this machine (set SKIPBO_TEST_USER)\n",
		       name);
		return 77;
	}
	pid = fork();
	if (pid == 0)
		_exit(setgroups(0, NULL) == 0 && setgid(pw->pw_gid) == 0 &&
		      setuid(pw->pw_uid) == 0 && access(ARENA_PATH, X_OK) == 0 ? 0 : 1);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("skipped: user \"%s\" cannot run %s (a build directory other users cannot "
		       "enter)\n", name, ARENA_PATH);
		return 77;
	}
	*user = pw;
	return -1;
}

int e2e_wait(pid_t pid, int timeout_ms, double *seconds)
{
	double start = now_seconds();
	struct timespec pause = { 0, 2000000 };
	int status;

	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return -1;
		if ((now_seconds() - start) * 1000 > timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			if (seconds)
				*seconds = now_seconds() - start;
			return -1;
		}
		nanosleep(&pause, NULL);
	}
	if (seconds)
		*seconds = now_seconds() - start;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int e2e_run(const char *dir, const char *const *args, int timeout_ms, double *seconds)
{
	return e2e_wait(e2e_start(dir, args), timeout_ms, seconds);
}

char *e2e_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			text = realloc(text, cap);
			if (!text)
				abort();
		}
		got = fread(text + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	text[n] = '\0';
	if (len)
		*len = n;
	return text;
}

size_t e2e_records(const char *dir, cJSON ***out)
{
	char path[512], *text, *line, *save = NULL;
	size_t n = 0;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	if (!(text = e2e_read(path, NULL)))
		return 0;
	/* a torn last line (a writer killed mid-line) is not a record */
	if (strrchr(text, '\n'))
		strrchr(text, '\n')[1] = '\0';
	else
		text[0] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		*out = realloc(*out, (n + 1) * sizeof(**out));
		(*out)[n] = cJSON_Parse(line);
		if (!(*out)[n]) {
			fprintf(stderr, "not JSON in %s: %.80s\n", path, line);
			abort();
		}
		n++;
	}
	free(text);
	return n;
}

void e2e_free_records(cJSON **recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(recs[i]);
	free(recs);
}

char *e2e_canonical(const cJSON *rec)
{
	cJSON *copy = cJSON_Duplicate(rec, 1);
	char *text;

	cJSON_DeleteItemFromObject(copy, "time");
	if (cJSON_HasObjectItem(copy, "replay")) {
		cJSON_DeleteItemFromObject(copy, "replay_offset");
		cJSON_DeleteItemFromObject(copy, "replay_line");
		cJSON_ReplaceItemInObject(copy, "replay", cJSON_CreateTrue());
	}
	text = cJSON_PrintUnformatted(copy);
	cJSON_Delete(copy);
	return text;
}

char *e2e_replay(const char *dir, const cJSON *rec, size_t *len)
{
	const cJSON *file = cJSON_GetObjectItem(rec, "replay");
	const cJSON *offset = cJSON_GetObjectItem(rec, "replay_offset");
	const cJSON *line = cJSON_GetObjectItem(rec, "replay_line");
	char path[PATH_MAX];

	if (!cJSON_IsString(file))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, file->valuestring);
	/* a pack's document, or a file of its own (older tournaments) */
	if (!cJSON_IsNumber(offset) || !cJSON_IsNumber(line))
		return replay_read_file(path, len);
	return replay_read_at(path, (uint64_t)offset->valuedouble, (uint64_t)line->valuedouble, len);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **e2e_canonical_lines(const char *dir, size_t *n)
{
	cJSON **recs;
	char **lines;

	*n = e2e_records(dir, &recs);
	lines = calloc(*n + 1, sizeof(*lines));
	for (size_t i = 0; i < *n; i++)
		lines[i] = e2e_canonical(recs[i]);
	qsort(lines, *n, sizeof(*lines), compare_strings);
	e2e_free_records(recs, *n);
	return lines;
}

void e2e_free_lines(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

cJSON *e2e_read_json(const char *path)
{
	char *text = e2e_read(path, NULL);
	cJSON *root = text ? cJSON_Parse(text) : NULL;

	free(text);
	return root;
}
