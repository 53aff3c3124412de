/*
 * transcript.c - the per-game I/O log (contract in transcript.h).
 */
#include "transcript.h"

#include <errno.h>
#include <inttypes.h>

#include "termsafe.h"

static void on_line(void *ctx, const char *name, int seat, enum referee_dir dir,
		    const char *line, size_t len, int64_t at_us)
{
	struct transcript *t = ctx;

	(void)seat;
	if (!t->f)
		return;
	fprintf(t->f, "%.6f ", (double)(at_us - t->t0_us) / 1e6);
	termsafe_puts(t->f, name);
	fputs(dir == REFEREE_TO_BOT ? " <- " : " -> ", t->f);
	termsafe_write(t->f, line, len);
	fputc('\n', t->f);
}

static void on_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	struct transcript *t = ctx;

	(void)g;
	if (!t->f)
		return;
	fprintf(t->f, "%.6f # seat %d fault %s: ", (double)(clock_now_us() - t->t0_us) / 1e6,
		f->seat, protocol_fault_kind_names[f->kind]);
	termsafe_puts(t->f, f->reason);
	fputc('\n', t->f);
}

void transcript_init(struct transcript *t)
{
	*t = (struct transcript){ 0 };
	t->observer.ctx = t;
	t->observer.line = on_line;
	t->observer.fault = on_fault;
}

int transcript_open(struct transcript *t, const char *path)
{
	transcript_close(t);
	if (!(t->f = fopen(path, "w")))
		return -errno;
	t->own = 1;
	t->t0_us = clock_now_us();
	return 0;
}

void transcript_attach(struct transcript *t, FILE *f)
{
	transcript_close(t);
	t->f = f;
	t->own = 0;
	t->t0_us = clock_now_us();
}

void transcript_close(struct transcript *t)
{
	if (t->f && t->own)
		fclose(t->f);
	t->f = NULL;
	t->own = 0;
}
