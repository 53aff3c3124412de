/*
 * replay_write.c - a game's replay document written in one pass (contract
 * in replay.h); replay.c re-checks one.
 */
#include "replay.h"

#include <inttypes.h>
#include <string.h>

#include "durable.h"
#include "replay_kinds.h"
#include "result_json.h"

const struct replay_kind replay_kinds[REPLAY_KINDS] = {
	[EVENT_TURN] = { "turn", F_TURN },
	[EVENT_DRAW] = { "draw", F_CARD },
	[EVENT_PLAY] = { "play", F_SOURCE | F_OWNER | F_PILE | F_CARD | F_TARGET | F_VALUE },
	[EVENT_STOCK_TOP] = { "stock_top", F_OWNER | F_CARD },
	[EVENT_COMPLETE] = { "complete", F_TARGET },
	[EVENT_DISCARD] = { "discard", F_CARD | F_TARGET },
	[EVENT_PASS] = { "pass", 0 },
	[EVENT_REFILL] = { "refill", F_SOURCE | F_COUNT },
	[EVENT_REMOVED] = { "removed", 0 },
	[EVENT_END] = { "end", F_VALUE },
};
const char *const replay_source_names[4] = { "", "hand", "stock", "discard" };
const char *const replay_refill_names[3] = { "", "completed", "building" };

/* The fault that removed seat by game `game` (in a match it stays removed for later games). */
static const char *fault_kind_of(const struct referee_outcome *o, int game, int seat)
{
	for (size_t i = 0; i < o->nfaults; i++)
		if (o->faults[i].game <= game && o->faults[i].seat == seat)
			return protocol_fault_kind_names[o->faults[i].kind];
	return "unknown";
}

/* ,"key":value: the replay has tens of thousands of these, so no printf. */
static void write_key_int(struct jsonw *w, const char *key, long long v)
{
	jsonw_text(w, ",\"");
	jsonw_text(w, key);
	jsonw_text(w, "\":");
	jsonw_int(w, v);
}

/* ,"key":"word" for words that need no escaping. */
static void write_key_word(struct jsonw *w, const char *key, const char *word)
{
	jsonw_text(w, ",\"");
	jsonw_text(w, key);
	jsonw_text(w, "\":\"");
	jsonw_text(w, word);
	jsonw_text(w, "\"");
}

static void write_card(struct jsonw *w, const char *key, int card)
{
	if (card == CARD_NONE) {
		jsonw_text(w, ",\"");
		jsonw_text(w, key);
		jsonw_text(w, "\":null");
	} else {
		write_key_int(w, key, card);
	}
}

static void write_event(struct jsonw *w, const struct event *ev, const uint32_t *us,
			const char *err, const char *fault)
{
	jsonw_text(w, "{\"type\":\"");
	jsonw_text(w, replay_kinds[ev->kind].name);
	jsonw_text(w, "\",\"seat\":");
	if (ev->seat == 0xff)
		jsonw_text(w, "null");
	else
		jsonw_int(w, ev->seat);
	switch (ev->kind) {
	case EVENT_TURN:
		write_key_int(w, "turn", ev->turn);
		break;
	case EVENT_DRAW:
		write_card(w, "card", ev->card);
		break;
	case EVENT_PLAY:
		write_key_word(w, "from", ev->source < 4 ? replay_source_names[ev->source] : "");
		write_key_int(w, "owner", ev->owner);
		if (ev->source == SOURCE_DISCARD)
			write_key_int(w, "pile", ev->pile);
		write_key_int(w, "card", ev->card);
		write_key_int(w, "value", ev->value);
		write_key_int(w, "to", ev->target);
		break;
	case EVENT_STOCK_TOP:
		write_key_int(w, "owner", ev->owner);
		write_card(w, "card", ev->card);
		break;
	case EVENT_COMPLETE:
		write_key_int(w, "pile", ev->target);
		break;
	case EVENT_DISCARD:
		write_key_int(w, "card", ev->card);
		write_key_int(w, "pile", ev->target);
		break;
	case EVENT_REFILL:
		write_key_word(w, "source", ev->source < 3 ? replay_refill_names[ev->source] : "");
		write_key_int(w, "count", ev->count);
		break;
	case EVENT_REMOVED:
		write_key_word(w, "fault", fault);
		break;
	case EVENT_END:
		write_key_word(w, "reason", end_reason_name(ev->value));
		break;
	}
	if (us)
		write_key_int(w, "us", *us);
	if (err) {
		jsonw_text(w, ",\"stderr\":");
		jsonw_string(w, err);
	}
	jsonw_text(w, "}");
}

/* A game's result: the same keys, in the same order, as a games.jsonl record's. */
static void write_result(struct jsonw *w, int players, const struct game_result *r)
{
	int winners[ENGINE_MAX_PLAYERS], n = 0;

	for (int s = 0; s < players; s++)
		if (r->winners[s])
			winners[n++] = s;
	jsonw_text(w, "{");
	result_json_write(w, &(struct result_json){
		.winners = winners, .nwinners = (size_t)n,
		.reason = r->reason ? end_reason_name(r->reason) : "none", .players = players,
		.placings = r->placing, .stock_left = r->stock_left, .scores = r->score,
		.turns = r->turns, .moves = r->moves });
	jsonw_text(w, "}");
}

static void write_game(struct jsonw *w, const struct referee_outcome *o, int k)
{
	const struct referee_game_log *gl = &o->log[k];
	int deck[ENGINE_DECK_SIZE];
	size_t move = 0;

	for (int i = 0; i < ENGINE_DECK_SIZE; i++)
		deck[i] = gl->deck[i];
	jsonw_printf(w, "%s{\"game\":%d,\"seed\":\"%" PRIu64 "\",\"dealer\":%d,\"stock_size\":%d,"
		     "\"deck\":", k ? "," : "", k + 1, gl->rules.seed, gl->rules.dealer,
		     gl->rules.stock_size);
	jsonw_int_array(w, deck, ENGINE_DECK_SIZE);
	jsonw_text(w, ",\"events\":[");
	for (size_t i = 0; i < gl->nevents; i++) {
		const struct event *ev = &gl->events[i];
		const uint32_t *us = NULL;
		const char *err = NULL;

		if (ev->kind < 1 || ev->kind >= REPLAY_KINDS)
			continue;
		if (replay_is_decision(ev->kind) && move < gl->nmoves) {
			err = gl->move_stderr ? gl->move_stderr[move] : NULL;
			us = &gl->move_us[move++];
		}
		if (i)
			jsonw_text(w, ",");
		write_event(w, ev, us, err, fault_kind_of(o, k + 1, ev->seat));
	}
	jsonw_text(w, "],\"result\":");
	write_result(w, o->players, &gl->result);
	jsonw_text(w, "}");
}

int replay_format(struct jsonw *w, const struct replay_info *info)
{
	const struct referee_outcome *o = info->outcome;

	jsonw_reset(w);
	jsonw_printf(w, "{\"format\":\"%s\",\"version\":%d,\"id\":", REPLAY_FORMAT, REPLAY_VERSION);
	jsonw_string(w, info->id);
	jsonw_printf(w, ",\"players\":%d,\"partnership\":%s,\"match\":%s,\"seed\":\"%" PRIu64
		     "\",\"dealer\":%d,\"stock_size\":%d,\"bots\":[", o->players,
		     o->partnership ? "true" : "false", o->match ? "true" : "false", o->rules.seed,
		     o->rules.dealer, o->rules.stock_size);
	for (int s = 0; s < o->players; s++) {
		if (s)
			jsonw_text(w, ",");
		jsonw_string(w, info->bots[s]);
	}
	jsonw_printf(w, "],\"time\":{\"move_ms\":%d,\"game_ms\":%d},\"games\":[", info->move_ms,
		     info->game_ms);
	for (int k = 0; k < o->games; k++)
		write_game(w, o, k);
	jsonw_text(w, "],\"faults\":[");
	for (size_t i = 0; i < o->nfaults; i++) {
		const struct referee_fault *f = &o->faults[i];

		jsonw_printf(w, "%s{\"seat\":%d,\"kind\":\"%s\",\"game\":%d,\"turn\":%" PRIu32
			     ",\"move\":%" PRIu32 ",\"reason\":", i ? "," : "", f->seat,
			     protocol_fault_kind_names[f->kind],
			     f->game, f->turn, f->move);
		jsonw_string(w, f->reason);
		jsonw_text(w, ",\"line\":");
		jsonw_string(w, f->line);
		jsonw_text(w, "}");
	}
	jsonw_text(w, "],\"result\":{");
	result_json_write(w, &(struct result_json){
		.winners = o->winners, .nwinners = (size_t)o->nwinners,
		.reason = o->reason ? end_reason_name(o->reason) : "none", .players = o->players,
		.placings = o->placings, .stock_left = o->stock_left, .scores = o->scores,
		.turns = o->turns, .moves = o->moves });
	jsonw_text(w, "}}");
	return jsonw_error(w);
}

int replay_format_line(struct jsonw *w, const struct replay_info *info)
{
	int ret = replay_format(w, info);

	if (ret < 0)
		return ret;
	jsonw_text(w, "\n");
	return jsonw_error(w);
}

int replay_write(const char *path, const struct replay_info *info, struct jsonw *scratch)
{
	int ret = replay_format_line(scratch, info);

	return ret < 0 ? ret : durable_write(path, scratch->data, scratch->len);
}
