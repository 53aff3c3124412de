/*
 * test_attacks_cards.c - the card-predicting attack bots (attack_cards.h)
 * in a duplicate-deal tournament against `badbot good`, run through the
 * built skipbo-arena with its defaults, judged by what they achieved: the
 * hidden cards they predicted right, summed over every game, must stay
 * within chance (a guess is right 1 time in 9 at best without knowing the
 * deal; the bound is 5 standard deviations above that). And the game ids
 * they were told name no table, deal or rotation.
 *
 * - deck_rebuild: the deal rebuilt with the engine library from seed 1 (the
 *   old default) and the game id, or a search of seed 1's tables and deals.
 *   Defeated by the random seed.
 * - rotation_memory: what rotation r0 showed, remembered in the process and
 *   in /tmp, predicts r1. Defeated by a fresh process per game (and, for the
 *   file, the sandbox's private /tmp); memory-only also runs unsandboxed.
 * - twin_locks: every card shown, published as byte-range locks on the bot's
 *   own program to its processes alive at once (those started ahead for the
 *   next games). Defeated by the filter refusing file locks.
 * - twin_futex: the same relay over futexes on the bot's own program.
 *   Defeated twice: the filter lets no shared futex wait park (the relay's
 *   futex_waitv is refused), and the rotation phases (schedule.h,
 *   tournament.h) keep any process of one rotation of a deal from being
 *   alive with one of another rotation of it.
 * - page_cache: what rotation r0 showed, marked as cached pages of a large
 *   file under /usr, read in r1 by fault-around (pagemap), by major faults
 *   (faults) or by the time a read takes (timing). Defeated by the arena
 *   dropping the page cache at the barrier between rotation phases, which
 *   only root can do: where the arena cannot (--user, or the test run by
 *   an ordinary user) the figures are shown, not judged (the route is
 *   open, SECURITY.md), and the run must say so. The timing case is never
 *   judged, only shown with the bits a game it carried: a timing channel
 *   may keep some residue. Each case starts from a store nobody marked (the bot's
 *   --evict), so earlier runs do not fill it. Sealed, every case is judged,
 *   names looked up (dentry, and dentry-own in the folder of the bot's own
 *   program) among them: the system directories and the bots' own files
 *   are a copy on tmpfs, which keeps no name not found; a sealed run warns
 *   of nothing left undropped.
 *
 * SKIPBO_ATTACK=PATTERN runs only the cases whose names match (cmocka's filter).
 * usage: test_attacks_cards [--user]
 * With --user (when run as root) the arena runs as the ordinary user
 * SKIPBO_TEST_USER names, else nobody; exit 77 (skipped) when there is none
 * or it cannot reach the build. SKIPBO_ATTACK_WEAKEN=seed1 (the tournament
 * file gives seed 1) or =reuse ("processes": "reuse") removes a defence, to
 * see the tests fail without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
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
#define DEALS 15
#define GAMES (DEALS * 2)
#define MIN_PREDICTED 200 /* enough predictions to tell chance from knowledge */

#define MAX_GAME_IDS (GAMES + 8)

struct cards_case {
	const char *attack; /* tests/attacks/attack_<attack> */
	const char *arg;    /* after the token, or "" */
	const char *sandbox;
	int concurrency;
	bool page_cache; /* judged only where the arena can drop the cache (as root) */
	bool timing;     /* a timing channel: shown, never judged */
};

static const struct cards_case cases[] = {
	{ "deck_rebuild", "", "on", 1 },
	{ "rotation_memory", "", "on", 1 },
	{ "rotation_memory", "memory-only", "off", 1 },
	{ "twin_locks", "", "on", 1 },
	{ "twin_futex", "", "on", 1 },
	{ "page_cache", "pagemap", "on", 1, true, false },
	{ "page_cache", "faults", "on", 1, true, false },
	{ "page_cache", "timing", "on", 1, true, true },
	/* every file the bots see kept cached: closed as root and as an ordinary user alike */
	{ "page_cache", "pagemap", "sealed", 1, true, false },
	{ "page_cache", "faults", "sealed", 1, true, false },
	{ "page_cache", "timing", "sealed", 1, true, false },
	/* names looked up and not found: dropped between phases as root; sealed, the system's
	 * names, and those of the bots' own folders (dentry-own), are served from tmpfs, which
	 * keeps none (system_copy.h), as an ordinary user too */
	{ "page_cache", "dentry", "on", 1, true, true },
	{ "page_cache", "dentry", "sealed", 1, true, false },
	{ "page_cache", "dentry-own", "sealed", 1, true, false },
};


/* The running counts of one game, as its last line had them. */
struct game_counts {
	char id[128];
	long right, predicted;
};

/* The user the arena runs as (NULL: the test's own). */
static const struct passwd *user;
/* The bots' programs, copied where the sandbox's uids and the user can run them. */
static char bin[64] = "/tmp/skipbo-cards-bin.XXXXXX";

/* Run the arena in dir as user (or as the test), bounded; its exit status. */
static int run_arena(const char *dir)
{
	const char *args[] = { "run", "--quiet", "--no-report", "t.json", NULL };

	return e2e_wait(e2e_start_as(dir, args, user), WALL_LIMIT_MS, NULL);
}

/* Is the page cache left as a phase's bots leave it (cache_drop.h) in case c: not sealed
 * (cache_pin.h), and the arena runs as an ordinary user (--user, or this test run by one),
 * or /proc/sys is read-only. */
static bool cache_route_open(const struct cards_case *c)
{
	if (strcmp(c->sandbox, "sealed") == 0)
		return false;
	return user || access("/proc/sys/vm/drop_caches", W_OK) != 0;
}

/* Does id name a table, deal or rotation the way the records do (tN-dN-rN)? */
static bool names_a_game(const char *id)
{
	unsigned t, d, r;

	return sscanf(id, "t%u-d%u-r%u", &t, &d, &r) == 3;
}

/* Drop the page-cache attack's store from the cache (attack_page_cache.c) and name it in
 * store; false when it has none on this machine. */
static bool evict_store(char *store, size_t size)
{
	char cmd[256];
	FILE *p;
	bool named;

	snprintf(cmd, sizeof(cmd), "'%s/attack_page_cache' --evict", bin);
	if (!(p = popen(cmd, "r")))
		return false;
	named = fgets(store, (int)size, p) != NULL;
	store[strcspn(store, "\n")] = '\0';
	return pclose(p) == 0 && named;
}

/* The mutual information of a channel that names one of 13 cards, right at rate a and wrong
 * evenly otherwise, in bits. */
static double channel_bits(double a)
{
	double bits = log2(13);

	if (a > 0)
		bits += a * log2(a);
	if (a < 1)
		bits += (1 - a) * log2((1 - a) / 12);
	return bits;
}

/* What a prediction right at rate a carried, roughly: the channel's bits less those of always
 * naming Skip-Bo (right 1 time in 9), at least 0. */
static double bits_per_prediction(double a)
{
	double bits = channel_bits(a) - channel_bits(1.0 / 9);

	return bits > 0 ? bits : 0;
}

static void run_case(const struct cards_case *c)
{
	const char *weaken = getenv("SKIPBO_ATTACK_WEAKEN");
	char dir[256], text[2048], path[600], *log, *line, *save = NULL, *err;
	struct game_counts counts[MAX_GAME_IDS];
	long right = 0, predicted = 0;
	size_t games = 0;
	double chance, bound;
	char store[512];
	int status;

	if (c->page_cache && !evict_store(store, sizeof(store))) {
		printf("%s %s: no store file on this machine (attack_page_cache.c)\n", c->attack,
		       c->arg);
		skip();
	}
	e2e_tempdir(dir, sizeof(dir), "cards");
	if (user && chown(dir, user->pw_uid, user->pw_gid) < 0)
		fail_msg("chown %s: %s", dir, strerror(errno));
	snprintf(text, sizeof(text),
		 "{\"name\":\"cards\",\"bots\":["
		 "{\"name\":\"attacker\",\"command\":[\"%s/attack_%s\",\"tok%d\"%s%s%s]},"
		 "{\"name\":\"good\",\"command\":[\"%s/badbot\",\"good\"]}],"
		 "\"players\":2,\"deals\":%d,\"rules\":{\"stock_size\":10},"
		 "\"time\":{\"startup_ms\":10000,\"move_ms\":10000,\"game_ms\":120000},"
		 "\"concurrency\":%d,\"output\":\"out\",\"sandbox\":\"%s\"%s%s}",
		 bin, c->attack, (int)getpid(), c->arg[0] ? ",\"" : "", c->arg,
		 c->arg[0] ? "\"" : "", bin, DEALS, c->concurrency, c->sandbox,
		 strcmp(c->sandbox, "sealed") == 0 ? PAGE_STORE_SEALED_SYSTEM : "",
		 !weaken ? "" : strcmp(weaken, "seed1") == 0 ? ",\"seed\":1" :
		 strcmp(weaken, "reuse") == 0 ? ",\"processes\":\"reuse\"" : "");
	e2e_write(dir, "t.json", text);
	snprintf(path, sizeof(path), "%s/t.json", dir);
	if (user && chown(path, user->pw_uid, user->pw_gid) < 0)
		fail_msg("chown %s: %s", path, strerror(errno));
	status = run_arena(dir);
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	err = e2e_read(path, NULL);
	if (status != 0)
		fail_msg("%s %s (sandbox %s): skipbo-arena exited %d:\n%.2000s", c->attack, c->arg,
			 c->sandbox, status, err ? err : "");
	free(err);
	/* where the route is open the run says so (SECURITY.md), and only there */
	if (c->page_cache) {
		bool open = cache_route_open(c);

		snprintf(path, sizeof(path), "%s/stdout.txt", dir);
		err = e2e_read(path, NULL);
		if (open != (err && strstr(err, "page cache is not dropped") != NULL))
			fail_msg("%s %s: the run %s the page cache is not dropped:\n%.2000s",
				 c->attack, c->arg, open ? "does not say" : "says", err ? err : "");
		/* sealed, the page cache is closed, and the names are served from tmpfs */
		if (strcmp(c->sandbox, "sealed") == 0 && err && strstr(err, "not dropped"))
			fail_msg("%s %s: the sealed run says something is not dropped:\n%.2000s",
				 c->attack, c->arg, err);
		free(err);
	}
	snprintf(path, sizeof(path), "%s/out/logs/attacker.stderr", dir);
	assert_non_null(log = e2e_read(path, NULL));
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *at = strstr(line, "CARDS ");
		char name[64], id[128];
		long r, n;
		size_t g = 0;

		if (!at || sscanf(at, "CARDS %63s %127s %ld %ld", name, id, &r, &n) != 4)
			continue;
		if (names_a_game(id))
			fail_msg("%s: the bot was told the game id \"%s\"", c->attack, id);
		/* a game's lines are running counts: its last one holds them all */
		while (g < games && strcmp(counts[g].id, id) != 0)
			g++;
		if (g == games) {
			assert_true(games < MAX_GAME_IDS);
			snprintf(counts[games++].id, sizeof(counts[0].id), "%s", id);
		}
		counts[g].right = r;
		counts[g].predicted = n;
	}
	for (size_t g = 0; g < games; g++) {
		right += counts[g].right;
		predicted += counts[g].predicted;
	}
	free(log);
	assert_int_equal(games, (size_t)GAMES);
	assert_true(predicted >= MIN_PREDICTED);
	chance = predicted / 9.0;
	bound = chance + 5 * sqrt(predicted * (1.0 / 9) * (8.0 / 9));
	printf("%s %s (sandbox %s): %ld of %ld hidden cards predicted right (chance %.0f, "
	       "bound %.0f)\n", c->attack, c->arg, c->sandbox, right, predicted, chance, bound);
	if (c->page_cache)
		printf("  store %s: %.1f cards right beyond chance a game, about %.0f bits a game\n",
		       store, (right - chance) / GAMES,
		       predicted * bits_per_prediction((double)right / predicted) / GAMES);
	if (c->page_cache && cache_route_open(c))
		printf("  not judged: the route is open for an arena that cannot drop the page cache "
		       "(an ordinary user, SECURITY.md)\n");
	if (c->timing)
		printf("  not judged: a timing channel may keep some residue\n");
	if (!c->timing && !(c->page_cache && cache_route_open(c)) && right > bound)
		fail_msg("%s %s (sandbox %s): predicted %ld of %ld hidden cards right, beyond "
			 "chance (%.0f expected, at most %.0f allowed)", c->attack, c->arg,
			 c->sandbox, right, predicted, chance, bound);
	snprintf(path, sizeof(path), "/tmp/skipbo-attack-memory-tok%d", (int)getpid());
	unlink(path);
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
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/attack_deck_rebuild' '%s/attack_rotation_memory' "
		 "'%s/attack_twin_locks' '%s/attack_twin_futex' '%s/attack_page_cache' '%s'/",
		 BADBOT_PATH, ATTACKS_DIR, ATTACKS_DIR, ATTACKS_DIR, ATTACKS_DIR, ATTACKS_DIR, bin);
	if (system(cmd) != 0)
		abort();
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0])];
	char names[sizeof(cases) / sizeof(cases[0])][96];
	int failed, ret;

	if (argc > 1 && strcmp(argv[1], "--user") == 0 && (ret = e2e_ordinary_user(&user)) >= 0)
		return ret;
	if (getenv("SKIPBO_ATTACK"))
		cmocka_set_test_filter(getenv("SKIPBO_ATTACK"));
	copy_programs();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(names[i], sizeof(names[i]), "%s%s%s (sandbox %s)", cases[i].attack,
			 cases[i].arg[0] ? " " : "", cases[i].arg, cases[i].sandbox);
		tests[i] = (struct CMUnitTest){ names[i], test_case, NULL, NULL, (void *)&cases[i] };
	}
	failed = _cmocka_run_group_tests(user ? "card attacks as an ordinary user" : "card attacks",
					 tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL);
	e2e_remove(bin);
	return failed;
}
