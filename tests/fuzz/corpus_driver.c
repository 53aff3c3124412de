/*
 * corpus_driver - runs every file of the given corpus directories (and
 * files) through LLVMFuzzerTestOneInput(), in name order, each in a buffer of
 * exactly its size so that a read past the end is caught by AddressSanitizer.
 *
 *   fuzz_<target> DIR|FILE...
 *
 * Exit status 0 when every input went through; 1 on an unreadable or empty
 * corpus. A failing input aborts the program (the target's FUZZ_CHECK or a
 * sanitizer), and its name is the last "input:" line on stderr.
 */
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *data;

	if (!f || fstat(fileno(f), &st) < 0) {
		warn("%s", path);
		if (f)
			fclose(f);
		return -1;
	}
	data = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
	if (!data || fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		warnx("%s: cannot read", path);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	fprintf(stderr, "input: %s\n", path);
	LLVMFuzzerTestOneInput(data, (size_t)st.st_size);
	free(data);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static long run_dir(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);
	long count = 0;

	if (n < 0) {
		warn("%s", dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(path) < 0)
				count = -1;
			else if (count >= 0)
				count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0;

	if (argc < 2)
		errx(2, "usage: %s DIR|FILE...", argv[0]);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		long n;

		if (stat(argv[i], &st) < 0)
			err(1, "%s", argv[i]);
		n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) < 0 ? -1 : 1;
		if (n < 0)
			return 1;
		total += n;
	}
	if (total == 0)
		errx(1, "no input files: a corpus must not be empty");
	printf("%ld inputs, no crash\n", total);
	return 0;
}
