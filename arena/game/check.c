/*
 * check.c - diagnosing one bot for its author (contract in check.h).
 */
#include "check.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "termsafe.h"

/* A decision slower than this share of move_ms is worth a warning, though legal. */
#define CHECK_SLOW_PERCENT 50

static const char expected_move[] =
	"one line holding one JSON object {\"type\":\"move\",\"move\":<one of the request's "
	"\"legal\" moves>}, UTF-8, at most 65536 bytes";

static const char *card_name(int card, char *buf, size_t size)
{
	if (card == CARD_SKIPBO)
		return "SB";
	if (card == CARD_NONE)
		return "-";
	snprintf(buf, size, "%d", card);
	return buf;
}

void check_format_move(const struct move *m, char *buf, size_t size)
{
	switch (m->kind) {
	case MOVE_PASS:
		snprintf(buf, size, "{\"action\":\"pass\"}");
		break;
	case MOVE_DISCARD:
		snprintf(buf, size, "{\"action\":\"discard\",\"card\":%d,\"pile\":%d}", m->card,
			 m->target);
		break;
	case MOVE_PLAY:
		if (m->source == SOURCE_HAND)
			snprintf(buf, size, "{\"action\":\"play\",\"from\":\"hand\",\"card\":%d,"
				 "\"to\":%d}", m->card, m->target);
		else if (m->source == SOURCE_STOCK)
			snprintf(buf, size, "{\"action\":\"play\",\"from\":\"stock\",\"seat\":%d,"
				 "\"card\":%d,\"to\":%d}", m->owner, m->card, m->target);
		else
			snprintf(buf, size, "{\"action\":\"play\",\"from\":\"discard\",\"seat\":%d,"
				 "\"pile\":%d,\"card\":%d,\"to\":%d}", m->owner, m->pile, m->card,
				 m->target);
		break;
	default:
		snprintf(buf, size, "(move kind %d)", m->kind);
	}
}

static const char *seat_role(const struct seat_view *v, int s)
{
	if (s == v->seat)
		return "you";
	if (v->partnership && s == v->partner)
		return "partner";
	return "opponent";
}

void check_print_position(FILE *out, const struct seat_view *v, const char *indent)
{
	char b[8];

	fprintf(out, "%sturn %" PRIu32 ", seat %d to move; draw pile %d, completed %d\n", indent,
		v->turn, v->to_move, v->draw_size, v->completed_size);
	fprintf(out, "%shand:", indent);
	for (int k = 0; k < v->hand_size; k++)
		fprintf(out, " %s", card_name(v->hand[k], b, sizeof(b)));
	fprintf(out, v->hand_size ? "\n" : " empty\n");
	/* a building pile shows the value it has reached: the next card must be one more (R4) */
	fprintf(out, "%sbuilding piles:", indent);
	for (int p = 0; p < ENGINE_BUILDING_PILES; p++)
		if (v->building_value[p])
			fprintf(out, " [%d] at %d", p, v->building_value[p]);
		else
			fprintf(out, " [%d] empty", p);
	fputc('\n', out);
	for (int s = 0; s < v->players; s++) {
		fprintf(out, "%sseat %d (%s): stock top %s (%d cards), discard tops", indent, s,
			seat_role(v, s), card_name(v->stock_top[s], b, sizeof(b)), v->stock_size[s]);
		for (int p = 0; p < ENGINE_DISCARD_PILES; p++) {
			int n = v->discard_size[s][p];

			fprintf(out, " [%d] %s", p, n ? card_name(v->discard[s][p][n - 1], b, sizeof(b)) :
				"empty");
		}
		fprintf(out, v->removed[s] ? ", removed\n" : "\n");
	}
}

/* The checked bot's next decision, if it is to move: keep what it will be asked. */
static void snapshot(struct check *c, const struct game *g)
{
	c->have_position = 0;
	if (c->seat < 0 || game_status(g) != GAME_RUNNING || game_to_move(g) != c->seat)
		return;
	game_view(g, c->seat, &c->view);
	c->nlegal = game_legal_moves(g, c->legal);
	c->have_position = 1;
}

static void keep_line(char *dst, size_t size, const char *line, size_t len)
{
	size_t n = len < size - 4 ? len : size - 4;

	/* never cut inside a UTF-8 sequence */
	while (n < len && n > 0 && ((unsigned char)line[n] & 0xc0) == 0x80)
		n--;
	memcpy(dst, line, n);
	strcpy(dst + n, n < len ? "..." : "");
}

/* label, then text from a bot escaped (termsafe.h), then a newline. */
static void print_text(FILE *out, const char *label, const char *text)
{
	fputs(label, out);
	termsafe_puts(out, text);
	fputc('\n', out);
}

static void on_line(void *ctx, const char *name, int seat, enum referee_dir dir,
		    const char *line, size_t len, int64_t at_us)
{
	struct check *c = ctx;

	if (c->transcript.observer.line)
		c->transcript.observer.line(&c->transcript, name, seat, dir, line, len, at_us);
	if (name == c->bot && seat < 0 && dir == REFEREE_FROM_BOT) {
		keep_line(c->hello, sizeof(c->hello), line, len);
		c->have_hello = 1;
	}
	if (name == c->bot && seat >= 0 && dir == REFEREE_FROM_BOT)
		c->answers++;
}

static void on_stderr_line(void *ctx, const char *name, int seat, const char *line, size_t len)
{
	struct check *c = ctx;

	if (c->echo_on)
		c->echo.observer.stderr_line(&c->echo, name, seat, line, len);
	if (name != c->bot)
		return;
	keep_line(c->err_lines[c->err_count % CHECK_STDERR_LINES], CHECK_STDERR_KEEP + 4, line, len);
	c->err_count++;
}

static void on_game_end(void *ctx, int game, const struct game *g)
{
	struct check *c = ctx;

	if (c->echo_on)
		c->echo.observer.game_end(&c->echo, game, g);
}

/* The checked bot's last stderr lines, then forget them. */
static void print_stderr_tail(struct check *c)
{
	size_t n = c->err_count < CHECK_STDERR_LINES ? c->err_count : CHECK_STDERR_LINES;

	if (!n) {
		fprintf(c->out, "    stderr:   nothing\n");
		return;
	}
	if (n < c->err_count)
		fprintf(c->out, "    stderr, last %zu of %zu lines:\n", n, c->err_count);
	else
		fprintf(c->out, "    stderr:\n");
	for (size_t i = c->err_count - n; i < c->err_count; i++)
		print_text(c->out, "      ", c->err_lines[i % CHECK_STDERR_LINES]);
	c->err_count = 0;
}

static void on_game_start(void *ctx, int game, const struct game *g)
{
	struct check *c = ctx;
	struct seat_view v;

	(void)game;
	if (c->seat < 0)
		return;
	game_view(g, c->seat, &v);
	if (c->have_hello && !c->hello_shown && !v.removed[c->seat]) {
		print_text(c->out, "  hello: ", c->hello);
		c->hello_shown = 1;
	}
	c->have_position = 0;
	snapshot(c, g);
}

/* The decision just applied to g, taking us, among the slowest if it is one. */
static void keep_slow(struct check *c, uint32_t us, const struct game *g)
{
	struct game_result res;
	int i;

	if (c->nslow == CHECK_SLOWEST && c->slow[CHECK_SLOWEST - 1].us >= us)
		return;
	if (c->nslow < CHECK_SLOWEST)
		c->nslow++;
	game_result(g, &res);
	for (i = c->nslow - 1; i > 0 && c->slow[i - 1].us < us; i--)
		c->slow[i] = c->slow[i - 1];
	c->slow[i] = (struct check_slow){ us, c->game, res.moves };
}

int check_slowest(const struct check *c, const struct check_slow **out)
{
	*out = c->slow;
	return c->nslow;
}

static void on_move(void *ctx, int seat, const struct move *m, int64_t elapsed_us,
		    const struct game *g)
{
	struct check *c = ctx;

	(void)m;
	if (seat == c->seat) {
		uint32_t us = elapsed_us > UINT32_MAX ? UINT32_MAX : (uint32_t)elapsed_us;

		if (c->nus == c->cap) {
			size_t ncap = c->cap ? c->cap * 2 : 1024;
			uint32_t *na = reallocarray(c->us, ncap, sizeof(*na));

			if (na) {
				c->us = na;
				c->cap = ncap;
			}
		}
		if (c->nus < c->cap)
			c->us[c->nus++] = us;
		else
			c->out_of_memory = 1;
		c->game_us += elapsed_us;
		keep_slow(c, us, g);
	}
	snapshot(c, g);
}

static void print_expected(struct check *c, const struct referee_fault *f)
{
	FILE *out = c->out;
	switch (f->kind) {
	case PROTOCOL_FAULT_START:
		if (c->have_hello)
			print_text(out, "    line:     ", c->hello);
		fprintf(out, "    expected: a first line {\"type\":\"hello\",\"protocol\":1,"
			"\"name\":\"<1 to 63 bytes>\"} within %d ms of the start\n",
			c->limits.startup_ms);
		break;
	case PROTOCOL_FAULT_TIMEOUT:
		fprintf(out, "    expected: an answer within %d ms per move and within the "
			"%d ms game bank (read each request as it arrives)\n", c->limits.move_ms,
			c->limits.game_ms);
		if (referee_machine_delay(f->reason))
			fprintf(out, "    hint:     other work on this machine kept it from running: "
				"check again when the machine is quieter (in a tournament, lower -j), "
				"or replay the position with play --from\n");
		/* the reason says so already when bytes without a newline are waiting */
		else if (!c->answers && !strstr(f->reason, "flush"))
			fprintf(out, "    hint:     it answered nothing in this game: did it flush "
				"stdout after each line?\n");
		break;
	case PROTOCOL_FAULT_EXIT:
	case PROTOCOL_FAULT_CLOSED:
		fprintf(out, "    expected: the process running with stdin and stdout open until "
			"\"quit\" or the end of its input\n");
		break;
	case PROTOCOL_FAULT_MALFORMED:
	case PROTOCOL_FAULT_PROTOCOL:
		if (f->line[0])
			print_text(out, "    line:     ", f->line);
		fprintf(out, "    expected: %s\n", expected_move);
		if (c->have_position && c->nlegal > 0) {
			char mv[CHECK_MOVE_MAX];

			check_format_move(&c->legal[0], mv, sizeof(mv));
			fprintf(out, "    such as:  {\"type\":\"move\",\"move\":%s}\n", mv);
		}
		break;
	case PROTOCOL_FAULT_ILLEGAL:
		print_text(out, "    sent:     ", f->line);
		fprintf(out, "    expected: one of the request's \"legal\" moves\n");
		break;
	case PROTOCOL_FAULT_KINDS:
		break;
	}
}

static void print_alternatives(struct check *c)
{
	char mv[CHECK_MOVE_MAX];

	fprintf(c->out, "    legal alternatives (%d):\n", c->nlegal);
	for (int i = 0; i < c->nlegal; i++) {
		check_format_move(&c->legal[i], mv, sizeof(mv));
		fprintf(c->out, "      %s\n", mv);
	}
}

/* The group of the checked bot's fault f (kind and reason, each run of
 * digits as one '#'), added if new and there is room; NULL when full. */
static int fault_group(struct check *c, const struct referee_fault *f, int *is_new)
{
	char key[sizeof(c->groups[0].key)];
	size_t n = 0;

	n = (size_t)snprintf(key, sizeof(key), "%s: ", protocol_fault_kind_names[f->kind]);
	for (const char *r = f->reason; *r && n + 1 < sizeof(key); r++) {
		if (isdigit((unsigned char)*r) && n && key[n - 1] == '#')
			continue;
		key[n++] = isdigit((unsigned char)*r) ? '#' : *r;
	}
	key[n] = '\0';
	*is_new = 0;
	for (int i = 0; i < c->ngroups; i++)
		if (!strcmp(c->groups[i].key, key)) {
			c->groups[i].count++;
			return i;
		}
	if (c->ngroups == CHECK_GROUPS)
		return -1;
	strlcpy(c->groups[c->ngroups].key, key, sizeof(c->groups[0].key));
	c->groups[c->ngroups].first = c->problems;
	c->groups[c->ngroups].count = 1;
	*is_new = 1;
	return c->ngroups++;
}

static void on_fault(void *ctx, const struct referee_fault *f, const struct game *g)
{
	struct check *c = ctx;
	int own = f->seat == c->seat, group = -1, is_new = 1;

	if (c->transcript.observer.fault)
		c->transcript.observer.fault(&c->transcript, f, g);
	if (own) {
		c->problems++;
		group = fault_group(c, f, &is_new);
	} else {
		c->opponent_faults++;
	}
	fprintf(c->out, "  %s %d: %s fault", own ? "PROBLEM" : "OPPONENT FAULT",
		c->problems + c->opponent_faults, protocol_fault_kind_names[f->kind]);
	/* a reason placed by the referee says where itself */
	if (f->kind != PROTOCOL_FAULT_START && !referee_fault_placed(f->kind))
		fprintf(c->out, " at turn %" PRIu32 ", decision %" PRIu32, f->turn, f->move);
	fprintf(c->out, "%s: ", own ? "" : " (not the checked bot)");
	print_text(c->out, "", f->reason);
	if (own && !is_new)
		/* the diagnosis is the first one's: one line is enough */
		fprintf(c->out, "    as PROBLEM %d above (%d times so far)\n",
			c->groups[group].first, c->groups[group].count);
	else if (own) {
		print_expected(c, f);
		if (c->have_position &&
		    (f->kind == PROTOCOL_FAULT_ILLEGAL || f->kind == PROTOCOL_FAULT_TIMEOUT)) {
			fprintf(c->out, "    position:\n");
			check_print_position(c->out, &c->view, "      ");
		}
		if (c->have_position && f->kind == PROTOCOL_FAULT_ILLEGAL)
			print_alternatives(c);
		print_stderr_tail(c);
	}
	snapshot(c, g);
}

void check_init(struct check *c, FILE *out, const char *bot, const struct check_limits *limits,
		int verbose)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->bot = bot;
	c->limits = *limits;
	c->seat = -1;
	transcript_init(&c->transcript);
	if (verbose)
		transcript_attach(&c->transcript, out);
	c->observer = (struct referee_observer){ c, on_line, on_game_start, on_move, on_fault,
		on_game_end, on_stderr_line };
}

void check_show_stderr(struct check *c, FILE *to)
{
	echo_init(&c->echo, to);
	c->echo_on = 1;
}

void check_release(struct check *c)
{
	transcript_close(&c->transcript);
	free(c->us);
	c->us = NULL;
	c->nus = c->cap = 0;
}

void check_begin_game(struct check *c, int game, int seat)
{
	c->game = game;
	c->seat = seat;
	c->have_hello = 0;
	c->have_position = 0;
	c->game_us = 0;
	c->answers = 0;
	c->err_count = 0;
}

void check_end_game(struct check *c, const struct referee_outcome *o,
		    const char *const *names)
{
	int s = c->seat;

	int no_start = 0;

	if (c->game_us > c->max_game_us)
		c->max_game_us = c->game_us;
	for (size_t i = 0; i < o->nfaults; i++)
		no_start |= o->faults[i].seat == s && o->faults[i].kind == PROTOCOL_FAULT_START;
	c->failed_starts = no_start ? c->failed_starts + 1 : 0;
	fprintf(c->out, "  result: %s after %" PRIu32 " turns, %" PRIu32 " decisions; %s placed "
		"%d of %d, score %d", o->reason ? end_reason_name(o->reason) : "none", o->turns,
		o->moves, names[s], o->placings[s], o->players, o->scores[s]);
	if (!o->faulted[s])
		fprintf(c->out, ", %.1f ms thinking", (double)c->game_us / 1000.0);
	fputc('\n', c->out);
	c->seat = -1;
	c->have_position = 0;
}

int check_summary(struct check *c)
{
	struct referee_time_stats t;
	int total = c->problems + c->opponent_faults;

	referee_time_stats(c->us, c->nus, &t);
	if (t.moves) {
		fprintf(c->out, "time per move (%" PRIu32 " answered): median %.3f ms, p99 %.3f ms, "
			"max %.3f ms; limit %d ms per move%s\n", t.moves, (double)t.median_us / 1000.0,
			(double)t.p99_us / 1000.0, (double)t.max_us / 1000.0, c->limits.move_ms,
			c->limits.move_ms ? "" : " (none)");
		fprintf(c->out, "time per game: at most %.1f ms of the %d ms game bank\n",
			(double)c->max_game_us / 1000.0, c->limits.game_ms);
		if (c->limits.move_ms &&
		    t.max_us * 100 > (int64_t)c->limits.move_ms * 1000 * CHECK_SLOW_PERCENT)
			fprintf(c->out, "warning: the slowest move took %.0f%% of the move limit\n",
				(double)t.max_us / 10.0 / c->limits.move_ms);
	} else {
		fprintf(c->out, "time per move: no move was answered\n");
	}
	if (c->out_of_memory)
		fprintf(c->out, "warning: out of memory, some times are missing\n");
	if (!total) {
		fprintf(c->out, "PASS\n");
		return 0;
	}
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i].count > 1)
			fprintf(c->out, "%d times: %s (first: PROBLEM %d)\n", c->groups[i].count,
				c->groups[i].key, c->groups[i].first);
	fprintf(c->out, "FAIL: %d problem%s", total, total == 1 ? "" : "s");
	if (c->opponent_faults)
		fprintf(c->out, " (%d of them the opponent's)", c->opponent_faults);
	fputc('\n', c->out);
	return 1;
}
