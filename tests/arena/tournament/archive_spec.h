/*
 * archive_spec.h - for the tests of archives unpacked (test_unpack.c) and of
 * bot bundles (test_bundle.c): entries described as data and written with
 * libarchive's writer, hostile ones included, so that each test states its
 * archive in a table.
 */
#ifndef ARENA_TEST_ARCHIVE_SPEC_H
#define ARENA_TEST_ARCHIVE_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <archive.h>
#include <archive_entry.h>

/* One entry to write: a file (content, or size zeros), a directory, a link, a node. */
struct archive_spec {
	const char *path;
	unsigned type;        /* AE_IFREG (0: a file), AE_IFDIR, AE_IFLNK, AE_IFCHR, AE_IFIFO */
	mode_t perm;          /* 0: 0755 for a directory, else 0644 */
	const char *content;
	uint64_t zeros;       /* a file of that many zero bytes, when no content */
	const char *symlink;
	const char *hardlink;
};

/*
 * The n entries of s into a, an archive open for writing in any format. A
 * hard link, a symbolic link and a node have size 0 and no data; a
 * character device is 1:3 (/dev/null's). Fails the running test on any
 * error of libarchive's.
 */
void archive_spec_write(struct archive *a, const struct archive_spec *s, size_t n);

#endif
