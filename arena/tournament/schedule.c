/*
 * schedule.c - round-robin tables, duplicate rotations and deal seeds.
 */
#include "schedule.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tournament_file.h"

/* tournament.json's reader accepts every schedule this module writes */
_Static_assert(SCHEDULE_VERSION == RECORDS_SCHEDULE_MAX, "RECORDS_SCHEDULE_MAX in tournament_file.h");

struct schedule {
	int players;
	uint32_t deals, rotations, ntables;
	uint32_t seat_rotations; /* rotations = pairings * seat_rotations */
	uint64_t seed, count;
	uint8_t *tables; /* ntables x players bot indices, lexicographic */
	uint32_t *order; /* order[slot]: the table played at that place of each deal round */
	uint32_t *slot;  /* slot[table]: the inverse of order */
};

/* The pairings of schedule.h: partners are seats 0+2, 1+3 (4 players) and 0+3, 1+4, 2+5 (6). */
static const uint8_t pairings4[3][4] = {
	{ 0, 1, 2, 3 }, /* {02|13} */
	{ 0, 2, 1, 3 }, /* {01|23} */
	{ 0, 1, 3, 2 }, /* {03|12} */
};
/* The round-robin matchings of six: in matching k, k partners 5 and k + i partners k - i (mod 5). */
static const uint8_t pairings6[5][6] = {
	{ 0, 1, 2, 5, 4, 3 },
	{ 1, 2, 3, 5, 0, 4 },
	{ 2, 3, 4, 5, 1, 0 },
	{ 3, 4, 0, 5, 2, 1 },
	{ 4, 0, 1, 5, 3, 2 },
};
static const uint8_t identity[ENGINE_MAX_PLAYERS] = { 0, 1, 2, 3, 4, 5 };

int schedule_pairings(int players)
{
	return players == 4 ? 3 : players == 6 ? 5 : 0;
}

const uint8_t *schedule_pairing_order(int players, int k)
{
	if (players == 4 && k >= 0 && k < 3)
		return pairings4[k];
	if (players == 6 && k >= 0 && k < 5)
		return pairings6[k];
	return identity;
}

/* Candidates weighed for each place of the interleaved order (schedule.h). */
#define ORDER_WINDOW 256

uint64_t schedule_splitmix64(uint64_t z)
{
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t schedule_deal_seed(uint64_t seed, uint32_t table, uint32_t deal)
{
	return schedule_splitmix64(schedule_splitmix64(seed ^ table) ^ deal);
}

/* C(n, k), or UINT64_MAX when it passes the game cap. */
static uint64_t combinations(size_t n, int k)
{
	uint64_t c = 1;

	for (int i = 1; i <= k; i++) {
		c = c * (n - k + i) / i;
		if (c > SCHEDULE_MAX_GAMES)
			return UINT64_MAX;
	}
	return c;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* How much a table's bots have played: the most played of them, then their sum. */
static uint64_t table_load(const struct schedule *s, const uint32_t *played, uint32_t table)
{
	const uint8_t *bots = s->tables + (size_t)table * s->players;
	uint32_t most = 0, sum = 0;

	for (int i = 0; i < s->players; i++) {
		most = played[bots[i]] > most ? played[bots[i]] : most;
		sum += played[bots[i]];
	}
	return (uint64_t)most << 32 | sum;
}

/*
 * The interleaved order of one deal round (schedule.h): a window of the next
 * ORDER_WINDOW tables of a golden-ratio stride through the lexicographic
 * list; the least played of them goes next and the stride refills its place.
 * Ties go to the earlier stride position, so the order is the same everywhere.
 */
static int make_order(struct schedule *s, size_t nbots)
{
	uint64_t m = s->ntables, stride, next = 0;
	uint64_t window[ORDER_WINDOW];
	uint32_t *played = calloc(nbots, sizeof(*played));
	size_t nwin = 0;

	if (!played)
		return -ENOMEM;
	/* m < 2^32, so the product fits; 2654435769 / 2^32 is the golden ratio's fraction */
	stride = (m * UINT64_C(2654435769)) >> 32;
	if (stride == 0)
		stride = 1;
	while (gcd(stride, m) != 1)
		stride++;
	while (nwin < ORDER_WINDOW && next < m)
		window[nwin++] = next++;
	for (uint64_t place = 0; place < m; place++) {
		size_t best = 0;
		uint64_t best_load = UINT64_MAX;

		for (size_t w = 0; w < nwin; w++) {
			uint64_t load = table_load(s, played, (uint32_t)(window[w] * stride % m));

			if (load < best_load || (load == best_load && window[w] < window[best])) {
				best = w;
				best_load = load;
			}
		}
		s->order[place] = (uint32_t)(window[best] * stride % m);
		s->slot[s->order[place]] = (uint32_t)place;
		for (int i = 0; i < s->players; i++)
			played[s->tables[(size_t)s->order[place] * s->players + i]]++;
		if (next < m)
			window[best] = next++;
		else
			window[best] = window[--nwin];
	}
	free(played);
	return 0;
}

int schedule_new(size_t nbots, int players, uint32_t deals, int duplicate, uint64_t seed,
		 struct schedule **out)
{
	return schedule_new_gauntlet(nbots, NULL, players, deals, duplicate, 0, seed, out);
}

/* A table of a gauntlet seats at least one challenger; every table of a round robin counts. */
static int table_counts(const int *combo, int players, const uint8_t *challenger)
{
	for (int i = 0; challenger && i < players; i++)
		if (challenger[combo[i]])
			return 1;
	return !challenger;
}

int schedule_new_gauntlet(size_t nbots, const uint8_t *challenger, int players, uint32_t deals,
			  int duplicate, int pairings, uint64_t seed, struct schedule **out)
{
	struct schedule *s = NULL;
	int combo[ENGINE_MAX_PLAYERS];
	uint64_t ntables, t = 0;
	size_t nfield = nbots;
	int ret = -EINVAL;

	*out = NULL;
	if (players < 2 || players > ENGINE_MAX_PLAYERS || nbots < (size_t)players ||
	    nbots > 255 || deals < 1 || (pairings && !schedule_pairings(players)))
		goto out;
	for (size_t i = 0; challenger && i < nbots; i++)
		nfield -= challenger[i] != 0;
	ntables = combinations(nbots, players);
	/* a gauntlet leaves out the tables of the field alone */
	if (challenger && ntables != UINT64_MAX && nfield >= (size_t)players)
		ntables -= combinations(nfield, players);
	if (ntables == 0 || ntables == UINT64_MAX || ntables > UINT32_MAX)
		goto out;
	ret = -ENOMEM;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto out;
	s->players = players;
	s->deals = deals;
	s->seat_rotations = duplicate ? (uint32_t)players : 1;
	s->rotations = s->seat_rotations * (pairings ? (uint32_t)schedule_pairings(players) : 1);
	s->ntables = (uint32_t)ntables;
	s->seed = seed;
	s->count = ntables * deals * s->rotations;
	ret = -EINVAL;
	if (s->count > SCHEDULE_MAX_GAMES || s->count / deals / s->rotations != ntables)
		goto out;
	ret = -ENOMEM;
	s->tables = reallocarray(NULL, ntables, (size_t)players);
	s->order = reallocarray(NULL, ntables, sizeof(*s->order));
	s->slot = reallocarray(NULL, ntables, sizeof(*s->slot));
	if (!s->tables || !s->order || !s->slot)
		goto out;
	for (int i = 0; i < players; i++)
		combo[i] = i;
	while (t < ntables) {
		int i;

		if (table_counts(combo, players, challenger)) {
			for (i = 0; i < players; i++)
				s->tables[t * players + i] = (uint8_t)combo[i];
			t++;
		}
		/* next combination in lexicographic order */
		for (i = players - 1; i >= 0 && combo[i] == (int)nbots - players + i; i--)
			;
		if (i < 0)
			break;
		combo[i]++;
		for (int j = i + 1; j < players; j++)
			combo[j] = combo[j - 1] + 1;
	}
	if (make_order(s, nbots) < 0)
		goto out;
	*out = s;
	s = NULL;
	ret = 0;
out:
	schedule_free(s);
	return ret;
}

void schedule_free(struct schedule *s)
{
	if (!s)
		return;
	free(s->tables);
	free(s->order);
	free(s->slot);
	free(s);
}

uint64_t schedule_count(const struct schedule *s)
{
	return s->count;
}

uint32_t schedule_tables(const struct schedule *s)
{
	return s->ntables;
}

/* The deal groups (a table's deal, all its games) before block b, and the block's number. */
static uint64_t block_start(uint64_t b)
{
	return b * SCHEDULE_BLOCK_GROUPS;
}

static uint64_t block_groups(const struct schedule *s, uint64_t b)
{
	uint64_t left = s->count / s->rotations - block_start(b);

	return left < SCHEDULE_BLOCK_GROUPS ? left : SCHEDULE_BLOCK_GROUPS;
}

/* Game index as its deal group and its game k of the group (schedule.h's phases). */
static void locate(const struct schedule *s, uint64_t index, uint64_t *group, uint32_t *k)
{
	uint64_t b = index / ((uint64_t)SCHEDULE_BLOCK_GROUPS * s->rotations);
	uint64_t within = index - block_start(b) * s->rotations, n = block_groups(s, b);

	*k = (uint32_t)(within / n);
	*group = block_start(b) + within % n;
}

uint64_t schedule_group_index(const struct schedule *s, uint64_t group, uint32_t k)
{
	uint64_t b = group / SCHEDULE_BLOCK_GROUPS;

	return block_start(b) * s->rotations + k * block_groups(s, b) + group - block_start(b);
}

uint64_t schedule_phase(const struct schedule *s, uint64_t index)
{
	uint64_t group;
	uint32_t k;

	locate(s, index, &group, &k);
	return group / SCHEDULE_BLOCK_GROUPS * s->rotations + k;
}

int schedule_game(const struct schedule *s, uint64_t index, struct schedule_game *out)
{
	const uint8_t *table;
	uint64_t group;
	uint32_t k;

	if (index >= s->count)
		return -ERANGE;
	memset(out, 0, sizeof(*out));
	locate(s, index, &group, &k);
	out->index = index;
	out->pairing = k / s->seat_rotations;
	out->rotation = k % s->seat_rotations;
	out->deal = (uint32_t)(group / s->ntables);
	out->table = s->order[group % s->ntables];
	out->seed = schedule_deal_seed(s->seed, out->table, out->deal);
	table = s->tables + (size_t)out->table * s->players;
	/* one pairing (version 1): the table's order */
	const uint8_t *pairing = s->rotations == s->seat_rotations ? identity :
		schedule_pairing_order(s->players, (int)out->pairing);
	for (int seat = 0; seat < s->players; seat++)
		out->bots[seat] = table[pairing[(seat + (int)out->rotation) % s->players]];
	for (int seat = s->players; seat < ENGINE_MAX_PLAYERS; seat++)
		out->bots[seat] = -1;
	if (s->rotations == s->seat_rotations)
		snprintf(out->id, sizeof(out->id), "t%04" PRIu32 "-d%04" PRIu32 "-r%" PRIu32,
			 out->table, out->deal, out->rotation);
	else
		snprintf(out->id, sizeof(out->id), "t%04" PRIu32 "-d%04" PRIu32 "-p%" PRIu32
			 "-r%" PRIu32, out->table, out->deal, out->pairing, out->rotation);
	return 0;
}

/* Parse one unsigned decimal field; returns the end or NULL. */
static const char *parse_number(const char *p, char tag, uint64_t *v)
{
	if (*p != tag)
		return NULL;
	p++;
	if (*p < '0' || *p > '9')
		return NULL;
	*v = 0;
	while (*p >= '0' && *p <= '9') {
		if (*v > UINT32_MAX)
			return NULL;
		*v = *v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	return p;
}

int schedule_index_of(const struct schedule *s, const char *id, uint64_t *index)
{
	uint64_t table, deal, pairing = 0, rotation;
	struct schedule_game g;
	const char *p = id;

	if (!(p = parse_number(p, 't', &table)) || *p++ != '-' ||
	    !(p = parse_number(p, 'd', &deal)) || *p++ != '-')
		return -ENOENT;
	if (*p == 'p' && (!(p = parse_number(p, 'p', &pairing)) || *p++ != '-'))
		return -ENOENT;
	if (!(p = parse_number(p, 'r', &rotation)) || *p)
		return -ENOENT;
	if (table >= s->ntables || deal >= s->deals || rotation >= s->seat_rotations ||
	    pairing >= s->rotations / s->seat_rotations)
		return -ENOENT;
	*index = schedule_group_index(s, deal * s->ntables + s->slot[table],
				      (uint32_t)(pairing * s->seat_rotations + rotation));
	/* only the canonical spelling names a game: "t3-d1-r0" is not t0003-d0001-r0 */
	if (schedule_game(s, *index, &g) < 0 || strcmp(g.id, id) != 0)
		return -ENOENT;
	return 0;
}

int schedule_shard_of(const struct schedule *s, uint64_t index, uint32_t nshards)
{
	uint64_t group;
	uint32_t k;

	if (index >= s->count || nshards < 1)
		return -ERANGE;
	locate(s, index, &group, &k);
	return (int)((group % s->ntables + group / s->ntables) % nshards);
}

uint64_t schedule_shard_count(const struct schedule *s, uint32_t shard, uint32_t nshards)
{
	uint64_t t = s->ntables, n = nshards, groups = 0;
	uint64_t extra = t % n; /* deal d: slots with (slot + d) mod n == shard, t / n or one more */

	if (nshards < 1 || shard >= nshards)
		return 0;
	/* deal d gives the shard one more when (shard - d) mod n < t mod n; that repeats every n deals */
	for (uint64_t d = 0; d < s->deals % n; d++)
		groups += (shard + n - d % n) % n < extra;
	groups += s->deals / n * extra + (uint64_t)s->deals * (t / n);
	return groups * s->rotations;
}
