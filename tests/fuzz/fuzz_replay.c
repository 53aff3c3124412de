/*
 * fuzz_replay - replay_check() (arena/game/replay.h, `skipbo-arena replay`)
 * on any bytes, printing the game as it goes. It answers 0 (the replay
 * re-checks), 1 (a mismatch) or a negative code (not a replay), with a
 * one-line printable reason unless 0; and whatever the bytes, nothing
 * printed for the terminal carries a control character. The same bytes cut
 * into documents as a pack's frame is (replay_next_document) give pieces
 * that follow one another inside them, only white space between.
 */
#include <string.h>

#include "fuzz_target.h"
#include "replay.h"
#include "replay_file.h"

static void check_printable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		FUZZ_CHECK(s[i] == '\n' || ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "", *printed = NULL;
	size_t printed_len = 0;
	FILE *print = open_memstream(&printed, &printed_len);
	int rc;

	FUZZ_CHECK(print != NULL);
	rc = replay_check((const char *)data, size, print, err, sizeof(err));
	FUZZ_CHECK(fclose(print) == 0);
	FUZZ_CHECK(rc == 0 || rc == 1 || rc < 0);
	if (rc != 0) {
		FUZZ_CHECK(err[0] && !strchr(err, '\n'));
		check_printable(err, strlen(err));
	}
	check_printable(printed, printed_len);
	free(printed);
	for (size_t pos = 0, last = 0, n; ;) {
		const char *doc = replay_next_document((const char *)data, size, &pos, &n);

		if (!doc) {
			FUZZ_CHECK(pos == size);
			break;
		}
		FUZZ_CHECK(doc >= (const char *)data + last && n > 0 && pos <= size);
		FUZZ_CHECK(doc + n == (const char *)data + pos);
		for (const char *c = (const char *)data + last; c < doc; c++)
			FUZZ_CHECK(strchr(" \t\r\n", *c) && *c);
		last = pos;
	}
	return 0;
}
