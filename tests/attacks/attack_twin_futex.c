/*
 * attack_twin_futex.c - the relay of attack_twin_locks.c over futexes, which
 * the filter cannot refuse (glibc's pthread_join waits on one): passes the
 * cards a game shows to the bot's other processes alive at the same time
 * (attack_cards.h). Every sandbox binds the same program file, and the
 * kernel keys a shared futex on a page of a file by the file: a FUTEX_WAKE
 * in one sandbox wakes a waiter on the same word in any other.
 *
 * usage: attack_twin_futex TOKEN
 *
 * The channel: LANES lanes of 17 words of the program's first page, mapped
 * read-only. A thread of every process waits on all of them at once
 * (futex_waitv) and hears which one is woken: in a lane, words 0-15 carry a
 * nibble, word 16 starts a message. A message is "in the deal whose stock
 * tops are key, the card at deck position pos is card": key (8 bits), pos
 * (8 bits), card (4 bits) and an 8-bit checksum, 7 nibbles after the start.
 * The sender wakes every waiter of a word, then leaves SYMBOL_US for them to
 * wait again: a time slot per symbol. Each process sends on a lane of its
 * own, drawn at random, so that two games played at once (-j 2) seldom
 * share one; a message that lost or gained a symbol (a missed slot, two
 * senders on one lane) fails its checksum and is dropped. The sender sends
 * before it answers, so its game lasts as long as its messages take.
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "attack_cards.h"
#include "attack_twin.h"

#define LANES 7 /* 7 x 17 words: futex_waitv takes at most 128 */
#define WORDS 17
#define START 16
#define NIBBLES 7
#define SYMBOL_US 400

static const uint32_t *words; /* the program's first page */
static int lane;              /* this process's lane to send on */

static unsigned checksum(unsigned payload)
{
	return (payload * 2654435761u) >> 24;
}

static void wake(int word)
{
	syscall(SYS_futex, &words[word], FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void symbol(int word)
{
	struct timespec slot = { 0, SYMBOL_US * 1000 };

	wake(lane * WORDS + word);
	nanosleep(&slot, NULL);
}

static void send_message(int k, int pos, int card)
{
	unsigned payload = (unsigned)k | (unsigned)pos << 8 | (unsigned)card << 16;
	unsigned message = payload | checksum(payload) << 20;

	symbol(START);
	for (int i = 0; i < NIBBLES; i++)
		symbol((int)(message >> (4 * i) & 15));
}

/* A whole message heard: stored when its checksum holds. */
static void heard(unsigned message)
{
	unsigned payload = message & 0xfffff;

	if (message >> 20 == checksum(payload))
		twin_heard((int)(payload & 0xff), (int)(payload >> 8 & 0xff), (int)(payload >> 16));
}

/* Hear every word woken on every lane, for as long as the process lives. */
static void *listen_all(void *arg)
{
	static struct futex_waitv waiters[LANES * WORDS];
	unsigned message[LANES] = { 0 };
	int have[LANES]; /* nibbles of each lane's message so far; -1: none started */

	(void)arg;
	for (int i = 0; i < LANES * WORDS; i++)
		waiters[i] = (struct futex_waitv){ .val = words[i],
						   .uaddr = (uintptr_t)&words[i],
						   .flags = FUTEX_32 };
	for (int l = 0; l < LANES; l++)
		have[l] = -1;
	for (;;) {
		long w = syscall(SYS_futex_waitv, waiters, LANES * WORDS, 0, NULL, CLOCK_MONOTONIC);
		int l = (int)(w / WORDS), sym = (int)(w % WORDS);

		if (w < 0 || w >= LANES * WORDS)
			continue;
		if (sym == START) {
			message[l] = 0;
			have[l] = 0;
		} else if (have[l] >= 0) {
			message[l] |= (unsigned)sym << (4 * have[l]);
			if (++have[l] == NIBBLES) {
				heard(message[l]);
				have[l] = -1;
			}
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	unsigned char draw = 0;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	void *page = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);

	if (getrandom(&draw, 1, 0) == 1)
		lane = draw % LANES;
	if (page != MAP_FAILED) {
		words = page;
		pthread_create(&thread, NULL, listen_all, NULL);
	} else {
		static const uint32_t none[LANES * WORDS];

		words = none; /* no channel: wakes reach nobody, the bot only guesses */
	}
	return twin_main("twin-futex", send_message, argc, argv);
}
