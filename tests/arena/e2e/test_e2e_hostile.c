/*
 * test_e2e_hostile.c - the built skipbo-arena against hostile input:
 *  - a bot whose file name and answer carry terminal escape sequences: `check`
 *    and `play` (with --log-io and --render) print them escaped, never raw;
 *  - games.jsonl lines crafted with a move time of 1e400 or 1e39: `report`
 *    finishes at once and names the line; a crafted placing (the overflow of
 *    the progress line) or a key given twice: the resume refuses the record,
 *    naming its line and field, instead of counting the game as played;
 *  - SIGTERM while `run` writes its final report: it stops promptly, exit
 *    status 1, no report file and no temporary file left.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

/* Its file name clears the screen; its answers retitle the window and clear the screen. */
#define HOSTILE_NAME "hostile\033[2J.sh"
static const char hostile_bot[] =
	"#!/bin/sh\n"
	"IFS= read -r line\n"
	"printf '{\"type\":\"hello\",\"protocol\":1,\"name\":\"hostile\"}\\n'\n"
	"while IFS= read -r line; do\n"
	"\tcase $line in\n"
	"\t*'\"type\":\"request\"'*) printf '\\033]0;pwned\\007\\033[2J{\"type\":\"move\"}\\n' ;;\n"
	"\t*'\"type\":\"quit\"'*) exit 0 ;;\n"
	"\tesac\n"
	"done\n";

/* Everything the command printed (stdout and stderr), malloc'ed. */
static char *output_of(const char *dir)
{
	char path[512], *out, *err, *both;

	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	out = e2e_read(path, NULL);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	err = e2e_read(path, NULL);
	assert_non_null(out);
	assert_non_null(err);
	both = malloc(strlen(out) + strlen(err) + 1);
	assert_non_null(both);
	strcpy(both, out);
	strcat(both, err);
	free(out);
	free(err);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	unlink(path);
	return both;
}

static void assert_no_escape_byte(const char *text)
{
	const char *esc = strchr(text, '\033');

	if (esc)
		fail_msg("a raw ESC reached the terminal: ...%.60s", esc > text + 20 ? esc - 20 : text);
}

static void test_bot_text_escaped(void **state)
{
	char dir[256], path[512], opponent[512];
	char *text;
	(void)state;

	e2e_tempdir(dir, sizeof(dir), "hostile");
	e2e_write(dir, HOSTILE_NAME, hostile_bot);
	snprintf(path, sizeof(path), "%s/%s", dir, HOSTILE_NAME);
	assert_int_equal(chmod(path, 0755), 0);
	snprintf(opponent, sizeof(opponent), "%s good", BADBOT_PATH);
	{
		const char *args[] = { "check", "--games", "1", "--verbose", "--opponent", opponent,
				       "--replays", "replays", "--", "./" HOSTILE_NAME, NULL };

		assert_int_equal(e2e_run(dir, args, 60000, NULL), 1);
	}
	text = output_of(dir);
	assert_no_escape_byte(text);
	assert_non_null(strstr(text, "checking \"hostile\\033[2J.sh\""));
	/* the transcript (--verbose) and the diagnosis both show the line, escaped */
	assert_non_null(strstr(text, "-> \\033]0;pwned\\007\\033[2J{\"type\":\"move\"}"));
	assert_non_null(strstr(text, "line:     \\033]0;pwned\\007\\033[2J{\"type\":\"move\"}"));
	free(text);
	{
		const char *args[] = { "play", "--log-io", "--render", "--", "./" HOSTILE_NAME, "--",
				       BADBOT_PATH, "good", NULL };

		assert_int_equal(e2e_run(dir, args, 60000, NULL), 0);
	}
	text = output_of(dir);
	assert_no_escape_byte(text);
	assert_non_null(strstr(text, "its line: \\033]0;pwned\\007"));
	assert_non_null(strstr(text, "line: \\033]0;pwned\\007"));
	/* named by its file until its hello, then by its hello's name */
	assert_non_null(strstr(text, "hostile\\033[2J.sh <- {\"type\":\"hello\""));
	assert_non_null(strstr(text, " hostile -> \\033]0;pwned"));
	free(text);
	e2e_remove(dir);
}

/* A two-bot tournament of badbot good in dir/t.json, output in dir/out. */
static void write_tournament(const char *dir)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"name\":\"h\",\"bots\":["
		 "{\"name\":\"a\",\"command\":[\"%s\",\"good\"]},"
		 "{\"name\":\"b\",\"command\":[\"%s\",\"good\"]}],"
		 "\"players\":2,\"deals\":1,\"rules\":{\"stock_size\":3},\"seed\":5,"
		 "\"output\":\"out\"}", BADBOT_PATH, BADBOT_PATH);
	e2e_write(dir, "t.json", text);
}

/* The first line of dir/out/games.jsonl with from replaced by to, and a newline. */
static void crafted_line(const char *dir, const char *from, const char *to, char *out,
			 size_t size)
{
	char path[512], *text, *nl, *at;

	snprintf(path, sizeof(path), "%s/out/games.jsonl", dir);
	text = e2e_read(path, NULL);
	assert_non_null(text);
	nl = strchr(text, '\n');
	assert_non_null(nl);
	*nl = '\0';
	at = strstr(text, from);
	if (!at)
		fail_msg("\"%s\" not in %s", from, text);
	snprintf(out, size, "%.*s%s%s\n", (int)(at - text), text, to, at + strlen(from));
	free(text);
}

/* The first record with its first placing replaced by value. */
static void crafted_placing(const char *dir, const char *value, char *out, size_t size)
{
	char path[512], from[64], to[64], *text;
	const char *at;
	int first;

	snprintf(path, sizeof(path), "%s/out/games.jsonl", dir);
	text = e2e_read(path, NULL);
	assert_non_null(text);
	at = strstr(text, "\"placings\":[");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "\"placings\":[%d", &first), 1);
	free(text);
	snprintf(from, sizeof(from), "\"placings\":[%d,", first);
	snprintf(to, sizeof(to), "\"placings\":[%s,", value);
	crafted_line(dir, from, to, out, size);
}

static void append(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_crafted_records(void **state)
{
	const char *run[] = { "run", "-j", "1", "--quiet", "--no-report", "t.json", NULL };
	const char *report[] = { "report", "out", NULL };
	char dir[256], line[4096], line2[4096], path[512];
	double seconds;
	char *text;
	(void)state;

	e2e_tempdir(dir, sizeof(dir), "crafted");
	write_tournament(dir);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 0);
	free(output_of(dir));

	/* move times of 1e400 and 1e39: read as infinite, they once made report.html endless */
	crafted_line(dir, "\"max_us\":", "\"max_us\":1e400,\"x\":", line, sizeof(line));
	crafted_line(dir, "\"max_us\":", "\"max_us\":1e39,\"x\":", line2, sizeof(line2));
	append(dir, "out/games.jsonl", line);
	append(dir, "out/games.jsonl", line2);
	assert_int_equal(e2e_run(dir, report, 30000, &seconds), 0);
	assert_true(seconds < 20);
	text = output_of(dir);
	assert_non_null(strstr(text, "2 invalid line(s)"));
	assert_non_null(strstr(text, "out/games.jsonl, line 3: time[0].max_us: expected a number "
				     "from 0 to"));
	free(text);
	snprintf(path, sizeof(path), "%s/out/report.html", dir);
	{
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size < 1000000);
	}

	/* the resume reads what it counts as played strictly: a placing of -2^31 (once an
	 * overflow in the progress line) or a key given twice is refused with its line */
	snprintf(path, sizeof(path), "%s/out/games.jsonl", dir);
	crafted_placing(dir, "-2147483648", line, sizeof(line));
	{
		char *keep = e2e_read(path, NULL);

		/* only the two real records, then the crafted one */
		assert_non_null(keep);
		*(strchr(strchr(keep, '\n') + 1, '\n') + 1) = '\0';
		e2e_write(dir, "out/games.jsonl", keep);
		free(keep);
	}
	append(dir, "out/games.jsonl", line);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 1);
	text = output_of(dir);
	assert_non_null(strstr(text, "games.jsonl\", line 3: placings[0]: expected an integer from "
				     "1 to 2, found -2147483648"));
	free(text);
	crafted_line(dir, "\"players\":2,", "\"players\":2,\"players\":2,", line, sizeof(line));
	{
		char *keep = e2e_read(path, NULL);

		*(strchr(strchr(keep, '\n') + 1, '\n') + 1) = '\0';
		e2e_write(dir, "out/games.jsonl", keep);
		free(keep);
	}
	append(dir, "out/games.jsonl", line);
	assert_int_equal(e2e_run(dir, run, 60000, NULL), 1);
	text = output_of(dir);
	assert_non_null(strstr(text, "line 3: column"));
	assert_non_null(strstr(text, "duplicate key \"players\""));
	free(text);
	e2e_remove(dir);
}

/* Records enough to keep the final report busy for a while: ids of no game in the
 * schedule, so the resume skips them and only the report reads them. */
#define FILLER_RECORDS 40000

static int file_contains(const char *path, const char *needle)
{
	char *text = e2e_read(path, NULL);
	int found = text && strstr(text, needle);

	free(text);
	return found;
}

static void test_sigterm_stops_final_report(void **state)
{
	const char *first[] = { "run", "-j", "1", "--quiet", "--no-report", "t.json", NULL };
	const char *again[] = { "run", "-j", "1", "t.json", NULL };
	char dir[256], line[4096], path[512], *filler, *text;
	struct timespec tick = { 0, 2000000 };
	size_t len;
	double seconds;
	pid_t pid;
	int ms = 0;
	(void)state;

	e2e_tempdir(dir, sizeof(dir), "sigterm");
	write_tournament(dir);
	assert_int_equal(e2e_run(dir, first, 60000, NULL), 0);
	free(output_of(dir));
	crafted_line(dir, "\"id\":\"", "\"id\":\"filler-", line, sizeof(line));
	len = strlen(line);
	filler = malloc(len * FILLER_RECORDS + 1);
	assert_non_null(filler);
	for (size_t i = 0; i < FILLER_RECORDS; i++)
		memcpy(filler + i * len, line, len);
	filler[len * FILLER_RECORDS] = '\0';
	append(dir, "out/games.jsonl", filler);
	free(filler);

	/* every game is recorded: the run goes from its last progress line to the report */
	pid = e2e_start(dir, again);
	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	while (!file_contains(path, "games 2/2") && ms < 60000) {
		nanosleep(&tick, NULL);
		ms += 2;
	}
	assert_true(ms < 60000);
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(e2e_wait(pid, 30000, &seconds), 1);
	text = output_of(dir);
	/* nearly always in the long report; a busy machine may deliver the signal in
	 * the moment between the last progress line and the report: then it stops the
	 * games, which were all played, and the report is written as after any stop */
	if (strstr(text, "marked partial")) {
		free(text);
		e2e_remove(dir);
		return;
	}
	if (!strstr(text, "stopped during the report"))
		fail_msg("not stopped by SIGTERM: %s", text);
	free(text);
	assert_true(seconds < 5);
	snprintf(path, sizeof(path), "%s/out/report.html", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/out/ratings.json", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "ls '%s/out' | grep -q '\\.tmp'", dir);
	assert_int_not_equal(system(path), 0);
	e2e_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bot_text_escaped),
		cmocka_unit_test(test_crafted_records),
		cmocka_unit_test(test_sigterm_stops_final_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
