/*
 * referee_setup.c - what the referee's callers share around a game (contract in
 * referee.h): the setup a game starts from (R3's dealer), the id the bots are
 * told, the move-time statistics of an outcome, and its release.
 */
#include "referee.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sha2.h>

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

void referee_time_stats(uint32_t *us, size_t n, struct referee_time_stats *out)
{
	double sum = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	qsort(us, n, sizeof(*us), compare_u32);
	for (size_t i = 0; i < n; i++)
		sum += us[i];
	out->moves = (uint32_t)n;
	out->mean_us = sum / (double)n;
	/* nearest rank: the smallest value with at least p of the times at or below it */
	out->median_us = us[(n + 1) / 2 - 1];
	out->p99_us = us[(n * 99 + 99) / 100 - 1];
	out->max_us = us[n - 1];
}

void referee_cpu_stats(const uint32_t *cpu_us, size_t n, struct referee_time_stats *out)
{
	double sum = 0;

	out->cpu_mean_us = 0;
	out->cpu_max_us = 0;
	for (size_t i = 0; i < n; i++) {
		sum += cpu_us[i];
		if (cpu_us[i] > out->cpu_max_us)
			out->cpu_max_us = cpu_us[i];
	}
	if (n)
		out->cpu_mean_us = sum / (double)n;
}

int referee_dealer(int players)
{
	return players - 1;
}

void referee_setup_init(struct referee_setup *s, const char *id, const struct game_rules *rules,
			int move_ms, int game_ms)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->rules = *rules;
	s->rules.dealer = referee_dealer(rules->players);
	s->move_ms = move_ms;
	s->game_ms = game_ms;
}

void referee_outcome_release(struct referee_outcome *out)
{
	for (int i = 0; out->log && i < out->games; i++) {
		free(out->log[i].events);
		free(out->log[i].move_us);
		free(out->log[i].move_cpu_us);
		for (size_t k = 0; out->log[i].move_stderr && k < out->log[i].nmoves; k++)
			free(out->log[i].move_stderr[k]);
		free(out->log[i].move_stderr);
	}
	free(out->log);
	free(out->faults);
	memset(out, 0, sizeof(*out));
}

void referee_opaque_id(uint64_t key, const char *id, char out[REFEREE_OPAQUE_ID_SIZE])
{
	static const char domain[] = "skipbo-arena game id";
	uint8_t k[8], digest[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;

	for (int i = 0; i < 8; i++)
		k[i] = (uint8_t)(key >> (8 * i));
	SHA256Init(&ctx);
	SHA256Update(&ctx, k, sizeof(k));
	SHA256Update(&ctx, (const uint8_t *)domain, sizeof(domain));
	SHA256Update(&ctx, (const uint8_t *)id, strlen(id));
	SHA256Final(digest, &ctx);
	out[0] = 'g';
	for (int i = 0; i < 8; i++)
		snprintf(out + 1 + 2 * i, 3, "%02x", digest[i]);
}
