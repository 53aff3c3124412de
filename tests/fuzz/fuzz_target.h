/*
 * fuzz_target.h - the one function every fuzz target defines. libFuzzer
 * calls it with inputs it makes up (-DSKIPBO_FUZZ=ON, clang); otherwise
 * corpus_driver.c calls it with every file of the target's checked-in corpus,
 * as a regression test of the normal sanitizer build.
 *
 * A target reads data[0..size-1] (not NUL-terminated, may be empty) with the
 * reader under test and abort()s when a property it checks does not hold;
 * sanitizer reports fail it too. It returns 0 and keeps no state from one
 * input to the next other than read-only fixtures.
 */
#ifndef SKIPBO_FUZZ_TARGET_H
#define SKIPBO_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Fails the input: says which property broke, then abort(). */
#define FUZZ_CHECK(cond)                                                               \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                \
			abort();                                                       \
		}                                                                      \
	} while (0)

#endif
