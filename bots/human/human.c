/*
 * skipbo-human - a person at a terminal plays as a bot.
 *
 * The arena runs this program like any bot: its stdin and stdout are the
 * arena's pipes. So it talks to the person through the terminal itself,
 * /dev/tty, or the path in the SKIPBO_TTY environment variable (a pty in
 * tests); SKIPBO_TTY_OUT, when set, names a separate path for the output
 * (a pair of FIFOs, for example). Play with:
 *
 *     skipbo-arena play --no-timeout skipbo-human skipbo-medium
 *
 * The arena starts each bot in its own process group, which is not the
 * terminal's foreground group: reading the terminal from there would stop
 * the process (SIGTTIN). So while it waits for the person's answer the player
 * makes its group the foreground one, and gives the terminal back after.
 */
#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "botloop.h"
#include "render.h"
#include "table.h"

struct human {
	FILE *in, *out;
	struct render_game game;
	int lost; /* the terminal closed: play on with a safe move */
};

/* Make this process group the terminal's foreground group; returns the one
 * to give it back to, or -1 when there is nothing to do (not a terminal). */
static pid_t take_terminal(FILE *tty)
{
	int fd = fileno(tty);
	if (!isatty(fd))
		return -1;
	pid_t was = tcgetpgrp(fd);
	if (was < 0 || was == getpgrp() || tcsetpgrp(fd, getpgrp()) < 0)
		return -1;
	return was;
}

static void give_back_terminal(FILE *tty, pid_t was)
{
	if (was > 0)
		tcsetpgrp(fileno(tty), was);
}

static void human_game_start(void *ctx, const struct protocol_game_start *gs)
{
	struct human *h = ctx;
	strlcpy(h->game.game, gs->game, sizeof(h->game.game));
	h->game.players = gs->players;
	for (int s = 0; s < gs->players && s < ENGINE_MAX_PLAYERS; s++)
		strlcpy(h->game.names[s], gs->names[s], sizeof(h->game.names[s]));
	fprintf(h->out, "\n*** New game %s: you are seat %d of %d", gs->game, gs->seat, gs->players);
	if (gs->partnership)
		fprintf(h->out, ", partner: %s (seat %d)", gs->names[gs->partner], gs->partner);
	fprintf(h->out, ". Stock %d cards each. ***\n", gs->stock_size);
	fflush(h->out);
}

static int human_choose(void *ctx, const struct protocol_request *req)
{
	struct human *h = ctx;
	char line[256], why[160];

	if (h->lost)
		return table_fallback(req->legal, req->n_legal);
	render_request(h->out, req, &h->game);
	pid_t was = take_terminal(h->in);
	int i = -1;
	while (i < 0) {
		fprintf(h->out, "Choose a move [1-%d]: ", req->n_legal);
		fflush(h->out);
		if (!fgets(line, sizeof(line), h->in)) {
			fprintf(stderr, "human: the terminal closed; playing safe moves from now on\n");
			h->lost = 1;
			i = table_fallback(req->legal, req->n_legal);
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		i = render_parse_choice(line, req->n_legal, why, sizeof(why));
		if (i < 0)
			fprintf(h->out, "Sorry: %s.\n", why);
	}
	give_back_terminal(h->in, was);
	return i;
}

static void human_game_end(void *ctx, const struct protocol_game_end *ge)
{
	struct human *h = ctx;
	const struct game_result *r = &ge->result;
	fprintf(h->out, "\n*** Game %s over (%s): ", ge->game, end_reason_name(r->reason));
	int any = 0;
	for (int s = 0; s < ge->players && s < ENGINE_MAX_PLAYERS; s++)
		if (r->winners[s]) {
			fprintf(h->out, "%s%s", any ? " and " : "", h->game.names[s][0] ? h->game.names[s] : "?");
			any = 1;
		}
	fprintf(h->out, "%s ***\n", any ? " won" : "nobody won");
	for (int s = 0; s < ge->players && s < ENGINE_MAX_PLAYERS; s++)
		fprintf(h->out, "    %-16.16s placing %d, %d stock cards left, %d points\n", h->game.names[s],
			r->placing[s], r->stock_left[s], r->score[s]);
	fflush(h->out);
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: skipbo-human (run by skipbo-arena; talks to the person on /dev/tty,\n"
				"       or on $SKIPBO_TTY, with output on $SKIPBO_TTY_OUT if set)\n");
		return 2;
	}
	/* Changing the terminal's foreground group from the background raises
	 * SIGTTOU; the player does it on purpose. */
	signal(SIGTTOU, SIG_IGN);
	const char *in_path = getenv("SKIPBO_TTY");
	if (!in_path || !*in_path)
		in_path = "/dev/tty";
	const char *out_path = getenv("SKIPBO_TTY_OUT");
	if (!out_path || !*out_path)
		out_path = in_path;
	/* Two streams: stdio forbids switching one stream between reading and
	 * writing without a seek, which a terminal cannot do. */
	struct human h = { .in = fopen(in_path, "r") };
	if (!h.in)
		err(1, "cannot open the terminal '%s'", in_path);
	h.out = fopen(out_path, "w");
	if (!h.out)
		err(1, "cannot open the terminal '%s'", out_path);
	const struct botloop_policy policy = {
		.name = "human", .version = "1.0", .ctx = &h,
		.game_start = human_game_start, .choose = human_choose, .game_end = human_game_end,
	};
	int rc = botloop_run(&policy, stdin, stdout);
	fclose(h.out);
	fclose(h.in);
	if (rc < 0)
		errx(1, "lost the arena");
	return 0;
}
