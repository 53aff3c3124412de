/*
 * schedule.c - round-robin tables, duplicate rotations and deal seeds.
 */
#include "schedule.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct schedule {
	int players;
	uint32_t deals, rotations, ntables;
	uint64_t seed, count;
	uint8_t *tables; /* ntables x players bot indices */
};

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

int schedule_new(size_t nbots, int players, uint32_t deals, int duplicate, uint64_t seed,
		 struct schedule **out)
{
	struct schedule *s = NULL;
	int combo[ENGINE_MAX_PLAYERS];
	uint64_t ntables;
	int ret = -EINVAL;

	*out = NULL;
	if (players < 2 || players > ENGINE_MAX_PLAYERS || nbots < (size_t)players ||
	    nbots > 255 || deals < 1)
		goto out;
	ntables = combinations(nbots, players);
	if (ntables == UINT64_MAX)
		goto out;
	ret = -ENOMEM;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto out;
	s->players = players;
	s->deals = deals;
	s->rotations = duplicate ? (uint32_t)players : 1;
	s->ntables = (uint32_t)ntables;
	s->seed = seed;
	s->count = ntables * deals * s->rotations;
	ret = -EINVAL;
	if (s->count > SCHEDULE_MAX_GAMES || s->count / deals / s->rotations != ntables)
		goto out;
	ret = -ENOMEM;
	s->tables = reallocarray(NULL, ntables, (size_t)players);
	if (!s->tables)
		goto out;
	for (int i = 0; i < players; i++)
		combo[i] = i;
	for (uint64_t t = 0; t < ntables; t++) {
		int i;

		for (i = 0; i < players; i++)
			s->tables[t * players + i] = (uint8_t)combo[i];
		/* next combination in lexicographic order */
		for (i = players - 1; i >= 0 && combo[i] == (int)nbots - players + i; i--)
			;
		if (i < 0)
			break;
		combo[i]++;
		for (int j = i + 1; j < players; j++)
			combo[j] = combo[j - 1] + 1;
	}
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

int schedule_game(const struct schedule *s, uint64_t index, struct schedule_game *out)
{
	const uint8_t *table;

	if (index >= s->count)
		return -ERANGE;
	memset(out, 0, sizeof(*out));
	out->index = index;
	out->rotation = (uint32_t)(index % s->rotations);
	out->deal = (uint32_t)((index / s->rotations) % s->deals);
	out->table = (uint32_t)(index / s->rotations / s->deals);
	out->seed = schedule_deal_seed(s->seed, out->table, out->deal);
	table = s->tables + (size_t)out->table * s->players;
	for (int seat = 0; seat < s->players; seat++)
		out->bots[seat] = table[(seat + (int)out->rotation) % s->players];
	for (int seat = s->players; seat < ENGINE_MAX_PLAYERS; seat++)
		out->bots[seat] = -1;
	snprintf(out->id, sizeof(out->id), "t%04" PRIu32 "-d%04" PRIu32 "-r%" PRIu32,
		 out->table, out->deal, out->rotation);
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
	uint64_t table, deal, rotation;
	struct schedule_game g;
	const char *p = id;

	if (!(p = parse_number(p, 't', &table)) || *p++ != '-' ||
	    !(p = parse_number(p, 'd', &deal)) || *p++ != '-' ||
	    !(p = parse_number(p, 'r', &rotation)) || *p)
		return -ENOENT;
	if (table >= s->ntables || deal >= s->deals || rotation >= s->rotations)
		return -ENOENT;
	*index = (table * s->deals + deal) * s->rotations + rotation;
	/* only the canonical spelling names a game: "t3-d1-r0" is not t0003-d0001-r0 */
	if (schedule_game(s, *index, &g) < 0 || strcmp(g.id, id) != 0)
		return -ENOENT;
	return 0;
}
