/*
 * skipbo-human - a person at a terminal plays as a bot.
 *
 * The arena runs this program like any bot: its stdin and stdout are the
 * arena's pipes. So it talks to the person through the terminal itself,
 * /dev/tty, or the path in the SKIPBO_TTY environment variable (a pty in
 * tests); SKIPBO_TTY_OUT, when set, names a separate path for the output
 * (a pair of FIFOs, for example). Play with:
 *
 *     skipbo-arena play --no-timeout --sandbox off skipbo-human skipbo-medium
 *
 * (a bot's sandbox has no terminal). Each request redraws the board at the
 * top of the screen and asks for a short command (render.h); "q" resigns
 * after a confirmation, and so does the end of input: the player exits, and
 * the arena removes its seat (R11).
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

struct human {
	FILE *in, *out;
	struct render_game game;
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
	h->game.seat = gs->seat;
	for (int s = 0; s < gs->players && s < ENGINE_MAX_PLAYERS; s++) {
		strlcpy(h->game.names[s], gs->names[s], sizeof(h->game.names[s]));
		h->game.stock_seen[s] = gs->stock_size;
	}
	fprintf(h->out, "\nNew game %s: you are seat %d of %d", gs->game, gs->seat, gs->players);
	if (gs->partnership)
		fprintf(h->out, ", partner %s (seat %d)", gs->names[gs->partner], gs->partner);
	fprintf(h->out, ", stock %d cards each.\n", gs->stock_size);
	fflush(h->out);
}

/* Leave the game: the arena sees the player exit and removes the seat
 * (R11), which is what resigning means at this table. */
static _Noreturn void resign(struct human *h, const char *why)
{
	fprintf(h->out, "\n%s\n", why);
	fflush(h->out);
	exit(0);
}

/* Read one line from the person; 0 at the end of input. */
static int ask(struct human *h, const char *prompt, char *line, size_t size)
{
	fprintf(h->out, "%s", prompt);
	fflush(h->out);
	if (!fgets(line, (int)size, h->in))
		return 0;
	line[strcspn(line, "\r\n")] = '\0';
	return 1;
}

/* What the prompt shows under the board besides the question. */
enum note { NOTE_NONE, NOTE_HELP, NOTE_LIST, NOTE_WHY };

static int human_choose(void *ctx, const struct protocol_request *req)
{
	struct human *h = ctx;
	char line[256], why[160];
	enum note note = NOTE_NONE;

	pid_t was = take_terminal(h->in);
	int i = -1;
	while (i < 0) {
		/* The whole board again each time, so that it never scrolls away. */
		render_request(h->out, req, &h->game);
		if (note == NOTE_HELP)
			render_help(h->out, &req->view);
		else if (note == NOTE_LIST)
			render_list(h->out, req);
		else if (note == NOTE_WHY)
			fprintf(h->out, "Not played: %s.\n", why);
		if (!ask(h, "Your move (? help, l list): ", line, sizeof(line)))
			resign(h, "End of input: you resign this game.");
		const char *t = line + strspn(line, " \t");
		note = NOTE_NONE;
		if (!strcmp(t, "?") || !strcmp(t, "help")) {
			note = NOTE_HELP;
		} else if (!strcmp(t, "l")) {
			note = NOTE_LIST;
		} else if (!strcmp(t, "q")) {
			if (!ask(h, "Resign this game? (y/n) ", line, sizeof(line)))
				resign(h, "End of input: you resign this game.");
			if (line[0] == 'y' || line[0] == 'Y')
				resign(h, "You resigned this game.");
		} else {
			i = render_parse_command(t, req, why, sizeof(why));
			note = NOTE_WHY;
		}
	}
	give_back_terminal(h->in, was);
	return i;
}

static void human_game_end(void *ctx, const struct protocol_game_end *ge)
{
	struct human *h = ctx;
	render_game_end(h->out, ge, &h->game);
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
