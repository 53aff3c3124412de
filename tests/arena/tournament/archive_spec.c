/*
 * archive_spec.c - test archives written from tables of entries (archive_spec.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <cmocka.h>

#include "archive_spec.h"

void archive_spec_write(struct archive *a, const struct archive_spec *s, size_t n)
{
	static char zeros[1 << 20];

	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		unsigned type = s[i].type ? s[i].type : AE_IFREG;
		uint64_t size = s[i].content ? strlen(s[i].content) : s[i].zeros;

		assert_non_null(e);
		archive_entry_set_pathname(e, s[i].path);
		archive_entry_set_filetype(e, type);
		archive_entry_set_perm(e, s[i].perm ? s[i].perm : type == AE_IFDIR ? 0755 : 0644);
		archive_entry_set_size(e, type == AE_IFREG && !s[i].hardlink ? (la_int64_t)size : 0);
		if (s[i].symlink)
			archive_entry_set_symlink(e, s[i].symlink);
		if (s[i].hardlink)
			archive_entry_set_hardlink(e, s[i].hardlink);
		if (type == AE_IFCHR)
			archive_entry_set_rdev(e, makedev(1, 3));
		if (archive_write_header(a, e) != ARCHIVE_OK)
			fail_msg("header of %s: %s", s[i].path, archive_error_string(a));
		if (type == AE_IFREG && s[i].content && !s[i].hardlink)
			assert_int_equal(archive_write_data(a, s[i].content, size), (la_ssize_t)size);
		for (uint64_t left = s[i].content ? 0 : s[i].zeros; left > 0;) {
			size_t k = left < sizeof(zeros) ? (size_t)left : sizeof(zeros);

			assert_int_equal(archive_write_data(a, zeros, k), (la_ssize_t)k);
			left -= k;
		}
		archive_entry_free(e);
	}
}
