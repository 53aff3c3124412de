/*
 * page_store.h - a large file that every sandbox sees, used by attack bots
 * as memory shared through the kernel's page cache: a page is "set" when
 * it is cached. A process sets a page by touching it; any process alive
 * then (or later, until the cache is dropped) can read whether it is set.
 *
 * The store is the largest file of at least 16 MiB under /usr that a fixed
 * list of patterns matches (a browser, JDK class images, LLVM, the
 * compiler): large, read by no arena and no bot, the same in every sandbox.
 * It is mapped read-only with MADV_RANDOM, so a first touch reads its one
 * page and no readahead.
 *
 * How a page is read, the mode:
 * - pagemap: fault-around. A fault maps, besides the page it needs, every
 *   page of its aligned 16-page window that is already cached, and
 *   /proc/self/pagemap tells which are mapped. So the first page of each
 *   window is never a data page: the reader unmaps the window, touches that
 *   page and reads the present bit of the one it asks about, which it
 *   leaves as it was.
 * - faults: touch the page; a major fault (getrusage) says it was not
 *   cached.
 * - timing: touch the page, timed; a disk read takes far longer than a
 *   minor fault (the threshold lies between both, measured by
 *   page_store_calibrate).
 * - reload: the CPU's cache, not the page cache (flush and reload): the
 *   store is mapped whole at the start (MAP_POPULATE), and a page's first
 *   line is loaded, timed in cycles; a line another process loaded lately
 *   comes from the cache shared by the cores, far sooner than one from
 *   memory. Every page is in the page cache alike here, so it reads what
 *   keeping every file cached (cache_pin.h) leaves.
 * - dentry: not a page but a name: looking up a name that does not exist in
 *   the store's directory leaves a negative dentry, which every process
 *   finds; a lookup that finds one is faster than one that reads the
 *   directory. Timed like timing. No page cache is involved, so keeping
 *   files cached (cache_pin.h) changes nothing here.
 * - dentry-own: dentry in the folder of the bot's own program instead, which
 *   partners whose programs lie in one folder both see (a folder of the
 *   host's disk, unless sealed copies it: system_copy.h).
 * Faults, timing, reload and dentry set the page they read: a page can be
 * read once.
 */
#ifndef SKIPBO_PAGE_STORE_H
#define SKIPBO_PAGE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A tournament file's "system" for sealed runs of the attacks: the libraries (and a store
 * among them), not all of /usr, whose gigabytes would take a minute to cache. */
#define PAGE_STORE_SEALED_SYSTEM \
	",\"system\":[\"/usr/lib/x86_64-linux-gnu\",\"/usr/lib64\",\"/etc\"]"

enum page_store_mode { PAGE_STORE_PAGEMAP, PAGE_STORE_FAULTS, PAGE_STORE_TIMING,
		       PAGE_STORE_RELOAD, PAGE_STORE_DENTRY, PAGE_STORE_DENTRY_OWN };

struct page_store {
	char path[512];
	char names[512];                    /* dentry modes: the folder of the names looked up */
	const volatile unsigned char *base; /* aligned to a window */
	size_t windows;
	int pagemap;                        /* /proc/self/pagemap in mode pagemap, else -1 */
	long threshold_ns;                  /* timing: slower is not cached (reload: in cycles); 0 until calibrated */
	enum page_store_mode mode;
};

/* The mode "faults", "timing", "reload", "dentry" or "dentry-own" names; pagemap for anything
 * else. */
enum page_store_mode page_store_mode_parse(const char *name);

/* "pagemap", "faults", "timing", "reload", "dentry" or "dentry-own". */
const char *page_store_mode_name(enum page_store_mode mode);

/*
 * Map the store into *s to be read in mode: 0, or -1 when there is no store
 * or it cannot be mapped (then *s holds no mapping and no descriptor). The
 * mapping and the pagemap descriptor last as long as the process.
 */
int page_store_open(struct page_store *s, enum page_store_mode mode);

/* The data page (never the first page of a window) that the hash h chooses. */
size_t page_store_page(const struct page_store *s, uint64_t h);

/* A 64-bit mixing function (splitmix64's finaliser), for the hashes of pages. */
uint64_t page_store_mix(uint64_t x);

/* A number no other process draws, for pages nobody else reads. */
uint64_t page_store_draw(void);

/* Touch page: set it. */
void page_store_touch(const struct page_store *s, size_t page);

/*
 * Timing: measure the cost of a disk read (the first page of a window drawn
 * at random, never a data page) and of a minor fault, and set the threshold
 * between them. Costs 5 disk reads. Reload: the same between a line loaded
 * from memory (flushed first) and from the cache.
 */
void page_store_calibrate(struct page_store *s);

/* Is s read by a time (timing, reload, dentry), so that it needs page_store_calibrate? */
bool page_store_timed(const struct page_store *s);

/* Was page set? In modes faults, timing, reload and dentry the question sets it. */
bool page_store_cached(const struct page_store *s, size_t page);

/*
 * Drop the store's pages from the cache (POSIX_FADV_DONTNEED, which works
 * outside the sandbox) and write its path into path: 0, or -1 when there is
 * no store.
 */
int page_store_evict(char *path, size_t size);

#endif
