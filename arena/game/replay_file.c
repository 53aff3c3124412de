/*
 * replay_file.c - replay files written plain or zstd-compressed, and read back
 * either way (contract in replay_file.h).
 */
#include "replay_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "durable.h"

/* Fast enough not to show beside a game: about a tenth of the plain size. */
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

int replay_write_file(struct replay_writer *rw, const char *path, const struct replay_info *info)
{
	size_t n = strlen(path);
	int ret;

	if ((ret = replay_format(&rw->text, info)) < 0)
		return ret;
	jsonw_text(&rw->text, "\n");
	if ((ret = jsonw_error(&rw->text)) < 0)
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

/* The decompressed text of the zstd frame packed[0..*len), NUL-terminated;
 * packed is freed either way. NULL with errno EBADMSG or EFBIG. */
static char *unpack(char *packed, size_t *len)
{
	unsigned long long size = ZSTD_getFrameContentSize(packed, *len);
	char *text = NULL;
	size_t n;

	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
		errno = EBADMSG;
	} else if (size >= REPLAY_FILE_MAX) {
		errno = EFBIG;
	} else if (!(text = malloc((size_t)size + 1))) {
		errno = ENOMEM;
	} else {
		n = ZSTD_decompress(text, (size_t)size, packed, *len);
		if (ZSTD_isError(n) || n != size) {
			free(text);
			text = NULL;
			errno = EBADMSG;
		} else {
			text[n] = '\0';
			*len = n;
		}
	}
	free(packed);
	if (!text)
		*len = 0;
	return text;
}

char *replay_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 65536 + 1 > cap) {
			char *grown;

			cap = cap ? cap * 2 : 1 << 20;
			if (cap > REPLAY_FILE_MAX || !(grown = realloc(text, cap))) {
				free(text);
				text = NULL;
				errno = EFBIG;
				break;
			}
			text = grown;
		}
		n = fread(text + *len, 1, cap - *len - 1, f);
		*len += n;
		if (n == 0) {
			text[*len] = '\0';
			break;
		}
	}
	fclose(f);
	return text && is_zstd(text, *len) ? unpack(text, len) : text;
}
