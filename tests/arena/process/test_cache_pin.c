/*
 * test_cache_pin.c - every file the bots see kept cached (arena/process/
 * cache_pin.h): the files of the roots are pinned, those under a skipped
 * path and empty ones are not, links are not followed; a pinned page stays
 * cached when evicted (POSIX_FADV_DONTNEED), and can be evicted again once
 * the pinners stop; more than half the machine's memory is refused.
 *
 * Whether a page is cached is asked with mincore() on a mapping of the
 * test's own, which tells a file's owner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_pin.h"

#define PAGE 4096

/* on the build's disk: tmpfs, which keeps every page, would prove nothing */
static char root[] = TEST_DIR "/pin.XXXXXX";

static void write_pages(const char *name, size_t pages)
{
	char path[PATH_MAX], block[PAGE];
	int fd;

	snprintf(path, sizeof path, "%s/%s", root, name);
	memset(block, 'x', sizeof block);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		abort();
	for (size_t i = 0; i < pages; i++)
		if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
			abort();
	/* clean pages, which an eviction may drop */
	if (fsync(fd) < 0 || close(fd) < 0)
		abort();
}

/* Evict name's pages (they stay if someone maps them), then: is its first page cached? */
static bool cached_after_evict(const char *name)
{
	char path[PATH_MAX];
	unsigned char in = 0;
	void *m;
	int fd;

	snprintf(path, sizeof path, "%s/%s", root, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		abort();
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED || mincore(m, PAGE, &in) < 0)
		abort();
	munmap(m, PAGE);
	return in & 1;
}

static void make_tree(void)
{
	char path[PATH_MAX];

	if (!mkdtemp(root))
		abort();
	snprintf(path, sizeof path, "%s/sub", root);
	if (mkdir(path, 0755) < 0)
		abort();
	snprintf(path, sizeof path, "%s/hidden", root);
	if (mkdir(path, 0755) < 0)
		abort();
	write_pages("a.bin", 3);
	write_pages("sub/b.bin", 1);
	write_pages("hidden/c.bin", 2);
	write_pages("empty", 0);
	snprintf(path, sizeof path, "%s/link", root);
	if (symlink("/etc/hostname", path) < 0)
		abort();
}

static void test_pins_what_bots_see(void **state)
{
	struct strlist roots = { 0 }, skip = { 0 };
	struct cache_pin *p = NULL;
	char hidden[PATH_MAX], why[512];

	(void)state;
	snprintf(hidden, sizeof hidden, "%s/hidden", root);
	strlist_add(&roots, root);
	strlist_add(&roots, "/nonexistent-skipbo-root");
	strlist_add(&skip, hidden);
	assert_int_equal(cache_pin_start(&roots, &skip, &p, why, sizeof why), 0);
	assert_non_null(p);
	/* a.bin and sub/b.bin: not the hidden one, the empty one nor the link's target */
	assert_int_equal(cache_pin_stats(p)->files, 2);
	assert_int_equal(cache_pin_stats(p)->bytes, 4 * PAGE);
	assert_int_equal(cache_pin_stats(p)->pinners, 1);
	assert_true(cached_after_evict("a.bin"));
	assert_true(cached_after_evict("sub/b.bin"));
	assert_false(cached_after_evict("hidden/c.bin"));
	cache_pin_stop(p);
	/* the pages stay cached, but nothing holds them any more */
	assert_false(cached_after_evict("a.bin"));
	strlist_free(&roots);
	strlist_free(&skip);
}

static void test_too_much_refused(void **state)
{
	uint64_t memory = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	struct strlist roots = { 0 };
	struct cache_pin *p = NULL;
	char path[PATH_MAX], why[512];
	int fd;

	(void)state;
	/* a sparse file the size of the whole memory: planned, never read */
	snprintf(path, sizeof path, "%s/hidden/huge", root);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0 ||
	    ftruncate(fd, (off_t)memory) < 0 || close(fd) < 0)
		skip();
	strlist_add(&roots, root);
	assert_int_equal(cache_pin_start(&roots, NULL, &p, why, sizeof why), -E2BIG);
	assert_null(p);
	assert_non_null(strstr(why, "more than half of this machine's"));
	unlink(path);
	strlist_free(&roots);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pins_what_bots_see),
		cmocka_unit_test(test_too_much_refused),
	};
	char cmd[PATH_MAX];
	int failed;

	make_tree();
	failed = cmocka_run_group_tests_name("cache_pin", tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return failed;
}
