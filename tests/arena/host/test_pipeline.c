/*
 * test_pipeline.c - a hosted competition's pipeline (pipeline.h) end to
 * end, with the built skipbo-arena: submissions unpacked, built in the
 * sandbox, checked against the league's anchor (the easy bot) and entered,
 * or failed at the right stage with the right reason. Two competitions
 * run at once: one of ordinary bots, and one of hostile builds under small
 * limits. Needs bwrap (skipped with 77 where the sandbox is not there).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "remove_tree.h"

#include "league_entries.h"
#include "pipeline.h"
#include "submissions.h"

/* Far above the slowest run seen (about a minute on 2 loaded cores). */
#define HANG_GUARD_S 400

struct competition {
	char dir[64];
	struct submissions ss;
	int uploads;
};

static void write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(fp = fopen(path, "w"));
	fputs(text, fp);
	fclose(fp);
	assert_int_equal(chmod(path, mode), 0);
}

static void run(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("%s failed", cmd);
}

/* A competition in a new directory: its league's anchor, the easy bot, entered. */
static void competition_init(struct competition *c)
{
	struct league_entries es;
	struct config_bot easy = { 0 };
	char err[1024], name[LEAGUE_ENTRY_NAME_MAX], *argv[] = { EASY_PATH, NULL };
	char *env[] = { NULL };

	strcpy(c->dir, "/tmp/test_pipeline.XXXXXX");
	assert_non_null(mkdtemp(c->dir));
	/* as root the sandboxes' uids must reach the trees below */
	assert_int_equal(chmod(c->dir, 0755), 0);
	write_file(c->dir, "league.jsonc", "{\"players\": 2, \"bots\": [],\n"
		   " \"league\": {\"anchors\": {\"skipbo-easy\": -1000}}}\n", 0644);
	assert_int_equal(league_entries_open(&es, c->dir, err, sizeof(err)), 0);
	easy.name = "skipbo-easy";
	easy.argv = argv;
	easy.cwd = c->dir;
	easy.env = env;
	if (league_entries_add(&es, &easy, LEAGUE_ENTRY_ANCHOR | LEAGUE_ENTRY_DECLARED, name, err,
			       sizeof(err)) < 0)
		fail_msg("%s", err);
	league_entries_release(&es);
	assert_int_equal(submissions_open(&c->ss, c->dir, err, sizeof(err)), 0);
	run("mkdir -p %s/incoming %s/src", c->dir, c->dir);
}

/* A folder for a bot's files: DIR/src/NAME, made empty. */
static void source(const struct competition *c, const char *bot, char *out, size_t size)
{
	snprintf(out, size, "%s/src/%s", c->dir, bot);
	run("rm -rf %s && mkdir -p %s", out, out);
}

/* Submit the archive made by the shell command make (a printf format that gets the
 * archive's path, then src) as author's bot; its id. */
static uint64_t submit_made(struct competition *c, const char *author, const char *bot,
			    const char *make, const char *src)
{
	char archive[PATH_MAX], err[1024] = "";
	uint64_t id;
	long retry;

	snprintf(archive, sizeof(archive), "%s/incoming/%d.tar.gz", c->dir, c->uploads++);
	run(make, archive, src);
	if (submissions_receive(&c->ss, author, bot, archive, 0, time(NULL), &id, &retry, err,
				sizeof(err)) < 0)
		fail_msg("%s", err);
	return id;
}

/* Submit the folder src as author's bot (a .tar.gz made of it); its id. */
static uint64_t submit(struct competition *c, const char *author, const char *bot,
		       const char *src)
{
	return submit_made(c, author, bot, "tar czf %s -C %s .", src);
}

/* Wait until every submission of c is entered or failed. */
static bool settled(struct competition *c)
{
	char err[1024];

	assert_int_equal(submissions_refresh(&c->ss, err, sizeof(err)), 0);
	for (size_t i = 0; i < c->ss.n; i++)
		if (c->ss.s[i].state != SUBMISSION_ENTERED && c->ss.s[i].state != SUBMISSION_FAILED)
			return false;
	return true;
}

static void wait_settled(struct competition *a, struct competition *b)
{
	for (int i = 0; i < HANG_GUARD_S * 10 && !(settled(a) && settled(b)); i++)
		usleep(100000);
	assert_true(settled(a) && settled(b));
}

static const struct submission *expect(struct competition *c, uint64_t id,
				       enum submission_state state, enum submission_state stage,
				       const char *words)
{
	const struct submission *s = submissions_find(&c->ss, id);

	if (s->state != state || (state == SUBMISSION_FAILED && s->failed_at != stage) ||
	    (words && (!s->why || !strstr(s->why, words))))
		fail_msg("submission %s/%s: %s at %s: %s (expected %s at %s, \"%s\")", s->author,
			 s->bot, submission_state_name(s->state),
			 submission_state_name(s->failed_at), s->why ? s->why : "",
			 submission_state_name(state), submission_state_name(stage),
			 words ? words : "");
	return s;
}

/* The text of DIR/submissions/ID/name holds words. */
static void file_holds(struct competition *c, uint64_t id, const char *name, const char *words)
{
	const size_t size = 2 << 20;
	char path[PATH_MAX], *text = malloc(size);
	size_t n;
	FILE *fp;

	assert_non_null(text);
	assert_int_equal(submissions_path(&c->ss, id, name, path, sizeof(path)), 0);
	if (!(fp = fopen(path, "r")))
		fail_msg("%s: missing", path);
	n = fread(text, 1, size - 1, fp);
	text[n] = '\0';
	fclose(fp);
	if (!strstr(text, words))
		fail_msg("%s does not hold \"%s\":\n%.4000s", path, words, text);
	free(text);
}

/* The entry called name in c's league: its index, or -1. */
static int entry_of(struct competition *c, const char *name, struct league_entries *es)
{
	char err[1024];

	assert_int_equal(league_entries_open(es, c->dir, err, sizeof(err)), 0);
	return league_entries_named(es, name);
}

/* As after a kill -9 of the host: one submission cut short mid-build, one entered in the
 * league just before its "entered" was written. A new start redoes the first and marks the
 * second entered, without a second entry. */
static void resume(struct competition *c, struct pipeline_setup *setup)
{
	struct league_entries es;
	struct config_bot bot = { 0 };
	struct pipeline *p;
	char src[PATH_MAX], tree[PATH_MAX], real[PATH_MAX], script[PATH_MAX + 16], err[1024];
	char name[LEAGUE_ENTRY_NAME_MAX], *argv[] = { script, NULL };
	char *env[] = { NULL };
	uint64_t cut, added;

	source(c, "resume", src, sizeof(src));
	run("cp -r %s/bots/starter/python/. %s", SOURCE_DIR, src);
	cut = submit(c, "heidi", "cut", src);
	/* the script itself the program, so the league hashes it (programs.h) */
	write_file(src, "skipbo.json", "{\"run\": [\"./bot.py\"]}", 0644);
	run("chmod 755 %s/bot.py", src);
	added = submit(c, "ivan", "added", src);
	assert_int_equal(submissions_set_state(&c->ss, cut, SUBMISSION_UNPACKED, NULL, NULL, err,
					       sizeof(err)), 0);
	assert_int_equal(submissions_set_state(&c->ss, cut, SUBMISSION_BUILDING, NULL, NULL, err,
					       sizeof(err)), 0);
	assert_int_equal(submissions_set_state(&c->ss, added, SUBMISSION_UNPACKED, NULL, NULL,
					       err, sizeof(err)), 0);
	assert_int_equal(submissions_set_state(&c->ss, added, SUBMISSION_CHECKING, NULL, NULL,
					       err, sizeof(err)), 0);
	assert_int_equal(submissions_path(&c->ss, added, "tree", tree, sizeof(tree)), 0);
	/* a build need not make the same bytes twice: the tree differs from a new one's */
	run("mkdir -p %s && cp -p %s/bot.py %s && echo '# built' >> %s/bot.py", tree, src, tree,
	    tree);
	assert_non_null(realpath(tree, real));
	snprintf(script, sizeof(script), "%s/bot.py", real);
	bot.name = "added";
	bot.argv = argv;
	bot.cwd = real;
	bot.env = env;
	assert_int_equal(league_entries_open(&es, c->dir, err, sizeof(err)), 0);
	assert_int_equal(league_entries_add(&es, &bot, 0, name, err, sizeof(err)), 0);
	league_entries_release(&es);

	setup->dir = c->dir;
	setup->config.builds = 2;
	if (pipeline_start(setup, &p, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	for (int i = 0; i < HANG_GUARD_S * 10 && !settled(c); i++)
		usleep(100000);
	pipeline_stop(p);
	expect(c, cut, SUBMISSION_ENTERED, 0, NULL);
	assert_string_equal(expect(c, added, SUBMISSION_ENTERED, 0, NULL)->entry, "added");
	char why[512];
	int i = entry_of(c, "added", &es);

	assert_true(i >= 0);
	assert_int_equal(league_entries_named(&es, "added@2"), -1);
	/* its files left as the league entered them: not held out of play as changed */
	assert_int_equal(league_entries_changed(&es, (size_t)i, NULL, why, sizeof(why)), 0);
	assert_true(league_entries_named(&es, "cut") >= 0);
	league_entries_release(&es);
}

static void test_pipeline(void **state)
{
	struct competition good, bad;
	struct pipeline_setup setup = { 0 };
	struct pipeline *p1, *p2;
	struct league_entries es;
	char src[PATH_MAX], text[PATH_MAX * 2], err[1024];
	static const struct {
		const char *kit, *tool, *package;
	} kits[] = {
		{ "javascript", "node", "nodejs" },
		{ "cpp", "g++", "g++ nlohmann-json3-dev" },
		{ "go", "go", "golang-go" },
		{ "java", "javac", "default-jdk" },
		{ "rust", "cargo", "cargo librust-serde-json-dev" },
	};
	uint64_t kit_ids[sizeof(kits) / sizeof(kits[0])] = { 0 };
	uint64_t py, c_kit, fails, crash, illegal, slow, taken, net, peek, bomb, disk, forever;
	uint64_t chatty, escape;
	int i;

	(void)state;
	if (system("bwrap --unshare-all --ro-bind / / true 2>/dev/null") != 0) {
		print_message("skipped: bwrap cannot make a sandbox here (SECURITY.md)\n");
		exit(77);
	}
	competition_init(&good);
	competition_init(&bad);

	/* the good competition: the kits as they are, and bots that fail */
	source(&good, "py", src, sizeof(src));
	run("cp -r %s/bots/starter/python/. %s", SOURCE_DIR, src);
	py = submit(&good, "alice", "py", src);
	source(&good, "c", src, sizeof(src));
	run("cp -r %s/bots/starter/c/. %s", SOURCE_DIR, src);
	c_kit = submit(&good, "bob", "ckit", src);
	source(&good, "fails", src, sizeof(src));
	write_file(src, "bot.py", "print()\n", 0644);
	write_file(src, "skipbo.json", "{\"language\": \"python\", \"build\": \"echo compiling; "
		   "exit 2\"}", 0644);
	fails = submit(&good, "carol", "fails", src);
	source(&good, "crash", src, sizeof(src));
	write_file(src, "bot.py", "import sys\nsys.exit(3)\n", 0644);
	crash = submit(&good, "dave", "crash", src);
	source(&good, "illegal", src, sizeof(src));
	run("cp %s %s/badbot", BADBOT_PATH, src);
	write_file(src, "skipbo.json", "{\"run\": [\"./badbot\", \"illegal\"]}", 0644);
	illegal = submit(&good, "erin", "illegal", src);
	source(&good, "slow", src, sizeof(src));
	run("cp %s %s/badbot", BADBOT_PATH, src);
	write_file(src, "skipbo.json", "{\"run\": [\"./badbot\", \"never-answer\"]}", 0644);
	slow = submit(&good, "frank", "slow", src);
	/* the other kits, where their toolchains are installed */
	for (size_t k = 0; k < sizeof(kits) / sizeof(kits[0]); k++) {
		char tool[PATH_MAX];

		snprintf(tool, sizeof(tool), "/usr/bin/%s", kits[k].tool);
		if (access(tool, X_OK) != 0) {
			print_message("the %s kit not tried: no %s (Debian: %s)\n", kits[k].kit, tool,
				      kits[k].package);
			continue;
		}
		source(&good, kits[k].kit, src, sizeof(src));
		run("cp -r %s/bots/starter/%s/. %s", SOURCE_DIR, kits[k].kit, src);
		kit_ids[k] = submit(&good, kits[k].kit, kits[k].kit, src);
	}
	source(&good, "anchor", src, sizeof(src));
	run("cp -r %s/bots/starter/python/. %s", SOURCE_DIR, src);
	taken = submit(&good, "grace", "skipbo-easy", src);

	/* the hostile builds, each under small limits */
	source(&bad, "net", src, sizeof(src));
	write_file(src, "bot.py", "print()\n", 0644);
	write_file(src, "skipbo.json", "{\"language\": \"python\", \"build\": \"python3 -c "
		   "'import socket; socket.create_connection((\\\"1.1.1.1\\\", 80), 5)'\"}", 0644);
	net = submit(&bad, "mallory", "net", src);
	snprintf(text, sizeof(text), "{\"language\": \"python\", \"build\": \"cat %s/%s/%llu/upload "
		 "> stolen\"}", bad.dir, SUBMISSIONS_DIR, (unsigned long long)net);
	write_file(src, "skipbo.json", text, 0644);
	peek = submit(&bad, "oscar", "peek", src);
	write_file(src, "skipbo.json", "{\"language\": \"python\", \"build\": \"i=0; while [ $i -lt "
		   "500 ]; do sleep 60 & i=$((i+1)); done; wait\"}", 0644);
	bomb = submit(&bad, "peggy", "bomb", src);
	write_file(src, "skipbo.json", "{\"language\": \"python\", \"build\": \"head -c 100000000 "
		   "/dev/zero > big\"}", 0644);
	disk = submit(&bad, "trent", "disk", src);
	write_file(src, "skipbo.json", "{\"language\": \"python\", \"build\": \"sleep 1000\"}", 0644);
	forever = submit(&bad, "victor", "forever", src);
	write_file(src, "skipbo.json", "{\"language\": \"python\", \"build\": \"yes "
		   "compiling | head -n 300000; exit 1\"}", 0644);
	chatty = submit(&bad, "walter", "chatty", src);
	/* an entry out of the tree: the sandboxed unpacker's refusal is the submission's why */
	escape = submit_made(&bad, "zoe", "escape", "python3 -c 'import io, sys, tarfile; "
			     "t = tarfile.open(sys.argv[1], \"w:gz\"); t.add(sys.argv[2], "
			     "\"skipbo.json\"); t.addfile(tarfile.TarInfo(\"../escaped\"), "
			     "io.BytesIO())' %s %s/skipbo.json", src);

	setup.arena = ARENA_PATH;
	host_config_defaults(&setup.config);
	setup.config.builds = 3;
	setup.config.check_games = 2;
	setup.dir = good.dir;
	if (pipeline_start(&setup, &p1, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	setup.dir = bad.dir;
	setup.config.builds = 6;
	setup.config.build_seconds = 20;
	setup.config.build_processes = 32;
	setup.config.build_disk_mb = 20;
	if (pipeline_start(&setup, &p2, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	wait_settled(&good, &bad);
	pipeline_stop(p1);
	pipeline_stop(p2);

	expect(&good, py, SUBMISSION_ENTERED, 0, NULL);
	expect(&good, c_kit, SUBMISSION_ENTERED, 0, NULL);
	for (size_t k = 0; k < sizeof(kits) / sizeof(kits[0]); k++)
		if (kit_ids[k])
			expect(&good, kit_ids[k], SUBMISSION_ENTERED, 0, NULL);
	expect(&good, fails, SUBMISSION_FAILED, SUBMISSION_BUILDING,
	       "the build exited with status 2: see build.log");
	file_holds(&good, fails, "build.log", "compiling");
	expect(&good, crash, SUBMISSION_FAILED, SUBMISSION_CHECKING, "start fault");
	expect(&good, illegal, SUBMISSION_FAILED, SUBMISSION_CHECKING, "illegal");
	expect(&good, slow, SUBMISSION_FAILED, SUBMISSION_CHECKING, "time");
	expect(&good, slow, SUBMISSION_FAILED, SUBMISSION_CHECKING, "reproduce: ");
	file_holds(&good, slow, "check.log", "FAIL");
	expect(&good, taken, SUBMISSION_FAILED, SUBMISSION_CHECKING,
	       "the name \"skipbo-easy\" is taken in the league by a bot not submitted here");

	/* entered under their names, their commands in their trees */
	i = entry_of(&good, "py", &es);
	assert_true(i >= 0);
	assert_non_null(strstr(es.e[i].bot.argv[1], "/tree/bot.py"));
	assert_string_equal(es.e[i].bot.argv[0], "/usr/bin/python3");
	assert_int_equal(league_entries_named(&es, "crash"), -1);
	league_entries_release(&es);
	i = entry_of(&good, "ckit", &es);
	assert_true(i >= 0);
	assert_non_null(strstr(es.e[i].bot.argv[0], "/tree/bot"));
	league_entries_release(&es);

	expect(&bad, net, SUBMISSION_FAILED, SUBMISSION_BUILDING, "exited with status 1");
	file_holds(&bad, net, "build.log", "unreachable");
	expect(&bad, peek, SUBMISSION_FAILED, SUBMISSION_BUILDING, "exited with status");
	file_holds(&bad, peek, "build.log", "No such file");
	expect(&bad, bomb, SUBMISSION_FAILED, SUBMISSION_BUILDING, NULL);
	file_holds(&bad, bomb, "build.log", "fork");
	expect(&bad, disk, SUBMISSION_FAILED, SUBMISSION_BUILDING, "build_disk_mb");
	expect(&bad, forever, SUBMISSION_FAILED, SUBMISSION_BUILDING,
	       "the build ran past 20 s (build_seconds in host.jsonc)");
	/* 3 MB of output: the log kept to 1 MiB, said so */
	expect(&bad, chatty, SUBMISSION_FAILED, SUBMISSION_BUILDING, "exited with status 1");
	file_holds(&bad, chatty, "build.log", "[build.log truncated");
	expect(&bad, escape, SUBMISSION_FAILED, SUBMISSION_UNPACKED,
	       "the archive was refused: entry \"../escaped\"");
	{
		char path[PATH_MAX];
		struct stat st;

		assert_int_equal(submissions_path(&bad.ss, chatty, "build.log", path, sizeof(path)), 0);
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size <= 1024 * 1024);
	}

	resume(&good, &setup);
	submissions_release(&good.ss);
	submissions_release(&bad.ss);
	remove_tree(good.dir);
	remove_tree(bad.dir);
}

/* A process whose command line holds arg: its pid, or 0. */
static pid_t process_with_arg(const char *arg)
{
	char path[300], buf[4096];
	pid_t found = 0;
	struct dirent *d;
	DIR *proc = opendir("/proc");

	assert_non_null(proc);
	while (!found && (d = readdir(proc))) {
		size_t n;
		FILE *fp;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", d->d_name);
		if (!(fp = fopen(path, "r")))
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
		for (size_t at = 0; at < n; at += strlen(buf + at) + 1) {
			buf[n] = '\0';
			if (strcmp(buf + at, arg) == 0)
				found = (pid_t)atoi(d->d_name);
		}
	}
	closedir(proc);
	return found;
}

/* A stop kills an unpacking in flight, as it does a build: here one that waits for ever
 * for its upload (a fifo no one writes). The submission stays received, redone later. */
static void test_stop_kills_unpacking(void **state)
{
	struct competition c;
	struct pipeline_setup setup = { 0 };
	struct pipeline *p;
	char src[PATH_MAX], upload[PATH_MAX], err[1024];
	uint64_t id;
	pid_t unpacker = 0;

	(void)state;
	competition_init(&c);
	source(&c, "stuck", src, sizeof(src));
	write_file(src, "bot.py", "print()\n", 0644);
	id = submit(&c, "yann", "stuck", src);
	assert_int_equal(submissions_path(&c.ss, id, "upload", upload, sizeof(upload)), 0);
	assert_int_equal(unlink(upload), 0);
	assert_int_equal(mkfifo(upload, 0644), 0);
	setup.arena = ARENA_PATH;
	setup.dir = c.dir;
	host_config_defaults(&setup.config);
	if (pipeline_start(&setup, &p, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	for (int i = 0; i < HANG_GUARD_S * 10 && !(unpacker = process_with_arg(upload)); i++)
		usleep(100000);
	assert_true(unpacker > 0);
	/* before, the stop waited for the unpacker to end: here for ever */
	alarm(HANG_GUARD_S);
	pipeline_stop(p);
	alarm(0);
	assert_int_equal(process_with_arg(upload), 0);
	assert_int_equal(submissions_refresh(&c.ss, err, sizeof(err)), 0);
	expect(&c, id, SUBMISSION_RECEIVED, 0, NULL);
	submissions_release(&c.ss);
	remove_tree(c.dir);
}

/* An entry is private when its submission's skipbo.json says so; an anchor is not; one
 * whose tree cannot be read is, so that a fault never lets its files out. */
static void test_entry_private(void **state)
{
	char dir[] = "/tmp/test_pipeline-private-XXXXXX", path[PATH_MAX];
	const char *const trees[] = { "{\"language\": \"python\", \"private\": true}",
				      "{\"language\": \"python\"}", NULL };
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/submissions.jsonl", dir);
	assert_non_null(fp = fopen(path, "w"));
	for (int i = 1; i <= 3; i++)
		fprintf(fp, "{\"event\":\"received\",\"id\":%d,\"author\":\"alice\",\"bot\":"
			"\"b%d\",\"sha256\":\"%064d\",\"bytes\":1,\"time\":\"2026-12-07T06:00:00Z\"}\n"
			"{\"event\":\"state\",\"id\":%d,\"state\":\"entered\",\"entry\":\"b%d@1\","
			"\"time\":\"2026-12-07T06:00:01Z\"}\n", i, i, 0, i, i);
	fclose(fp);
	for (int i = 0; trees[i]; i++) {
		snprintf(path, sizeof(path), "%s/submissions/%d/tree", dir, i + 1);
		run("mkdir -p '%s'", path);
		write_file(path, "bot.py", "print()\n", 0644);
		write_file(path, "skipbo.json", trees[i], 0644);
	}
	assert_true(pipeline_entry_private(dir, "b1@1"));
	assert_false(pipeline_entry_private(dir, "b2@1"));
	assert_true(pipeline_entry_private(dir, "b3@1")); /* no tree */
	assert_false(pipeline_entry_private(dir, "skipbo-medium"));
	remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_private),
		cmocka_unit_test(test_pipeline),
		cmocka_unit_test(test_stop_kills_unpacking),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
