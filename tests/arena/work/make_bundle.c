/*
 * make_bundle.c - a bot's bundle made as a league's host makes it
 * (bundle_make), for test_work.py's fake host: make_bundle CACHE CWD PROGRAM
 * [ARG...] prints the bundle's SHA-256; the archive is CACHE/SHA256.tar.
 */
#include <stdio.h>

#include "bundle.h"

static const char *const system_dirs[] = { "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64",
	NULL };

int main(int argc, char **argv)
{
	struct config_bot b = { 0 };
	char sha[BUNDLE_HASH_LEN + 1], err[1024];
	char *env[] = { NULL };
	int ret;

	if (argc < 4) {
		fprintf(stderr, "usage: make_bundle CACHE CWD PROGRAM [ARG...]\n");
		return 2;
	}
	b.name = "bundled";
	b.cwd = argv[2];
	b.argv = argv + 3;
	b.env = env;
	if ((ret = bundle_make(&b, system_dirs, NULL, argv[1], sha, err, sizeof(err))) < 0) {
		fprintf(stderr, "make_bundle: %s\n", err);
		return 1;
	}
	if (ret == 1) {
		fprintf(stderr, "make_bundle: the bot runs only system files\n");
		return 1;
	}
	printf("%s\n", sha);
	return 0;
}
