/*
 * accounts.c - a hosted competition's accounts (contract in accounts.h).
 */
#include "accounts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "journal.h"
#include "json_strict.h"
#include "names.h"
#include "protocol_json.h"
#include "records.h"

#define TOKEN_BYTES 32
#define LOCK_FILE "accounts.lock"

static const char *const role_names[] = {
	[ACCOUNT_AUTHOR] = "author",
	[ACCOUNT_WORKER] = "worker",
	[ACCOUNT_ORGANISER] = "organiser",
};

/* The role called name: 0, or -1 for none. */
static int role_parse(const char *name, enum account_role *out)
{
	for (size_t i = 0; i < sizeof(role_names) / sizeof(role_names[0]); i++)
		if (!strcmp(name, role_names[i])) {
			*out = (enum account_role)i;
			return 0;
		}
	return -1;
}

const char *account_role_name(enum account_role role)
{
	return role_names[role];
}

static void account_release(struct account *a)
{
	free(a->name);
	free(a->added);
	free(a->revoked);
}

void accounts_release(struct accounts *as)
{
	for (size_t i = 0; i < as->n; i++)
		account_release(&as->a[i]);
	free(as->a);
	free(as->dir);
	memset(as, 0, sizeof(*as));
}

int accounts_live(const struct accounts *as, const char *name)
{
	for (size_t i = as->n; i-- > 0;)
		if (!as->a[i].revoked && strcmp(as->a[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* 1 when the two hashes are equal, in a time that does not depend on their bytes:
 * timingsafe_bcmp's job, which the libbsd of Debian 12 lacks. */
static int hashes_equal(const char *a, const char *b)
{
	unsigned int d = 0;

	for (size_t k = 0; k < ACCOUNTS_HASH_SIZE - 1; k++) {
		d |= (unsigned char)(a[k] ^ b[k]);
		/* an empty barrier: the compiler cannot stop at the first difference */
		__asm__("" : "+r"(d));
	}
	return (int)(((d - 1) >> 8) & 1);
}

int accounts_lookup(const struct accounts *as, const char *token)
{
	char hash[ACCOUNTS_HASH_SIZE];
	int found = -1;

	SHA256Data((const uint8_t *)token, strlen(token), hash);
	/* every account compared, and the match kept by a mask: no branch on a secret */
	for (size_t i = 0; i < as->n && i < INT_MAX; i++) {
		int same = hashes_equal(hash, as->a[i].token_sha256);
		int mask = -(same & (as->a[i].revoked == NULL));

		found = (found & ~mask) | ((int)i & mask);
	}
	explicit_bzero(hash, sizeof(hash));
	return found;
}

static bool is_hash(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == ACCOUNTS_HASH_SIZE - 1 && s[n] == '\0';
}

static bool is_time(const char *s)
{
	struct tm tm;
	const char *end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);

	return end && *end == '\0';
}

/* 0 when ev holds exactly the keys of keys (NULL-terminated), each a string, and
 * maybe a "trusted" (a worker's add); else why. */
static const char *keys_fault(const cJSON *ev, const char *const *keys)
{
	const cJSON *trusted = cJSON_GetObjectItemCaseSensitive(ev, "trusted");
	size_t want = 0, have = 0;

	for (; keys[want]; want++)
		if (!json_string_at(ev, keys[want]))
			return "a key is missing or not a string";
	for (const cJSON *k = ev->child; k; k = k->next)
		have++;
	if (trusted && (!cJSON_IsTrue(trusted) || !json_string_at(ev, "role") ||
			strcmp(json_string_at(ev, "role"), role_names[ACCOUNT_WORKER])))
		return "a \"trusted\" that is not true, or not of a worker's add";
	return have == want + (trusted != NULL) ? NULL : "a key that is not part of the event";
}

/* NULL when ev is an add or a revoke with exactly its keys, a name and a time; else why
 * not. *kind: the event's name. */
static const char *event_fault(const cJSON *ev, const char **kind)
{
	static const char *const add_keys[] = { "event", "name", "role", "token_sha256", "time",
						NULL };
	static const char *const revoke_keys[] = { "event", "name", "time", NULL };
	const char *why;

	if (!cJSON_IsObject(ev) || !(*kind = json_string_at(ev, "event")))
		return "not a JSON object with an \"event\"";
	if (strcmp(*kind, "add") && strcmp(*kind, "revoke"))
		return "an event other than \"add\" and \"revoke\"";
	if ((why = keys_fault(ev, (*kind)[0] == 'a' ? add_keys : revoke_keys)))
		return why;
	if (!names_valid(json_string_at(ev, "name")))
		return "a name that breaks the rule (" NAMES_RULE ")";
	if (!is_time(json_string_at(ev, "time")))
		return "a time that is not YYYY-MM-DDTHH:MM:SSZ";
	return NULL;
}

/* Apply one line to as; NULL, or why it is not an event. */
static const char *apply_line(struct accounts *as, const char *text, size_t len, int *nomem)
{
	const char *kind = NULL, *name, *role, *why;
	enum account_role parsed = ACCOUNT_AUTHOR;
	struct account *grown, *a;
	cJSON *ev = NULL;
	int live;

	why = json_strict_parse(text, len, &ev, NULL) < 0 ? "not a JSON object with an \"event\"" :
		event_fault(ev, &kind);
	if (why)
		goto out;
	name = json_string_at(ev, "name");
	live = accounts_live(as, name);
	if (kind[0] == 'r') {
		if (live < 0)
			why = "a revoke of a name that is not live";
		else if (!(as->a[live].revoked = strdup(json_string_at(ev, "time"))))
			*nomem = 1;
		goto out;
	}
	role = json_string_at(ev, "role");
	if (live >= 0)
		why = "a second add of a live name";
	else if (role_parse(role, &parsed) < 0)
		why = "a role other than \"author\", \"worker\" and \"organiser\"";
	else if (!is_hash(json_string_at(ev, "token_sha256")))
		why = "a token_sha256 that is not 64 lower-case hex digits";
	else if (!(grown = reallocarray(as->a, as->n + 1, sizeof(*as->a))))
		*nomem = 1;
	if (why || *nomem)
		goto out;
	as->a = grown;
	a = &as->a[as->n];
	memset(a, 0, sizeof(*a));
	a->role = parsed;
	a->trusted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "trusted"));
	memcpy(a->token_sha256, json_string_at(ev, "token_sha256"), ACCOUNTS_HASH_SIZE);
	a->name = strdup(name);
	a->added = strdup(json_string_at(ev, "time"));
	as->n++;
	if (!a->name || !a->added)
		*nomem = 1;
out:
	cJSON_Delete(ev);
	return why;
}

struct reading {
	struct accounts *as;
	const char *why;
	size_t lineno;
};

static int on_line(void *ctx, const struct records_line *line)
{
	struct reading *rd = ctx;
	int nomem = 0;

	rd->lineno = line->lineno;
	rd->why = apply_line(rd->as, line->text, line->len, &nomem);
	return nomem ? -ENOMEM : rd->why ? -EBADMSG : 0;
}

/* as emptied and read again from its directory's file. */
static int accounts_read(struct accounts *as, char *err, size_t err_size)
{
	struct reading rd = { as, NULL, 0 };
	char path[PATH_MAX];
	int ret;

	for (size_t i = 0; i < as->n; i++)
		account_release(&as->a[i]);
	as->n = 0;
	snprintf(path, sizeof(path), "%s/%s", as->dir, ACCOUNTS_FILE);
	ret = records_read_lines(path, on_line, &rd, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret == -EBADMSG)
		snprintf(err, err_size, "\"%s\", line %zu: %s; the file is written only by "
			 "`skipbo-arena host account`: put the line back as it was, or delete it "
			 "(deleting an add deletes that account), and run the command again",
			 path, rd.lineno, rd.why);
	else if (ret < 0)
		snprintf(err, err_size, "\"%s\": %s", path, strerror(-ret));
	return ret;
}

int accounts_open(struct accounts *as, const char *dir, char *err, size_t err_size)
{
	struct stat st;
	int ret;

	memset(as, 0, sizeof(*as));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "\"%s\" is not a directory: name the competition's "
			 "directory (mkdir it first for a new one)", dir);
		return -ENOENT;
	}
	if (!(as->dir = strdup(dir))) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	if ((ret = accounts_read(as, err, err_size)) < 0)
		accounts_release(as);
	return ret;
}

/* The lock of a change: DIR/accounts.lock, taken; its fd, or -errno. */
static int lock_changes(const char *dir, char *err, size_t err_size)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, LOCK_FILE);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		int ret = -errno;

		snprintf(err, err_size, "\"%s\": %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return fd;
}

/* Append ev (consumed) with the time, durably, and apply it to as. */
static int append_event(struct accounts *as, cJSON *ev, char *err, size_t err_size)
{
	char path[PATH_MAX], stamp[32], *text = NULL;
	time_t now = time(NULL);
	struct tm tm;
	int ret = -ENOMEM, nomem = 0;

	snprintf(path, sizeof(path), "%s/%s", as->dir, ACCOUNTS_FILE);
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    !cJSON_AddStringToObject(ev, "time", stamp) || !(text = cJSON_PrintUnformatted(ev))) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if ((ret = journal_append_once_mode(path, 0600, text, strlen(text))) < 0) {
		snprintf(err, err_size, "\"%s\": %s%s", path, strerror(-ret), ret == -ENOSPC ?
			 ": nothing was changed; free space and run the same command again" : "");
		goto out;
	}
	/* read under the lock just before: the file is what was read and this line */
	if (apply_line(as, text, strlen(text), &nomem) || nomem) {
		snprintf(err, err_size, "out of memory");
		ret = -ENOMEM;
	}
out:
	cJSON_free(text);
	cJSON_Delete(ev);
	return ret;
}

/* A new token in token, its hash in hash. */
static int make_token(char token[ACCOUNTS_TOKEN_LEN + 1], char hash[ACCOUNTS_HASH_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	const size_t prefix = sizeof(ACCOUNTS_TOKEN_PREFIX) - 1;
	unsigned char raw[TOKEN_BYTES];
	size_t got = 0;

	while (got < sizeof(raw)) {
		ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);

		if (n < 0 && errno != EINTR)
			return -errno;
		got += n > 0 ? (size_t)n : 0;
	}
	memcpy(token, ACCOUNTS_TOKEN_PREFIX, prefix);
	for (size_t i = 0; i < sizeof(raw); i++) {
		token[prefix + 2 * i] = hex[raw[i] >> 4];
		token[prefix + 2 * i + 1] = hex[raw[i] & 15];
	}
	token[ACCOUNTS_TOKEN_LEN] = '\0';
	explicit_bzero(raw, sizeof(raw));
	SHA256Data((const uint8_t *)token, ACCOUNTS_TOKEN_LEN, hash);
	return 0;
}

/* The checks and the event of a change, under the lock, with *as read afresh. */
static int change(struct accounts *as, const char *name, const char *role, bool trusted,
		  const char *hash, char *err, size_t err_size)
{
	cJSON *ev;
	int lock, ret;

	if (!names_valid(name)) {
		snprintf(err, err_size, "\"%.80s\": expected a name of " NAMES_RULE, name);
		return -EINVAL;
	}
	if ((lock = lock_changes(as->dir, err, err_size)) < 0)
		return lock;
	if ((ret = accounts_read(as, err, err_size)) < 0)
		goto out;
	if (role && accounts_live(as, name) >= 0) {
		snprintf(err, err_size, "\"%s\" has an account already: to give it a new token, "
			 "revoke it first (skipbo-arena host account revoke %s %s), then add it "
			 "again", name, as->dir, name);
		ret = -EEXIST;
		goto out;
	}
	if (!role && accounts_live(as, name) < 0) {
		snprintf(err, err_size, "no live account \"%s\" in \"%s\" (skipbo-arena host "
			 "account list %s shows them)", name, as->dir, as->dir);
		ret = -ENOENT;
		goto out;
	}
	ev = cJSON_CreateObject();
	if (!ev || !cJSON_AddStringToObject(ev, "event", role ? "add" : "revoke") ||
	    !cJSON_AddStringToObject(ev, "name", name) ||
	    (role && (!cJSON_AddStringToObject(ev, "role", role) ||
		      !cJSON_AddStringToObject(ev, "token_sha256", hash) ||
		      (trusted && !cJSON_AddTrueToObject(ev, "trusted"))))) {
		cJSON_Delete(ev);
		snprintf(err, err_size, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = append_event(as, ev, err, err_size);
out:
	close(lock);
	return ret;
}

int accounts_add(struct accounts *as, const char *name, enum account_role role, bool trusted,
		 char token[ACCOUNTS_TOKEN_LEN + 1], char *err, size_t err_size)
{
	char hash[ACCOUNTS_HASH_SIZE];
	int ret;

	if (trusted && role != ACCOUNT_WORKER) {
		snprintf(err, err_size, "only a worker is trusted or not: add \"%s\" as a worker "
			 "(--worker --trusted), or without --trusted", name);
		return -EINVAL;
	}

	if ((ret = make_token(token, hash)) < 0) {
		snprintf(err, err_size, "no random bytes for a token: %s", strerror(-ret));
		return ret;
	}
	ret = change(as, name, role_names[role], trusted, hash, err, err_size);
	if (ret < 0)
		explicit_bzero(token, ACCOUNTS_TOKEN_LEN + 1);
	return ret;
}

int accounts_revoke(struct accounts *as, const char *name, char *err, size_t err_size)
{
	return change(as, name, NULL, false, NULL, err, err_size);
}
