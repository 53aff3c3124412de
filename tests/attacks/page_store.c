/*
 * page_store.c - a large file's pages as memory shared through the page
 * cache (contract in page_store.h).
 */
#include "page_store.h"

#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define PAGE 4096
#define WINDOW 16 /* pages: the kernel's fault_around_bytes, 64 KiB by default */
#define STORE_MIN (16L << 20)
#define CALIBRATION 5

/* a browser, JDK class images, LLVM, the compiler: large, and read by no arena */
static const char *const store_patterns[] = {
	"/usr/lib/chromium/chromium",
	"/usr/lib/jvm/*/lib/modules",
	"/usr/lib/*/libLLVM*.so*",
	"/usr/lib/gcc/*/*/cc1plus",
	"/usr/lib/gcc/*/*/cc1",
};

enum page_store_mode page_store_mode_parse(const char *name)
{
	return strcmp(name, "faults") == 0 ? PAGE_STORE_FAULTS :
	       strcmp(name, "timing") == 0 ? PAGE_STORE_TIMING :
	       strcmp(name, "reload") == 0 ? PAGE_STORE_RELOAD :
	       strcmp(name, "dentry") == 0 ? PAGE_STORE_DENTRY :
	       strcmp(name, "dentry-own") == 0 ? PAGE_STORE_DENTRY_OWN : PAGE_STORE_PAGEMAP;
}

const char *page_store_mode_name(enum page_store_mode mode)
{
	return mode == PAGE_STORE_FAULTS ? "faults" : mode == PAGE_STORE_TIMING ? "timing" :
	       mode == PAGE_STORE_RELOAD ? "reload" : mode == PAGE_STORE_DENTRY ? "dentry" :
	       mode == PAGE_STORE_DENTRY_OWN ? "dentry-own" : "pagemap";
}

/* The store's file into path: 0, or -1 when none is there. */
static int store_find(char *path, size_t size)
{
	off_t best = STORE_MIN - 1;

	path[0] = '\0';
	for (size_t i = 0; i < sizeof(store_patterns) / sizeof(store_patterns[0]); i++) {
		glob_t found;

		if (glob(store_patterns[i], 0, NULL, &found) != 0)
			continue;
		for (size_t k = 0; k < found.gl_pathc; k++) {
			struct stat st;

			if (stat(found.gl_pathv[k], &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_size > best) {
				best = st.st_size;
				snprintf(path, size, "%s", found.gl_pathv[k]);
			}
		}
		globfree(&found);
	}
	return path[0] ? 0 : -1;
}

/* Map the store so that its windows are the kernel's fault-around windows. */
int page_store_open(struct page_store *s, enum page_store_mode mode)
{
	size_t len, span = WINDOW * PAGE;
	struct stat st;
	int fd;
	unsigned char *room;
	char *slash;
	ssize_t n;
	void *at;

	memset(s, 0, sizeof(*s));
	s->pagemap = -1;
	s->mode = mode;
	if (store_find(s->path, sizeof(s->path)) < 0 ||
	    (fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (len = (size_t)st.st_size / span * span) == 0) {
		close(fd);
		return -1;
	}
	/* fault-around aligns its window by the virtual address: reserve, then map aligned */
	room = mmap(NULL, len + span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	at = MAP_FAILED;
	if (room != MAP_FAILED)
		at = mmap(room + (span - (uintptr_t)room % span) % span, len, PROT_READ,
			  MAP_SHARED | MAP_FIXED | (mode == PAGE_STORE_RELOAD ? MAP_POPULATE : 0),
			  fd, 0);
	close(fd);
	if (at == MAP_FAILED || madvise(at, len, MADV_RANDOM) < 0 ||
	    (mode == PAGE_STORE_PAGEMAP &&
	     (s->pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) < 0)) {
		if (room != MAP_FAILED)
			munmap(room, len + span);
		return -1;
	}
	s->base = at;
	s->windows = len / span;
	/* the folder of the store, or of the program: /proc/self/exe less its name */
	if (mode != PAGE_STORE_DENTRY_OWN)
		snprintf(s->names, sizeof(s->names), "%s", s->path);
	else if ((n = readlink("/proc/self/exe", s->names, sizeof(s->names) - 1)) > 0)
		s->names[n] = '\0';
	if ((slash = strrchr(s->names, '/')))
		*slash = '\0';
	return 0;
}

uint64_t page_store_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9u;
	x = (x ^ x >> 27) * 0x94d049bb133111ebu;
	return x ^ x >> 31;
}

size_t page_store_page(const struct page_store *s, uint64_t h)
{
	size_t slot = (size_t)(h % (s->windows * (WINDOW - 1)));

	return slot / (WINDOW - 1) * WINDOW + 1 + slot % (WINDOW - 1);
}

uint64_t page_store_draw(void)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = page_store_mix((uint64_t)getpid() << 32 ^ (uint64_t)clock());
	return r;
}

static bool is_dentry(const struct page_store *s)
{
	return s->mode == PAGE_STORE_DENTRY || s->mode == PAGE_STORE_DENTRY_OWN;
}

/* The name that stands for page in the dentry modes: in s->names, never a file. */
static void dentry_name(const struct page_store *s, size_t page, char *name, size_t size)
{
	snprintf(name, size, "%s/.skipbo-%zx", s->names, page);
}

/* Nanoseconds a lookup of page's name takes (it leaves a negative dentry). */
static long lookup_ns(const struct page_store *s, size_t page)
{
	struct timespec a, b;
	struct stat st;
	char name[600];

	dentry_name(s, page, name, sizeof(name));
	clock_gettime(CLOCK_MONOTONIC, &a);
	(void)stat(name, &st);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
}

void page_store_touch(const struct page_store *s, size_t page)
{
	if (is_dentry(s))
		(void)lookup_ns(s, page);
	else
		(void)s->base[page * PAGE];
}

#if defined(__x86_64__)
/* Cycles a load of page's first line takes: a few dozen from the CPU's cache, hundreds from
 * memory. */
static long load_cycles(const struct page_store *s, size_t page)
{
	unsigned aux;
	uint64_t a, b;

	_mm_mfence();
	a = __rdtscp(&aux);
	(void)s->base[page * PAGE];
	b = __rdtscp(&aux);
	_mm_lfence();
	return (long)(b - a);
}

static void flush_line(const struct page_store *s, size_t page)
{
	_mm_clflush((const void *)(s->base + page * PAGE));
	_mm_mfence();
}
#else
static long load_cycles(const struct page_store *s, size_t page)
{
	(void)s->base[page * PAGE];
	return 0;
}

static void flush_line(const struct page_store *s, size_t page)
{
	(void)s;
	(void)page;
}
#endif

static long touch_ns(const struct page_store *s, size_t page)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	page_store_touch(s, page);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
}

/* Unmap page's window from this process (the cache keeps it), so that a touch faults again. */
static void unmap_window(const struct page_store *s, size_t page)
{
	madvise((void *)(s->base + page / WINDOW * WINDOW * PAGE), WINDOW * PAGE, MADV_DONTNEED);
}

static long median(long *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
			long t = v[k];

			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return v[n / 2];
}

/*
 * A first touch of the first page of a window drawn at random is a disk
 * read (no data page is a first page); the same page touched again once
 * unmapped is a minor fault. The threshold is the geometric mean of their
 * medians, within 1/16, and at least 4 minor faults.
 */
void page_store_calibrate(struct page_store *s)
{
	long cold[CALIBRATION], warm[CALIBRATION], c, w, t;

	if (is_dentry(s)) {
		/* a name nobody looked up, then the same name again */
		for (int i = 0; i < CALIBRATION; i++) {
			size_t page = (size_t)page_store_draw();

			cold[i] = lookup_ns(s, page);
			warm[i] = lookup_ns(s, page);
		}
		s->threshold_ns = (median(cold, CALIBRATION) + median(warm, CALIBRATION)) / 2;
		return;
	}
	if (s->mode == PAGE_STORE_RELOAD) {
		/* a line out of the CPU's caches, then the same line again */
		for (int i = 0; i < CALIBRATION; i++) {
			size_t page = page_store_draw() % s->windows * WINDOW;

			flush_line(s, page);
			cold[i] = load_cycles(s, page);
			warm[i] = load_cycles(s, page);
		}
		s->threshold_ns = (median(cold, CALIBRATION) + median(warm, CALIBRATION)) / 2;
		return;
	}

	for (int i = 0; i < CALIBRATION; i++) {
		size_t page = page_store_draw() % s->windows * WINDOW;

		cold[i] = touch_ns(s, page);
		unmap_window(s, page);
		warm[i] = touch_ns(s, page);
	}
	w = median(warm, CALIBRATION);
	c = median(cold, CALIBRATION);
	for (t = 4 * w; t * t < c * w; t += t / 16 + 1)
		;
	s->threshold_ns = t;
}

bool page_store_timed(const struct page_store *s)
{
	return s->mode == PAGE_STORE_TIMING || s->mode == PAGE_STORE_RELOAD ||
	       is_dentry(s);
}

bool page_store_cached(const struct page_store *s, size_t page)
{
	struct rusage before, after;
	uint64_t entry = 0;
	uintptr_t address = (uintptr_t)(s->base + page * PAGE);

	switch (s->mode) {
	case PAGE_STORE_PAGEMAP:
		unmap_window(s, page);
		page_store_touch(s, page / WINDOW * WINDOW);
		return pread(s->pagemap, &entry, sizeof(entry),
			     (off_t)(address / PAGE * sizeof(entry))) == sizeof(entry) &&
		       entry >> 63;
	case PAGE_STORE_FAULTS:
		getrusage(RUSAGE_THREAD, &before);
		page_store_touch(s, page);
		getrusage(RUSAGE_THREAD, &after);
		return after.ru_majflt == before.ru_majflt;
	case PAGE_STORE_TIMING:
		return touch_ns(s, page) < s->threshold_ns;
	case PAGE_STORE_RELOAD:
		return load_cycles(s, page) < s->threshold_ns;
	case PAGE_STORE_DENTRY:
	case PAGE_STORE_DENTRY_OWN:
		return lookup_ns(s, page) < s->threshold_ns;
	}
	return false;
}

int page_store_evict(char *path, size_t size)
{
	int fd;

	if (store_find(path, size) < 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 0;
}
