/*
 * attack_partner_futex - partners who read each other's hand (R10: they
 * have no channel) through futexes on their program's file. Both partners
 * are alive for the whole game, each in a sandbox of its own, and both map
 * the same program file: the kernel keys a shared futex on a page of a file
 * by the file, so a FUTEX_WAKE in one sandbox wakes a FUTEX_WAIT in the
 * other.
 *
 * usage: attack_partner_futex TOKEN
 *
 * Every game's seat owns a region of REGION_WORDS words of the program's
 * mapping, chosen from the game id (both partners are told the same one)
 * and the seat. At each of its requests the bot publishes its hand as a
 * frame on its own region, and a thread per word of its partner's region
 * waits there from game_start on, noting which words are woken:
 *
 *   START (the listener forgets what it noted), then the words of the hand
 *   (card value c's k-th copy), of the request's number mod 16 and of the
 *   hand's size, then END (the listener checks the frame, wakes ACK and
 *   logs it); the publisher waits on ACK and sends again when none comes.
 *
 * Pauses between the steps let the listener's threads run (a game's bots
 * share one CPU). It writes on stderr, which the arena keeps in its log:
 *
 *   HAND <game id> <seat> <seq> <cards>   its hand at its seq-th request
 *   HEARD <game id> <seat> <seq> <cards>  the hand its partner at seat
 *                                          published at its seq-th request
 *
 * cards: the cards, ascending, separated by commas; "-" for none. And once,
 * at its first request, whether a shared futex wait parks at all:
 *
 *   ATTACK partner-futex: blocked|SUCCEEDED: ...
 *
 * One game per process (the arena's default, fresh processes).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"

/* futex2's wait (Linux 6.7), newer than some C libraries' headers */
#ifndef SYS_futex_wait
#define SYS_futex_wait 455
#endif
#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#endif

#define VALUES 13  /* card values: 0 (Skip-Bo) .. 12 */
#define COPIES 5   /* a hand holds at most 5 cards */
#define SEQ_WORDS 16
#define WORD_SEQ (VALUES * COPIES)
#define WORD_SIZE (WORD_SEQ + SEQ_WORDS)
#define WORD_START (WORD_SIZE + COPIES + 1)
#define WORD_END (WORD_START + 1)
#define WORD_ACK (WORD_END + 1)
#define LISTENED WORD_ACK      /* every word before ACK has a thread listening */
#define REGION_WORDS 128
#define MAX_MAP (64 * 4096)
#define PAUSE_US 200            /* between a frame's steps; doubled at each try */
#define ACK_WAIT_US 2000        /* for the partner's ACK; doubled at each try */
#define TRIES 4
#define REFUSED_BACKOFF_MS 20   /* a wait that returns at once: look again later */

static const uint32_t *words; /* the program's file, mapped at game_start */
static size_t regions;
static char game[128];
static int seat = -1, partner = -1;
static int seq;               /* requests of this game so far */
static bool acked;            /* the partner answered a frame of this game */

/* Words of the frame being heard that were woken (bit w: word w). */
static _Atomic uint64_t noted[2];
static int heard_seq;         /* the partner's last request heard */

static long futex(const uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, 0);
}

static void wake(const uint32_t *word)
{
	futex(word, FUTEX_WAKE, INT_MAX, NULL);
}

/* The ways to park on a shared futex, each woken by FUTEX_WAKE. */
#define WAYS 4
static const char *const way_names[WAYS] = { "FUTEX_WAIT", "FUTEX_WAIT_BITSET", "futex_waitv",
					     "futex_wait" };

/*
 * Park on word one way until woken, or until deadline (CLOCK_MONOTONIC, NULL:
 * none): 0 when woken, else -1 and errno (ETIMEDOUT: it parked; the word
 * never changes, so EAGAIN is a wait refused).
 */
static int park(const uint32_t *word, int way, const struct timespec *deadline)
{
	struct futex_waitv one = { .val = *word, .uaddr = (uintptr_t)word, .flags = FUTEX_32 };
	struct timespec now, rel = { 0, 0 };
	long rc;

	if (way == 0 && deadline) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		rel.tv_sec = deadline->tv_sec - now.tv_sec;
		rel.tv_nsec = deadline->tv_nsec - now.tv_nsec;
		if (rel.tv_nsec < 0)
			rel.tv_sec--, rel.tv_nsec += 1000000000L;
		if (rel.tv_sec < 0)
			rel.tv_sec = rel.tv_nsec = 0;
	}
	if (way == 0)
		rc = futex(word, FUTEX_WAIT, *word, deadline ? &rel : NULL);
	else if (way == 1)
		rc = syscall(SYS_futex, word, FUTEX_WAIT_BITSET, *word, deadline, NULL,
			     FUTEX_BITSET_MATCH_ANY);
	else if (way == 2)
		rc = syscall(SYS_futex_waitv, &one, 1, 0, deadline, CLOCK_MONOTONIC);
	else
		rc = syscall(SYS_futex_wait, word, (unsigned long)*word,
			     (unsigned long)FUTEX_BITSET_MATCH_ANY, FUTEX2_SIZE_U32, deadline,
			     CLOCK_MONOTONIC);
	return rc == 0 ? 0 : -1;
}

/* Park on word the first way that parks: as park. */
static int park_any(const uint32_t *word, const struct timespec *deadline)
{
	for (int way = 0; way < WAYS; way++) {
		if (park(word, way, deadline) == 0)
			return 0;
		if (errno == ETIMEDOUT)
			return -1;
	}
	return -1;
}

/* now + us on CLOCK_MONOTONIC into *t. */
static void deadline_in(long us, struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_nsec += us * 1000;
	t->tv_sec += t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
}

static void pause_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

static const uint32_t *region(int of_seat)
{
	uint32_t h = 2166136261u;

	for (const char *p = game; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return words + ((h + (uint32_t)of_seat) % regions) * REGION_WORDS;
}

/* cards as "c,c,c" or "-" into buf. */
static void format_cards(const int *cards, int n, char *buf, size_t size)
{
	size_t len = 0;

	snprintf(buf, size, "-");
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "," : "", cards[i]);
}

static bool has(const uint64_t bits[2], int w)
{
	return bits[w / 64] >> (w % 64) & 1;
}

/*
 * The frame noted, if whole: one seq word, one size word, and that many
 * card words, each value's copies from the first on. Its cards (ascending)
 * into cards and its seq mod SEQ_WORDS into *nibble; their number, or -1.
 */
static int frame_cards(const uint64_t bits[2], int *cards, int *nibble)
{
	int size = -1, n = 0;

	*nibble = -1;
	for (int w = WORD_SEQ; w < WORD_SIZE; w++)
		if (has(bits, w))
			*nibble = *nibble < 0 ? w - WORD_SEQ : SEQ_WORDS;
	for (int w = WORD_SIZE; w < WORD_START; w++)
		if (has(bits, w))
			size = size < 0 ? w - WORD_SIZE : COPIES + 1;
	if (*nibble < 0 || *nibble >= SEQ_WORDS || size < 0 || size > COPIES)
		return -1;
	for (int c = 0; c < VALUES; c++) {
		bool gap = false;

		for (int k = 0; k < COPIES; k++) {
			if (!has(bits, c * COPIES + k)) {
				gap = true;
			} else if (gap || n == COPIES) {
				return -1;
			} else {
				cards[n++] = c;
			}
		}
	}
	return n == size ? n : -1;
}

/* END: check the frame noted, answer it, and log it the first time. */
static void frame_end(void)
{
	uint64_t bits[2] = { atomic_exchange(&noted[0], 0), atomic_exchange(&noted[1], 0) };
	int cards[COPIES], nibble, n = frame_cards(bits, cards, &nibble), s;
	char text[64];

	if (n < 0)
		return;
	/* let the publisher park on ACK first */
	pause_us(PAUSE_US / 4);
	wake(region(partner) + WORD_ACK);
	/* the publisher's seq: the first at or after the last heard with this nibble */
	s = heard_seq + ((nibble - heard_seq % SEQ_WORDS) + SEQ_WORDS) % SEQ_WORDS;
	if (s == heard_seq)
		return; /* sent again: its ACK was missed */
	heard_seq = s;
	format_cards(cards, n, text, sizeof text);
	fprintf(stderr, "HEARD %s %d %d %s\n", game, partner, s, text);
}

/* One word of the partner's region: wait, note, wait again. */
static void *listen_word(void *arg)
{
	int w = (int)(intptr_t)arg;
	const uint32_t *word = region(partner) + w;

	for (;;) {
		if (park_any(word, NULL) < 0) {
			attack_sleep_ms(REFUSED_BACKOFF_MS);
			continue;
		}
		if (w == WORD_START) {
			atomic_store(&noted[0], 0);
			atomic_store(&noted[1], 0);
		} else if (w == WORD_END) {
			frame_end();
		} else {
			atomic_fetch_or(&noted[w / 64], UINT64_C(1) << (w % 64));
		}
	}
	return NULL;
}

static void listen_partner(void)
{
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (int w = 0; w < LISTENED; w++) {
		pthread_t t;

		pthread_create(&t, &attr, listen_word, (void *)(intptr_t)w);
	}
	pthread_attr_destroy(&attr);
}

/* Publish the hand of request seq: a frame, sent again until answered. */
static void publish(const int *cards, int n)
{
	const uint32_t *r = region(seat);
	int tries = acked || seq <= TRIES ? TRIES : 1;

	for (int t = 0; t < tries; t++) {
		struct timespec deadline;
		long pause = (long)PAUSE_US << t;

		wake(r + WORD_START);
		pause_us(pause);
		for (int i = 0; i < n; i++) {
			int k = 0;

			while (i - k > 0 && cards[i - k - 1] == cards[i])
				k++;
			wake(r + cards[i] * COPIES + k);
		}
		wake(r + WORD_SEQ + seq % SEQ_WORDS);
		wake(r + WORD_SIZE + n);
		pause_us(pause);
		wake(r + WORD_END);
		deadline_in((long)ACK_WAIT_US << t, &deadline);
		if (park_any(r + WORD_ACK, &deadline) == 0) {
			acked = true;
			return;
		}
	}
}

/* The program's file, mapped shared and read-only into words: false if it cannot be. */
static bool map_program(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t size;
	void *map;

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	size = (size_t)st.st_size < MAX_MAP ? (size_t)st.st_size & ~(size_t)4095 : MAX_MAP;
	map = size ? mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED || size / (REGION_WORDS * 4) < 4)
		return false;
	words = map;
	regions = size / (REGION_WORDS * 4);
	return true;
}

static void game_start(const cJSON *msg)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "game");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(msg, "seat");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(msg, "partner");

	if (seat >= 0 || !cJSON_IsString(id) || !cJSON_IsNumber(s) || !cJSON_IsNumber(p) ||
	    !map_program())
		return;
	snprintf(game, sizeof game, "%s", id->valuestring);
	seat = s->valueint;
	partner = p->valueint;
	listen_partner();
}

static void request(const cJSON *msg)
{
	const cJSON *view = cJSON_GetObjectItemCaseSensitive(msg, "view");
	const cJSON *hand = cJSON_GetObjectItemCaseSensitive(view, "hand"), *c;
	int cards[COPIES], n = 0;
	char text[64];

	if (seat < 0)
		return;
	cJSON_ArrayForEach(c, hand)
		if (cJSON_IsNumber(c) && c->valueint >= 0 && c->valueint < VALUES && n < COPIES)
			cards[n++] = c->valueint;
	seq++;
	format_cards(cards, n, text, sizeof text);
	fprintf(stderr, "HAND %s %d %d %s\n", game, seat, seq, text);
	publish(cards, n);
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
}

/* Say which ways of waiting on a shared futex of the program park at all. */
void attack_main(int argc, char **argv)
{
	char result[256] = "";
	bool parks = false;

	(void)argc;
	(void)argv;
	if (!words) {
		attack_report("partner-futex", false, "cannot map the program");
		return;
	}
	for (int way = 0; way < WAYS; way++) {
		struct timespec deadline;
		int rc;

		deadline_in(1000, &deadline);
		rc = park(words, way, &deadline);
		parks |= rc < 0 && errno == ETIMEDOUT;
		snprintf(result + strlen(result), sizeof result - strlen(result), "%s%s %s",
			 way ? ", " : "", way_names[way],
			 rc == 0 ? "woken" : errno == ETIMEDOUT ? "parks" : strerror(errno));
	}
	attack_report("partner-futex", parks, "a shared futex wait on the program: %s", result);
}
