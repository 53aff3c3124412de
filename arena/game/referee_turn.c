/*
 * referee_turn.c - one seat's turn for the referee (referee_internal.h): the
 * request out and the answer in against the seat's deadline, their times,
 * the faults a bot can make (R11) and its stderr kept for each decision.
 */

#include "referee_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "own_delay.h"
#include "protocol.h"

/* game_end and game_start go to bots that answered before: a short allowance. */
#define REFEREE_NOTICE_MS 1000
/* How long to wait for an exit after EOF, to tell "exit" from "closed". */
#define REFEREE_EXIT_WAIT_US 200000

static int push_u32(uint32_t **a, size_t *n, size_t *cap, uint32_t v)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		uint32_t *na = reallocarray(*a, ncap, sizeof(**a));

		if (!na)
			return -ENOMEM;
		*a = na;
		*cap = ncap;
	}
	(*a)[(*n)++] = v;
	return 0;
}

static void notify_line(struct ref *r, int seat, enum referee_dir dir, const char *line,
			size_t len)
{
	const struct referee_observer *o = r->setup->observer;

	if (o && o->line)
		o->line(o->ctx, r->setup->seats[seat].name, seat, dir, line, len, clock_now_us());
}

/* Cut line for a fault record: at most REFEREE_LINE_KEEP bytes, never inside a UTF-8 sequence. */
static void keep_line(char *dst, const char *line, size_t len)
{
	size_t n = len;

	if (n > REFEREE_LINE_KEEP) {
		n = REFEREE_LINE_KEEP;
		while (n > 0 && ((unsigned char)line[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, line, n);
	strcpy(dst + n, len > n ? "..." : "");
}

int referee_fault_placed(enum protocol_fault_kind kind)
{
	switch (kind) {
	case PROTOCOL_FAULT_MALFORMED:
	case PROTOCOL_FAULT_PROTOCOL:
	case PROTOCOL_FAULT_ILLEGAL:
		return 1;
	case PROTOCOL_FAULT_TIMEOUT:
	case PROTOCOL_FAULT_EXIT:
	case PROTOCOL_FAULT_CLOSED:
	case PROTOCOL_FAULT_START:
	case PROTOCOL_FAULT_KINDS:
		return 0;
	}
	return 0;
}

/* Record a fault for seat, remove it from the game and the match (R11). */
int referee_add_fault(struct ref *r, int seat, enum protocol_fault_kind kind, const char *line,
		     size_t len, const char *fmt, ...)
{
	struct referee_outcome *out = r->out;
	const struct referee_observer *o = r->setup->observer;
	struct referee_fault *f, *nf;
	struct game_result res;
	char at[48] = "";
	va_list ap;

	/* its last words (a traceback, say) reach the observer before the fault */
	if (r->setup->seats[seat].bot)
		bot_wait_stderr(r->setup->seats[seat].bot, r->setup->fault_stderr_ms);
	nf = reallocarray(out->faults, out->nfaults + 1, sizeof(*out->faults));
	if (!nf)
		return -ENOMEM;
	out->faults = nf;
	f = &out->faults[out->nfaults++];
	memset(f, 0, sizeof(*f));
	game_result(r->g, &res);
	f->seat = seat;
	f->game = r->game_no;
	f->kind = kind;
	f->turn = kind != PROTOCOL_FAULT_START ? res.turns : 0;
	f->move = kind != PROTOCOL_FAULT_START ? res.moves + 1 : 0;
	if (referee_fault_placed(kind))
		snprintf(at, sizeof(at), " (at turn %" PRIu32 ", move %" PRIu32 ")", f->turn,
			 f->move);
	/* a reason too long is cut before its position, which always fits */
	va_start(ap, fmt);
	vsnprintf(f->reason, sizeof(f->reason) - strlen(at), fmt, ap);
	va_end(ap);
	strlcat(f->reason, at, sizeof(f->reason));
	keep_line(f->line, line ? line : "", line ? len : 0);
	out->faulted[seat] = 1;
	r->removed[seat] = 1;
	r->fault_kind[seat] = protocol_fault_kind_names[kind];
	if (!r->at_start && game_status(r->g) == GAME_RUNNING)
		game_remove_seat(r->g, seat);
	if (o && o->fault)
		o->fault(o->ctx, f, r->g);
	return 0;
}

/* The kind of a decode error: malformed, protocol or illegal. */
static enum protocol_fault_kind decode_fault(int code)
{
	int k = protocol_fault_kind_of(code);

	return k < 0 ? PROTOCOL_FAULT_PROTOCOL : (enum protocol_fault_kind)k;
}

/* EOF or a broken pipe: did the bot exit, or just close its end? */
static int pipe_fault(struct ref *r, int seat, int writing)
{
	struct bot *b = r->setup->seats[seat].bot;
	int64_t until = clock_now_us() + REFEREE_EXIT_WAIT_US;
	struct timespec pause = { 0, 1000000 };
	int status;

	while (!bot_exited(b, &status)) {
		if (clock_now_us() >= until)
			return referee_add_fault(r, seat, PROTOCOL_FAULT_CLOSED, NULL, 0, writing ?
					 "closed its standard input while still running" :
					 "closed its standard output while still running");
		nanosleep(&pause, NULL);
	}
	if (WIFSIGNALED(status))
		return referee_add_fault(r, seat, PROTOCOL_FAULT_EXIT, NULL, 0, "killed by signal %d (%s)",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
	return referee_add_fault(r, seat, PROTOCOL_FAULT_EXIT, NULL, 0, "exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Write buf to seat; a failure is the seat's fault. Returns 0, 1 (faulted) or -ENOMEM. */
static int send_line(struct ref *r, int seat, int64_t deadline_us, int64_t limit_ms)
{
	struct bot *b = r->setup->seats[seat].bot;
	int ret = bot_write_line(b, r->buf.data, r->buf.len, deadline_us);

	notify_line(r, seat, REFEREE_TO_BOT, r->buf.data, r->buf.len);
	if (ret == 0)
		return 0;
	if (ret == -ETIMEDOUT)
		ret = referee_add_fault(r, seat, PROTOCOL_FAULT_TIMEOUT, NULL, 0,
				"did not read its input within %lld ms", (long long)limit_ms);
	else
		ret = pipe_fault(r, seat, 1);
	return ret < 0 ? ret : 1;
}

int referee_send_game_start(struct ref *r, int seat)
{
	const struct referee_setup *s = r->setup;
	const struct game_rules *rules = game_rules(r->g);
	struct protocol_game_start gs = { 0 };
	int ret;

	strlcpy(gs.game, r->bot_id, sizeof(gs.game));
	gs.seat = seat;
	gs.players = rules->players;
	for (int i = 0; i < rules->players; i++)
		strlcpy(gs.names[i], s->seats[i].name, sizeof(gs.names[i]));
	gs.partnership = rules->partnership;
	gs.partner = rules->partnership ? (seat + rules->players / 2) % rules->players : -1;
	gs.stock_size = rules->stock_size;
	gs.move_ms = s->move_ms;
	gs.game_ms = s->game_ms;
	if ((ret = protocol_encode_game_start(&r->buf, &gs)) < 0)
		return ret == PROTOCOL_ENOMEM ? -ENOMEM : -EINVAL;
	return send_line(r, seat, clock_now_us() + REFEREE_NOTICE_MS * 1000, REFEREE_NOTICE_MS);
}

int referee_send_game_end(struct ref *r, const struct game_result *res)
{
	const struct referee_outcome *out = r->out;
	struct protocol_game_end ge = { 0 };
	int ret;

	strlcpy(ge.game, r->bot_id, sizeof(ge.game));
	ge.players = r->out->players;
	ge.result = *res;
	for (size_t i = 0; i < out->nfaults; i++) {
		const struct referee_fault *f = &out->faults[i];

		if (f->game != r->game_no || ge.n_faults == ENGINE_MAX_PLAYERS)
			continue;
		ge.faults[ge.n_faults].seat = f->seat;
		strlcpy(ge.faults[ge.n_faults].kind, protocol_fault_kind_names[f->kind],
			sizeof(ge.faults[0].kind));
		strlcpy(ge.faults[ge.n_faults].reason, f->reason, sizeof(ge.faults[0].reason));
		ge.n_faults++;
	}
	if ((ret = protocol_encode_game_end(&r->buf, &ge)) < 0)
		return ret == PROTOCOL_ENOMEM ? -ENOMEM : -EINVAL;
	for (int seat = 0; seat < out->players; seat++) {
		struct bot *b = r->setup->seats[seat].bot;

		if (r->removed[seat] || !b)
			continue;
		/* the game is decided: a bot that cannot take game_end only loses its process */
		if (bot_write_line(b, r->buf.data, r->buf.len,
				   clock_now_us() + REFEREE_NOTICE_MS * 1000) < 0)
			r->out->faulted[seat] = 1;
		notify_line(r, seat, REFEREE_TO_BOT, r->buf.data, r->buf.len);
	}
	return 0;
}

static uint32_t clamp_u32(int64_t v)
{
	return v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* The charged time and CPU time of an answered decision, for the seat's statistics. */
static int record_time(struct ref *r, int seat, int64_t charged_us, int64_t cpu_us)
{
	struct seat_times *t = &r->times[seat];
	int ret;

	if ((ret = push_u32(&t->us, &t->n, &t->cap, clamp_u32(charged_us))) < 0)
		return ret;
	return push_u32(&t->cpu_us, &t->cpu_n, &t->cpu_cap, clamp_u32(cpu_us));
}

/* The seat's stderr since its last decision, for the game log: NULL if none. */
char *referee_take_stderr(struct seat_stderr *e)
{
	char *text = e->text, note[64];
	int n;

	if (e->left_out) {
		n = snprintf(note, sizeof(note), "%s[%zu more line%s not kept]", e->len ? "\n" : "",
			     e->left_out, e->left_out == 1 ? "" : "s");
		if (!(text = realloc(e->text, e->len + (size_t)n + 1)))
			return NULL;
		memcpy(text + e->len, note, (size_t)n + 1);
	}
	e->text = NULL;
	e->len = e->lines = e->left_out = 0;
	return text;
}

/*
 * An applied decision in the game log: its time, CPU time and stderr, in the
 * order of the decision events (a faulty answer has no event, so none of
 * these either). seat -1: a decision replayed, not asked (no stderr).
 */
int referee_log_decision(struct ref *r, int seat, int64_t charged_us, int64_t cpu_us)
{
	struct referee_game_log *log = r->log;
	size_t n = log->nmoves, ncpu = n;
	int ret;

	if ((ret = push_u32(&log->move_cpu_us, &ncpu, &r->log_cpu_cap, clamp_u32(cpu_us))) < 0)
		return ret;
	if (r->setup->keep_stderr) {
		if (n >= r->log_stderr_cap) {
			size_t cap = r->log_stderr_cap ? r->log_stderr_cap * 2 : 64;
			char **grown = reallocarray(log->move_stderr, cap, sizeof(*grown));

			if (!grown)
				return -ENOMEM;
			log->move_stderr = grown;
			r->log_stderr_cap = cap;
		}
		log->move_stderr[n] = seat >= 0 ? referee_take_stderr(&r->err[seat]) : NULL;
	}
	return push_u32(&log->move_us, &log->nmoves, &r->log_moves_cap, clamp_u32(charged_us));
}

/* A stderr line of a seat's bot: to the observer, and kept for its decision. */
void referee_on_stderr(void *ctx, const char *line, size_t len)
{
	struct seat_stderr *e = ctx;
	const struct referee_setup *s = e->r->setup;
	const struct referee_observer *o = s->observer;

	if (o && o->stderr_line)
		o->stderr_line(o->ctx, s->seats[e->seat].name, e->seat, line, len);
	if (!s->keep_stderr)
		return;
	if (e->lines < REFEREE_STDERR_LINES && e->len + len + 1 <= REFEREE_STDERR_KEEP) {
		char *grown = realloc(e->text, e->len + len + 2);

		if (grown) {
			e->text = grown;
			if (e->lines)
				e->text[e->len++] = '\n';
			memcpy(e->text + e->len, line, len);
			e->len += len;
			e->text[e->len] = '\0';
			e->lines++;
			return;
		}
	}
	e->left_out++;
}

/* The bot's CPU time since its last answer (or the game's start), -1 if unknown. */
static int64_t cpu_since_last(struct ref *r, int seat)
{
	int64_t now = bot_cpu_us(r->setup->seats[seat].bot), used = -1;

	if (now >= 0 && r->cpu_us[seat] >= 0)
		used = now - r->cpu_us[seat];
	r->cpu_us[seat] = now;
	return used;
}

/*
 * Output the seat wrote while no request was outstanding is a protocol
 * fault, never the answer to the request about to be sent. Returns 0 (none),
 * 1 (faulted) or a negative code.
 */
static int check_unasked_output(struct ref *r, int seat)
{
	struct bot *b = r->setup->seats[seat].bot;
	long pending = bot_unread_output(b);
	const char *line = NULL;
	size_t len = 0;
	int ret;

	if (pending == 0)
		return 0;
	if (pending < 0)
		return (ret = pipe_fault(r, seat, 0)) < 0 ? ret : 1;
	if (bot_read_line(b, &line, &len, 0) != 0)
		line = NULL, len = 0;
	else
		notify_line(r, seat, REFEREE_FROM_BOT, line, len);
	if (r->answered[seat])
		ret = referee_add_fault(r, seat, PROTOCOL_FAULT_PROTOCOL, line, len,
				"a second answer to move %" PRIu32 ": it wrote %s after its answer "
				"and before the next request (one line per request)",
				r->answered[seat], line ? "a line" : "more output");
	else
		ret = referee_add_fault(r, seat, PROTOCOL_FAULT_PROTOCOL, line, len,
				"answered before the request: it wrote %s before it was asked "
				"for a move (answer only after reading a request)",
				line ? "a line" : "output");
	return ret < 0 ? ret : 1;
}

void referee_unflushed_hint(struct bot *b, int as_hello, char *out, size_t size)
{
	long pending = bot_unread_output(b);

	if (pending > 0)
		snprintf(out, size, "; it wrote %ld byte%s without a newline: end each line with "
			 "\\n and flush stdout after it", pending, pending == 1 ? "" : "s");
	else if (pending == 0 && as_hello)
		snprintf(out, size, "; it wrote nothing on stdout: did it flush stdout after "
			 "its hello?");
	else if (size)
		out[0] = '\0';
}

/* The time a late-answer fault or a timeout quotes. */
int referee_machine_delay_likely(int64_t cpu_us, int64_t limit_us, double load1, long ncpu)
{
	return cpu_us >= 0 && cpu_us * 2 <= limit_us && ncpu > 0 && load1 >= (double)ncpu;
}

int referee_machine_delay(const char *reason)
{
	return strstr(reason, REFEREE_MACHINE_NOTE) != NULL;
}

/* What a timeout's reason adds when the delay is likely the machine's, else "". */
static const char *machine_note(int64_t cpu_us, int64_t limit_us)
{
	double load[1];

	if (getloadavg(load, 1) < 1 ||
	    !referee_machine_delay_likely(cpu_us, limit_us, load[0], sysconf(_SC_NPROCESSORS_ONLN)))
		return "";
	return "; " REFEREE_MACHINE_NOTE ": it used under half its limit in CPU time on a "
	       "loaded machine, so it mostly waited to run (lower -j), unless it slept";
}

static const char *bank_note(const struct ref *r, int64_t limit_us)
{
	return limit_us < (int64_t)r->setup->move_ms * 1000 ? " (the rest of its game bank)" : "";
}

/*
 * Wait for the answer to the request written at t0 (monotonic µs) up to
 * its limit plus the margin; after a stop of the arena (stops0 is
 * own_delay_stops() before the request), for a full limit more. Sets *wall_us
 * and *cpu_us (the bot's CPU time for the decision, -1 unknown) and *late
 * (the answer is past its limit by the rules of PROTOCOL.md, "Time").
 * Returns what bot_read_line_live() returns.
 */
static int wait_answer(struct ref *r, int seat, int64_t t0, int64_t limit_us, uint64_t stops0,
		       const char **line, size_t *len, int64_t *wall_us, int64_t *cpu_us,
		       int *late)
{
	struct bot *b = r->setup->seats[seat].bot;
	int timed = r->setup->move_ms > 0;
	/* in the margin an answer is on time if the bot's CPU time stayed within the
	 * limit: the rest was the machine's delay, not the bot's thinking */
	int64_t margin_us = (int64_t)(r->setup->margin_ms ? r->setup->margin_ms :
				      REFEREE_MARGIN_MS) * 1000;
	int64_t deadline = timed ? t0 + limit_us + margin_us : INT64_MAX, now;
	int ret, stopped, restarted = 0;

	for (;;) {
		ret = bot_read_line_live(b, line, len, deadline);
		now = clock_now_us();
		stopped = own_delay_stops() != stops0;
		if (ret != -ETIMEDOUT || !stopped || restarted)
			break;
		/* the arena was stopped: the bot gets its limit again from now, once */
		restarted = 1;
		deadline = now + limit_us;
	}
	*wall_us = now - t0;
	*cpu_us = cpu_since_last(r, seat);
	*late = timed && *wall_us > limit_us &&
		(*cpu_us < 0 || *cpu_us > limit_us || (*wall_us > limit_us + margin_us && !stopped));
	return ret;
}

/* One decision of the seat to move. Returns 0 (played or faulted) or a negative code. */
int referee_play_decision(struct ref *r, int seat)
{
	const struct referee_setup *s = r->setup;
	const struct referee_observer *o = s->observer;
	struct bot *b = s->seats[seat].bot;
	struct move legal[ENGINE_MAX_MOVES], m;
	struct protocol_request_args req = { 0 };
	struct protocol_diag diag = { 0 };
	uint64_t stops0;
	struct seat_view view;
	const struct event *events;
	size_t nevents, len;
	const char *line;
	int64_t limit_us, t0, wall, cpu, charged;
	int n, ret, status, late, timed = s->move_ms > 0;
	struct game_result res;

	game_view(r->g, seat, &view);
	n = game_legal_moves(r->g, legal);
	events = game_events(r->g, &nevents);
	game_result(r->g, &res);
	limit_us = (int64_t)s->move_ms * 1000;
	if (r->bank_us[seat] < limit_us)
		limit_us = r->bank_us[seat];
	if (timed && limit_us <= 0)
		return referee_add_fault(r, seat, PROTOCOL_FAULT_TIMEOUT, NULL, 0, "its game bank of %d ms is used up",
				 s->game_ms) < 0 ? -ENOMEM : 0;
	if ((ret = check_unasked_output(r, seat)) != 0)
		return ret < 0 ? ret : 0;
	req.game = r->bot_id;
	req.turn = view.turn;
	req.move = res.moves + 1;
	req.move_ms = timed ? s->move_ms : 0;
	req.bank_ms = timed ? r->bank_us[seat] / 1000 : 0;
	req.view = &view;
	req.events = events + r->seen[seat];
	req.n_events = nevents - r->seen[seat];
	req.fault = r->fault_kind;
	req.legal = legal;
	req.n_legal = n;
	req.compact = s->seats[seat].compact;
	if ((ret = protocol_encode_request(&r->buf, &req)) < 0)
		return ret == PROTOCOL_ENOMEM ? -ENOMEM : -EINVAL;
	r->seen[seat] = nevents;
	stops0 = own_delay_stops();
	/*
	 * The clock starts as the request goes into the pipe, just before the
	 * write call: when the bot shares our CPU the kernel often runs it, and
	 * it answers, before write() returns to us, so a clock started after
	 * the call would miss the bot's thinking time.
	 */
	t0 = clock_now_us();
	if ((ret = send_line(r, seat, timed ? t0 + limit_us : INT64_MAX, limit_us / 1000)) != 0)
		return ret < 0 ? ret : 0;
	ret = wait_answer(r, seat, t0, limit_us, stops0, &line, &len, &wall, &cpu, &late);
	if (ret == -ECHILD && bot_exited(b, &status))
		/* its output stays open only because a child of it still holds the pipe */
		return referee_add_fault(r, seat, PROTOCOL_FAULT_EXIT, NULL, 0, "exited (status %d) without answering; "
				 "a process it left behind holds its output open",
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (ret == -ETIMEDOUT) {
		char hint[128];

		referee_unflushed_hint(b, 0, hint, sizeof(hint));
		return referee_add_fault(r, seat, PROTOCOL_FAULT_TIMEOUT, NULL, 0, "no answer within %lld ms%s%s",
				 (long long)(limit_us / 1000), bank_note(r, limit_us), hint);
	}
	if (ret == -EMSGSIZE)
		return referee_add_fault(r, seat, PROTOCOL_FAULT_MALFORMED, NULL, 0,
				 "line longer than %d bytes", BOT_LINE_MAX);
	if (ret < 0)
		return pipe_fault(r, seat, 0);
	notify_line(r, seat, REFEREE_FROM_BOT, line, len);
	/* what it wrote on stderr before answering belongs to this decision; a
	 * system call per decision that only someone watching needs */
	if (s->keep_stderr || (o && o->stderr_line))
		bot_poll_stderr(b);
	r->answered[seat] = req.move;
	if (late)
		return referee_add_fault(r, seat, PROTOCOL_FAULT_TIMEOUT, line, len,
				 "answered after %lld ms (%lld ms of CPU time), past its limit of %lld ms%s%s",
				 (long long)(wall / 1000), (long long)(cpu / 1000),
				 (long long)(limit_us / 1000), bank_note(r, limit_us),
				 machine_note(cpu, limit_us));
	/* an answer on time in the margin uses up the whole limit */
	charged = timed && wall > limit_us ? limit_us : wall;
	if ((ret = record_time(r, seat, charged, cpu)) < 0)
		return ret;
	if (timed)
		r->bank_us[seat] -= charged;
	ret = protocol_decode_move(line, len, legal, n, r->g, &m, &diag);
	if (ret == PROTOCOL_ENOMEM)
		return -ENOMEM;
	if (ret < 0)
		return referee_add_fault(r, seat, decode_fault(ret), line, len, "%s", diag.message);
	if ((ret = game_apply(r->g, &m)) < 0)
		return referee_add_fault(r, seat, PROTOCOL_FAULT_ILLEGAL, line, len, "%s", engine_strerror(ret));
	if ((ret = referee_log_decision(r, seat, charged, cpu)) < 0)
		return ret;
	if (o && o->move)
		o->move(o->ctx, seat, &m, charged, r->g);
	return 0;
}
