/*
 * stream_text.h - for the arena's unit tests: all that the code under test
 * wrote to a stream, as one string. Include after cmocka.h.
 */
#ifndef ARENA_TEST_STREAM_TEXT_H
#define ARENA_TEST_STREAM_TEXT_H

#include <stdio.h>
#include <stdlib.h>

/* The whole of f (a seekable stream such as a tmpfile()), NUL-terminated;
 * the caller frees it. */
static inline char *stream_text(FILE *f)
{
	long n;
	char *text;

	fflush(f);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	return text;
}

#endif
