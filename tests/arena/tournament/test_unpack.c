/*
 * test_unpack.c - submitted archives unpacked (unpack.h). Every archive is
 * built here with libarchive's writer: a good tree in each accepted format,
 * then each hostile case, refused with its reason, with nothing written
 * outside the target directory.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "archive_spec.h"
#include "remove_tree.h"

#include "unpack.h"

enum format { TAR, TAR_GZ, TAR_XZ, TAR_ZST, ZIP };

struct fixture {
	char base[64];        /* holds the archive, the targets and "outside" */
	char outside[128];    /* a directory hostile entries aim at */
	char archive[128];
	int targets;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	umask(022);
	strcpy(f->base, "/tmp/test_unpack.XXXXXX");
	assert_non_null(mkdtemp(f->base));
	snprintf(f->outside, sizeof(f->outside), "%s/outside", f->base);
	snprintf(f->archive, sizeof(f->archive), "%s/submitted", f->base);
	assert_int_equal(mkdir(f->outside, 0755), 0);
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

static void build(const char *path, enum format fmt, const struct archive_spec *s, size_t n)
{
	struct archive *a = archive_write_new();

	assert_non_null(a);
	assert_int_equal(fmt == ZIP ? archive_write_set_format_zip(a) :
			 archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	if (fmt == TAR_GZ)
		assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	if (fmt == TAR_XZ)
		assert_int_equal(archive_write_add_filter_xz(a), ARCHIVE_OK);
	if (fmt == TAR_ZST)
		assert_int_equal(archive_write_add_filter_zstd(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	archive_spec_write(a, s, n);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/* Nothing but the archive, "outside" (empty) and the targets in base. */
static void assert_nothing_outside(const struct fixture *f)
{
	DIR *d = opendir(f->base);
	struct dirent *de;
	int in_outside = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "submitted") && strcmp(de->d_name, "outside") &&
		    strncmp(de->d_name, "target", 6))
			fail_msg("\"%s\" appeared beside the target", de->d_name);
	closedir(d);
	assert_non_null(d = opendir(f->outside));
	while ((de = readdir(d)))
		in_outside += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	assert_int_equal(in_outside, 0);
}

/* A new empty target directory's path in out. */
static void new_target(struct fixture *f, char *out, size_t size)
{
	snprintf(out, size, "%s/target%d", f->base, f->targets++);
	assert_int_equal(mkdir(out, 0755), 0);
}

/* Build s as fmt, unpack it under lim (NULL: the defaults); expect code and why (when
 * code < 0), nothing outside. The target's path in target. */
static int unpack_case(struct fixture *f, enum format fmt, const struct archive_spec *s, size_t n,
		       const struct unpack_limits *lim, char *target, size_t target_size,
		       struct unpack_stats *st, char *why, size_t why_size)
{
	static const struct unpack_limits defaults = UNPACK_LIMITS_DEFAULT;
	int ret;

	unlink(f->archive);
	build(f->archive, fmt, s, n);
	new_target(f, target, target_size);
	ret = unpack_archive(f->archive, target, lim ? lim : &defaults, st, why, why_size);
	assert_nothing_outside(f);
	return ret;
}

static void expect_refused(struct fixture *f, enum format fmt, const struct archive_spec *s,
			   size_t n, const struct unpack_limits *lim, int code, const char *entry,
			   const char *why_part)
{
	char target[PATH_MAX], why[1024], named[256];
	struct unpack_stats st;
	int ret = unpack_case(f, fmt, s, n, lim, target, sizeof(target), &st, why, sizeof(why));

	snprintf(named, sizeof(named), "entry \"%s\": ", entry);
	if (ret != code || !strstr(why, why_part) || (*entry && !strstr(why, named)))
		fail_msg("expected %d with \"%s%s\", got %d: %s", code, *entry ? named : "",
			 why_part, ret, why);
	remove_tree(target);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_good_tree(void **state)
{
	static const struct archive_spec good[] = {
		{ .path = "bot/", .type = AE_IFDIR },
		{ .path = "bot/src/lib/util.py", .content = "def f():\n    return 1\n" },
		{ .path = "./bot/run.sh", .perm = 0755, .content = "#!/bin/sh\nexec python3 x\n" },
		{ .path = "bot/current", .type = AE_IFLNK, .symlink = "src/lib/util.py" },
		{ .path = "bot/src/lib/up", .type = AE_IFLNK, .symlink = "../../run.sh" },
		{ .path = "bot/empty/", .type = AE_IFDIR },
		{ .path = "README", .content = "" },
	};
	static const enum format formats[] = { TAR, TAR_GZ, TAR_XZ, TAR_ZST, ZIP };
	struct fixture *f = *state;
	char target[PATH_MAX], path[PATH_MAX + 64], why[1024], link[64];
	struct unpack_stats st;
	struct stat sb;
	ssize_t n;

	for (size_t k = 0; k < N(formats); k++) {
		int ret = unpack_case(f, formats[k], good, N(good), NULL, target, sizeof(target),
				      &st, why, sizeof(why));

		if (ret != 0)
			fail_msg("format %zu: %d %s", k, ret, why);
		assert_int_equal(st.entries, 9); /* 7, and bot/src, bot/src/lib made for one */
		snprintf(path, sizeof(path), "%s/bot/run.sh", target);
		assert_int_equal(lstat(path, &sb), 0);
		assert_true(S_ISREG(sb.st_mode));
		assert_int_equal(sb.st_mode & 07777, 0755);
		assert_int_equal(sb.st_size, 25);
		snprintf(path, sizeof(path), "%s/bot/src/lib/util.py", target);
		assert_int_equal(lstat(path, &sb), 0);
		assert_int_equal(sb.st_mode & 07777, 0644);
		snprintf(path, sizeof(path), "%s/bot/current", target);
		assert_int_equal(lstat(path, &sb), 0);
		assert_true(S_ISLNK(sb.st_mode));
		n = readlink(path, link, sizeof(link) - 1);
		assert_int_equal(n, 15);
		link[n] = '\0';
		assert_string_equal(link, "src/lib/util.py");
		assert_int_equal(stat(path, &sb), 0); /* it resolves */
		snprintf(path, sizeof(path), "%s/bot/src/lib/up", target);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(sb.st_size, 25);
		snprintf(path, sizeof(path), "%s/bot/empty", target);
		assert_int_equal(lstat(path, &sb), 0);
		assert_true(S_ISDIR(sb.st_mode));
		remove_tree(target);
	}
}

static void test_paths_refused(void **state)
{
	struct fixture *f = *state;
	char abs[PATH_MAX];
	const struct archive_spec up[] = { { .path = "ok", .content = "1" },
					   { .path = "../x", .content = "evil" } };
	const struct archive_spec up2[] = { { .path = "a/../../x", .content = "evil" } };
	const struct archive_spec up3[] = {
		{ .path = "a/b/../../../outside/x", .content = "evil" },
	};
	struct archive_spec absolute[] = { { .path = abs, .content = "evil" } };
	static const struct unpack_limits shallow = { 1 << 20, 1 << 20, 1 << 20, 100, 1024, 8 };
	char deep[128] = "", longname[1200];
	const struct archive_spec too_deep[] = { { .path = deep, .content = "x" } };
	const struct archive_spec too_long[] = { { .path = longname, .content = "x" } };

	snprintf(abs, sizeof(abs), "%s/evil", f->outside);
	expect_refused(f, TAR, up, N(up), NULL, -EPERM, "../x", "a \"..\" component");
	expect_refused(f, TAR_GZ, up2, N(up2), NULL, -EPERM, "a/../../x", "a \"..\" component");
	expect_refused(f, ZIP, up3, N(up3), NULL, -EPERM, up3[0].path, "a \"..\" component");
	expect_refused(f, TAR, absolute, N(absolute), NULL, -EPERM, "", "an absolute path");
	for (int i = 0; i < 9; i++)
		strcat(deep, "d/");
	strcat(deep, "f");
	expect_refused(f, TAR, too_deep, N(too_deep), &shallow, -EFBIG, deep,
		       "a path 10 deep, over the limit of 8 components");
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (size_t i = 100; i < sizeof(longname) - 1; i += 100)
		longname[i] = '/';
	expect_refused(f, TAR, too_long, N(too_long), NULL, -EFBIG, "",
		       "a path of 1199 bytes, over the limit of 1024");
}

static void test_links_refused(void **state)
{
	struct fixture *f = *state;
	char abs[PATH_MAX];
	struct archive_spec link_abs[] = { { .path = "l", .type = AE_IFLNK, .symlink = abs } };
	const struct archive_spec link_up[] = { { .path = "d/l", .type = AE_IFLNK,
						  .symlink = "../../outside" } };
	const struct archive_spec link_up2[] = { { .path = "l", .type = AE_IFLNK,
						   .symlink = "a/../../outside" } };
	/* s -> "." is in the tree, and "s/.." read as text is too; the kernel would climb */
	const struct archive_spec chain[] = {
		{ .path = "s", .type = AE_IFLNK, .symlink = "." },
		{ .path = "t", .type = AE_IFLNK, .symlink = "s/.." },
	};
	struct archive_spec through_out[] = { { .path = "link", .type = AE_IFLNK, .symlink = abs },
					      { .path = "link/evil", .content = "evil" } };
	const struct archive_spec through_in[] = {
		{ .path = "sub/", .type = AE_IFDIR },
		{ .path = "link", .type = AE_IFLNK, .symlink = "sub" },
		{ .path = "link/evil", .content = "evil" },
	};
	const struct archive_spec over_link[] = {
		{ .path = "link", .type = AE_IFLNK, .symlink = "f" },
		{ .path = "link", .content = "replaced" },
	};
	const struct archive_spec hard[] = { { .path = "a", .content = "data" },
					     { .path = "b", .hardlink = "a" } };
	const struct archive_spec hard_out[] = { { .path = "b", .hardlink = "/etc/passwd" } };

	snprintf(abs, sizeof(abs), "%s", f->outside);
	expect_refused(f, TAR, link_abs, N(link_abs), NULL, -EPERM, "l",
		       "a symbolic link to an absolute path");
	expect_refused(f, ZIP, link_abs, N(link_abs), NULL, -EPERM, "l",
		       "a symbolic link to an absolute path");
	expect_refused(f, TAR, link_up, N(link_up), NULL, -EPERM, "d/l", "leaves the tree");
	expect_refused(f, TAR, chain, N(chain), NULL, -EPERM, "t", "after a name");
	expect_refused(f, TAR, link_up2, N(link_up2), NULL, -EPERM, "l", "after a name");
	expect_refused(f, TAR, through_out, N(through_out), NULL, -EPERM, "link",
		       "a symbolic link to an absolute path");
	expect_refused(f, TAR, through_in, N(through_in), NULL, -EPERM, "link/evil",
		       "a path through \"link\", which is a symbolic link");
	expect_refused(f, TAR, over_link, N(over_link), NULL, -EPERM, "link", "there already");
	expect_refused(f, TAR, hard, N(hard), NULL, -EPERM, "b", "a hard link");
	expect_refused(f, TAR, hard_out, N(hard_out), NULL, -EPERM, "b", "a hard link");
}

static void test_nodes_refused_modes_stripped(void **state)
{
	struct fixture *f = *state;
	const struct archive_spec dev[] = { { .path = "null", .type = AE_IFCHR, .perm = 0666 } };
	const struct archive_spec fifo[] = { { .path = "pipe", .type = AE_IFIFO } };
	const struct archive_spec suid[] = { { .path = "su", .perm = 06755, .content = "x" },
					     { .path = "sticky", .perm = 01777, .content = "x" },
					     { .path = "gw", .perm = 0666, .content = "x" } };
	char target[PATH_MAX], path[PATH_MAX + 16], why[1024];
	static const char *const names[] = { "su", "sticky", "gw" };
	static const mode_t modes[] = { 0755, 0755, 0644 };
	struct stat sb;

	expect_refused(f, TAR, dev, N(dev), NULL, -EPERM, "null", "a device file");
	expect_refused(f, TAR_GZ, fifo, N(fifo), NULL, -EPERM, "pipe", "a fifo");
	assert_int_equal(unpack_case(f, TAR, suid, N(suid), NULL, target, sizeof(target), NULL,
				     why, sizeof(why)), 0);
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", target, names[i]);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(sb.st_mode & 07777, modes[i]);
	}
	remove_tree(target);
}

/* The zip at path made to lie: every header of its one entry says 1,000 bytes unpacked
 * (the local header, the data descriptor if any, the central directory). */
static void declare_small_sizes(const char *path)
{
	static const unsigned char local[] = "PK\3\4", central[] = "PK\1\2", desc[] = "PK\7\10";
	static const unsigned char small[4] = { 0xe8, 0x03, 0, 0 };
	FILE *fp = fopen(path, "r+b");
	unsigned char *b;
	long size;
	int patched = 0;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	assert_non_null(b = malloc((size_t)size));
	rewind(fp);
	assert_int_equal(fread(b, 1, (size_t)size, fp), (size_t)size);
	for (long i = 0; i + 46 <= size; i++) {
		size_t at = memcmp(b + i, local, 4) == 0 ? 22 : memcmp(b + i, central, 4) == 0 ? 24 :
			    memcmp(b + i, desc, 4) == 0 ? 12 : 0;

		if (at) {
			memcpy(b + i + at, small, 4);
			patched |= at == 22 ? 1 : at == 24 ? 2 : 4;
		}
	}
	assert_int_equal(patched & 3, 3);
	rewind(fp);
	assert_int_equal(fwrite(b, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	free(b);
}

/* 1 GiB of zeros deflated in a zip, a few MB: stopped at the limit, read no further. */
static void test_zip_bomb(void **state)
{
	struct fixture *f = *state;
	const struct archive_spec bomb[] = { { .path = "zeros", .zeros = UINT64_C(1) << 30 } };
	const struct unpack_limits lim = { UINT64_C(64) << 20, UINT64_C(16) << 20,
					   UINT64_C(32) << 20, 100, 1024, 32 };
	const struct unpack_limits per_file = { UINT64_C(64) << 20, UINT64_C(256) << 20,
						UINT64_C(8) << 20, 100, 1024, 32 };
	char target[PATH_MAX], path[PATH_MAX + 16], why[1024];
	struct unpack_stats st;
	struct stat sb;

	assert_int_equal(unpack_case(f, ZIP, bomb, N(bomb), &lim, target, sizeof(target), &st,
				     why, sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "entry \"zeros\": more than 16777216 bytes unpacked in all"));
	assert_true(st.bytes <= lim.total_bytes);
	snprintf(path, sizeof(path), "%s/zeros", target);
	assert_int_equal(stat(path, &sb), 0);
	assert_true((uint64_t)sb.st_size <= lim.total_bytes);
	assert_int_equal(stat(f->archive, &sb), 0);
	assert_true(sb.st_size < 8 << 20); /* a bomb: small packed */
	remove_tree(target);

	/* the same under the unchanged archive, by the per-file limit */
	new_target(f, target, sizeof(target));
	assert_int_equal(unpack_archive(f->archive, target, &per_file, &st, why, sizeof(why)),
			 -EFBIG);
	assert_non_null(strstr(why, "more than 8388608 bytes unpacked, the limit of a file"));
	assert_true(st.bytes <= per_file.file_bytes);
	remove_tree(target);

	/* the same archive with headers that say 1,000 bytes: stopped by what is read */
	declare_small_sizes(f->archive);
	new_target(f, target, sizeof(target));
	assert_int_equal(unpack_archive(f->archive, target, &per_file, &st, why, sizeof(why)),
			 -EFBIG);
	assert_non_null(strstr(why, "more than 8388608 bytes unpacked, the limit of a file"));
	assert_true(st.bytes <= per_file.file_bytes);
	remove_tree(target);
}

static void test_counts_and_sizes(void **state)
{
	enum { MANY = 100000 };
	struct fixture *f = *state;
	struct archive_spec *many = calloc(MANY, sizeof(*many));
	char (*names)[16] = calloc(MANY, sizeof(*names));
	const struct unpack_limits small = { 4096, 1 << 20, 1 << 20, 100, 1024, 32 };
	const struct archive_spec big[] = { { .path = "big", .zeros = 64 << 10 } };
	char target[PATH_MAX], why[1024];
	struct unpack_stats st;

	for (int i = 0; i < MANY; i++) {
		snprintf(names[i], sizeof(names[i]), "f%06d", i);
		many[i] = (struct archive_spec){ .path = names[i], .content = "" };
	}
	assert_int_equal(unpack_case(f, TAR_GZ, many, MANY, NULL, target, sizeof(target), &st,
				     why, sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "entry \"f010000\": more than 10000 entries"));
	assert_int_equal(st.entries, 10001);
	remove_tree(target);
	free(many);
	free(names);

	/* 64 KiB stored in a plain tar: over an archive limit of 4 KiB, refused unread */
	assert_int_equal(unpack_case(f, TAR, big, N(big), &small, target, sizeof(target), &st, why,
				     sizeof(why)), -EFBIG);
	assert_non_null(strstr(why, "over the limit of 4096 bytes an archive"));
	assert_int_equal(st.entries, 0);
	remove_tree(target);
}

static void test_not_archives(void **state)
{
	struct fixture *f = *state;
	static const struct unpack_limits lim = UNPACK_LIMITS_DEFAULT;
	const struct archive_spec one[] = { { .path = "a", .content = "1" } };
	char target[PATH_MAX], why[1024];
	FILE *fp;

	new_target(f, target, sizeof(target));
	fp = fopen(f->archive, "w");
	assert_non_null(fp);
	fputs("just some text, not an archive\n", fp);
	fclose(fp);
	assert_int_equal(unpack_archive(f->archive, target, &lim, NULL, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "is not a tar (plain, .gz, .xz, .zst) or zip archive"));
	assert_int_equal(unpack_archive(f->base, target, &lim, NULL, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "is not a regular file"));
	remove_tree(target);

	/* a target that is not empty is refused before anything is read */
	assert_int_equal(unpack_case(f, TAR, one, N(one), NULL, target, sizeof(target), NULL, why,
				     sizeof(why)), 0);
	assert_int_equal(unpack_archive(f->archive, target, &lim, NULL, why, sizeof(why)),
			 -ENOTEMPTY);
	assert_non_null(strstr(why, "unpack into an empty directory"));
	remove_tree(target);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_good_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_links_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nodes_refused_modes_stripped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zip_bomb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counts_and_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_archives, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
