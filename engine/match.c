/*
 * match.c - R9: games added up until a side reaches 500 points, the dealer
 * moving one seat left after each game.
 */
#include <string.h>

#include "engine.h"

uint64_t match_game_seed(uint64_t match_seed, int k)
{
	uint64_t state = match_seed + (uint64_t)k * 0x9e3779b97f4a7c15ULL;

	return rng_splitmix64(&state);
}

int match_init(struct match_state *m, const struct game_rules *rules, char *reason, size_t reason_size)
{
	struct game_rules r = *rules;
	int rc = game_rules_check(&r, reason, reason_size);

	if (rc < 0)
		return rc;
	memset(m, 0, sizeof(*m));
	m->seed = r.seed;
	m->rules = r;
	m->rules.seed = match_game_seed(m->seed, 0);
	m->winner = -1;
	return ENGINE_OK;
}

int match_record(struct match_state *m, const struct game_result *r)
{
	int n = m->rules.players;
	int best = -1;

	if (m->over)
		return ENGINE_EMATCHOVER;
	if (r->status == GAME_RUNNING)
		return ENGINE_ERUNNING;
	for (int s = 0; s < n; s++) {
		int add = r->score[s];

		/* R8/R10: a team scores once; both partners carry the team's total,
		 * even when one of them was removed and scored nothing itself. */
		if (m->rules.partnership) {
			int p = (s + n / 2) % n;

			if (r->score[p] > add)
				add = r->score[p];
		}
		m->total[s] += add;
	}
	m->games++;
	for (int s = 0; s < n; s++)
		if (m->total[s] >= MATCH_TARGET && (best < 0 || m->total[s] > m->total[best]))
			best = s;
	if (best >= 0) {
		m->over = 1;
		m->winner = best;
	}
	m->rules.dealer = (m->rules.dealer + 1) % n;
	m->rules.seed = match_game_seed(m->seed, m->games);
	return ENGINE_OK;
}
