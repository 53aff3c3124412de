/*
 * replay_file.c - replays written plain, zstd-compressed or appended to a
 * pack, and read back any way (contract in replay_file.h).
 */
#include "replay_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "durable.h"

/* Fast enough not to show beside a game: about a quarter of the plain size. */
#define REPLAY_ZSTD_LEVEL 3

void replay_writer_init(struct replay_writer *rw)
{
	memset(rw, 0, sizeof(*rw));
	jsonw_init(&rw->text);
}

void replay_writer_release(struct replay_writer *rw)
{
	jsonw_release(&rw->text);
	free(rw->packed);
	ZSTD_freeCCtx(rw->zstd);
	replay_writer_init(rw);
}

/* The replay document and its newline in rw->text. */
static int format(struct replay_writer *rw, const struct replay_info *info)
{
	int ret;

	if ((ret = replay_format(&rw->text, info)) < 0)
		return ret;
	jsonw_text(&rw->text, "\n");
	return jsonw_error(&rw->text);
}

/* rw->text into rw->packed as one zstd frame that records its size; *len its bytes. */
static int pack(struct replay_writer *rw, size_t *len)
{
	size_t bound = ZSTD_compressBound(rw->text.len), n;

	if (!rw->zstd && !(rw->zstd = ZSTD_createCCtx()))
		return -ENOMEM;
	if (rw->packed_cap < bound) {
		char *grown = realloc(rw->packed, bound);

		if (!grown)
			return -ENOMEM;
		rw->packed = grown;
		rw->packed_cap = bound;
	}
	n = ZSTD_compressCCtx(rw->zstd, rw->packed, rw->packed_cap, rw->text.data, rw->text.len,
			      REPLAY_ZSTD_LEVEL);
	if (ZSTD_isError(n))
		return -EIO;
	*len = n;
	return 0;
}

int replay_frame(struct replay_writer *rw, const struct replay_info *info, const char **frame,
		 size_t *len)
{
	int ret;

	if ((ret = format(rw, info)) < 0 || (ret = pack(rw, len)) < 0)
		return ret;
	*frame = rw->packed;
	return 0;
}

int replay_write_file(struct replay_writer *rw, const char *path, const struct replay_info *info)
{
	size_t n = strlen(path);
	int ret;

	if ((ret = format(rw, info)) < 0)
		return ret;
	if (n < 4 || strcmp(path + n - 4, ".zst") != 0)
		return durable_write_unsynced(path, rw->text.data, rw->text.len);
	if ((ret = pack(rw, &n)) < 0)
		return ret;
	return durable_write_unsynced(path, rw->packed, n);
}

static int is_zstd(const char *data, size_t len)
{
	static const unsigned char magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	return len >= 4 && memcmp(data, magic, 4) == 0;
}

/*
 * The decompressed text of the zstd frames packed[0..*len), one after the
 * other, NUL-terminated; packed is freed either way. NULL with errno EBADMSG
 * (a damaged or cut-off frame, or one that does not record its size) or EFBIG.
 */
static char *unpack(char *packed, size_t *len)
{
	unsigned long long size = 0;
	char *text = NULL;
	size_t at, n;

	errno = EBADMSG;
	for (at = 0; at < *len; at += n) {
		unsigned long long frame = ZSTD_getFrameContentSize(packed + at, *len - at);

		n = ZSTD_findFrameCompressedSize(packed + at, *len - at);
		if (frame == ZSTD_CONTENTSIZE_ERROR || frame == ZSTD_CONTENTSIZE_UNKNOWN ||
		    ZSTD_isError(n))
			goto out;
		if ((size += frame) >= REPLAY_FILE_MAX) {
			errno = EFBIG;
			goto out;
		}
	}
	if (!(text = malloc((size_t)size + 1))) {
		errno = ENOMEM;
		goto out;
	}
	n = ZSTD_decompress(text, (size_t)size, packed, *len);
	if (ZSTD_isError(n) || n != size) {
		free(text);
		text = NULL;
		errno = EBADMSG;
		goto out;
	}
	text[n] = '\0';
	*len = n;
out:
	free(packed);
	if (!text)
		*len = 0;
	return text;
}

/* At most max bytes of f from where it stands, NUL-terminated; *len its length. */
static char *read_stream(FILE *f, size_t max, size_t *len)
{
	char *text = NULL;
	size_t cap = 0, n;

	*len = 0;
	for (;;) {
		if (*len + 65536 + 1 > cap) {
			char *grown;

			cap = cap ? cap * 2 : 1 << 16;
			if (cap > REPLAY_FILE_MAX || !(grown = realloc(text, cap))) {
				free(text);
				errno = EFBIG;
				return NULL;
			}
			text = grown;
		}
		n = fread(text + *len, 1, *len + 65536 < max ? 65536 : max - *len, f);
		*len += n;
		if (n == 0 || *len == max) {
			text[*len] = '\0';
			return text;
		}
	}
}

char *replay_read_at(const char *path, uint64_t offset, uint64_t bytes, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text;

	*len = 0;
	if (!f)
		return NULL;
	if (bytes && (offset > (uint64_t)INT64_MAX || bytes > REPLAY_FILE_MAX ||
		      fseeko(f, (off_t)offset, SEEK_SET) < 0)) {
		fclose(f);
		errno = bytes > REPLAY_FILE_MAX ? EFBIG : EINVAL;
		return NULL;
	}
	text = read_stream(f, bytes ? (size_t)bytes : REPLAY_FILE_MAX, len);
	fclose(f);
	if (!text)
		return NULL;
	if (!bytes)
		return is_zstd(text, *len) ? unpack(text, len) : text;
	/* a frame of a pack: exactly one, whole */
	if (*len != bytes || !is_zstd(text, *len) ||
	    ZSTD_findFrameCompressedSize(text, *len) != *len) {
		free(text);
		*len = 0;
		errno = EBADMSG;
		return NULL;
	}
	return unpack(text, len);
}

char *replay_read_file(const char *path, size_t *len)
{
	return replay_read_at(path, 0, 0, len);
}

const char *replay_next_document(const char *text, size_t len, size_t *pos, size_t *doc_len)
{
	size_t i = *pos, start;
	int depth = 0, in_string = 0;

	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i >= len) {
		*pos = len;
		return NULL;
	}
	for (start = i; i < len; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && --depth <= 0) {
			i++;
			break;
		}
	}
	if (i > len)
		i = len;
	*doc_len = i - start;
	*pos = i;
	return text + start;
}
