/*
 * record_fast.c - the arena's own games.jsonl lines read without a tree
 * (contract in record_internal.h).
 *
 * It reads the keys in record_format()'s order and nothing else: any other
 * order, key, value form or escape gives up (-1) and the strict reader reads
 * the line. What it accepts, the strict reader accepts with the same values:
 * strings of printable ASCII with the simple escapes, integers written
 * without sign, fraction or leading zero, and decimals of at most 15 digits,
 * whose value M / 10^k is the correctly rounded one strtod() gives (both
 * operands are exact doubles and one division rounds once).
 */
#include "record_internal.h"

#include <errno.h>
#include <string.h>

struct cursor {
	const char *p, *end;
	char *out;   /* where the next decoded string goes (rd->text) */
	int failed;  /* sticky: the line is not in the arena's layout */
};

static bool lit(struct cursor *c, const char *s, size_t n)
{
	if (c->failed || (size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return !(c->failed = 1);
	c->p += n;
	return true;
}

#define LIT(c, s) lit(c, s, sizeof(s) - 1)

static bool peek(const struct cursor *c, char ch)
{
	return !c->failed && c->p < c->end && *c->p == ch;
}

/* An unsigned integer as the arena writes it (no sign, no leading zero), at most max. */
static bool unsigned_int(struct cursor *c, uint64_t max, uint64_t *out)
{
	const char *p = c->p, *start = p;
	uint64_t v = 0;

	if (c->failed || p == c->end || *p < '0' || *p > '9' || (*p == '0' && p + 1 < c->end &&
								   p[1] >= '0' && p[1] <= '9'))
		return !(c->failed = 1);
	/* wraps past 2^64; the digit count below finds that */
	for (; p < c->end && *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	/* 20 digits fit only from 10^19 to 2^64 - 1, where a wrapped value would be below 10^19 */
	if (p - start > 20 ||
	    (p - start == 20 && (*start != '1' || v < UINT64_C(10000000000000000000))))
		return !(c->failed = 1);
	if (v > max || (p < c->end && (*p == '.' || *p == 'e' || *p == 'E')))
		return !(c->failed = 1);
	c->p = p;
	*out = v;
	return true;
}

static int64_t int_in(struct cursor *c, int64_t max)
{
	uint64_t v = 0;

	unsigned_int(c, (uint64_t)max, &v);
	return (int64_t)v;
}

/* A non-negative decimal of at most 15 digits, at most max. */
static double decimal(struct cursor *c, double max)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
					1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *p = c->p;
	uint64_t m = 0;
	int digits = 0, frac = 0;
	double v;

	if (c->failed || p == c->end || *p < '0' || *p > '9' || (*p == '0' && p + 1 < c->end &&
								   p[1] >= '0' && p[1] <= '9'))
		return !(c->failed = 1);
	for (; p < c->end && *p >= '0' && *p <= '9'; p++, digits++)
		m = m * 10 + (uint64_t)(*p - '0');
	if (p < c->end && *p == '.') {
		p++;
		for (; p < c->end && *p >= '0' && *p <= '9'; p++, digits++, frac++)
			m = m * 10 + (uint64_t)(*p - '0');
		if (!frac)
			return !(c->failed = 1);
	}
	if (digits > 15 || (p < c->end && (*p == 'e' || *p == 'E')))
		return !(c->failed = 1);
	v = (double)m / pow10[frac];
	if (v > max)
		return !(c->failed = 1);
	c->p = p;
	return v;
}

static bool boolean(struct cursor *c, bool *out)
{
	if (peek(c, 't'))
		return (*out = true, LIT(c, "true"));
	*out = false;
	return LIT(c, "false");
}

/* A string of printable ASCII with the simple escapes, decoded into c->out; its length in *len. */
static const char *string(struct cursor *c, size_t *len)
{
	static const char plain[] = "\"\\/bfnrt", decoded[] = "\"\\/\b\f\n\r\t";
	char *start = c->out, *o = c->out;
	const char *p = c->p;

	if (c->failed || p == c->end || *p++ != '"')
		return (c->failed = 1, NULL);
	for (; p < c->end && *p != '"'; p++) {
		const char *k;

		if (*p < 0x20 || *p > 0x7e)
			return (c->failed = 1, NULL);
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		/* \uXXXX and anything unusual: the strict reader */
		if (++p == c->end || !*p || !(k = strchr(plain, *p)))
			return (c->failed = 1, NULL);
		*o++ = decoded[k - plain];
	}
	if (p == c->end)
		return (c->failed = 1, NULL);
	*o++ = '\0';
	c->p = p + 1;
	c->out = o;
	if (len)
		*len = (size_t)(o - start - 1);
	return start;
}

/* [a,b,...] of exactly n integers from lo to hi. */
static void int_array(struct cursor *c, int n, int64_t lo, int64_t hi, int *out)
{
	LIT(c, "[");
	for (int i = 0; i < n; i++) {
		if (i)
			LIT(c, ",");
		out[i] = (int)int_in(c, hi);
		if (out[i] < lo)
			c->failed = 1;
	}
	LIT(c, "]");
}

/* "teams":[[0,2],[1,3]]: every seat in exactly one team. */
static void teams(struct cursor *c, struct record *g)
{
	bool seen[RECORD_SEATS_MAX] = { false };
	int t = 0;

	LIT(c, "[");
	do {
		LIT(c, "[");
		do {
			int64_t s = int_in(c, g->players - 1);

			if (c->failed || seen[s] || t >= g->players)
				return (void)(c->failed = 1);
			seen[s] = true;
			g->team[s] = (uint8_t)t;
		} while (peek(c, ',') && LIT(c, ","));
		LIT(c, "]");
		t++;
	} while (peek(c, ',') && LIT(c, ","));
	LIT(c, "]");
	for (int s = 0; s < g->players; s++)
		if (!seen[s])
			c->failed = 1;
}

static void bots(struct cursor *c, struct record *g)
{
	LIT(c, "[");
	for (int s = 0; s < g->players; s++) {
		size_t len = 0;

		if (s)
			LIT(c, ",");
		g->bots[s] = string(c, &len);
		if (!c->failed && !record_printable_name(g->bots[s], len))
			c->failed = 1;
	}
	LIT(c, "]");
}

static void winners(struct cursor *c, struct record *g)
{
	LIT(c, "[");
	while (!c->failed && !peek(c, ']')) {
		int64_t s;

		if (g->nwinners && !LIT(c, ","))
			break;
		s = int_in(c, g->players - 1);
		if (c->failed || g->nwinners == RECORD_SEATS_MAX)
			return (void)(c->failed = 1);
		g->winner[s] = true;
		g->winners[g->nwinners++] = (int)s;
	}
	LIT(c, "]");
}

/* The key (a literal with its quotes, colon and the comma before it) and its value. */
#define KEY_INT(c, key, max) (LIT(c, key), int_in(c, max))
#define KEY_DECIMAL(c, key, max) (LIT(c, key), decimal(c, max))
#define KEY_STRING(c, key) (LIT(c, key), string(c, NULL))

static void seat_time(struct cursor *c, struct record_time *t)
{
	t->moves = (uint32_t)KEY_INT(c, "{\"moves\":", UINT32_MAX);
	t->mean_us = KEY_DECIMAL(c, ",\"mean_us\":", RECORD_TIME_MAX_US);
	t->median_us = KEY_INT(c, ",\"median_us\":", JSON_STRICT_INT_MAX);
	t->p99_us = KEY_DECIMAL(c, ",\"p99_us\":", RECORD_TIME_MAX_US);
	t->max_us = KEY_DECIMAL(c, ",\"max_us\":", RECORD_TIME_MAX_US);
	if (peek(c, ',')) {
		t->has_cpu = true;
		t->cpu_mean_us = KEY_DECIMAL(c, ",\"cpu_mean_us\":", RECORD_TIME_MAX_US);
		t->cpu_max_us = KEY_INT(c, ",\"cpu_max_us\":", JSON_STRICT_INT_MAX);
	}
	LIT(c, "}");
}

static int faults(struct cursor *c, struct record_reader *rd, struct record *g)
{
	size_t n = 0;

	LIT(c, "[");
	while (!c->failed && !peek(c, ']')) {
		struct record_fault *f;

		if (n && !LIT(c, ","))
			break;
		if (record_reserve_faults(rd, n + 1) < 0)
			return -ENOMEM;
		f = &rd->faults[n++];
		f->seat = (int)KEY_INT(c, "{\"seat\":", g->players - 1);
		f->bot = KEY_STRING(c, ",\"bot\":");
		f->kind = KEY_STRING(c, ",\"kind\":");
		f->game = KEY_INT(c, ",\"game\":", JSON_STRICT_INT_MAX);
		f->turn = KEY_INT(c, ",\"turn\":", JSON_STRICT_INT_MAX);
		f->move = KEY_INT(c, ",\"move\":", JSON_STRICT_INT_MAX);
		f->reason = KEY_STRING(c, ",\"reason\":");
		f->line = KEY_STRING(c, ",\"line\":");
		LIT(c, "}");
	}
	LIT(c, "]");
	g->faults = rd->faults;
	g->nfaults = n;
	return 0;
}

/* From "id" to "games". */
static void head(struct cursor *c, struct record *g)
{
	uint64_t v = 0;

	g->id = KEY_STRING(c, "{\"id\":");
	g->table = (uint32_t)KEY_INT(c, ",\"table\":", INT32_MAX);
	g->deal = (uint32_t)KEY_INT(c, ",\"deal\":", INT32_MAX);
	g->rotation = (uint32_t)KEY_INT(c, ",\"rotation\":", INT32_MAX);
	LIT(c, ",\"seed\":");
	unsigned_int(c, UINT64_MAX, &g->seed);
	LIT(c, ",\"players\":");
	if (unsigned_int(c, RECORD_SEATS_MAX, &v) && v < 2)
		c->failed = 1;
	g->players = (int)v;
	LIT(c, ",\"partnership\":");
	boolean(c, &g->partnership);
	LIT(c, ",\"teams\":");
	if (!c->failed)
		teams(c, g);
	LIT(c, ",\"match\":");
	boolean(c, &g->match);
	g->games = (int)KEY_INT(c, ",\"games\":", INT32_MAX);
	if (g->games < 1)
		c->failed = 1;
}

/* The optional replay keys at the end. */
static void replay(struct cursor *c, struct record *g)
{
	g->replay_known = true;
	if (!peek(c, ','))
		return;
	g->replay = KEY_STRING(c, ",\"replay\":");
	if (!peek(c, ','))
		return;
	g->has_replay_at = true;
	LIT(c, ",\"replay_offset\":");
	unsigned_int(c, JSON_STRICT_INT_MAX, &g->replay_offset);
	LIT(c, ",\"replay_line\":");
	unsigned_int(c, JSON_STRICT_INT_MAX, &g->replay_line);
}

int record_parse_fast(struct record_reader *rd, const char *line, size_t len, struct record *g)
{
	struct cursor c = { line, line + len, rd->text, 0 };
	int n;

	memset(g, 0, sizeof(*g));
	head(&c, g);
	n = g->players;
	LIT(&c, ",\"bots\":");
	bots(&c, g);
	LIT(&c, ",\"winners\":");
	winners(&c, g);
	g->reason = KEY_STRING(&c, ",\"reason\":");
	LIT(&c, ",\"placings\":");
	int_array(&c, n, 1, n, g->placings);
	LIT(&c, ",\"stock_left\":");
	int_array(&c, n, 0, 162, g->stock_left);
	LIT(&c, ",\"scores\":");
	int_array(&c, n, 0, INT32_MAX, g->scores);
	g->turns = KEY_INT(&c, ",\"turns\":", JSON_STRICT_INT_MAX);
	g->moves = KEY_INT(&c, ",\"moves\":", JSON_STRICT_INT_MAX);
	LIT(&c, ",\"time\":[");
	for (int s = 0; s < n; s++) {
		if (s)
			LIT(&c, ",");
		seat_time(&c, &g->time[s]);
	}
	g->has_time = true;
	LIT(&c, "],\"faults\":");
	if (!c.failed && faults(&c, rd, g) < 0)
		return -ENOMEM;
	replay(&c, g);
	LIT(&c, "}");
	return c.failed || c.p != c.end ? -1 : 0;
}
