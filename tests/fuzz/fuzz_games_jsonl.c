/*
 * fuzz_games_jsonl - the two readers of games.jsonl on any bytes: the
 * report's (arena/records/gamelog.h, each line) and the resume's
 * (results_scan() in arena/tournament/results.h, the whole file).
 *
 * gamelog: a line is a record or refused with a one-line printable reason; a
 * record has every field in range and finite times, and a report of it
 * (every file format, report.html's charts included) is written in bounded
 * time and size. results_scan: every record it hands over has "players" 2 to
 * 6 and that many placings from 1 to players; a refusal names a line. The
 * record's replay (replay_ref_of_record()) is a file directly under replays/, or
 * refused with a reason: no record leads a reader elsewhere.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_target.h"
#include "gamelog.h"
#include "rating.h"
#include "report.h"
#include "report_html.h"
#include "replay_find.h"
#include "results.h"
#include "../arena/tournament/results_text.h"

static void check_printable(const char *s)
{
	for (; *s; s++)
		FUZZ_CHECK((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f);
}

static void check_game(const struct gamelog *log, const struct gamelog_game *g)
{
	FUZZ_CHECK(g->players >= 2 && g->players <= GAMELOG_SEATS_MAX);
	for (int s = 0; s < g->players; s++) {
		FUZZ_CHECK(g->placing[s] >= 1 && g->placing[s] <= g->players);
		FUZZ_CHECK(g->stock_left[s] <= 162 && g->score[s] >= 0);
		FUZZ_CHECK(g->bot[s] < log->nbots);
		check_printable(log->bots[g->bot[s]]);
		if (g->has_time) {
			const struct gamelog_seat_time *t = &g->time[s];

			FUZZ_CHECK(isfinite(t->moves) && t->moves >= 0);
			FUZZ_CHECK(isfinite(t->max_us) && t->max_us >= 0 && t->max_us <= 1e13f);
			FUZZ_CHECK(isfinite(t->mean_us) && isfinite(t->p99_us));
		}
	}
}

/* Every report format of the one record in log, to a sink: bounded whatever the record. */
static void write_report(const struct gamelog *log)
{
	struct report_fold *fold;
	struct report r;
	char err[256];
	FILE *out = fopen("/dev/null", "w");

	FUZZ_CHECK(out != NULL);
	/* through the fold, the public path serve uses for records read one by one */
	FUZZ_CHECK(report_fold_new(&fold) == 0);
	FUZZ_CHECK(report_fold_add(fold, log, &log->games[0]) == 0);
	if (report_fold_build(&r, fold, log, &report_defaults, err, sizeof(err)) == 0) {
		FUZZ_CHECK(report_write_html(&r, out) == 0);
		FUZZ_CHECK(report_write_md(&r, out) == 0);
		FUZZ_CHECK(report_write_json(&r, out) == 0);
		FUZZ_CHECK(report_write_csv(&r, out) == 0);
		report_print_table(&r, out);
		for (size_t i = 0; i < r.nbots; i++)
			FUZZ_CHECK(isfinite(r.bots[i].time_max_us) && isfinite(r.bots[i].time_mean_us));
		report_release(&r);
	}
	report_fold_free(fold);
	fclose(out);
}

static void read_lines(const uint8_t *data, size_t size)
{
	size_t start = 0;

	while (start < size) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t len = nl ? (size_t)(nl - (data + start)) : size - start;
		char *line = malloc(len + 1);
		struct gamelog log;
		int rc;

		FUZZ_CHECK(line != NULL);
		memcpy(line, data + start, len);
		line[len] = '\0';
		gamelog_init(&log);
		rc = gamelog_add_line(&log, line, len, 0);
		FUZZ_CHECK(rc == 0 || rc == -EBADMSG);
		if (rc == 0) {
			FUZZ_CHECK(log.ngames == 1);
			check_game(&log, &log.games[0]);
			write_report(&log);
		} else {
			FUZZ_CHECK(log.why[0] && log.ngames == 0);
			check_printable(log.why);
		}
		gamelog_release(&log);
		free(line);
		start += len + 1;
	}
}

static int check_record(void *ctx, const struct results_record *rec)
{
	struct replay_ref ref;
	char why[512] = "";
	int rc;

	(void)ctx;
	FUZZ_CHECK(rec->id && rec->record && rec->line);
	FUZZ_CHECK(rec->players >= 2 && rec->players <= ENGINE_MAX_PLAYERS);
	for (int s = 0; s < rec->players; s++)
		FUZZ_CHECK(rec->placings[s] >= 1 && rec->placings[s] <= rec->players);
	rc = replay_ref_of_record("D", rec, &ref, why, sizeof(why));
	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -EBADMSG);
	if (rc == 1) {
		FUZZ_CHECK(strncmp(ref.path, "D/replays/", 10) == 0 && ref.path[10] != '.');
		FUZZ_CHECK(!strchr(ref.path + 10, '/'));
		size_t n = strlen(ref.file);

		FUZZ_CHECK(ref.packed == (n > 10 && !strcmp(ref.file + n - 10, ".jsonl.zst")));
	} else if (rc < 0) {
		FUZZ_CHECK(why[0]);
	}
	return 0;
}

static char dir[] = "/tmp/fuzz_games_jsonl.XXXXXX";
static struct results *results;

/* The scratch directory goes when the program ends. */
static void remove_dir(void)
{
	static const char *const names[] = { "games.jsonl", "tournament.json", "replays", "logs" };
	char path[sizeof(dir) + 32];

	results_close(results);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (unlink(path) < 0)
			rmdir(path);
	}
	rmdir(dir);
}

/* The resume's scan of the same bytes as a whole games.jsonl, in a scratch directory. */
static void scan_file(const uint8_t *data, size_t size)
{
	char path[sizeof(dir) + 16], err[512] = "";
	FILE *f;
	int rc;

	if (!results) {
		FUZZ_CHECK(mkdtemp(dir) != NULL);
		FUZZ_CHECK(open_text(dir, "{}", &results, err, sizeof(err)) == 0);
		atexit(remove_dir);
	}
	snprintf(path, sizeof(path), "%s/games.jsonl", dir);
	/* a new file each time: ext4 flushes a file truncated and written again on close */
	unlink(path);
	f = fopen(path, "w");
	FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
	rc = results_scan(results, check_record, NULL, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (rc == -EBADMSG && strstr(err, ", line ")));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_lines(data, size);
	scan_file(data, size);
	return 0;
}
