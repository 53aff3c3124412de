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
#include <limits.h>
#include <sys/stat.h>

#include "commands.h"
#include "durable.h"
#include "jsonw.h"
#include "options.h"
#include "render.h"
#include "replay.h"
#include "replay_find.h"
#include "termsafe.h"
#include "replay_file.h"
#include "viewer.h"

static const char replay_usage[] =
	"usage: skipbo-arena replay [options] FILE|PACK|DIR...\n"
	"\n"
	"Re-check replays with the engine: the same deck from the seed, every move legal\n"
	"for the seat to move, the same events and the same result; and print each game\n"
	"turn by turn. Each argument is a replay file (one game, plain JSON or\n"
	"zstd-compressed), a pack of a tournament (replays/HEX.jsonl.zst: every game in\n"
	"it in turn, each named by its id), or a tournament's directory DIR (the replay\n"
	"of every game its games.jsonl records, found through the record). Replays are\n"
	"described in results/README.md.\n"
	"\n"
	"With --render, print the table at every turn instead, as \"play --render\" does;\n"
	"with --turn N or --move N, only the table at that position (as the seat to move\n"
	"sees it, with every discard pile) and, for --move, decision N itself. These\n"
	"take one game from each argument: name it with --id in a pack or a DIR.\n"
	"\n"
	"With --html, write for each game that re-checks a viewer page instead: one\n"
	"self-contained HTML file (nothing fetched, opens from the disk) that shows the\n"
	"table at every decision, to step through forward and back or play.\n"
	"\n"
	"options:\n"
	"  --id ID       only game ID of a pack or a DIR (repeat for several); an ID\n"
	"                that none of the arguments holds is an error\n"
	"  -q, --quiet   print only the verdict, one line per game\n"
	"  -r, --render  the table at every turn\n"
	"  --turn N      only the table at the start of turn N (implies --render)\n"
	"  --move N      only the table before decision N, and decision N\n"
	"  --game K      with --turn or --move: game K of a match (default 1)\n"
	"  --html        write viewer pages: FILE.json or FILE.json.zst gives\n"
	"                FILE.html beside it; a game of a pack or of DIR gives ID.html\n"
	"                in the pack's directory (DIR/replays/ID.html, where the\n"
	"                report's game list links to it)\n"
	"  -o OUT        with --html: the page's name for one game; for several, a\n"
	"                directory (made if missing) that gets NAME.html or ID.html\n"
	"                for each\n"
	"  -h, --help    this text\n"
	"\n"
	"Exit status: 0 every game re-checks (and its page is written), 1 a game differs\n"
	"(the first mismatch is named), cannot be read or written, or an --id is not\n"
	"there, 2 bad usage.\n";

static const struct option replay_options[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "html", no_argument, NULL, 'H' },
	{ "render", no_argument, NULL, 'r' },
	{ "turn", required_argument, NULL, 'T' },
	{ "move", required_argument, NULL, 'M' },
	{ "game", required_argument, NULL, 'G' },
	{ "id", required_argument, NULL, 'I' },
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
	render_legend(stdout);
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
		printf("    seat %d (%s) removed: %s: ", f->seat, s->rd.names[f->seat],
		       protocol_fault_kind_names[f->kind]);
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

/* One game's replay: its source, named as messages name it. */
struct doc {
	const char *source;  /* the argument: file, pack or DIR */
	const char *id;      /* the game, named in messages; NULL for a file of one game */
	int in_dir;          /* source is a tournament directory */
	char said[PATH_MAX + 160];   /* "FILE" or "FILE, game ID" for a verdict */
	char quoted[PATH_MAX + 160]; /* the same with the file quoted, for a warning */
};

static void doc_name(struct doc *d, const char *source, const char *id, int in_dir)
{
	d->source = source;
	d->id = id;
	d->in_dir = in_dir;
	snprintf(d->said, sizeof(d->said), "%s%s%s", source, id ? ", game " : "", id ? id : "");
	snprintf(d->quoted, sizeof(d->quoted), "\"%s\"%s%s", source, id ? ", game " : "",
		 id ? id : "");
}

/* Re-check text and show what s asks for. 0, or 1 after the message. */
static int render_replay(const struct doc *d, const char *text, size_t len, struct show *s)
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
		warnx("replay: %s: %s", d->quoted, msg);
		return 1;
	}
	if ((s->turn || s->move) && !s->found) {
		if (s->games < s->game)
			warnx("replay: %s: no game %lld: it holds %d", d->quoted, s->game, s->games);
		else
			warnx("replay: %s: game %lld has no %s %lld: it has %" PRIu32 " %s", d->quoted,
			      s->game, s->move ? "move" : "turn", s->move ? s->move : s->turn,
			      s->move ? s->moves : s->turns, s->move ? "decisions" : "turns");
		return 1;
	}
	printf("%s: ok\n", d->said);
	return 0;
}

/* What the command was asked, and how it went. */
struct run {
	struct show show;
	int quiet, html, render, status;
	int many_args, several; /* several arguments; several pages from this one */
	const char *out;
	const char **ids;   /* --id, nids of them; found[k] once ID k was there */
	size_t nids;
	int *found;
	struct jsonw page;
};

/* A failure: exit status 1 unless bad usage made it 2. */
static void failed(struct run *r)
{
	if (!r->status)
		r->status = 1;
}

/* Whether game id is selected (every game when no --id is given); marks it found. */
static int selected(struct run *r, const char *id)
{
	int any = 0;

	if (!r->nids)
		return 1;
	for (size_t k = 0; id && k < r->nids; k++)
		if (strcmp(r->ids[k], id) == 0)
			any = r->found[k] = 1;
	return any;
}

/* Where the page of d goes (see the usage). 0 or a negative errno. */
static int doc_page_path(const struct run *r, const struct doc *d, char *path, size_t size)
{
	const char *slash = strrchr(d->source, '/');
	char pages[PATH_MAX];

	if (!d->id || (r->out && !r->several))
		return page_path(d->source, r->out, r->several, path, size);
	if (r->out)
		snprintf(pages, sizeof(pages), "%s", r->out);
	else if (d->in_dir)
		snprintf(pages, sizeof(pages), "%s/replays", d->source);
	else /* beside the pack: in a tournament, DIR/replays */
		snprintf(pages, sizeof(pages), "%.*s", slash ? (int)(slash - d->source) : 1,
			 slash ? d->source : ".");
	return replay_page_path(pages, d->id, path, size);
}

/* Re-check one game's replay and do what r asks with it; r->status 1 when it fails. */
static void one_replay(struct run *r, const struct doc *d, const char *text, size_t len)
{
	char msg[1024], path[PATH_MAX];
	int ret;

	if (r->render) {
		if (render_replay(d, text, len, &r->show))
			failed(r);
	} else if (r->html) {
		if ((ret = doc_page_path(r, d, path, sizeof(path))) < 0) {
			warnx("replay: %s: no name for its page: %s", d->quoted, strerror(-ret));
			failed(r);
		} else if (r->several && r->out && options_make_dirs("replay: -o", r->out) < 0) {
			failed(r);
		} else if (viewer_write_page(d->quoted, text, len, path, &r->page, msg,
					     sizeof(msg)) < 0) {
			warnx("replay: %s", msg);
			failed(r);
		} else {
			printf("%s: ok, page %s\n", d->said, path);
		}
	} else if (replay_check(text, len, r->quiet ? NULL : stdout, msg, sizeof(msg)) != 0) {
		warnx("replay: %s: %s", d->quoted, msg);
		failed(r);
	} else {
		printf("%s: ok\n", d->said);
	}
}

/* --render and its kind show one game of an argument: more is bad usage, naming --id. */
static int one_selected(struct run *r, const char *source, size_t n)
{
	r->several = r->many_args || n > 1;
	if (!r->render || n <= 1)
		return 0;
	r->status = 2;
	warnx("replay: \"%s\" holds %zu games: %s shows one, named with --id", source, n,
	      r->show.turn ? "--turn" : r->show.move ? "--move" : "--render");
	return -1;
}

/* A replay file or a pack: its documents, each named by its game id when it holds several. */
static void replay_file(struct run *r, const char *path)
{
	size_t len, pos = 0, doc_len, n = 0, pack;
	char id[128];
	const char *doc;
	struct doc d;
	uint64_t whole;
	struct stat st;
	char *text = replay_read_pack(path, &len, &whole);

	if (!text) {
		warnx("replay: \"%s\": %s", path, errno == EBADMSG ?
		      "a damaged or cut-off zstd frame" : strerror(errno));
		failed(r);
		return;
	}
	/* a crash's cut-off tail: said, and the games before it still checked */
	if (stat(path, &st) == 0 && whole < (uint64_t)st.st_size) {
		warnx("replay: \"%s\": damaged or cut off from byte %" PRIu64 " (of %lld); the "
		      "games before it are checked", path, whole, (long long)st.st_size);
		failed(r);
	}
	while ((doc = replay_next_document(text, len, &pos, &doc_len)))
		n++;
	pack = n > 1 || (strlen(path) > 10 && strcmp(path + strlen(path) - 10, ".jsonl.zst") == 0);
	if (!pack && !r->nids) {
		/* one game: the whole text, as it is, so that a damaged one is reported as a whole */
		r->several = r->many_args;
		doc_name(&d, path, NULL, 0);
		one_replay(r, &d, text, len);
		free(text);
		return;
	}
	/* how many --id selects matters only to --render and -o: else no parse for it */
	if (r->nids && (r->render || r->out)) {
		n = 0;
		for (pos = 0; (doc = replay_next_document(text, len, &pos, &doc_len));)
			n += selected(r, replay_document_id(doc, doc_len, id, sizeof(id)) == 0 ?
				      id : NULL);
	}
	if (one_selected(r, path, n) < 0) {
		free(text);
		return;
	}
	for (pos = 0, n = 0; (doc = replay_next_document(text, len, &pos, &doc_len));) {
		int named = replay_document_id(doc, doc_len, id, sizeof(id)) == 0;

		n++;
		if (!named && r->nids)
			continue;
		if (!selected(r, named ? id : NULL))
			continue;
		if (!named)
			snprintf(id, sizeof(id), "#%zu (no id)", n);
		doc_name(&d, path, id, 0);
		one_replay(r, &d, doc, doc_len);
	}
	free(text);
}

struct dir_run {
	struct run *r;
	const char *dir;
	size_t n;   /* games selected */
	struct replay_reader rd; /* the frame read last */
};

static int count_game(void *ctx, const struct replay_ref *ref)
{
	struct dir_run *x = ctx;

	x->n += selected(x->r, ref->id);
	return 0;
}

static int replay_game(void *ctx, const struct replay_ref *ref)
{
	struct dir_run *x = ctx;
	char err[PATH_MAX + 512];
	struct doc d;
	size_t len;
	char *text;

	if (!selected(x->r, ref->id))
		return 0;
	doc_name(&d, x->dir, ref->id, 1);
	if (!(text = replay_ref_read(ref, &x->rd, &len, err, sizeof(err)))) {
		warnx("replay: %s", err);
		failed(x->r);
		return 0;
	}
	one_replay(x->r, &d, text, len);
	free(text);
	return 0;
}

/* A tournament directory: the replay of every selected game, through its record. */
static void replay_dir(struct run *r, const char *dir)
{
	struct dir_run x = { r, dir, 0, { 0 } };
	char err[PATH_MAX + 512];

	/* how many are selected matters only to --render and -o: else games.jsonl is read once */
	if (r->render || r->out) {
		if (replay_each(dir, count_game, &x, err, sizeof(err)) < 0) {
			warnx("replay: %s", err);
			failed(r);
			return;
		}
		if (one_selected(r, dir, x.n) < 0)
			return;
	}
	replay_reader_init(&x.rd);
	if (replay_each(dir, replay_game, &x, err, sizeof(err)) < 0) {
		warnx("replay: %s", err);
		failed(r);
	}
	replay_reader_release(&x.rd);
}

/* Every --id that no argument held, named with the reason each DIR gives. */
static void missing_ids(struct run *r, char **inputs, int ninputs)
{
	char err[PATH_MAX + 512];
	struct stat st;
	size_t len;
	int code;

	for (size_t k = 0; k < r->nids; k++) {
		if (r->found[k])
			continue;
		failed(r);
		for (int i = 0; i < ninputs; i++) {
			if (stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
				free(replay_find(inputs[i], r->ids[k], &len, &code, err, sizeof(err)));
				warnx("replay: --id %s: %s", r->ids[k], err);
			} else {
				warnx("replay: --id %s: no game %s in \"%s\"", r->ids[k], r->ids[k],
				      inputs[i]);
			}
		}
	}
}

int cmd_replay(int argc, char **argv)
{
	struct run r = { 0 };
	struct stat st;
	int c;

	optind = 1;
	r.ids = calloc((size_t)argc, sizeof(*r.ids));
	r.found = calloc((size_t)argc, sizeof(*r.found));
	if (!r.ids || !r.found) {
		warnx("replay: out of memory");
		r.status = 1;
		goto out;
	}
	r.status = 2;
	while ((c = getopt_long(argc, argv, "qro:h", replay_options, NULL)) != -1) {
		switch (c) {
		case 'r':
			r.render = 1;
			break;
		case 'T':
			if (options_number("--turn", optarg, 1, INT32_MAX, &r.show.turn) < 0)
				goto out;
			r.render = 1;
			break;
		case 'M':
			if (options_number("--move", optarg, 1, INT32_MAX, &r.show.move) < 0)
				goto out;
			r.render = 1;
			break;
		case 'G':
			if (options_number("--game", optarg, 1, INT32_MAX, &r.show.game) < 0)
				goto out;
			break;
		case 'I':
			r.ids[r.nids++] = optarg;
			break;
		case 'q':
			r.quiet = 1;
			break;
		case 'H':
			r.html = 1;
			break;
		case 'o':
			r.out = optarg;
			break;
		case 'h':
			fputs(replay_usage, stdout);
			r.status = 0;
			goto out;
		case OPTIONS_VERSION:
			r.status = options_print_version();
			goto out;
		default:
			options_bad_usage(replay_usage, replay_options, argv);
			goto out;
		}
	}
	if (optind == argc) {
		warnx("replay: expected at least one replay file, pack or tournament directory");
		goto out;
	}
	if (r.out && !r.html) {
		warnx("replay: -o \"%s\": -o names the pages of --html", r.out);
		goto out;
	}
	if (r.show.game && !r.show.turn && !r.show.move) {
		warnx("replay: --game %lld: names the game of --turn N or --move N", r.show.game);
		goto out;
	}
	r.show.game = r.show.game ? r.show.game : 1;
	if (r.show.turn && r.show.move) {
		warnx("replay: --turn and --move: one position at a time");
		goto out;
	}
	if (r.render && (r.html || r.quiet)) {
		warnx("replay: %s prints the table; it does not go with %s",
		      r.show.turn ? "--turn" : r.show.move ? "--move" : "--render",
		      r.html ? "--html" : "--quiet");
		goto out;
	}
	r.status = 0;
	jsonw_init(&r.page);
	r.many_args = argc - optind > 1;
	for (int i = optind; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			replay_dir(&r, argv[i]);
		else
			replay_file(&r, argv[i]);
	}
	missing_ids(&r, argv + optind, argc - optind);
	jsonw_release(&r.page);
out:
	free(r.ids);
	free(r.found);
	return r.status;
}
