/*
 * test_attacks_partners.c - partners who read each other's hidden hand
 * (R10: partners have no channel), in a 4-player partnership tournament of
 * two attackers and two `badbot good`, run through the built skipbo-arena
 * with the sandbox on. The table's pairings (arena/TOURNAMENT.md, "The
 * schedule") seat the two attackers as partners in a third of the games.
 * In those games each attacker logs its hand at every request (HAND) and
 * the hands it heard from its partner (HEARD); the test counts the partner
 * hand cards heard right over the tournament, against what the best blind
 * guess of a whole hand gets.
 *
 * - partner_futex: the hand sent over futexes on the attackers' program
 *   (attack_partner_futex.c). Judged: the cards heard right must stay
 *   within 5 standard deviations above the blind guess's mean. Defeated by
 *   the filter (seccomp_filter.h): a shared futex wait returns at once, so
 *   no thread parks where a process of another sandbox can wake it.
 * - partner_page_cache: the hand marked as cached pages of a large file
 *   under /usr (attack_partner_page_cache.c), read by fault-around
 *   (pagemap), by major faults (faults) or by the time a read takes
 *   (timing). Shown, not judged, with "sandbox": "on": the arena drops the
 *   page cache only at the barriers between rotation phases, so within a
 *   game the route is open (SECURITY.md). Judged when sealed (every file the
 *   bots see kept cached). Each case starts from a store nobody marked.
 * - the same relay over names looked up and not found (dentry): judged
 *   when sealed, where the system directories are a copy on tmpfs, which
 *   keeps no name not found (system_copy.h); and in the folder of the
 *   attackers' program, which both see (dentry-own): judged when sealed,
 *   where the bots' own files are in that copy too.
 * - the same relay over the CPU's cache (reload: flush and reload of lines
 *   of pages both map): shown, sealed, as what sealing leaves.
 * - opponents: the two attackers alone in a 2-player field (two entries of
 *   one author who agreed to talk), the sandbox left at its default (auto,
 *   which seals every field), the store shown by "system": pagemap and
 *   faults judged; the run must be recorded sealed.
 *
 * usage: test_attacks_partners [--user]
 * SKIPBO_ATTACK=PATTERN runs only the cases whose names match (cmocka's filter).
 * With --user (when run as root) the arena runs as the ordinary user
 * SKIPBO_TEST_USER names, else nobody; exit 77 (skipped) when there is none
 * or it cannot reach the build.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e.h"
#include "page_store.h"

#define WALL_LIMIT_MS 120000
#define DEALS 2
#define GAMES (DEALS * 3 * 4)        /* 3 pairings x 4 seat rotations per deal */
#define PARTNER_GAMES (DEALS * 4)    /* pairing {02|13}: the attackers are partners */
#define OPPONENT_DEALS 8             /* 2 seats, the attackers alone: every game theirs */
#define OPPONENT_GAMES (OPPONENT_DEALS * 2)
#define MIN_PREDICTED 200            /* enough hand cards to tell chance from knowledge */
#define VALUES 13                    /* card values: 0 (Skip-Bo) .. 12 */
#define HAND_MAX 5
#define DECK 162

/* One HAND or HEARD line of an attacker's log. */
struct hand_line {
	char game[64];
	int seat, seq, n;
	int cards[HAND_MAX];
};

/* The lines of one attacker's log. */
struct attacker_log {
	struct hand_line *hands, *heard;
	size_t nhands, nheard;
	long longest_us; /* the longest reading of a partner (HEARING), 0 if none */
};

/* The user the arena runs as (NULL: the test's own). */
static const struct passwd *user;
/* The bots' programs, copied where the sandbox's uids and the user can run them. */
static char bin[64] = "/tmp/skipbo-partners-bin.XXXXXX";

/* ---- chance ---- */

static double choose(int n, int k)
{
	double r = 1;

	if (k < 0 || k > n)
		return 0;
	for (int i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

static int deck_count(int value)
{
	return value == 0 ? 18 : 12;
}

/* P(a hand of h cards drawn from the deck holds at least j of value). */
static double at_least(int value, int j, int h)
{
	double p = 0;

	for (int n = j; n <= h; n++)
		p += choose(deck_count(value), n) * choose(DECK - deck_count(value), h - n);
	return p / choose(DECK, h);
}

/* Sum over the hands of h cards (value by value from v) of P x right and P x right^2. */
static void sum_hands(int v, int left, double weight, int right, const int *guess, double *m1,
		      double *m2)
{
	if (v == VALUES) {
		if (left == 0) {
			*m1 += weight * right;
			*m2 += weight * right * right;
		}
		return;
	}
	for (int n = 0; n <= left; n++)
		sum_hands(v + 1, left - n, weight * choose(deck_count(v), n), right +
			  (n < guess[v] ? n : guess[v]), guess, m1, m2);
}

/*
 * The best blind guess of a hand of h cards, drawn from the deck: the
 * multiset of h cards whose expected overlap with the hand is largest (a
 * value's j-th copy adds P(at least j of it), so the h largest of those),
 * and the mean and variance of that overlap.
 */
static void blind_guess(int h, double *mean, double *variance)
{
	int guess[VALUES] = { 0 };
	double m1 = 0, m2 = 0;

	for (int k = 0; k < h; k++) {
		int best = 0;

		for (int v = 1; v < VALUES; v++)
			if (at_least(v, guess[v] + 1, h) > at_least(best, guess[best] + 1, h))
				best = v;
		guess[best]++;
	}
	sum_hands(0, h, 1, 0, guess, &m1, &m2);
	*mean = m1 / choose(DECK, h);
	*variance = m2 / choose(DECK, h) - *mean * *mean;
}

/* ---- the logs ---- */

static int compare_lines(const void *a, const void *b)
{
	const struct hand_line *x = a, *y = b;
	int c = strcmp(x->game, y->game);

	if (c)
		return c;
	if (x->seat != y->seat)
		return x->seat - y->seat;
	/* seq -1 in a key: any line of that game and seat */
	return x->seq < 0 || y->seq < 0 ? 0 : x->seq - y->seq;
}

static const struct hand_line *find_line(const struct hand_line *lines, size_t n, const char *game,
					 int seat, int seq)
{
	struct hand_line key = { .seat = seat, .seq = seq };

	snprintf(key.game, sizeof key.game, "%s", game);
	return n ? bsearch(&key, lines, n, sizeof key, compare_lines) : NULL;
}

/* "game seat seq cards" (after HAND or HEARD) into *out: true if it is one. */
static bool parse_line(const char *text, struct hand_line *out)
{
	char cards[64], *card, *save = NULL;

	if (sscanf(text, "%63s %d %d %63s", out->game, &out->seat, &out->seq, cards) != 4)
		return false;
	out->n = 0;
	for (card = strtok_r(cards, ",", &save); card && strcmp(card, "-") != 0;
	     card = strtok_r(NULL, ",", &save))
		if (out->n < HAND_MAX)
			out->cards[out->n++] = atoi(card);
	return true;
}

static void push_line(struct hand_line **lines, size_t *n, const struct hand_line *line)
{
	/* doubling at each power of two: a log of a million lines is read in linear time */
	if ((*n & (*n - 1)) == 0 &&
	    !(*lines = reallocarray(*lines, *n ? 2 * *n : 1, sizeof **lines)))
		abort();
	(*lines)[(*n)++] = *line;
}

/* The HAND and HEARD lines of dir/out/logs/<name>.stderr, sorted, and its longest HEARING. */
static void read_log(const char *dir, const char *name, struct attacker_log *log)
{
	char path[600], *text, *line, *save = NULL;

	memset(log, 0, sizeof *log);
	snprintf(path, sizeof path, "%s/out/logs/%s.stderr", dir, name);
	if (!(text = e2e_read(path, NULL)))
		fail_msg("no log %s", path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct hand_line l;
		const char *at;
		long us;

		if ((at = strstr(line, "HAND ")) && parse_line(at + 5, &l))
			push_line(&log->hands, &log->nhands, &l);
		else if ((at = strstr(line, "HEARD ")) && parse_line(at + 6, &l))
			push_line(&log->heard, &log->nheard, &l);
		else if ((at = strstr(line, "HEARING ")) &&
			 sscanf(at + 8, "%*s %*d longest %ld", &us) == 1 && us > log->longest_us)
			log->longest_us = us;
	}
	free(text);
	/* qsort's array may not be NULL, even empty */
	if (log->nhands)
		qsort(log->hands, log->nhands, sizeof *log->hands, compare_lines);
	if (log->nheard)
		qsort(log->heard, log->nheard, sizeof *log->heard, compare_lines);
}

/* Cards of hand that heard names (each card once). */
static int overlap(const struct hand_line *hand, const struct hand_line *heard)
{
	bool used[HAND_MAX] = { false };
	int right = 0;

	for (int i = 0; heard && i < heard->n; i++)
		for (int k = 0; k < hand->n; k++)
			if (!used[k] && hand->cards[k] == heard->cards[i]) {
				used[k] = true;
				right++;
				break;
			}
	return right;
}

/* What the tournament showed: the partners' hands, and what was heard of them. */
struct tally {
	long right, predicted;
	double chance, variance;
	size_t partner_games;
	size_t hands, heard; /* partner hands of a card or more, and those heard */
};

/* Add a's hands in the games where b was its partner (across a table of players), and what
 * b heard of them. */
static void tally_hands(const struct attacker_log *a, const struct attacker_log *b, int players,
			const double *mean, const double *variance, struct tally *t)
{
	for (size_t i = 0; i < a->nhands; i++) {
		const struct hand_line *h = &a->hands[i], *heard;

		if (!find_line(b->hands, b->nhands, h->game, (h->seat + players / 2) % players, -1))
			continue;
		if (h->seq == 1)
			t->partner_games++;
		if (h->n == 0)
			continue;
		heard = find_line(b->heard, b->nheard, h->game, h->seat, h->seq);
		t->hands++;
		t->heard += heard != NULL;
		t->predicted += h->n;
		t->chance += mean[h->n];
		t->variance += variance[h->n];
		t->right += overlap(h, heard);
	}
}

/* ---- the tournament ---- */

struct partner_case {
	const char *attack; /* tests/attacks/attack_<attack> */
	const char *arg;    /* after the token, or "" */
	bool judged;        /* the cards heard right must stay within chance */
	bool sealed;        /* --sandbox sealed: every file the bots see kept cached */
	bool opponents;     /* a 2-player field of the attackers alone, "sandbox" left out */
};

static const struct partner_case cases[] = {
	{ "partner_futex", "", true, false },
	{ "partner_page_cache", "pagemap", false, false },
	{ "partner_page_cache", "faults", false, false },
	{ "partner_page_cache", "timing", false, false },
	{ "partner_page_cache", "reload", false, false },
	{ "partner_page_cache", "pagemap", true, true },
	{ "partner_page_cache", "faults", true, true },
	{ "partner_page_cache", "timing", true, true },
	{ "partner_page_cache", "reload", false, true },
	{ "partner_page_cache", "dentry", true, true },
	{ "partner_page_cache", "dentry-own", true, true },
	/* opponents who agreed to talk, in the default sandbox (auto: sealed) */
	{ "partner_page_cache", "pagemap", true, false, true },
	{ "partner_page_cache", "faults", true, false, true },
};

/* The games of case c, and those where the attackers sat as partners (or opponents). */
static int games_of(const struct partner_case *c)
{
	return c->opponents ? OPPONENT_GAMES : GAMES;
}

static int partner_games_of(const struct partner_case *c)
{
	return c->opponents ? OPPONENT_GAMES : PARTNER_GAMES;
}

/* The mutual information of a channel that names one of 13 cards, right at rate a and wrong
 * evenly otherwise, in bits. */
static double channel_bits(double a)
{
	double bits = log2(VALUES);

	if (a > 0)
		bits += a * log2(a);
	if (a < 1)
		bits += (1 - a) * log2((1 - a) / (VALUES - 1));
	return bits;
}

/*
 * What the cards heard carried in a partner game, roughly: each card's bits at the rate heard
 * right less those at the blind guess's rate, at least 0. A card kept in hand over several
 * requests counts at each, so this overstates what is new.
 */
static double bits_a_game(const struct tally *t, int partner_games)
{
	double a = (double)t->right / t->predicted, blind = t->chance / t->predicted;
	double bits = channel_bits(a) - channel_bits(blind);

	return bits > 0 ? t->predicted * bits / partner_games : 0;
}

/* Run the tournament of case c in dir; fails unless every game was recorded. */
static void run_tournament(const struct partner_case *c, const char *dir)
{
	const char *args[] = { "run", "--quiet", "--no-report", "t.json", NULL };
	char text[2048], path[600], attacker[256], *err;
	cJSON **recs;
	size_t n;
	int status;

	/* dentry-own: both attackers run the one program of a folder they alone see whole */
	snprintf(attacker, sizeof attacker, "\"command\":[\"%s%s/attack_%s\",\"tok%d\"%s%s%s]",
		 bin, strcmp(c->arg, "dentry-own") ? "" : "/own", c->attack, (int)getpid(),
		 c->arg[0] ? ",\"" : "", c->arg, c->arg[0] ? "\"" : "");
	/* opponents: "sandbox" left out; "system" shows the store, which what a C program needs,
	 * derived, does not hold (the attacker would have nothing to mark) */
	if (c->opponents)
		snprintf(text, sizeof text,
			 "{\"name\":\"opponents\",\"bots\":["
			 "{\"name\":\"attacker1\",%s},{\"name\":\"attacker2\",%s}],"
			 "\"players\":2,\"deals\":%d,\"rules\":{\"stock_size\":10},"
			 "\"time\":{\"startup_ms\":10000,\"move_ms\":10000,\"game_ms\":120000},"
			 "\"concurrency\":1,\"output\":\"out\"%s}", attacker, attacker, OPPONENT_DEALS,
			 PAGE_STORE_SEALED_SYSTEM);
	else
		snprintf(text, sizeof text,
		 "{\"name\":\"partners\",\"bots\":["
		 "{\"name\":\"attacker1\",%s},"
		 "{\"name\":\"good1\",\"command\":[\"%s/badbot\",\"good\"]},"
		 "{\"name\":\"attacker2\",%s},"
		 "{\"name\":\"good2\",\"command\":[\"%s/badbot\",\"good\"]}],"
		 "\"players\":4,\"deals\":%d,\"rules\":{\"stock_size\":10,\"partnership\":true},"
		 "\"time\":{\"startup_ms\":10000,\"move_ms\":10000,\"game_ms\":120000},"
		 "\"concurrency\":1,\"output\":\"out\",\"sandbox\":\"%s\"%s}",
		 attacker, bin, attacker, bin, DEALS, c->sealed ? "sealed" : "on",
		 c->sealed ? PAGE_STORE_SEALED_SYSTEM : "");
	e2e_write(dir, "t.json", text);
	snprintf(path, sizeof path, "%s/t.json", dir);
	if (user && (chown(dir, user->pw_uid, user->pw_gid) < 0 ||
		     chown(path, user->pw_uid, user->pw_gid) < 0))
		fail_msg("chown %s: %s", dir, strerror(errno));
	status = e2e_wait(e2e_start_as(dir, args, user), WALL_LIMIT_MS, NULL);
	snprintf(path, sizeof path, "%s/stderr.txt", dir);
	err = e2e_read(path, NULL);
	if (status != 0)
		fail_msg("%s %s: skipbo-arena exited %d:\n%.2000s", c->attack, c->arg, status,
			 err ? err : "");
	free(err);
	/* a partnership run warns of the page cache unless sealed */
	snprintf(path, sizeof path, "%s/stdout.txt", dir);
	err = e2e_read(path, NULL);
	if (!c->opponents &&
	    c->sealed == (err && strstr(err, "partners can pass each other their hands through the "
					"kernel's caches") != NULL))
		fail_msg("%s %s: the run %s the page cache between partners:\n%.2000s", c->attack,
			 c->arg, c->sealed ? "warns of" : "does not warn of", err ? err : "");
	free(err);
	snprintf(path, sizeof path, "%s/out", dir);
	n = e2e_records(path, &recs);
	for (size_t i = 0; c->judged && i < n; i++)
		assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(recs[i], "faults")), 0);
	e2e_free_records(recs, n);
	assert_int_equal(n, games_of(c));
}

/* The "sandbox" dir's tournament.json records, into mode. */
static void recorded_mode(const char *dir, char *mode, size_t size)
{
	char path[600];
	cJSON *t;

	snprintf(path, sizeof path, "%s/out/tournament.json", dir);
	assert_non_null(t = e2e_read_json(path));
	snprintf(mode, size, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(t, "sandbox")) ?
		 cJSON_GetStringValue(cJSON_GetObjectItem(t, "sandbox")) : "");
	cJSON_Delete(t);
}

static void run_case(const struct partner_case *c)
{
	double mean[HAND_MAX + 1] = { 0 }, variance[HAND_MAX + 1] = { 0 }, bound;
	char dir[256], store[512], mode[32];
	struct attacker_log logs[2];
	struct tally t = { 0 };
	long longest_us;
	bool page = strcmp(c->attack, "partner_page_cache") == 0;

	if (page && page_store_evict(store, sizeof store) < 0) {
		printf("%s %s: no store file on this machine (page_store.h)\n", c->attack, c->arg);
		skip();
	}
	for (int h = 1; h <= HAND_MAX; h++)
		blind_guess(h, &mean[h], &variance[h]);
	e2e_tempdir(dir, sizeof dir, "partners");
	run_tournament(c, dir);
	recorded_mode(dir, mode, sizeof mode);
	read_log(dir, "attacker1", &logs[0]);
	read_log(dir, "attacker2", &logs[1]);
	tally_hands(&logs[0], &logs[1], c->opponents ? 2 : 4, mean, variance, &t);
	tally_hands(&logs[1], &logs[0], c->opponents ? 2 : 4, mean, variance, &t);
	longest_us = logs[0].longest_us > logs[1].longest_us ? logs[0].longest_us :
							       logs[1].longest_us;
	for (int i = 0; i < 2; i++) {
		free(logs[i].hands);
		free(logs[i].heard);
	}
	bound = t.chance + 5 * sqrt(t.variance);
	printf("%s%s%s: %ld of %ld partner hand cards heard right (the best blind guess %.0f, "
	       "bound %.0f)\n", c->attack, c->arg[0] ? " " : "", c->arg, t.right, t.predicted,
	       t.chance, bound);
	if (page)
		printf("  store %s: %zu of %zu hands heard, %.1f cards right beyond the blind guess "
		       "and about %.0f bits a partner game, the longest reading %.1f ms\n", store,
		       t.heard, t.hands, (t.right - t.chance) / partner_games_of(c),
		       bits_a_game(&t, partner_games_of(c)),
		       longest_us / 1000.0);
	if (!c->judged && !c->sealed)
		printf("  not judged: the page cache is open between processes alive at once "
		       "unless --sandbox sealed (SECURITY.md)\n");
	else if (!c->judged)
		printf("  not judged: the CPU's caches are shared by processes alive at once, and "
		       "sealed or not, pages of a file both map are read by flush and reload "
		       "(SECURITY.md)\n");
	/* both partners of each such game */
	assert_int_equal(t.partner_games, 2 * partner_games_of(c));
	assert_true(t.predicted >= MIN_PREDICTED);
	if (c->judged && t.right > bound)
		fail_msg("%s: the partners heard %ld of %ld hand cards right, beyond chance (%.0f "
			 "expected, at most %.0f allowed)", c->attack, t.right, t.predicted, t.chance,
			 bound);
	/* opponents: the default seals them too */
	if (c->opponents)
		assert_string_equal(mode, "sealed");
	e2e_remove(dir);
}

static void test_case(void **state)
{
	run_case(*state);
}

/* Copy the bots' programs into bin (mode 0755). */
static void copy_programs(void)
{
	char cmd[1024];

	if (!mkdtemp(bin) || chmod(bin, 0755) < 0)
		abort();
	snprintf(cmd, sizeof cmd, "cp '%s' '%s/attack_partner_futex' "
		 "'%s/attack_partner_page_cache' '%s'/ && mkdir -m 755 '%s/own' && "
		 "cp '%s/attack_partner_page_cache' '%s/own/'", BADBOT_PATH, ATTACKS_DIR,
		 ATTACKS_DIR, bin, bin, ATTACKS_DIR, bin);
	if (system(cmd) != 0)
		abort();
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof cases / sizeof cases[0]];
	char names[sizeof cases / sizeof cases[0]][64];
	int failed, ret;

	if (argc > 1 && strcmp(argv[1], "--user") == 0 && (ret = e2e_ordinary_user(&user)) >= 0)
		return ret;
	if (getenv("SKIPBO_ATTACK"))
		cmocka_set_test_filter(getenv("SKIPBO_ATTACK"));
	copy_programs();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(names[i], sizeof names[i], "%s%s%s%s", cases[i].attack,
			 cases[i].arg[0] ? " " : "", cases[i].arg, cases[i].sealed ? " sealed" :
			 cases[i].opponents ? " opponents" : "");
		tests[i] = (struct CMUnitTest){ names[i], test_case, NULL, NULL, (void *)&cases[i] };
	}
	failed = _cmocka_run_group_tests(user ? "partner attacks as an ordinary user" :
					 "partner attacks", tests, sizeof tests / sizeof tests[0],
					 NULL, NULL);
	e2e_remove(bin);
	return failed;
}
