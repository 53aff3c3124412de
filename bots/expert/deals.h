/*
 * deals.h - the cards a seat cannot see, dealt at random in agreement with
 * what it has seen: the expert bot's determinized sampling.
 *
 * The unseen cards (cards.h) are shuffled and dealt into the places the seat
 * cannot look: each other seat's hand, the cards under the stock tops, the
 * draw pile. A deal agrees with the view in every visible respect (R13), and
 * with how each other player ended its last turn: a player who could have
 * played a stock top with the cards it kept would have (every bundled bot
 * does), so a kept hand that would have allowed it is dealt again (up to
 * DEALS_HAND_ATTEMPTS times, then kept: a bot may play otherwise).
 *
 * The deal keeps only what the expert's estimates use: each other seat's kept
 * hand and its next draws in order, the card under the stock top of every
 * seat, and the player's own next 5 draws. How many of the draws happen
 * depends on the cards left to draw (R5.1, R6): late in a crowded game the
 * draw pile runs dry, and only building piles completed or grown give cards
 * back. deals_supply() counts them, deal_next_hands() draws while they last.
 */
#ifndef SKIPBO_BOTS_DEALS_H
#define SKIPBO_BOTS_DEALS_H

#include <stdint.h>

#include "cards.h"
#include "engine.h"
#include "table.h"

#define DEALS_HAND_ATTEMPTS 16

struct deal {
	int kept[ENGINE_MAX_PLAYERS][TABLE_CARD_VALUES]; /* other seats: the cards they hold */
	int kept_n[ENGINE_MAX_PLAYERS];
	uint8_t drawn[ENGINE_MAX_PLAYERS][ENGINE_HAND_SIZE]; /* other seats: next draws, in order */
	uint8_t stock_next[ENGINE_MAX_PLAYERS];              /* the card under each stock top */
	uint8_t draws[ENGINE_HAND_SIZE];                     /* the player's own next draws */
};

struct dealer {
	const struct seat_view *v;
	const struct cards_known *k;
	uint8_t pool[ENGINE_DECK_SIZE]; /* the unseen cards */
	int n;
	struct rng rng;
};

/*
 * Prepare to deal for the viewer of v, who knows k (cards_known() for v,
 * both borrowed), from a generator seeded with seed. Returns the number of
 * unseen cards; 0 means there is nothing to deal.
 */
int dealer_init(struct dealer *d, const struct seat_view *v, const struct cards_known *k, uint64_t seed);

/*
 * One deal. Cards come from the pool without replacement while it lasts; a
 * pool smaller than the places to fill (counts estimated, cards.h) is dealt
 * again from its start.
 */
void dealer_deal(struct dealer *d, struct deal *out);

/*
 * The cards a draw can still yield once the viewer of v ends a turn that
 * played cards_played cards and left the building piles at `building`: the
 * draw pile, the completed heap (R6.1) and every card under a building pile's
 * top (R6.2). A completed pile counts 12 cards; a card played onto a pile
 * counts once it is covered.
 */
int deals_supply(const struct seat_view *v, const int building[ENGINE_BUILDING_PILES], int cards_played);

/*
 * Each other seat's hand at the start of its next turn under deal d: its
 * kept cards, then its draws up to 5 (R5.1) while the supply of cards lasts,
 * seats in the order they move after the viewer. Fills hand[s] (a count per
 * card) and hand_n[s] of those seats. Returns the supply left.
 */
int deal_next_hands(const struct deal *d, const struct seat_view *v, int supply,
		    int hand[ENGINE_MAX_PLAYERS][TABLE_CARD_VALUES], int hand_n[ENGINE_MAX_PLAYERS]);

/*
 * The turn simulator of seat s as v shows it, with its partner's piles too
 * (R10) unless that partner is the viewer, on building piles `building`,
 * holding the hand `hand` (a count per card) of hand_n cards.
 */
void deals_seat_table(const struct seat_view *v, int s, const int building[ENGINE_BUILDING_PILES],
		      const int *hand, int hand_n, struct table *t);

#endif
