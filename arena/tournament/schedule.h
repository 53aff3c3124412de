/*
 * schedule.h - the games of a round-robin or gauntlet tournament, in a fixed
 * order.
 *
 * Tables: every set of `players` bots out of nbots (combinations in
 * lexicographic order, table 0 = bots {0, 1, ..., players-1}); in a gauntlet
 * only the sets with at least one challenger, in the same order, numbered
 * from 0 (the field's bots never meet without a challenger). Each table
 * plays `deals` deals. With duplicate deals each deal is played once per seat
 * rotation r = 0..players-1 with the same seed: at rotation r seat s holds the
 * table's bot number (s + r) mod players, so every bot plays every seat with
 * the same cards (R3: seat `players-1` deals, seat 0 moves first). Without
 * duplicates each deal is played once, rotation 0.
 *
 * Pairings (partnership, schedule version 2): a seat rotation keeps every
 * team together (R2 teams are seats 0+2, 1+3 or 0+3, 1+4, 2+5), so with one
 * pairing a table's bots would always have the same partner, and a bot's
 * rating would carry its partner's. With pairings each deal is played once
 * per pairing of the table's bots, each under every seat rotation. Pairing k
 * first
 * reorders the table's bots by schedule_pairing_order (4 players: the three
 * ways to split four, {02|13}, {01|23}, {03|12}; 6 players: the five
 * matchings of a round-robin of six, in which every two bots are partners
 * exactly once), then the seat rotation applies. A 4-player table thus has
 * 3 pairings, a 6-player one 5, and every bot of a table partners every
 * other equally often. Version 1 (a directory written before pairings, or
 * pairings 0) plays one pairing, the table's order.
 *
 * Deal groups: the games of one table's deal (every pairing and rotation),
 * R = pairings x seat rotations of them, numbered p = deal x tables + slot:
 * deal by deal, and within a deal round the tables in `order`, a fixed
 * permutation in which each table is, among the next 256 of a golden-ratio
 * stride through the lexicographic list, the one whose bots have played the
 * fewest tables so far (the most played of its bots, then their sum, then
 * the stride position). Every bot's number of tables in any prefix of a
 * round then stays within a few of any other's.
 *
 * The order of play goes by rotation phases. The deal groups fall into
 * blocks of SCHEDULE_BLOCK_GROUPS (the last block may hold fewer, n), and a
 * block is played phase by phase: phase k (0 .. R-1) is game k of each of
 * its groups (pairing = k / seat rotations, rotation = k mod seat
 * rotations), in group order. Game index i: block b = i / (B x R) with B =
 * SCHEDULE_BLOCK_GROUPS, j = i - b x B x R, k = j / n, group p = b x B + j
 * mod n, deal = p / tables, table = order[p mod tables]. So no two games of
 * one deal are in one phase, and the arena's barrier between phases
 * (tournament.h) keeps the bot processes of one rotation of a deal from
 * being alive with those of another. The block size does not depend on
 * concurrency, so neither does the order. A prefix of the order (what a
 * shard or an interrupted run has played) holds whole blocks, then whole
 * phases of one block and part of its next phase: at most one block's deal
 * groups are partly played (their rotations not all there, so not yet
 * paired), and a deal group is started only once every group of the
 * blocks before it is complete. Within a phase the groups follow the
 * interleaved order, so a prefix still covers every table and bot evenly.
 *
 * Only the order depends on this; a game's id, seed and seats are those of
 * its table, deal and rotation, so the order may change without changing any
 * game, and a resume matches records by id. Nothing is stored per game, so a
 * schedule of millions of games costs only its tables.
 *
 * Shards: shard k (0-based) of n holds the games whose deal group p has
 * (p mod tables + deal) mod n == k. All the rotations of a deal are in one
 * shard (a report pairs duplicate rotations within one games.jsonl), the
 * shards' sizes differ by at most a few deal groups, and as the offset moves
 * by one every deal, a shard plays every table when deals >= n.
 *
 * Deal seeds (R12), reproducible by anyone:
 *   splitmix64(z): z += 0x9e3779b97f4a7c15; z = (z ^ z>>30) * 0xbf58476d1ce4e5b9;
 *                  z = (z ^ z>>27) * 0x94d049bb133111eb; return z ^ z>>31
 *   deal_seed = splitmix64(splitmix64(seed ^ table) ^ deal)
 *
 * Game ids: "t%04u-d%04u-r%u" (table, deal, rotation), e.g. t0003-d0001-r1,
 * and with pairings "t%04u-d%04u-p%u-r%u" (pairing before rotation), e.g.
 * t0003-d0001-p2-r0; wider numbers simply use more digits. A game's
 * rotation stays its seat rotation, so a record's "rotation" is 0 without
 * duplicate deals whatever the pairing.
 */
#ifndef SKIPBO_SCHEDULE_H
#define SKIPBO_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define SCHEDULE_ID_MAX 48
/* Deal groups per block of rotation phases (above): large enough that the
 * barrier between phases costs a few percent of a run (arena/README.md). */
#define SCHEDULE_BLOCK_GROUPS 128
#define SCHEDULE_MAX_GAMES (UINT64_C(1) << 40)

struct schedule_game {
	uint64_t index;
	uint32_t table, deal, pairing, rotation; /* pairing 0 without pairings */
	uint64_t seed;                 /* the deal's seed, shared by its rotations */
	int bots[ENGINE_MAX_PLAYERS];  /* bot index at each seat */
	char id[SCHEDULE_ID_MAX];
	/* The id its bots are told, as a source that got it from elsewhere gives it (a
	 * worker's lease, arena/WORKERS.md); "": the run's own (referee_opaque_id). */
	char told[SCHEDULE_ID_MAX];
};

struct schedule;

/*
 * A schedule for nbots bots, `players` per game (2..6, <= nbots), deals >= 1.
 * Returns 0 and *out, -EINVAL for impossible numbers or more than
 * SCHEDULE_MAX_GAMES games, -ENOMEM.
 */
int schedule_new(size_t nbots, int players, uint32_t deals, int duplicate, uint64_t seed,
		 struct schedule **out);

/*
 * The same for a gauntlet: challenger[b] non-zero for each challenger bot b
 * (challenger NULL: the round robin of schedule_new), and with pairings
 * non-zero every pairing of a partnership table (above; players 4 or 6, else
 * -EINVAL). -EINVAL also when no table seats a challenger.
 */
int schedule_new_gauntlet(size_t nbots, const uint8_t *challenger, int players, uint32_t deals,
			  int duplicate, int pairings, uint64_t seed, struct schedule **out);

/* The schedule version a new partnership tournament records (tournament.json "schedule"):
 * 2 plays every pairing; a directory without the field was written with version 1. */
#define SCHEDULE_VERSION 2

/* The number of pairings of a partnership table of `players`: 3 for 4, 5 for 6, else 0. */
int schedule_pairings(int players);

/*
 * Pairing k (0 <= k < schedule_pairings(players)) as an order of the table's
 * bots: order[s] is the table position seated at s before the seat rotation.
 */
const uint8_t *schedule_pairing_order(int players, int k);
void schedule_free(struct schedule *s);

uint64_t schedule_count(const struct schedule *s);
uint32_t schedule_tables(const struct schedule *s);

/* Game number index; -ERANGE past the end. */
int schedule_game(const struct schedule *s, uint64_t index, struct schedule_game *out);

/*
 * The rotation phase of game index (< schedule_count): b x R + k for game k
 * of the deal groups of block b (above). Non-decreasing along the order;
 * games of one phase are consecutive, and those of one deal are in
 * different phases.
 */
uint64_t schedule_phase(const struct schedule *s, uint64_t index);

/*
 * The index of game k (0 .. R-1) of deal group p (0 .. count / R - 1), R the
 * games of a deal group (above): going through p, then k, gives the games
 * deal by deal, each deal's games one after the other.
 */
uint64_t schedule_group_index(const struct schedule *s, uint64_t group, uint32_t k);

/* The index of the game with this id; -ENOENT if the id is not one of this schedule's. */
int schedule_index_of(const struct schedule *s, const char *id, uint64_t *index);

/*
 * The shard (0 .. nshards-1) holding game index, for nshards >= 1; see above.
 * A game index past the end is in no shard: -ERANGE.
 */
int schedule_shard_of(const struct schedule *s, uint64_t index, uint32_t nshards);

/* The number of games in shard (0-based) of nshards. */
uint64_t schedule_shard_count(const struct schedule *s, uint32_t shard, uint32_t nshards);

uint64_t schedule_splitmix64(uint64_t z);
uint64_t schedule_deal_seed(uint64_t seed, uint32_t table, uint32_t deal);

#endif
