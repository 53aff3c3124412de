/*
 * replay_pack.c - replays appended to packs, a zstd frame a batch (contract
 * in replay_pack.h).
 */
#include "replay_pack.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "durable.h"

/* Level 3 (zstd's default); a 128 KiB window holds the dozens of games before one at
 * stock 1, and keeps the memory small. */
#define PACK_ZSTD_LEVEL 3
#define PACK_ZSTD_WINDOW_LOG 17

void replay_pack_init(struct replay_pack *p, const char *dir)
{
	memset(p, 0, sizeof(*p));
	p->dir = dir;
	p->fd = -1;
	p->max_bytes = REPLAY_PACK_MAX;
}

void replay_pack_release(struct replay_pack *p)
{
	if (p->fd >= 0)
		close(p->fd);
	ZSTD_freeCCtx(p->zstd);
	free(p->pending.data);
	free(p->sealed.data);
	replay_pack_init(p, p->dir);
}

int replay_pack_needs_open(const struct replay_pack *p)
{
	return p->fd < 0 || p->end >= p->max_bytes;
}

/* A new pack with a name no other worker, run or shard takes (64 random bits). */
static int open_pack(struct replay_pack *p)
{
	char path[PATH_MAX];
	uint64_t token;

	if (p->lines || p->pending.len || p->sealed.len)
		return -EBUSY; /* the old pack's documents are not written yet */
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	do {
		arc4random_buf(&token, sizeof(token));
		snprintf(p->name, sizeof(p->name), "replays/%016llx.jsonl.zst",
			 (unsigned long long)token);
		if (snprintf(path, sizeof(path), "%s/%s", p->dir, p->name) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		p->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	} while (p->fd < 0 && errno == EEXIST);
	if (p->fd < 0)
		return -errno;
	p->new_entry = 1;
	p->end = 0;
	return 0;
}

/* Room for n more bytes in b. */
static int reserve(struct replay_batch *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 1 << 16;
	char *grown;

	while (cap < b->len + n)
		cap *= 2;
	if (cap == b->cap)
		return 0;
	if (!(grown = realloc(b->data, cap)))
		return -ENOMEM;
	b->data = grown;
	b->cap = cap;
	return 0;
}

/* Run the stream over in (NULL: end the frame) into the pending batch. */
static int compress(struct replay_pack *p, const char *in, size_t len)
{
	ZSTD_inBuffer ib = { in, len, 0 };
	ZSTD_EndDirective how = in ? ZSTD_e_continue : ZSTD_e_end;
	size_t left;

	do {
		if (reserve(&p->pending, ZSTD_CStreamOutSize()) < 0)
			return -ENOMEM;
		ZSTD_outBuffer ob = { p->pending.data + p->pending.len,
				      p->pending.cap - p->pending.len, 0 };

		left = ZSTD_compressStream2(p->zstd, &ob, &ib, how);
		if (ZSTD_isError(left))
			return -EIO;
		p->pending.len += ob.pos;
	} while (in ? ib.pos < ib.size : left != 0);
	return 0;
}

/* A stream with the pack's parameters, or NULL without memory. */
static ZSTD_CCtx *stream_new(void)
{
	ZSTD_CCtx *z = ZSTD_createCCtx();

	if (z) {
		ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, PACK_ZSTD_LEVEL);
		ZSTD_CCtx_setParameter(z, ZSTD_c_windowLog, PACK_ZSTD_WINDOW_LOG);
	}
	return z;
}

int replay_pack_add(struct replay_pack *p, const char *doc, size_t len,
		    struct replay_location *at)
{
	int ret;

	if (replay_pack_needs_open(p) && (ret = open_pack(p)) < 0)
		return ret;
	if (!p->zstd && !(p->zstd = stream_new()))
		return -ENOMEM;
	if (!p->lines)
		p->frame_at = p->pending.len;
	if ((ret = compress(p, doc, len)) < 0)
		return ret;
	strlcpy(at->file, p->name, sizeof(at->file));
	at->offset = p->end + p->frame_at;
	at->line = p->lines++;
	return 0;
}

int replay_pack_add_frame(struct replay_pack *p, const char *frame, size_t len,
			  struct replay_location *at)
{
	int ret;

	if (replay_pack_needs_open(p) && (ret = open_pack(p)) < 0)
		return ret;
	/* the documents added before it end their frame first */
	if (p->lines && (ret = compress(p, NULL, 0)) < 0)
		return ret;
	p->lines = 0;
	if ((ret = reserve(&p->pending, len)) < 0)
		return ret;
	strlcpy(at->file, p->name, sizeof(at->file));
	at->offset = p->end + p->pending.len;
	at->line = 0;
	memcpy(p->pending.data + p->pending.len, frame, len);
	p->pending.len += len;
	return 0;
}

int replay_pack_seal(struct replay_pack *p)
{
	struct replay_batch empty = p->sealed;
	int ret;

	if (p->lines && (ret = compress(p, NULL, 0)) < 0)
		return ret;
	p->lines = 0;
	if (!p->pending.len)
		return 0;
	p->end += p->pending.len;
	p->sealed = p->pending;
	p->pending = empty;
	p->pending.len = 0;
	return 0;
}

int replay_pack_frame(const char *docs, size_t len, char **frame, size_t *frame_len)
{
	ZSTD_CCtx *z = stream_new();
	size_t cap = ZSTD_compressBound(len), n;

	*frame = NULL;
	*frame_len = 0;
	if (!z)
		return -ENOMEM;
	if (!(*frame = malloc(cap))) {
		ZSTD_freeCCtx(z);
		return -ENOMEM;
	}
	n = ZSTD_compress2(z, *frame, cap, docs, len);
	ZSTD_freeCCtx(z);
	if (ZSTD_isError(n)) {
		free(*frame);
		*frame = NULL;
		return -EIO;
	}
	*frame_len = n;
	return 0;
}

int replay_pack_frame_read(const char *frame, size_t len, size_t max, char **docs,
			   size_t *docs_len)
{
	unsigned long long size;
	ZSTD_DCtx *z;
	char *text;
	size_t n;

	*docs = NULL;
	*docs_len = 0;
	/* one whole frame of documents, with its size, which any reader of a pack decompresses */
	if (len < 4 || frame[0] != (char)0x28 || frame[1] != (char)0xb5 || frame[2] != (char)0x2f ||
	    frame[3] != (char)0xfd || ZSTD_getDictID_fromFrame(frame, len) != 0 ||
	    ZSTD_findFrameCompressedSize(frame, len) != len)
		return -EBADMSG;
	size = ZSTD_getFrameContentSize(frame, len);
	if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR)
		return -EBADMSG;
	if (size > max)
		return -EFBIG;
	if (!(z = ZSTD_createDCtx()))
		return -ENOMEM;
	if (!(text = malloc((size_t)size + 1))) {
		ZSTD_freeDCtx(z);
		return -ENOMEM;
	}
	n = ZSTD_decompressDCtx(z, text, (size_t)size, frame, len);
	ZSTD_freeDCtx(z);
	if (ZSTD_isError(n) || n != size) {
		free(text);
		return -EBADMSG;
	}
	text[n] = '\0';
	*docs = text;
	*docs_len = n;
	return 0;
}

int replay_pack_sync(struct replay_pack *p)
{
	struct replay_batch *b = &p->sealed;
	char path[PATH_MAX];
	size_t done = 0;
	int ret;

	if (!b->len)
		return 0;
	while (done < b->len) {
		ssize_t n = write(p->fd, b->data + done, b->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	b->len = 0;
	if (fdatasync(p->fd) < 0)
		return -errno;
	if (p->new_entry) {
		snprintf(path, sizeof(path), "%s/%s", p->dir, p->name);
		if ((ret = durable_sync_parent(path)) < 0)
			return ret;
		p->new_entry = 0;
	}
	return 0;
}
