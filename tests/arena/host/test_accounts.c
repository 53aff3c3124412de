/*
 * test_accounts.c - a hosted competition's accounts (accounts.h): the token
 * shown once and never stored, its hash stored, lookups, revokes, a torn
 * last line, the file's mode, refused names, and the strict reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <sha2.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "remove_tree.h"

#include "accounts.h"

struct fixture {
	char dir[64];
	char path[PATH_MAX];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	umask(022);
	strcpy(f->dir, "/tmp/test_accounts.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, ACCOUNTS_FILE);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->dir);
	free(f);
	return 0;
}

/* The whole file as a string (the caller frees). */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *text = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(fp);
	n = fread(text, 1, (1 << 20) - 1, fp);
	text[n] = '\0';
	fclose(fp);
	return text;
}

static void append_raw(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void add_ok(struct accounts *as, const char *name, enum account_role role,
		   char token[ACCOUNTS_TOKEN_LEN + 1])
{
	char err[1024] = "";

	if (accounts_add(as, name, role, false, token, err, sizeof(err)) < 0)
		fail_msg("add %s: %s", name, err);
}

static void test_token_shown_once_hash_stored(void **state)
{
	struct fixture *f = *state;
	char token[ACCOUNTS_TOKEN_LEN + 1], hash[ACCOUNTS_HASH_SIZE], err[1024], *text;
	struct accounts as, again;
	struct stat st;

	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	assert_int_equal(as.n, 0);
	add_ok(&as, "alice", ACCOUNT_AUTHOR, token);
	assert_int_equal(strlen(token), ACCOUNTS_TOKEN_LEN);
	assert_memory_equal(token, "sbt_", 4);
	assert_int_equal(strspn(token + 4, "0123456789abcdef"), 64);

	text = slurp(f->path);
	assert_null(strstr(text, token));
	assert_null(strstr(text, token + 4)); /* nor its random part alone */
	SHA256Data((const uint8_t *)token, strlen(token), hash);
	assert_non_null(strstr(text, hash));
	assert_non_null(strstr(text, "\"role\":\"author\""));
	free(text);

	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);

	/* read back by another reader: the same account, found by its token */
	assert_int_equal(accounts_open(&again, f->dir, err, sizeof(err)), 0);
	assert_int_equal(again.n, 1);
	assert_string_equal(again.a[0].name, "alice");
	assert_string_equal(again.a[0].token_sha256, hash);
	assert_int_equal(accounts_lookup(&again, token), 0);
	accounts_release(&again);
	accounts_release(&as);
}

static void test_lookup(void **state)
{
	struct fixture *f = *state;
	char t[4][ACCOUNTS_TOKEN_LEN + 1], wrong[ACCOUNTS_TOKEN_LEN + 2], err[1024];
	struct accounts as, again;

	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	add_ok(&as, "alice", ACCOUNT_AUTHOR, t[0]);
	add_ok(&as, "bob", ACCOUNT_AUTHOR, t[1]);
	add_ok(&as, "w1", ACCOUNT_WORKER, t[2]);
	add_ok(&as, "org", ACCOUNT_ORGANISER, t[3]);
	assert_int_equal(accounts_lookup(&as, t[0]), 0);
	assert_int_equal(accounts_lookup(&as, t[1]), 1);
	assert_int_equal(accounts_lookup(&as, t[2]), 2);
	assert_int_equal(as.a[2].role, ACCOUNT_WORKER);
	/* each role read back as written */
	assert_int_equal(accounts_open(&again, f->dir, err, sizeof(err)), 0);
	assert_int_equal(again.a[0].role, ACCOUNT_AUTHOR);
	assert_int_equal(again.a[2].role, ACCOUNT_WORKER);
	assert_int_equal(again.a[3].role, ACCOUNT_ORGANISER);
	assert_int_equal(accounts_lookup(&again, t[3]), 3);
	accounts_release(&again);

	strcpy(wrong, t[1]);
	wrong[ACCOUNTS_TOKEN_LEN - 1] ^= 1; /* one hex digit off */
	assert_int_equal(accounts_lookup(&as, wrong), -1);
	wrong[ACCOUNTS_TOKEN_LEN - 1] ^= 1;
	strcat(wrong, "0"); /* one character longer */
	assert_int_equal(accounts_lookup(&as, wrong), -1);
	wrong[ACCOUNTS_TOKEN_LEN - 1] = '\0'; /* one shorter */
	assert_int_equal(accounts_lookup(&as, wrong), -1);
	assert_int_equal(accounts_lookup(&as, ""), -1);
	assert_int_equal(accounts_lookup(&as, as.a[1].token_sha256), -1); /* the hash itself */

	/* revoked: refused; added again: a new token, the old one still refused */
	assert_int_equal(accounts_revoke(&as, "bob", err, sizeof(err)), 0);
	assert_int_equal(accounts_lookup(&as, t[1]), -1);
	assert_int_equal(accounts_lookup(&as, t[0]), 0);
	add_ok(&as, "bob", ACCOUNT_AUTHOR, wrong);
	assert_string_not_equal(wrong, t[1]);
	assert_int_equal(accounts_lookup(&as, t[1]), -1);
	assert_int_equal(accounts_lookup(&as, wrong), 4);
	assert_int_equal(accounts_live(&as, "bob"), 4);
	accounts_release(&as);

	/* the same from the file */
	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	assert_int_equal(as.n, 5);
	assert_non_null(as.a[1].revoked);
	assert_int_equal(accounts_lookup(&as, t[1]), -1);
	assert_int_equal(accounts_lookup(&as, wrong), 4);
	accounts_release(&as);
}

static void test_torn_tail_cut(void **state)
{
	struct fixture *f = *state;
	char token[ACCOUNTS_TOKEN_LEN + 1], second[ACCOUNTS_TOKEN_LEN + 1], err[1024], *text;
	struct accounts as;

	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	add_ok(&as, "alice", ACCOUNT_AUTHOR, token);
	accounts_release(&as);
	append_raw(f->path, "{\"event\":\"add\",\"name\":\"torn\",\"ro");

	/* a reader skips the torn line; the next add cuts it and goes after alice */
	if (accounts_open(&as, f->dir, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(as.n, 1);
	add_ok(&as, "bob", ACCOUNT_AUTHOR, second);
	assert_int_equal(as.n, 2);
	accounts_release(&as);
	text = slurp(f->path);
	assert_null(strstr(text, "torn"));
	assert_non_null(strstr(text, "}\n{\"event\":\"add\",\"name\":\"bob\""));
	assert_int_equal(text[strlen(text) - 1], '\n');
	free(text);
	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	assert_int_equal(accounts_lookup(&as, token), 0);
	assert_int_equal(accounts_lookup(&as, second), 1);
	accounts_release(&as);
}

/* A trusted worker is read back trusted; an untrusted one, and the others, not. */
static void test_trusted_worker(void **state)
{
	struct fixture *f = *state;
	char t[2][ACCOUNTS_TOKEN_LEN + 1], err[1024], *text;
	struct accounts as, again;

	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	add_ok(&as, "w1", ACCOUNT_WORKER, t[0]);
	assert_int_equal(accounts_add(&as, "w2", ACCOUNT_WORKER, true, t[1], err, sizeof(err)), 0);
	assert_false(as.a[0].trusted);
	assert_true(as.a[1].trusted);
	text = slurp(f->path);
	assert_non_null(strstr(text, "\"trusted\":true"));
	free(text);
	assert_int_equal(accounts_open(&again, f->dir, err, sizeof(err)), 0);
	assert_false(again.a[0].trusted);
	assert_true(again.a[1].trusted);
	assert_int_equal(accounts_lookup(&again, t[1]), 1);
	accounts_release(&again);
	accounts_release(&as);
}

static void test_refusals(void **state)
{
	struct fixture *f = *state;
	static const char *const bad[] = {
		"", ".hidden", "a/b", "has space", "x@2", "\033[2J",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", /* 65 */
	};
	char token[ACCOUNTS_TOKEN_LEN + 1], err[1024];
	struct accounts as;
	struct stat st;

	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(accounts_add(&as, bad[i], ACCOUNT_AUTHOR, false, token, err,
					      sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "expected a name of 1 to 64 bytes of letters"));
		assert_int_equal(accounts_revoke(&as, bad[i], err, sizeof(err)), -EINVAL);
	}
	assert_int_equal(stat(f->path, &st), -1); /* nothing written */

	add_ok(&as, "alice", ACCOUNT_AUTHOR, token);
	assert_int_equal(accounts_add(&as, "alice", ACCOUNT_WORKER, false, token, err, sizeof(err)),
			 -EEXIST);
	assert_non_null(strstr(err, "\"alice\" has an account already"));
	assert_non_null(strstr(err, "skipbo-arena host account revoke"));
	assert_int_equal(accounts_add(&as, "carol", ACCOUNT_AUTHOR, true, token, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "only a worker is trusted or not"));
	assert_int_equal(accounts_live(&as, "carol"), -1);
	assert_int_equal(accounts_revoke(&as, "nobody", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no live account \"nobody\""));
	assert_int_equal(accounts_revoke(&as, "alice", err, sizeof(err)), 0);
	assert_int_equal(accounts_revoke(&as, "alice", err, sizeof(err)), -ENOENT);
	assert_int_equal(as.n, 1);
	accounts_release(&as);

	assert_int_equal(accounts_open(&as, "/nonexistent/competition", err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "is not a directory"));
}

/* A file with line 1 good and line 2 = bad: refused, naming the file, line 2 and why. */
static void expect_malformed(const struct fixture *f, const char *bad, const char *why)
{
	char line[512], err[1024];
	struct accounts as;

	unlink(f->path);
	snprintf(line, sizeof(line), "{\"event\":\"add\",\"name\":\"alice\",\"role\":\"author\","
		 "\"token_sha256\":\"%064d\",\"time\":\"2026-12-07T06:00:00Z\"}\n%s\n", 0, bad);
	append_raw(f->path, line);
	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), -EBADMSG);
	if (!strstr(err, f->path) || !strstr(err, "line 2: ") || !strstr(err, why) ||
	    !strstr(err, "put the line back as it was, or delete it"))
		fail_msg("for %s: %s", bad, err);
}

static void test_strict_reader(void **state)
{
	struct fixture *f = *state;
	char hash0[80];

	snprintf(hash0, sizeof(hash0), "%064d", 0);
	expect_malformed(f, "not json", "not a JSON object");
	expect_malformed(f, "{\"event\":\"rename\",\"name\":\"alice\",\"time\":\"x\"}",
			 "an event other than");
	expect_malformed(f, "{\"event\":\"revoke\",\"name\":\"alice\"}", "a key is missing");
	expect_malformed(f, "{\"event\":\"revoke\",\"name\":\"alice\",\"time\":"
			 "\"2026-12-07T06:00:00Z\",\"token\":\"sbt_00\"}", "not part of the event");
	expect_malformed(f, "{\"event\":\"revoke\",\"name\":\"bob\",\"time\":"
			 "\"2026-12-07T06:00:00Z\"}", "a revoke of a name that is not live");
	expect_malformed(f, "{\"event\":\"revoke\",\"name\":\"alice\",\"time\":\"yesterday\"}",
			 "a time that is not");
	expect_malformed(f, "{\"event\":\"add\",\"name\":\"alice\",\"role\":\"author\","
			 "\"token_sha256\":\"00\",\"time\":\"2026-12-07T06:00:00Z\"}",
			 "a second add of a live name");
	expect_malformed(f, "{\"event\":\"add\",\"name\":\"bob\",\"role\":\"admin\","
			 "\"token_sha256\":\"00\",\"time\":\"2026-12-07T06:00:00Z\"}",
			 "a role other than \"author\", \"worker\" and \"organiser\"");
	expect_malformed(f, "{\"event\":\"add\",\"name\":\"bob\",\"role\":\"author\","
			 "\"token_sha256\":\"ABCD\",\"time\":\"2026-12-07T06:00:00Z\"}",
			 "not 64 lower-case hex digits");
	expect_malformed(f, "{\"event\":\"add\",\"name\":\"bob\",\"role\":\"author\","
			 "\"trusted\":true,\"token_sha256\":\"00\",\"time\":\"2026-12-07T06:00:00Z\"}",
			 "not of a worker's add");
	expect_malformed(f, "{\"event\":\"add\",\"name\":\"bob\",\"role\":\"worker\","
			 "\"trusted\":\"yes\",\"token_sha256\":\"00\",\"time\":\"2026-12-07T06:00:00Z\"}",
			 "a \"trusted\" that is not true");
	expect_malformed(f, "{\"event\":\"add\",\"name\":\"../x\",\"role\":\"author\","
			 "\"token_sha256\":\"00\",\"time\":\"2026-12-07T06:00:00Z\"}",
			 "a name that breaks the rule");
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Many accounts: no two tokens alike, each found as its own account. */
static void test_tokens_distinct(void **state)
{
	enum { N = 200 }; /* each add is fsync'd: a few ms */
	struct fixture *f = *state;
	char (*tokens)[ACCOUNTS_TOKEN_LEN + 1] = calloc(N, sizeof(*tokens));
	char *sorted[N], name[16], err[1024];
	struct accounts as;

	assert_int_equal(accounts_open(&as, f->dir, err, sizeof(err)), 0);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		add_ok(&as, name, ACCOUNT_AUTHOR, tokens[i]);
		sorted[i] = tokens[i];
	}
	qsort(sorted, N, sizeof(sorted[0]), compare_strings);
	for (int i = 1; i < N; i++)
		assert_string_not_equal(sorted[i - 1], sorted[i]);
	for (int i = 0; i < N; i += 17)
		assert_int_equal(accounts_lookup(&as, tokens[i]), i);
	accounts_release(&as);
	free(tokens);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_token_shown_once_hash_stored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lookup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_tail_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trusted_worker, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strict_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tokens_distinct, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
