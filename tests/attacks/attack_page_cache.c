/*
 * attack_page_cache.c - remembers the cards rotation r0 of a deal showed in
 * the kernel's page cache, and predicts the hidden cards of rotation r1 from
 * it (attack_cards.h). Which pages of a file every sandbox sees are cached
 * outlasts the processes that read them, and so the barrier between
 * rotation phases, unless the arena drops the cache there.
 *
 * usage: attack_page_cache TOKEN pagemap|faults|timing|dentry|dentry-own
 *        attack_page_cache --evict
 *
 * The store (page_store.h) is a large file under /usr that every sandbox
 * sees; a page is "set" when cached.
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
 * How a page is read is the mode (page_store.h): fault-around and
 * /proc/self/pagemap, major faults, or the time a touch takes. Faults and
 * timing cache the page they read, so the reader reads as few as it can:
 * the presence page first (a position the writer never saw costs one
 * page), a card's second page only when its first is set, and no card
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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "attack_cards.h"
#include "page_store.h"

#define NOISE_PAGES 32
#define CARDS_VALUES 13 /* Skip-Bo and 1 .. 12 */
/* a card's pages have the tags 2 * card and 2 * card + 1 */
#define TAG_PRESENCE 0x80
#define TAG_MARKER 0x100

static struct page_store store;
static uint64_t salt;
static bool opened;
static int key;     /* the game's deal, -1 until its first request */
static bool reader; /* the game is a later rotation of its deal */

/* The store page of (k, pos, tag). */
static size_t store_page(int k, int pos, int tag)
{
	return page_store_page(&store, page_store_mix(salt ^ page_store_mix((uint64_t)k << 32 |
		(uint64_t)pos << 16 | (uint64_t)tag)));
}

static bool cached(size_t page)
{
	return page_store_cached(&store, page);
}

static void touch(size_t page)
{
	page_store_touch(&store, page);
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
	salt = 14695981039346656037u; /* FNV-1a of the token and the mode */
	for (const char *s = argc > 1 ? argv[1] : ""; *s; s++)
		salt = (salt ^ (unsigned char)*s) * 1099511628211u;
	for (const char *s = m; *s; s++)
		salt = (salt ^ (unsigned char)*s) * 1099511628211u;
	/* without a store (base NULL) the bot only plays */
	page_store_open(&store, page_store_mode_parse(m));
}

static void first_request(const struct cards_game *g)
{
	int noise = 0;

	if (!store.base)
		return;
	key = cards_deal_key(g);
	if (page_store_timed(&store) && store.threshold_ns == 0)
		page_store_calibrate(&store);
	reader = cached(store_page(key, 0, TAG_MARKER)) && cached(store_page(key, 1, TAG_MARKER));
	for (int i = 0; i < NOISE_PAGES; i++)
		noise += cached(page_store_page(&store, page_store_draw()));
	fprintf(stderr, "PAGE-CACHE %s %s %s noise %d/%d threshold %ld\n",
		page_store_mode_name(store.mode), store.path, reader ? "reader" : "writer", noise,
		NOISE_PAGES, store.threshold_ns);
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

/* Drop the store's pages from the cache and name it: 0, or 1 if there is no store. */
static int evict(void)
{
	char path[512];

	if (page_store_evict(path, sizeof(path)) < 0)
		return 1;
	printf("%s\n", path);
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
