/*
 * options.h - command-line value parsing shared by the subcommands. Each
 * prints a warnx(3)-style message naming the option and what was expected,
 * and returns -1 on bad input (0 on success).
 */
#ifndef SKIPBO_OPTIONS_H
#define SKIPBO_OPTIONS_H

#include <stddef.h>

/* A decimal integer in [min, max]. */
int options_number(const char *option, const char *arg, long long min, long long max,
		   long long *out);

/* A 64-bit seed: decimal, or 0x-prefixed hexadecimal. */
int options_seed(const char *option, const char *arg, unsigned long long *out);

/* Split a command string on spaces and tabs (no quoting, no shell) into a
 * NULL-terminated argv owned by the caller (free each and the array). NULL
 * if the string is empty or without memory. */
char **options_split(const char *command);
void options_free_argv(char **argv);

#endif
