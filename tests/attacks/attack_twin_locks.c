/*
 * attack_twin_locks.c - passes the cards a game shows to the bot's other
 * processes alive at the same time, through file locks on its own program
 * (attack_cards.h): each sandbox binds the same file, and a byte-range lock
 * is seen by every process that asks about that range. A process started
 * ahead for a later game (the pool starts them during the current game), or
 * one playing another rotation of the same deal at once, collects what the
 * others publish and predicts its own hidden cards from it.
 *
 * usage: attack_twin_locks TOKEN
 *
 * The store: a read lock on byte STORE + (key * CARDS_DECK + pos) * 16 +
 * card of /proc/self/exe says "in the deal whose stock tops are key, the
 * card at deck position pos is card". F_GETLK over a range names a lock in
 * it. The deal's key and the predictions are attack_twin.h's.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "attack_cards.h"
#include "attack_twin.h"

#define STORE (1LL << 40) /* far past the end of the file: any offset may be locked */
#define CARD_VALUES 16

static int store = -1;

static off_t offset(int k, int pos)
{
	return STORE + ((off_t)k * CARDS_DECK + pos) * CARD_VALUES;
}

/* The first lock another process holds in [start, start + len): its start, or -1. */
static off_t held(off_t start, off_t len)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = start,
			   .l_len = len };

	if (fcntl(store, F_GETLK, &l) < 0 || l.l_type == F_UNLCK)
		return -1;
	return l.l_start;
}

static void publish(int k, int pos, int card)
{
	struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET,
			   .l_start = offset(k, pos) + card, .l_len = 1 };

	fcntl(store, F_SETLK, &l);
}

/* Read every lock of the store, over and over, for as long as the process lives. */
static void *collect(void *arg)
{
	struct timespec pause = { 0, 2000000 };

	(void)arg;
	for (;;) {
		for (int k = 0; k < TWIN_KEYS; k++) {
			if (held(offset(k, 0), (off_t)CARDS_DECK * CARD_VALUES) < 0)
				continue;
			for (int pos = 0; pos < CARDS_DECK; pos++) {
				off_t at = held(offset(k, pos), CARD_VALUES);

				if (at >= 0)
					twin_heard(k, pos, (int)(at - offset(k, pos)));
			}
		}
		nanosleep(&pause, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t thread;

	store = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (store >= 0)
		pthread_create(&thread, NULL, collect, NULL);
	return twin_main("twin-locks", publish, argc, argv);
}
