/*
 * options.c - command-line value parsing (contract in options.h).
 */
#include "options.h"

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int options_number(const char *option, const char *arg, long long min, long long max,
		   long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(arg, &end, 10);
	if (!*arg || *end || errno || *out < min || *out > max) {
		warnx("%s: expected an integer from %lld to %lld, got \"%s\"", option, min, max,
		      arg);
		return -1;
	}
	return 0;
}

int options_seed(const char *option, const char *arg, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (!*arg || *arg == '-' || *end || errno) {
		warnx("%s: expected an unsigned 64-bit integer, got \"%s\"", option, arg);
		return -1;
	}
	return 0;
}

char **options_split(const char *command)
{
	char **argv = NULL, *copy = strdup(command), *word, *save = NULL;
	size_t n = 0;

	if (!copy)
		return NULL;
	for (word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		char **grown = reallocarray(argv, n + 2, sizeof(*argv));

		if (!grown || !(grown[n] = strdup(word))) {
			argv = grown ? grown : argv;
			if (argv)
				argv[n] = NULL;
			options_free_argv(argv);
			argv = NULL;
			goto out;
		}
		argv = grown;
		argv[++n] = NULL;
	}
out:
	free(copy);
	return argv;
}

void options_free_argv(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}
