/*
 * cmd_replay.c - `skipbo-arena replay [options] FILE...`: re-check replays,
 * print them, or write their viewer pages (--html).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "durable.h"
#include "jsonw.h"
#include "replay.h"
#include "replay_file.h"
#include "viewer.h"

static const char replay_usage[] =
	"usage: skipbo-arena replay [options] FILE...\n"
	"\n"
	"Re-check each replay file with the engine: the same deck from the seed, every\n"
	"move legal for the seat to move, the same events and the same result; and print\n"
	"the game turn by turn. Replay files are described in results/README.md.\n"
	"\n"
	"With --html, write for each file that re-checks a viewer page instead: one\n"
	"self-contained HTML file (nothing fetched, opens from the disk) that shows the\n"
	"table at every decision, to step through forward and back or play.\n"
	"\n"
	"options:\n"
	"  -q, --quiet   print only the verdict, one line per file\n"
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
	{ "help", no_argument, NULL, 'h' },
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

int cmd_replay(int argc, char **argv)
{
	int c, quiet = 0, html = 0, status = 0, several;
	const char *out = NULL;
	struct jsonw page;

	optind = 1;
	while ((c = getopt_long(argc, argv, "qo:h", replay_options, NULL)) != -1) {
		switch (c) {
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
	several = argc - optind > 1;
	if (out && several && mkdir(out, 0777) < 0 && errno != EEXIST) {
		warn("replay: -o \"%s\"", out);
		return 1;
	}
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
