/*
 * e2e.h - helpers for the end-to-end tests: temporary directories, running
 * the built skipbo-arena with a wall-time bound, and reading games.jsonl.
 */
#ifndef SKIPBO_TEST_E2E_H
#define SKIPBO_TEST_E2E_H

#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

/* A fresh directory under /tmp (removed by e2e_remove). */
void e2e_tempdir(char *out, size_t size, const char *tag);
void e2e_remove(const char *dir);

/* Write text to dir/name. */
void e2e_write(const char *dir, const char *name, const char *text);

struct passwd;

/* Start skipbo-arena with args (NULL-terminated, without the program) in
 * dir, stdout and stderr to dir/stdout.txt and dir/stderr.txt. */
pid_t e2e_start(const char *dir, const char *const *args);

/* The same with the arena running as user (NULL: as the caller), which needs
 * root; a child that cannot change user exits 125. */
pid_t e2e_start_as(const char *dir, const char *const *args, const struct passwd *user);

/*
 * The ordinary user of a test's --user mode: the one SKIPBO_TEST_USER names,
 * else nobody, into *user. Returns -1 when there is one and it can run the
 * built arena; otherwise prints why not and returns 77, the exit status that
 * ctest counts as skipped (the caller must be root to change user).
 */
int e2e_ordinary_user(const struct passwd **user);

/* Wait for pid; kill it and return -1 if it runs past timeout_ms. Otherwise
 * its exit status (128 + signal if killed by one). *seconds: wall time. */
int e2e_wait(pid_t pid, int timeout_ms, double *seconds);

/* Start and wait. */
int e2e_run(const char *dir, const char *const *args, int timeout_ms, double *seconds);

/* The complete records of dir/games.jsonl; the caller frees with e2e_free_records. */
size_t e2e_records(const char *dir, cJSON ***out);
void e2e_free_records(cJSON **recs, size_t n);

/* The record as one line without its timings ("time") and with "replay" true
 * for where its replay is (which pack, and where in it, depends on which worker
 * played the game when), malloc'ed. */
char *e2e_canonical(const cJSON *rec);

/* Sorted canonical lines of dir/games.jsonl; n is set. Free with e2e_free_lines. */
char **e2e_canonical_lines(const char *dir, size_t *n);
void e2e_free_lines(char **lines, size_t n);

/* The replay document of record rec of dir/games.jsonl, read where the record
 * locates it (malloc'ed, NUL-terminated); NULL when it has none or it cannot be
 * read. */
char *e2e_replay(const char *dir, const cJSON *rec, size_t *len);

/* Contents of a small file (malloc'ed, NUL-terminated) or NULL. */
char *e2e_read(const char *path, size_t *len);

/* The JSON document in the file at path (free with cJSON_Delete), or NULL when it cannot be
 * read or is not JSON. */
cJSON *e2e_read_json(const char *path);

#endif
