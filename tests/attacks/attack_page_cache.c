/*
 * attack_page_cache.c - remembers the cards rotation r0 of a deal showed in
 * the kernel's page cache, and predicts the hidden cards of rotation r1 from
 * it (attack_cards.h). Which pages of a file every sandbox sees are cached
 * outlasts the processes that read them, and so the barrier between
 * rotation phases, unless the arena drops the cache there.
 *
 * usage: attack_page_cache TOKEN pagemap|faults|timing
 *        attack_page_cache --evict
 *
 * The store is a large file under /usr that no bot and no arena reads: the
 * largest file of at least STORE_MIN bytes that the patterns below match,
 * the same in every sandbox. It is mapped read-only with MADV_RANDOM, so a
 * first touch reads its one page and no readahead. A page is "set" when
 * cached.
 *
 * A fact "in the deal with key K (cards_deal_key), deck position P holds
 * card C" sets 3 pages, each at a hash of the token, the mode, K, P and a
 * tag: a presence page of (K, P), and 2 pages of (K, P, C), both set so that
 * one page set by another fact or other activity does not make a card. A
 * deal's marker is 2 pages of K. At its first request a process reads the
 * marker: clear, it is the deal's first rotation (the writer), sets the
 * marker and sets a fact for every card it is shown; set, it is a later
 * rotation (the reader). Before each hidden card is shown the reader reads
 * the presence page, then the cards' pages, the cards with the most copies
 * not yet shown first, and names the first card whose 2 pages are set.
 *
 * How a page is read, the mode:
 * - pagemap: fault-around. A fault maps, besides the page it needs, every
 *   page of its aligned 16-page window that is already cached, and
 *   /proc/self/pagemap tells which are mapped. So the first page of each
 *   window is never a store page: the bot unmaps the window, touches that
 *   page and reads the present bits of the others, which it leaves as they
 *   were.
 * - faults: touch the page; a major fault (getrusage) says it was not
 *   cached.
 * - timing: touch the page, timed; a disk read takes far longer than a
 *   minor fault (the threshold lies between both, measured at start).
 * Faults and timing cache the page they read, so the reader reads as few as
 * it can: the presence page first (a position the writer never saw costs
 * one page), a card's second page only when its first is set, and no card
 * after the one it names.
 *
 * At its first request the bot logs its store, role, the noise (the set
 * pages among NOISE_PAGES it reads at random) and its timing threshold (0
 * in the other modes):
 *
 *   PAGE-CACHE <mode> <store> <writer|reader> noise <set>/<read> threshold <ns>
 *
 * --evict drops the store's pages from the cache (POSIX_FADV_DONTNEED, which
 * works outside the sandbox): the test starts each run from a store nobody
 * has marked, as on a machine where no tournament was played.
 */
#include <fcntl.h>
#include <glob.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "attack_cards.h"

#define PAGE 4096
#define WINDOW 16 /* pages: the kernel's fault_around_bytes, 64 KiB by default */
#define STORE_MIN (16L << 20)
#define NOISE_PAGES 32
#define CALIBRATION 5
#define CARDS_VALUES 13 /* Skip-Bo and 1 .. 12 */
/* a card's pages have the tags 2 * card and 2 * card + 1 */
#define TAG_PRESENCE 0x80
#define TAG_MARKER 0x100

enum mode { PAGEMAP, FAULTS, TIMING };

/* a browser, JDK class images, LLVM, the compiler: large, and read by no arena */
static const char *const store_patterns[] = {
	"/usr/lib/chromium/chromium",
	"/usr/lib/jvm/*/lib/modules",
	"/usr/lib/*/libLLVM*.so*",
	"/usr/lib/gcc/*/*/cc1plus",
	"/usr/lib/gcc/*/*/cc1",
};

static struct {
	char path[512];
	const volatile unsigned char *base; /* aligned to a window */
	size_t windows;
	int pagemap;
	long threshold_ns; /* timing: slower is not cached */
} store;

static enum mode mode;
static uint64_t salt;
static bool opened;
static int key;     /* the game's deal, -1 until its first request */
static bool reader; /* the game is a later rotation of its deal */

/* The store's file: 0, or -1 when none is there. */
static int store_find(void)
{
	off_t best = STORE_MIN - 1;

	for (size_t i = 0; i < sizeof(store_patterns) / sizeof(store_patterns[0]); i++) {
		glob_t found;

		if (glob(store_patterns[i], 0, NULL, &found) != 0)
			continue;
		for (size_t k = 0; k < found.gl_pathc; k++) {
			struct stat st;

			if (stat(found.gl_pathv[k], &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_size > best) {
				best = st.st_size;
				snprintf(store.path, sizeof(store.path), "%s", found.gl_pathv[k]);
			}
		}
		globfree(&found);
	}
	return store.path[0] ? 0 : -1;
}

/* Map the store so that its windows are the kernel's fault-around windows. */
static int store_open(void)
{
	size_t len, span = WINDOW * PAGE;
	struct stat st;
	int fd;
	unsigned char *room;
	void *at;

	if (store_find() < 0 || (fd = open(store.path, O_RDONLY | O_CLOEXEC)) < 0)
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
			  MAP_SHARED | MAP_FIXED, fd, 0);
	close(fd);
	if (at == MAP_FAILED || madvise(at, len, MADV_RANDOM) < 0)
		return -1;
	store.base = at;
	store.windows = len / span;
	if (mode == PAGEMAP && (store.pagemap = open("/proc/self/pagemap", O_RDONLY)) < 0)
		return -1;
	return 0;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9u;
	x = (x ^ x >> 27) * 0x94d049bb133111ebu;
	return x ^ x >> 31;
}

/* The store page h chooses: never the first page of a window. */
static size_t data_page(uint64_t h)
{
	size_t slot = (size_t)(h % (store.windows * (WINDOW - 1)));

	return slot / (WINDOW - 1) * WINDOW + 1 + slot % (WINDOW - 1);
}

/* The store page of (k, pos, tag). */
static size_t store_page(int k, int pos, int tag)
{
	return data_page(mix(salt ^ mix((uint64_t)k << 32 | (uint64_t)pos << 16 | (uint64_t)tag)));
}

/* A number no other process draws, for pages nobody else reads. */
static uint64_t draw(void)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = mix((uint64_t)getpid() << 32 ^ (uint64_t)clock());
	return r;
}

static void touch(size_t page)
{
	(void)store.base[page * PAGE];
}

static long touch_ns(size_t page)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	touch(page);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
}

/* Unmap page's window from this process (the cache keeps it), so that a touch faults again. */
static void unmap_window(size_t page)
{
	madvise((void *)(store.base + page / WINDOW * WINDOW * PAGE), WINDOW * PAGE,
		MADV_DONTNEED);
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
 * Timing: a first touch of the first page of a window drawn at random is a
 * disk read (no store page is a first page); the same page touched again
 * once unmapped is a minor fault. The threshold is the geometric mean of
 * their medians, within 1/16, and at least 4 minor faults.
 */
static void calibrate(void)
{
	long cold[CALIBRATION], warm[CALIBRATION], c, w, t;

	for (int i = 0; i < CALIBRATION; i++) {
		size_t page = draw() % store.windows * WINDOW;

		cold[i] = touch_ns(page);
		unmap_window(page);
		warm[i] = touch_ns(page);
	}
	w = median(warm, CALIBRATION);
	c = median(cold, CALIBRATION);
	for (t = 4 * w; t * t < c * w; t += t / 16 + 1)
		;
	store.threshold_ns = t;
}

/* Was the page cached? Faults and timing cache it by asking. */
static bool cached(size_t page)
{
	struct rusage before, after;
	uint64_t entry = 0;
	uintptr_t address = (uintptr_t)(store.base + page * PAGE);

	switch (mode) {
	case PAGEMAP:
		unmap_window(page);
		touch(page / WINDOW * WINDOW);
		return pread(store.pagemap, &entry, sizeof(entry),
			     (off_t)(address / PAGE * sizeof(entry))) == sizeof(entry) &&
		       entry >> 63;
	case FAULTS:
		getrusage(RUSAGE_THREAD, &before);
		touch(page);
		getrusage(RUSAGE_THREAD, &after);
		return after.ru_majflt == before.ru_majflt;
	case TIMING:
		return touch_ns(page) < store.threshold_ns;
	}
	return false;
}

static void set_fact(int pos, int card)
{
	touch(store_page(key, pos, TAG_PRESENCE));
	touch(store_page(key, pos, 2 * card));
	touch(store_page(key, pos, 2 * card + 1));
}

static void game_start(const struct cards_game *g, int argc, char **argv)
{
	const char *m = argc > 2 ? argv[2] : "";

	(void)g;
	key = -1;
	reader = false;
	if (opened)
		return;
	opened = true;
	mode = strcmp(m, "faults") == 0 ? FAULTS : strcmp(m, "timing") == 0 ? TIMING : PAGEMAP;
	salt = 14695981039346656037u; /* FNV-1a of the token and the mode */
	for (const char *s = argc > 1 ? argv[1] : ""; *s; s++)
		salt = (salt ^ (unsigned char)*s) * 1099511628211u;
	for (const char *s = m; *s; s++)
		salt = (salt ^ (unsigned char)*s) * 1099511628211u;
	if (store_open() < 0)
		store.base = NULL;
}

static void first_request(const struct cards_game *g)
{
	int noise = 0;

	if (!store.base)
		return;
	key = cards_deal_key(g);
	if (mode == TIMING && store.threshold_ns == 0)
		calibrate();
	reader = cached(store_page(key, 0, TAG_MARKER)) && cached(store_page(key, 1, TAG_MARKER));
	for (int i = 0; i < NOISE_PAGES; i++)
		noise += cached(data_page(draw()));
	fprintf(stderr, "PAGE-CACHE %s %s %s noise %d/%d threshold %ld\n",
		mode == PAGEMAP ? "pagemap" : mode == FAULTS ? "faults" : "timing", store.path,
		reader ? "reader" : "writer", noise, NOISE_PAGES, store.threshold_ns);
	if (reader)
		return;
	touch(store_page(key, 0, TAG_MARKER));
	touch(store_page(key, 1, TAG_MARKER));
	for (int pos = 0; pos < CARDS_DECK; pos++)
		if (g->shown[pos] >= 0)
			set_fact(pos, g->shown[pos]);
}

static int predict(const struct cards_game *g, int pos)
{
	int left[CARDS_VALUES];

	if (!reader || !cached(store_page(key, pos, TAG_PRESENCE)))
		return CARDS_UNKNOWN;
	for (int card = 0; card < CARDS_VALUES; card++)
		left[card] = card == CARDS_SKIPBO ? 18 : 12;
	for (int p = 0; p < CARDS_DECK; p++)
		if (g->shown[p] >= 0 && g->shown[p] < CARDS_VALUES)
			left[g->shown[p]]--;
	for (int copies = 18; copies > 0; copies--)
		for (int card = 0; card < CARDS_VALUES; card++)
			if (left[card] == copies && cached(store_page(key, pos, 2 * card)) &&
			    cached(store_page(key, pos, 2 * card + 1)))
				return card;
	return CARDS_UNKNOWN;
}

static void shown(const struct cards_game *g, int pos, int card)
{
	(void)g;
	if (key >= 0 && !reader)
		set_fact(pos, card);
}

/* Drop the store's pages from the cache: 0, or 1 if there is no store. */
static int evict(void)
{
	int fd;

	if (store_find() < 0 || (fd = open(store.path, O_RDONLY | O_CLOEXEC)) < 0)
		return 1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	printf("%s\n", store.path);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct cards_attack a = { "page-cache", game_start, first_request, predict,
		shown, NULL };

	if (argc > 1 && strcmp(argv[1], "--evict") == 0)
		return evict();
	return cards_main(&a, argc, argv);
}
