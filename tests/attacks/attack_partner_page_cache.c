/*
 * attack_partner_page_cache - partners who read each other's hand (R10:
 * they have no channel) through the page cache. Both partners are alive for
 * the whole game, each in a sandbox of its own, and both see the same large
 * file under /usr (page_store.h): a page one touches is cached, and the
 * other can tell. The arena drops the cache only at the barriers between
 * rotation phases, never within a game.
 *
 * usage: attack_partner_page_cache TOKEN pagemap|faults|timing|reload|dentry|dentry-own
 *
 * A fact of a game is set as 2 pages of the store, each at a hash of the
 * token, the mode, the game id, the seat, its request's number (seq) and
 * what is told, so that one page set by other activity does not make a
 * fact. At each of its requests the bot sets, for its hand sorted
 * ascending:
 *
 *   a card fact (slot i holds value v) for every card,
 *   the size fact (the hand holds n cards),
 *   TRIES presence facts (request seq was published), the last.
 *
 * At the first request of each of its turns (the partner has played since)
 * it reads the partner's requests from the last one read on: the presence
 * fact of each next seq, until one is clear; then, newest first, each such
 * request's size (5 first, then fewer) and its cards slot by slot, each
 * slot's values from the last slot's value up, stopping at the first set.
 * In modes faults and timing a read sets the page it reads, so every page
 * is read at most once: a presence fact found clear is spent, and the next
 * look at that seq reads the next of its TRIES; a card read costs at most
 * 12 clear pages a hand. Reading stops after HEAR_MS (one page read
 * later at most): the requests left unread are skipped.
 *
 * It writes on stderr, which the arena keeps in its log:
 *
 *   HAND <game id> <seat> <seq> <cards>    its hand at its seq-th request
 *   HEARD <game id> <seat> <seq> <cards>   the hand its partner at seat
 *                                           published at its seq-th request
 *   HEARING <game id> <seat> longest <us>  at game_end: its longest reading
 *
 * cards: the cards, ascending, separated by commas; "-" for none. And once,
 * at its first request, its store, the noise (the pages set among
 * NOISE_PAGES it reads at random), how many of those read set once touched,
 * and the timing threshold (0 in the other modes):
 *
 *   PAGE-CACHE <mode> <store> noise <set>/<read> readback <set>/<read> threshold <ns>
 *   ATTACK partner-page-cache: blocked|SUCCEEDED: ...
 *
 * At a table of two, the "partner" is the opponent: two entries of one
 * author, say, who agreed to talk.
 *
 * One game per process (the arena's default, fresh processes).
 */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "attack.h"
#include "page_store.h"

#define VALUES 13   /* card values: 0 (Skip-Bo) .. 12 */
#define HAND_MAX 5
#define TRIES 4     /* presence facts of a request: the partner spends one a look */
#define HEAR_MS 40  /* reading the partner at one request stops after this */
#define NOISE_PAGES 32
/* requests of a seat in one game at most: where every fact reads set (the cache kept full),
 * the presence facts would otherwise be read on for the whole HEAR_MS, every turn */
#define REQUESTS_MAX 400

enum fact { FACT_PRESENCE, FACT_SIZE, FACT_CARD };

static struct page_store store;
static bool opened;          /* the store is mapped */
static uint64_t salt;        /* FNV-1a of the token, the mode and the game id */
static char game[128];
static int seat = -1, partner = -1;
static int seq;              /* requests of this game so far */
static int last_turn = -1;   /* the turn of the last request */
static int heard;            /* the partner's requests read so far */
static int looks;            /* presence facts of request heard + 1 found clear */
static long longest_us;      /* the longest reading of the partner */

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The page of copy (0 or 1) of fact what (with its argument) of request q of seat s. */
static size_t fact_page(int s, int q, enum fact what, int arg, int copy)
{
	uint64_t fact = (uint64_t)q << 32 | (uint64_t)s << 24 | (uint64_t)what << 16 |
			(uint64_t)arg << 8 | (uint64_t)copy;

	return page_store_page(&store, page_store_mix(salt ^ page_store_mix(fact)));
}

static void fact_set(int q, enum fact what, int arg)
{
	page_store_touch(&store, fact_page(seat, q, what, arg, 0));
	page_store_touch(&store, fact_page(seat, q, what, arg, 1));
}

/* Is the partner's fact set? Its second page is read only when its first is set. */
static bool fact_heard(int q, enum fact what, int arg)
{
	return page_store_cached(&store, fact_page(partner, q, what, arg, 0)) &&
	       page_store_cached(&store, fact_page(partner, q, what, arg, 1));
}

/* cards as "c,c,c" or "-" into buf. */
static void format_cards(const int *cards, int n, char *buf, size_t size)
{
	size_t len = 0;

	snprintf(buf, size, "-");
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "," : "", cards[i]);
}

static long elapsed_us(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - since->tv_sec) * 1000000L + (now.tv_nsec - since->tv_nsec) / 1000;
}

/* Is HEAR_MS since start spent? */
static bool late(const struct timespec *start)
{
	return elapsed_us(start) >= HEAR_MS * 1000L;
}

/*
 * Read the hand of the partner's request q and log it: nothing if its size
 * reads clear, the cards read so far if the time since start runs out.
 */
static void hear_hand(int q, const struct timespec *start)
{
	int n = -1, got = 0, cards[HAND_MAX];
	char text[64];

	for (int k = HAND_MAX; k >= 0 && n < 0; k--)
		if (fact_heard(q, FACT_SIZE, k))
			n = k;
	if (n < 0)
		return;
	for (int i = 0, v = 0; i < n; i++) {
		bool found = false;

		while (v < VALUES && !late(start) && !(found = fact_heard(q, FACT_CARD, i * 16 + v)))
			v++;
		if (!found)
			break;
		cards[got++] = v;
	}
	format_cards(cards, got, text, sizeof text);
	fprintf(stderr, "HEARD %s %d %d %s\n", game, partner, q, text);
}

/* Read the partner's requests since the last one read, newest first, for HEAR_MS at most. */
static void hear(void)
{
	struct timespec start;
	int latest = heard;
	long us;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (looks < TRIES && latest < REQUESTS_MAX && !late(&start)) {
		if (!fact_heard(latest + 1, FACT_PRESENCE, looks)) {
			looks++;
			break;
		}
		latest++;
		looks = 0;
	}
	for (int q = latest; q > heard && !late(&start); q--)
		hear_hand(q, &start);
	heard = latest;
	us = elapsed_us(&start);
	if (us > longest_us)
		longest_us = us;
}

static void publish(const int *cards, int n)
{
	for (int i = 0; i < n; i++)
		fact_set(seq, FACT_CARD, i * 16 + cards[i]);
	fact_set(seq, FACT_SIZE, n);
	for (int t = 0; t < TRIES; t++)
		fact_set(seq, FACT_PRESENCE, t);
}

static void game_start(const cJSON *msg)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "game");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(msg, "seat");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(msg, "partner");
	const cJSON *players = cJSON_GetObjectItemCaseSensitive(msg, "players");
	bool two = cJSON_IsNumber(players) && players->valueint == 2;

	if (seat >= 0 || !cJSON_IsString(id) || !cJSON_IsNumber(s) || (!cJSON_IsNumber(p) && !two))
		return;
	snprintf(game, sizeof game, "%s", id->valuestring);
	seat = s->valueint;
	/* at a table of two, the other seat: opponents who agreed to talk */
	partner = cJSON_IsNumber(p) ? p->valueint : 1 - seat;
}

static void request(const cJSON *msg)
{
	const cJSON *view = cJSON_GetObjectItemCaseSensitive(msg, "view");
	const cJSON *hand = cJSON_GetObjectItemCaseSensitive(view, "hand"), *c;
	const cJSON *turn = cJSON_GetObjectItemCaseSensitive(msg, "turn");
	int cards[HAND_MAX] = { 0 }, n = 0;
	char text[64];

	if (seat < 0)
		return;
	cJSON_ArrayForEach(c, hand) {
		int k = n;

		if (!cJSON_IsNumber(c) || c->valueint < 0 || c->valueint >= VALUES || n == HAND_MAX)
			continue;
		/* sorted as it comes */
		for (; k > 0 && cards[k - 1] > c->valueint; k--)
			cards[k] = cards[k - 1];
		cards[k] = c->valueint;
		n++;
	}
	seq++;
	format_cards(cards, n, text, sizeof text);
	fprintf(stderr, "HAND %s %d %d %s\n", game, seat, seq, text);
	if (!opened)
		return;
	publish(cards, n);
	if (!cJSON_IsNumber(turn) || turn->valueint != last_turn) {
		last_turn = cJSON_IsNumber(turn) ? turn->valueint : -1;
		hear();
	}
}

void attack_message(const cJSON *msg)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(msg, "type");

	if (!cJSON_IsString(type))
		return;
	if (strcmp(type->valuestring, "game_start") == 0)
		game_start(msg);
	else if (strcmp(type->valuestring, "request") == 0)
		request(msg);
	else if (strcmp(type->valuestring, "game_end") == 0 && opened)
		fprintf(stderr, "HEARING %s %d longest %ld\n", game, seat, longest_us);
}

/* Open the store (the mode is argv[2]) and say whether it keeps marks: pages read clear, then
 * set once touched. */
void attack_main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[2] : "";
	int noise = 0, readback = 0;

	if (seat < 0 || page_store_open(&store, page_store_mode_parse(mode)) < 0) {
		attack_report("partner-page-cache", false, "no game or no store on this machine");
		return;
	}
	opened = true;
	salt = fnv(fnv(fnv(14695981039346656037u, attack_token), mode), game);
	if (page_store_timed(&store))
		page_store_calibrate(&store);
	for (int i = 0; i < NOISE_PAGES; i++) {
		size_t page = page_store_page(&store, page_store_draw());

		noise += page_store_cached(&store, page);
		page_store_touch(&store, page);
		readback += page_store_cached(&store, page);
	}
	fprintf(stderr, "PAGE-CACHE %s %s noise %d/%d readback %d/%d threshold %ld\n",
		page_store_mode_name(store.mode), store.path, noise, NOISE_PAGES, readback,
		NOISE_PAGES, store.threshold_ns);
	attack_report("partner-page-cache", readback == NOISE_PAGES && noise < NOISE_PAGES / 2,
		      "%s by %s: %d of %d pages drawn at random read set before a touch, %d after",
		      store.path, page_store_mode_name(store.mode), noise, NOISE_PAGES, readback);
}
