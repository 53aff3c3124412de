/*
 * rating_fixture.h - what the rating tests share: one scratch directory per
 * test program, and the games.jsonl files written into it.
 */
#ifndef RATING_FIXTURE_H
#define RATING_FIXTURE_H

#include <stdio.h>

/* The scratch directory, /tmp/<program name>.XXXXXX, once made. */
extern char fixture_dir[64];

/*
 * cmocka group setup and teardown: make fixture_dir, and remove it with all
 * that the tests wrote into it. 0 on success, -1 otherwise.
 */
int fixture_dir_make(void **state);
int fixture_dir_remove(void **state);

/* Write text to fixture_dir/name, failing the test on any error. */
void fixture_write_file(const char *name, const char *text);

/* Make directory dir (it must not exist) and open dir/games.jsonl for
 * writing; fails the test on any error. The caller closes the stream. */
FILE *fixture_games_create(const char *dir);

#endif
