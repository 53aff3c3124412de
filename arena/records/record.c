/*
 * record.c - a games.jsonl line: the reader's two paths and the writer
 * (contract in record.h).
 */
#include "record_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "result_json.h"

void record_reader_init(struct record_reader *rd)
{
	memset(rd, 0, sizeof(*rd));
	json_pool_init(&rd->pool);
}

void record_reader_release(struct record_reader *rd)
{
	free(rd->text);
	free(rd->faults);
	json_pool_release(&rd->pool);
	memset(rd, 0, sizeof(*rd));
}

int record_reserve_faults(struct record_reader *rd, size_t n)
{
	struct record_fault *grown;
	size_t cap;

	if (n <= rd->faults_cap)
		return 0;
	cap = n > 2 * rd->faults_cap ? n : 2 * rd->faults_cap;
	if (!(grown = reallocarray(rd->faults, cap, sizeof(*grown))))
		return -ENOMEM;
	rd->faults = grown;
	rd->faults_cap = cap;
	return 0;
}

bool record_printable_name(const char *s, size_t len)
{
	if (len < 1 || len > RECORD_NAME_MAX)
		return false;
	for (size_t i = 0, n; i < len; i += n) {
		n = (unsigned char)s[i] >= 0x80 ? names_utf8_letter(s + i, len - i) : 1;
		if (!n || (unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			return false;
	}
	return true;
}

int record_parse(struct record_reader *rd, const char *line, size_t len, enum record_level level,
		 struct record *rec)
{
	int rc;

	rd->why[0] = '\0';
	rd->root = NULL;
	/* decoded strings are never longer than the line */
	if (len + 1 > rd->text_cap) {
		char *grown = realloc(rd->text, len + 1);

		if (!grown)
			return -ENOMEM;
		rd->text = grown;
		rd->text_cap = len + 1;
	}
	rc = record_parse_fast(rd, line, len, rec);
	if (rc != -1)
		return rc;
	return record_parse_strict(rd, line, len, level, rec);
}

const cJSON *record_tree(struct record_reader *rd, const char *line, size_t len)
{
	if (!rd->root && json_strict_parse_pooled(line, len, &rd->pool, &rd->root, NULL) < 0)
		rd->root = NULL;
	return rd->root;
}

static void write_time(struct jsonw *w, const struct record_time *t)
{
	jsonw_printf(w, "{\"moves\":%" PRIu32 ",\"mean_us\":%.1f,\"median_us\":%" PRId64
		     ",\"p99_us\":%" PRId64 ",\"max_us\":%" PRId64, t->moves, t->mean_us,
		     t->median_us, (int64_t)t->p99_us, (int64_t)t->max_us);
	if (t->has_cpu)
		jsonw_printf(w, ",\"cpu_mean_us\":%.1f,\"cpu_max_us\":%" PRId64, t->cpu_mean_us,
			     t->cpu_max_us);
	jsonw_text(w, "}");
}

/* The seats of each team, teams in order of their number. */
static void write_teams(struct jsonw *w, const struct record *rec)
{
	int nteams = 0;

	for (int s = 0; s < rec->players; s++)
		if (rec->team[s] + 1 > nteams)
			nteams = rec->team[s] + 1;
	jsonw_text(w, "[");
	for (int t = 0; t < nteams; t++) {
		int first = 1;

		jsonw_text(w, t ? ",[" : "[");
		for (int s = 0; s < rec->players; s++)
			if (rec->team[s] == t) {
				jsonw_printf(w, first ? "%d" : ",%d", s);
				first = 0;
			}
		jsonw_text(w, "]");
	}
	jsonw_text(w, "]");
}

static void write_faults(struct jsonw *w, const struct record *rec)
{
	jsonw_text(w, ",\"faults\":[");
	for (size_t i = 0; i < rec->nfaults; i++) {
		const struct record_fault *f = &rec->faults[i];

		jsonw_printf(w, "%s{\"seat\":%d,\"bot\":", i ? "," : "", f->seat);
		jsonw_string(w, f->bot);
		jsonw_text(w, ",\"kind\":");
		jsonw_string(w, f->kind);
		jsonw_printf(w, ",\"game\":%" PRId64 ",\"turn\":%" PRId64 ",\"move\":%" PRId64
			     ",\"reason\":", f->game, f->turn, f->move);
		jsonw_string(w, f->reason);
		jsonw_text(w, ",\"line\":");
		jsonw_string(w, f->line);
		jsonw_text(w, "}");
	}
	jsonw_text(w, "]");
}

/* The replay keys and the closing brace: how record_format() ends a line. */
static void write_replay_keys(struct jsonw *w, const struct record *rec)
{
	if (rec->replay) {
		jsonw_text(w, ",\"replay\":");
		jsonw_string(w, rec->replay);
		if (rec->has_replay_at)
			jsonw_printf(w, ",\"replay_offset\":%" PRIu64 ",\"replay_line\":%" PRIu64,
				     rec->replay_offset, rec->replay_line);
	}
	jsonw_text(w, "}");
}

int record_format(struct jsonw *w, const struct record *rec)
{
	int n = rec->players;

	jsonw_reset(w);
	jsonw_text(w, "{\"id\":");
	jsonw_string(w, rec->id);
	jsonw_printf(w, ",\"table\":%" PRIu32 ",\"deal\":%" PRIu32 ",\"rotation\":%" PRIu32
		     ",\"seed\":%" PRIu64 ",\"players\":%d,\"partnership\":%s,\"teams\":",
		     rec->table, rec->deal, rec->rotation, rec->seed, n,
		     rec->partnership ? "true" : "false");
	write_teams(w, rec);
	jsonw_printf(w, ",\"match\":%s,\"games\":%d,\"bots\":[", rec->match ? "true" : "false",
		     rec->games);
	for (int s = 0; s < n; s++) {
		if (s)
			jsonw_text(w, ",");
		jsonw_string(w, rec->bots[s]);
	}
	jsonw_text(w, "],");
	result_json_write(w, &(struct result_json){
		.winners = rec->winners, .nwinners = (size_t)rec->nwinners,
		.reason = rec->reason, .players = n, .placings = rec->placings,
		.stock_left = rec->stock_left, .scores = rec->scores,
		.turns = rec->turns, .moves = rec->moves });
	jsonw_text(w, ",\"time\":[");
	for (int s = 0; s < n; s++) {
		if (s)
			jsonw_text(w, ",");
		write_time(w, &rec->time[s]);
	}
	jsonw_text(w, "]");
	write_faults(w, rec);
	write_replay_keys(w, rec);
	return jsonw_error(w);
}

int record_format_replay_at(struct jsonw *w, struct record *rec, const char *line, size_t len,
			    const char *replay, uint64_t offset, uint64_t at)
{
	struct jsonw tail;
	bool writers;

	/* a line in the writer's layout (the fast path read it) that ends as the writer
	 * ends it keeps its bytes before its replay keys: they are what record_format()
	 * would write again */
	jsonw_init(&tail);
	write_replay_keys(&tail, rec);
	writers = rec->replay_known && jsonw_error(&tail) == 0 && tail.len <= len &&
		  memcmp(line + len - tail.len, tail.data, tail.len) == 0;
	rec->replay = replay;
	rec->replay_known = true;
	rec->has_replay_at = true;
	rec->replay_offset = offset;
	rec->replay_line = at;
	if (!writers) {
		jsonw_release(&tail);
		return record_format(w, rec);
	}
	jsonw_reset(w);
	jsonw_raw(w, line, len - tail.len);
	write_replay_keys(w, rec);
	jsonw_release(&tail);
	return jsonw_error(w);
}
