/*
 * bench_bot - the cheapest possible protocol v1 bot, for measuring the
 * arena's own cost per decision (bench_arena): it does not parse JSON, it
 * answers hello, and answers each request with the first element of its
 * "legal" array copied as text. Every other message is ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first {...} after "legal":[ in line, as text; NULL if none. */
static const char *first_legal(const char *line, size_t *len)
{
	const char *p = strstr(line, "\"legal\":["), *q;
	int depth = 0;

	if (!p || !(p = strchr(p, '{')))
		return NULL;
	for (q = p; *q; q++) {
		depth += (*q == '{') - (*q == '}');
		if (depth == 0) {
			*len = (size_t)(q - p + 1);
			return p;
		}
	}
	return NULL;
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	while ((n = getline(&line, &cap, stdin)) > 0) {
		const char *move;
		size_t len;

		if (strstr(line, "\"type\":\"hello\"")) {
			fputs("{\"type\":\"hello\",\"protocol\":1,\"name\":\"bench-bot\"}\n", stdout);
		} else if (strstr(line, "\"type\":\"request\"") && (move = first_legal(line, &len))) {
			fputs("{\"type\":\"move\",\"move\":", stdout);
			fwrite(move, 1, len, stdout);
			fputs("}\n", stdout);
		} else if (strstr(line, "\"type\":\"quit\"")) {
			break;
		} else {
			continue;
		}
		fflush(stdout);
	}
	free(line);
	return 0;
}
