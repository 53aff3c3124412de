/*
 * cmd_replay.c - `skipbo-arena replay [options] FILE...`: re-check replays,
 * print them (as events, or as the table turn by turn), or write their viewer
 * pages (--html).
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "durable.h"
#include "jsonw.h"
#include "options.h"
#include "render.h"
#include "replay.h"
#include "termsafe.h"
#include "replay_file.h"
#include "viewer.h"

static const char replay_usage[] =
	"usage: skipbo-arena replay [options] FILE...\n"
	"\n"
	"Re-check each replay file with the engine: the same deck from the seed, every\n"
	"move legal for the seat to move, the same events and the same result; and print\n"
	"the game turn by turn. Replay files are described in results/README.md.\n"
	"\n"
	"With --render, print the table at every turn instead, as \"play --render\" does;\n"
	"with --turn N or --move N, only the table at that position (as the seat to move\n"
	"sees it, with every discard pile) and, for --move, decision N itself.\n"
	"\n"
	"With --html, write for each file that re-checks a viewer page instead: one\n"
	"self-contained HTML file (nothing fetched, opens from the disk) that shows the\n"
	"table at every decision, to step through forward and back or play.\n"
	"\n"
	"options:\n"
	"  -q, --quiet   print only the verdict, one line per file\n"
	"  -r, --render  the table at every turn\n"
	"  --turn N      only the table at the start of turn N (implies --render)\n"
	"  --move N      only the table before decision N, and decision N\n"
	"  --game K      with --turn or --move: game K of a match (default 1)\n"
	"  --html        write viewer pages: FILE.json or FILE.json.zst gives\n"
	"                FILE.html beside it\n"
	"  -o OUT        with --html: the page's name for one FILE; for several, a\n"
	"                directory (made if missing) that gets NAME.html for each\n"
	"  -h, --help    this text\n"
	"\n"
	"Exit status: 0 every file re-checks (and its page is written), 1 a file\n"
	"differs (the first mismatch is named) or cannot be read or written, 2 bad usage.\n";

static const struct option replay_options[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "html", no_argument, NULL, 'H' },
	{ "render", no_argument, NULL, 'r' },
	{ "turn", required_argument, NULL, 'T' },
	{ "move", required_argument, NULL, 'M' },
	{ "game", required_argument, NULL, 'G' },
	{ "help", no_argument, NULL, 'h' },
	OPTIONS_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 },
};

/* Where the page of replay `in` goes: out itself for a single file, else
 * out/NAME.html, or beside in (NAME.json or NAME.json.zst -> NAME.html).
 * 0 or -ENAMETOOLONG. */
static int page_path(const char *in, const char *out, int several, char *path, size_t size)
{
	const char *base = strrchr(in, '/');
	size_t stem;
	int n;

	if (out && !several)
		return snprintf(path, size, "%s", out) < (int)size ? 0 : -ENAMETOOLONG;
	base = base ? base + 1 : in;
	stem = strlen(base);
	if (stem > 9 && strcmp(base + stem - 9, ".json.zst") == 0)
		stem -= 9;
	else if (stem > 5 && strcmp(base + stem - 5, ".json") == 0)
		stem -= 5;
	if (out)
		n = snprintf(path, size, "%s/%.*s.html", out, (int)stem, base);
	else
		n = snprintf(path, size, "%.*s%.*s.html", (int)(base - in), in, (int)stem, base);
	return n >= 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

static int write_page(const char *in, const char *text, size_t len, const char *out,
		      int several, struct jsonw *page)
{
	char path[4096];
	int ret;

	if ((ret = page_path(in, out, several, path, sizeof(path))) < 0 ||
	    (ret = viewer_format(page, text, len)) < 0 ||
	    (ret = durable_write(path, page->data, page->len)) < 0) {
		warnx("replay: \"%s\": cannot write its page \"%s\": %s", in, path, strerror(-ret));
		return 1;
	}
	printf("%s: ok, page %s\n", in, path);
	return 0;
}

/* What --render, --turn and --move show: an observer of the re-check (replay_walk). */
struct show {
	struct render rd;
	struct replay_seats seats;
	long long game, turn, move; /* --game K; --turn N or --move N (both 0: every turn) */
	int found, next;            /* the position was shown; its decision comes next */
	int games;                  /* games dealt so far */
	uint32_t turns, moves;      /* of game K, once it ended */
	struct referee_observer observer;
};

/* Whether g, in game `game`, is the position asked for and not yet shown. */
static int at_position(const struct show *s, int game, const struct game *g)
{
	struct game_result res;
	struct seat_view v;

	if (game != s->game || s->found || game_to_move(g) < 0)
		return 0;
	game_result(g, &res);
	if (s->move)
		return res.moves + 1 == s->move;
	game_view(g, game_to_move(g), &v);
	return v.turn == s->turn;
}

static void show_position(struct show *s, int game, const struct game *g)
{
	if (!at_position(s, game, g))
		return;
	printf("=== game %d, %s %lld\n", game, s->move ? "move" : "turn",
	       s->move ? s->move : s->turn);
	render_table(&s->rd, g);
	s->found = 1;
	s->next = s->move > 0;
}

static void show_game_start(void *ctx, int game, const struct game *g)
{
	struct show *s = ctx;

	s->games = game;
	show_position(s, game, g);
}

static void show_move(void *ctx, int seat, const struct move *m, int64_t us, const struct game *g)
{
	struct show *s = ctx;

	if (s->next) {
		render_move(&s->rd, seat, m, us);
		s->next = 0;
	}
	show_position(s, s->games, g);
}

/* A seat removed where decision N was due: its fault is what happened there. */
static void show_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	struct show *s = ctx;

	if (s->next) {
		printf("    seat %d (%s) removed: %s: ", f->seat, s->rd.names[f->seat], f->kind);
		termsafe_puts(stdout, f->reason);
		putchar('\n');
	}
	s->next = 0;
	show_position(s, s->games, g);
}

static void show_game_end(void *ctx, int game, const struct game *g)
{
	struct show *s = ctx;
	struct game_result res;

	if (game != s->game)
		return;
	game_result(g, &res);
	s->turns = res.turns;
	s->moves = res.moves;
}

/* Re-check text and show what s asks for. 0, or 1 after the message. */
static int render_replay(const char *file, const char *text, size_t len, struct show *s)
{
	const char *names[ENGINE_MAX_PLAYERS];
	char msg[512];

	for (int i = 0; i < ENGINE_MAX_PLAYERS; i++)
		names[i] = s->seats.names[i];
	/* the names are filled in as the header is read, before any callback */
	render_init(&s->rd, stdout, names, ENGINE_MAX_PLAYERS);
	s->found = s->next = s->games = 0;
	s->turns = s->moves = 0;
	s->observer = (struct referee_observer){ s, NULL, show_game_start, show_move, show_fault,
		show_game_end };
	if (replay_walk(text, len, NULL, s->turn || s->move ? &s->observer : &s->rd.observer,
			&s->seats, msg, sizeof(msg)) != 0) {
		warnx("replay: \"%s\": %s", file, msg);
		return 1;
	}
	if ((s->turn || s->move) && !s->found) {
		if (s->games < s->game)
			warnx("replay: \"%s\": no game %lld: it holds %d", file, s->game, s->games);
		else
			warnx("replay: \"%s\": game %lld has no %s %lld: it has %" PRIu32 " %s", file,
			      s->game, s->move ? "move" : "turn", s->move ? s->move : s->turn,
			      s->move ? s->moves : s->turns, s->move ? "decisions" : "turns");
		return 1;
	}
	printf("%s: ok\n", file);
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	struct show show = { 0 };
	int c, quiet = 0, html = 0, render = 0, status = 0, several;
	const char *out = NULL;
	struct jsonw page;

	optind = 1;
	while ((c = getopt_long(argc, argv, "qro:h", replay_options, NULL)) != -1) {
		switch (c) {
		case 'r':
			render = 1;
			break;
		case 'T':
			if (options_number("--turn", optarg, 1, INT32_MAX, &show.turn) < 0)
				return 2;
			render = 1;
			break;
		case 'M':
			if (options_number("--move", optarg, 1, INT32_MAX, &show.move) < 0)
				return 2;
			render = 1;
			break;
		case 'G':
			if (options_number("--game", optarg, 1, INT32_MAX, &show.game) < 0)
				return 2;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'H':
			html = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(replay_usage, stdout);
			return 0;
		case OPTIONS_VERSION:
			return options_print_version();
		default:
			fputs(replay_usage, stderr);
			return 2;
		}
	}
	if (optind == argc) {
		warnx("replay: expected at least one replay file");
		return 2;
	}
	if (out && !html) {
		warnx("replay: -o \"%s\": -o names the pages of --html", out);
		return 2;
	}
	if (show.game && !show.turn && !show.move) {
		warnx("replay: --game %lld: names the game of --turn N or --move N", show.game);
		return 2;
	}
	show.game = show.game ? show.game : 1;
	if (show.turn && show.move) {
		warnx("replay: --turn and --move: one position at a time");
		return 2;
	}
	if (render && (html || quiet)) {
		warnx("replay: %s prints the table; it does not go with %s",
		      show.turn ? "--turn" : show.move ? "--move" : "--render", html ? "--html" : "--quiet");
		return 2;
	}
	several = argc - optind > 1;
	if (out && several && options_make_dirs("replay: -o", out) < 0)
		return 1;
	jsonw_init(&page);
	for (int i = optind; i < argc; i++) {
		char msg[512];
		size_t len;
		char *text = replay_read_file(argv[i], &len);
		int ret;

		if (!text) {
			warn("replay: \"%s\"", argv[i]);
			status = 1;
			continue;
		}
		if (render) {
			status |= render_replay(argv[i], text, len, &show);
			free(text);
			continue;
		}
		ret = replay_check(text, len, quiet || html ? NULL : stdout, msg, sizeof(msg));
		if (ret != 0) {
			warnx("replay: \"%s\": %s", argv[i], msg);
			status = 1;
		} else if (html) {
			status |= write_page(argv[i], text, len, out, several, &page);
		} else {
			printf("%s: ok\n", argv[i]);
		}
		free(text);
	}
	jsonw_release(&page);
	return status;
}
