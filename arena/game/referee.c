/*
 * referee.c - one game or R9 match between started bots (contract in referee.h):
 * the start's faults, the games, the match's outcome. A seat's turn is
 * referee_turn.c's.
 */

#include "referee_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* R9 guard: a match always ends (every game scores at least 25 for someone). */
#define REFEREE_MATCH_GAMES_MAX 1000

static int log_game(struct ref *r)
{
	struct referee_outcome *out = r->out;
	struct referee_game_log *nl;

	nl = reallocarray(out->log, (size_t)out->games + 1, sizeof(*out->log));
	if (!nl)
		return -ENOMEM;
	out->log = nl;
	r->log = &out->log[out->games++];
	memset(r->log, 0, sizeof(*r->log));
	r->log_moves_cap = 0;
	r->log_cpu_cap = 0;
	r->log_stderr_cap = 0;
	r->log->rules = *game_rules(r->g);
	game_initial_deck(r->g, r->log->deck);
	return 0;
}

static int finish_log(struct ref *r, struct game_result *res)
{
	const struct event *ev = game_events(r->g, &r->log->nevents);

	game_result(r->g, res);
	r->log->result = *res;
	r->log->events = reallocarray(NULL, r->log->nevents ? r->log->nevents : 1, sizeof(*ev));
	if (!r->log->events)
		return -ENOMEM;
	memcpy(r->log->events, ev, r->log->nevents * sizeof(*ev));
	return 0;
}

/* setup->start: the recorded steps that lead to the position the game starts from. */
static int apply_start(struct ref *r)
{
	const struct referee_setup *s = r->setup;

	for (size_t i = 0; i < s->nstart; i++) {
		const struct referee_step *step = &s->start[i];
		int ret;

		if (step->removed >= 0) {
			if (step->removed >= r->out->players || r->removed[step->removed])
				return ENGINE_ESEAT;
			if ((ret = referee_add_fault(r, step->removed, step->kind, NULL, 0, "%s",
					     "out of the recorded game before this position")) < 0)
				return ret;
			continue;
		}
		if ((ret = game_apply(r->g, &step->move)) < 0)
			return ret;
		/* not played here: no time and no stderr, so that the k-th entry stays the
		 * k-th decision's */
		if ((ret = referee_log_decision(r, -1, 0, 0)) < 0)
			return ret;
	}
	return 0;
}

/* The seats removed at the start, out of the game together (R11); later faults one by one. */
static void remove_at_start(struct ref *r)
{
	uint8_t removed[ENGINE_MAX_PLAYERS] = { 0 };

	for (int seat = 0; seat < ENGINE_MAX_PLAYERS; seat++)
		removed[seat] = r->removed[seat] != 0;
	if (game_status(r->g) == GAME_RUNNING)
		game_remove_seats(r->g, removed);
	r->at_start = 0;
}

/* Play one game of the match (or the game). */
static int play_game(struct ref *r, const struct game_rules *rules, struct game_result *res)
{
	const struct referee_setup *s = r->setup;
	const struct referee_observer *o = s->observer;
	int err = 0, ret, seat;

	r->g = game_new(rules, &err);
	if (!r->g)
		return err ? err : -ENOMEM;
	r->game_no++;
	if (s->match) {
		snprintf(r->game_id, sizeof(r->game_id), "%s-g%d", s->id, r->game_no);
		snprintf(r->bot_id, sizeof(r->bot_id), "%s-g%d", s->bot_id ? s->bot_id : s->id,
			 r->game_no);
	} else {
		strlcpy(r->game_id, s->id, sizeof(r->game_id));
		strlcpy(r->bot_id, s->bot_id ? s->bot_id : s->id, sizeof(r->bot_id));
	}
	if ((ret = log_game(r)) < 0)
		goto out;
	memset(r->seen, 0, sizeof(r->seen));
	memset(r->answered, 0, sizeof(r->answered));
	/* R11: the faults of the start (no process, no hello, an exit before game_start
	 * reached it) are simultaneous: every such seat, and those out of the match
	 * already, leave the game together, and none of them can be left to win */
	r->at_start = 1;
	for (seat = 0; seat < rules->players; seat++) {
		free(referee_take_stderr(&r->err[seat]));
		if (s->seats[seat].bot)
			bot_set_stderr_tag(s->seats[seat].bot, r->game_id);
		r->bank_us[seat] = (int64_t)s->game_ms * 1000;
		r->cpu_us[seat] = s->seats[seat].bot ? bot_cpu_us(s->seats[seat].bot) : -1;
		if (!s->seats[seat].bot && !r->removed[seat]) {
			ret = referee_add_fault(r, seat, PROTOCOL_FAULT_START, NULL, 0, "%s", s->seats[seat].start_error ?
					s->seats[seat].start_error : "could not start");
			if (ret < 0)
				goto out;
		}
	}
	/* a position to start from (play --from) is reached with the start's seats gone */
	if (r->game_no == 1 && s->nstart) {
		remove_at_start(r);
		if ((ret = apply_start(r)) < 0)
			goto out;
	}
	if (o && o->game_start)
		o->game_start(o->ctx, r->game_no, r->g);
	for (seat = 0; seat < rules->players; seat++)
		if (!r->removed[seat] && (ret = referee_send_game_start(r, seat)) < 0)
			goto out;
	remove_at_start(r);
	while ((seat = game_to_move(r->g)) >= 0)
		if ((ret = referee_play_decision(r, seat)) < 0)
			goto out;
	if ((ret = finish_log(r, res)) < 0 || (ret = referee_send_game_end(r, res)) < 0)
		goto out;
	r->out->turns += res->turns;
	r->out->moves += res->moves;
	if (o && o->game_end)
		o->game_end(o->ctx, r->game_no, r->g);
out:
	game_free(r->g);
	r->g = NULL;
	return ret;
}

static int team_of(int seat, int players, int partnership)
{
	return partnership ? seat % (players / 2) : seat;
}

/* R9: the match record: totals ranked, faulted seats last. */
static void match_outcome(struct ref *r, const struct match_state *ms)
{
	struct referee_outcome *out = r->out;
	int n = out->players;

	out->nwinners = 0;
	for (int s = 0; s < n; s++) {
		out->scores[s] = ms->total[s];
		/* R11: a seat removed for a fault never wins its team's match */
		if (ms->winner >= 0 && !r->removed[s] && team_of(s, n, out->partnership) ==
		    team_of(ms->winner, n, out->partnership))
			out->winners[out->nwinners++] = s;
	}
	for (int s = 0; s < n; s++) {
		int place = 1;

		for (int t = 0; t < n; t++)
			if (r->removed[t] < r->removed[s] ||
			    (r->removed[t] == r->removed[s] && ms->total[t] > ms->total[s]))
				place++;
		out->placings[s] = place;
	}
}

/* Seats not removed for a fault. */
static int seats_left(const struct ref *r)
{
	int n = 0;

	for (int s = 0; s < r->out->players; s++)
		n += !r->removed[s];
	return n;
}

int referee_play(const struct referee_setup *setup, struct referee_outcome *out, char *err,
		 size_t err_size)
{
	struct ref r = { .setup = setup, .out = out };
	struct game_rules rules = setup->rules;
	struct match_state ms;
	struct game_result res = { 0 };
	char reason[200] = "";
	int ret;

	memset(out, 0, sizeof(*out));
	protocol_buf_init(&r.buf);
	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++) {
		struct bot *b = s < setup->rules.players ? setup->seats[s].bot : NULL;

		r.err[s].r = &r;
		r.err[s].seat = s;
		if (b)
			r.err[s].saved = bot_set_stderr_handler(b, (struct bot_stderr_handler){
				referee_on_stderr, &r.err[s] });
	}
	if (setup->match)
		ret = match_init(&ms, &rules, reason, sizeof(reason));
	else
		ret = game_rules_check(&rules, reason, sizeof(reason));
	if (ret < 0)
		goto out;
	out->rules = rules;
	if (setup->match) {
		out->rules = ms.rules; /* resolved stock size; the match's own seed */
		out->rules.seed = setup->rules.seed;
	}
	out->players = rules.players;
	out->partnership = rules.partnership;
	out->match = setup->match;
	for (;;) {
		if (setup->match)
			rules = ms.rules;
		if ((ret = play_game(&r, &rules, &res)) < 0)
			goto out;
		if (!setup->match)
			break;
		if ((ret = match_record(&ms, &res)) < 0)
			goto out;
		/* a match whose every seat is out has nothing left to play (R11) */
		if (ms.over || out->games >= REFEREE_MATCH_GAMES_MAX || seats_left(&r) == 0)
			break;
	}
	out->reason = res.reason;
	for (int s = 0; s < out->players; s++) {
		out->stock_left[s] = res.stock_left[s];
		out->placings[s] = res.placing[s];
		out->scores[s] = res.score[s];
		if (res.winners[s])
			out->winners[out->nwinners++] = s;
	}
	if (setup->match)
		match_outcome(&r, &ms);
	for (int s = 0; s < out->players; s++) {
		referee_time_stats(r.times[s].us, r.times[s].n, &out->time[s]);
		referee_cpu_stats(r.times[s].cpu_us, r.times[s].cpu_n, &out->time[s]);
	}
	ret = 0;
out:
	if (ret < 0) {
		if (ret == -ENOMEM)
			snprintf(err, err_size, "out of memory");
		else if (!reason[0])
			snprintf(err, err_size, "%s", engine_strerror(ret));
		else
			snprintf(err, err_size, "%s", reason);
		referee_outcome_release(out);
	}
	for (int s = 0; s < ENGINE_MAX_PLAYERS; s++) {
		if (s < setup->rules.players && setup->seats[s].bot)
			bot_set_stderr_handler(setup->seats[s].bot, r.err[s].saved);
		free(r.err[s].text);
		free(r.times[s].us);
		free(r.times[s].cpu_us);
	}
	protocol_buf_release(&r.buf);
	return ret;
}
