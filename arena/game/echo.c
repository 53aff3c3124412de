/*
 * echo.c - the bots' stderr on the terminal (contract in echo.h).
 */
#include "echo.h"

#include <string.h>

#include "termsafe.h"

static struct echo_bot *find_bot(struct echo *e, const char *name)
{
	for (int i = 0; i < e->nbots; i++)
		if (e->bots[i].name == name)
			return &e->bots[i];
	if (e->nbots == (int)(sizeof(e->bots) / sizeof(e->bots[0])))
		return NULL;
	e->bots[e->nbots] = (struct echo_bot){ name, 0, 0 };
	return &e->bots[e->nbots++];
}

static void label(struct echo *e, const char *name, int seat)
{
	fputc('[', e->out);
	termsafe_puts(e->out, name);
	if (seat >= 0)
		fprintf(e->out, " seat %d", seat);
	fputs("] ", e->out);
}

static void on_stderr_line(void *ctx, const char *name, int seat, const char *line, size_t len)
{
	struct echo *e = ctx;
	struct echo_bot *b = find_bot(e, name);

	if (b && b->shown + len + 1 > ECHO_GAME_CAP) {
		b->left_out += len + 1;
		return;
	}
	if (b)
		b->shown += len + 1;
	fflush(stdout);
	label(e, name, seat);
	termsafe_write(e->out, line, len);
	fputc('\n', e->out);
}

static void on_game_end(void *ctx, int game, const struct game *g)
{
	struct echo *e = ctx;

	(void)game;
	(void)g;
	for (int i = 0; i < e->nbots; i++) {
		struct echo_bot *b = &e->bots[i];

		if (b->left_out) {
			fflush(stdout);
			label(e, b->name, -1);
			fprintf(e->out, "%zu bytes of stderr not shown: more than %d in one game "
				"(--stderr DIR keeps them)\n", b->left_out, ECHO_GAME_CAP);
		}
		b->shown = b->left_out = 0;
	}
}

void echo_init(struct echo *e, FILE *out)
{
	memset(e, 0, sizeof(*e));
	e->out = out;
	e->observer = (struct referee_observer){ .ctx = e, .game_end = on_game_end,
		.stderr_line = on_stderr_line };
}
