/*
 * replay_file.c - replay files written plain or zstd-compressed, and read
 * back any way, whole or a document of a pack (contract in replay_file.h).
 */
#include "replay_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "durable.h"

int replay_write_file(const char *path, const struct replay_info *info, struct jsonw *scratch)
{
	size_t n = strlen(path), bound;
	char *packed;
	int ret;

	if ((ret = replay_format_line(scratch, info)) < 0)
		return ret;
	if (n < 4 || strcmp(path + n - 4, ".zst") != 0)
		return durable_write_unsynced(path, scratch->data, scratch->len);
	bound = ZSTD_compressBound(scratch->len);
	if (!(packed = malloc(bound)))
		return -ENOMEM;
	n = ZSTD_compress(packed, bound, scratch->data, scratch->len, ZSTD_CLEVEL_DEFAULT);
	ret = ZSTD_isError(n) ? -EIO : durable_write_unsynced(path, packed, n);
	free(packed);
	return ret;
}

/* Room for n more bytes and a NUL in *text (capacity *cap); -1 with errno EFBIG or ENOMEM. */
static int reserve(char **text, size_t *cap, size_t len, size_t n)
{
	size_t want = *cap ? *cap : 1 << 16;
	char *grown;

	while (want < len + n + 1)
		want *= 2;
	if (want == *cap)
		return 0;
	if (want > REPLAY_FILE_MAX + (size_t)1) {
		errno = EFBIG;
		return -1;
	}
	if (!(grown = realloc(*text, want))) {
		errno = ENOMEM;
		return -1;
	}
	*text = grown;
	*cap = want;
	return 0;
}

/* The rest of f as it is, NUL-terminated; *len its length. */
static char *read_plain(FILE *f, size_t *len)
{
	char *text = NULL;
	size_t cap = 0, n;

	*len = 0;
	do {
		if (reserve(&text, &cap, *len, 65536) < 0) {
			free(text);
			return NULL;
		}
		n = fread(text + *len, 1, 65536, f);
		*len += n;
	} while (n > 0);
	text[*len] = '\0';
	return text;
}

/*
 * The zstd frames of f from where it stands, decompressed and NUL-terminated:
 * every frame to the end of the file, or only the first with one_frame. NULL
 * with errno EBADMSG (damaged, or cut off before its end), EFBIG or ENOMEM.
 * With whole non-NULL, a damage after one or more whole frames gives their
 * text, and *whole the bytes of f they take (all it read when nothing is
 * damaged).
 */
static char *read_zstd(FILE *f, int one_frame, size_t *len, uint64_t *whole)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	char in[65536], *text = NULL;
	ZSTD_inBuffer ib = { in, 0, 0 };
	size_t cap = 0, left = 1, text_whole = 0; /* left: 0 between frames */
	uint64_t read_in = 0, in_whole = 0;

	*len = 0;
	if (!dctx) {
		errno = ENOMEM;
		return NULL;
	}
	for (;;) {
		if (ib.pos == ib.size) {
			ib.size = fread(in, 1, sizeof(in), f);
			ib.pos = 0;
			read_in += ib.size;
			if (ib.size == 0)
				break;
		}
		if (reserve(&text, &cap, *len, ZSTD_DStreamOutSize()) < 0)
			goto fail;
		ZSTD_outBuffer ob = { text + *len, cap - *len - 1, 0 };

		left = ZSTD_decompressStream(dctx, &ob, &ib);
		*len += ob.pos;
		if (ZSTD_isError(left))
			break;
		if (left == 0) {
			text_whole = *len;
			in_whole = read_in - (ib.size - ib.pos);
			if (one_frame)
				break;
		}
	}
	if (left != 0 || !text) {
		/* damaged or cut off: the whole frames before it, when asked for */
		if (!whole || !in_whole) {
			errno = EBADMSG;
			goto fail;
		}
		*len = text_whole;
	}
	if (whole)
		*whole = in_whole;
	ZSTD_freeDCtx(dctx);
	text[*len] = '\0';
	return text;
fail:
	ZSTD_freeDCtx(dctx);
	free(text);
	*len = 0;
	return NULL;
}

/* Whether f, at offset, starts with zstd's magic number; f is left at offset. */
static int at_zstd(FILE *f, off_t offset)
{
	static const unsigned char magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	unsigned char head[4];
	size_t n = fread(head, 1, sizeof(head), f);

	return fseeko(f, offset, SEEK_SET) == 0 && n == sizeof(head) &&
	       memcmp(head, magic, sizeof(head)) == 0;
}

char *replay_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text;

	*len = 0;
	if (!f)
		return NULL;
	text = at_zstd(f, 0) ? read_zstd(f, 0, len, NULL) : read_plain(f, len);
	fclose(f);
	return text;
}

char *replay_read_pack(const char *path, size_t *len, uint64_t *whole)
{
	FILE *f = fopen(path, "r");
	char *text;

	*len = 0;
	*whole = 0;
	if (!f)
		return NULL;
	if (at_zstd(f, 0)) {
		text = read_zstd(f, 0, len, whole);
	} else if ((text = read_plain(f, len))) {
		*whole = *len;
	}
	fclose(f);
	return text;
}

void replay_reader_init(struct replay_reader *rd)
{
	memset(rd, 0, sizeof(*rd));
}

void replay_reader_release(struct replay_reader *rd)
{
	free(rd->path);
	free(rd->frame);
	replay_reader_init(rd);
}

/* The frame at offset of path in rd, decompressed, unless it is there already. */
static int load_frame(struct replay_reader *rd, const char *path, uint64_t offset)
{
	FILE *f;
	char *text = NULL;
	size_t len = 0;

	if (rd->frame && rd->offset == offset && strcmp(rd->path, path) == 0)
		return 0;
	if (!(f = fopen(path, "r")))
		return -1;
	if (offset > (uint64_t)INT64_MAX || fseeko(f, (off_t)offset, SEEK_SET) < 0 ||
	    !at_zstd(f, (off_t)offset))
		errno = EBADMSG;
	else
		text = read_zstd(f, 1, &len, NULL);
	fclose(f);
	if (!text)
		return -1;
	free(rd->path);
	free(rd->frame);
	rd->frame = text;
	rd->len = len;
	rd->offset = offset;
	if (!(rd->path = strdup(path))) {
		replay_reader_release(rd);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

char *replay_reader_get(struct replay_reader *rd, const char *path, uint64_t offset,
			uint64_t line, size_t *len)
{
	const char *doc = NULL;
	size_t pos = 0, n = 0;
	char *out;

	*len = 0;
	if (load_frame(rd, path, offset) < 0)
		return NULL;
	for (uint64_t i = 0; i <= line; i++)
		if (!(doc = replay_next_document(rd->frame, rd->len, &pos, &n)))
			break;
	if (!doc) {
		errno = EBADMSG;
		return NULL;
	}
	if (!(out = malloc(n + 2))) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(out, doc, n);
	out[n] = '\n';
	out[n + 1] = '\0';
	*len = n + 1;
	return out;
}

char *replay_read_at(const char *path, uint64_t offset, uint64_t line, size_t *len)
{
	struct replay_reader rd;
	char *doc;

	replay_reader_init(&rd);
	doc = replay_reader_get(&rd, path, offset, line, len);
	replay_reader_release(&rd);
	return doc;
}

const char *replay_next_document(const char *text, size_t len, size_t *pos, size_t *doc_len)
{
	size_t i = *pos, start;
	int depth = 0, in_string = 0;

	/* JSON's white space only: a NUL starts a document the parser refuses */
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
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
