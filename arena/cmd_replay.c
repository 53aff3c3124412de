/*
 * cmd_replay.c - `skipbo-arena replay [options] FILE...`.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "replay.h"

#define REPLAY_FILE_MAX (256 * 1024 * 1024)

static const char replay_usage[] =
	"usage: skipbo-arena replay [options] FILE...\n"
	"\n"
	"Re-check each replay file with the engine: the same deck from the seed, every\n"
	"move legal for the seat to move, the same events and the same result; and print\n"
	"the game turn by turn. Replay files are described in results/README.md.\n"
	"\n"
	"options:\n"
	"  -q, --quiet   print only the verdict, one line per file\n"
	"  -h, --help    this text\n"
	"\n"
	"Exit status: 0 every file re-checks, 1 a file differs (the first mismatch is\n"
	"named) or cannot be read, 2 bad usage.\n";

static const struct option replay_options[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 65536 + 1 > cap) {
			char *grown;

			cap = cap ? cap * 2 : 1 << 20;
			if (cap > REPLAY_FILE_MAX || !(grown = realloc(text, cap))) {
				free(text);
				text = NULL;
				errno = EFBIG;
				break;
			}
			text = grown;
		}
		n = fread(text + *len, 1, cap - *len - 1, f);
		*len += n;
		if (n == 0) {
			text[*len] = '\0';
			break;
		}
	}
	fclose(f);
	return text;
}

int cmd_replay(int argc, char **argv)
{
	int c, quiet = 0, status = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+qh", replay_options, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
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
	for (int i = optind; i < argc; i++) {
		char msg[512];
		size_t len;
		char *text = slurp(argv[i], &len);
		int ret;

		if (!text) {
			warn("replay: \"%s\"", argv[i]);
			status = 1;
			continue;
		}
		ret = replay_check(text, len, quiet ? NULL : stdout, msg, sizeof(msg));
		free(text);
		if (ret != 0) {
			warnx("replay: \"%s\": %s", argv[i], msg);
			status = 1;
		} else {
			printf("%s: ok\n", argv[i]);
		}
	}
	return status;
}
