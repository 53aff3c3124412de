/*
 * progress.c - the live progress line (contract in progress.h).
 */
#include "progress.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"

struct progress {
	FILE *out;
	int quiet, tty;
	uint64_t total, done, done_at_start;
	int64_t start_us, last_us;
	const char *const *names;
	size_t nbots;
	double *points;
	uint64_t *games;
	size_t width; /* of the last live line, to blank it */
};

struct progress *progress_new(FILE *out, int quiet, uint64_t total, uint64_t done,
			      const char *const *names, size_t nbots)
{
	struct progress *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->points = calloc(nbots ? nbots : 1, sizeof(*p->points));
	p->games = calloc(nbots ? nbots : 1, sizeof(*p->games));
	if (!p->points || !p->games) {
		progress_free(p);
		return NULL;
	}
	p->out = out;
	p->quiet = quiet;
	p->tty = isatty(fileno(out));
	p->total = total;
	p->done = p->done_at_start = done;
	p->start_us = p->last_us = clock_now_us();
	p->names = names;
	p->nbots = nbots;
	return p;
}

void progress_game(struct progress *p, const int *bots, const int *placings, int players,
		   int counted_now)
{
	for (int s = 0; s < players && players >= 2; s++) {
		/* whatever a record held, no sum below can overflow or divide by 0 */
		if (bots[s] < 0 || (size_t)bots[s] >= p->nbots || placings[s] < 1 ||
		    placings[s] > players)
			continue;
		p->points[bots[s]] += (double)(players - placings[s]) / (players - 1);
		p->games[bots[s]]++;
	}
	p->done++;
	if (!counted_now)
		p->done_at_start++;
}

static void draw(struct progress *p, int final)
{
	int64_t now = clock_now_us();
	double secs = (double)(now - p->start_us) / 1e6;
	uint64_t played = p->done - p->done_at_start;
	double rate = secs > 0 ? (double)played / secs : 0;
	char line[256], eta[32] = "-", leader[96] = "-";
	size_t best = 0;
	int n;

	for (size_t i = 1; i < p->nbots; i++)
		if (p->points[i] > p->points[best])
			best = i;
	if (p->nbots && p->games[best])
		snprintf(leader, sizeof(leader), "%s %.1f/%llu", p->names[best], p->points[best],
			 (unsigned long long)p->games[best]);
	if (rate > 0 && !final && p->total >= p->done) {
		double left = (double)(p->total - p->done) / rate;

		/* the casts stay in range: a rate from a few games can promise years */
		if (left < 1e8)
			snprintf(eta, sizeof(eta), "%dm%02ds", (int)(left / 60), (int)left % 60);
		else
			snprintf(eta, sizeof(eta), "years");
	}
	if (final)
		n = snprintf(line, sizeof(line), "games %llu/%llu  %.1f games/s  %.1f s  leader: %s",
			     (unsigned long long)p->done, (unsigned long long)p->total, rate, secs,
			     leader);
	else
		n = snprintf(line, sizeof(line), "games %llu/%llu  %.1f games/s  eta %s  leader: %s",
			     (unsigned long long)p->done, (unsigned long long)p->total, rate, eta,
			     leader);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	if (p->tty) {
		fprintf(p->out, "\r%s", line);
		for (size_t i = (size_t)n; i < p->width; i++)
			fputc(' ', p->out);
		p->width = (size_t)n;
		if (final)
			fputc('\n', p->out);
	} else {
		fprintf(p->out, "%s\n", line);
	}
	fflush(p->out);
	p->last_us = now;
}

void progress_tick(struct progress *p)
{
	int64_t every = p->tty ? 200000 : (int64_t)PROGRESS_PLAIN_SECONDS * 1000000;

	if (!p->quiet && clock_now_us() - p->last_us >= every)
		draw(p, 0);
}

void progress_break(struct progress *p)
{
	if (p->tty && p->width) {
		fputc('\n', p->out);
		p->width = 0;
	}
}

void progress_finish(struct progress *p)
{
	if (!p->quiet)
		draw(p, 1);
}

void progress_free(struct progress *p)
{
	if (!p)
		return;
	free(p->points);
	free(p->games);
	free(p);
}
