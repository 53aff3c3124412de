/*
 * test_bundle.c - bot bundles (bundle.h): made the same from the same files,
 * unpacked into a worker's cache and run from there; a damaged or hostile
 * archive refused with nothing written outside the cache; what is never
 * shipped (system files, the excluded directory) and what is too big.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sha2.h>

#include "archive_spec.h"
#include "remove_tree.h"

#include "bundle.h"

static const char *const system_dirs[] = { "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64",
					    NULL };

/* A name over 100 bytes: its entry gets a pax header, which must be made the same too. */
#define LONG_NAME "a-data-file-with-a-name-long-enough-that-ustar-cannot-hold-it-in-its-" \
		  "name-field-so-pax-does.txt"

struct fixture {
	char base[64];
	char bot[128];      /* the bot's cwd */
	char cache[128];    /* the host's bundles */
	char worker[128];   /* a worker's cache */
	char league[128];   /* the excluded directory */
	char script[160];
	char *argv[3];
	char *env[1];
	struct config_bot b;
	char err[512];
	char sha[BUNDLE_HASH_LEN + 1];
};

static void write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* The bot's files: a script printing its data file, a long-named file, a link inside. */
static void make_bot_files(const struct fixture *f)
{
	char sub[PATH_MAX], link[PATH_MAX + 8];

	assert_int_equal(mkdir(f->bot, 0755), 0);
	write_file(f->bot, "bot.sh", "#!/bin/sh\ncat data.txt\n", 0755);
	write_file(f->bot, "data.txt", "from the data file\n", 0644);
	write_file(f->bot, LONG_NAME, "long\n", 0600);
	snprintf(sub, sizeof(sub), "%s/sub", f->bot);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(link, sizeof(link), "%s/data", sub);
	assert_int_equal(symlink("../data.txt", link), 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	umask(022);
	strcpy(f->base, "/tmp/test_bundle.XXXXXX");
	assert_non_null(mkdtemp(f->base));
	snprintf(f->bot, sizeof(f->bot), "%s/bots/alpha", f->base);
	snprintf(f->cache, sizeof(f->cache), "%s/cache", f->base);
	snprintf(f->worker, sizeof(f->worker), "%s/worker", f->base);
	snprintf(f->league, sizeof(f->league), "%s/league", f->base);
	snprintf(f->script, sizeof(f->script), "%s/bot.sh", f->bot);
	snprintf(f->err, sizeof(f->err), "%s/bots", f->base);
	assert_int_equal(mkdir(f->err, 0755), 0);
	assert_int_equal(mkdir(f->cache, 0755), 0);
	assert_int_equal(mkdir(f->worker, 0755), 0);
	assert_int_equal(mkdir(f->league, 0755), 0);
	make_bot_files(f);
	f->argv[0] = f->script;
	f->b = (struct config_bot){ .name = "alpha", .argv = f->argv, .cwd = f->bot, .env = f->env };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->base);
	free(f);
	return 0;
}

static int make(struct fixture *f)
{
	int ret = bundle_make(&f->b, system_dirs, f->league, f->cache, f->sha, f->err,
			      sizeof(f->err));

	if (ret < 0)
		print_message("bundle_make: %s\n", f->err);
	return ret;
}

/* The whole of a file, its length in *len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *data;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	rewind(fp);
	assert_non_null(data = malloc((size_t)n + 1));
	assert_int_equal(fread(data, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return data;
}

static char *bundle_bytes(const struct fixture *f, size_t *len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.tar", f->cache, f->sha);
	return slurp(path, len);
}

/* How many entries dir holds. */
static int entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* Whether the bundle in the cache has an entry named path (without the leading '/'). */
static bool bundle_has(const struct fixture *f, const char *path)
{
	char tar[PATH_MAX];
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	bool found = false;

	snprintf(tar, sizeof(tar), "%s/%s.tar", f->cache, f->sha);
	archive_read_support_format_tar(a);
	assert_int_equal(archive_read_open_filename(a, tar, 10240), ARCHIVE_OK);
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		size_t n = strlen(path);

		found |= strncmp(name, path + 1, n - 1) == 0 &&
			 (name[n - 1] == '\0' || strcmp(name + n - 1, "/") == 0);
	}
	archive_read_free(a);
	return found;
}

/* The bundle's entries are in strictly ascending order of their paths, bytewise. */
static void assert_sorted(const struct fixture *f)
{
	char tar[PATH_MAX], last[PATH_MAX] = "";
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int n = 0;

	snprintf(tar, sizeof(tar), "%s/%s.tar", f->cache, f->sha);
	archive_read_support_format_tar(a);
	assert_int_equal(archive_read_open_filename(a, tar, 10240), ARCHIVE_OK);
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		char name[PATH_MAX];

		/* a directory's name ends in '/' in the archive, not in the order */
		snprintf(name, sizeof(name), "%s", archive_entry_pathname(e));
		if (name[0] && name[strlen(name) - 1] == '/')
			name[strlen(name) - 1] = '\0';
		if (n++ > 0 && strcmp(last, name) >= 0)
			fail_msg("\"%s\" after \"%s\"", name, last);
		snprintf(last, sizeof(last), "%s", name);
	}
	archive_read_free(a);
	assert_int_equal(n, 6);
}

static void test_made_unpacked_and_run_from_the_cache(void **state)
{
	struct fixture *f = *state;
	char *argv[] = { strdup(f->script), NULL }, moved[PATH_MAX], out[128] = "", cmd[PATH_MAX * 2];
	struct config_bot b = { .name = "alpha", .argv = argv, .cwd = strdup(f->bot), .env = f->env };
	size_t len;
	char *data;
	FILE *p;

	assert_int_equal(make(f), 0);
	assert_int_equal(strspn(f->sha, "0123456789abcdef"), BUNDLE_HASH_LEN);
	assert_true(bundle_has(f, f->script));
	assert_sorted(f);
	assert_false(bundle_present(f->worker, f->sha));
	data = bundle_bytes(f, &len);
	assert_int_equal(bundle_unpack(f->worker, f->sha, data, len, f->err, sizeof(f->err)), 0);
	assert_true(bundle_present(f->worker, f->sha));
	assert_int_equal(entries_in(f->worker), 1); /* no temporary left beside */
	/* the bot's files gone from where they were: it can only run from the cache */
	snprintf(moved, sizeof(moved), "%s.away", f->bot);
	assert_int_equal(rename(f->bot, moved), 0);
	assert_int_equal(bundle_place(&b, f->worker, f->sha, f->err, sizeof(f->err)), 0);
	snprintf(moved, sizeof(moved), "%s/%s%s", f->worker, f->sha, f->bot);
	assert_string_equal(b.cwd, moved);
	snprintf(moved, sizeof(moved), "%s/%s%s", f->worker, f->sha, f->script);
	assert_string_equal(b.argv[0], moved);
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' && cat sub/data", b.cwd, b.argv[0]);
	assert_non_null(p = popen(cmd, "r"));
	assert_int_equal(fread(out, 1, sizeof(out) - 1, p), 38);
	assert_int_equal(pclose(p), 0);
	assert_string_equal(out, "from the data file\nfrom the data file\n");
	free(data);
	free(b.argv[0]);
	free(b.cwd);
}

/* A command "/bin/sh bot.sh": the relative script moves with its cwd, /bin/sh stays. */
static void test_placed_relative_and_system_paths(void **state)
{
	struct fixture *f = *state;
	char *argv[] = { strdup("/bin/sh"), strdup("bot.sh"), strdup("-v"), NULL }, want[PATH_MAX];
	struct config_bot b = { .name = "alpha", .argv = argv, .cwd = strdup(f->bot), .env = f->env };
	size_t len;
	char *data;

	f->b.argv = argv;
	assert_int_equal(make(f), 0);
	data = bundle_bytes(f, &len);
	assert_int_equal(bundle_unpack(f->worker, f->sha, data, len, f->err, sizeof(f->err)), 0);
	assert_int_equal(bundle_place(&b, f->worker, f->sha, f->err, sizeof(f->err)), 0);
	assert_string_equal(b.argv[0], "/bin/sh");
	assert_string_equal(b.argv[1], "bot.sh");
	assert_string_equal(b.argv[2], "-v");
	snprintf(want, sizeof(want), "%s/%s%s", f->worker, f->sha, f->bot);
	assert_string_equal(b.cwd, want);
	/* run from the league's directory, never shipped: the script's path is made absolute */
	free(argv[1]);
	argv[1] = strdup("../bots/alpha/bot.sh");
	f->b.cwd = f->league;
	free(b.cwd);
	b.cwd = strdup(f->league);
	assert_int_equal(make(f), 0);
	assert_false(bundle_has(f, f->league));
	free(data);
	data = bundle_bytes(f, &len);
	assert_int_equal(bundle_unpack(f->worker, f->sha, data, len, f->err, sizeof(f->err)), 0);
	assert_int_equal(bundle_place(&b, f->worker, f->sha, f->err, sizeof(f->err)), 0);
	snprintf(want, sizeof(want), "%s/%s%s", f->worker, f->sha, f->script);
	assert_string_equal(b.argv[1], want);
	assert_string_equal(b.cwd, f->league);
	/* a name that is no 64 hex digits reaches no path */
	assert_int_equal(bundle_place(&b, f->worker, "../../etc", f->err, sizeof(f->err)), -ENOENT);
	assert_false(bundle_present(f->worker, "../worker"));
	for (size_t k = 0; k < 3; k++)
		free(argv[k]);
	free(b.cwd);
	free(data);
}

/* The bundle made in a child process (another pid), its hash in sha. */
static void make_in_child(struct fixture *f, char *sha)
{
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	assert_true((pid = fork()) >= 0);
	if (pid == 0) {
		close(fds[0]);
		_exit(make(f) == 0 && write(fds[1], f->sha, BUNDLE_HASH_LEN) == BUNDLE_HASH_LEN ?
		      0 : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], sha, BUNDLE_HASH_LEN), BUNDLE_HASH_LEN);
	sha[BUNDLE_HASH_LEN] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
}

static void test_same_files_same_hash(void **state)
{
	struct fixture *f = *state;
	char first[BUNDLE_HASH_LEN + 1], again[BUNDLE_HASH_LEN + 1];
	struct timespec later[2] = { { 1700000000, 5 }, { 1700000000, 5 } };

	assert_int_equal(make(f), 0);
	strcpy(first, f->sha);
	/* touched, and group-writable: neither time nor those bits are in a bundle */
	assert_int_equal(utimensat(AT_FDCWD, f->script, later, 0), 0);
	assert_int_equal(chmod(f->script, 0775), 0);
	assert_int_equal(make(f), 0);
	assert_string_equal(f->sha, first);
	/* the same files made again at the same path, at another time, by another process */
	remove_tree(f->bot);
	umask(077);
	make_bot_files(f);
	umask(022);
	assert_int_equal(utimensat(AT_FDCWD, f->bot, later, 0), 0);
	make_in_child(f, again);
	assert_string_equal(again, first);
	/* and a change of content is a change of name */
	write_file(f->bot, "data.txt", "from the data file!\n", 0644);
	assert_int_equal(make(f), 0);
	assert_string_not_equal(f->sha, first);
}

static void test_tampered_refused(void **state)
{
	struct fixture *f = *state;
	size_t len;
	char *data;

	assert_int_equal(make(f), 0);
	data = bundle_bytes(f, &len);
	data[600] ^= 1; /* a byte of the first file's data */
	assert_int_equal(bundle_unpack(f->worker, f->sha, data, len, f->err, sizeof(f->err)),
			 -EBADMSG);
	assert_non_null(strstr(f->err, "fetch it again"));
	assert_false(bundle_present(f->worker, f->sha));
	assert_int_equal(entries_in(f->worker), 0);
	free(data);
}

/* A tar of one hostile entry, written here, in data (its length in *len), its hash in sha. */
struct hostile {
	const char *path;
	unsigned type;
	const char *link;
	const char *hardlink;
};

static void *hostile_tar(const struct hostile *h, size_t *len, char *sha)
{
	const struct archive_spec entries[] = {
		{ .path = "ok.txt", .content = "ok\n" },
		{ .path = h->path, .type = h->type, .content = "bad\n", .symlink = h->link,
		  .hardlink = h->hardlink },
	};
	size_t cap = 1 << 16;
	char *data = malloc(cap);
	struct archive *a = archive_write_new();

	assert_non_null(data);
	assert_non_null(a);
	archive_write_set_format_pax_restricted(a);
	assert_int_equal(archive_write_open_memory(a, data, cap, len), ARCHIVE_OK);
	archive_spec_write(a, entries, sizeof(entries) / sizeof(entries[0]));
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	SHA256Data((const uint8_t *)data, *len, sha);
	return data;
}

static void test_hostile_archives_refused(void **state)
{
	struct fixture *f = *state;
	char outside[PATH_MAX], abs_path[PATH_MAX];
	const struct hostile cases[] = {
		{ "../x", AE_IFREG, NULL, NULL },
		{ "a/../../x", AE_IFREG, NULL, NULL },
		{ abs_path, AE_IFREG, NULL, NULL },
		{ "passwd", AE_IFLNK, "/etc/passwd", NULL },
		{ "up", AE_IFLNK, "../../../x", NULL },
		{ "null", AE_IFCHR, NULL, NULL },
		{ "fifo", AE_IFIFO, NULL, NULL },
		{ "hard", AE_IFREG, NULL, "../../x" },
	};

	snprintf(abs_path, sizeof(abs_path), "%s/x", f->base);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char sha[SHA256_DIGEST_STRING_LENGTH];
		size_t len;
		void *data = hostile_tar(&cases[i], &len, sha);
		int ret = bundle_unpack(f->worker, sha, data, len, f->err, sizeof(f->err));

		if (ret >= 0)
			fail_msg("entry \"%s\" taken", cases[i].path);
		print_message("%s: %s\n", cases[i].path, f->err);
		assert_false(bundle_present(f->worker, sha));
		assert_int_equal(entries_in(f->worker), 0);
		free(data);
	}
	/* nothing beside the fixture's own directories */
	assert_int_equal(entries_in(f->base), 4);
	snprintf(outside, sizeof(outside), "%s/x", f->base);
	assert_int_equal(access(outside, F_OK), -1);
}

static void test_system_only_bot_has_no_bundle(void **state)
{
	struct fixture *f = *state;
	char *argv[] = { "/bin/cat", NULL };

	f->b.argv = argv;
	f->b.cwd = f->league;
	assert_int_equal(make(f), 1);
	assert_int_equal(entries_in(f->cache), 0);
	f->b.cwd = "/";
	assert_int_equal(make(f), 1);
	/* NULL: the usual system directories */
	assert_int_equal(bundle_make(&f->b, NULL, NULL, f->cache, f->sha, f->err, sizeof(f->err)), 1);
}

static void test_excluded_directory_never_shipped(void **state)
{
	struct fixture *f = *state;
	char out[PATH_MAX], games[PATH_MAX + 16], *argv[] = { f->script, "out/games.jsonl", NULL };

	/* the league's directory inside the cwd: the cwd is not shipped whole */
	snprintf(out, sizeof(out), "%s/out", f->bot);
	assert_int_equal(mkdir(out, 0755), 0);
	write_file(out, "games.jsonl", "{}\n", 0644);
	f->b.argv = argv;
	assert_int_equal(bundle_make(&f->b, system_dirs, out, f->cache, f->sha, f->err,
				     sizeof(f->err)), 0);
	snprintf(games, sizeof(games), "%s/games.jsonl", out);
	assert_true(bundle_has(f, f->script));
	assert_false(bundle_has(f, games));
	snprintf(games, sizeof(games), "%s/data.txt", f->bot);
	assert_false(bundle_has(f, games));
	/* a bot whose program lies in it is refused, saying where */
	f->b.cwd = f->league;
	snprintf(games, sizeof(games), "%s/bot.sh", f->league);
	write_file(f->league, "bot.sh", "#!/bin/sh\n", 0755);
	argv[0] = games;
	argv[1] = NULL;
	assert_int_equal(make(f), -EPERM);
	assert_non_null(strstr(f->err, "never shipped"));
}

static void test_link_out_refused(void **state)
{
	struct fixture *f = *state;
	char link[PATH_MAX];

	snprintf(link, sizeof(link), "%s/passwd", f->bot);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	assert_int_equal(bundle_make(&f->b, system_dirs, f->league, f->cache, f->sha, f->err,
				     sizeof(f->err)), -EPERM);
	assert_non_null(strstr(f->err, "outside its bundle"));
	assert_int_equal(entries_in(f->cache), 0);
}

static void test_over_size_refused(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX], sha[BUNDLE_HASH_LEN + 1];
	size_t size = (size_t)BUNDLE_MAX_BYTES + (1 << 20);
	void *map;
	int fd;

	/* a sparse file: no disk, the size of one too big */
	snprintf(path, sizeof(path), "%s/weights.bin", f->bot);
	assert_true((fd = open(path, O_RDWR | O_CREAT, 0644)) >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(bundle_make(&f->b, system_dirs, f->league, f->cache, f->sha, f->err,
				     sizeof(f->err)), -EFBIG);
	assert_non_null(strstr(f->err, "\"alpha\""));
	assert_int_equal(entries_in(f->cache), 0);
	/* and taken: refused by its size before a byte is read */
	assert_true((map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED);
	memset(sha, 'a', BUNDLE_HASH_LEN);
	sha[BUNDLE_HASH_LEN] = '\0';
	assert_int_equal(bundle_unpack(f->worker, sha, map, size, f->err, sizeof(f->err)), -EFBIG);
	munmap(map, size);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_made_unpacked_and_run_from_the_cache, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_placed_relative_and_system_paths, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_same_files_same_hash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tampered_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_archives_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_system_only_bot_has_no_bundle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_excluded_directory_never_shipped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_link_out_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_over_size_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
