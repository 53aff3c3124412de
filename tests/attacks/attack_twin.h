/*
 * attack_twin.h - what the twin relays (attack_twin_locks.c,
 * attack_twin_futex.c) share: a card-predicting bot (attack_cards.h) that
 * publishes every card it is shown to the bot's other processes alive at the
 * same time, and predicts from what they published.
 *
 * A deal is known by its key (cards_deal_key, attack_cards.h), 0 ..
 * TWIN_KEYS-1. A message says "in the deal key, the card at deck position
 * pos is card".
 */
#ifndef SKIPBO_ATTACK_TWIN_H
#define SKIPBO_ATTACK_TWIN_H

#include "attack_cards.h"

#define TWIN_KEYS CARDS_DEAL_KEYS

/* A message heard from another process (or this one): kept for predictions. Any thread. */
void twin_heard(int key, int pos, int card);

/* Run the bot (cards_main) under name; publish(key, pos, card) sends each card shown,
 * from the thread that reads the arena's lines. Returns main's status. */
int twin_main(const char *name, void (*publish)(int key, int pos, int card), int argc,
	      char **argv);

#endif
