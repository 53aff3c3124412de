/*
 * unpack_program.c - skipbo-unpack, the host's unpacker: one archive
 * unpacked (unpack.h) in a process of its own, under limits of its own, so
 * that a fault of a decompressor ends this process and not the host. The
 * pipeline runs it (pipeline.c); it is found next to skipbo-arena.
 *
 *   skipbo-unpack ARCHIVE DIR ARCHIVE_BYTES TOTAL_BYTES FILE_BYTES
 *
 * Prints unpack_archive()'s code on its first line and the reason on the
 * second; exits 0 when it could say so, 2 on wrong usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "unpack.h"

/* Far above what an accepted archive needs (unpack.h's limits stop it first). */
#define CPU_SECONDS 60
#define MEMORY_MB 1024

#ifdef SKIPBO_SANITIZED_BUILD
/* LeakSanitizer stops the world with ptrace at exit, which the sandbox refuses (its
 * fatal error would be this program's exit status): leaks are left to the unit tests. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif

static int limit(int resource, rlim_t value)
{
	struct rlimit r = { value, value };

	return setrlimit(resource, &r);
}

int main(int argc, char **argv)
{
	struct unpack_limits limits = UNPACK_LIMITS_DEFAULT;
	char why[1024] = "";
	int ret;

	if (argc != 6) {
		fprintf(stderr, "usage: skipbo-unpack ARCHIVE DIR ARCHIVE_BYTES TOTAL_BYTES "
			"FILE_BYTES\n");
		return 2;
	}
	limits.archive_bytes = strtoull(argv[3], NULL, 10);
	limits.total_bytes = strtoull(argv[4], NULL, 10);
	limits.file_bytes = strtoull(argv[5], NULL, 10);
	limit(RLIMIT_CPU, CPU_SECONDS);
	limit(RLIMIT_FSIZE, (rlim_t)limits.file_bytes + 1);
#ifndef SKIPBO_SANITIZED_BUILD
	/* (the sanitizers' shadow memory is terabytes of address space) */
	limit(RLIMIT_AS, (rlim_t)MEMORY_MB << 20);
#endif
	ret = unpack_archive(argv[1], argv[2], &limits, NULL, why, sizeof(why));
	printf("%d\n%s\n", ret, why);
	return fflush(stdout) == 0 ? 0 : 1;
}
